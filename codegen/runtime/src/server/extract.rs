//! Reading parameters and bodies from a request. Every problem is collected, so one 400 reply
//! names all of them.

use std::borrow::Cow;
use std::fmt::Display;
use std::str::FromStr;

use axum::body::Body;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, StatusCode};
use serde::de::DeserializeOwned;

/// The formats [`check_format`] checks, where generated code names them.
pub use crate::Format;
use crate::request_json::{RequestJson, exact_integers, grown, with_closed};
use crate::server::ApiError;
use crate::server::body::{BodyLimit, accepts, read_body};
use crate::server::problem::problem_types;
use crate::server::problems::parse;
pub use crate::server::problems::{Problems, located};

/// The query string, decoded once.
pub struct QueryParams<'q> {
    pairs: Vec<(Cow<'q, str>, Cow<'q, str>)>,
    /// Names whose value did not decode: already recorded, so not "required" as well.
    undecodable: Vec<Cow<'q, str>>,
}

impl<'q> QueryParams<'q> {
    /// Decodes `name=value` pairs (`+` is a space, `%XX` a byte); a pair whose name or value does
    /// not decode to UTF-8 is recorded as a problem and left out, as a path parameter would be.
    pub fn parse(query: Option<&'q str>, problems: &mut Problems) -> Self {
        let mut pairs = Vec::new();
        let mut undecodable = Vec::new();
        for pair in query.unwrap_or("").split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            match (decode(name), decode(value)) {
                (Some(name), Some(value)) => pairs.push((name, value)),
                (Some(name), None) => {
                    problems.add(name.as_ref(), "is not UTF-8 once percent-decoded");
                    undecodable.push(name);
                }
                (None, _) => problems.add("query", format!("the name `{name}` is not UTF-8 once percent-decoded")),
            }
        }
        QueryParams { pairs, undecodable }
    }

    /// Leaves out `name=` pairs of the parameters that allow an empty value
    /// (`allowEmptyValue`), so that each reads as absent.
    pub fn empty_is_absent(mut self, names: &[&str]) -> Self {
        self.pairs.retain(|(name, value)| !(value.is_empty() && names.contains(&name.as_ref())));
        self
    }

    /// Every pair as it came, decoded.
    pub fn pairs(&self) -> &[(Cow<'q, str>, Cow<'q, str>)] {
        &self.pairs
    }

    fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.pairs.iter().filter(move |(n, _)| n == name).map(|(_, v)| v.as_ref())
    }

    fn single<'a>(&'a self, name: &'a str, problems: &mut Problems) -> Option<&'a str> {
        let mut values = self.values(name);
        let first = values.next()?;
        if values.next().is_some() {
            problems.add(name, "must be given once");
            return None;
        }
        Some(first)
    }

    /// Whether `name` has no value, recording that it is required unless its value was there but
    /// did not decode.
    fn missing(&self, name: &str, problems: &mut Problems) -> bool {
        if self.values(name).next().is_some() {
            return false;
        }
        if !self.undecodable.iter().any(|n| n == name) {
            problems.add(name, "is required");
        }
        true
    }

    /// A required scalar: missing or malformed values are recorded.
    pub fn required<T: FromStr>(&self, name: &str, kind: &str, problems: &mut Problems) -> Option<T>
    where
        T::Err: Display,
    {
        if self.missing(name, problems) {
            return None;
        }
        self.optional(name, kind, problems)
    }

    /// An optional scalar: `None` when absent; malformed values are recorded.
    pub fn optional<T: FromStr>(&self, name: &str, kind: &str, problems: &mut Problems) -> Option<T>
    where
        T::Err: Display,
    {
        let text = self.single(name, problems)?;
        parse(text, kind).map_err(|message| problems.add(name, message)).ok()
    }

    /// A required array: exploded (`a=1&a=2`, no `delimiter`) or joined (`a=1,2` for `,`); a
    /// lone empty value (`a=`) is the empty array.
    pub fn required_list<T: FromStr>(
        &self,
        name: &str,
        kind: &str,
        delimiter: Option<char>,
        problems: &mut Problems,
    ) -> Option<Vec<T>>
    where
        T::Err: Display,
    {
        if self.missing(name, problems) {
            return None;
        }
        self.optional_list(name, kind, delimiter, problems)
    }

    /// An optional array: `None` when absent; malformed items are recorded.
    pub fn optional_list<T: FromStr>(
        &self,
        name: &str,
        kind: &str,
        delimiter: Option<char>,
        problems: &mut Problems,
    ) -> Option<Vec<T>>
    where
        T::Err: Display,
    {
        // A lone empty value is how an empty array is written (`ids=`).
        if self.values(name).eq([""]) {
            return Some(Vec::new());
        }
        let mut items = Vec::new();
        let mut any = false;
        let mut ok = true;
        for value in self.values(name) {
            any = true;
            let parts: Box<dyn Iterator<Item = &str>> = match delimiter {
                None => Box::new(std::iter::once(value)),
                Some(delimiter) => Box::new(value.split(delimiter)),
            };
            for part in parts {
                match parse(part, kind) {
                    Ok(item) => items.push(item),
                    Err(message) => {
                        problems.add(name, message);
                        ok = false;
                    }
                }
            }
        }
        (any && ok).then_some(items)
    }
}

