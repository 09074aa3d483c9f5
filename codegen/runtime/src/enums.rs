//! Support shared by the generated enums.
//!
//! Every generated enum has a variant for values the spec does not list, so a client keeps
//! reading replies after the service adds a value. A server refuses such values in requests: it
//! reads them inside [`listed_only`], where the enums' parsers fail instead.

use std::cell::Cell;
use std::fmt;

use serde::Deserialize;

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

/// Reads an optional property the spec does not allow to be `null`: a client keeps reading a
/// reply that sends `null` for it (as absent), while a server reading a request (inside
/// [`listed_only`]) refuses the `null`. Used with `#[serde(default)]`, so an absent property
/// never gets here.
pub fn not_null<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    let value = Option::<T>::deserialize(deserializer)?;
    if value.is_none() && !unlisted_allowed() {
        return Err(serde::de::Error::custom("`null` is not allowed here; leave the property out instead"));
    }
    Ok(value)
}

/// Reads a required property that may be `null`: as a plain `Option` field it would read as
/// `None` when left out, which the spec does not allow; through this it must be there, as a
/// value or as `null`.
pub fn required_nullable<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer)
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
