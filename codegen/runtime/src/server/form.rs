//! Request bodies in `application/x-www-form-urlencoded`: the pairs are read into the body's type,
//! each value parsed as its field asks (numbers, booleans, enums), a name given several times
//! filling a list, and a nested object read from the JSON text the client wrote for it.

use axum::body::Body;
use axum::http::HeaderMap;
use serde::de::DeserializeOwned;

use crate::server::ApiError;
use crate::server::body::{BodyLimit, read_body};
use crate::server::extract::{Problems, QueryParams, names_media_type};
use crate::server::pairs::read_pairs;

/// Reads a form body, with the same 413/415 rules as a JSON body; a value that does not fit its
/// field is a recorded problem naming the field. A form cannot write an empty list or map, so a
/// field of `empties` the form leaves out is an empty one; nor can it write `null`, so the text
/// `null` in a field of `nulls` is `null`. An empty body is `None`.
#[allow(clippy::too_many_arguments, reason = "one call per generated operation, each argument from the spec")]
pub async fn form_body<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Body,
    limit: BodyLimit<'_>,
    accepted: &[&str],
    required: bool,
    empties: &[&str],
    nulls: &[&str],
    problems: &mut Problems,
) -> Result<Option<T>, ApiError> {
    let Some(bytes) = read_body(headers, body, limit, accepted, required, "a form body", problems).await? else {
        return Ok(None);
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        problems.add("body", "a form body is ASCII text, and this one is not");
        return Ok(None);
    };
    // Decoded as a query string is: a pair that is not UTF-8 once decoded is a problem, not
    // silently replaced.
    let query = QueryParams::parse(Some(text), problems);
    let pairs = query.pairs().iter().map(|(name, value)| (name.to_string(), value.to_string()));
    Ok(read_pairs(pairs, empties, nulls, "body", problems))
}

/// Reads a JSON body the document also accepts as a form of the same schema: a body in one of the
/// `form` types is read as a form (urlencoded, or multipart without files), any other as JSON
/// (refusing properties the structs named in `closed` do not have). `accepted` lists every type,
/// for the 415.
#[allow(clippy::too_many_arguments, reason = "one call per generated operation, each argument from the spec")]
pub async fn json_or_form_body<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Body,
    limit: BodyLimit<'_>,
    accepted: &[&str],
    form: &[&str],
    closed: &'static [&'static str],
    required: bool,
    empties: &[&str],
    nulls: &[&str],
    problems: &mut Problems,
) -> Result<Option<T>, ApiError> {
    if names_media_type(headers, form) {
        if names_media_type(headers, &["multipart/*"]) {
            let read = crate::server::multipart::multipart_body(
                headers,
                body,
                limit,
                form,
                required,
                &[],
                empties,
                nulls,
                problems,
            );
            Ok(read.await?.map(|(value, _files)| value))
        } else {
            form_body(headers, body, limit, form, required, empties, nulls, problems).await
        }
    } else {
        crate::server::extract::json_body_closed(headers, body, limit, accepted, required, closed, problems).await
    }
}
