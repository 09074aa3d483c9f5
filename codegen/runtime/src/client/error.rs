//! The one error type of the client.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde::Deserialize;

/// Everything that can go wrong with a call. Nothing in the client panics on a server's reply.
///
/// `Debug` shows at most the first 256 bytes of a reply body, so logging an error never floods a
/// log with a large reply. Each message already says its cause (and a status error its field
/// errors), so [`std::error::Error::source`] is `None` and a printed chain never repeats itself;
/// the cause itself stays in the variant's `source` field.
#[non_exhaustive]
pub enum Error {
    /// An argument could not be put on the wire (for example a header value with a line break);
    /// nothing was sent.
    InvalidArgument {
        /// The parameter or setting at fault.
        name: &'static str,
        /// Why it was refused.
        reason: String,
    },
    /// The request did not complete: connection refused or reset, TLS failure, a redirect the
    /// client would not follow, or the reply body broke off.
    Transport {
        /// The operationId of the call.
        operation: &'static str,
        /// What reqwest reported.
        source: reqwest::Error,
    },
    /// The call ran out of time and was abandoned.
    Timeout {
        /// The operationId of the call.
        operation: &'static str,
        /// How long the call had run when it was abandoned.
        elapsed: Duration,
        /// Which limit it ran into.
        kind: TimeoutKind,
    },
    /// The reply body is larger than the client accepts (the client builder's `max_reply_size`,
    /// or `max_stream_size` for a download or item stream); the rest of it was not read.
    BodyTooLarge {
        /// The operationId of the call.
        operation: &'static str,
        /// The limit in force, in bytes.
        limit: u64,
    },
    /// The server answered with a status the operation does not document as success.
    Status(Box<StatusError>),
    /// The credentials provider failed; nothing was sent.
    Credentials {
        /// The operationId of the call.
        operation: &'static str,
        /// What the provider reported.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A request hook ([`Hooks::on_request`](crate::client::Hooks::on_request)) refused the
    /// request; it was not sent.
    Hook {
        /// The operationId of the call.
        operation: &'static str,
        /// What the hook reported.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The operation accepts several sets of credentials and none of them is set in the
    /// client's credentials; nothing was sent.
    MissingCredentials {
        /// The operationId of the call.
        operation: &'static str,
        /// The sets it accepts, as the document lists them.
        accepted: &'static str,
    },
    /// The server answered with the success status, but the body or a documented header is not
    /// what the spec describes.
    Decode {
        /// The operationId of the call.
        operation: &'static str,
        /// Where in the body decoding failed, e.g. `Data[3].Amount` (`.` for the whole body), or
        /// `header <name>` for a reply header.
        path: String,
        /// The raw body (empty for a reply header).
        body: Bytes,
        /// What serde reported.
        source: serde_json::Error,
    },
    /// A paged operation's walk (`into_stream()`) ended before the last page: a reply named a
    /// page already read as the next one, or the walk reached the client builder's `max_pages`.
    /// The items of the pages read came before it.
    Paging {
        /// The operationId of the call.
        operation: &'static str,
        /// Why the walk ended.
        reason: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidArgument { name, reason } => write!(f, "invalid argument `{name}`: {reason}"),
            Error::Transport { operation, source } => write!(f, "{operation}: request failed: {}", RootCause(source)),
            Error::Timeout { operation, elapsed, kind } => {
                write!(f, "{operation}: timed out after {elapsed:.1?}: {kind}")
            }
            Error::BodyTooLarge { operation, limit } => {
                write!(f, "{operation}: the reply body exceeds the limit of {limit} bytes")
            }
            Error::Status(status) => write!(f, "{}: {status}", status.operation),
            Error::Credentials { operation, source } => {
                write!(f, "{operation}: the credentials provider failed: {source}")
            }
            Error::Hook { operation, source } => write!(f, "{operation}: a request hook refused the request: {source}"),
            Error::MissingCredentials { operation, accepted } => {
                write!(f, "{operation}: none of the credentials it accepts is set; it accepts {accepted}")
            }
            Error::Decode { operation, path, source, .. } => {
                write!(f, "{operation}: cannot decode the reply at `{path}`: {source}")
            }
            Error::Paging { operation, reason } => write!(f, "{operation}: the walk of its pages ended: {reason}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<crate::DateTimeError> for Error {
    /// Text that is not a date-time, from [`DateTime::parse`](crate::DateTime::parse), as an
    /// invalid argument, so `?` works in a function returning this crate's `Error`.
    fn from(error: crate::DateTimeError) -> Self {
        Error::InvalidArgument { name: "date-time", reason: error.to_string() }
    }
}

/// The limit a call ran into, in an [`Error::Timeout`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TimeoutKind {
    /// The call's deadline (the client builder's `timeout`, or the call's own `.timeout(..)`),
    /// which covers connecting, every attempt, the waits between retries and reading the reply.
    Call(Duration),
    /// No connection could be made within the connect timeout.
    Connect,
    /// The server sent nothing for longer than the HTTP client's read timeout (or, with a
    /// `reqwest::Client` of your own, its overall timeout ran out).
    Read,
    /// A download sent no chunk, or an item stream no whole item, for this long (the client
    /// builder's `stream_idle_timeout`).
    StreamIdle(Duration),
    /// A download or item stream ran past this time since its head arrived (the client builder's
    /// `stream_timeout`).
    StreamTotal(Duration),
    /// A download's body arrived more slowly than this many bytes a second, averaged over
    /// [`DOWNLOAD_RATE_WINDOW`](crate::client::DOWNLOAD_RATE_WINDOW) (the client builder's
    /// `min_download_rate`).
    DownloadRate(u64),
}

impl fmt::Display for TimeoutKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeoutKind::Call(limit) => write!(f, "the call's timeout is {limit:?}"),
            TimeoutKind::Connect => f.write_str("no connection within the connect timeout"),
            TimeoutKind::Read => f.write_str("no data from the server within the HTTP client's timeout"),
            TimeoutKind::StreamIdle(limit) => write!(f, "nothing new in the stream for {limit:?}"),
            TimeoutKind::StreamTotal(limit) => write!(f, "the stream ran past its time of {limit:?}"),
            TimeoutKind::DownloadRate(rate) => write!(f, "the download came more slowly than {rate} bytes a second"),
        }
    }
}

