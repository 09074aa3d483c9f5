//! How the items of a streamed body (OpenAPI 3.2's `itemSchema`) are written one after another.

/// The framing of a sequence of items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// One JSON value per line (`application/jsonl`, `application/x-ndjson`; also
    /// `application/json-seq`, whose record separators are read and not written).
    JsonLines,
    /// Server-sent events (`text/event-stream`): each item is an event, an object with `data`,
    /// and optionally `event`, `id` and `retry`.
    EventStream,
}
