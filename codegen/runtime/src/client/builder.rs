//! What every generated client shares around its operations: the builder and its settings, the
//! connection a built client holds, and credentials, fixed or from a provider.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use reqwest::header::HeaderValue;

use crate::client::Error;
use crate::client::hooks::Hooks;
use crate::client::policy::{
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_ERROR_BODY, DEFAULT_MAX_PAGES, DEFAULT_MAX_REPLY_SIZE,
    DEFAULT_MIN_DOWNLOAD_RATE, DEFAULT_READ_TIMEOUT, DEFAULT_STREAM_IDLE_TIMEOUT, DEFAULT_TIMEOUT,
    DOWNLOAD_RATE_WINDOW, RateLimiter, RetryPolicy,
};
use crate::client::transport::{self, BodyLimits, Call, Received, StreamLimits, Transport, redirect_policy};

/// An error from a [`CredentialsProvider`].
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What the builder needs to know of a generated client. Every generated `Client` implements it;
/// there is no reason to implement it by hand.
pub trait ApiClient: Sized {
    /// The API's credentials, one value per security scheme.
    type Credentials: Send + Sync + 'static;
    /// The credentials as header values, checked once.
    type CredentialHeaders: Clone + Send + Sync + 'static;
    /// Whether some operation's documented reply is a redirect, so that none may be followed.
    const REDIRECTS_ARE_REPLIES: bool;
    /// The API's version header and the value sent unless told otherwise, when it has one.
    const VERSION_HEADER: Option<(&'static str, &'static str)>;

    /// Checks `credentials` and turns them into header values.
    fn credential_headers(credentials: &Self::Credentials) -> Result<Self::CredentialHeaders, Error>;

    /// `request` with the credentials most operations send, each in its header.
    fn sign(request: reqwest::RequestBuilder, credentials: &Self::CredentialHeaders) -> reqwest::RequestBuilder;

    /// The client around a built connection.
    fn from_connection(connection: Connection<Self>) -> Self;
}

/// Supplies the credentials of each request, for example to refresh an expiring access token.
/// Any `Fn() -> impl Future<Output = Result<C, BoxError>>` is one; its errors come back as
/// [`Error::Credentials`].
pub trait CredentialsProvider<C>: Send + Sync + 'static {
    /// The credentials for the next request.
    fn credentials(&self) -> Pin<Box<dyn Future<Output = Result<C, BoxError>> + Send + '_>>;
}

impl<C, F, Fut> CredentialsProvider<C> for F
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<C, BoxError>> + Send + 'static,
{
    fn credentials(&self) -> Pin<Box<dyn Future<Output = Result<C, BoxError>> + Send + '_>> {
        Box::pin(self())
    }
}

/// Where a client's credentials come from.
enum CredentialSource<A: ApiClient> {
    Fixed(A::CredentialHeaders),
    Provider(Arc<dyn CredentialsProvider<A::Credentials>>),
}

impl<A: ApiClient> Clone for CredentialSource<A> {
    fn clone(&self) -> Self {
        match self {
            CredentialSource::Fixed(headers) => CredentialSource::Fixed(headers.clone()),
            CredentialSource::Provider(provider) => CredentialSource::Provider(provider.clone()),
        }
    }
}

/// A `reqwest::ClientBuilder` with the settings a generated client relies on: the connect and read
/// timeouts ([`DEFAULT_CONNECT_TIMEOUT`], [`DEFAULT_READ_TIMEOUT`]), no `Referer` header, and
/// redirects followed only within the origin of the request (at most 10), so that no credential,
/// body or query reaches a host the caller did not name. A redirect to another origin ends the
/// call with its 3xx status.
///
/// Add TLS, proxy or pool settings to it and pass the result to [`ClientBuilder::http_client`].
/// For an API whose operations reply with redirects, the client's own `http_client_builder`
/// follows none.
pub fn http_client_builder() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .redirect(redirect_policy())
        .referer(false)
        .connect_timeout(DEFAULT_CONNECT_TIMEOUT)
        .read_timeout(DEFAULT_READ_TIMEOUT)
}

/// [`http_client_builder`] for client `A`: one that follows no redirect when `A`'s operations
/// document redirects as their replies.
#[doc(hidden)]
pub fn http_client_builder_for<A: ApiClient>() -> reqwest::ClientBuilder {
    let builder = http_client_builder();
    if A::REDIRECTS_ARE_REPLIES { builder.redirect(reqwest::redirect::Policy::none()) } else { builder }
}

