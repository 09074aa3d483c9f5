//! Replies that are a sequence of items (OpenAPI 3.2's `itemSchema`): JSON Lines and server-sent
//! events, read one item at a time as they arrive.

use std::marker::PhantomData;

use bytes::{Bytes, BytesMut};
use serde::de::DeserializeOwned;

use crate::client::Error;
use crate::client::download::{ByteStream, Download};
use crate::client::transport::Received;
use crate::framing::Framing;

/// A reply whose items arrive one by one: read them with [`ItemStream::next`].
///
/// Only the item being read is held in memory, and one larger than the client builder's
/// `max_reply_size` ends the stream with [`Error::BodyTooLarge`]. The stream is bounded by the
/// client builder's stream settings: waiting longer than `stream_idle_timeout` (60 s by default)
/// for a whole item ends it with [`Error::Timeout`], however many bytes of an unfinished item
/// arrive meanwhile; `stream_timeout` and `max_stream_size` bound its whole length when set.
#[derive(Debug)]
pub struct ItemStream<T> {
    /// The reply's status.
    pub status: u16,
    operation: &'static str,
    body: ByteStream,
    framing: Framing,
    buffer: BytesMut,
    /// How much of `buffer` is known to hold no line ending, so each byte is searched once.
    scanned: usize,
    limit: u64,
    ended: bool,
    event: Event,
    item: PhantomData<fn() -> T>,
}

/// Hands a successful streamed reply to the caller, as items of `framing`.
pub fn open<T>(response: Received, framing: Framing) -> ItemStream<T> {
    let limit = response.reply_limit();
    let Download { status, mut body, .. } = crate::client::download::open(response);
    body.per_item();
    ItemStream {
        status,
        operation: body.operation(),
        body,
        framing,
        buffer: BytesMut::new(),
        scanned: 0,
        limit,
        ended: false,
        event: Event::default(),
        item: PhantomData,
    }
}

impl<T: DeserializeOwned> ItemStream<T> {
    /// The next item, or `None` once the server has ended the stream. After an error the stream
    /// is over.
    pub async fn next(&mut self) -> Option<Result<T, Error>> {
        self.body.start_wait();
        let item = self.next_item().await;
        self.body.end_wait();
        item
    }

    async fn next_item(&mut self) -> Option<Result<T, Error>> {
        loop {
            while let Some(line) = self.take_line() {
                if let Some(item) = self.item_of(line) {
                    return Some(item);
                }
            }
            if self.ended {
                // A last line without its newline is still an item; a last event without its
                // blank line is not, as server-sent events define.
                if self.framing == Framing::JsonLines && !self.buffer.is_empty() {
                    let line = self.buffer.split().freeze();
                    return self.item_of(line);
                }
                return None;
            }
            // What is left is part of one line: past the limit, it is refused unread.
            if self.buffer.len() as u64 > self.limit {
                return Some(Err(self.too_large()));
            }
            match self.body.next_chunk().await {
                Some(Ok(chunk)) => self.buffer.extend_from_slice(&chunk),
                Some(Err(e)) => {
                    self.ended = true;
                    self.buffer.clear();
                    return Some(Err(e));
                }
                None => self.ended = true,
            }
        }
    }

    fn too_large(&mut self) -> Error {
        self.ended = true;
        self.buffer.clear();
        Error::BodyTooLarge { operation: self.operation, limit: self.limit }
    }

    /// The next whole line in the buffer, without its line ending. Lines end at LF (after an
    /// optional CR); server-sent events also end them at a lone CR, which is only known to be
    /// lone once the next byte, or the end of the body, has arrived.
    fn take_line(&mut self) -> Option<Bytes> {
        // The buffer may have been emptied since (at an error, or for a last line).
        self.scanned = self.scanned.min(self.buffer.len());
        let unsearched = &self.buffer[self.scanned..];
        let found = match self.framing {
            Framing::JsonLines => memchr::memchr(b'\n', unsearched),
            Framing::EventStream => memchr::memchr2(b'\r', b'\n', unsearched),
        };
        let Some(offset) = found else {
            self.scanned = self.buffer.len();
            return None;
        };
        let at = self.scanned + offset;
        let width = match (self.buffer[at], self.buffer.get(at + 1)) {
            (b'\n', _) => 1,
            (_, Some(b'\n')) => 2,
            (_, Some(_)) => 1,
            // A CR at the end of what has arrived: wait for the next byte, unless there is none.
            (_, None) if self.ended => 1,
            (_, None) => {
                self.scanned = at;
                return None;
            }
        };
        let mut line = self.buffer.split_to(at + width);
        self.scanned = 0;
        line.truncate(at);
        if self.framing == Framing::JsonLines && line.last() == Some(&b'\r') {
            line.truncate(at - 1);
        }
        Some(line.freeze())
    }

    /// The item a line completes, if any.
    fn item_of(&mut self, line: Bytes) -> Option<Result<T, Error>> {
        match self.framing {
            Framing::JsonLines => {
                // `application/json-seq` starts each item with a record separator.
                let text = line.strip_prefix(b"\x1e").unwrap_or(&line);
                if text.iter().all(u8::is_ascii_whitespace) {
                    return None;
                }
                Some(self.decode(text))
            }
            Framing::EventStream => {
                let value = self.event.line(&line);
                if self.event.size() as u64 > self.limit {
                    return Some(Err(self.too_large()));
                }
                let value = value?;
                let text = serde_json::to_vec(&value).unwrap_or_default();
                Some(self.decode(&text))
            }
        }
    }

    fn decode(&mut self, text: &[u8]) -> Result<T, Error> {
        crate::request_json::from_slice(text).map_err(|source| {
            self.ended = true;
            self.buffer.clear();
            Error::Decode {
                operation: self.operation,
                path: ".".to_string(),
                body: Bytes::copy_from_slice(text),
                source,
            }
        })
    }
}

/// A server-sent event being read, field by field.
#[derive(Debug, Default)]
struct Event {
    data: Option<String>,
    event: Option<String>,
    id: Option<String>,
    retry: Option<u64>,
}

impl Event {
    /// The bytes held so far.
    fn size(&self) -> usize {
        [&self.data, &self.event, &self.id].iter().map(|f| f.as_ref().map_or(0, String::len)).sum()
    }

    /// Takes one line; a blank line ends the event, which comes back as the JSON object the item
    /// schema describes (`data`, `event`, `id`, `retry`), or nothing when it had no field.
    fn line(&mut self, line: &[u8]) -> Option<serde_json::Value> {
        if line.is_empty() {
            let event = std::mem::take(self);
            if event.data.is_none() && event.event.is_none() && event.id.is_none() && event.retry.is_none() {
                return None;
            }
            let mut object = serde_json::Map::new();
            let fields = [("data", event.data), ("event", event.event), ("id", event.id)];
            for (name, value) in fields {
                if let Some(value) = value {
                    object.insert(name.to_string(), serde_json::Value::String(value));
                }
            }
            if let Some(retry) = event.retry {
                object.insert("retry".to_string(), retry.into());
            }
            return Some(serde_json::Value::Object(object));
        }
        // A line starting with a colon is a comment.
        if line.first() == Some(&b':') {
            return None;
        }
        let text = String::from_utf8_lossy(line);
        let (field, value) = text.split_once(':').unwrap_or((&text, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            },
            "event" => self.event = Some(value.to_string()),
            "id" if !value.contains('\0') => self.id = Some(value.to_string()),
            "retry" => self.retry = value.parse().ok().or(self.retry),
            _ => {}
        }
        None
    }
}