impl QueryParams<'_> {
    /// A parameter written as its JSON text: `None` when absent (a problem when `required`) or
    /// when the text is not a value of `T`.
    pub fn json<T: DeserializeOwned>(&self, name: &str, required: bool, problems: &mut Problems) -> Option<T> {
        if required && self.missing(name, problems) {
            return None;
        }
        let text = self.single(name, problems)?;
        json_value(text, name, problems)
    }

    /// A list whose items are each written as JSON text, one `name=<item>` pair each.
    pub fn json_list<T: DeserializeOwned>(
        &self,
        name: &str,
        required: bool,
        problems: &mut Problems,
    ) -> Option<Vec<T>> {
        if required && self.missing(name, problems) {
            return None;
        }
        let texts: Vec<&str> = self.values(name).collect();
        if texts.is_empty() {
            return None;
        }
        let before = problems.len();
        let items: Vec<T> = texts.iter().filter_map(|text| json_value(text, name, problems)).collect();
        (problems.len() == before).then_some(items)
    }
}

/// `text` read as JSON into `T`, or a recorded problem naming `name`.
fn json_value<T: DeserializeOwned>(text: &str, name: &str, problems: &mut Problems) -> Option<T> {
    crate::enums::listed_only(|| crate::request_json::from_slice(text.as_bytes()))
        .map_err(|e| problems.add(name, format!("is not the JSON text of a valid value: {e}")))
        .ok()
}

/// A value read from its JSON text where a parameter reader parses text (a cookie).
pub struct Json<T>(pub T);

impl<T: DeserializeOwned> FromStr for Json<T> {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        crate::request_json::from_slice(text.as_bytes())
            .map(Json)
            .map_err(|e| format!("is not the JSON text of a valid value: {e}"))
    }
}

/// A path segment written as JSON text.
pub fn path_json<T: DeserializeOwned>(text: &str, name: &str, problems: &mut Problems) -> Option<T> {
    json_value(text, name, problems)
}

/// A header written as JSON text.
pub fn header_json<T: DeserializeOwned>(
    headers: &HeaderMap,
    name: &str,
    required: bool,
    problems: &mut Problems,
) -> Option<T> {
    let text = header_text(headers, name, required, problems)?;
    json_value(text, name, problems)
}

/// One name or value of a query string, decoded; `None` when the bytes are not UTF-8. Borrows
/// when there is nothing to decode, as is usual.
fn decode(text: &str) -> Option<Cow<'_, str>> {
    let bytes = text.as_bytes();
    if !(bytes.contains(&b'%') || bytes.contains(&b'+')) {
        return Some(Cow::Borrowed(text));
    }
    let spaced = text.replace('+', " ");
    let bytes: Vec<u8> = percent_encoding::percent_decode_str(&spaced).collect();
    String::from_utf8(bytes).ok().map(Cow::Owned)
}

/// A path parameter's text, parsed.
pub fn parse_path<T: FromStr>(text: &str, name: &str, kind: &str, problems: &mut Problems) -> Option<T>
where
    T::Err: Display,
{
    parse(text, kind).map_err(|message| problems.add(name, message)).ok()
}

