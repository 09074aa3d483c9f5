//! Path parameters: the segments a route captured, decoded and read as their types and styles.

use std::borrow::Cow;
use std::fmt::Display;
use std::str::FromStr;

use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use super::query::json_value;

use crate::server::ApiError;
use crate::server::problems::Problems;
use crate::server::problems::parse;

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

/// One name or value of a query string, decoded; `None` when the bytes are not UTF-8. Borrows
/// when there is nothing to decode, as is usual.
pub(super) fn decode(text: &str) -> Option<Cow<'_, str>> {
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
pub(super) fn segment_values<'t>(text: &'t str, literals: &[&str]) -> Option<Vec<&'t str>> {
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
