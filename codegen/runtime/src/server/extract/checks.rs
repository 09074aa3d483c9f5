//! The checks of a value against its limits and format, each recording a problem that names the
//! value.

use std::borrow::Cow;

/// The formats [`check_format`] checks, where generated code names them.
use crate::Format;
use crate::server::problems::{Problems, located};

/// Limits of a request body that serde does not check (lengths, item counts, bounds), implemented
/// by the generated `validate` module for every type that has such limits.
pub trait Validate {
    /// Records every limit `self` breaks; `at` is the path of `self`, e.g. `body.Allocations[0]`.
    fn validate(&self, at: &str, problems: &mut Problems);
}

/// Checks that a property a request must carry is there: one the document both requires and
/// marks write-only, which replies leave out, so its Rust type is optional.
pub fn check_present(present: bool, at: &str, name: &str, problems: &mut Problems) {
    if !present {
        problems.add(located(at, name), "is required in a request");
    }
}

/// Checks a string's length in characters.
pub fn check_length(text: &str, min: Option<usize>, max: Option<usize>, at: &str, name: &str, problems: &mut Problems) {
    let length = text.chars().count();
    if min.is_some_and(|min| length < min) || max.is_some_and(|max| length > max) {
        problems.add(
            located(at, name),
            bounds_message("characters", length as f64, min.map(|m| m as f64), max.map(|m| m as f64)),
        );
    }
}

/// Checks a map's number of entries (`minProperties`, `maxProperties`).
pub fn check_properties(
    count: usize,
    min: Option<usize>,
    max: Option<usize>,
    at: &str,
    name: &str,
    problems: &mut Problems,
) {
    if min.is_some_and(|min| count < min) || max.is_some_and(|max| count > max) {
        problems.add(
            located(at, name),
            bounds_message("properties", count as f64, min.map(|m| m as f64), max.map(|m| m as f64)),
        );
    }
}

/// Checks an array's number of items.
pub fn check_items(
    count: usize,
    min: Option<usize>,
    max: Option<usize>,
    at: &str,
    name: &str,
    problems: &mut Problems,
) {
    if min.is_some_and(|min| count < min) || max.is_some_and(|max| count > max) {
        problems.add(
            located(at, name),
            bounds_message("items", count as f64, min.map(|m| m as f64), max.map(|m| m as f64)),
        );
    }
}

/// Checks a number against its bounds.
pub fn check_bounds(value: f64, min: Option<f64>, max: Option<f64>, at: &str, name: &str, problems: &mut Problems) {
    if min.is_some_and(|min| value < min) || max.is_some_and(|max| value > max) {
        problems.add(located(at, name), bounds_message("", value, min, max));
    }
}

/// Checks a number against exclusive bounds: the bounds themselves are out of range.
pub fn check_strict_bounds(
    value: f64,
    min: Option<f64>,
    max: Option<f64>,
    at: &str,
    name: &str,
    problems: &mut Problems,
) {
    match (min, max) {
        (Some(min), _) if value <= min => {
            problems.add(located(at, name), format!("must be greater than {min}, is {value}"))
        }
        (_, Some(max)) if value >= max => {
            problems.add(located(at, name), format!("must be less than {max}, is {value}"))
        }
        _ => {}
    }
}

/// Checks that a number is a whole multiple of `step`, allowing for binary rounding.
pub fn check_multiple_of(value: f64, step: f64, at: &str, name: &str, problems: &mut Problems) {
    let ratio = value / step;
    if (ratio - ratio.round()).abs() > 1e-9 * ratio.abs().max(1.0) {
        problems.add(located(at, name), format!("must be a multiple of {step}, is {value}"));
    }
}

/// Records a string that does not match its schema's pattern.
#[cfg(feature = "pattern")]
pub fn check_pattern(text: &str, pattern: &crate::pattern::LazyPattern, at: &str, name: &str, problems: &mut Problems) {
    if !pattern.matches(text) {
        problems.add(located(at, name), format!("must match the pattern `{}`", pattern.written()));
    }
}

/// Checks that a string is written in the format its schema names.
pub fn check_format(text: &str, format: Format, at: &str, name: &str, problems: &mut Problems) {
    if !format.matches(text) {
        problems.add(located(at, name), format!("must be a valid `{}`", format.name()));
    }
}

/// Checks that no two items of an array are equal, as JSON Schema compares them: linear in the
/// items.
pub fn check_unique<T: UniqueItem>(items: &[T], at: &str, name: &str, problems: &mut Problems) {
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Some(key) = item.unique_key() else { continue };
        if !seen.insert(key) {
            problems.add(located(at, name), format!("must not repeat items; item {i} repeats an earlier one"));
            return;
        }
    }
}

/// An item of an array whose items must differ: what it is compared by.
pub trait UniqueItem {
    /// Equal for equal items; `None` when the item cannot be compared (it is then not checked).
    fn unique_key(&self) -> Option<Cow<'_, [u8]>>;
}

/// A value of the document's types is compared by its JSON.
impl<T: serde::Serialize> UniqueItem for T {
    fn unique_key(&self) -> Option<Cow<'_, [u8]>> {
        serde_json::to_vec(self).ok().map(Cow::Owned)
    }
}

/// A file part is a string of bytes to JSON Schema: compared by its content alone.
impl UniqueItem for crate::File {
    fn unique_key(&self) -> Option<Cow<'_, [u8]>> {
        Some(Cow::Borrowed(&self.bytes))
    }
}

fn bounds_message(unit: &str, actual: f64, min: Option<f64>, max: Option<f64>) -> String {
    let unit = if unit.is_empty() { String::new() } else { format!(" {unit}") };
    match (min, max) {
        (Some(min), Some(max)) => format!("must have between {min} and {max}{unit}, has {actual}"),
        (Some(min), None) => format!("must have at least {min}{unit}, has {actual}"),
        (None, Some(max)) => format!("must have at most {max}{unit}, has {actual}"),
        (None, None) => String::new(),
    }
}
