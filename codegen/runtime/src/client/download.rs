//! Binary replies, handed to the caller as a stream of chunks.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use futures_core::Stream;

use crate::client::transport::{BodyLimits, Received};
use crate::client::{Error, TimeoutKind};

/// A file being downloaded: what the headers said about it, and its bytes in [`body`](Self::body),
/// a stream.
///
/// ```no_run
/// # async fn save(download: apigen_runtime::client::Download) -> Result<(), apigen_runtime::client::Error> {
/// let bytes = download.body.collect().await?; // the whole file, up to `max_reply_size`
/// # let _ = bytes; Ok(())
/// # }
/// ```
///
/// Nothing is buffered beyond what the connection delivers; read the body with
/// [`ByteStream::next_chunk`] or as a [`futures_core::Stream`]. The call's timeout ends when the
/// reply's head has arrived; the body is bounded by the client builder's stream settings: a wait
/// for the next chunk longer than `stream_idle_timeout` (60 s by default) ends it with
/// [`Error::Timeout`], and so does a body slower than `min_download_rate` (1 KiB a second over
/// each 30 s by default), and `stream_timeout` and `max_stream_size` when set (neither is by
/// default). [`ByteStream::collect`] reads at most `max_reply_size`.
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
    /// The file's bytes, as they arrive: [`ByteStream::collect`] reads them all,
    /// [`ByteStream::next_chunk`] one chunk at a time.
    pub body: ByteStream,
}

/// Hands a successful binary reply to the caller as a stream.
pub fn open(response: Received) -> Download {
    let (operation, limits) = (response.operation(), response.limits());
    Download::new(operation, limits, response.into_response())
}

impl Download {
    /// The server's file name reduced to something safe to join to a local directory, by
    /// [`safe_file_name`](crate::safe_file_name): its last path component, without control,
    /// forbidden or invisible formatting characters, leading dots or a Windows device name's
    /// meaning, and at most 255 bytes long with its extension kept. `None` when nothing usable is
    /// left (no name, `..`, only dots or separators).
    pub fn safe_file_name(&self) -> Option<String> {
        self.file_name.as_deref().and_then(crate::safe_file_name)
    }

    fn new(operation: &'static str, limits: BodyLimits, response: reqwest::Response) -> Self {
        let headers = response.headers();
        let text =
            |name: reqwest::header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        Download {
            status: response.status().as_u16(),
            content_type: text(reqwest::header::CONTENT_TYPE),
            content_length: response.content_length(),
            file_name: text(reqwest::header::CONTENT_DISPOSITION).as_deref().and_then(file_name),
            body: ByteStream::new(operation, limits, Box::pin(chunks(response))),
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

/// The body of a [`Download`], chunk by chunk, within the client's stream limits.
pub struct ByteStream {
    operation: &'static str,
    started: Instant,
    inner: Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send + Sync>>,
    limits: BodyLimits,
    /// When the whole body must have arrived, if ever.
    end: Option<tokio::time::Instant>,
    /// Bytes delivered so far.
    delivered: u64,
    /// Fires at the end of the current wait or at `end`, whichever is sooner; `None` when neither
    /// applies.
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    /// Whether a wait is running: a caller asked for more and has not had it yet.
    waiting: bool,
    /// Whether waits are for whole items (an item stream ends them) rather than for chunks.
    per_item: bool,
    /// When the current window of the download's rate began, and the bytes it has brought.
    window: (tokio::time::Instant, u64),
    done: bool,
}

impl fmt::Debug for ByteStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ByteStream").field("operation", &self.operation).finish_non_exhaustive()
    }
}

impl ByteStream {
    fn new(
        operation: &'static str,
        limits: BodyLimits,
        inner: Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send + Sync>>,
    ) -> Self {
        let now = tokio::time::Instant::now();
        ByteStream {
            operation,
            started: Instant::now(),
            inner,
            limits,
            end: limits.stream.total.and_then(|total| now.checked_add(total)),
            delivered: 0,
            timer: None,
            waiting: false,
            per_item: false,
            window: (now, 0),
            done: false,
        }
    }

    /// Counts `bytes` towards the download's rate; the error once a window ends below the
    /// minimum. Item streams count items, not bytes, as progress.
    fn slow(&mut self, bytes: usize) -> Option<Error> {
        let (rate, over) = self.limits.stream.min_rate.filter(|_| !self.per_item)?;
        let (since, brought) = &mut self.window;
        *brought = brought.saturating_add(bytes as u64);
        let now = tokio::time::Instant::now();
        let elapsed = now.duration_since(*since);
        if elapsed < over {
            return None;
        }
        if (*brought as f64) < rate as f64 * elapsed.as_secs_f64() {
            self.done = true;
            let kind = TimeoutKind::DownloadRate(rate);
            return Some(Error::Timeout { operation: self.operation, elapsed: self.started.elapsed(), kind });
        }
        self.window = (now, 0);
        None
    }

    /// The operationId of the call.
    pub(crate) fn operation(&self) -> &'static str {
        self.operation
    }

