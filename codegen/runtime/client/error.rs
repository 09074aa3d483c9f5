//! The one error type of the client.

use std::collections::BTreeMap;
use std::fmt;

use bytes::Bytes;
use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde::Deserialize;

/// Everything that can go wrong with a call. Nothing in the client panics on a server's reply.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An argument could not be put on the wire (for example a header value with a line break);
    /// nothing was sent.
    #[error("invalid argument `{name}`: {reason}")]
    InvalidArgument {
        /// The parameter or setting at fault.
        name: &'static str,
        /// Why it was refused.
        reason: String,
    },
    /// The request did not complete: connection refused or reset, timeout, TLS failure, or the
    /// reply body broke off.
    #[error("{operation}: request failed: {source}")]
    Transport {
        /// The operationId of the call.
        operation: &'static str,
        /// What reqwest reported.
        #[source]
        source: reqwest::Error,
    },
    /// The server answered with a status the operation does not document as success.
    #[error("{operation}: {0}", operation = .0.operation)]
    Status(Box<StatusError>),
    /// The credentials provider failed; nothing was sent.
    #[error("{operation}: the credentials provider failed: {source}")]
    Credentials {
        /// The operationId of the call.
        operation: &'static str,
        /// What the provider reported.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The server answered with the success status, but the body or a documented header is not
    /// what the spec describes.
    #[error("{operation}: cannot decode the reply at `{path}`: {source}")]
    Decode {
        /// The operationId of the call.
        operation: &'static str,
        /// Where in the body decoding failed, e.g. `Data[3].Amount` (`.` for the whole body), or
        /// `header <name>` for a reply header.
        path: String,
        /// The raw body (empty for a reply header).
        body: Bytes,
        /// What serde reported.
        #[source]
        source: serde_json::Error,
    },
}

impl Error {
    /// The HTTP status when the server answered with an error status.
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            Error::Status(e) => Some(e.status),
            _ => None,
        }
    }

    /// The problem details when the server answered with an error status and a problem+json body.
    pub fn problem(&self) -> Option<&ProblemDetails> {
        match self {
            Error::Status(e) => e.problem.as_ref(),
            _ => None,
        }
    }
}

/// A reply whose status is not the operation's documented success.
#[derive(Debug)]
pub struct StatusError {
    /// The operationId of the call.
    pub operation: &'static str,
    /// The status the server answered with.
    pub status: StatusCode,
    /// The reply headers (for example `Retry-After` on 429).
    pub headers: HeaderMap,
    /// The raw reply body.
    pub body: Bytes,
    /// The body read as RFC 9457 problem details, when it is one.
    pub problem: Option<ProblemDetails>,
}

impl fmt::Display for StatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the server answered {}", self.status)?;
        if let Some(p) = &self.problem {
            if let Some(title) = &p.title {
                write!(f, ": {title}")?;
            }
            if let Some(detail) = &p.detail {
                write!(f, " ({detail})")?;
            }
        }
        Ok(())
    }
}

/// RFC 9457 problem details, as error replies carry them.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct ProblemDetails {
    /// URI reference naming the kind of problem.
    #[serde(rename = "type")]
    pub r#type: Option<String>,
    /// Short summary of the kind of problem.
    pub title: Option<String>,
    /// The HTTP status, as the server wrote it in the body.
    pub status: Option<u16>,
    /// Explanation of this occurrence.
    pub detail: Option<String>,
    /// URI reference of this occurrence.
    pub instance: Option<String>,
    /// Validation failures by parameter or body path, when the server lists them.
    #[serde(default)]
    pub errors: BTreeMap<String, Vec<String>>,
    /// Any other members of the problem object.
    #[serde(flatten)]
    pub extensions: BTreeMap<String, serde_json::Value>,
}

impl ProblemDetails {
    /// Reads a body as problem details; `None` when it is not a JSON object of that shape.
    pub(crate) fn from_body(body: &[u8]) -> Option<ProblemDetails> {
        serde_json::from_slice(body).ok()
    }
}
