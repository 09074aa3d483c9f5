//! Serving the router over HTTP/1.1, bounded against slow, idle and abundant peers: a cap on open
//! connections, deadlines on request heads and on connections where nothing moves, and a shutdown
//! that finishes the requests in flight within a grace period.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::routing::future::RouteFuture;
use futures_util::task::AtomicWaker;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream, ToSocketAddrs};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tower_service::Service;

use crate::server::api_error::{ApiError, problem_types};
use crate::server::error_reply::{ErrorReply, ErrorShape};
use crate::server::upgrade::{Slot, Task, Tasks};

/// How [`serve_with`] treats connections. The defaults suit a service on the public internet;
/// each can be changed with its `with_` method.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServeConfig {
    /// Open connections at most (default 4096). At the limit the server first closes connections
    /// that are idle: no request is being read, handled or answered on them, and every reply has
    /// left the server. A connection in the middle of a request or a reply, a long download or a
    /// live event stream among them, is never closed to make room. A new connection that still
    /// finds no room is answered 503 and closed, and the server logs a warning (at most one a
    /// second, with a count).
    pub max_connections: usize,
    /// Time from the first byte of a request head to its end (default 10 s); a peer that sends
    /// its head more slowly is disconnected.
    pub request_head_timeout: Duration,
    /// Time a connection may stay open with nothing moving either way while no request is being
    /// handled (default 60 s): idle keep-alive connections, new connections that send nothing,
    /// and replies the peer stops reading are closed after it.
    pub idle_timeout: Duration,
    /// How long a shutdown waits for the requests in flight (default 10 s) before it closes every
    /// connection.
    pub grace_period: Duration,
    /// Length of the queue of connections the kernel holds before they are accepted (default
    /// 4096; the kernel may cap it, on Linux at `net.core.somaxconn`). Used by [`bind`].
    pub backlog: u32,
    /// How long a connection the server closes keeps reading, and throwing away, what the peer
    /// still sends (default 5 s, and at most [`LINGER_BYTES`]): a reply given before the request
    /// was read in full (413 for a body past its limit) then reaches a peer still sending,
    /// instead of a reset that would lose it. `Duration::ZERO` closes at once.
    pub linger: Duration,
    /// The document's error bodies for requests no operation serves, in which a request too
    /// large or malformed to reach the router is answered (problem details where it gives none).
    unrouted: &'static [ErrorShape],
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            max_connections: 4096,
            request_head_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            grace_period: Duration::from_secs(10),
            backlog: 4096,
            linger: Duration::from_secs(5),
            unrouted: &[],
        }
    }
}

impl ServeConfig {
    /// Sets [`ServeConfig::max_connections`].
    pub fn with_max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections;
        self
    }

    /// Sets [`ServeConfig::request_head_timeout`].
    pub fn with_request_head_timeout(mut self, timeout: Duration) -> Self {
        self.request_head_timeout = timeout;
        self
    }

    /// Sets [`ServeConfig::idle_timeout`].
    pub fn with_idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// Sets [`ServeConfig::grace_period`].
    pub fn with_grace_period(mut self, grace: Duration) -> Self {
        self.grace_period = grace;
        self
    }

    /// Sets [`ServeConfig::backlog`].
    pub fn with_backlog(mut self, backlog: u32) -> Self {
        self.backlog = backlog;
        self
    }

    /// Sets [`ServeConfig::linger`].
    pub fn with_linger(mut self, linger: Duration) -> Self {
        self.linger = linger;
        self
    }

    /// The document's error bodies for requests no operation serves (set by the generated
    /// crate's `serve_with`).
    #[doc(hidden)]
    pub fn with_unrouted(mut self, shapes: &'static [ErrorShape]) -> Self {
        self.unrouted = shapes;
        self
    }
}

/// A listener on `addr` with the configured backlog (`TcpListener::bind` uses 128, which makes
/// connections wait for a SYN retry, about a second, once more than 128 arrive at once).
pub async fn bind(addr: impl ToSocketAddrs, config: &ServeConfig) -> io::Result<TcpListener> {
    let mut last = None;
    for addr in tokio::net::lookup_host(addr).await? {
        match listen(addr, config.backlog) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the address resolved to nothing")))
}

fn listen(addr: SocketAddr, backlog: u32) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(backlog)
}

