//! How the client behaves around each request: retries with backoff, a client-side rate limit,
//! and the request ids it attaches.

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use reqwest::header::{HeaderMap, RETRY_AFTER};
use reqwest::{Method, StatusCode};

/// The deadline of a call unless the client builder's `timeout` or the call sets another.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long the default HTTP client waits for a connection.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the default HTTP client waits while the server sends nothing.
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest success reply body read into memory unless the client builder's `max_reply_size`
/// sets another: 32 MiB.
pub const DEFAULT_MAX_REPLY_SIZE: u64 = 32 * 1024 * 1024;

/// How much of an error reply's body is kept unless the client builder's `max_error_body` sets
/// another: 64 KiB.
pub const DEFAULT_MAX_ERROR_BODY: u64 = 64 * 1024;

/// When and how often a request is retried.
///
/// By default `GET`, `HEAD` and `OPTIONS` requests answered 429 or 503 are retried up to 3 times,
/// waiting what `Retry-After` asks (seconds or an HTTP date) or else a jittered exponential backoff,
/// and giving up once the waits would add up to more than 30 seconds. A retry never comes sooner
/// than the server asked: when `Retry-After` asks for longer than [`RetryPolicy::max_backoff`], the
/// waits allow, or the call's timeout leaves, the call ends at once with the status it got. Other
/// methods are retried only with [`RetryPolicy::retry_non_idempotent`].
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Retries after the first attempt; 0 disables retrying.
    pub max_retries: u32,
    /// First backoff when the server gives no `Retry-After`; doubled on each retry.
    pub initial_backoff: Duration,
    /// Longest single wait: a longer backoff is shortened to it, a longer `Retry-After` ends the
    /// call.
    pub max_backoff: Duration,
    /// Longest total waiting across all retries of one call.
    pub max_total_wait: Duration,
    /// Also retry `POST`, `PUT`, `PATCH` and `DELETE`, which may repeat their effect.
    pub retry_non_idempotent: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(10),
            max_total_wait: Duration::from_secs(30),
            retry_non_idempotent: false,
        }
    }
}

impl RetryPolicy {
    /// A policy that never retries.
    pub fn never() -> Self {
        RetryPolicy { max_retries: 0, ..RetryPolicy::default() }
    }

    /// How long to wait before retry number `retry` (1-based), or `None` to give up. `remaining`
    /// is what is left of the call's timeout, if it has one.
    pub fn wait(
        &self,
        method: &Method,
        status: StatusCode,
        headers: &HeaderMap,
        retry: u32,
        waited: Duration,
        remaining: Option<Duration>,
    ) -> Option<Duration> {
        let idempotent = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
        let retryable = status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::SERVICE_UNAVAILABLE;
        if !retryable || retry > self.max_retries || !(idempotent || self.retry_non_idempotent) {
            return None;
        }
        let wait = match retry_after(headers) {
            // The server's word is a floor: asked to wait longer than allowed, give up now.
            Some(asked) if asked > self.max_backoff => return None,
            Some(asked) => asked,
            None => jittered(self.initial_backoff.saturating_mul(1 << (retry - 1).min(16))).min(self.max_backoff),
        };
        let in_time = remaining.is_none_or(|remaining| wait < remaining);
        (waited + wait <= self.max_total_wait && in_time).then_some(wait)
    }
}

/// `Retry-After` as a number of seconds or an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc2822).ok()?;
    let at = SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(date.unix_timestamp()).ok()?);
    Some(at.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO))
}

/// Between half and all of `base`, so clients that failed together do not retry together.
fn jittered(base: Duration) -> Duration {
    let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    let fraction = 0.5 + f64::from(nanos % 1000) / 2000.0;
    base.mul_f64(fraction)
}

/// A client-side limit of requests per second, shared by clones of a client.
#[derive(Debug)]
pub struct RateLimiter {
    interval: Duration,
    next: Mutex<Instant>,
}

impl RateLimiter {
    pub fn new(per_second: f64) -> RateLimiter {
        RateLimiter { interval: Duration::from_secs_f64(1.0 / per_second), next: Mutex::new(Instant::now()) }
    }

    /// Waits for this request's turn.
    pub async fn acquire(&self) {
        let slot = {
            let mut next = self.next.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let slot = (*next).max(Instant::now());
            *next = slot + self.interval;
            slot
        };
        tokio::time::sleep_until(slot.into()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "7".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));
        headers.insert(RETRY_AFTER, "Sun, 06 Nov 1994 08:49:37 GMT".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::ZERO), "a date in the past means now");
        headers.insert(RETRY_AFTER, "soon".parse().unwrap());
        assert_eq!(retry_after(&headers), None);
    }

    #[test]
    fn only_idempotent_requests_retry_by_default() {
        let policy = RetryPolicy::default();
        let headers = HeaderMap::new();
        let busy = StatusCode::SERVICE_UNAVAILABLE;
        let wait = |method: &Method, status, retry, waited| policy.wait(method, status, &headers, retry, waited, None);
        assert!(wait(&Method::GET, busy, 1, Duration::ZERO).is_some());
        assert!(wait(&Method::POST, busy, 1, Duration::ZERO).is_none());
        assert!(wait(&Method::GET, StatusCode::INTERNAL_SERVER_ERROR, 1, Duration::ZERO).is_none());
        assert!(wait(&Method::GET, busy, 4, Duration::ZERO).is_none(), "three retries at most");
        assert!(wait(&Method::GET, busy, 1, Duration::from_secs(30)).is_none(), "total wait is capped");
        let opted_in = RetryPolicy { retry_non_idempotent: true, ..RetryPolicy::default() };
        assert!(opted_in.wait(&Method::POST, busy, &headers, 1, Duration::ZERO, None).is_some());
    }

    #[test]
    fn retry_after_is_never_shortened() {
        let policy = RetryPolicy::default();
        let mut headers = HeaderMap::new();
        let busy = StatusCode::SERVICE_UNAVAILABLE;
        headers.insert(RETRY_AFTER, "5".parse().unwrap());
        assert_eq!(policy.wait(&Method::GET, busy, &headers, 1, Duration::ZERO, None), Some(Duration::from_secs(5)));
        let remaining = Some(Duration::from_secs(2));
        assert_eq!(policy.wait(&Method::GET, busy, &headers, 1, Duration::ZERO, remaining), None, "past the deadline");
        headers.insert(RETRY_AFTER, "3600".parse().unwrap());
        assert_eq!(policy.wait(&Method::GET, busy, &headers, 1, Duration::ZERO, None), None, "longer than max_backoff");
    }
}
