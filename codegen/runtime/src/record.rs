//! `Serialize` and `Deserialize` for the generated structs, written by [`record!`](crate::__record)
//! from a list of their fields.
//!
//! Serde's derive writes, for every struct, a field enum with its own visitor, a reader from JSON
//! arrays and one from objects, and a wrapper type per field read through a function: about 200
//! lines of code for the compiler per struct, the larger part of a types crate's build. The
//! structs need less: they are JSON objects (the runtime's readers refuse arrays anyway, see
//! [`request_json`](crate::request_json)), and every field is one of a few forms, each a [`Form`]
//! here, so the per-field work is a call of shared generic code.
//!
//! On the wire they behave as the derive did: unknown keys are skipped (or kept, in a struct with
//! a map of the properties its schema does not list), a key given twice and a missing required one
//! are errors with serde's own messages, and the struct is read with `deserialize_struct` under
//! its name and field names, which is how [`RequestJson`](crate::request_json::RequestJson)
//! refuses unknown keys in closed structs.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};

use crate::Nullable;

/// How one field is read and written; the forms are the unit types below.
pub trait Form<T> {
    /// Reads the field's value into `slot`, which holds what an earlier key of the same name
    /// gave.
    fn read<'de, A: MapAccess<'de>>(map: &mut A, slot: &mut Option<T>, wire: &'static str) -> Result<(), A::Error>
    where
        T: Deserialize<'de>,
    {
        if slot.is_some() {
            return Err(de::Error::duplicate_field(wire));
        }
        *slot = Some(map.next_value()?);
        Ok(())
    }

    /// The field once every key is read: what `slot` holds, or the value of an absent field.
    fn finish<E: de::Error>(slot: Option<T>, wire: &'static str) -> Result<T, E>;

    /// Whether the field is written (an absent optional one is left out).
    fn written(_value: &T) -> bool {
        true
    }
}

/// A required field that may not be `null`.
pub struct Required;

/// A required field that may be `null` (an `Option`): it must be there, as a value or `null`.
pub struct RequiredOrNull;

/// An optional field that may not be `null` (an `Option`): a client reading a reply takes a
/// `null` as absent, while a server reading a request (inside [`listed_only`]) refuses it.
///
/// [`listed_only`]: crate::enums::listed_only
pub struct Optional;

/// An optional field that may be `null` (an `Option`), both read as `None`.
pub struct OptionalOrNull;

/// An optional field that may be `null`, the two told apart (a [`Nullable`]).
pub struct Tristate;

impl<T> Form<T> for Required {
    fn finish<E: de::Error>(slot: Option<T>, wire: &'static str) -> Result<T, E> {
        slot.ok_or_else(|| de::Error::missing_field(wire))
    }
}

impl<T> Form<Option<T>> for RequiredOrNull {
    fn finish<E: de::Error>(slot: Option<Option<T>>, wire: &'static str) -> Result<Option<T>, E> {
        slot.ok_or_else(|| de::Error::missing_field(wire))
    }
}

impl<T> Form<Option<T>> for Optional {
    fn read<'de, A: MapAccess<'de>>(
        map: &mut A,
        slot: &mut Option<Option<T>>,
        wire: &'static str,
    ) -> Result<(), A::Error>
    where
        Option<T>: Deserialize<'de>,
    {
        if slot.is_some() {
            return Err(de::Error::duplicate_field(wire));
        }
        // Refused while the value is read, so that the error's path names the property.
        *slot = Some(map.next_value_seed(NotNull(PhantomData))?);
        Ok(())
    }

    fn finish<E: de::Error>(slot: Option<Option<T>>, _: &'static str) -> Result<Option<T>, E> {
        Ok(slot.flatten())
    }

    fn written(value: &Option<T>) -> bool {
        value.is_some()
    }
}

/// Reads an `Option<T>` that may be `null` only where [`crate::enums::unlisted_allowed`].
struct NotNull<T>(PhantomData<T>);

impl<'de, T> de::DeserializeSeed<'de> for NotNull<T>
where
    Option<T>: Deserialize<'de>,
{
    type Value = Option<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<T>, D::Error> {
        let value = Option::<T>::deserialize(deserializer)?;
        if value.is_none() && !crate::enums::unlisted_allowed() {
            return Err(de::Error::custom("`null` is not allowed here; leave the property out instead"));
        }
        Ok(value)
    }
}

impl<T> Form<Option<T>> for OptionalOrNull {
    fn finish<E: de::Error>(slot: Option<Option<T>>, _: &'static str) -> Result<Option<T>, E> {
        Ok(slot.flatten())
    }

    fn written(value: &Option<T>) -> bool {
        value.is_some()
    }
}

impl<T> Form<Nullable<T>> for Tristate {
    fn finish<E: de::Error>(slot: Option<Nullable<T>>, _: &'static str) -> Result<Nullable<T>, E> {
        Ok(slot.unwrap_or_default())
    }

    fn written(value: &Nullable<T>) -> bool {
        !value.is_absent()
    }
}

/// A key of a JSON object, borrowed from the input where it can be.
pub struct Key<'de>(Cow<'de, str>);

impl Key<'_> {
    /// The key's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The key's text, owned.
    pub fn into_owned(self) -> String {
        self.0.into_owned()
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a property name")
            }

            fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(key)))
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key.to_string())))
            }

            fn visit_string<E: de::Error>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key)))
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// A struct `record!` writes `Deserialize` for: its name, its fields' wire names, and how it is
/// read from a JSON object. The visitor is this module's, not one declared beside the struct, so
/// no name a document gives a type can collide with it.
pub trait Record: Sized {
    /// The struct's Rust name.
    const NAME: &'static str;
    /// Its fields' wire names.
    const FIELDS: &'static [&'static str];

    /// Reads the struct from the entries of a JSON object.
    fn read<'de, A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// Reads a [`Record`] with `deserialize_struct`, under its name and fields (which is how
/// [`RequestJson`](crate::request_json::RequestJson) refuses unknown keys in closed structs).
pub fn deserialize<'de, T: Record, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    struct RecordVisitor<T>(PhantomData<T>);

    impl<'de, T: Record> Visitor<'de> for RecordVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "struct {}", T::NAME)
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::read(map)
        }
    }

    deserializer.deserialize_struct(T::NAME, T::FIELDS, RecordVisitor(PhantomData))
}

/// Skips the value of a key the struct does not list.
pub fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<de::IgnoredAny>().map(drop)
}

/// `record! { Name { Form field, Form field = "wire", Form field default path, … } }` writes
/// `Serialize` and `Deserialize` for the struct `Name`: each field in the [`Form`] named first,
/// under its wire name (the field's own name unless given), absent ones read as `path()` where a
/// default is given. After the braces, `rest field` names a map that keeps the keys not listed,
/// and `skip { field, … }` the fields never on the wire (read as their `Default`).
#[doc(hidden)]
#[macro_export]
macro_rules! __record {
    (
        $name:ident {
            $($form:ident $field:ident $(= $wire:literal)? $(default $default:path)?),* $(,)?
        }
        $(rest $extra:ident)?
        $(skip { $($skipped:ident),* })?
    ) => {
        impl $crate::codegen::serde::Serialize for $name {
            fn serialize<S: $crate::codegen::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use $crate::codegen::record::Form as _;
                use $crate::codegen::serde::ser::SerializeMap as _;
                let len = 0 $(+ $crate::codegen::record::$form::written(&self.$field) as usize)* $(+ self.$extra.len())?;
                let mut map = serializer.serialize_map(Some(len))?;
                $(
                    if $crate::codegen::record::$form::written(&self.$field) {
                        map.serialize_entry($crate::__record_wire!($field $($wire)?), &self.$field)?;
                    }
                )*
                $(
                    for (key, value) in &self.$extra {
                        map.serialize_entry(key, value)?;
                    }
                )?
                map.end()
            }
        }

        impl $crate::codegen::record::Record for $name {
            const NAME: &'static str = stringify!($name);
            const FIELDS: &'static [&'static str] = &[$($crate::__record_wire!($field $($wire)?)),*];

            fn read<'de, A: $crate::codegen::serde::de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
                use $crate::codegen::record::Form as _;
                $(let mut $field = None;)*
                $(let mut $extra = ::std::collections::BTreeMap::new();)?
                while let Some(key) = map.next_key::<$crate::codegen::record::Key<'de>>()? {
                    match key.as_str() {
                        $(
                            $crate::__record_wire!($field $($wire)?) => $crate::codegen::record::$form::read(
                                &mut map,
                                &mut $field,
                                $crate::__record_wire!($field $($wire)?),
                            )?,
                        )*
                        _ => $crate::__record_other!(map, key $(, $extra)?),
                    }
                }
                Ok(Self {
                    $($field: $crate::__record_finish!(A::Error, $form, $field, $crate::__record_wire!($field $($wire)?) $(, $default)?),)*
                    $($extra,)?
                    $($($skipped: Default::default(),)*)?
                })
            }
        }

        impl<'de> $crate::codegen::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::codegen::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::codegen::record::deserialize(deserializer)
            }
        }
    };
}