/// The parameters a route captured from a request's path, by name, as read by [`raw_path`] (and
/// [`renamed`] or [`split_segment`] where the route spells them otherwise).
#[derive(Debug)]
pub struct PathParams<'a>(pub Vec<(&'a str, &'a str)>);

impl<'a> PathParams<'a> {
    /// The text captured as `name`, if any.
    pub fn text(&self, name: &str) -> Option<&'a str> {
        self.0.iter().find(|(captured, _)| *captured == name).map(|(_, text)| *text)
    }

    /// The parameter `name`, parsed: `None` when it was not captured, or when it does not parse,
    /// which is recorded as a problem.
    pub fn param<T: FromStr>(&self, name: &str, kind: &str, problems: &mut Problems) -> Option<T>
    where
        T::Err: Display,
    {
        parse_path(self.text(name)?, name, kind, problems)
    }
}

/// The parameters the route captured from the request's path, percent-decoded, by name; a path that
/// cannot be read (not UTF-8 once decoded) is a 400.
pub async fn raw_path(parts: &mut Parts) -> Result<axum::extract::RawPathParams, ApiError> {
    use axum::extract::FromRequestParts;
    axum::extract::RawPathParams::from_request_parts(parts, &())
        .await
        .map_err(|e| ApiError::bad_request(format!("the path could not be read: {e}")))
}

/// A path parameter of style `label` (`.value`) or `matrix` (`;name=value`): the segment's text
/// after `prefix`, parsed; a segment without the prefix is a problem saying so.
pub fn parse_path_styled<T: FromStr>(
    text: &str,
    prefix: &str,
    name: &str,
    kind: &str,
    problems: &mut Problems,
) -> Option<T>
where
    T::Err: Display,
{
    let Some(value) = text.strip_prefix(prefix) else {
        problems.add(name, format!("the path segment must start with `{prefix}`, and `{text}` does not"));
        return None;
    };
    parse_path(value, name, kind, problems)
}

/// A list path parameter: the segment's text after `prefix` (none for `style: simple`), split at
/// `separator`, each item parsed; a segment without the prefix is a problem saying so.
pub fn path_list<T: FromStr>(
    text: &str,
    prefix: &str,
    separator: &str,
    name: &str,
    kind: &str,
    problems: &mut Problems,
) -> Option<Vec<T>>
where
    T::Err: Display,
{
    let Some(items) = text.strip_prefix(prefix) else {
        problems.add(name, format!("the path segment must start with `{prefix}`, and `{text}` does not"));
        return None;
    };
    if items.is_empty() {
        return Some(Vec::new());
    }
    let parsed: Result<Vec<T>, String> = items.split(separator).map(|item| parse(item, kind)).collect();
    parsed.map_err(|message| problems.add(name, message)).ok()
}

/// An object path parameter (`style: simple`): `property,value,property,value`, or
/// `property=value,property=value` when `explode`.
pub fn path_object<T: serde::de::DeserializeOwned>(
    text: &str,
    name: &str,
    explode: bool,
    problems: &mut Problems,
) -> Option<T> {
    let parts: Vec<&str> = if text.is_empty() { Vec::new() } else { text.split(',').collect() };
    let pairs: Option<Vec<(String, String)>> = if explode {
        parts.iter().map(|part| part.split_once('=').map(|(k, v)| (k.to_string(), v.to_string()))).collect()
    } else {
        let pairs = parts.chunks_exact(2);
        pairs.remainder().is_empty().then(|| pairs.map(|pair| (pair[0].to_string(), pair[1].to_string())).collect())
    };
    let Some(pairs) = pairs else {
        let form = if explode { "`property=value` items" } else { "`property,value` pairs" };
        problems.add(name, format!("expected {form} separated by commas"));
        return None;
    };
    crate::server::pairs::read_pairs(pairs, &[], &[], name, problems)
}

/// An object header parameter (`style: simple`), read as [`path_object`] reads a path segment.
pub fn header_object<T: serde::de::DeserializeOwned>(
    headers: &HeaderMap,
    name: &str,
    explode: bool,
    required: bool,
    problems: &mut Problems,
) -> Option<T> {
    let text = header_text(headers, name, required, problems)?;
    path_object(text.trim(), name, explode, problems)
}

