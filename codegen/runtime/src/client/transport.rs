//! Sending a request and reading its reply, shared by every operation: the rate limit, retries,
//! the call's deadline, the limits on buffered bodies, the tracing span and the mapping of every
//! failure to [`Error`].

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{Method, Response, StatusCode};
use serde::de::DeserializeOwned;
use tracing::Instrument;
use tracing::field::Empty;

use crate::client::hooks::Hooks;
use crate::client::policy::{RateLimiter, RetryPolicy};
use crate::client::{Error, ProblemDetails, StatusError, TimeoutKind};

/// The HTTP side of a client, shared by its clones.
#[derive(Debug)]
pub struct Transport {
    /// The HTTP client every request goes through.
    pub http: reqwest::Client,
    /// The deadline of calls that set no timeout of their own.
    pub timeout: Option<Duration>,
    /// When and how often a failed call is tried again.
    pub retry: RetryPolicy,
    /// The most requests a second, when limited.
    pub rate_limit: Option<RateLimiter>,
    /// Next `x-request-id`, when the client sends them.
    pub request_ids: Option<AtomicU64>,
    /// The caller's code around every attempt, when set.
    pub hooks: Option<Arc<dyn Hooks>>,
    /// The limits on the bodies of replies.
    pub limits: BodyLimits,
    /// The most pages a paged walk reads, if limited.
    pub max_pages: Option<u64>,
}

/// How much of a reply body the client holds in memory, and how long and how much a streamed
/// body may run.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimits {
    /// A success reply read whole (JSON, or a download's `collect`): longer is
    /// [`Error::BodyTooLarge`].
    pub reply: u64,
    /// An error reply: longer is kept truncated to this many bytes.
    pub error: u64,
    /// Downloads and item streams.
    pub stream: StreamLimits,
}

/// The bounds of a download's body or an item stream, from the time its head arrived.
#[derive(Debug, Clone, Copy)]
pub struct StreamLimits {
    /// Longest wait for the next chunk of a download, or the next item of a stream.
    pub idle: Duration,
    /// Longest time the whole body may take, if limited.
    pub total: Option<Duration>,
    /// Most bytes the whole body may hold, if limited.
    pub max_bytes: Option<u64>,
    /// Fewest bytes a second a download's body must average over each window of the time given,
    /// if limited. Item streams have no minimum: each whole item is progress.
    pub min_rate: Option<(u64, Duration)>,
}

/// What a generated builder says about its operation, for the request, retries and the span.
#[derive(Debug, Clone, Copy)]
pub struct Call {
    /// The operationId.
    pub operation: &'static str,
    method: &'static str,
    path: &'static str,
    /// The documented success statuses; any other is an [`Error::Status`].
    pub success: &'static [u16],
    /// The operation takes an `Idempotency-Key` header: one is sent when the caller sets none, the
    /// same on every attempt, and the request is retried whatever its method.
    keyed: bool,
}

impl Call {
    /// The operation `operation` at `method path` (the path template), which succeeds with the
    /// `success` statuses.
    pub const fn new(
        operation: &'static str,
        method: &'static str,
        path: &'static str,
        success: &'static [u16],
    ) -> Self {
        Call { operation, method, path, success, keyed: false }
    }

    /// The call, for an operation whose document declares an `Idempotency-Key` header.
    pub const fn keyed(self) -> Self {
        Call { keyed: true, ..self }
    }

    /// The HTTP method; `QUERY` (OpenAPI 3.2) has no constant of its own.
    pub fn method(&self) -> Method {
        Method::from_bytes(self.method.as_bytes()).unwrap_or(Method::GET)
    }
}

/// `request` with `body` as its JSON body.
pub fn json_body<T: serde::Serialize>(
    request: reqwest::RequestBuilder,
    content_type: &'static str,
    body: &T,
) -> Result<reqwest::RequestBuilder, Error> {
    let bytes = serde_json::to_vec(body).map_err(|e| Error::InvalidArgument { name: "body", reason: e.to_string() })?;
    Ok(request.header(reqwest::header::CONTENT_TYPE, HeaderValue::from_static(content_type)).body(bytes))
}