impl Error {
    /// Whether the call ran out of time.
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Timeout { .. })
    }

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

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidArgument { name, reason } => {
                f.debug_struct("InvalidArgument").field("name", name).field("reason", reason).finish()
            }
            Error::Transport { operation, source } => {
                f.debug_struct("Transport").field("operation", operation).field("source", source).finish()
            }
            Error::Timeout { operation, elapsed, kind } => f
                .debug_struct("Timeout")
                .field("operation", operation)
                .field("elapsed", elapsed)
                .field("kind", kind)
                .finish(),
            Error::BodyTooLarge { operation, limit } => {
                f.debug_struct("BodyTooLarge").field("operation", operation).field("limit", limit).finish()
            }
            Error::Status(status) => f.debug_tuple("Status").field(status).finish(),
            Error::Credentials { operation, source } => {
                f.debug_struct("Credentials").field("operation", operation).field("source", source).finish()
            }
            Error::Hook { operation, source } => {
                f.debug_struct("Hook").field("operation", operation).field("source", source).finish()
            }
            Error::MissingCredentials { operation, accepted } => {
                f.debug_struct("MissingCredentials").field("operation", operation).field("accepted", accepted).finish()
            }
            Error::Decode { operation, path, body, source } => f
                .debug_struct("Decode")
                .field("operation", operation)
                .field("path", path)
                .field("body", &Excerpt(body))
                .field("source", source)
                .finish(),
            Error::Paging { operation, reason } => {
                f.debug_struct("Paging").field("operation", operation).field("reason", reason).finish()
            }
        }
    }
}

/// An error followed by its innermost cause, when that adds something ("error sending request:
/// connection refused"), so the reason is in the message rather than levels down its chain.
struct RootCause<'a>(&'a reqwest::Error);

impl fmt::Display for RootCause<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut root: &dyn std::error::Error = self.0;
        while let Some(next) = root.source() {
            root = next;
        }
        if !std::ptr::addr_eq(root, self.0 as &dyn std::error::Error) {
            write!(f, ": {root}")?;
        }
        Ok(())
    }
}

/// The start of a body, for `Debug` output: a few hundred bytes and the full length.
struct Excerpt<'a>(&'a [u8]);