/// The text of header `name`, or `None` with the problem recorded: absent when `required`, or
/// not visible ASCII.
fn header_text<'h>(headers: &'h HeaderMap, name: &str, required: bool, problems: &mut Problems) -> Option<&'h str> {
    let Some(value) = headers.get(name) else {
        if required {
            problems.add(name, "header is required");
        }
        return None;
    };
    value.to_str().map_err(|_| problems.add(name, "header is not visible ASCII text")).ok()
}

/// Header parameters.
pub fn header<T: FromStr>(
    headers: &HeaderMap,
    name: &str,
    kind: &str,
    required: bool,
    problems: &mut Problems,
) -> Option<T>
where
    T::Err: Display,
{
    let text = header_text(headers, name, required, problems)?;
    parse(text, kind).map_err(|message| problems.add(name, message)).ok()
}

/// A header parameter that is a list: the comma-separated items of every line of the header
/// (`style: simple`; a proxy may join repeated lines into one), each trimmed of spaces. A header
/// present but empty is an empty list.
pub fn header_list<T: FromStr>(
    headers: &HeaderMap,
    name: &str,
    kind: &str,
    required: bool,
    problems: &mut Problems,
) -> Option<Vec<T>>
where
    T::Err: Display,
{
    let mut lines = headers.get_all(name).iter().peekable();
    if lines.peek().is_none() {
        if required {
            problems.add(name, "header is required");
        }
        return None;
    }
    let mut items = Vec::new();
    for line in lines {
        let Ok(text) = line.to_str() else {
            problems.add(name, "header is not visible ASCII text");
            return None;
        };
        for item in text.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            match parse(item, kind) {
                Ok(value) => items.push(value),
                Err(message) => {
                    problems.add(name, message);
                    return None;
                }
            }
        }
    }
    Some(items)
}

/// A cookie parameter, from any `Cookie` header; its value is percent-decoded, as the generated
/// client percent-encodes what a cookie cannot carry.
pub fn cookie<T: FromStr>(
    headers: &HeaderMap,
    name: &str,
    kind: &str,
    required: bool,
    problems: &mut Problems,
) -> Option<T>
where
    T::Err: Display,
{
    let found = cookie_value(headers, name).map(str::to_string);
    let Some(raw) = found else {
        if required {
            problems.add(name, "cookie is required");
        }
        return None;
    };
    let text = percent_encoding::percent_decode_str(&raw).decode_utf8_lossy();
    parse(&text, kind).map_err(|message| problems.add(name, message)).ok()
}

/// A header that must be present and non-empty, e.g. a credential.
pub fn text_header(headers: &HeaderMap, name: &HeaderName) -> Option<String> {
    let text = headers.get(name)?.to_str().ok()?.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// `x-request-id`, which ties a request to its caller's logs.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The credential in the `Authorization` header after `scheme` (`Bearer`, `Basic`), which
/// compares without regard to case.
pub fn scheme_credential(headers: &HeaderMap, scheme: &str) -> Option<String> {
    let text = text_header(headers, &AUTHORIZATION)?;
    let (given, value) = text.split_once(' ')?;
    let value = value.trim();
    (given.eq_ignore_ascii_case(scheme) && !value.is_empty()).then(|| value.to_string())
}

/// The value of the query parameter `name`, percent-decoded, when it is not empty: an API key
/// sent in the query.
pub fn query_credential(query: Option<&str>, name: &str) -> Option<String> {
    let mut problems = Problems::default();
    let params = QueryParams::parse(query, &mut problems);
    let value = params.values(name).next()?;
    (!value.is_empty()).then(|| value.to_string())
}

/// The value of the cookie called `name` when it is not empty.
pub fn cookie_credential(headers: &HeaderMap, name: &str) -> Option<String> {
    cookie_value(headers, name).filter(|value| !value.is_empty()).map(str::to_string)
}

/// The value of the first cookie called `name`, from any `Cookie` header.
fn cookie_value<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    let cookies = headers.get_all(COOKIE).into_iter().filter_map(|v| v.to_str().ok());
    cookies.flat_map(|v| v.split(';')).find_map(|c| c.trim().strip_prefix(name)?.strip_prefix('='))
}

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

