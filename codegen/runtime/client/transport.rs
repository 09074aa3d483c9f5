//! Sending a request and reading its reply, shared by every operation: the rate limit, retries,
//! the tracing span and the mapping of every failure to [`Error`].

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{Method, Response};
use serde::de::DeserializeOwned;
use tracing::Instrument;
use tracing::field::Empty;

use crate::policy::{RateLimiter, RetryPolicy};
use crate::{Error, ProblemDetails, StatusError};

/// The HTTP side of a client, shared by its clones.
#[derive(Debug)]
pub(crate) struct Transport {
    pub(crate) http: reqwest::Client,
    /// Applied to calls that set no timeout of their own.
    pub(crate) timeout: Option<Duration>,
    pub(crate) retry: RetryPolicy,
    pub(crate) rate_limit: Option<RateLimiter>,
    /// Next `x-request-id`, when the client sends them.
    pub(crate) request_ids: Option<AtomicU64>,
}

/// What a generated method tells the transport about its call, for retries and the span.
pub(crate) struct Call {
    pub(crate) operation: &'static str,
    pub(crate) method: Method,
    pub(crate) path: &'static str,
    /// This call's own timeout, if it set one.
    pub(crate) timeout: Option<Duration>,
}

/// Sends a request, retrying as the policy allows; every failure becomes an [`Error`].
pub(crate) async fn send(transport: &Arc<Transport>, call: Call, request: reqwest::RequestBuilder) -> Result<Response, Error> {
    let operation = call.operation;
    let request = match call.timeout.or(transport.timeout) {
        Some(timeout) => request.timeout(timeout),
        None => request,
    };
    let mut request = request.build().map_err(|source| Error::Transport { operation, source })?;
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
        method = %call.method,
        path = call.path,
        request_id = request_id.as_deref(),
        status = Empty,
        attempts = Empty,
        duration_ms = Empty,
    );
    let started = Instant::now();
    let result = attempts(transport, &call, request).instrument(span.clone()).await;
    span.record("duration_ms", started.elapsed().as_secs_f64() * 1e3);
    match &result {
        Ok(response) => {
            span.record("status", response.status().as_u16());
        }
        Err(e) => span.in_scope(|| tracing::debug!(error = %e, "request failed")),
    }
    result
}

async fn attempts(transport: &Transport, call: &Call, mut request: reqwest::Request) -> Result<Response, Error> {
    let may_retry = transport.retry.max_retries > 0
        && (matches!(call.method, Method::GET | Method::HEAD | Method::OPTIONS) || transport.retry.retry_non_idempotent);
    let mut waited = Duration::ZERO;
    let mut attempt = 1;
    loop {
        if let Some(limit) = &transport.rate_limit {
            limit.acquire().await;
        }
        // Keep a copy only when a retry could need it (bodies here are bytes, so it always clones).
        let spare = if may_retry { request.try_clone() } else { None };
        let response = transport.http.execute(request).await.map_err(|source| Error::Transport { operation: call.operation, source })?;
        tracing::Span::current().record("attempts", attempt);
        let wait = spare.as_ref().and_then(|_| transport.retry.wait(&call.method, response.status(), response.headers(), attempt, waited));
        match (wait, spare) {
            (Some(wait), Some(next)) => {
                tracing::debug!(status = response.status().as_u16(), wait_ms = wait.as_millis() as u64, "retrying");
                drop(response);
                tokio::time::sleep(wait).await;
                waited += wait;
                attempt += 1;
                request = next;
            }
            _ => return Ok(response),
        }
    }
}

/// Reads a JSON reply with the documented success status.
#[allow(dead_code)] // Not every API has JSON replies.
pub(crate) async fn json<T: DeserializeOwned>(operation: &'static str, response: Response, success: u16) -> Result<T, Error> {
    let response = expect_status(operation, response, success).await?;
    let body = read_body(operation, response).await?;
    decode(operation, body)
}

/// Passes a reply with any of several success statuses through; turns any other into
/// [`Error::Status`].
#[allow(dead_code)] // Not every API has operations with several success statuses.
pub(crate) async fn any_of(operation: &'static str, response: Response, successes: &[u16]) -> Result<Response, Error> {
    let status = response.status().as_u16();
    let expected = if successes.contains(&status) { status } else { successes[0] };
    expect_status(operation, response, expected).await
}

/// Reads an optional reply header; a value that does not parse is an [`Error::Decode`] naming it.
#[allow(dead_code)] // Not every API documents reply headers.
pub(crate) fn header<T>(operation: &'static str, headers: &HeaderMap, name: &'static str) -> Result<Option<T>, Error>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    let Some(value) = headers.get(name) else { return Ok(None) };
    let text = value.to_str().map_err(|_| header_error(operation, name, "the value is not visible ASCII"))?;
    text.parse().map(Some).map_err(|e| header_error(operation, name, format!("{e}: `{text}`")))
}

/// Reads a reply header the operation documents as always present.
#[allow(dead_code)] // Not every API documents required reply headers.
pub(crate) fn required_header<T>(operation: &'static str, headers: &HeaderMap, name: &'static str) -> Result<T, Error>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    header(operation, headers, name)?.ok_or_else(|| header_error(operation, name, "the header is missing"))
}

/// A reply header that is not what the spec describes, as an [`Error::Decode`] at `header <name>`.
fn header_error(operation: &'static str, name: &str, reason: impl fmt::Display) -> Error {
    Error::Decode { operation, path: format!("header {name}"), body: Bytes::new(), source: serde::de::Error::custom(reason) }
}

/// Decodes a JSON body; a failure names the path of the value that did not fit.
#[allow(dead_code)] // Not every API has JSON replies.
pub(crate) fn decode<T: DeserializeOwned>(operation: &'static str, body: Bytes) -> Result<T, Error> {
    match serde_json::from_slice(&body) {
        Ok(value) => Ok(value),
        Err(source) => {
            // Decode again, tracking the path, only now that it is needed: the fast path stays fast.
            let mut de = serde_json::Deserializer::from_slice(&body);
            let path = match serde_path_to_error::deserialize::<_, T>(&mut de) {
                Err(e) => e.path().to_string(),
                Ok(_) => ".".to_string(),
            };
            Err(Error::Decode { operation, path, body, source })
        }
    }
}

/// Reads a reply without a body, discarding whatever body the server sent anyway.
#[allow(dead_code)] // Not every API has replies without a body.
pub(crate) async fn empty(operation: &'static str, response: Response, success: u16) -> Result<(), Error> {
    let response = expect_status(operation, response, success).await?;
    read_body(operation, response).await.map(drop)
}

/// Passes a reply with the documented success status through; turns any other into
/// [`Error::Status`], reading its body.
pub(crate) async fn expect_status(operation: &'static str, response: Response, success: u16) -> Result<Response, Error> {
    if response.status().as_u16() == success {
        return Ok(response);
    }
    let status = response.status();
    let headers = response.headers().clone();
    let body = read_body(operation, response).await?;
    let is_json = headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.split(';').next().unwrap_or("").trim().ends_with("json"));
    let problem = if is_json { ProblemDetails::from_body(&body) } else { None };
    Err(Error::Status(Box::new(StatusError { operation, status, headers, body, problem })))
}

pub(crate) async fn read_body(operation: &'static str, response: Response) -> Result<Bytes, Error> {
    response.bytes().await.map_err(|source| Error::Transport { operation, source })
}
