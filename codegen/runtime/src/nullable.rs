//! An optional property that may also be `null`: absent, `null`, or a value, each sent and read
//! as it is, so that a request can clear a field (`null`) as well as leave it alone (absent).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The three states of an optional, nullable property on the wire.
///
/// In a generated struct, such a property is left out of the JSON when [`Nullable::Absent`],
/// written as `null` when [`Nullable::Null`], and reading tells the two apart (the `Tristate` form
/// of the runtime's `record!`). Alone, a `Nullable` reads `null` and writes `Absent` as `null`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Nullable<T> {
    /// Not in the object at all.
    #[default]
    Absent,
    /// In the object, as `null`.
    Null,
    /// In the object, with a value.
    Value(T),
}

impl<T> Nullable<T> {
    /// Whether the property is left out.
    pub fn is_absent(&self) -> bool {
        matches!(self, Nullable::Absent)
    }

    /// Whether the property is there as `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Nullable::Null)
    }

    /// The value, if there is one.
    pub fn value(&self) -> Option<&T> {
        match self {
            Nullable::Value(value) => Some(value),
            Nullable::Absent | Nullable::Null => None,
        }
    }

    /// The value, if there is one, taking it.
    pub fn into_value(self) -> Option<T> {
        match self {
            Nullable::Value(value) => Some(value),
            Nullable::Absent | Nullable::Null => None,
        }
    }

    /// A reference to the value, in the same state.
    pub fn as_ref(&self) -> Nullable<&T> {
        match self {
            Nullable::Absent => Nullable::Absent,
            Nullable::Null => Nullable::Null,
            Nullable::Value(value) => Nullable::Value(value),
        }
    }

    /// The value changed by `f`, in the same state.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Nullable<U> {
        match self {
            Nullable::Absent => Nullable::Absent,
            Nullable::Null => Nullable::Null,
            Nullable::Value(value) => Nullable::Value(f(value)),
        }
    }
}

impl<T> From<T> for Nullable<T> {
    /// A present value.
    fn from(value: T) -> Self {
        Nullable::Value(value)
    }
}

impl<T> From<Option<T>> for Nullable<T> {
    /// `None` is `null`: an `Option` given for the property says whether it has a value, and the
    /// property is sent either way.
    fn from(value: Option<T>) -> Self {
        value.map_or(Nullable::Null, Nullable::Value)
    }
}

impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            // Written only where the struct does not skip it: as `null`, the nearest there is.
            Nullable::Absent | Nullable::Null => serializer.serialize_none(),
            Nullable::Value(value) => serializer.serialize_some(value),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    /// Present: `null` or a value. (Absent is the struct's `default`.)
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(deserializer).map(Nullable::from)
    }
}

#[cfg(test)]
mod tests {
    use super::Nullable;

    #[derive(Debug, PartialEq)]
    struct Patch {
        nickname: Nullable<String>,
    }

    crate::record::record! { Patch { Tristate nickname } }

    #[test]
    fn absent_null_and_a_value_are_three_things_on_the_wire() {
        for (patch, json) in [
            (Patch { nickname: Nullable::Absent }, "{}"),
            (Patch { nickname: Nullable::Null }, r#"{"nickname":null}"#),
            (Patch { nickname: "Rex".to_string().into() }, r#"{"nickname":"Rex"}"#),
        ] {
            assert_eq!(serde_json::to_string(&patch).unwrap(), json);
            assert_eq!(serde_json::from_str::<Patch>(json).unwrap(), patch);
        }
        assert_eq!(Nullable::<u8>::from(None), Nullable::Null);
        assert_eq!(Nullable::Value(2).map(|n| n * 2).value(), Some(&4));
    }
}