/// Path parameters captured by a route that another path of the same shape spells (`{name}` for
/// this path's `{app.name}`), under this path's names: `names` pairs the route's with them.
pub fn renamed<'a>(params: Vec<(&'a str, &'a str)>, names: &[(&'static str, &'static str)]) -> Vec<(&'a str, &'a str)> {
    let own = |name: &'a str| names.iter().find(|(routed, _)| *routed == name).map_or(name, |(_, own)| *own);
    params.into_iter().map(|(name, text)| (own(name), text)).collect()
}

/// The texts of the parameters in a path segment written as parameters among literal text:
/// `literals` are the text before, between and after them (`["v", ".", ""]` for
/// `v{major}.{minor}`). Each runs to the next literal, the last to the end; `None` when the
/// segment does not have that form or a parameter would be empty.
fn segment_values<'t>(text: &'t str, literals: &[&str]) -> Option<Vec<&'t str>> {
    let (first, last) = (literals.first().copied().unwrap_or(""), literals.last().copied().unwrap_or(""));
    let mut rest = text.strip_prefix(first)?.strip_suffix(last)?;
    let between = &literals[1.min(literals.len())..literals.len().saturating_sub(1)];
    let mut values = Vec::with_capacity(between.len() + 1);
    for literal in between {
        let (value, after) = match literal.is_empty() {
            true => (std::mem::take(&mut rest), ""),
            false => rest.split_once(literal)?,
        };
        values.push(value);
        rest = after;
    }
    values.push(rest);
    values.iter().all(|v| !v.is_empty()).then_some(values)
}

/// Whether segment `index` of a request path (`/` splits; 0 is the empty text before the first)
/// has the literal text `literals` around and between its parameters, as written or
/// percent-encoded: which of the operations sharing a route it is for.
pub fn segment_has(path: &str, index: usize, literals: &[&str]) -> bool {
    let Some(raw) = path.split('/').nth(index) else { return false };
    let decoded = percent_encoding::percent_decode_str(raw).decode_utf8_lossy();
    segment_values(raw, literals).is_some() || segment_values(&decoded, literals).is_some()
}

/// Whether a request's query holds every `name=value` pair of `pairs` (decoded as a query is):
/// which of the operations whose paths differ only in a query they fix (`/items?beta=true`) it
/// is for.
pub fn query_has(query: Option<&str>, pairs: &[(&str, &str)]) -> bool {
    let mut problems = Problems::default();
    let query = QueryParams::parse(query, &mut problems);
    pairs.iter().all(|(name, value)| {
        // The pair as the path writes it (`q=a+b`, `f=a%2Fb`), decoded as the request's are.
        let (name, value) = (decode(name), decode(value));
        let (Some(name), Some(value)) = (name, value) else { return false };
        query.values(&name).any(|v| v == value)
    })
}

/// `Ok` when a request's query holds every pair its operation's path fixes (`/items?beta=true`),
/// as [`query_has`] reads it; else no operation of the document is served here: 404.
pub fn fixed_query(query: Option<&str>, pairs: &[(&str, &str)]) -> Result<(), ApiError> {
    if query_has(query, pairs) {
        return Ok(());
    }
    let fixed: Vec<String> = pairs.iter().map(|(name, value)| format!("{name}={value}")).collect();
    Err(ApiError::not_found(format!("the operation is served where the query holds {}", fixed.join("&"))))
}

/// The parameters of a path segment captured whole (`capture`) that the document writes as
/// parameters among literal text (split as `segment_has` splits them), under `names`. A segment not of that
/// form names no resource of this operation: 404.
pub fn split_segment<'a>(
    mut params: Vec<(&'a str, &'a str)>,
    capture: &str,
    literals: &[&str],
    names: &[&'static str],
) -> Result<Vec<(&'a str, &'a str)>, ApiError> {
    let not_found =
        || ApiError::not_found(format!("the path segment is not of the form the operation takes ({capture})"));
    let Some(index) = params.iter().position(|(name, _)| *name == capture) else { return Err(not_found()) };
    let (_, text) = params.remove(index);
    let values = segment_values(text, literals).filter(|v| v.len() == names.len()).ok_or_else(not_found)?;
    params.extend(names.iter().copied().zip(values));
    Ok(params)
}