    /// Makes waits last from [`ByteStream::start_wait`] to [`ByteStream::end_wait`], for an item
    /// stream, rather than from one chunk to the next.
    pub(crate) fn per_item(&mut self) {
        self.per_item = true;
    }

    /// Starts a wait for more: the idle timeout counts from now.
    pub(crate) fn start_wait(&mut self) {
        self.waiting = true;
        let now = tokio::time::Instant::now();
        let idle_end = now.checked_add(self.limits.stream.idle);
        let deadline = match (idle_end, self.end) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match (deadline, &mut self.timer) {
            (None, _) => self.timer = None,
            (Some(deadline), Some(timer)) => timer.as_mut().reset(deadline),
            (Some(deadline), None) => self.timer = Some(Box::pin(tokio::time::sleep_until(deadline))),
        }
    }

    /// Ends the current wait: the caller has what it asked for.
    pub(crate) fn end_wait(&mut self) {
        self.waiting = false;
    }

    /// The timeout that ended the stream: its total time, or a wait.
    fn timed_out(&mut self) -> Error {
        self.done = true;
        let total = self.end.is_some_and(|end| tokio::time::Instant::now() >= end);
        let kind = match self.limits.stream.total {
            Some(limit) if total => TimeoutKind::StreamTotal(limit),
            _ => TimeoutKind::StreamIdle(self.limits.stream.idle),
        };
        Error::Timeout { operation: self.operation, elapsed: self.started.elapsed(), kind }
    }

    /// The next chunk, or `None` at the end of the body.
    pub async fn next_chunk(&mut self) -> Option<Result<Bytes, Error>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// Reads the whole body into memory, at most the client builder's `max_reply_size` (32 MiB
    /// by default): a longer body ends with [`Error::BodyTooLarge`] without being read further.
    /// Prefer [`ByteStream::next_chunk`] for large files.
    pub async fn collect(mut self) -> Result<Vec<u8>, Error> {
        let limit = self.limits.reply;
        let mut out = Vec::new();
        while let Some(chunk) = self.next_chunk().await {
            let chunk = chunk?;
            if (out.len() + chunk.len()) as u64 > limit {
                return Err(Error::BodyTooLarge { operation: self.operation, limit });
            }
            out.extend_from_slice(&chunk);
        }
        Ok(out)
    }
}

impl Stream for ByteStream {
    type Item = Result<Bytes, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        if !self.waiting {
            self.start_wait();
        }
        match self.inner.as_mut().poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                self.delivered = self.delivered.saturating_add(chunk.len() as u64);
                if let Some(limit) = self.limits.stream.max_bytes.filter(|limit| self.delivered > *limit) {
                    self.done = true;
                    return Poll::Ready(Some(Err(Error::BodyTooLarge { operation: self.operation, limit })));
                }
                if let Some(slow) = self.slow(chunk.len()) {
                    return Poll::Ready(Some(Err(slow)));
                }
                if !self.per_item {
                    self.end_wait();
                }
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(Some(Err(source))) => {
                self.done = true;
                let (operation, started) = (self.operation, self.started);
                Poll::Ready(Some(Err(crate::client::transport::transport_error(operation, started, source))))
            }
            Poll::Ready(None) => {
                self.done = true;
                Poll::Ready(None)
            }
            Poll::Pending => {
                let fired = self.timer.as_mut().is_some_and(|timer| timer.as_mut().poll(cx).is_ready());
                if fired { Poll::Ready(Some(Err(self.timed_out()))) } else { Poll::Pending }
            }
        }
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
    use super::*;
    use crate::client::transport::StreamLimits;

    /// A body that sends a byte each second of the (paused) clock, for `seconds`.
    fn trickle(seconds: u64) -> Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send + Sync>> {
        Box::pin(futures_util::stream::unfold(0, move |sent| async move {
            if sent == seconds {
                return None;
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            Some((Ok(Bytes::from_static(b"x")), sent + 1))
        }))
    }

    fn limits(min_rate: Option<(u64, std::time::Duration)>) -> BodyLimits {
        let stream = StreamLimits { idle: std::time::Duration::from_secs(60), total: None, max_bytes: None, min_rate };
        BodyLimits { reply: u64::MAX, error: 0, stream }
    }

    #[tokio::test(start_paused = true)]
    async fn a_trickling_download_ends_at_the_default_rate() {
        let default = Some((crate::client::DEFAULT_MIN_DOWNLOAD_RATE, crate::client::DOWNLOAD_RATE_WINDOW));
        let mut body = ByteStream::new("op", limits(default), trickle(3600));
        let mut read = 0;
        let error = loop {
            match body.next_chunk().await.expect("an error before the end") {
                Ok(chunk) => read += chunk.len(),
                Err(e) => break e,
            }
        };
        assert!(matches!(error, Error::Timeout { kind: TimeoutKind::DownloadRate(1024), .. }), "{error:?}");
        assert_eq!(read, 29, "the first window's bytes, then the end: {error}");
        assert!(body.next_chunk().await.is_none());
        // Lifted, the same body is read to its end.
        let body = ByteStream::new("op", limits(None), trickle(40));
        assert_eq!(body.collect().await.expect("read whole").len(), 40);
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
