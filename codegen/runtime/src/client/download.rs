//! Binary replies, handed to the caller as a stream of chunks.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use futures_core::Stream;

use crate::client::Error;

/// A file being downloaded: what the headers said about it, and its body as a stream.
///
/// Nothing is buffered beyond what the connection delivers; read the body with
/// [`ByteStream::next_chunk`] or as a [`futures_core::Stream`]. The body has no size limit, and the
/// call's timeout ends when the reply's head has arrived; a stream that stalls ends with
/// [`Error::Timeout`] after the client's read timeout.
#[derive(Debug)]
#[non_exhaustive]
pub struct Download {
    /// The reply's status: one the operation documents for a download (`206` for part of a
    /// file, say).
    pub status: u16,
    /// `Content-Type` of the reply.
    pub content_type: Option<String>,
    /// `Content-Length` of the reply, when the server sent one.
    pub content_length: Option<u64>,
    /// File name from `Content-Disposition` exactly as the server sent it, when it sent one. It
    /// may hold path separators, `..` or control characters: never join it to a local path; use
    /// [`Download::safe_file_name`] for that.
    pub file_name: Option<String>,
    /// The body.
    pub body: ByteStream,
}

/// Hands a binary reply with one of the `successes` statuses to the caller as a stream.
pub async fn read(response: crate::client::transport::Received, successes: &[u16]) -> Result<Download, Error> {
    let response = crate::client::transport::any_of(response, successes).await?;
    Ok(Download::new(response.operation(), response.into_response()))
}

impl Download {
    /// The server's file name reduced to something safe to join to a local directory: its last
    /// path component (after any `/` or `\`), without control characters, characters Windows
    /// forbids in names, or leading dots, and at most 255 bytes long. `None` when nothing usable is
    /// left (no name, `..`, only dots or separators).
    pub fn safe_file_name(&self) -> Option<String> {
        self.file_name.as_deref().and_then(sanitise)
    }

    fn new(operation: &'static str, response: reqwest::Response) -> Self {
        let headers = response.headers();
        let text =
            |name: reqwest::header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        Download {
            status: response.status().as_u16(),
            content_type: text(reqwest::header::CONTENT_TYPE),
            content_length: response.content_length(),
            file_name: text(reqwest::header::CONTENT_DISPOSITION).as_deref().and_then(file_name),
            body: ByteStream { operation, started: Instant::now(), inner: Box::pin(chunks(response)) },
        }
    }
}

/// A response's body chunk by chunk, ending after the last chunk or the first error. (reqwest's
/// own `bytes_stream` would need its `stream` feature, which turns on `tokio/fs` for everyone.)
fn chunks(response: reqwest::Response) -> impl Stream<Item = reqwest::Result<Bytes>> {
    futures_util::stream::unfold(Some(response), |response| async move {
        let mut response = response?;
        match response.chunk().await {
            Ok(Some(chunk)) => Some((Ok(chunk), Some(response))),
            Ok(None) => None,
            Err(e) => Some((Err(e), None)),
        }
    })
}

/// The body of a [`Download`], chunk by chunk.
pub struct ByteStream {
    operation: &'static str,
    started: Instant,
    inner: Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send + Sync>>,
}

impl fmt::Debug for ByteStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ByteStream").field("operation", &self.operation).finish_non_exhaustive()
    }
}

impl ByteStream {
    /// The operationId of the call.
    pub(crate) fn operation(&self) -> &'static str {
        self.operation
    }

    /// The next chunk, or `None` at the end of the body.
    pub async fn next_chunk(&mut self) -> Option<Result<Bytes, Error>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// Reads the whole body into memory. Prefer [`ByteStream::next_chunk`] for large files.
    pub async fn collect(mut self) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        while let Some(chunk) = self.next_chunk().await {
            out.extend_from_slice(&chunk?);
        }
        Ok(out)
    }
}

impl Stream for ByteStream {
    type Item = Result<Bytes, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let (operation, started) = (self.operation, self.started);
        let item = self.inner.as_mut().poll_next(cx);
        item.map(|item| {
            item.map(|r| r.map_err(|source| crate::client::transport::transport_error(operation, started, source)))
        })
    }
}

/// The file name of a `Content-Disposition` value: `filename*` (RFC 6266, UTF-8 percent-encoded)
/// when present, else `filename`.
fn file_name(disposition: &str) -> Option<String> {
    let mut plain = None;
    for part in disposition.split(';').map(str::trim) {
        let Some((key, value)) = part.split_once('=') else { continue };
        match key.trim().to_ascii_lowercase().as_str() {
            "filename*" => {
                let (charset, rest) = value.split_once('\'')?;
                let (_, encoded) = rest.split_once('\'')?;
                if charset.eq_ignore_ascii_case("utf-8") {
                    let decoded = percent_encoding::percent_decode_str(encoded).decode_utf8().ok()?;
                    return Some(decoded.into_owned());
                }
            }
            "filename" => plain = Some(value.trim().trim_matches('"').replace("\\\"", "\"")),
            _ => {}
        }
    }
    plain.filter(|name| !name.is_empty())
}

/// A file name without any power over where it is written; see [`Download::safe_file_name`].
fn sanitise(name: &str) -> Option<String> {
    let last = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let mut clean: String = last
        .chars()
        .filter(|c| !c.is_control() && !matches!(c, ':' | '*' | '?' | '"' | '<' | '>' | '|'))
        .collect::<String>()
        .trim()
        .trim_start_matches('.')
        .to_string();
    while clean.len() > 255 {
        clean.pop();
    }
    (!clean.is_empty()).then_some(clean)
}

#[cfg(test)]
mod tests {
    use super::{file_name, sanitise};

    #[test]
    fn safe_file_names_cannot_leave_the_directory() {
        assert_eq!(sanitise("report.pdf").as_deref(), Some("report.pdf"));
        assert_eq!(sanitise("../../etc/passwd").as_deref(), Some("passwd"));
        assert_eq!(sanitise("..\\..\\windows\\win.ini").as_deref(), Some("win.ini"));
        assert_eq!(sanitise("/absolute/x.csv").as_deref(), Some("x.csv"));
        assert_eq!(sanitise("a\u{0}b\r\nc:d.txt").as_deref(), Some("abcd.txt"));
        assert_eq!(sanitise(".hidden").as_deref(), Some("hidden"));
        assert_eq!(sanitise("..").as_deref(), None);
        assert_eq!(sanitise("dir/").as_deref(), None);
        assert_eq!(sanitise(&"é".repeat(200)).map(|n| n.len()), Some(254));
    }

    #[test]
    fn file_names_from_content_disposition() {
        assert_eq!(file_name("attachment; filename=\"report.pdf\"").as_deref(), Some("report.pdf"));
        assert_eq!(file_name("attachment; filename=plain.csv").as_deref(), Some("plain.csv"));
        assert_eq!(
            file_name("attachment; filename=\"fallback.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf").as_deref(),
            Some("résumé.pdf")
        );
        assert_eq!(file_name("inline").as_deref(), None);
    }
}
