//! Error replies: [`ApiError`], written as RFC 9457 problem details (`application/problem+json`).

use std::collections::BTreeMap;
use std::fmt;

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Problem types this crate answers with; an implementor may use its own.
pub mod problem_types {
    /// A parameter, header or body failed validation; `errors` names each one.
    pub const INVALID_REQUEST: &str = "urn:problem-type:invalid-request";
    /// A credential header is missing or empty.
    pub const MISSING_CREDENTIALS: &str = "urn:problem-type:missing-credentials";
    /// The API version header names a version the server does not serve.
    pub const UNSUPPORTED_API_VERSION: &str = "urn:problem-type:unsupported-api-version";
    /// The request body has a content type the operation does not accept.
    pub const UNSUPPORTED_MEDIA_TYPE: &str = "urn:problem-type:unsupported-media-type";
    /// The request body is larger than the configured limit.
    pub const BODY_TOO_LARGE: &str = "urn:problem-type:body-too-large";
    /// The request body did not arrive within the configured time.
    pub const BODY_TIMEOUT: &str = "urn:problem-type:body-timeout";
    /// The request is not well-formed HTTP/1.1 (answered before any routing).
    pub const MALFORMED_REQUEST: &str = "urn:problem-type:malformed-request";
    /// The request's target or headers are longer than the server accepts.
    pub const REQUEST_TOO_LARGE: &str = "urn:problem-type:request-too-large";
    /// The server is at its connection limit, or holds as many request bodies as its budget
    /// allows; retry after the time `Retry-After` gives.
    pub const OVERLOADED: &str = "urn:problem-type:overloaded";
    /// The implementation failed (returned an internal error or panicked).
    pub const INTERNAL: &str = "urn:problem-type:internal-error";
}

/// What an operation of a generated server answers: its reply, or the error reply it chose.
pub type ApiResult<T> = Result<T, ApiError>;

/// An error reply chosen by an implementation (or by the generated validation): a status and the
/// problem details that explain it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    status: StatusCode,
    // Boxed strings keep the error small enough to return by value everywhere.
    problem_type: Box<str>,
    title: Box<str>,
    detail: Option<String>,
    errors: BTreeMap<String, Vec<String>>,
    retry_after: Option<u64>,
    /// A documented JSON error body, sent in place of the problem details.
    body: Option<Box<[u8]>>,
}

impl ApiError {
    /// An error with `status`, titled with the status's reason phrase.
    pub fn new(status: StatusCode) -> Self {
        ApiError {
            status,
            problem_type: "about:blank".into(),
            title: status.canonical_reason().unwrap_or("Error").into(),
            detail: None,
            errors: BTreeMap::new(),
            retry_after: None,
            body: None,
        }
    }

    /// An error with `status` whose reply is `body` as `application/json` rather than problem
    /// details, for error bodies the spec documents; a body that cannot be written is a 500.
    pub fn json<T: Serialize>(status: StatusCode, body: &T) -> Self {
        match serde_json::to_vec(body) {
            Ok(bytes) => ApiError { body: Some(bytes.into()), ..Self::new(status) },
            Err(e) => Self::internal(format!("the error body could not be written as JSON: {e}")),
        }
    }

