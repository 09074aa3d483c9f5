//! Binary replies, handed to the caller as a stream of chunks.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;

use crate::Error;

/// A file being downloaded: what the headers said about it, and its body as a stream.
///
/// Nothing is buffered beyond what the connection delivers; read the body with
/// [`ByteStream::next_chunk`] or as a [`futures_core::Stream`].
#[derive(Debug)]
#[non_exhaustive]
pub struct Download {
    /// `Content-Type` of the reply.
    pub content_type: Option<String>,
    /// `Content-Length` of the reply, when the server sent one.
    pub content_length: Option<u64>,
    /// File name from `Content-Disposition`, when the server sent one.
    pub file_name: Option<String>,
    /// The body.
    pub body: ByteStream,
}

/// Hands a binary reply to the caller as a stream.
pub(crate) async fn read(operation: &'static str, response: reqwest::Response, success: u16) -> Result<Download, Error> {
    let response = crate::transport::expect_status(operation, response, success).await?;
    Ok(Download::new(operation, response))
}

impl Download {
    fn new(operation: &'static str, response: reqwest::Response) -> Self {
        let headers = response.headers();
        let text = |name: reqwest::header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        Download {
            content_type: text(reqwest::header::CONTENT_TYPE),
            content_length: response.content_length(),
            file_name: text(reqwest::header::CONTENT_DISPOSITION).as_deref().and_then(file_name),
            body: ByteStream { operation, inner: Box::pin(response.bytes_stream()) },
        }
    }
}

/// The body of a [`Download`], chunk by chunk.
pub struct ByteStream {
    operation: &'static str,
    inner: Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send + Sync>>,
}

impl fmt::Debug for ByteStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ByteStream").field("operation", &self.operation).finish_non_exhaustive()
    }
}

impl ByteStream {
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
        let operation = self.operation;
        self.inner.as_mut().poll_next(cx).map(|item| item.map(|r| r.map_err(|source| Error::Transport { operation, source })))
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

#[cfg(test)]
mod tests {
    use super::file_name;

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
