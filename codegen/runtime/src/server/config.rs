//! The settings of a generated router, and the state its handlers share.

use std::sync::Arc;
use std::time::Duration;

use crate::server::body::BodyLimit;
use crate::server::budget::BodyBudget;

/// Settings of the generated layer: what a request may hold and how long its body may take.
/// Connection-level limits are in [`ServeConfig`](crate::server::ServeConfig).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServerConfig {
    /// Largest request body accepted, in bytes (default 2 MiB); larger ones are answered 413.
    pub body_limit: usize,
    /// Most bytes of request bodies held in memory at once, across every request the router
    /// serves (default 64 MiB). A body reserves room for its declared length before it is read
    /// (one without a declared length reserves room for its next frame, up to 128 KiB more,
    /// before reading it, growing by doubling, and gives back what it did not use) and gives it
    /// back when the request's data is dropped; a file part keeps its share until the file is. A request
    /// that finds no room within [`ServerConfig::body_budget_wait`] is answered 503 with
    /// `Retry-After`, and the bodies already admitted are not affected. A body larger than the
    /// whole budget waits for all of it. Bodies of at most 8 KiB are not counted: they fit in the
    /// connection's own read buffer, which [`ServeConfig::max_connections`] already bounds.
    ///
    /// [`ServeConfig::max_connections`]: crate::server::ServeConfig::max_connections
    pub body_budget: usize,
    /// How long a request waits for room in the body budget before it is answered 503 (default
    /// 1 s).
    pub body_budget_wait: Duration,
    /// Time a request body may take to arrive in full (default 30 s); a slower one is answered
    /// 408.
    pub body_read_timeout: Duration,
    /// Longest request target (path and query) accepted, in bytes (default 8 KiB); longer ones
    /// are answered 414.
    pub max_uri_length: usize,
    /// Most bytes of request headers accepted, names and values together (default 32 KiB); more
    /// are answered 431.
    pub max_header_bytes: usize,
    /// Values of the API's version header the server serves; any other is answered 400. `None`
    /// (the default) accepts every value and leaves the decision to the implementation. An API
    /// without a version header ignores it.
    pub supported_versions: Option<Vec<String>>,
    /// The path the operations are served under, such as the path of the document's server URL
    /// (the generated crate's `BASE_PATH`, e.g. `/v1`): a request for `/v1/pets` reaches the
    /// operation at `/pets`, and a request outside it gets the document's 404 reply. Empty (the
    /// default) serves the operations at the paths the document gives them.
    pub base_path: String,
    /// Where the router serves the OpenAPI document it was generated from, to `GET` and `HEAD`
    /// (e.g. `/openapi.json`); `None` (the default) serves it nowhere. Only a server crate built
    /// with its feature `document` holds the document; without it the route is not served. An
    /// operation at the same path takes precedence.
    pub document_route: Option<String>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            body_limit: 2 * 1024 * 1024,
            body_budget: 64 * 1024 * 1024,
            body_budget_wait: Duration::from_secs(1),
            body_read_timeout: Duration::from_secs(30),
            max_uri_length: 8 * 1024,
            max_header_bytes: 32 * 1024,
            supported_versions: None,
            base_path: String::new(),
            document_route: None,
        }
    }
}

impl ServerConfig {
    /// Sets the largest request body accepted, in bytes.
    pub fn with_body_limit(mut self, bytes: usize) -> Self {
        self.body_limit = bytes;
        self
    }

    /// Sets the most bytes of request bodies held in memory at once.
    pub fn with_body_budget(mut self, bytes: usize) -> Self {
        self.body_budget = bytes;
        self
    }

    /// Sets how long a request waits for room in the body budget.
    pub fn with_body_budget_wait(mut self, wait: Duration) -> Self {
        self.body_budget_wait = wait;
        self
    }

    /// Sets the time a request body may take to arrive.
    pub fn with_body_read_timeout(mut self, timeout: Duration) -> Self {
        self.body_read_timeout = timeout;
        self
    }

    /// Sets the longest request target accepted, in bytes.
    pub fn with_max_uri_length(mut self, bytes: usize) -> Self {
        self.max_uri_length = bytes;
        self
    }

    /// Sets the most bytes of request headers accepted.
    pub fn with_max_header_bytes(mut self, bytes: usize) -> Self {
        self.max_header_bytes = bytes;
        self
    }

    /// Serves the operations under `path` (e.g. `/v1`; a trailing `/` is dropped, and an empty
    /// path or `/` serves them where the document puts them).
    pub fn with_base_path(mut self, path: impl Into<String>) -> Self {
        let path = path.into();
        let path = path.trim_end_matches('/');
        self.base_path = match path {
            "" => String::new(),
            path if path.starts_with('/') => path.to_string(),
            path => format!("/{path}"),
        };
        self
    }

    /// Serves the document the router was generated from at `path` (see
    /// [`ServerConfig::document_route`]).
    pub fn with_document_route(mut self, path: impl Into<String>) -> Self {
        self.document_route = Some(path.into());
        self
    }

    /// Serves only these values of the API's version header.
    pub fn with_supported_versions(mut self, versions: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.supported_versions = Some(versions.into_iter().map(Into::into).collect());
        self
    }
}

/// The implementation, the configuration and the body budget, shared by every handler of a
/// router.
#[doc(hidden)]
pub struct Shared<A> {
    pub api: Arc<A>,
    pub config: Arc<ServerConfig>,
    budget: BodyBudget,
}

impl<A> Shared<A> {
    /// The state of a router serving `api` with `config`.
    pub fn new(api: Arc<A>, config: ServerConfig) -> Self {
        let budget = BodyBudget::new(config.body_budget, config.body_budget_wait);
        Shared { api, config: Arc::new(config), budget }
    }

    /// The limits a request body is read under.
    pub fn body(&self) -> BodyLimit<'_> {
        BodyLimit { bytes: self.config.body_limit, timeout: self.config.body_read_timeout, budget: &self.budget }
    }
}

impl<A> Clone for Shared<A> {
    fn clone(&self) -> Self {
        Shared { api: self.api.clone(), config: self.config.clone(), budget: self.budget.clone() }
    }
}

/// The errors of requests no operation serves.
#[doc(hidden)]
pub mod unrouted {
    use axum::extract::Request;
    use axum::http::{Method, StatusCode, header};
    use axum::response::{IntoResponse, Response};

    use crate::server::{ApiError, ServerConfig};

    /// The document, when `request` asks for it where `config` serves it.
    pub fn document(
        config: &ServerConfig,
        request: &Request,
        text: &'static str,
        media_type: &'static str,
    ) -> Option<Response> {
        let route = config.document_route.as_deref()?;
        let asked = request.uri().path() == route && matches!(*request.method(), Method::GET | Method::HEAD);
        asked.then(|| ([(header::CONTENT_TYPE, media_type)], text).into_response())
    }

    /// 404 naming the path no operation is served at.
    pub fn not_found(request: &Request) -> ApiError {
        ApiError::not_found(format!("no operation is served at {}", request.uri().path()))
    }

    /// 405 naming the method and the path.
    pub fn method_not_allowed(request: &Request) -> ApiError {
        ApiError::new(StatusCode::METHOD_NOT_ALLOWED).with_detail(format!(
            "{} is not served at {}",
            request.method(),
            request.uri().path()
        ))
    }
}