/// Builds a client: its base URL and credentials, then timeouts, limits, retries, a rate limit or
/// a credentials provider. Start with the generated client's `builder`.
pub struct ClientBuilder<A: ApiClient> {
    base_url: String,
    credentials: Result<A::Credentials, Arc<dyn CredentialsProvider<A::Credentials>>>,
    http: Option<reqwest::Client>,
    timeout: Option<Duration>,
    connect_timeout: Duration,
    read_timeout: Duration,
    max_reply_size: u64,
    max_error_body: u64,
    stream: StreamLimits,
    max_pages: Option<u64>,
    retry: RetryPolicy,
    rate_limit: Option<f64>,
    request_ids: bool,
    version: Option<String>,
    hooks: Option<Arc<dyn Hooks>>,
}

impl<A: ApiClient> fmt::Debug for ClientBuilder<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("base_url", &self.base_url)
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("read_timeout", &self.read_timeout)
            .field("max_reply_size", &self.max_reply_size)
            .field("max_error_body", &self.max_error_body)
            .field("stream", &self.stream)
            .field("max_pages", &self.max_pages)
            .field("retry", &self.retry)
            .field("rate_limit", &self.rate_limit)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl<A: ApiClient> ClientBuilder<A> {
    /// A builder for a client of the deployment at `base_url` (scheme, host and optional path
    /// prefix) that sends `credentials`, with every other setting at its default.
    pub fn new(base_url: &str, credentials: A::Credentials) -> Self {
        ClientBuilder {
            base_url: base_url.to_string(),
            credentials: Ok(credentials),
            http: None,
            timeout: Some(DEFAULT_TIMEOUT),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            read_timeout: DEFAULT_READ_TIMEOUT,
            max_reply_size: DEFAULT_MAX_REPLY_SIZE,
            max_error_body: DEFAULT_MAX_ERROR_BODY,
            stream: StreamLimits {
                idle: DEFAULT_STREAM_IDLE_TIMEOUT,
                total: None,
                max_bytes: None,
                min_rate: Some((DEFAULT_MIN_DOWNLOAD_RATE, DOWNLOAD_RATE_WINDOW)),
            },
            max_pages: Some(DEFAULT_MAX_PAGES),
            retry: RetryPolicy::default(),
            rate_limit: None,
            request_ids: false,
            version: None,
            hooks: None,
        }
    }

    /// Sends through `http` instead of a pool of the client's own, so the caller controls TLS,
    /// proxies and pooling. Build it from [`http_client_builder`] (or the client's own
    /// `http_client_builder`): a `reqwest::Client` of your own follows reqwest's redirect policy,
    /// which sends API-key headers on to any host a server redirects to. Its own settings then
    /// replace [`ClientBuilder::connect_timeout`] and [`ClientBuilder::read_timeout`].
    pub fn http_client(mut self, http: reqwest::Client) -> Self {
        self.http = Some(http);
        self
    }

    /// The deadline of every call ([`DEFAULT_TIMEOUT`] unless set): connecting, every attempt,
    /// the waits between retries and reading the reply all fit in it, and a call that runs out
    /// ends with [`Error::Timeout`]. A call's own `.timeout(..)` takes precedence. For downloads
    /// and item streams it ends when the reply's head arrives; the body is then bounded by
    /// [`ClientBuilder::stream_idle_timeout`], [`ClientBuilder::stream_timeout`] and
    /// [`ClientBuilder::max_stream_size`]. A duration too long for the clock means no deadline.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// No deadline for calls: a call lasts as long as the server takes, bounded only by the
    /// connect and read timeouts.
    pub fn no_timeout(mut self) -> Self {
        self.timeout = None;
        self
    }

    /// How long to wait for a connection ([`DEFAULT_CONNECT_TIMEOUT`] unless set).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How long the server may send nothing while a reply is read, a download's body included
    /// ([`DEFAULT_READ_TIMEOUT`] unless set).
    pub fn read_timeout(mut self, timeout: Duration) -> Self {
        self.read_timeout = timeout;
        self
    }

    /// The largest success reply body read into memory ([`DEFAULT_MAX_REPLY_SIZE`] unless set); a
    /// longer one ends the call with [`Error::BodyTooLarge`] without being read. It also bounds
    /// one item of an item stream and a download read whole with
    /// [`ByteStream::collect`](crate::client::ByteStream::collect); a download read chunk by
    /// chunk has no limit unless [`ClientBuilder::max_stream_size`] sets one.
    pub fn max_reply_size(mut self, bytes: u64) -> Self {
        self.max_reply_size = bytes;
        self
    }

    /// The longest wait for the next item of an item stream, or the next chunk of a download
    /// ([`DEFAULT_STREAM_IDLE_TIMEOUT`] unless set); the wait starts when the caller asks for it.
    /// A stream that sends nothing usable for that long ends with [`Error::Timeout`]
    /// ([`TimeoutKind::StreamIdle`](crate::client::TimeoutKind::StreamIdle)). For an item stream
    /// the bytes of an unfinished item do not count, so one dripping a byte at a time is cut off
    /// too. `Duration::MAX` waits for ever.
    pub fn stream_idle_timeout(mut self, timeout: Duration) -> Self {
        self.stream.idle = timeout;
        self
    }

    /// The longest a download's body or an item stream may run from the arrival of its head,
    /// however steadily it comes (none unless set): past it, the stream ends with
    /// [`Error::Timeout`] ([`TimeoutKind::StreamTotal`](crate::client::TimeoutKind::StreamTotal)).
    /// The call's own deadline ends when the head arrives.
    pub fn stream_timeout(mut self, timeout: Duration) -> Self {
        self.stream.total = Some(timeout);
        self
    }

    /// The most bytes a download's body or an item stream may deliver in all (none unless set);
    /// past it the stream ends with [`Error::BodyTooLarge`].
    pub fn max_stream_size(mut self, bytes: u64) -> Self {
        self.stream.max_bytes = Some(bytes);
        self
    }

    /// The fewest bytes a second a download's body must average over each window of `over`
    /// ([`DEFAULT_MIN_DOWNLOAD_RATE`] over [`DOWNLOAD_RATE_WINDOW`] unless set); a slower one ends
    /// with [`Error::Timeout`] ([`TimeoutKind::DownloadRate`](crate::client::TimeoutKind::DownloadRate)).
    pub fn min_download_rate(mut self, bytes_per_second: u64, over: Duration) -> Self {
        self.stream.min_rate = Some((bytes_per_second, over));
        self
    }

    /// Lets a download's body come as slowly as the server sends it, for servers that send
    /// slowly on purpose; the idle wait between chunks still applies.
    pub fn no_min_download_rate(mut self) -> Self {
        self.stream.min_rate = None;
        self
    }

    /// The most pages a paged operation's walk (`into_stream()`) reads ([`DEFAULT_MAX_PAGES`]
    /// unless set): when the reply of the last names another, the walk ends with
    /// [`Error::Paging`] after that page's items.
    pub fn max_pages(mut self, pages: u64) -> Self {
        self.max_pages = Some(pages);
        self
    }

    /// Lets paged walks read as many pages as the server hands out.
    pub fn no_max_pages(mut self) -> Self {
        self.max_pages = None;
        self
    }

    /// How much of an error reply's body is kept ([`DEFAULT_MAX_ERROR_BODY`] unless set); the rest
    /// is not read, and [`StatusError::truncated`](crate::client::StatusError::truncated) says so.
    pub fn max_error_body(mut self, bytes: u64) -> Self {
        self.max_error_body = bytes;
        self
    }

    /// Replaces the [`RetryPolicy`]; [`RetryPolicy::never`] turns retries off.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Sends at most `per_second` requests a second, across all clones of the client.
    /// [`ClientBuilder::build`] refuses a rate that is not positive, or below one a day.
    pub fn rate_limit(mut self, per_second: f64) -> Self {
        self.rate_limit = Some(per_second);
        self
    }

    /// Sends a fresh `x-request-id` with every request, so a server can tie its logs to the
    /// client's spans.
    pub fn request_ids(mut self, enabled: bool) -> Self {
        self.request_ids = enabled;
        self
    }

    /// Sends `value` in the API's version header instead of the version the client was generated
    /// for. [`ClientBuilder::build`] refuses it for an API without a version header.
    pub fn version_header(mut self, value: impl Into<String>) -> Self {
        self.version = Some(value.into());
        self
    }

    /// Runs `hooks` around every attempt of every call (see [`Hooks`]).
    pub fn hooks(mut self, hooks: impl Hooks) -> Self {
        self.hooks = Some(Arc::new(hooks));
        self
    }

    /// Asks `provider` for the credentials of every request instead of sending fixed ones.
    pub fn credentials_provider(mut self, provider: impl CredentialsProvider<A::Credentials>) -> Self {
        self.credentials = Err(Arc::new(provider));
        self
    }

    /// The client, or the first setting that cannot work.
    pub fn build(self) -> Result<A, Error> {
        let base_url = checked_base_url(&self.base_url)?;
        let rate_limit = match self.rate_limit {
            Some(rate) => {
                Some(RateLimiter::new(rate).map_err(|reason| Error::InvalidArgument { name: "rate_limit", reason })?)
            }
            None => None,
        };
        for (name, duration) in [
            ("timeout", self.timeout),
            ("connect_timeout", Some(self.connect_timeout)),
            ("read_timeout", Some(self.read_timeout)),
            ("stream_idle_timeout", Some(self.stream.idle)),
            ("stream_timeout", self.stream.total),
            ("min_download_rate", self.stream.min_rate.map(|(_, over)| over)),
        ] {
            if duration == Some(Duration::ZERO) {
                let reason = "a zero timeout would end every call before it starts".to_string();
                return Err(Error::InvalidArgument { name, reason });
            }
        }
        if self.max_pages == Some(0) {
            let reason = "a walk of no pages would read nothing; `no_max_pages` lifts the limit".to_string();
            return Err(Error::InvalidArgument { name: "max_pages", reason });
        }
        if self.max_reply_size == 0 {
            let reason = "a limit of 0 bytes would refuse every reply with a body".to_string();
            return Err(Error::InvalidArgument { name: "max_reply_size", reason });
        }
        let version = match (A::VERSION_HEADER, self.version) {
            (Some((header, _)), Some(value)) => header_value(header, &value, false)?,
            (Some((header, default)), None) => header_value(header, default, false)?,
            (None, Some(_)) => {
                return Err(Error::InvalidArgument {
                    name: "version_header",
                    reason: "this API has no version header".to_string(),
                });
            }
            (None, None) => HeaderValue::from_static(""),
        };
        let http = match self.http {
            Some(http) => http,
            None => http_client_builder_for::<A>()
                .connect_timeout(self.connect_timeout.min(FOR_EVER))
                .read_timeout(self.read_timeout.min(FOR_EVER))
                .build()
                .map_err(|source| Error::Transport { operation: "Client::build", source })?,
        };
        let credentials = match self.credentials {
            Ok(fixed) => CredentialSource::Fixed(A::credential_headers(&fixed)?),
            Err(provider) => CredentialSource::Provider(provider),
        };
        let transport = Transport {
            http,
            timeout: self.timeout,
            retry: self.retry,
            rate_limit,
            request_ids: self.request_ids.then(|| AtomicU64::new(1)),
            hooks: self.hooks,
            limits: BodyLimits { reply: self.max_reply_size, error: self.max_error_body, stream: self.stream },
            max_pages: self.max_pages,
        };
        Ok(A::from_connection(Connection {
            transport: Arc::new(transport),
            base_url: base_url.into(),
            credentials,
            version,
        }))
    }
}

