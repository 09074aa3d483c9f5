//! Support shared by the generated enums.

use std::fmt;

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
        write!(f, "`{}` is not a {}; expected one of {}", self.value, self.type_name, self.expected)
    }
}

impl std::error::Error for UnknownVariant {}