/// Serves `router` on an ephemeral port of 127.0.0.1, in a task that runs as long as the tokio
/// runtime does, and returns its base URL, such as `http://127.0.0.1:49152`. For mocks in tests.
pub async fn serve_on_loopback(router: Router, unrouted: &'static [ErrorShape]) -> io::Result<String> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let base_url = format!("http://{}", listener.local_addr()?);
    let config = ServeConfig::default().with_unrouted(unrouted);
    tokio::spawn(serve_with(listener, router, std::future::pending(), config));
    Ok(base_url)
}

/// Serves `router` on `listener` with the default [`ServeConfig`] until `shutdown` completes; see
/// [`serve_with`].
pub async fn serve(
    listener: TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    serve_with(listener, router, shutdown, ServeConfig::default()).await
}

/// Serves `router` on `listener` until `shutdown` completes, then stops accepting, lets the
/// requests in flight finish for up to [`ServeConfig::grace_period`], closes whatever is left and
/// returns. A `SIGINT` or `SIGTERM` during that wait ends it at once.
pub async fn serve_with(
    listener: TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    config: ServeConfig,
) -> io::Result<()> {
    let shared = Arc::new(Shared::default());
    // More connections than a semaphore counts could never be open at once anyway.
    let permits = Arc::new(Semaphore::new(config.max_connections.clamp(1, Semaphore::MAX_PERMITS)));
    let config = Arc::new(config);
    let mut connections = JoinSet::new();
    // Connections that switch protocols hand their tasks here, to be served among the others.
    let (tasks, mut switched) = tokio::sync::mpsc::unbounded_channel::<Task>();
    let mut shed = Shed::default();
    let mut next_id = 0u64;
    let mut shutdown = pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            Some(task) = switched.recv() => {
                connections.spawn(task);
            }
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    Err(e) if is_per_connection(&e) => continue,
                    Err(e) => {
                        // Out of file descriptors, most likely: free some, then try again.
                        tracing::warn!(error = %e, open = connections.len(), "cannot accept connections; closing idle ones");
                        shared.press();
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                };
                let Some(permit) = admit(&permits, &shared).await else {
                    shed.reject(stream, connections.len());
                    continue;
                };
                next_id += 1;
                let connection = Connection {
                    router: router.clone(),
                    config: config.clone(),
                    registration: shared.register(next_id),
                    slot: Arc::new(permit),
                    tasks: tasks.clone(),
                };
                connections.spawn(connection.run(stream));
            }
        }
    }
    drop(listener);
    let open = connections.len();
    if open > 0 {
        tracing::info!(
            open,
            grace_ms = config.grace_period.as_millis() as u64,
            "shutting down; finishing requests in flight"
        );
    }
    shared.stop();
    drop(tasks);
    // Requests in flight may still switch protocols: their connections are waited for too.
    let drained = async {
        loop {
            tokio::select! {
                biased;
                Some(task) = switched.recv() => {
                    connections.spawn(task);
                }
                joined = connections.join_next() => {
                    // A connection that switched may have ended just after handing its task over.
                    match (joined, switched.try_recv()) {
                        (_, Ok(task)) => {
                            connections.spawn(task);
                        }
                        (None, Err(_)) => break,
                        (Some(_), Err(_)) => {}
                    }
                }
            }
        }
    };
    tokio::select! {
        () = drained => {}
        () = tokio::time::sleep(config.grace_period) => {
            tracing::warn!(open = connections.len(), "grace period over; closing the remaining connections");
        }
        () = shutdown_signal() => {
            tracing::warn!(open = connections.len(), "second signal; closing every connection now");
        }
    }
    // Switched connections still open are ended with the rest, and no more are taken.
    switched.close();
    connections.shutdown().await;
    Ok(())
}

/// Errors of `accept` that concern one connection only, which the peer has already given up.
fn is_per_connection(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset | io::ErrorKind::Interrupted)
}

/// A slot for a new connection: at once if there is one, else after asking idle connections to
/// close, or `None` when none frees up in a moment.
async fn admit(permits: &Arc<Semaphore>, shared: &Shared) -> Option<OwnedSemaphorePermit> {
    if let Ok(permit) = permits.clone().try_acquire_owned() {
        return Some(permit);
    }
    shared.press();
    tokio::time::timeout(Duration::from_millis(20), permits.clone().acquire_owned()).await.ok()?.ok()
}

/// The most bytes a closing connection reads and throws away (see [`ServeConfig::linger`]).
pub const LINGER_BYTES: u64 = 64 * 1024 * 1024;