/// A time as good as for ever (about 136 years) that a clock can always add: reqwest adds its
/// timeouts to the current instant, and panics where that overflows.
const FOR_EVER: Duration = Duration::from_secs(u32::MAX as u64);

/// `base_url` without a trailing slash, or why it cannot be one.
fn checked_base_url(base_url: &str) -> Result<String, Error> {
    let invalid = |reason: String| Error::InvalidArgument { name: "base_url", reason };
    let parsed = reqwest::Url::parse(base_url).map_err(|e| invalid(e.to_string()))?;
    if parsed.cannot_be_a_base() || !matches!(parsed.scheme(), "http" | "https") {
        return Err(invalid(format!("`{base_url}` is not an http(s) URL")));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(invalid("a base URL carries no query or fragment".to_string()));
    }
    Ok(parsed.as_str().trim_end_matches('/').to_string())
}

/// What a built client holds: the transport, the base URL, the credentials and the version header,
/// shared by its clones.
pub struct Connection<A: ApiClient> {
    /// The HTTP side, shared by the client's clones.
    pub transport: Arc<Transport>,
    base_url: Arc<str>,
    credentials: CredentialSource<A>,
    /// Empty for an API without a version header, which never sends it.
    version: HeaderValue,
}

impl<A: ApiClient> Clone for Connection<A> {
    fn clone(&self) -> Self {
        Connection {
            transport: self.transport.clone(),
            base_url: self.base_url.clone(),
            credentials: self.credentials.clone(),
            version: self.version.clone(),
        }
    }
}

