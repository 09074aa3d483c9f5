//! The generated `serve_with` and router against peers that try to hold the server: slow heads,
//! slow bodies, idle and surplus connections, a shutdown with a stalled peer, oversized requests
//! and query bytes that are not UTF-8. Every peer is a raw socket on 127.0.0.1, so what is tested
//! is what goes over the wire.

use std::sync::Arc;
use std::time::{Duration, Instant};

use portfolio_server::{ServeConfig, ServerConfig, bind, router_with, serve_with};
use sandbox::{Credentials, Sandbox};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

const HEADERS: &str = "host: x\r\nauthorization: t\r\nx-pps-subscription-key: k\r\nx-pps-api-version: 2022.09.26\r\n";

/// A running server and the means to stop it.
struct Server {
    addr: std::net::SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start(serve: ServeConfig, server: ServerConfig) -> Server {
        Self::with_router(serve, router_with(Arc::new(Sandbox::new(Credentials::Any)), server)).await
    }

    async fn with_router(serve: ServeConfig, router: axum::Router) -> Server {
        let listener = bind("127.0.0.1:0", &serve).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let done = tokio::spawn(serve_with(listener, router, async move { drop(stopped.await) }, serve));
        Server { addr, stop: Some(stop), done }
    }

    async fn connect(&self) -> TcpStream {
        TcpStream::connect(self.addr).await.unwrap()
    }

    /// Stops accepting, and returns how long `serve_with` took to return.
    async fn shut_down(mut self) -> Duration {
        let started = Instant::now();
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(Duration::from_secs(20), self.done).await.expect("serve returned").unwrap().unwrap();
        started.elapsed()
    }
}

/// Whether the server closed `socket` within `within`: a read returns end of file or an error.
/// Whatever the server wrote before closing is skipped.
async fn closed_within(socket: &mut TcpStream, within: Duration) -> bool {
    let mut sink = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, socket.read(&mut sink)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// Sends `request` on a new connection and returns the whole reply (the server closes after it).
async fn exchange(server: &Server, request: &[u8]) -> String {
    let mut socket = server.connect().await;
    socket.write_all(request).await.unwrap();
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut reply)).await;
    String::from_utf8_lossy(&reply).into_owned()
}

/// Reads one reply head and body from a kept-alive connection (`content-length` bodies only).
async fn read_reply(socket: &mut TcpStream) -> String {
    let mut reply = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(5), socket.read(&mut chunk)).await.unwrap().unwrap();
        assert!(n > 0, "closed before a reply: {}", String::from_utf8_lossy(&reply));
        reply.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&reply);
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap())
                })
                .unwrap_or(0);
            if reply.len() >= end + 4 + length {
                return text.into_owned();
            }
        }
    }
}

#[tokio::test]
async fn slow_request_heads_are_cut_off() {
    let serve = ServeConfig::default().with_request_head_timeout(Duration::from_millis(500));
    let server = Server::start(serve, ServerConfig::default()).await;
    let mut peers = Vec::new();
    for _ in 0..100 {
        let mut socket = server.connect().await;
        socket.write_all(b"GET /api/models HTTP/1.1\r\nx-slow: ").await.unwrap();
        peers.push(tokio::spawn(async move {
            // One byte every 100 ms: progress, but never a whole head.
            let started = Instant::now();
            while socket.write_all(b"a").await.is_ok() && started.elapsed() < Duration::from_secs(5) {
                tokio::time::sleep(Duration::from_millis(100)).await;
                if closed_within(&mut socket, Duration::from_millis(1)).await {
                    break;
                }
            }
            started.elapsed()
        }));
    }
    for peer in peers {
        let held = peer.await.unwrap();
        assert!(held < Duration::from_millis(1500), "a slow head held its connection for {held:?}");
    }
    server.shut_down().await;
}

#[tokio::test]
async fn idle_connections_are_closed() {
    let serve = ServeConfig::default().with_idle_timeout(Duration::from_millis(500));
    let server = Server::start(serve, ServerConfig::default()).await;
    // A kept-alive connection after a complete exchange, and many that never say anything.
    let mut used = server.connect().await;
    used.write_all(format!("GET /api/models HTTP/1.1\r\n{HEADERS}\r\n").as_bytes()).await.unwrap();
    assert!(read_reply(&mut used).await.starts_with("HTTP/1.1 200"));
    let mut silent = Vec::new();
    for _ in 0..300 {
        silent.push(server.connect().await);
    }
    let started = Instant::now();
    assert!(closed_within(&mut used, Duration::from_secs(2)).await, "the kept-alive connection stayed open");
    for socket in &mut silent {
        assert!(closed_within(socket, Duration::from_secs(2)).await, "a silent connection stayed open");
    }
    assert!(started.elapsed() < Duration::from_millis(1500), "took {:?}", started.elapsed());
    server.shut_down().await;
}

