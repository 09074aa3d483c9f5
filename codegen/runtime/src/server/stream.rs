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
pub fn reply<T: Serialize + Send + 'static>(
    status: u16,
    content_type: &'static str,
    framing: Framing,
    stream: ItemStream<T>,
) -> Response {
    let frames = stream.items.map(move |item| Ok::<Bytes, std::convert::Infallible>(frame(&item, framing)));
    let mut response = Response::new(Body::from_stream(frames));
    *response.status_mut() = status_code(status);
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // Each item is for the caller as soon as it is written, not after a proxy's buffer fills.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// One item as written on the wire.
fn frame<T: Serialize>(item: &T, framing: Framing) -> Bytes {
    let value = serde_json::to_value(item).unwrap_or(serde_json::Value::Null);
    let mut out = String::new();
    match framing {
        Framing::JsonLines => {
            out.push_str(&value.to_string());
            out.push('\n');
        }
        Framing::EventStream => {
            let text = |v: &serde_json::Value| match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            match &value {
                serde_json::Value::Object(event) => {
                    // Field values are one line each; `data` may span several.
                    for field in ["event", "id", "retry"] {
                        if let Some(v) = event.get(field).filter(|v| !v.is_null()) {
                            out.push_str(&format!("{field}: {}\n", text(v).replace(['\r', '\n'], " ")));
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
    Bytes::from(out)
}

fn push_data(out: &mut String, data: &str) {
    for line in data.split('\n') {
        out.push_str("data: ");
        out.push_str(line.strip_suffix('\r').unwrap_or(line));
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::{Framing, frame};

    #[test]
    fn events_and_lines_are_framed() {
        let event = serde_json::json!({"event": "tick", "data": "a\nb", "id": "7", "retry": 1000, "other": 1});
        assert_eq!(frame(&event, Framing::EventStream), "event: tick\nid: 7\nretry: 1000\ndata: a\ndata: b\n\n");
        assert_eq!(frame(&serde_json::json!({"n": 1}), Framing::JsonLines), "{\"n\":1}\n");
        assert_eq!(frame(&serde_json::json!([1, 2]), Framing::EventStream), "data: [1,2]\n\n");
    }
}
