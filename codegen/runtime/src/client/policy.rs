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
/// methods are retried only when the request carries an `Idempotency-Key` (which the client sends
/// where the document declares one, and on every `POST` and `PATCH` with
/// [`RetryPolicy::idempotency_keys`]), or with [`RetryPolicy::retry_non_idempotent`].
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
    /// Send a fresh `Idempotency-Key` with every `POST`, `PUT`, `PATCH` and `DELETE` that has
    /// none, the same on each attempt, and retry them like `GET`: for servers that honour the key
    /// whether or not their document declares it. Operations whose document declares the header
    /// get a key without this.
    pub idempotency_keys: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(10),
            max_total_wait: Duration::from_secs(30),
            retry_non_idempotent: false,
            idempotency_keys: false,
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
        self.wait_if(idempotent || self.retry_non_idempotent, status, headers, retry, waited, remaining)
    }

    /// [`RetryPolicy::wait`] for a request that may (`repeatable`) or may not be sent again.
    pub(crate) fn wait_if(
        &self,
        repeatable: bool,
        status: StatusCode,
        headers: &HeaderMap,
        retry: u32,
        waited: Duration,
        remaining: Option<Duration>,
    ) -> Option<Duration> {
        let retryable = status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::SERVICE_UNAVAILABLE;
        if !retryable || retry > self.max_retries || !repeatable {
            return None;
        }
        let wait = match retry_after(headers) {
            // The server's word is a floor: asked to wait longer than allowed, give up now.
            Some(asked) if asked > self.max_backoff => return None,
            Some(asked) => asked,
            None => jittered(self.initial_backoff.saturating_mul(1 << (retry - 1).min(16))).min(self.max_backoff),
        };
        let in_time = remaining.is_none_or(|remaining| wait < remaining);
        (waited.saturating_add(wait) <= self.max_total_wait && in_time).then_some(wait)
    }
}

/// `Retry-After` as a number of seconds or an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(http_date(text)?).ok()?);
    Some(at.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO))
}

/// Month names as HTTP dates write them.
const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// Seconds since the Unix epoch of an HTTP date in the form servers send (RFC 9110's IMF-fixdate,
/// `Sun, 06 Nov 1994 08:49:37 GMT`); the obsolete forms are not read.
fn http_date(text: &str) -> Option<i64> {
    let mut words = text.split_ascii_whitespace();
    let (_weekday, day, month, year, time, zone) =
        (words.next()?.strip_suffix(',')?, words.next()?, words.next()?, words.next()?, words.next()?, words.next()?);
    if words.next().is_some() || zone != "GMT" || day.len() != 2 || year.len() != 4 {
        return None;
    }
    let month = MONTHS.iter().position(|m| *m == month)? as u8 + 1;
    let (day, year): (u8, i64) = (day.parse().ok()?, year.parse().ok()?);
    let mut clock = time.splitn(3, ':').map(|part| part.parse::<i64>().ok().filter(|_| part.len() == 2));
    let (hour, minute, second) = (clock.next()??, clock.next()??, clock.next()??);
    if !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    Some(crate::date_time::days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second)
}

/// Between half and all of `base`, so clients that failed together do not retry together.
fn jittered(base: Duration) -> Duration {
    let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    let fraction = 0.5 + f64::from(nanos % 1000) / 2000.0;
    base.mul_f64(fraction)
}

/// The default of the client builder's `stream_idle_timeout`: the longest wait for the next
/// item of a stream or the next chunk of a download.
pub const DEFAULT_STREAM_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// The slowest a download's body may arrive unless the client builder's `min_download_rate`
/// sets another: 1 KiB a second, averaged over each [`DOWNLOAD_RATE_WINDOW`]. A server that
/// trickles a byte at a time would otherwise hold the download for ever, as each byte ends an
/// idle wait.
pub const DEFAULT_MIN_DOWNLOAD_RATE: u64 = 1024;

/// The time over which a download's rate is measured against its minimum.
pub const DOWNLOAD_RATE_WINDOW: std::time::Duration = std::time::Duration::from_secs(30);

/// The most pages a paged operation's walk (`into_stream()`) reads unless the client builder's
/// `max_pages` sets another: past it, the walk ends with an error, so a server whose pages never
/// end cannot keep it going for ever.
pub const DEFAULT_MAX_PAGES: u64 = 10_000;

/// A client-side limit of requests per second, shared by clones of a client.
#[derive(Debug)]
pub struct RateLimiter {
    interval: Duration,
    next: Mutex<Instant>,
}

/// The longest interval between requests a rate limit may ask for: one a day.
const LONGEST_INTERVAL: Duration = Duration::from_secs(24 * 60 * 60);

impl RateLimiter {
    /// A limit of `per_second` requests a second, or why it cannot be one: it must be a positive
    /// number, and at least one request a day.
    pub fn new(per_second: f64) -> Result<RateLimiter, String> {
        if !(per_second.is_finite() && per_second > 0.0) {
            return Err(format!("{per_second} is not a positive number of requests per second"));
        }
        let interval = Duration::try_from_secs_f64(1.0 / per_second)
            .ok()
            .filter(|interval| *interval <= LONGEST_INTERVAL)
            .ok_or_else(|| format!("{per_second} requests per second is less than one a day"))?;
        Ok(RateLimiter { interval, next: Mutex::new(Instant::now()) })
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
        let hour_on = crate::DateTime::try_from(SystemTime::now() + Duration::from_secs(3600)).unwrap();
        let (d, month) = (hour_on, MONTHS[usize::from(hour_on.month()) - 1]);
        let text =
            format!("Mon, {:02} {month} {} {:02}:{:02}:{:02} GMT", d.day(), d.year(), d.hour(), d.minute(), d.second());
        headers.insert(RETRY_AFTER, text.parse().unwrap());
        let wait = retry_after(&headers).unwrap();
        assert!(wait > Duration::from_secs(3590) && wait <= Duration::from_secs(3600), "{text}: {wait:?}");
    }

    #[test]
    fn http_dates_are_read_in_the_fixed_form() {
        assert_eq!(http_date("Sun, 06 Nov 1994 08:49:37 GMT"), Some(784_111_777));
        assert_eq!(http_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(http_date("Tue, 29 Feb 2028 23:59:59 GMT"), Some(1_835_481_599));
        for text in [
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
            "Sun, 06 Nov 1994 08:49:37 PST",
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT extra",
        ] {
            assert_eq!(http_date(text), None, "{text}");
        }
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