/// Whether the request's `Content-Type` is one of `media` (wildcards allowed): which case of a
/// body the document describes per media type the request holds.
pub fn names_media_type(headers: &HeaderMap, media: &[&str]) -> bool {
    let content_type = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    !content_type.is_empty() && accepts(media, content_type)
}

/// Reads a JSON body: 413 past `limit`, 415 for a content type not in `accepted`, and a recorded
/// problem naming the path when the JSON does not have the right shape. An empty body is `None`.
pub async fn json_body<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Body,
    limit: BodyLimit<'_>,
    accepted: &[&str],
    required: bool,
    problems: &mut Problems,
) -> Result<Option<T>, ApiError> {
    json_body_closed(headers, body, limit, accepted, required, &[], problems).await
}

/// [`json_body`] for a body holding objects the document closes (`additionalProperties: false`):
/// a property the struct named in `closed` (sorted) does not have is a problem there.
pub async fn json_body_closed<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Body,
    limit: BodyLimit<'_>,
    accepted: &[&str],
    required: bool,
    closed: &'static [&'static str],
    problems: &mut Problems,
) -> Result<Option<T>, ApiError> {
    let Some(bytes) = read_body(headers, body, limit, accepted, required, "a JSON body", problems).await? else {
        return Ok(None);
    };
    Ok(parse_json(&bytes, closed, problems))
}

/// A body sent as XML (413 and 415 as for any body), read into JSON by `to_json` (the body's
/// schema says how) and then as a JSON body of that value is: XML that does not fit the schema
/// is a recorded problem.
#[cfg(feature = "xml")]
pub async fn xml_body<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Body,
    limit: BodyLimit<'_>,
    accepted: &[&str],
    required: bool,
    to_json: impl FnOnce(&str) -> Result<serde_json::Value, String>,
    problems: &mut Problems,
) -> Result<Option<T>, ApiError> {
    let Some(bytes) = read_body(headers, body, limit, accepted, required, "an XML body", problems).await? else {
        return Ok(None);
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        problems.add("body", "the body is not UTF-8 text");
        return Ok(None);
    };
    match to_json(text).and_then(|value| serde_json::to_vec(&value).map_err(|e| e.to_string())) {
        Ok(json) => Ok(parse_json(&json, &[], problems)),
        Err(why) => {
            problems.add("body", why);
            Ok(None)
        }
    }
}

/// `bytes` read as a `T` in JSON, or `None` with where and why not recorded.
fn parse_json<T: DeserializeOwned>(
    bytes: &[u8],
    closed: &'static [&'static str],
    problems: &mut Problems,
) -> Option<T> {
    // Read through [`RequestJson`], which grows the stack for deep bodies; a body that is not
    // valid is read again, tracking the path, to say where.
    let exact = exact_integers(bytes);
    let bytes = &*exact;
    let checked = || {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        T::deserialize(RequestJson::new(&mut de, closed)).and_then(|value| de.end().map(|()| value))
    };
    let parsed = crate::enums::listed_only(|| with_closed(closed, || grown(checked)));
    match parsed {
        Ok(value) => Some(value),
        Err(_) => {
            problems_of::<T>(bytes, closed, problems);
            None
        }
    }
}

/// Records where and why `bytes` is not a `T` in JSON.
fn problems_of<T: DeserializeOwned>(bytes: &[u8], closed: &'static [&'static str], problems: &mut Problems) {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let read = crate::enums::listed_only(|| {
        with_closed(closed, || grown(|| serde_path_to_error::deserialize::<_, T>(RequestJson::new(&mut de, closed))))
    });
    match read {
        Err(e) => {
            let path = e.path().to_string();
            let name = located("body", if path == "." { "" } else { &path });
            problems.add(name, e.into_inner().to_string());
        }
        // Whole as far as it goes: what follows it is the problem.
        Ok(_) => match de.end() {
            Err(e) => problems.add("body", e.to_string()),
            Ok(()) => problems.add("body", "the body is not valid JSON of the expected shape"),
        },
    }
}

