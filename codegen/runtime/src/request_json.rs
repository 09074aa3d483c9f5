//! What the runtime reads in JSON beyond what the generated types' serde does.
//!
//! - Structs are JSON objects only: serde's derive also reads a struct from an array of its
//!   field values (`[1, "a"]`), which no schema allows. Every reader of generated types (request
//!   bodies and parameters, replies, error bodies, stream items) goes through [`RequestJson`],
//!   so this is checked once here rather than in each type.
//! - Objects the document closes (`additionalProperties: false`): the generated types ignore
//!   unknown properties, so that a client keeps reading replies after the service adds one; for
//!   each struct whose name is in a sorted list of closed ones, an unknown key is an error, as
//!   `#[serde(deny_unknown_fields)]` would make it.
//! - Integers written with a fraction of zero (`6.0`): JSON Schema counts them as integers,
//!   serde's integer types refuse them; read where an integer is expected, they are one.
//!
//! [`RequestJson`] wraps another deserializer to do all three; everything else passes through. The
//! members of a choice are read from a JSON value apart from the body: [`member`] reads them the
//! same way, with the closed structs of the request being read ([`with_closed`]).

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};

/// 2^53: below it, every integer is exact as a float.
pub(crate) const SAFE_INTEGER_END: f64 = 9_007_199_254_740_992.0;

thread_local! {
    /// The closed structs of the request body being read on this thread (none outside one).
    static CLOSED: Cell<&'static [&'static str]> = const { Cell::new(&[]) };
}

/// Runs `read` with `closed` (sorted) as the closed structs that [`member`] reads choices'
/// members with, restoring the outer list afterwards.
pub fn with_closed<T>(closed: &'static [&'static str], read: impl FnOnce() -> T) -> T {
    /// Restores the outer list, even when `read` unwinds.
    struct Restore(&'static [&'static str]);
    impl Drop for Restore {
        fn drop(&mut self) {
            CLOSED.set(self.0);
        }
    }
    let _restore = Restore(CLOSED.replace(closed));
    read()
}

/// A deserializer for a member of a choice, read from the JSON `value` the choice was read into:
/// inside [`with_closed`], its closed structs refuse unknown keys as the body's own do. A client
/// reading a reply is never inside it, so it keeps ignoring unknown properties.
pub fn member(value: &serde_json::Value) -> RequestJson<'static, &serde_json::Value> {
    RequestJson::new(value, CLOSED.get())
}

/// `bytes` read as a `T` in JSON as every reader of generated types reads it: structs from
/// objects only, no struct closed (a client ignores properties its document does not list).
pub fn from_slice<T: de::DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = T::deserialize(RequestJson::new(&mut de, &[]))?;
    de.end()?;
    Ok(value)
}

/// A deserializer that reads structs from objects only and refuses unknown keys in the structs
/// named in `closed` (sorted).
pub struct RequestJson<'c, D> {
    inner: D,
    closed: &'c [&'c str],
}

impl<'c, D> RequestJson<'c, D> {
    /// Wraps `inner`; `closed` must be sorted.
    pub fn new(inner: D, closed: &'c [&'c str]) -> Self {
        RequestJson { inner, closed }
    }
}

/// The fields of the struct being read, when it is closed.
type Known = Option<&'static [&'static str]>;

/// A visitor whose maps, sequences and nested values are read through [`RequestJson`].
struct Wrap<'c, V> {
    inner: V,
    closed: &'c [&'c str],
    known: Known,
    /// An integer is expected: a float with no fraction is read as one.
    integral: bool,
    /// A struct is expected: only an object is one.
    object: bool,
}

macro_rules! forward {
    ($integral:literal: $($method:ident $(($($arg:ident: $ty:ty),*))?),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($($arg: $ty,)*)? visitor: V) -> Result<V::Value, D::Error> {
                let closed = self.closed;
                self.inner.$method($($($arg,)*)? Wrap { inner: visitor, closed, known: None, integral: $integral, object: false })
            }
        )*
    };
}

