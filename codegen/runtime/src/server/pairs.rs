//! Name/value pairs (a form body, a multipart body's text parts, an object in the query or a
//! path) read into a type: each value parsed as its field asks (numbers, booleans, enums), a name
//! given several times filling a list, and a nested object read from the JSON text written for it.

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};

use crate::server::problems::{Problems, located, parse_text};

/// Reads name/value pairs into `T` (a name given several times fills a list, a name of
/// `empties` not given at all is an empty list or map, and the text `null` given for a name of
/// `nulls`, fields that may be `null` and whose type has no such text, is `null`); a value that
/// does not fit is a recorded problem at `at.field`.
pub fn read_pairs<T: DeserializeOwned>(
    pairs: impl IntoIterator<Item = (String, String)>,
    empties: &[&str],
    nulls: &[&str],
    at: &str,
    problems: &mut Problems,
) -> Option<T> {
    // Values grouped by name, in the order names first appear.
    let mut fields: Vec<(String, Vec<String>)> = Vec::new();
    for (name, value) in pairs {
        match fields.iter_mut().find(|(n, _)| *n == name) {
            Some((_, values)) => values.push(value),
            None => fields.push((name, vec![value])),
        }
    }
    for empty in empties {
        if !fields.iter().any(|(n, _)| n == empty) {
            fields.push((empty.to_string(), Vec::new()));
        }
    }
    let fields: Vec<_> = fields
        .into_iter()
        .map(|(name, values)| {
            let null = nulls.contains(&name.as_str()) && values == ["null"];
            (name, Values { values, null })
        })
        .collect();
    let fields = Fields { fields: fields.into_iter(), pending: None };
    // Through the runtime's JSON reader, so that a value given as JSON text is a struct only as an object.
    let fields = crate::request_json::RequestJson::new(fields, &[]);
    match crate::enums::listed_only(|| serde_path_to_error::deserialize::<_, T>(fields)) {
        Ok(value) => Some(value),
        Err(e) => {
            let path = e.path().to_string();
            let name = located(at, if path == "." { "" } else { &path });
            problems.add(name, e.into_inner().to_string());
            None
        }
    }
}

/// The whole body, read as a map from names to values.
struct Fields {
    fields: std::vec::IntoIter<(String, Values)>,
    pending: Option<Values>,
}

impl<'de> Deserializer<'de> for Fields {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de> MapAccess<'de> for Fields {
    type Error = de::value::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        match self.fields.next() {
            Some((name, values)) => {
                self.pending = Some(values);
                seed.deserialize(name.into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        seed.deserialize(self.pending.take().unwrap_or_default())
    }
}

/// The values given for one name: one for a scalar, one per item for a list; `null` when the
/// one value is the text `null` and the field's type has no such text.
#[derive(Default)]
struct Values {
    values: Vec<String>,
    null: bool,
}

impl Values {
    fn of(values: Vec<String>) -> Self {
        Values { values, null: false }
    }
}

impl Values {
    fn one(self) -> Result<String, de::value::Error> {
        let count = self.values.len();
        let mut values = self.values.into_iter();
        match (values.next(), count) {
            (Some(value), 1) => Ok(value),
            _ => Err(de::Error::custom(format!("expected one value, found {count}"))),
        }
    }
}

macro_rules! parsed {
    ($($method:ident => $visit:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
                let text = self.one()?;
                match parse_text(&text) {
                    Ok(value) => visitor.$visit(value),
                    Err(_) => Err(de::Error::invalid_value(de::Unexpected::Str(&text), &visitor)),
                }
            }
        )*
    };
}

impl<'de> Deserializer<'de> for Values {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if self.values.len() != 1 {
            return self.deserialize_seq(visitor);
        }
        // A value of no fixed type (any JSON, a union) was written as its JSON text, a string as
        // itself: read back the same way. (`3` is then the number, as it must be one or the other.)
        // The text `null` stays text: where the field may be `null` and holds no such text, the
        // generated code lists it among the `nulls`, read as `null` before this.
        let text = self.one()?;
        match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(value) if !value.is_string() && !value.is_null() => {
                value.deserialize_any(visitor).map_err(de::Error::custom)
            }
            _ => visitor.visit_string(text),
        }
    }

    parsed!(
        deserialize_bool => visit_bool,
        deserialize_i8 => visit_i8,
        deserialize_i16 => visit_i16,
        deserialize_i32 => visit_i32,
        deserialize_i64 => visit_i64,
        deserialize_u8 => visit_u8,
        deserialize_u16 => visit_u16,
        deserialize_u32 => visit_u32,
        deserialize_u64 => visit_u64,
        deserialize_f32 => visit_f32,
        deserialize_f64 => visit_f64,
    );

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.null {
            true => visitor.visit_none(),
            false => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_seq(Items(self.values.into_iter()))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        // A map the form left out (see `read_pairs`) or gave no text (`tags=`): empty.
        if self.values.is_empty() || self.values == [""] {
            return visitor.visit_map(de::value::MapDeserializer::new(std::iter::empty::<(String, String)>()));
        }
        let value: serde_json::Value = serde_json::from_str(&self.one()?).map_err(de::Error::custom)?;
        value.deserialize_map(visitor).map_err(de::Error::custom)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_string(self.one()?)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_string(self.one()?)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_enum(self.one()?.into_deserializer())
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct tuple tuple_struct identifier ignored_any
    }
}

/// The items of a list, each read as a single value.
struct Items(std::vec::IntoIter<String>);

impl<'de> SeqAccess<'de> for Items {
    type Error = de::value::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Self::Error> {
        self.0.next().map(|item| seed.deserialize(Values::of(vec![item]))).transpose()
    }
}
