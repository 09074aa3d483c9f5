//! Generated structs are JSON objects only. serde's derived `Deserialize` also accepts a struct
//! written as an array of its field values (`[1, "a"]`); a schema never allows that, so each
//! generated struct reads itself through [`ObjectOnly`], which asks for a map where serde would
//! accept either.

use serde::de::{Deserializer, Visitor};

/// A deserializer that reads structs as maps only and passes everything else through unchanged.
pub struct ObjectOnly<D>(pub D);

macro_rules! forward {
    ($($method:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                self.0.$method(visitor)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ObjectOnly<D> {
    type Error = D::Error;

    forward!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, visitor)
    }

    /// The one change: a struct must be a map. It is still asked for as a struct, so that a
    /// deserializer wrapped around this one sees its name and fields.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_struct(name, fields, MapOnly(visitor))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// A struct's visitor that takes a map only: anything else is the error serde's default gives.
struct MapOnly<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for MapOnly<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.0.expecting(f)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(map)
    }
}

/// `Serialize` and `Deserialize` for a struct from those of its wire twin, a private struct with
/// the same fields that derives them with `#[serde(remote = "Struct")]`: the derived code, read
/// through [`ObjectOnly`]. The twin keeps serde's helper functions off the struct's own page.
#[doc(hidden)]
#[macro_export]
macro_rules! __object_only {
    ($name:ident, $wire:ident) => {
        impl $crate::codegen::serde::Serialize for $name {
            fn serialize<S: $crate::codegen::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                $wire::serialize(self, serializer)
            }
        }

        impl<'de> $crate::codegen::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::codegen::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                $wire::deserialize($crate::codegen::object_only::ObjectOnly(deserializer))
            }
        }
    };
}

#[doc(hidden)]
pub use crate::__object_only as object_only;

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Deserializer};

    use super::ObjectOnly;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(remote = "Self")]
    struct Point {
        x: Option<i32>,
        y: Option<i32>,
    }

    impl<'de> Deserialize<'de> for Point {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            Point::deserialize(ObjectOnly(deserializer))
        }
    }

    #[test]
    fn structs_are_objects_only() {
        assert_eq!(serde_json::from_str::<Point>(r#"{"x":1}"#).unwrap(), Point { x: Some(1), y: None });
        assert!(serde_json::from_str::<Point>("[1, 2]").is_err());
        assert!(serde_json::from_str::<Vec<Point>>("[[null, null]]").is_err());
        assert_eq!(serde_json::from_str::<Vec<Point>>(r#"[{"y":2}]"#).unwrap(), [Point { x: None, y: Some(2) }]);
    }
}
