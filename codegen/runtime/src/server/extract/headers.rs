//! Header and cookie parameters, credentials from where a scheme carries them, and the bounds
//! on a request's head.

use std::fmt::Display;
use std::str::FromStr;

use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, StatusCode};
use serde::de::DeserializeOwned;

use super::path::path_object;
use super::query::{QueryParams, json_value};

use crate::server::ApiError;
use crate::server::api_error::problem_types;
use crate::server::problems::Problems;
use crate::server::problems::parse;

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