/// Connections turned away at the limit, and when that was last logged.
#[derive(Default)]
struct Shed {
    since_log: u64,
    logged: Option<Instant>,
}

impl Shed {
    /// Answers 503 without reading the request, closes, and logs at most once a second.
    fn reject(&mut self, stream: TcpStream, open: usize) {
        // The type is `problem_types::OVERLOADED`.
        const BODY: &str = "{\"type\":\"urn:problem-type:overloaded\",\"title\":\"Service Unavailable\",\"status\":503,\"detail\":\"the server is at its connection limit; retry shortly\"}";
        let reply = format!(
            "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/problem+json\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{BODY}",
            BODY.len()
        );
        // A new connection's send buffer is empty: this never waits, and a peer that is not
        // reading cannot hold it.
        let _ = stream.try_write(reply.as_bytes());
        self.since_log += 1;
        if self.logged.is_none_or(|at| at.elapsed() >= Duration::from_secs(1)) {
            tracing::warn!(open, turned_away = self.since_log, "at the connection limit; turning connections away");
            self.since_log = 0;
            self.logged = Some(Instant::now());
        }
    }
}

/// What the accept loop tells every connection: stop, or close if idle. Connections read the
/// flags when woken, so telling them costs one wake each and listening costs nothing per request.
#[derive(Default)]
struct Shared {
    stopping: AtomicBool,
    /// Raised each time idle connections are asked to make room.
    pressure: AtomicU64,
    wakers: Mutex<HashMap<u64, Arc<AtomicWaker>>>,
}

impl Shared {
    fn register(self: &Arc<Self>, id: u64) -> Registration {
        let waker = Arc::new(AtomicWaker::new());
        self.lock().insert(id, waker.clone());
        Registration { shared: self.clone(), id, waker }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<AtomicWaker>>> {
        self.wakers.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn wake_all(&self) {
        self.lock().values().for_each(|waker| waker.wake());
    }

    fn stop(&self) {
        self.stopping.store(true, Ordering::Release);
        self.wake_all();
    }

    fn press(&self) {
        self.pressure.fetch_add(1, Ordering::Release);
        self.wake_all();
    }
}

/// A connection's place in [`Shared`], given up when the connection ends.
struct Registration {
    shared: Arc<Shared>,
    id: u64,
    waker: Arc<AtomicWaker>,
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.shared.lock().remove(&self.id);
    }
}

/// One accepted connection and what it needs to serve and to be stopped.
struct Connection {
    router: Router,
    config: Arc<ServeConfig>,
    registration: Registration,
    /// The connection's place under the cap, shared with a connection it switches to.
    slot: Arc<OwnedSemaphorePermit>,
    /// Where a connection it switches to is handed, to be served among the others.
    tasks: Tasks,
}

impl Connection {
    /// Serves requests until the peer leaves, a deadline passes, or the server stops.
    async fn run(self, stream: TcpStream) {
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(Activity::default());
        let unrouted = self.config.unrouted;
        let linger = self.config.linger;
        let io = TokioIo::new(Tracked {
            inner: stream,
            activity: activity.clone(),
            pending: None,
            unrouted,
            linger,
            lingering: None,
        });
        let Connection { router, config, registration, slot, tasks } = self;
        let handling = activity.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            handling.set(Phase::Handling);
            // A request that may switch protocols lends the switched connection this one's place.
            if request.headers().contains_key(hyper::header::UPGRADE) {
                request.extensions_mut().insert(Slot { permit: slot.clone(), tasks: tasks.clone() });
            }
            Answer { reply: router.clone().call(request.map(Body::new)), activity: Some(handling.clone()) }
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        // Heads are bounded here (431 past this size) and timed by the watchdog below.
        builder.max_buf_size(128 * 1024).header_read_timeout(None);
        let mut connection = pin!(builder.serve_connection(io, service).with_upgrades());
        let (shared, waker) = (&registration.shared, &registration.waker);
        let mut watchdog = Watchdog::new(&config);
        let mut tick = pin!(tokio::time::sleep(watchdog.period));
        let mut draining = false;
        let mut pressure = shared.pressure.load(Ordering::Acquire);
        // The connection is polled first and on its own wake-ups; the rest is a few atomic loads.
        std::future::poll_fn(|cx| {
            if connection.as_mut().poll(cx).is_ready() {
                return Poll::Ready(());
            }
            waker.register(cx.waker());
            if !draining && shared.stopping.load(Ordering::Acquire) {
                // Closes at once when idle, else after the reply in progress.
                draining = true;
                connection.as_mut().graceful_shutdown();
                if connection.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(());
                }
            }
            let now_pressure = shared.pressure.load(Ordering::Acquire);
            if now_pressure != pressure {
                pressure = now_pressure;
                if activity.phase() == Phase::Idle {
                    return Poll::Ready(());
                }
            }
            while tick.as_mut().poll(cx).is_ready() {
                let now = tick.deadline();
                if watchdog.expired(&activity, now) {
                    tracing::debug!(phase = ?activity.phase(), "closing a connection past its deadline");
                    return Poll::Ready(());
                }
                tick.as_mut().reset(now + watchdog.period);
            }
            Poll::Pending
        })
        .await;
    }
}

