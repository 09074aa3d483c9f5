//! Replies that are a sequence of items (OpenAPI 3.2's `itemSchema`): JSON Lines and server-sent
//! events, read one item at a time as they arrive.

use std::marker::PhantomData;

use bytes::BytesMut;
use serde::de::DeserializeOwned;

use crate::client::Error;
use crate::client::download::{ByteStream, Download};
use crate::framing::Framing;

/// A reply whose items arrive one by one: read them with [`ItemStream::next`].
///
/// Only the item being read is held in memory, and one larger than the client builder's
/// `max_reply_size` ends the stream with [`Error::BodyTooLarge`]. The stream itself has no length
/// limit, and a stream that stalls ends with [`Error::Timeout`] after the client's read timeout.
#[derive(Debug)]
pub struct ItemStream<T> {
    /// The reply's status.
    pub status: u16,
    operation: &'static str,
    body: ByteStream,
    framing: Framing,
    buffer: BytesMut,
    limit: u64,
    ended: bool,
    event: Event,
    item: PhantomData<fn() -> T>,
}

/// Hands a streamed reply with the `success` status to the caller.
pub async fn read<T>(
    response: crate::client::transport::Received,
    success: u16,
    framing: Framing,
) -> Result<ItemStream<T>, Error> {
    let limit = response.reply_limit();
    let download = crate::client::download::read(response, &[success]).await?;
    let Download { status, body, .. } = download;
    Ok(ItemStream {
        status,
        operation: body.operation(),
        body,
        framing,
        buffer: BytesMut::new(),
        limit,
        ended: false,
        event: Event::default(),
        item: PhantomData,
    })
}

impl<T: DeserializeOwned> ItemStream<T> {
    /// The next item, or `None` once the server has ended the stream. After an error the stream
    /// is over.
    pub async fn next(&mut self) -> Option<Result<T, Error>> {
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
                    return self.item_of(line.to_vec());
                }
                return None;
            }
            match self.body.next_chunk().await {
                Some(Ok(chunk)) => {
                    self.buffer.extend_from_slice(&chunk);
                    if self.buffer.len() as u64 > self.limit && !self.buffer.contains(&b'\n') {
                        self.ended = true;
                        self.buffer.clear();
                        return Some(Err(Error::BodyTooLarge { operation: self.operation, limit: self.limit }));
                    }
                }
                Some(Err(e)) => {
                    self.ended = true;
                    self.buffer.clear();
                    return Some(Err(e));
                }
                None => self.ended = true,
            }
        }
    }

    /// The next whole line in the buffer, without its line ending.
    fn take_line(&mut self) -> Option<Vec<u8>> {
        let end = self.buffer.iter().position(|&b| b == b'\n')?;
        let mut line = self.buffer.split_to(end + 1);
        line.truncate(end);
        if line.last() == Some(&b'\r') {
            line.truncate(end - 1);
        }
        Some(line.to_vec())
    }

    /// The item a line completes, if any.
    fn item_of(&mut self, line: Vec<u8>) -> Option<Result<T, Error>> {
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
                    self.ended = true;
                    self.buffer.clear();
                    return Some(Err(Error::BodyTooLarge { operation: self.operation, limit: self.limit }));
                }
                let value = value?;
                let text = serde_json::to_vec(&value).unwrap_or_default();
                Some(self.decode(&text))
            }
        }
    }

    fn decode(&mut self, text: &[u8]) -> Result<T, Error> {
        serde_json::from_slice(text).map_err(|source| {
            self.ended = true;
            self.buffer.clear();
            Error::Decode {
                operation: self.operation,
                path: ".".to_string(),
                body: bytes::Bytes::copy_from_slice(text),
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
