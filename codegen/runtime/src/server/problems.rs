//! What a request got wrong, recorded as it is read: [`Problems`], where each one is
//! ([`located`]), and the parsing of a value's text that records them.

use std::fmt::Display;
use std::str::FromStr;

use crate::server::ApiError;
use crate::server::api_error::problem_types;

/// Validation failures of one request, by parameter, header or body path.
#[derive(Debug, Default)]
pub struct Problems {
    errors: Vec<(String, String)>,
}

impl Problems {
    /// How many problems were recorded so far.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// Records that `name` (a parameter, header or body path) is wrong: `message` says how.
    pub fn add(&mut self, name: impl Into<String>, message: impl Into<String>) {
        self.errors.push((name.into(), message.into()));
    }

    /// `Ok` when nothing was recorded, else the 400 reply that lists everything.
    pub fn check(self) -> Result<(), ApiError> {
        if self.errors.is_empty() { Ok(()) } else { Err(self.into_error()) }
    }

    /// The 400 reply that lists every problem recorded.
    pub fn into_error(self) -> ApiError {
        let mut names: Vec<&str> = self.errors.iter().map(|(n, _)| n.as_str()).collect();
        names.dedup();
        let detail = match names.as_slice() {
            [] => "the request is invalid".to_string(),
            [one] => format!("`{one}` is invalid"),
            many => format!("{} are invalid", many.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")),
        };
        let mut error =
            ApiError::bad_request(detail).with_type(problem_types::INVALID_REQUEST).with_title("Invalid request");
        for (name, message) in self.errors {
            error = error.with_error(name, message);
        }
        error
    }
}

/// Parses a parameter's text into its type; `kind` names the type in messages, or is empty when
/// the type's own error already names it (generated enums).
pub(crate) fn parse<T: FromStr>(text: &str, kind: &str) -> Result<T, String>
where
    T::Err: Display,
{
    // A request may carry only the enum values the spec lists.
    crate::enums::listed_only(|| parse_text(text)).map_err(|e: T::Err| {
        if kind.is_empty() { e.to_string() } else { format!("`{text}` is not a valid {kind}: {e}") }
    })
}

/// `text` parsed as a `T`; an integer may be written with a zero fraction (`6.0`, `6e0`), which
/// JSON Schema counts as an integer and Rust's integer parsers do not.
pub(crate) fn parse_text<T: FromStr>(text: &str) -> Result<T, T::Err> {
    text.parse().or_else(|e| {
        let integral = text
            .contains(['.', 'e', 'E'])
            .then(|| text.parse::<f64>().ok())
            .flatten()
            .filter(|value| value.fract() == 0.0 && value.abs() < crate::request_json::SAFE_INTEGER_END);
        match integral {
            Some(value) => (value as i64).to_string().parse(),
            None => Err(e),
        }
    })
}

/// `name` under `at` (`body.Allocations[0].Amount`); a parameter, checked with an empty `at`, is
/// its own name, and an empty `name` is `at` itself.
pub fn located(at: &str, name: &str) -> String {
    if at.is_empty() {
        name.to_string()
    } else if name.is_empty() || name.starts_with('[') {
        // The value at `at` itself, or one of its items.
        format!("{at}{name}")
    } else {
        format!("{at}.{name}")
    }
}