impl<'de, 'c, D: Deserializer<'de>> Deserializer<'de> for RequestJson<'c, D> {
    type Error = D::Error;

    forward! {
        true: deserialize_i8, deserialize_i16, deserialize_i32, deserialize_i64, deserialize_i128,
        deserialize_u8, deserialize_u16, deserialize_u32, deserialize_u64, deserialize_u128,
    }

    forward! {
        false: deserialize_any, deserialize_bool, deserialize_f32, deserialize_f64, deserialize_char, deserialize_str, deserialize_string,
        deserialize_bytes, deserialize_byte_buf, deserialize_option, deserialize_unit, deserialize_seq,
        deserialize_map, deserialize_identifier, deserialize_ignored_any,
        deserialize_unit_struct(name: &'static str),
        deserialize_newtype_struct(name: &'static str),
        deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let known = self.closed.binary_search(&name).is_ok().then_some(fields);
        let closed = self.closed;
        self.inner.deserialize_struct(
            name,
            fields,
            Wrap { inner: visitor, closed, known, integral: false, object: true },
        )
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

macro_rules! visit {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method<E: de::Error>(self, value: $ty) -> Result<V::Value, E> {
                self.inner.$method(value)
            }
        )*
    };
}

impl<'de, 'c, V: Visitor<'de>> Visitor<'de> for Wrap<'c, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.inner.expecting(f)
    }

    visit! {
        visit_bool(bool), visit_i8(i8), visit_i16(i16), visit_i32(i32), visit_i64(i64), visit_i128(i128),
        visit_u8(u8), visit_u16(u16), visit_u32(u32), visit_u64(u64), visit_u128(u128), visit_f32(f32),
        visit_char(char), visit_str(&str), visit_borrowed_str(&'de str), visit_string(String),
        visit_bytes(&[u8]), visit_borrowed_bytes(&'de [u8]), visit_byte_buf(Vec<u8>),
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<V::Value, E> {
        // Only where every integer is exact as a float: past 2^53 a float may be an integer
        // literal too large for any integer type (`-9223372036854775809` reads as -2^63).
        if self.integral && value.fract() == 0.0 && value.abs() < SAFE_INTEGER_END {
            return self.inner.visit_i64(value as i64);
        }
        self.inner.visit_f64(value)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.inner.visit_some(RequestJson::new(deserializer, self.closed))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(RequestJson::new(deserializer, self.closed))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if self.object {
            return Err(de::Error::invalid_type(de::Unexpected::Seq, &self));
        }
        self.inner.visit_seq(Items { inner: seq, closed: self.closed })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(Entries { inner: map, closed: self.closed, known: self.known })
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.inner.visit_enum(data)
    }
}

/// A seed whose value is read through [`RequestJson`].
struct Seed<'c, S> {
    inner: S,
    closed: &'c [&'c str],
}

impl<'de, 'c, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'c, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        // Every nested value comes through here: where the stack runs low, reading goes on in
        // a segment of its own, so that no body, however deep, overflows the thread's stack.
        grown(|| self.inner.deserialize(RequestJson::new(deserializer, self.closed)))
    }
}