    /// 400: the request is malformed; `detail` says how.
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST).with_detail(detail)
    }

    /// 400 for an API version the implementation does not serve.
    pub fn unsupported_api_version(version: &str) -> Self {
        Self::new(StatusCode::BAD_REQUEST)
            .with_type(problem_types::UNSUPPORTED_API_VERSION)
            .with_title("Unsupported API version")
            .with_detail(format!("API version `{version}` is not supported"))
    }

    /// 401: credentials are missing or were not accepted.
    pub fn unauthorized(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED).with_detail(detail)
    }

    /// 403: the credentials do not grant access.
    pub fn forbidden(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN).with_detail(detail)
    }

    /// 404: an identifier names nothing the caller can see.
    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND).with_detail(detail)
    }

    /// 429 with a `Retry-After` of `retry_after_seconds`.
    pub fn too_many_requests(retry_after_seconds: u64) -> Self {
        let mut e = Self::new(StatusCode::TOO_MANY_REQUESTS)
            .with_detail(format!("rate limit exceeded; retry after {retry_after_seconds} s"));
        e.retry_after = Some(retry_after_seconds);
        e
    }

    /// 500: the implementation failed. The detail is shown to the caller, so keep secrets out.
    pub fn internal(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR).with_type(problem_types::INTERNAL).with_detail(detail)
    }

    /// 501: the operation is not implemented.
    pub fn not_implemented(operation: &str) -> Self {
        Self::new(StatusCode::NOT_IMPLEMENTED).with_detail(format!("operation {operation} is not implemented"))
    }

    /// Asks the caller to wait `seconds` before trying again, in a `Retry-After` header (for a
    /// 429 or a 503).
    pub fn with_retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// Replaces the problem type (a URI reference; `about:blank` by default).
    pub fn with_type(mut self, problem_type: impl Into<String>) -> Self {
        self.problem_type = problem_type.into().into_boxed_str();
        self
    }

    /// Replaces the title (the status's reason phrase by default).
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = title.into().into_boxed_str();
        self
    }

    /// Sets the detail: what went wrong with this request.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// Adds a validation message for a parameter, header or body path.
    pub fn with_error(mut self, name: impl Into<String>, message: impl Into<String>) -> Self {
        self.errors.entry(name.into()).or_default().push(message.into());
        self
    }

    /// The status of the reply.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The problem type.
    pub fn problem_type(&self) -> &str {
        &self.problem_type
    }

    /// The title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The seconds `Retry-After` asks the caller to wait, when set.
    pub fn retry_after(&self) -> Option<u64> {
        self.retry_after
    }

    /// Whether the implementation chose the body itself ([`ApiError::json`]).
    pub fn has_body(&self) -> bool {
        self.body.is_some()
    }

    /// The detail, when set.
    pub fn detail(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    /// Validation messages by parameter, header or body path.
    pub fn errors(&self) -> &BTreeMap<String, Vec<String>> {
        &self.errors
    }

    /// The reply, with `instance` set to the request path.
    pub fn into_response_for(self, instance: &str) -> Response {
        self.into_problem_response(instance, "application/problem+json")
    }

    /// The reply as problem details labelled `content_type` (`application/json` where a document
    /// offers no other), unless the implementation chose the body.
    pub(crate) fn into_problem_response(mut self, instance: &str, content_type: &'static str) -> Response {
        if let Some(bytes) = self.body.take() {
            return self.reply(bytes.into_vec(), "application/json");
        }
        #[derive(Serialize)]
        struct Problem<'a> {
            r#type: &'a str,
            title: &'a str,
            status: u16,
            #[serde(skip_serializing_if = "Option::is_none")]
            detail: Option<&'a str>,
            #[serde(skip_serializing_if = "str::is_empty")]
            instance: &'a str,
            #[serde(skip_serializing_if = "BTreeMap::is_empty")]
            errors: &'a BTreeMap<String, Vec<String>>,
        }
        let body = Problem {
            r#type: &self.problem_type,
            title: &self.title,
            status: self.status.as_u16(),
            detail: self.detail.as_deref(),
            instance,
            errors: &self.errors,
        };
        let bytes = serde_json::to_vec(&body).unwrap_or_else(|_| b"{}".to_vec());
        self.reply(bytes, content_type)
    }

    /// The problem as text: the detail (or the title), then `name: message` a line each.
    pub(crate) fn into_text_response(mut self, content_type: &'static str) -> Response {
        if let Some(bytes) = self.body.take() {
            return self.reply(bytes.into_vec(), "application/json");
        }
        let mut text = self.detail.clone().unwrap_or_else(|| self.title.to_string());
        for (name, messages) in &self.errors {
            for message in messages {
                text.push_str(&format!("\n{name}: {message}"));
            }
        }
        self.reply(text.into_bytes(), content_type)
    }

    fn reply(&self, bytes: Vec<u8>, content_type: &'static str) -> Response {
        let mut response = Response::new(Body::from(bytes));
        *response.status_mut() = self.status;
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        if let Some(seconds) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.title)?;
        if let Some(detail) = &self.detail {
            write!(f, ": {detail}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    /// The reply without `instance` information; the generated router uses the request path.
    fn into_response(self) -> Response {
        self.into_response_for("")
    }
}