impl<A: ApiClient> fmt::Debug for Connection<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connection").field("base_url", &self.base_url).finish_non_exhaustive()
    }
}

impl<A: ApiClient> Connection<A> {
    /// The base URL requests are sent to, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The most pages a paged walk reads, if limited (the client builder's `max_pages`).
    pub fn max_pages(&self) -> Option<u64> {
        self.transport.max_pages
    }

    /// The base URL followed by `path`, with room for parameters.
    pub fn url(&self, path: &str) -> String {
        let mut url = String::with_capacity(self.base_url.len() + path.len() + 64);
        url.push_str(&self.base_url);
        url.push_str(path);
        url
    }

    /// Checks the path of `url`, built from `template`, before anything is sent; see
    /// [`check_path`](crate::client::encoding::check_path).
    pub fn check_path(&self, url: &str, template: &'static str) -> Result<(), Error> {
        crate::client::encoding::check_path(url.get(self.base_url.len()..).unwrap_or(""), template)
    }

    /// The credential headers for one request: the fixed ones, or fresh ones from the provider.
    pub async fn credential_headers(&self, operation: &'static str) -> Result<Cow<'_, A::CredentialHeaders>, Error> {
        match &self.credentials {
            CredentialSource::Fixed(headers) => Ok(Cow::Borrowed(headers)),
            CredentialSource::Provider(provider) => {
                let credentials =
                    provider.credentials().await.map_err(|source| Error::Credentials { operation, source })?;
                A::credential_headers(&credentials).map(Cow::Owned)
            }
        }
    }

    /// Sends a request of `call`; see [`transport::send`].
    pub async fn send(
        &self,
        call: &Call,
        timeout: Option<Duration>,
        request: reqwest::RequestBuilder,
    ) -> Result<Received, Error> {
        transport::send(&self.transport, call, timeout, request).await
    }

    /// The value of the version header.
    pub fn version(&self) -> &HeaderValue {
        &self.version
    }

    /// Sends `value` in the version header from now on.
    pub fn set_version(&mut self, value: &str) -> Result<(), Error> {
        let Some((header, _)) = A::VERSION_HEADER else {
            return Err(Error::InvalidArgument {
                name: "version_header",
                reason: "this API has no version header".to_string(),
            });
        };
        self.version = header_value(header, value, false)?;
        Ok(())
    }
}

/// A credential sent as the cookie `name`: the header text `name=value`, sensitive. A value with a
/// character a cookie value cannot hold (RFC 6265's cookie-octet: no controls, spaces, `"`, `,`,
/// `;` or `\`) is refused, naming the cookie: `s; admin=true` would otherwise send a second
/// cookie of the caller's choosing. Encoding it instead would send a credential other than the
/// one given.
pub fn cookie_credential(name: &'static str, value: &str) -> Result<HeaderValue, Error> {
    let refused = value.bytes().find(|&b| !matches!(b, 0x21 | 0x23..=0x2b | 0x2d..=0x3a | 0x3c..=0x5b | 0x5d..=0x7e));
    if let Some(byte) = refused {
        let shown = if byte.is_ascii_graphic() || byte == b' ' {
            format!("`{}`", byte as char)
        } else {
            format!("byte 0x{byte:02x}")
        };
        return Err(Error::InvalidArgument {
            name,
            reason: format!("a cookie value cannot hold {shown}; this credential cannot be sent as a cookie"),
        });
    }
    let mut header = HeaderValue::from_str(&format!("{name}={value}"))
        .map_err(|_| Error::InvalidArgument { name, reason: "not a valid cookie".to_string() })?;
    header.set_sensitive(true);
    Ok(header)
}

/// A credential sent as the query parameter `name`: the pair `name=value`, the value
/// percent-encoded, held as a sensitive value so debug output never shows it. Appended to each
/// request's URL by [`with_query_credentials`](crate::client::encoding::with_query_credentials).
pub fn query_credential(name: &'static str, value: &str) -> Result<HeaderValue, Error> {
    let mut pair = String::with_capacity(name.len() + value.len() + 1);
    let mut query = crate::client::encoding::Query::new(&mut pair);
    query.push(name, value);
    let pair = pair.trim_start_matches('?');
    let mut header = HeaderValue::from_str(pair)
        .map_err(|_| Error::InvalidArgument { name, reason: "not a valid query value".to_string() })?;
    header.set_sensitive(true);
    Ok(header)
}

/// A header value from text, refused when it cannot be sent (line breaks, non-visible bytes);
/// `sensitive` keeps it out of debug output and HTTP/2 header compression tables.
pub fn header_value(name: &'static str, value: &str, sensitive: bool) -> Result<HeaderValue, Error> {
    let mut header = HeaderValue::from_str(value)
        .map_err(|_| Error::InvalidArgument { name, reason: "not a valid header value".to_string() })?;
    header.set_sensitive(sensitive);
    Ok(header)
}
