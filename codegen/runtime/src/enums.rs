//! Support shared by the generated enums.
//!
//! Every generated enum has a variant for values the spec does not list, so a client keeps
//! reading replies after the service adds a value. A server refuses such values in requests: it
//! reads them inside [`listed_only`], where the enums' parsers fail instead.

use std::cell::Cell;
use std::fmt;

thread_local! {
    /// Set while a request is being read; enums then accept only the values the spec lists.
    static LISTED_ONLY: Cell<bool> = const { Cell::new(false) };
}

/// Runs `read` with every generated enum refusing values the spec does not list. Reading is
/// synchronous, so the setting cannot leak into other work on the thread.
pub fn listed_only<T>(read: impl FnOnce() -> T) -> T {
    /// Restores the outer setting, even when `read` unwinds.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            LISTED_ONLY.set(self.0);
        }
    }
    let _restore = Restore(LISTED_ONLY.replace(true));
    read()
}

/// Whether an enum may keep a value the spec does not list: everywhere but inside [`listed_only`].
pub fn unlisted_allowed() -> bool {
    !LISTED_ONLY.get()
}

/// Text or a number that names no variant of a generated enum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVariant {
    /// The enum's Rust name.
    pub type_name: &'static str,
    /// What was given.
    pub value: String,
    /// The accepted values, comma-separated.
    pub expected: &'static str,
}

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a value of {}; expected one of {}", self.value, self.type_name, self.expected)
    }
}

impl std::error::Error for UnknownVariant {}

/// What an integer enum of a schema gets beyond its declaration, from the values its variants
/// stand for: `ALL`, `value`, reading a value back (`from_value`), `is_listed`, `Display`,
/// `FromStr` and serde.
///
/// `int_enum!(Name, Unlisted, [A(1), B(2)])`: `Unlisted(i64)` holds values the spec does not
/// list; `A` is written on the wire as `1`.
#[doc(hidden)]
#[macro_export]
macro_rules! __int_enum {
    ($name:ident, $unlisted:ident, [$($variant:ident($value:literal)),* $(,)?]) => {
        impl $name {
            /// Every value the spec lists, in its order.
            pub const ALL: [Self; <[&str]>::len(&[$(stringify!($variant)),*])] = [$(Self::$variant),*];

            /// The integer written on the wire.
            pub const fn value(self) -> i64 {
                match self {
                    $(Self::$variant => $value,)*
                    Self::$unlisted(value) => value,
                }
            }

            /// The values the spec lists, as errors name them: `1, 2`.
            fn listed() -> &'static str {
                static LISTED: ::std::sync::LazyLock<String> =
                    ::std::sync::LazyLock::new(|| $crate::codegen::enums::listed($name::ALL.map(|v| v.value().to_string())));
                &LISTED
            }

            /// The variant written on the wire as `value`.
            pub const fn from_value(value: i64) -> Self {
                let mut i = 0;
                while i < Self::ALL.len() {
                    if Self::ALL[i].value() == value {
                        return Self::ALL[i];
                    }
                    i += 1;
                }
                Self::$unlisted(value)
            }

            /// Whether the spec lists this value.
            pub const fn is_listed(self) -> bool {
                !matches!(self, Self::$unlisted(_))
            }

            /// `value`'s variant, or an error when reading a request and the spec does not list it.
            fn read(value: i64) -> ::std::result::Result<Self, $crate::UnknownVariant> {
                let read = Self::from_value(value);
                if read.is_listed() || $crate::codegen::enums::unlisted_allowed() {
                    Ok(read)
                } else {
                    Err($crate::codegen::enums::unknown(stringify!($name), value, Self::listed()))
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(&self.value(), f)
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::UnknownVariant;
            fn from_str(s: &str) -> ::std::result::Result<Self, $crate::UnknownVariant> {
                match s.parse() {
                    Ok(value) => Self::read(value),
                    Err(_) => Err($crate::codegen::enums::unknown(stringify!($name), s, Self::listed())),
                }
            }
        }

        impl $crate::codegen::serde::Serialize for $name {
            fn serialize<S: $crate::codegen::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_i64(self.value())
            }
        }

        impl<'de> $crate::codegen::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::codegen::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                let value = <i64 as $crate::codegen::serde::Deserialize>::deserialize(deserializer)?;
                Self::read(value).map_err($crate::codegen::serde::de::Error::custom)
            }
        }
    };
}

/// What a string enum of a schema gets beyond its declaration, from the texts its variants stand
/// for: `ALL`, `as_str`, `is_listed`, `Display`, `FromStr` and serde.
///
/// `string_enum!(Name, Unlisted, [A("a"), B("b")])`: `Unlisted(String)` holds values the spec
/// does not list; `A` is written on the wire as `"a"`.
#[doc(hidden)]
#[macro_export]
macro_rules! __string_enum {
    ($name:ident, $unlisted:ident, [$($variant:ident($value:literal)),* $(,)?]) => {
        impl $name {
            /// Every value the spec lists, in its order.
            pub const ALL: [Self; <[&str]>::len(&[$(stringify!($variant)),*])] = [$(Self::$variant),*];

            /// The text written on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $value,)*
                    Self::$unlisted(value) => value,
                }
            }

            /// The values the spec lists, as errors name them: `"a", "b"`.
            fn listed() -> &'static str {
                static LISTED: ::std::sync::LazyLock<String> = ::std::sync::LazyLock::new(|| {
                    $crate::codegen::enums::listed($name::ALL.map(|v| format!("{:?}", v.as_str())))
                });
                &LISTED
            }

            /// Whether the spec lists this value.
            pub fn is_listed(&self) -> bool {
                !matches!(self, Self::$unlisted(_))
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::UnknownVariant;
            /// A listed value's variant; any other text is kept, except when reading a request.
            fn from_str(s: &str) -> ::std::result::Result<Self, $crate::UnknownVariant> {
                match Self::ALL.iter().find(|listed| listed.as_str() == s) {
                    Some(listed) => Ok(listed.clone()),
                    None if $crate::codegen::enums::unlisted_allowed() => Ok(Self::$unlisted(s.to_string())),
                    None => Err($crate::codegen::enums::unknown(stringify!($name), s, Self::listed())),
                }
            }
        }

        impl $crate::codegen::serde::Serialize for $name {
            fn serialize<S: $crate::codegen::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::codegen::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::codegen::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                let text =
                    <::std::borrow::Cow<'de, str> as $crate::codegen::serde::Deserialize>::deserialize(deserializer)?;
                text.parse().map_err($crate::codegen::serde::de::Error::custom)
            }
        }
    };
}

#[doc(hidden)]
pub use crate::{__int_enum as int_enum, __string_enum as string_enum};

/// The values an enum lists, as its errors name them: comma-separated.
pub fn listed<const N: usize>(values: [String; N]) -> String {
    values.join(", ")
}

/// The error for `value`, which names no variant of the enum `type_name`.
pub fn unknown(type_name: &'static str, value: impl ToString, expected: &'static str) -> UnknownVariant {
    UnknownVariant { type_name, value: value.to_string(), expected }
}