/// `bytes` with every number written as a whole number with a zero fraction (`…979.0`) and more
/// than 15 digits written without its fraction. serde_json reads such a number through a
/// significand past 2^53 and may land a quarter off (`1889331988471979.0` reads as
/// `1889331988471979.25`), which an integer then refuses; without the fraction it is read
/// exactly. Bodies without such a number (nearly all) are returned as they are.
#[cfg(feature = "server")]
pub(crate) fn exact_integers(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    /// Significant digits up to which a significand stays below 2^53, read exactly.
    const EXACT_DIGITS: usize = 15;
    let mut cuts = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Skip the string, escapes included.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i + usize::from(bytes[i] == b'-');
                let whole = start + bytes[start..].iter().take_while(|b| b.is_ascii_digit()).count();
                i = whole;
                if bytes.get(i) != Some(&b'.') {
                    continue;
                }
                let zeros = bytes[i + 1..].iter().take_while(|b| **b == b'0').count();
                let end = i + 1 + zeros + bytes[i + 1 + zeros..].iter().take_while(|b| b.is_ascii_digit()).count();
                let exponent = matches!(bytes.get(end), Some(b'e' | b'E'));
                if zeros > 0 && end == i + 1 + zeros && !exponent && whole - start + zeros > EXACT_DIGITS {
                    cuts.push(i..end);
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    if cuts.is_empty() {
        return std::borrow::Cow::Borrowed(bytes);
    }
    let mut exact = Vec::with_capacity(bytes.len());
    let mut from = 0;
    for cut in cuts {
        exact.extend_from_slice(&bytes[from..cut.start]);
        from = cut.end;
    }
    exact.extend_from_slice(&bytes[from..]);
    std::borrow::Cow::Owned(exact)
}

/// Runs `read` where at least [`RED_ZONE`] of stack is left, on a new segment of
/// [`SEGMENT`] if need be. Reading one level of a large generated type (a struct of many inline
/// structs) can take a few hundred KiB in a debug build.
#[cfg(feature = "server")]
pub(crate) fn grown<T>(read: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(RED_ZONE, SEGMENT, read)
}

/// Without the server, only a client's choices are read here, from replies: the stack it has.
#[cfg(not(feature = "server"))]
pub(crate) fn grown<T>(read: impl FnOnce() -> T) -> T {
    read()
}

/// Stack kept free below each nested value.
#[cfg(feature = "server")]
const RED_ZONE: usize = 512 * 1024;
/// The size of each further stack segment.
#[cfg(feature = "server")]
const SEGMENT: usize = 4 * 1024 * 1024;

struct Items<'c, A> {
    inner: A,
    closed: &'c [&'c str],
}

impl<'de, 'c, A: SeqAccess<'de>> SeqAccess<'de> for Items<'c, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        self.inner.next_element_seed(Seed { inner: seed, closed: self.closed })
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

struct Entries<'c, A> {
    inner: A,
    closed: &'c [&'c str],
    known: Known,
}

