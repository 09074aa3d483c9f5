//! `serve_with` at its connection limit: thousands of real connections arrive while replies are
//! being written, and only connections with nothing to do are closed to make room. Every peer is
//! a socket on 127.0.0.1.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use openapi32_client::types::WatchTicksReplyEvent;
use openapi32_server::{ItemStream, MockApi};
use portfolio_server::{ServeConfig, ServerConfig, bind, serve_with};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Lifts this process's soft limit on open descriptors to its hard limit: the tests below hold
/// both ends of thousands of connections.
fn raise_descriptor_limit() -> u64 {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `getrlimit` and `setrlimit` only read and write the struct passed to them.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
    }
    limit.rlim_cur
}

/// Serves `router` with `config` in the background; returns the address.
async fn start(router: axum::Router, config: ServeConfig) -> SocketAddr {
    let listener = bind("127.0.0.1:0", &config).await.expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(serve_with(listener, router, std::future::pending(), config));
    addr
}

/// Opens `count` connections that never send anything, as fast as the server accepts them.
async fn crowd(addr: SocketAddr, count: usize) -> Vec<TcpStream> {
    let mut sockets = Vec::with_capacity(count);
    for _ in 0..count {
        match tokio::time::timeout(Duration::from_secs(5), TcpStream::connect(addr)).await {
            Ok(Ok(socket)) => sockets.push(socket),
            // Turned away or out of descriptors: the pressure is there either way.
            Ok(Err(_)) | Err(_) => break,
        }
    }
    sockets
}

const REPLY_SIZE: usize = 700 * 1024;
const PIPELINED: usize = 12;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replies_being_written_survive_thousands_of_new_connections() {
    // Both ends of every connection are in this process: at the default cap of 4,096 that is
    // about 8,500 descriptors. A lower hard limit gets a lower cap, still in the thousands.
    let descriptors = raise_descriptor_limit() as usize;
    assert!(descriptors >= 2500, "the test needs at least 2,500 descriptors; the hard limit is {descriptors}");
    let cap = ServeConfig::default().max_connections.min((descriptors - 300) / 2 - 100);
    let router = axum::Router::new().route("/big", axum::routing::get(|| async { vec![b'x'; REPLY_SIZE] }));
    let addr = start(router, ServeConfig::default().with_max_connections(cap)).await;

    // A peer that asks for twelve large replies at once and reads them slowly through a small
    // receive buffer, so the server is still writing them while the crowd arrives.
    let socket = TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(32 * 1024).expect("receive buffer");
    let mut reader = socket.connect(addr).await.expect("connect");
    reader.write_all(b"GET /big HTTP/1.1\r\nhost: x\r\n\r\n".repeat(PIPELINED).as_slice()).await.expect("send");
    let reading = tokio::spawn(async move {
        let mut received = Vec::with_capacity(PIPELINED * (REPLY_SIZE + 200));
        let mut chunk = vec![0u8; 32 * 1024];
        let started = Instant::now();
        while complete_replies(&received) < PIPELINED && started.elapsed() < Duration::from_secs(30) {
            match tokio::time::timeout(Duration::from_secs(5), reader.read(&mut chunk)).await {
                Ok(Ok(0)) | Ok(Err(_)) | Err(_) => break,
                Ok(Ok(n)) => received.extend_from_slice(&chunk[..n]),
            }
            // About 3 MB/s: the replies take a few seconds to read.
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        received
    });

    // Connections that say nothing, past the cap (4,200 at the default of 4,096), so the server
    // closes idle ones to make room, twice while the replies are on their way.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let first = crowd(addr, cap + 104).await;
    drop(first);
    let second = crowd(addr, cap + 104).await;
    let received = reading.await.expect("reader");
    drop(second);
    assert_eq!(
        complete_replies(&received),
        PIPELINED,
        "a connection was closed while its replies were written ({} bytes of {} arrived)",
        received.len(),
        PIPELINED * REPLY_SIZE
    );
}

/// How many whole `content-length` replies `bytes` holds, one after another.
fn complete_replies(bytes: &[u8]) -> usize {
    let mut rest = bytes;
    let mut count = 0;
    while let Some(end) = rest.windows(4).position(|w| w == b"\r\n\r\n") {
        let head = String::from_utf8_lossy(&rest[..end]).to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{head}");
        let length: usize = head
            .lines()
            .find_map(|line| line.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .expect("a content-length");
        if rest.len() < end + 4 + length {
            break;
        }
        count += 1;
        rest = &rest[end + 4 + length..];
    }
    count
}

#[tokio::test]
async fn a_live_event_stream_is_not_closed_to_make_room() {
    const ITEMS: usize = 50;
    let mock = MockApi::new();
    mock.on_watch_ticks(|_, _| async {
        let ticks = futures_util::stream::unfold(0, |n| async move {
            (n < ITEMS).then_some(())?;
            tokio::time::sleep(Duration::from_millis(20)).await;
            Some((WatchTicksReplyEvent::new(n.to_string()), n + 1))
        });
        Ok(ItemStream::new(ticks))
    });
    let router = openapi32_server::router_with(mock.clone(), ServerConfig::default());
    let addr = start(router, ServeConfig::default().with_max_connections(8)).await;
    let client = openapi32_client::Client::new(&format!("http://{addr}"), Default::default()).expect("client");
    let mut ticks = client.watch_ticks().await.expect("a stream");
    let crowd = tokio::spawn(async move {
        // Ten newcomers at a limit of eight, one every 50 ms while the stream runs.
        let mut sockets = Vec::new();
        for _ in 0..10 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            sockets.extend(TcpStream::connect(addr).await.ok());
        }
        sockets
    });
    let mut received = 0;
    while let Some(tick) = tokio::time::timeout(Duration::from_secs(5), ticks.next()).await.expect("in time") {
        let tick = tick.unwrap_or_else(|e| panic!("the stream broke after {received} items: {e}"));
        assert_eq!(tick.data, received.to_string());
        received += 1;
    }
    assert_eq!(received, ITEMS, "the stream ended early");
    drop(crowd.await);
}

/// Reads one `content-length` reply from `socket`: its head and its body.
async fn read_reply(socket: &mut TcpStream) -> (String, String) {
    let mut received = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = received.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&received[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            if received.len() >= end + 4 + length {
                return (head, String::from_utf8_lossy(&received[end + 4..end + 4 + length]).into_owned());
            }
        }
        let n = tokio::time::timeout(Duration::from_secs(5), socket.read(&mut chunk))
            .await
            .expect("a reply in time")
            .expect("read");
        assert!(n > 0, "closed before a whole reply: {}", String::from_utf8_lossy(&received));
        received.extend_from_slice(&chunk[..n]);
    }
}

