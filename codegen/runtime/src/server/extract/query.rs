//! Query parameters: the pairs of a query string, read by name, style and explode, and the
//! fixed pairs a route requires.

use std::borrow::Cow;
use std::fmt::Display;
use std::str::FromStr;

use serde::de::DeserializeOwned;

use super::path::decode;

use crate::server::ApiError;
use crate::server::problems::Problems;
use crate::server::problems::parse;

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

    pub(super) fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
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
pub(super) fn json_value<T: DeserializeOwned>(text: &str, name: &str, problems: &mut Problems) -> Option<T> {
    crate::enums::listed_only(|| crate::request_json::from_slice(text.as_bytes()))
        .map_err(|e| problems.add(name, format!("is not the JSON text of a valid value: {e}")))
        .ok()
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
