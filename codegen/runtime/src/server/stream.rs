//! Replies that are a sequence of items (OpenAPI 3.2's `itemSchema`): each item is written and
//! sent as it is produced, as JSON Lines or as server-sent events.

use std::fmt;
use std::pin::Pin;

use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use serde::Serialize;

use crate::framing::Framing;
use crate::server::reply::status_code;

/// The items of a streamed reply, sent one by one as the stream yields them.
#[non_exhaustive]
pub struct ItemStream<T> {
    /// The items.
    pub items: Pin<Box<dyn Stream<Item = T> + Send>>,
}

impl<T> fmt::Debug for ItemStream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ItemStream").finish_non_exhaustive()
    }
}

impl<T: Send + 'static> ItemStream<T> {
    /// A reply of the items `items` yields, sent as each arrives.
    pub fn new(items: impl Stream<Item = T> + Send + 'static) -> Self {
        ItemStream { items: Box::pin(items) }
    }

    /// A reply of items already at hand.
    pub fn from_items(items: impl IntoIterator<Item = T, IntoIter: Send + 'static>) -> Self {
        Self::new(futures_util::stream::iter(items))
    }
}

/// The streamed reply: `content_type`, framed as `framing`, each item written as it arrives.
///
/// An item that cannot be written faithfully (it does not serialize, or an event's `event`, `id`
/// or `retry` would need a line break) ends the reply there, with an error logged: the body is cut
/// off, so the client sees a broken stream rather than a forged or missing event.
pub fn reply<T: Serialize + Send + 'static>(
    status: u16,
    content_type: &'static str,
    framing: Framing,
    stream: ItemStream<T>,
) -> Response {
    let frames = stream.items.map(move |item| {
        frame(&item, framing).map_err(|reason| {
            tracing::error!(%reason, "ending a streamed reply at an item that cannot be written");
            std::io::Error::new(std::io::ErrorKind::InvalidData, reason)
        })
    });
    let mut response = Response::new(Body::from_stream(frames));
    *response.status_mut() = status_code(status);
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // Each item is for the caller as soon as it is written, not after a proxy's buffer fills.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// One item as written on the wire, or why it cannot be.
fn frame<T: Serialize>(item: &T, framing: Framing) -> Result<Bytes, String> {
    let value = serde_json::to_value(item).map_err(|e| format!("the item does not serialize: {e}"))?;
    let mut out = String::new();
    match framing {
        Framing::JsonLines => {
            // JSON text never holds a raw line break, so each item is one line.
            out.push_str(&value.to_string());
            out.push('\n');
        }
        Framing::EventStream => {
            match &value {
                serde_json::Value::Object(event) => {
                    for field in ["event", "id", "retry"] {
                        if let Some(value) = event.get(field).filter(|v| !v.is_null()) {
                            let text = field_text(field, value)?;
                            out.push_str(field);
                            out.push_str(": ");
                            out.push_str(&text);
                            out.push('\n');
                        }
                    }
                    if let Some(data) = event.get("data").filter(|v| !v.is_null()) {
                        push_data(&mut out, &text(data));
                    }
                }
                other => push_data(&mut out, &other.to_string()),
            }
            out.push('\n');
        }
    }
    Ok(Bytes::from(out))
}

/// A JSON value as event text: a string as it is, anything else as JSON.
fn text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The text of an event's one-line field. A line break would end the field early and let the
/// rest pose as fields of its own, so it is refused rather than written; so is a NUL in an `id`,
/// which readers ignore, and a `retry` that is not a whole number of milliseconds.
fn field_text(field: &str, value: &serde_json::Value) -> Result<String, String> {
    let text = text(value);
    if text.contains(['\r', '\n']) {
        return Err(format!("the event's `{field}` holds a line break"));
    }
    if field == "id" && text.contains('\0') {
        return Err("the event's `id` holds a NUL character".to_string());
    }
    if field == "retry" && (text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit())) {
        return Err(format!("the event's `retry` is not a whole number of milliseconds: `{text}`"));
    }
    Ok(text)
}

/// `data` as `data:` lines: each line break in it (CR, LF or CRLF, as event stream readers split
/// lines) starts a new one, so no part of the data can be read as another field.
fn push_data(out: &mut String, data: &str) {
    let mut rest = data;
    loop {
        let (line, next) = match rest.find(['\r', '\n']) {
            None => (rest, None),
            Some(at) => {
                let width = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
                (&rest[..at], Some(&rest[at + width..]))
            }
        };
        out.push_str("data: ");
        out.push_str(line);
        out.push('\n');
        match next {
            Some(next) => rest = next,
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Framing, frame};

    #[test]
    fn events_and_lines_are_framed() {
        let event = serde_json::json!({"event": "tick", "data": "a\nb", "id": "7", "retry": 1000, "other": 1});
        assert_eq!(
            frame(&event, Framing::EventStream).unwrap(),
            "event: tick\nid: 7\nretry: 1000\ndata: a\ndata: b\n\n"
        );
        assert_eq!(frame(&serde_json::json!({"n": 1}), Framing::JsonLines).unwrap(), "{\"n\":1}\n");
        assert_eq!(frame(&serde_json::json!([1, 2]), Framing::EventStream).unwrap(), "data: [1,2]\n\n");
    }

    #[test]
    fn every_line_break_in_data_starts_a_data_line() {
        let forged = serde_json::json!({"data": "price\rid: 666\revent: admin\r\rdata: forged"});
        assert_eq!(
            frame(&forged, Framing::EventStream).unwrap(),
            "data: price\ndata: id: 666\ndata: event: admin\ndata: \ndata: data: forged\n\n"
        );
        let mixed = serde_json::json!({"data": "a\r\nb\n\rc\r"});
        assert_eq!(frame(&mixed, Framing::EventStream).unwrap(), "data: a\ndata: b\ndata: \ndata: c\ndata: \n\n");
    }

    #[test]
    fn one_line_fields_that_would_break_are_refused() {
        for (event, reason) in [
            (serde_json::json!({"data": "x", "event": "a\rdata: b"}), "`event` holds a line break"),
            (serde_json::json!({"data": "x", "id": "1\n"}), "`id` holds a line break"),
            (serde_json::json!({"data": "x", "id": "1\u{0}"}), "`id` holds a NUL"),
            (serde_json::json!({"data": "x", "retry": "10\r\nevent: x"}), "`retry` holds a line break"),
            (serde_json::json!({"data": "x", "retry": -5}), "`retry` is not a whole number"),
            (serde_json::json!({"data": "x", "retry": "soon"}), "`retry` is not a whole number"),
        ] {
            let error = frame(&event, Framing::EventStream).unwrap_err();
            assert!(error.contains(reason), "{event}: {error}");
        }
    }
}