#[tokio::test]
async fn request_bodies_share_a_budget_and_one_without_room_is_answered_503() {
    let mock = features_server::MockApi::new();
    mock.on_put_photo(|_, input| async move { Ok(input.body.len() as i64) });
    let config =
        ServerConfig::default().with_body_budget(4 * 1024 * 1024).with_body_budget_wait(Duration::from_millis(200));
    let addr = start(features_server::router_with(mock.clone(), config), ServeConfig::default()).await;
    let head = |length: usize| {
        format!(
            "PUT /pets/Rex/photo HTTP/1.1\r\nhost: x\r\nauthorization: Bearer t\r\ncontent-type: image/png\r\ncontent-length: {length}\r\n\r\n"
        )
    };
    const LARGE: usize = 2_000_000;
    // Two bodies take nearly all of the budget, each held a kilobyte short of complete.
    let mut holders = Vec::new();
    for _ in 0..2 {
        let mut socket = TcpStream::connect(addr).await.expect("connect");
        socket.write_all(head(LARGE).as_bytes()).await.expect("head");
        socket.write_all(&vec![7u8; LARGE - 1024]).await.expect("most of the body");
        holders.push(socket);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A third finds no room: turned away after the wait, before its body is read.
    let mut third = TcpStream::connect(addr).await.expect("connect");
    third.write_all(head(LARGE / 2).as_bytes()).await.expect("head");
    let (reply, body) = read_reply(&mut third).await;
    assert!(reply.starts_with("http/1.1 503"), "{reply}");
    // Problem details, labelled `application/json` as every reply `putPhoto` documents is.
    assert!(reply.contains("retry-after: 1") && reply.contains("content-type: application/json"), "{reply}");
    assert!(body.contains("urn:problem-type:overloaded"), "{body}");
    // The admitted bodies are unharmed: they finish and are answered in full.
    for mut socket in holders {
        socket.write_all(&[7u8; 1024]).await.expect("the rest");
        let (reply, body) = read_reply(&mut socket).await;
        assert!(reply.starts_with("http/1.1 200"), "{reply}");
        assert_eq!(body, LARGE.to_string());
    }
    // Their room was given back with their data.
    let mut later = TcpStream::connect(addr).await.expect("connect");
    later.write_all(head(LARGE).as_bytes()).await.expect("head");
    later.write_all(&vec![7u8; LARGE]).await.expect("body");
    let (reply, body) = read_reply(&mut later).await;
    assert!(reply.starts_with("http/1.1 200"), "{reply}");
    assert_eq!(body, LARGE.to_string());
}

#[tokio::test]
async fn a_connection_that_switched_protocols_keeps_its_place_under_the_cap() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mock = features_server::MockApi::new();
    mock.on_open_tunnel(|_, input| async move {
        Ok(features_server::Switch::new(input.protocol, |connection| async move {
            let (mut read, mut write) = tokio::io::split(connection);
            let _ = tokio::io::copy(&mut read, &mut write).await;
        }))
    });
    let router = features_server::router_with(mock.clone(), ServerConfig::default());
    let addr = start(router, ServeConfig::default().with_max_connections(2)).await;
    let client =
        features_client::Client::new(&format!("http://{addr}"), features_client::Credentials::new("t", "b", "s"))
            .expect("client");
    let mut first = client.open_tunnel("echo").await.expect("switched");
    let _second = client.open_tunnel("echo").await.expect("switched");
    // Both places are taken by switched connections, which are not idle: a newcomer is turned away.
    let mut newcomer = TcpStream::connect(addr).await.expect("connect");
    newcomer.write_all(b"GET /labels HTTP/1.1\r\nhost: x\r\n\r\n").await.expect("send");
    let (reply, _) = read_reply(&mut newcomer).await;
    assert!(reply.starts_with("http/1.1 503"), "{reply}");
    // The switched connection still works, and once one closes its place is free again.
    first.write_all(b"ping").await.expect("write");
    let mut echoed = [0u8; 4];
    first.read_exact(&mut echoed).await.expect("read");
    assert_eq!(&echoed, b"ping");
    drop(first);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut later = TcpStream::connect(addr).await.expect("connect");
    later.write_all(b"GET /labels HTTP/1.1\r\nhost: x\r\n\r\n").await.expect("send");
    let (reply, _) = read_reply(&mut later).await;
    assert!(!reply.starts_with("http/1.1 503"), "{reply}");
}

