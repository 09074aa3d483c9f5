//! Turning an implementation's result into a reply.

use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::task::Poll;
use std::time::Instant;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::Response;
use serde::Serialize;
use tracing::Span;
use tracing::field::Empty;

use crate::server::{ApiError, ErrorReply, ErrorShape};

/// What a generated handler says about its operation, for the work every handler does alike.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    operation: &'static str,
    method: &'static str,
    path: &'static str,
    shapes: &'static [ErrorShape],
}

impl Route {
    /// The operation `operation` at `method path`, whose errors are written in `shapes`.
    pub const fn new(
        operation: &'static str,
        method: &'static str,
        path: &'static str,
        shapes: &'static [ErrorShape],
    ) -> Self {
        Route { operation, method, path, shapes }
    }
}

/// Serves one request of `route`: `work` reads and checks it and calls the implementation, inside
/// the request's span; its error, or a panic, becomes the reply `error_reply` writes.
pub async fn serve(
    route: &'static Route,
    request: axum::extract::Request,
    work: impl AsyncFnOnce(axum::http::request::Parts, Body) -> Result<Response, ApiError>,
    error_reply: impl FnOnce(ApiError, ErrorReply<'_>) -> Response,
) -> Response {
    use tracing::Instrument;
    let (parts, body) = request.into_parts();
    let (span, started) = self::span(route.operation, route.method, route.path, &parts.headers);
    let uri = parts.uri.clone();
    let result = guarded(route.operation, work(parts, body)).instrument(span.clone()).await;
    let response =
        result.unwrap_or_else(|error| error_reply(error, ErrorReply::new(route.operation, uri.path(), route.shapes)));
    finish(&span, started, response)
}

/// The span of one request (operation, method, path template, request id; status and duration
/// are recorded by [`finish`]) and the moment it started, when the span is recorded at all.
pub fn span(
    operation: &'static str,
    method: &'static str,
    path: &'static str,
    headers: &HeaderMap,
) -> (Span, Option<Instant>) {
    let span = tracing::info_span!(
        "request",
        operation,
        method,
        path,
        request_id = Empty,
        status = Empty,
        duration_ms = Empty
    );
    // The request id and the clock are read only for a span someone records.
    if span.is_disabled() {
        return (span, None);
    }
    if let Some(request_id) = headers.get(crate::server::extract::REQUEST_ID).and_then(|v| v.to_str().ok()) {
        span.record("request_id", request_id);
    }
    (span, Some(Instant::now()))
}

/// The reply of a request, recorded in its span.
pub fn finish(span: &Span, started: Option<Instant>, response: Response) -> Response {
    if let Some(started) = started {
        span.record("status", response.status().as_u16());
        span.record("duration_ms", started.elapsed().as_secs_f64() * 1e3);
    }
    response
}

/// Runs an implementation's future; a panic inside it becomes a 500 reply instead of a dropped
/// connection.
pub async fn guarded<T>(operation: &str, future: impl Future<Output = Result<T, ApiError>>) -> Result<T, ApiError> {
    // Each poll runs inside `catch_unwind`; a future that panicked is never polled again.
    let mut future = std::pin::pin!(future);
    std::future::poll_fn(|cx| match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
        Ok(poll) => poll,
        Err(_) => {
            Poll::Ready(Err(ApiError::internal(format!("the implementation of {operation} failed unexpectedly"))))
        }
    })
    .await
}

/// A JSON reply.
pub fn json<T: Serialize>(status: u16, value: &T) -> Result<Response, ApiError> {
    let bytes = serde_json::to_vec(value)
        .map_err(|e| ApiError::internal(format!("the reply could not be written as JSON: {e}")))?;
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status_code(status);
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(response)
}

/// A reply without a body.
pub fn empty(status: u16) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status_code(status);
    response
}

/// Sets a documented reply header; a value that cannot be a header value (a line break, say) is
/// the implementation's fault, so a 500.
pub fn header<T: fmt::Display>(response: &mut Response, name: &'static str, value: Option<&T>) -> Result<(), ApiError> {
    let Some(value) = value else { return Ok(()) };
    let value = HeaderValue::try_from(value.to_string())
        .map_err(|_| ApiError::internal(format!("the reply header `{name}` is not a valid header value")))?;
    response.headers_mut().insert(HeaderName::from_static(name), value);
    Ok(())
}

/// The status of an error reply; anything but a 4xx or 5xx is the implementation's fault, a 500.
pub fn error_status(status: u16) -> StatusCode {
    StatusCode::from_u16(status)
        .ok()
        .filter(|s| s.is_client_error() || s.is_server_error())
        .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// `status` as a status code; a number that is no status code is 200.
pub fn status_code(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::OK)
}