/// Where a connection is in its request cycle. Only an idle connection may be closed to make
/// room for others: one that is reading a request, handling it or writing its reply is busy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No request in progress and nothing left to write: the peer has everything it asked for
    /// and the server is waiting for its next request.
    Idle = 0,
    /// A request head is arriving.
    Head = 1,
    /// The router has the request; no deadline applies here (body reads have their own).
    Handling = 2,
    /// The router has replied and the reply is being written, or sits in the server's buffers.
    Answering = 3,
}

/// A connection's phase, and whether anything moved since the watchdog last looked, in one word:
/// the reads, writes and requests that update it cost an atomic operation and no clock.
///
/// Everything that touches it (the socket, the router's future, the reply body, the watchdog) is
/// polled by the connection's one task, so plain loads and stores never race; the word is atomic
/// only because the task may move between threads.
#[derive(Default)]
struct Activity {
    word: AtomicU8,
}

impl Activity {
    const PHASE: u8 = 0b11;
    /// Bytes moved, or the phase changed, since the watchdog last looked.
    const MOVED: u8 = 0b100;
    /// The reply's body has been handed to the connection in full (hyper dropped it).
    const DONE: u8 = 0b1000;
    /// After `DONE`, the connection flushed everything it held to the socket.
    const FLUSHED: u8 = 0b1_0000;
    /// The last read of the socket found nothing to read: the connection holds no request that
    /// it has not started.
    const STARVED: u8 = 0b10_0000;

    fn load(&self) -> u8 {
        self.word.load(Ordering::Relaxed)
    }

    fn store(&self, word: u8) {
        self.word.store(word, Ordering::Relaxed);
    }

    fn phase(&self) -> Phase {
        Self::decode(self.load())
    }

    fn decode(word: u8) -> Phase {
        match word & Self::PHASE {
            0 => Phase::Idle,
            1 => Phase::Head,
            2 => Phase::Handling,
            _ => Phase::Answering,
        }
    }

    /// Enters `phase`; what the socket last said is kept.
    fn set(&self, phase: Phase) {
        self.store(phase as u8 | Self::MOVED | (self.load() & Self::STARVED));
    }

    /// Bytes arrived: the first of a request head when the connection was idle. A head is timed
    /// from its first byte, so its later bytes are not progress.
    fn on_read(&self) {
        let word = self.load() & !Self::STARVED;
        let word = match Self::decode(word) {
            Phase::Idle => word | Phase::Head as u8 | Self::MOVED,
            Phase::Head => word,
            Phase::Handling | Phase::Answering => word | Self::MOVED,
        };
        self.store(word);
    }

    /// A read found nothing: once the reply is out, the connection is idle.
    fn on_read_pending(&self) {
        let word = self.load() | Self::STARVED;
        let written = Self::DONE | Self::FLUSHED;
        if Self::decode(word) == Phase::Answering && word & written == written {
            self.settle();
        } else {
            self.store(word);
        }
    }

    /// The connection flushed its buffers to the socket.
    fn on_flush(&self) {
        let word = self.load();
        if Self::decode(word) != Phase::Answering || word & Self::DONE == 0 {
            return;
        }
        // With nothing read and not yet started, the reply was the last thing to do; otherwise a
        // pipelined request may be waiting in the connection's buffer, and it says so by starting.
        if word & Self::STARVED != 0 { self.settle() } else { self.store(word | Self::FLUSHED) }
    }

    /// The reply's body has been taken in full.
    fn on_reply_done(&self) {
        let word = self.load();
        if Self::decode(word) == Phase::Answering {
            self.store(word | Self::DONE);
        }
    }

    fn settle(&self) {
        self.store(Phase::Idle as u8 | Self::MOVED | Self::STARVED);
    }