/// `request` with `body` as its form body (`application/x-www-form-urlencoded`).
pub fn form_body<T: serde::Serialize>(
    request: reqwest::RequestBuilder,
    content_type: &'static str,
    body: &T,
) -> Result<reqwest::RequestBuilder, Error> {
    let bytes = crate::client::encoding::form_body(body)
        .map_err(|e| Error::InvalidArgument { name: "body", reason: e.to_string() })?;
    Ok(request.header(reqwest::header::CONTENT_TYPE, HeaderValue::from_static(content_type)).body(bytes))
}

/// A call's time: which operation, when it started and how long it may take; every wait of the
/// call goes through [`Clock::within`].
#[derive(Debug, Clone, Copy)]
struct Clock {
    operation: &'static str,
    started: Instant,
    limit: Option<Duration>,
    /// `started + limit`; `None` without a limit, or with one too long for the clock to reach.
    deadline: Option<Instant>,
}

impl Clock {
    fn start(operation: &'static str, limit: Option<Duration>) -> Clock {
        let started = Instant::now();
        Clock { operation, started, limit, deadline: limit.and_then(|limit| started.checked_add(limit)) }
    }

    /// What is left of the call's time, when it has a limit.
    fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()))
    }

    /// Awaits `future` within the call's time; a timeout, ours or reqwest's, becomes
    /// [`Error::Timeout`].
    async fn within<T>(&self, future: impl Future<Output = Result<T, reqwest::Error>>) -> Result<T, Error> {
        let result = match (self.deadline, self.limit) {
            (Some(deadline), Some(limit)) => match tokio::time::timeout_at(deadline.into(), future).await {
                Ok(result) => result,
                Err(_) => {
                    let (operation, elapsed) = (self.operation, self.started.elapsed());
                    return Err(Error::Timeout { operation, elapsed, kind: TimeoutKind::Call(limit) });
                }
            },
            _ => future.await,
        };
        result.map_err(|source| transport_error(self.operation, self.started, source))
    }
}

/// A reply whose head has arrived, with what reading its body needs: the call's clock and the
/// body limits.
pub struct Received {
    response: Response,
    clock: Clock,
    limits: BodyLimits,
}

impl Received {
    /// The operationId of the call.
    pub fn operation(&self) -> &'static str {
        self.clock.operation
    }

    /// The reply's status.
    pub fn status(&self) -> StatusCode {
        self.response.status()
    }

    /// The reply's headers.
    pub fn headers(&self) -> &HeaderMap {
        self.response.headers()
    }

    /// The reply's headers, to take them before the body is read.
    pub fn headers_mut(&mut self) -> &mut HeaderMap {
        self.response.headers_mut()
    }

    /// The largest reply body (or streamed item) the client reads into memory.
    pub fn reply_limit(&self) -> u64 {
        self.limits.reply
    }

    /// The limits of the client that sent the call.
    pub fn limits(&self) -> BodyLimits {
        self.limits
    }

    /// The body as it arrives, for downloads and item streams, which bound it by
    /// [`BodyLimits::stream`] rather than by the call's deadline.
    pub fn into_response(self) -> Response {
        self.response
    }
}

/// The `QUERY` method (a safe request whose query is its body), which `http` has no constant for.
pub fn query_method() -> Method {
    Method::from_bytes(b"QUERY").expect("QUERY is a valid method token")
}

/// A reqwest error as an [`Error`]: its own timeouts (connect, read) say so.
pub fn transport_error(operation: &'static str, started: Instant, source: reqwest::Error) -> Error {
    if source.is_timeout() {
        let kind = if source.is_connect() { TimeoutKind::Connect } else { TimeoutKind::Read };
        return Error::Timeout { operation, elapsed: started.elapsed(), kind };
    }
    Error::Transport { operation, source: without_query(source) }
}

/// `source` without the query of the URL it names: an API key may travel there, and errors are
/// printed and logged.
pub fn without_query(mut source: reqwest::Error) -> reqwest::Error {
    if let Some(url) = source.url_mut()
        && url.query().is_some()
    {
        url.set_query(None);
    }
    source
}

/// Follows a redirect only within the origin (scheme, host and port) the call was sent to, at
/// most 10 times. A redirect to any other origin is not followed, so no credential, body or query
/// ever reaches a host the caller did not name; the call ends with the 3xx status.
pub fn redirect_policy() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let same_origin = attempt.previous().first().is_some_and(|first| first.origin() == attempt.url().origin());
        if same_origin && attempt.previous().len() <= 10 { attempt.follow() } else { attempt.stop() }
    })
}