impl<'de, 'c, A: MapAccess<'de>> MapAccess<'de> for Entries<'c, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        let Some(known) = self.known else {
            return self.inner.next_key_seed(Seed { inner: seed, closed: self.closed });
        };
        // A closed struct's keys are read as text first, to be checked against its fields.
        let Some(key) = self.inner.next_key::<String>()? else { return Ok(None) };
        if !known.contains(&key.as_str()) {
            return Err(de::Error::custom(format_args!("unknown property `{key}`: the object allows no others")));
        }
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.inner.next_value_seed(Seed { inner: seed, closed: self.closed })
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::RequestJson;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Open {
        a: i32,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Shut {
        a: i32,
        #[serde(default)]
        inner: Option<Vec<Open>>,
        #[serde(default)]
        shut: Option<Box<Shut>>,
    }

    fn read<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, String> {
        let mut de = serde_json::Deserializer::from_str(json);
        T::deserialize(RequestJson::new(&mut de, &["Shut"])).map_err(|e| e.to_string())
    }

    #[test]
    fn closed_structs_refuse_unknown_keys_and_open_ones_ignore_them() {
        assert_eq!(read::<Open>(r#"{"a": 1, "b": 2}"#), Ok(Open { a: 1 }));
        assert_eq!(
            read::<Shut>(r#"{"a": 1, "inner": [{"a": 2, "x": 0}]}"#).map(|s| s.inner),
            Ok(Some(vec![Open { a: 2 }]))
        );
        let refused = read::<Shut>(r#"{"a": 1, "b": 2}"#).unwrap_err();
        assert!(refused.contains("unknown property `b`"), "{refused}");
        let nested = read::<Shut>(r#"{"a": 1, "shut": {"a": 2, "c": 3}}"#).unwrap_err();
        assert!(nested.contains("unknown property `c`"), "{nested}");
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Point {
        x: Option<i32>,
        y: Option<i32>,
    }

    #[test]
    fn structs_are_objects_only_at_every_depth() {
        use std::collections::BTreeMap;
        let read = super::from_slice::<Point>;
        assert_eq!(read(br#"{"x":1}"#).unwrap(), Point { x: Some(1), y: None });
        let refused = read(b"[1, 2]").unwrap_err().to_string();
        assert!(refused.starts_with("invalid type: sequence, expected struct Point"), "{refused}");
        assert!(super::from_slice::<Vec<Point>>(b"[[null, null]]").is_err());
        assert!(super::from_slice::<Option<Box<Point>>>(b"[1, 2]").is_err());
        assert!(super::from_slice::<BTreeMap<String, Point>>(br#"{"a": [1, 2]}"#).is_err());
        assert!(super::from_slice::<Shut>(br#"{"a": 1, "shut": [2]}"#).is_err());
        assert_eq!(super::from_slice::<Vec<Point>>(br#"[{"y":2}]"#).unwrap(), [Point { x: None, y: Some(2) }]);
        // A list is still a list, and a choice's member read from a value is a struct too.
        assert_eq!(super::from_slice::<Vec<i32>>(b"[1, 2]").unwrap(), [1, 2]);
        let value = serde_json::json!([1, 2]);
        assert!(Point::deserialize(super::member(&value)).is_err());
        // Trailing text after the value is refused.
        assert!(read(br#"{"x":1} 2"#).is_err());
    }

    /// A level of a large type: reading it keeps an 8 KiB field on the stack.
    #[cfg(feature = "server")]
    #[derive(Debug, Deserialize)]
    struct Deep {
        #[serde(default)]
        #[allow(dead_code)]
        heavy: Option<[[u64; 32]; 32]>,
        #[serde(default)]
        next: Option<Box<Deep>>,
    }

    #[cfg(feature = "server")]
    #[test]
    fn a_body_as_deep_as_json_allows_is_read_on_a_small_stack() {
        // serde_json reads 128 levels at most; 120 of this type take far more than 256 KiB.
        let json = format!("{}{{}}{}", r#"{"next":"#.repeat(119), "}".repeat(119));
        let depth = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let mut deep = read::<Deep>(&json).expect("a valid body");
                let mut depth = 1;
                while let Some(next) = deep.next {
                    deep = *next;
                    depth += 1;
                }
                depth
            })
            .expect("a thread")
            .join()
            .expect("no overflow");
        assert_eq!(depth, 120);
    }

    #[cfg(feature = "server")]
    #[test]
    fn long_whole_numbers_with_a_zero_fraction_are_read_exactly() {
        use super::exact_integers;
        let read_exact = |json: &str| read::<Vec<i64>>(std::str::from_utf8(&exact_integers(json.as_bytes())).unwrap());
        // serde_json alone reads this one a quarter off, and the integer refuses it.
        assert!(read::<Vec<i64>>("[1889331988471979.0]").is_err());
        assert_eq!(
            read_exact("[1889331988471979.0, -1889331988471979.000]"),
            Ok(vec![1889331988471979, -1889331988471979])
        );
        assert!(read_exact("[1889331988471979.25]").is_err(), "a fraction stays a fraction");
        let untouched = [
            r#"{"a": 6.0, "b": 1.0e20, "c": 1889331988471979.5}"#,
            r#"{"1889331988471979.0": "1889331988471979.0"}"#,
            "[1889331988471979.",
        ];
        for json in untouched {
            assert!(matches!(exact_integers(json.as_bytes()), std::borrow::Cow::Borrowed(_)), "{json}");
        }
        let escaped = r#"["\"", 1889331988471979.0]"#;
        assert_eq!(&*exact_integers(escaped.as_bytes()), br#"["\"", 1889331988471979]"#);
    }

    #[test]
    fn integers_written_with_a_zero_fraction_are_integers() {
        assert_eq!(read::<Open>(r#"{"a": 6.0}"#), Ok(Open { a: 6 }));
        assert_eq!(read::<Vec<u64>>("[1.0, 2e3]"), Ok(vec![1, 2000]));
        assert!(read::<Open>(r#"{"a": 6.5}"#).is_err(), "a fraction is not an integer");
        assert!(read::<Open>(r#"{"a": 3e9}"#).is_err(), "past `i32`");
        assert!(read::<i64>("-9223372036854775809").is_err(), "past `i64`, though it reads as -2^63 as a float");
        assert!(read::<u64>("18446744073709551616").is_err(), "past `u64`");
        assert_eq!(read::<f64>("6.0"), Ok(6.0));
        assert_eq!(read::<Open>(r#"{"a": 1.0, "x": {"y": [5229090536422937600, 4.2e-67]}}"#), Ok(Open { a: 1 }));
        let value = read::<serde_json::Value>("6.0").unwrap();
        assert!(value.is_f64(), "a value of any type keeps what was written");
    }
}