    /// Bytes left: a reply being read by its peer is progress, not idleness.
    fn on_write(&self) {
        let word = self.load();
        if word & Self::MOVED == 0 {
            self.store(word | Self::MOVED);
        }
    }

    /// The phase, and whether anything moved since the last call.
    fn take(&self) -> (Phase, bool) {
        let word = self.load();
        self.store(word & !Self::MOVED);
        (Self::decode(word), word & Self::MOVED != 0)
    }
}

pin_project_lite::pin_project! {
    /// The router's reply to one request, handed to the connection with a body that reports
    /// when it has been taken in full.
    struct Answer {
        #[pin]
        reply: RouteFuture<Infallible>,
        activity: Option<Arc<Activity>>,
    }
}

impl Future for Answer {
    type Output = Result<hyper::Response<ReplyBody>, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let Ok(response) = std::task::ready!(this.reply.poll(cx));
        let activity = this.activity.take().unwrap_or_default();
        // Busy until the reply is written out, however long that takes.
        activity.set(Phase::Answering);
        Poll::Ready(Ok(response.map(|inner| ReplyBody { inner, activity })))
    }
}

/// A reply's body, which tells its connection when it has been taken in full.
struct ReplyBody {
    inner: Body,
    activity: Arc<Activity>,
}

impl Drop for ReplyBody {
    fn drop(&mut self) {
        self.activity.on_reply_done();
    }
}

impl http_body::Body for ReplyBody {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The deadlines of one connection, checked on a tick of a quarter of the shorter timeout: a
/// peer always gets its full timeout, and is cut off within a quarter more, without reading a
/// clock per request.
struct Watchdog {
    period: Duration,
    head_timeout: Duration,
    idle_timeout: Duration,
    /// Since when the connection has been in its current phase with nothing moving.
    since: tokio::time::Instant,
}

impl Watchdog {
    fn new(config: &ServeConfig) -> Self {
        let shorter = config.request_head_timeout.min(config.idle_timeout);
        Watchdog {
            // Bounded above too, so that a tick can always be scheduled.
            period: (shorter / 4).clamp(Duration::from_millis(10), Duration::from_secs(3600)),
            head_timeout: config.request_head_timeout,
            idle_timeout: config.idle_timeout,
            since: tokio::time::Instant::now(),
        }
    }

    /// Whether the connection is past its deadline at `now`.
    fn expired(&mut self, activity: &Activity, now: tokio::time::Instant) -> bool {
        let (phase, moved) = activity.take();
        // A head is timed from its start, however it trickles; anything else that moved restarts
        // the clock.
        if moved || phase == Phase::Handling {
            self.since = now;
            return false;
        }
        let limit = if phase == Phase::Head { self.head_timeout } else { self.idle_timeout };
        now.duration_since(self.since) >= limit
    }
}

/// A stream that reports to its connection's [`Activity`] whenever bytes move, and that gives
/// hyper's own error replies a body.
///
/// hyper answers a request it cannot parse (malformed, a target over 64 KiB, a head over the
/// buffer) before the router sees it, with a bare status and no body. Those replies have one
/// shape and are the only ones written while no request is with the router, so they are
/// recognised here and replaced, status kept, by the document's error body for requests no
/// operation serves, or problem details.
struct Tracked {
    inner: TcpStream,
    activity: Arc<Activity>,
    /// A replacement reply still to be written, and how much of it has been.
    pending: Option<(Vec<u8>, usize)>,
    unrouted: &'static [ErrorShape],
    /// How long to read what the peer still sends once the server closes its side.
    linger: Duration,
    /// Once closing: until when, and how many more bytes, the peer's data is read and dropped.
    lingering: Option<(Pin<Box<tokio::time::Sleep>>, u64)>,
}

impl Tracked {
    /// Writes what is left of a replacement reply.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.pending {
            if *written == bytes.len() {
                self.pending = None;
                break;
            }
            let n = std::task::ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(()))
    }
}