#[tokio::test]
async fn a_shutdown_gives_switched_connections_the_grace_period_then_ends_them() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mock = features_server::MockApi::new();
    mock.on_open_tunnel(|_, input| async move {
        Ok(features_server::Switch::new(input.protocol, |connection| async move {
            let (mut read, mut write) = tokio::io::split(connection);
            let _ = tokio::io::copy(&mut read, &mut write).await;
        }))
    });
    let router = features_server::router_with(mock.clone(), ServerConfig::default());
    let config = ServeConfig::default().with_grace_period(Duration::from_millis(800));
    let listener = bind("127.0.0.1:0", &config).await.expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve_with(listener, router, async move { drop(stopped.await) }, config));
    let client =
        features_client::Client::new(&format!("http://{addr}"), features_client::Credentials::new("t", "b", "s"))
            .expect("client");
    let mut tunnels = Vec::new();
    for _ in 0..16 {
        tunnels.push(client.open_tunnel("echo").await.expect("switched"));
    }
    let started = Instant::now();
    stop.send(()).expect("the server listens for its shutdown");
    // Within the grace period the switched connections are still served.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!server.is_finished(), "serve_with returned with 16 switched connections open");
    for tunnel in &mut tunnels {
        tunnel.write_all(b"ping").await.expect("write");
        let mut echoed = [0u8; 4];
        tunnel.read_exact(&mut echoed).await.expect("still served during the grace period");
        assert_eq!(&echoed, b"ping");
    }
    // Then they are ended, and serve_with returns.
    tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .expect("serve_with returns")
        .expect("joins")
        .expect("ok");
    assert!(started.elapsed() >= Duration::from_millis(700), "returned after {:?}", started.elapsed());
    for tunnel in &mut tunnels {
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(2), tunnel.read_to_end(&mut rest)).await;
        assert!(matches!(read, Ok(Ok(0)) | Ok(Err(_))), "the switched connection is closed: {read:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_refused_early_is_answered_while_the_peer_is_still_sending() {
    let mock = features_server::MockApi::new();
    mock.on_put_photo(|_, input| async move { Ok(input.body.len() as i64) });
    let router = features_server::router_with(mock.clone(), ServerConfig::default());
    let addr = start(router, ServeConfig::default()).await;
    // 3 MiB to a 2 MiB limit: refused from its declared length, before a byte of it is read.
    const LENGTH: usize = 24 << 20;
    let body: &'static [u8] = Box::leak(vec![7u8; LENGTH].into_boxed_slice());
    let peers = (0..24).map(|_| {
        tokio::spawn(async move {
            let mut socket = TcpStream::connect(addr).await.expect("connect");
            let head = format!(
                "PUT /pets/Rex/photo HTTP/1.1\r\nhost: x\r\nauthorization: Bearer t\r\ncontent-type: image/png\r\ncontent-length: {LENGTH}\r\n\r\n"
            );
            socket.write_all(head.as_bytes()).await.expect("head");
            // The whole body, as a client that does not read while it sends would send it: a
            // server that closed at once would reset the connection under it, and many clients
            // then report the reset, not the reply.
            let sent = socket.write_all(body).await.map_err(|e| e.kind());
            let mut reply = Vec::new();
            let read = tokio::time::timeout(Duration::from_secs(10), socket.read_to_end(&mut reply)).await;
            (sent, read.map(|r| r.map_err(|e| e.kind())), String::from_utf8_lossy(&reply).into_owned())
        })
    });
    for peer in peers.collect::<Vec<_>>() {
        let (sent, read, reply) = peer.await.expect("peer");
        assert_eq!(sent, Ok(()), "the connection was reset while the body was sent");
        assert!(matches!(read, Ok(Ok(_))), "the reply was lost: {read:?}");
        assert!(reply.starts_with("HTTP/1.1 413"), "{reply:.200}");
    }
}