#[tokio::test]
async fn slow_bodies_are_answered_408() {
    let config = ServerConfig::default().with_body_read_timeout(Duration::from_millis(400));
    let server = Server::start(ServeConfig::default(), config).await;
    let socket = server.connect().await;
    let (mut read, mut write) = socket.into_split();
    let head =
        format!("POST /api/user HTTP/1.1\r\n{HEADERS}content-type: application/json\r\ncontent-length: 100\r\n\r\n");
    write.write_all(head.as_bytes()).await.unwrap();
    let started = Instant::now();
    // One byte every 100 ms of a 100-byte body: it would take 10 s.
    let writer = tokio::spawn(async move {
        while write.write_all(b" ").await.is_ok() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let mut reply = [0u8; 1024];
    let n =
        tokio::time::timeout(Duration::from_secs(3), read.read(&mut reply)).await.expect("a reply in time").unwrap();
    let text = String::from_utf8_lossy(&reply[..n]);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("application/problem+json") && text.contains("body-timeout"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
    writer.abort();
    server.shut_down().await;
}

#[tokio::test]
async fn at_the_connection_limit_idle_connections_make_room_then_newcomers_are_turned_away() {
    let serve = ServeConfig::default().with_max_connections(20);
    let server = Server::start(serve, ServerConfig::default()).await;
    let request = format!("GET /api/models HTTP/1.1\r\n{HEADERS}connection: close\r\n\r\n");
    // Twenty idle connections fill the server, one of them kept alive after a whole exchange; a
    // real request still gets through.
    let mut idle = Vec::new();
    let mut used = server.connect().await;
    used.write_all(format!("GET /api/models HTTP/1.1\r\n{HEADERS}\r\n").as_bytes()).await.unwrap();
    assert!(read_reply(&mut used).await.starts_with("HTTP/1.1 200"));
    idle.push(used);
    for _ in 0..19 {
        idle.push(server.connect().await);
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let reply = exchange(&server, request.as_bytes()).await;
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    for socket in &mut idle {
        assert!(closed_within(socket, Duration::from_secs(1)).await, "an idle connection was kept at the limit");
    }
    // Twenty connections each in the middle of a request are not idle: a newcomer is turned away.
    let mut busy = Vec::new();
    for _ in 0..20 {
        let mut socket = server.connect().await;
        socket.write_all(b"GET /api/models HTTP/1.1\r\n").await.unwrap();
        busy.push(socket);
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let reply = exchange(&server, request.as_bytes()).await;
    assert!(reply.starts_with("HTTP/1.1 503"), "{reply}");
    assert!(reply.contains("application/problem+json") && reply.contains("retry-after: 1"), "{reply}");
    drop(busy);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let reply = exchange(&server, request.as_bytes()).await;
    assert!(reply.starts_with("HTTP/1.1 200"), "room again once the busy peers left: {reply}");
    server.shut_down().await;
}

#[tokio::test]
async fn shutdown_finishes_requests_in_flight_and_ends_within_the_grace_period() {
    async fn slow() -> &'static str {
        tokio::time::sleep(Duration::from_millis(300)).await;
        "done"
    }
    let router = axum::Router::new().route("/slow", axum::routing::get(slow));
    let serve = ServeConfig::default().with_grace_period(Duration::from_secs(1));
    let server = Server::with_router(serve, router).await;
    // A peer stalled in the middle of its head, and a request in flight.
    let mut stalled = server.connect().await;
    stalled.write_all(b"GET /slow HTTP/1.1\r\nhost: x\r\n").await.unwrap();
    let mut in_flight = server.connect().await;
    in_flight.write_all(b"GET /slow HTTP/1.1\r\nhost: x\r\n\r\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let addr = server.addr;
    let took = server.shut_down().await;
    assert!(took < Duration::from_millis(1500), "shutdown took {took:?} with a stalled peer");
    let reply = read_reply(&mut in_flight).await;
    assert!(reply.starts_with("HTTP/1.1 200") && reply.ends_with("done"), "{reply}");
    assert!(closed_within(&mut stalled, Duration::from_millis(100)).await);
    assert!(TcpStream::connect(addr).await.is_err(), "still accepting after shutdown");
}

#[tokio::test]
async fn oversized_targets_and_headers_are_problem_json() {
    let server = Server::start(ServeConfig::default(), ServerConfig::default()).await;
    let long_query = "a".repeat(10_000);
    let reply = exchange(
        &server,
        format!("GET /api/users?username={long_query} HTTP/1.1\r\n{HEADERS}connection: close\r\n\r\n").as_bytes(),
    )
    .await;
    assert!(reply.starts_with("HTTP/1.1 414"), "{}", &reply[..200.min(reply.len())]);
    assert!(reply.contains("application/problem+json") && reply.contains("request-too-large"), "{reply}");
    let big_header = "b".repeat(40_000);
    let reply = exchange(
        &server,
        format!("GET /api/models HTTP/1.1\r\n{HEADERS}x-big: {big_header}\r\nconnection: close\r\n\r\n").as_bytes(),
    )
    .await;
    assert!(reply.starts_with("HTTP/1.1 431"), "{reply}");
    assert!(reply.contains("application/problem+json"), "{reply}");
    server.shut_down().await;
}

#[tokio::test]
async fn query_bytes_that_are_not_utf8_are_rejected_like_path_bytes() {
    let server = Server::start(ServeConfig::default(), ServerConfig::default()).await;
    let reply = exchange(
        &server,
        format!("GET /api/users?username=al%FFex HTTP/1.1\r\n{HEADERS}connection: close\r\n\r\n").as_bytes(),
    )
    .await;
    assert!(reply.starts_with("HTTP/1.1 400"), "{reply}");
    assert!(reply.contains("\"username\":[\"is not UTF-8 once percent-decoded\"]"), "{reply}");
    server.shut_down().await;
}

#[tokio::test]
async fn the_backlog_holds_a_burst_of_connections() {
    // Nothing accepts: every connection must wait in the kernel's queue, and with room for
    // them all none waits for a SYN retry.
    let listener = bind("127.0.0.1:0", &ServeConfig::default()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut connects = Vec::new();
    for _ in 0..600 {
        connects.push(tokio::spawn(async move {
            let started = Instant::now();
            let socket = tokio::time::timeout(Duration::from_secs(3), TcpStream::connect(addr)).await;
            (started.elapsed(), socket)
        }));
    }
    let mut slowest = Duration::ZERO;
    let mut sockets = Vec::new();
    for connect in connects {
        let (took, socket) = connect.await.unwrap();
        sockets.push(socket.expect("connected").unwrap());
        slowest = slowest.max(took);
    }
    assert!(slowest < Duration::from_millis(900), "a connect waited {slowest:?}: the backlog overflowed");
    drop(listener);
}

#[tokio::test]
async fn bind_resolves_host_names() {
    let listener: TcpListener = bind("localhost:0", &ServeConfig::default().with_backlog(16)).await.unwrap();
    assert!(listener.local_addr().unwrap().ip().is_loopback());
}

#[tokio::test]
async fn requests_the_http_parser_refuses_are_answered_with_problem_json() {
    let server = Server::start(ServeConfig::default(), ServerConfig::default()).await;
    let long_target = format!("GET /{} HTTP/1.1\r\nhost: x\r\n\r\n", "a".repeat(70_000));
    let huge_head = format!("GET / HTTP/1.1\r\nx: {}\r\n\r\n", "a".repeat(200_000));
    let cases: [(&[u8], &str); 6] = [
        (b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", "400"),
        (b"G@T / HTTP/1.1\r\nhost: x\r\n\r\n", "400"),
        (b"GET / HTTP/1.1\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\n", "400"),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", "400"),
        (long_target.as_bytes(), "414"),
        (huge_head.as_bytes(), "431"),
    ];
    for (request, status) in cases {
        let reply = exchange(&server, request).await;
        let shown = String::from_utf8_lossy(&request[..request.len().min(40)]);
        assert!(reply.starts_with(&format!("HTTP/1.1 {status} ")), "{shown}: {reply}");
        assert!(reply.contains("content-type: application/problem+json"), "{shown}: {reply}");
        let body = &reply[reply.find("\r\n\r\n").unwrap() + 4..];
        let problem: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{shown}: {e}: {body}"));
        assert_eq!(problem["status"].to_string(), status, "{shown}: {body}");
    }
    // A well-formed request on a fresh connection is untouched.
    let reply =
        exchange(&server, format!("GET /api/models HTTP/1.1\r\n{HEADERS}connection: close\r\n\r\n").as_bytes()).await;
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    server.shut_down().await;
}

#[tokio::test]
async fn the_largest_settings_mean_no_limit_and_nothing_panics() {
    let serve = ServeConfig::default()
        .with_max_connections(usize::MAX)
        .with_request_head_timeout(Duration::MAX)
        .with_idle_timeout(Duration::MAX)
        .with_grace_period(Duration::MAX)
        .with_backlog(u32::MAX);
    let config = ServerConfig::default()
        .with_body_limit(usize::MAX)
        .with_body_budget(usize::MAX)
        .with_body_budget_wait(Duration::MAX)
        .with_body_read_timeout(Duration::MAX)
        .with_max_uri_length(usize::MAX)
        .with_max_header_bytes(usize::MAX);
    let server = Server::start(serve, config).await;
    let reply =
        exchange(&server, format!("GET /api/models HTTP/1.1\r\n{HEADERS}connection: close\r\n\r\n").as_bytes()).await;
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    let body = r#"{"Username":"ann"}"#;
    let request = format!(
        "POST /api/user HTTP/1.1\r\n{HEADERS}content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let reply = exchange(&server, request.as_bytes()).await;
    assert!(!reply.is_empty() && !reply.starts_with("HTTP/1.1 5"), "{reply}");
    // A shutdown with an endless grace period still ends once nothing is in flight.
    assert!(server.shut_down().await < Duration::from_secs(5));
}