/// The reply that replaces `head` when it is one of hyper's bare error replies: in the body of
/// `unrouted` for its status, else problem details.
fn automatic_reply(head: &[u8], unrouted: &'static [ErrorShape]) -> Option<Vec<u8>> {
    let head = std::str::from_utf8(head).ok()?;
    let status = head.strip_prefix("HTTP/1.1 ")?.get(..3)?;
    let bare = head.ends_with("\r\n\r\n")
        && head.contains("\r\nconnection: close\r\ncontent-length: 0\r\n")
        && !head.contains("content-type");
    let (problem_type, title, detail) = match status {
        "400" => (problem_types::MALFORMED_REQUEST, "Bad Request", "the request is not well-formed HTTP/1.1"),
        "414" => {
            (problem_types::REQUEST_TOO_LARGE, "URI Too Long", "the request target is longer than the server reads")
        }
        "431" => (
            problem_types::REQUEST_TOO_LARGE,
            "Request Header Fields Too Large",
            "the request head is larger than the server reads",
        ),
        _ => return None,
    };
    if !bare {
        return None;
    }
    let code = axum::http::StatusCode::from_bytes(status.as_bytes()).ok()?;
    let error = ApiError::new(code).with_type(problem_type).with_detail(detail);
    let shape = ErrorReply::unrouted("", unrouted).shape(code);
    let (content_type, body) = match shape {
        Some(shape) if !shape.template.is_empty() => {
            (shape.content_type, serde_json::to_string(&shape.body(&error, "")).unwrap_or_default())
        }
        // A document that answers in text: the detail.
        Some(shape) if shape.content_type.starts_with("text/") || shape.content_type == "application/octet-stream" => {
            (shape.content_type, format!("{detail}\n"))
        }
        _ => {
            let content_type = shape.map_or("application/problem+json", |s| s.content_type);
            let body = format!(
                "{{\"type\":\"{problem_type}\",\"title\":\"{title}\",\"status\":{status},\"detail\":\"{detail}\"}}"
            );
            (content_type, body)
        }
    };
    let reply = format!(
        "HTTP/1.1 {status} {title}\r\ncontent-type: {content_type}\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    Some(reply.into_bytes())
}

impl AsyncRead for Tracked {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.on_read();
        } else if poll.is_pending() {
            self.activity.on_read_pending();
        }
        poll
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        std::task::ready!(self.drain(cx))?;
        if matches!(self.activity.phase(), Phase::Idle | Phase::Head)
            && let Some(reply) = automatic_reply(buf, self.unrouted)
        {
            // hyper's bytes count as written; the replacement goes out now or on flush.
            self.pending = Some((reply, 0));
            self.activity.on_write();
            let _ = self.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = poll
            && n > 0
        {
            self.activity.on_write();
        }
        poll
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        // An automatic reply is a head alone: one buffer, which `poll_write` inspects.
        let mut filled = bufs.iter().filter(|b| !b.is_empty());
        if let (Some(only), None) = (filled.next(), filled.next()) {
            return self.poll_write(cx, only);
        }
        std::task::ready!(self.drain(cx))?;
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(n)) = poll
            && n > 0
        {
            self.activity.on_write();
        }
        poll
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        if let Poll::Ready(Ok(())) = poll {
            self.activity.on_flush();
        }
        poll
    }

    /// Ends the server's side, then reads and drops what the peer still sends, for a bounded time
    /// and bytes ([`ServeConfig::linger`]): closing with unread data would reset the connection,
    /// and a peer still sending a body refused early would lose the reply.
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        if self.lingering.is_none() {
            std::task::ready!(Pin::new(&mut self.inner).poll_shutdown(cx))?;
            if self.linger.is_zero() {
                return Poll::Ready(Ok(()));
            }
            let until = Box::pin(tokio::time::sleep(self.linger.min(Duration::from_secs(3600))));
            self.lingering = Some((until, LINGER_BYTES));
        }
        let Tracked { inner, lingering, .. } = &mut *self;
        let Some((until, left)) = lingering else { return Poll::Ready(Ok(())) };
        let mut scratch = [0u8; 8192];
        loop {
            let mut buf = ReadBuf::new(&mut scratch);
            match Pin::new(&mut *inner).poll_read(cx, &mut buf) {
                // The peer is done, or gone.
                Poll::Ready(Ok(())) if buf.filled().is_empty() => return Poll::Ready(Ok(())),
                Poll::Ready(Err(_)) => return Poll::Ready(Ok(())),
                Poll::Ready(Ok(())) => {
                    *left = left.saturating_sub(buf.filled().len() as u64);
                    if *left == 0 {
                        return Poll::Ready(Ok(()));
                    }
                }
                Poll::Pending => return until.as_mut().poll(cx).map(Ok),
            }
        }
    }
}

/// Completes on Ctrl-C or, on Unix, on `SIGTERM` (what process managers send to stop a service).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            // No Ctrl-C handling here (no terminal); wait for the other signal only.
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