impl fmt::Debug for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 256;
        let shown = &self.0[..self.0.len().min(SHOWN)];
        write!(f, "{:?}", String::from_utf8_lossy(shown))?;
        if self.0.len() > SHOWN {
            write!(f, "... ({} bytes in all)", self.0.len())?;
        }
        Ok(())
    }
}

/// A reply whose status is not the operation's documented success.
pub struct StatusError {
    /// The operationId of the call.
    pub operation: &'static str,
    /// The status the server answered with.
    pub status: StatusCode,
    /// The reply headers (for example `Retry-After` on 429).
    pub headers: HeaderMap,
    /// The raw reply body, or its first `max_error_body` bytes (a client builder setting) when it
    /// was longer (see `truncated`).
    pub body: Bytes,
    /// Whether `body` holds only the start of a longer reply body.
    pub truncated: bool,
    /// The body read as RFC 9457 problem details, when it is one.
    pub problem: Option<ProblemDetails>,
}

impl fmt::Debug for StatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StatusError")
            .field("operation", &self.operation)
            .field("status", &self.status)
            .field("headers", &self.headers)
            .field("body", &Excerpt(&self.body))
            .field("truncated", &self.truncated)
            .field("problem", &self.problem)
            .finish()
    }
}

impl fmt::Display for StatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // At most this many field errors, each cut to this many characters, so a message stays
        // a line however much the server sent.
        const FIELDS: usize = 5;
        const CHARS: usize = 200;
        write!(f, "the server answered {}", self.status)?;
        let Some(p) = &self.problem else { return self.text(f, CHARS) };
        if let Some(title) = &p.title {
            write!(f, ": {}", OneLine(title, CHARS))?;
        }
        if let Some(detail) = &p.detail {
            write!(f, " ({})", OneLine(detail, CHARS))?;
        }
        // A document's own error shape (`{code, message}`) has neither: its message says why.
        if p.title.is_none()
            && p.detail.is_none()
            && let Some(message) = p.message()
        {
            write!(f, ": {}", OneLine(message, CHARS))?;
        }
        let errors = p.errors.iter().flat_map(|(name, messages)| messages.iter().map(move |m| (name, m)));
        for (i, (name, message)) in errors.clone().take(FIELDS).enumerate() {
            let name = OneLine(name, CHARS);
            write!(f, "{}{name}: {}", if i == 0 { ": " } else { "; " }, OneLine(message, CHARS))?;
        }
        let rest = errors.count().saturating_sub(FIELDS);
        if rest > 0 {
            write!(f, "; and {rest} more")?;
        }
        Ok(())
    }
}

impl StatusError {
    /// A `text/plain` body, as the message it is: its first `chars` characters, lines joined by
    /// `; ` and other control characters left out, so a message stays one line.
    fn text(&self, f: &mut fmt::Formatter<'_>, chars: usize) -> fmt::Result {
        let content_type = self.headers.get(reqwest::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
        let plain = content_type.split(';').next().is_some_and(|e| e.trim().eq_ignore_ascii_case("text/plain"));
        let Some(text) = std::str::from_utf8(&self.body).ok().filter(|t| plain && !t.trim().is_empty()) else {
            return Ok(());
        };
        let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let joined = lines.join("; ");
        // A body cut short by the limit ends in `...` unless the message is cut anyway.
        let cut = joined.chars().filter(|c| !c.is_control()).nth(chars).is_some();
        let more = if self.truncated && !cut { "..." } else { "" };
        write!(f, ": {}{more}", OneLine(&joined, chars))
    }
}

/// Text a server sent, as part of a one-line message: control characters (line breaks among
/// them) left out, and cut after `.1` characters with `...`.
struct OneLine<'a>(&'a str, usize);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = self.0.chars().filter(|c| !c.is_control());
        for c in shown.by_ref().take(self.1) {
            write!(f, "{c}")?;
        }
        if shown.next().is_some() {
            f.write_str("...")?;
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
    pub fn from_body(body: &[u8]) -> Option<ProblemDetails> {
        serde_json::from_slice(body).ok()
    }

    /// The message of an error body in a shape of its own: the first text member named
    /// `message`, `error_description`, `error`, `msg` or `description`.
    pub fn message(&self) -> Option<&str> {
        const NAMES: [&str; 5] = ["message", "error_description", "error", "msg", "description"];
        NAMES.iter().find_map(|name| self.extensions.get(*name).and_then(serde_json::Value::as_str))
    }
}