/// Sends a request, retrying as the policy allows, all within the call's deadline; every failure
/// becomes an [`Error`].
pub async fn send(
    transport: &Arc<Transport>,
    call: &Call,
    timeout: Option<Duration>,
    request: reqwest::RequestBuilder,
) -> Result<Received, Error> {
    let operation = call.operation;
    let clock = Clock::start(operation, timeout.or(transport.timeout));
    let mut request =
        request.build().map_err(|source| Error::Transport { operation, source: without_query(source) })?;
    // A key makes a repeated request harmless, so the request may be retried whatever its method.
    let idempotent = matches!(call.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if (call.keyed || (transport.retry.idempotency_keys && !idempotent))
        && !request.headers().contains_key(IDEMPOTENCY_KEY)
        && let Ok(key) = HeaderValue::from_str(&fresh_key())
    {
        request.headers_mut().insert(IDEMPOTENCY_KEY, key);
    }
    let request_id = transport.request_ids.as_ref().map(|counter| {
        let id = format!("{:016x}", counter.fetch_add(1, Ordering::Relaxed));
        if let Ok(value) = HeaderValue::from_str(&id) {
            request.headers_mut().insert("x-request-id", value);
        }
        id
    });
    let span = tracing::info_span!(
        "request",
        operation,
        method = call.method,
        path = call.path,
        request_id = request_id.as_deref(),
        status = Empty,
        attempts = Empty,
        duration_ms = Empty,
    );
    let result = attempts(transport, call, clock, request).instrument(span.clone()).await;
    span.record("duration_ms", clock.started.elapsed().as_secs_f64() * 1e3);
    match &result {
        Ok(response) => {
            span.record("status", response.status().as_u16());
        }
        Err(e) => span.in_scope(|| tracing::debug!(error = %e, "request failed")),
    }
    let response = result?;
    Ok(Received { response, clock, limits: transport.limits })
}

async fn attempts(
    transport: &Transport,
    call: &Call,
    clock: Clock,
    mut request: reqwest::Request,
) -> Result<Response, Error> {
    let repeatable = matches!(call.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        || transport.retry.retry_non_idempotent
        || request.headers().contains_key(IDEMPOTENCY_KEY);
    let may_retry = transport.retry.max_retries > 0 && repeatable;
    let mut waited = Duration::ZERO;
    let mut attempt = 1;
    loop {
        if let Some(limit) = &transport.rate_limit {
            clock
                .within(async {
                    limit.acquire().await;
                    Ok(())
                })
                .await?;
        }
        // Keep a copy only when a retry could need it (bodies here are bytes, so it always clones).
        let spare = if may_retry { request.try_clone() } else { None };
        if let Some(hooks) = &transport.hooks {
            hooks
                .on_request(call.operation, &mut request)
                .map_err(|source| Error::Hook { operation: call.operation, source })?;
        }
        let response = clock.within(transport.http.execute(request)).await?;
        if let Some(hooks) = &transport.hooks {
            hooks.on_response(call.operation, &response);
        }
        tracing::Span::current().record("attempts", attempt);
        let remaining = clock.remaining();
        let wait = spare.as_ref().and_then(|_| {
            transport.retry.wait_if(repeatable, response.status(), response.headers(), attempt, waited, remaining)
        });
        match (wait, spare) {
            (Some(wait), Some(next)) => {
                tracing::debug!(status = response.status().as_u16(), wait_ms = wait.as_millis() as u64, "retrying");
                drop(response);
                tokio::time::sleep(wait).await;
                waited = waited.saturating_add(wait);
                attempt += 1;
                request = next;
            }
            _ => return Ok(response),
        }
    }
}

/// Passes a reply with any of several success statuses through; turns any other into
/// [`Error::Status`].
pub async fn any_of(response: Received, successes: &[u16]) -> Result<Received, Error> {
    let status = response.status().as_u16();
    let expected = if successes.contains(&status) { status } else { successes[0] };
    expect_status(response, expected).await
}

/// Reads an optional reply header; a value that does not parse is an [`Error::Decode`] naming it.
pub fn header<T>(operation: &'static str, headers: &HeaderMap, name: &'static str) -> Result<Option<T>, Error>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    let Some(value) = headers.get(name) else { return Ok(None) };
    let text = value.to_str().map_err(|_| header_error(operation, name, "the value is not visible ASCII"))?;
    text.parse().map(Some).map_err(|e| header_error(operation, name, format!("{e}: `{text}`")))
}

/// Reads a reply header the operation documents as always present.
pub fn required_header<T>(operation: &'static str, headers: &HeaderMap, name: &'static str) -> Result<T, Error>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    header(operation, headers, name)?.ok_or_else(|| header_error(operation, name, "the header is missing"))
}

