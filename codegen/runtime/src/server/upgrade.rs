//! Operations that switch protocols (`101 Switching Protocols`): the implementation says which
//! protocol it switches to and what to do with the connection, and gets the connection once the
//! reply has left.

use std::fmt;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::OwnedSemaphorePermit;

use crate::server::ApiError;
use crate::server::api_error::problem_types;

/// What to do with the connection once it has switched.
type Handler = Box<dyn FnOnce(Upgraded) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// The reply to an operation that switches protocols: the protocol, and the code that takes the
/// connection over.
pub struct Switch {
    protocol: String,
    handler: Handler,
}

impl fmt::Debug for Switch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Switch").field("protocol", &self.protocol).finish_non_exhaustive()
    }
}

impl Switch {
    /// Switches to `protocol` (named in the reply's `Upgrade` header, usually the one the
    /// request asked for) and hands the connection to `handler`, in a task of its own, once the
    /// `101` reply has been written.
    pub fn new<F, Fut>(protocol: impl Into<String>, handler: F) -> Self
    where
        F: FnOnce(Upgraded) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        Switch { protocol: protocol.into(), handler: Box::new(move |io| Box::pin(handler(io))) }
    }
}

/// A connection that has switched protocols: the raw bytes both ways, whatever the peer had
/// already sent after its request first. While it is open it keeps its place among the server's
/// connections (`ServeConfig::max_connections`); it has no deadlines but the handler's own, and a
/// shutdown of `serve_with` gives it the grace period, as a request in flight gets, then ends it.
pub struct Upgraded {
    io: TokioIo<hyper::upgrade::Upgraded>,
    _slot: Option<Arc<OwnedSemaphorePermit>>,
}

impl fmt::Debug for Upgraded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Upgraded").finish_non_exhaustive()
    }
}

impl AsyncRead for Upgraded {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Upgraded {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// A connection's place under `max_connections`, lent to a request that may switch protocols so
/// the switched connection keeps it, and the server's way to run the switched connection among
/// its own, so a shutdown waits for it as it waits for requests and then ends it.
#[derive(Clone)]
pub(crate) struct Slot {
    pub(crate) permit: Arc<OwnedSemaphorePermit>,
    pub(crate) tasks: Tasks,
}

/// A task a switched connection runs in.
pub(crate) type Task = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Where `serve_with` takes the tasks of switched connections to run beside its connections.
pub(crate) type Tasks = tokio::sync::mpsc::UnboundedSender<Task>;

/// The `101` reply to a request, and the task that hands the switched connection to the
/// implementation. A request whose connection cannot switch (one of HTTP/2, say; an HTTP/1.1
/// request with `Upgrade` can) is answered 400.
pub fn reply(parts: &mut Parts, switch: Switch) -> Result<Response, ApiError> {
    let Some(on_upgrade) = parts.extensions.remove::<hyper::upgrade::OnUpgrade>() else {
        return Err(ApiError::bad_request(
            "this connection cannot switch protocols: send the request over HTTP/1.1 with `Connection: upgrade` and `Upgrade`",
        )
        .with_type(problem_types::INVALID_REQUEST));
    };
    let protocol = HeaderValue::from_str(&switch.protocol)
        .map_err(|_| ApiError::internal(format!("`{}` cannot be sent in `Upgrade`", switch.protocol)))?;
    let slot = parts.extensions.remove::<Slot>();
    let (permit, tasks) = slot.map(|slot| (slot.permit, slot.tasks)).unzip();
    let handler = switch.handler;
    let task: Task = Box::pin(async move {
        match on_upgrade.await {
            Ok(upgraded) => handler(Upgraded { io: TokioIo::new(upgraded), _slot: permit }).await,
            Err(e) => tracing::debug!(error = %e, "a connection did not complete its protocol switch"),
        }
    });
    // Served by `serve_with`, the task is one of its connections; a server that stopped takes
    // none, and the switch is not made. Served otherwise, it runs on its own.
    match tasks {
        Some(tasks) => {
            let _ = tasks.send(task);
        }
        None => {
            tokio::spawn(task);
        }
    }
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    response.headers_mut().insert(header::UPGRADE, protocol);
    Ok(response)
}
