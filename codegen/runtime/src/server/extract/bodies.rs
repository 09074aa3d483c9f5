//! Request bodies: JSON (closed structs refusing unknown properties), XML through JSON, text and
//! bytes, each within its limit and media types.

use axum::body::Body;
use axum::http::HeaderMap;
use axum::http::header::CONTENT_TYPE;
use serde::de::DeserializeOwned;

use crate::request_json::{RequestJson, exact_integers, grown, with_closed};
use crate::server::ApiError;
use crate::server::body::{BodyLimit, accepts, read_body};
use crate::server::problems::{Problems, located};

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