/// A reply header that is not what the spec describes, as an [`Error::Decode`] at `header <name>`.
fn header_error(operation: &'static str, name: &str, reason: impl fmt::Display) -> Error {
    Error::Decode {
        operation,
        path: format!("header {name}"),
        body: Bytes::new(),
        source: serde::de::Error::custom(reason),
    }
}

/// Decodes a JSON body; a failure names the path of the value that did not fit.
pub fn decode<T: DeserializeOwned>(operation: &'static str, body: Bytes) -> Result<T, Error> {
    match crate::request_json::from_slice(&body) {
        Ok(value) => Ok(value),
        Err(source) => {
            // Only now is the path needed, so the fast path pays nothing for it.
            // A missing field is reported where its object closes, after the last member read.
            let whole_object = source.to_string().starts_with("missing field");
            let path = json_path(&body, source.line(), source.column(), whole_object);
            Err(Error::Decode { operation, path, body, source })
        }
    }
}

/// Where in a JSON text serde_json stopped with an error, as a path (`[0].Holdings[2].Quantity`,
/// `.` for the whole text). serde_json gives a line and a column, so the text up to there is
/// scanned once for the keys and indexes open at that point. `whole_object` says the error is
/// about the innermost open object itself, not the member last read in it.
fn json_path(json: &[u8], line: usize, column: usize, whole_object: bool) -> String {
    /// An object or array open at the error, with the member being read in it, if any.
    enum Open {
        Object { key: Option<String>, in_value: bool },
        Array { index: usize, started: bool },
    }
    let mut start = 0;
    for _ in 1..line {
        start = json[start..].iter().position(|&b| b == b'\n').map_or(json.len(), |p| start + p + 1);
    }
    // serde_json stops at the byte it failed on, or just past a value it read whole. When that
    // value is an object or array, the error is about it, so its closing bracket stays unread.
    let mut end = (start + column).min(json.len());
    if end > 0 && matches!(json[end - 1], b'}' | b']') {
        end -= 1;
    }
    let mut open: Vec<Open> = Vec::new();
    let mut i = 0;
    while i < end {
        let byte = json[i];
        if let Some(Open::Array { started, .. }) = open.last_mut()
            && !byte.is_ascii_whitespace()
            && !matches!(byte, b']' | b',')
        {
            *started = true;
        }
        match byte {
            b'"' => {
                let mut close = i + 1;
                while close < json.len() && json[close] != b'"' {
                    close += if json[close] == b'\\' { 2 } else { 1 };
                }
                if let Some(Open::Object { key, in_value: false }) = open.last_mut() {
                    let raw = &json[i..(close + 1).min(json.len())];
                    *key =
                        Some(serde_json::from_slice(raw).unwrap_or_else(|_| String::from_utf8_lossy(raw).into_owned()));
                }
                i = close;
            }
            b'{' => open.push(Open::Object { key: None, in_value: false }),
            b'[' => open.push(Open::Array { index: 0, started: false }),
            b'}' | b']' => {
                open.pop();
            }
            b':' => {
                if let Some(Open::Object { in_value, .. }) = open.last_mut() {
                    *in_value = true;
                }
            }
            b',' => match open.last_mut() {
                Some(Open::Object { key, in_value }) => (*key, *in_value) = (None, false),
                Some(Open::Array { index, .. }) => *index += 1,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    if whole_object && let Some(Open::Object { in_value, .. }) = open.last_mut() {
        *in_value = false;
    }
    let mut path = String::new();
    for level in &open {
        match level {
            Open::Object { key: Some(key), in_value: true } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Open::Array { index, started: true } => path.push_str(&format!("[{index}]")),
            _ => break,
        }
    }
    if path.is_empty() { ".".to_string() } else { path }
}

/// Passes a reply with the documented success status through; turns any other into
/// [`Error::Status`], reading at most the error-body limit of its body.
pub async fn expect_status(response: Received, success: u16) -> Result<Received, Error> {
    if response.status().as_u16() == success {
        return Ok(response);
    }
    let (operation, status) = (response.operation(), response.status());
    let headers = response.headers().clone();
    let limit = response.limits.error;
    let (body, truncated) = read_at_most(response, limit).await?;
    let is_json = headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.split(';').next().unwrap_or("").trim().ends_with("json"));
    let problem = if is_json && !truncated { ProblemDetails::from_body(&body) } else { None };
    Err(Error::Status(Box::new(StatusError { operation, status, headers, body, truncated, problem })))
}

/// Reads a whole reply body within the call's deadline; one longer than the reply limit is
/// [`Error::BodyTooLarge`], and is not read further.
pub async fn read_body(response: Received) -> Result<Bytes, Error> {
    let (operation, limit) = (response.operation(), response.limits.reply);
    match read_at_most(response, limit).await? {
        (_, true) => Err(Error::BodyTooLarge { operation, limit }),
        (body, false) => Ok(body),
    }
}

/// The body up to `limit` bytes, and whether there was more. What lies beyond the limit is not
/// read: the connection is closed instead.
async fn read_at_most(mut response: Received, limit: u64) -> Result<(Bytes, bool), Error> {
    if response.response.content_length().is_some_and(|length| length > limit) {
        return Ok((Bytes::new(), true));
    }
    // Most bodies arrive as one chunk: hand it over without copying.
    let Some(first) = next_chunk(&mut response).await? else { return Ok((Bytes::new(), false)) };
    if first.len() as u64 > limit {
        return Ok((first.slice(..limit as usize), true));
    }
    let Some(second) = next_chunk(&mut response).await? else { return Ok((first, false)) };
    // A declared length is the server's word, not a fact: trusting it to allocate lets any server
    // make the client reserve the whole limit (or abort) before a byte arrives.
    let capacity = response.response.content_length().unwrap_or(0).min(limit).min(PREALLOCATE_AT_MOST) as usize;
    let mut body = BytesMut::with_capacity(capacity.max(first.len() + second.len()));
    let mut chunk = Some(second);
    body.extend_from_slice(&first);
    while let Some(next) = chunk {
        let room = limit - body.len() as u64;
        if next.len() as u64 > room {
            body.extend_from_slice(&next[..room as usize]);
            return Ok((body.freeze(), true));
        }
        body.extend_from_slice(&next);
        chunk = next_chunk(&mut response).await?;
    }
    Ok((body.freeze(), false))
}

/// The most a reply buffer is sized for up front, whatever length the server declares; it grows
/// from there as bytes actually arrive.
const PREALLOCATE_AT_MOST: u64 = 256 * 1024;

/// The header that tells a server a request repeats an earlier one (IETF `Idempotency-Key`).
const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// A key no other request of any client is likely to send: 128 bits from hashers seeded by the
/// process's random keys (new ones each call), a counter and the clock, written as a UUID.
fn fresh_key() -> String {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let half = |salt: u64| {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(count);
        hasher.write_u128(nanos);
        hasher.write_u64(salt);
        hasher.finish()
    };
    let (high, low) = (half(1), half(2));
    // Version 4 and the RFC 4122 variant, so the key reads as a random UUID.
    let high = (high & !0xf000) | 0x4000;
    let low = (low & !(0b11 << 62)) | (0b10 << 62);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0xffff,
        low >> 48,
        low & 0xffff_ffff_ffff
    )
}

async fn next_chunk(response: &mut Received) -> Result<Option<Bytes>, Error> {
    let clock = response.clock;
    clock.within(response.response.chunk()).await
}

#[cfg(test)]
mod tests {
    #[test]
    fn fresh_keys_are_distinct_version_4_uuids() {
        let keys: std::collections::BTreeSet<String> = (0..1000).map(|_| super::fresh_key()).collect();
        assert_eq!(keys.len(), 1000);
        for key in &keys {
            let parts: Vec<&str> = key.split('-').collect();
            assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), [8, 4, 4, 4, 12], "{key}");
            assert!(parts[2].starts_with('4') && matches!(&parts[3][..1], "8" | "9" | "a" | "b"), "{key}");
        }
    }
}