/// A field's wire name: the one given, else the field's own.
#[doc(hidden)]
#[macro_export]
macro_rules! __record_wire {
    ($field:ident $wire:literal) => {
        $wire
    };
    ($field:ident) => {
        stringify!($field)
    };
}

/// What a key the struct does not list becomes: skipped, or kept in the struct's map.
#[doc(hidden)]
#[macro_export]
macro_rules! __record_other {
    ($map:ident, $key:ident) => {
        $crate::codegen::record::skip(&mut $map)?
    };
    ($map:ident, $key:ident, $extra:ident) => {{
        let value = $map.next_value()?;
        $extra.insert($key.into_owned(), value);
    }};
}

/// A field once every key is read, from its form or, when absent, its default.
#[doc(hidden)]
#[macro_export]
macro_rules! __record_finish {
    ($error:ty, $form:ident, $field:ident, $wire:expr) => {
        $crate::codegen::record::$form::finish::<$error>($field, $wire)?
    };
    ($error:ty, $form:ident, $field:ident, $wire:expr, $default:path) => {
        match $field {
            Some(value) => value,
            None => $default(),
        }
    };
}

#[doc(hidden)]
pub use crate::__record as record;

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::request_json::{RequestJson, from_slice, with_closed};

    #[derive(Debug, Clone, PartialEq, Default)]
    struct Point {
        x: Option<i32>,
        y: Option<i32>,
    }

    crate::record::record! { Point { Optional x, OptionalOrNull y } }

    #[derive(Debug, Clone, PartialEq)]
    struct Pet {
        name: String,
        r#type: Option<String>,
        owner: Option<String>,
        legs: u8,
        at: Point,
        note: crate::Nullable<String>,
        upload: Vec<u8>,
    }

    impl Pet {
        fn default_legs() -> u8 {
            4
        }
    }

    crate::record::record! {
        Pet {
            Required name = "petName",
            Optional r#type = "type",
            RequiredOrNull owner,
            Required legs default Self::default_legs,
            Required at,
            Tristate note,
        }
        skip { upload }
    }

    #[derive(Debug, Clone, PartialEq)]
    struct Open {
        a: Option<i32>,
        rest: BTreeMap<String, Point>,
    }

    crate::record::record! { Open { Optional a } rest rest }

    /// Types may be named like anything the macro uses, its visitor and generic parameters
    /// included.
    #[derive(Debug, PartialEq)]
    struct RecordVisitor {
        inner: Option<A>,
    }

    crate::record::record! { RecordVisitor { Optional inner } }

    #[derive(Debug, PartialEq)]
    struct A {
        d: i32,
    }

    impl A {
        fn default_d() -> i32 {
            7
        }
    }

    crate::record::record! { A { Required d default Self::default_d } }

    fn pet(json: &str) -> Result<Pet, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_struct_may_be_named_like_the_visitor_or_a_generic_parameter() {
        let read: RecordVisitor = serde_json::from_str(r#"{"inner":{}}"#).unwrap();
        assert_eq!(read, RecordVisitor { inner: Some(A { d: 7 }) });
        assert_eq!(serde_json::to_string(&read).unwrap(), r#"{"inner":{"d":7}}"#);
    }

    #[test]
    fn fields_are_written_under_their_wire_names_and_absent_ones_are_left_out() {
        let mut value = Pet {
            name: "Rex".into(),
            r#type: None,
            owner: None,
            legs: 3,
            at: Point { x: Some(1), y: None },
            note: crate::Nullable::Absent,
            upload: vec![1, 2],
        };
        let text = serde_json::to_string(&value).unwrap();
        assert_eq!(text, r#"{"petName":"Rex","owner":null,"legs":3,"at":{"x":1}}"#);
        value.upload.clear();
        assert_eq!(pet(&text).unwrap(), value);
        value.r#type = Some("dog".into());
        value.note = crate::Nullable::Null;
        let text = serde_json::to_string(&value).unwrap();
        assert_eq!(text, r#"{"petName":"Rex","type":"dog","owner":null,"legs":3,"at":{"x":1},"note":null}"#);
        assert_eq!(pet(&text).unwrap(), value);
    }

    #[test]
    fn missing_repeated_and_unknown_keys_are_read_as_serde_reads_them() {
        let read = pet(r#"{"petName":"Rex","owner":"Ann","at":{},"wings":2}"#).unwrap();
        assert_eq!((read.legs, read.owner.as_deref(), read.note), (4, Some("Ann"), crate::Nullable::Absent));
        let missing = pet(r#"{"petName":"Rex","at":{}}"#).unwrap_err();
        assert!(missing.starts_with("missing field `owner`"), "{missing}");
        let twice = pet(r#"{"petName":"Rex","petName":"Max","owner":null,"at":{}}"#).unwrap_err();
        assert!(twice.starts_with("duplicate field `petName`"), "{twice}");
        let null = pet(r#"{"petName":null,"owner":null,"at":{}}"#).unwrap_err();
        assert!(null.starts_with("invalid type: null, expected a string"), "{null}");
        // An escaped key is the same key.
        assert_eq!(pet(r#"{"pet\u004eame":"Rex","owner":null,"at":{}}"#).unwrap().name, "Rex");
    }

    #[test]
    fn a_null_for_a_property_that_may_only_be_left_out_is_refused_in_requests_only() {
        let json = br#"{"x":null,"y":null}"#;
        assert_eq!(from_slice::<Point>(json).unwrap(), Point::default());
        let refused = crate::enums::listed_only(|| from_slice::<Point>(json)).unwrap_err().to_string();
        assert!(refused.starts_with("`null` is not allowed here"), "{refused}");
        let y_only = crate::enums::listed_only(|| from_slice::<Point>(br#"{"y":null}"#));
        assert_eq!(y_only.unwrap(), Point::default());
    }

    #[test]
    fn unlisted_properties_are_kept_in_the_rest_map_and_read_through_the_json_reader() {
        let open = from_slice::<Open>(br#"{"a": 1, "b": {"x": 2}}"#).unwrap();
        assert_eq!(open.rest["b"], Point { x: Some(2), y: None });
        assert_eq!(serde_json::to_string(&open).unwrap(), r#"{"a":1,"b":{"x":2}}"#);
        let refused = from_slice::<Open>(br#"{"a": 1, "b": [2, 3]}"#).unwrap_err().to_string();
        assert!(refused.contains("invalid type: sequence, expected struct Point"), "{refused}");
        assert!(from_slice::<Point>(b"[1, 2]").is_err());
    }

    #[test]
    fn a_closed_struct_refuses_keys_it_does_not_list() {
        let read = |json: &str| {
            let mut de = serde_json::Deserializer::from_str(json);
            with_closed(&["Point"], || {
                <Point as serde::Deserialize>::deserialize(RequestJson::new(&mut de, &["Point"]))
            })
            .map_err(|e| e.to_string())
        };
        assert_eq!(read(r#"{"x":1}"#).unwrap(), Point { x: Some(1), y: None });
        let refused = read(r#"{"x":1,"z":2}"#).unwrap_err();
        assert!(refused.starts_with("unknown property `z`"), "{refused}");
    }
}