/// A binary body, as it came (413 and 415 as for any body). An empty body is `None`.
pub async fn bytes_body<T: From<Vec<u8>>>(
    headers: &HeaderMap,
    body: Body,
    limit: BodyLimit<'_>,
    accepted: &[&str],
    required: bool,
    problems: &mut Problems,
) -> Result<Option<T>, ApiError> {
    let bytes = read_body(headers, body, limit, accepted, required, "a body", problems).await?;
    Ok(bytes.map(|b| T::from(b.to_vec())))
}

/// A text body, as it came (413 and 415 as for any body); text that is not UTF-8 is a recorded
/// problem. An empty body is `None`.
pub async fn text_body<T: From<String>>(
    headers: &HeaderMap,
    body: Body,
    limit: BodyLimit<'_>,
    accepted: &[&str],
    required: bool,
    problems: &mut Problems,
) -> Result<Option<T>, ApiError> {
    let Some(bytes) = read_body(headers, body, limit, accepted, required, "a text body", problems).await? else {
        return Ok(None);
    };
    match String::from_utf8(bytes.to_vec()) {
        Ok(text) => Ok(Some(T::from(text))),
        Err(_) => {
            problems.add("body", "the body is not UTF-8 text");
            Ok(None)
        }
    }
}

/// 414 for a request target longer than `max_uri`, 431 for more than `max_headers` bytes of
/// headers: checked first, so an oversized request costs nothing more.
pub fn check_head_size(parts: &Parts, max_uri: usize, max_headers: usize) -> Result<(), ApiError> {
    let uri = parts.uri.path_and_query().map_or(0, |p| p.as_str().len());
    if uri > max_uri {
        return Err(ApiError::new(StatusCode::URI_TOO_LONG)
            .with_type(problem_types::REQUEST_TOO_LARGE)
            .with_detail(format!("the request target is {uri} bytes long; at most {max_uri} are accepted")));
    }
    let headers: usize = parts.headers.iter().map(|(name, value)| name.as_str().len() + value.len()).sum();
    if headers > max_headers {
        return Err(ApiError::new(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
            .with_type(problem_types::REQUEST_TOO_LARGE)
            .with_detail(format!("the request headers take {headers} bytes; at most {max_headers} are accepted")));
    }
    Ok(())
}

impl QueryParams<'_> {
    /// An object whose `properties` came as `name[property]` pairs (`deep`) or as pairs of their
    /// own; `None` when none of them came. Other pairs belong to other parameters. With no
    /// `properties` (a map), every `name[key]` pair is an entry, or (not `deep`) every pair but
    /// those of the operation's `others` parameters.
    #[allow(clippy::too_many_arguments, reason = "one call per generated parameter, each argument from the spec")]
    pub fn object<T: DeserializeOwned>(
        &self,
        name: &str,
        deep: bool,
        properties: &[&str],
        others: &[&str],
        required: bool,
        problems: &mut Problems,
    ) -> Option<T> {
        let pairs: Vec<(String, String)> = self
            .pairs()
            .iter()
            .filter_map(|(key, value)| {
                let property =
                    if deep { key.strip_prefix(name)?.strip_prefix('[')?.strip_suffix(']')? } else { key.as_ref() };
                // A map (no properties listed) takes every key the other parameters do not (`filter`
                // or, as a `deepObject`, `filter[..]`).
                let theirs = |other: &&str| {
                    property == *other || property.strip_prefix(*other).is_some_and(|rest| rest.starts_with('['))
                };
                (properties.is_empty() && !others.iter().any(theirs) || properties.contains(&property))
                    .then(|| (property.to_string(), value.to_string()))
            })
            .collect();
        if pairs.is_empty() {
            if !required {
                return None;
            }
            // A required object none of whose properties came is the empty object, when that is
            // one (its properties all optional); else it is missing.
            let empty = crate::server::pairs::read_pairs(Vec::new(), &[], &[], name, &mut Problems::default());
            if empty.is_none() {
                problems.add(name, "is required");
            }
            return empty;
        }
        crate::server::pairs::read_pairs(pairs, &[], &[], name, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_split_at_their_literal_text() {
        assert_eq!(segment_values("v2.7", &["v", ".", ""]), Some(vec!["2", "7"]));
        assert_eq!(segment_values("intro.mp4", &["", ".", ""]), Some(vec!["intro", "mp4"]));
        assert_eq!(segment_values("x:archive", &["", ":archive"]), Some(vec!["x"]));
        assert_eq!(segment_values(":archive", &["", ":archive"]), None);
        assert_eq!(segment_values("x:other", &["", ":archive"]), None);
        assert!(segment_has("/clips/intro%3Aarchive", 2, &["", ":archive"]));
    }

    #[test]
    fn a_query_the_path_fixes_is_read_as_the_request_query_is() {
        assert!(query_has(Some("beta=true&n=1"), &[("beta", "true")]));
        assert!(query_has(Some("q=a%20b"), &[("q", "a+b")]), "the path's `+` is a space too");
        assert!(query_has(Some("f=a%2Fb"), &[("f", "a%2Fb")]));
        assert!(!query_has(Some("beta=false"), &[("beta", "true")]));
        assert!(!query_has(None, &[("beta", "true")]));
        let err = fixed_query(Some("q=other"), &[("q", "a+b")]).unwrap_err();
        assert_eq!(err.status(), StatusCode::NOT_FOUND);
    }

    #[test]
    fn integers_written_with_a_zero_fraction_are_integers() {
        assert_eq!(parse::<i32>("6.0", "integer"), Ok(6));
        assert_eq!(parse::<u8>("2e1", "integer"), Ok(20));
        assert!(parse::<i32>("6.5", "integer").unwrap_err().contains("`6.5`"));
        assert_eq!(parse::<String>("6.0", ""), Ok("6.0".to_string()));
        assert_eq!(parse::<f64>("6.0", ""), Ok(6.0));
    }

    #[test]
    fn query_values_are_decoded_and_checked() {
        let mut problems = Problems::default();
        let text = "Page=2&Ids=a&Ids=b%20c&Flag=yes&Dup=1&Dup=2&Csv=1,2,x&Pipes=1%7C2&Spaces=3+4&Bad=%FF&%C0=1&None=";
        let query = QueryParams::parse(Some(text), &mut problems);
        assert_eq!(query.optional::<i32>("Page", "integer", &mut problems), Some(2));
        assert_eq!(
            query.required_list::<String>("Ids", "string", None, &mut problems),
            Some(vec!["a".into(), "b c".into()])
        );
        assert_eq!(query.optional::<bool>("Flag", "boolean", &mut problems), None);
        assert_eq!(query.optional::<i32>("Dup", "integer", &mut problems), None);
        assert_eq!(query.required::<String>("Missing", "string", &mut problems), None);
        assert_eq!(query.optional_list::<i32>("Csv", "integer", Some(','), &mut problems), None);
        assert_eq!(query.optional_list::<i32>("Pipes", "integer", Some('|'), &mut problems), Some(vec![1, 2]));
        assert_eq!(query.optional_list::<i32>("Spaces", "integer", Some(' '), &mut problems), Some(vec![3, 4]));
        assert_eq!(query.required_list::<i32>("None", "integer", None, &mut problems), Some(vec![]), "`None=`");
        let error = problems.into_error();
        let names: Vec<&String> = error.errors().keys().collect();
        assert_eq!(names, ["Bad", "Csv", "Dup", "Flag", "Missing", "query"]);
    }

    #[test]
    fn credentials_are_read_from_their_scheme_or_cookie() {
        use axum::http::{HeaderMap, HeaderValue};
        let mut headers = HeaderMap::new();
        headers.insert("authorization", HeaderValue::from_static("bearer  tok-1 "));
        headers.append("cookie", HeaderValue::from_static("theme=dark; sid=abc"));
        headers.append("cookie", HeaderValue::from_static("sidx=no; session=s-2"));
        assert_eq!(super::scheme_credential(&headers, "Bearer").as_deref(), Some("tok-1"));
        assert_eq!(super::scheme_credential(&headers, "Basic"), None);
        assert_eq!(super::cookie_credential(&headers, "session").as_deref(), Some("s-2"));
        assert_eq!(super::cookie_credential(&headers, "sid").as_deref(), Some("abc"), "not `sidx`");
        assert_eq!(super::cookie_credential(&headers, "missing"), None);
    }
}
