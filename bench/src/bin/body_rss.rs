//! Peak memory of the generated server while CONNECTIONS peers (default 1000) each hold a request
//! body of 2 MiB one KiB short of complete: `body_rss [CONNECTIONS] [BUDGET_MIB] [chunked]`.
//! BUDGET_MIB is the server's body budget (default: the configured default; `0` for no budget at
//! all, as before there was one). With `chunked`, each body has no declared length and sends one
//! chunk of 400 KB, then waits. Prints how many bodies the server took in, how many peers were
//! turned away with 503, the process's peak resident set, and its resident set once every peer
//! has gone.

use std::sync::Arc;
use std::time::Duration;

use portfolio_bench::{holdings, trivial::Trivial};
use portfolio_server::{ServeConfig, ServerConfig, bind, router_with, serve_with};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Peak resident set size of this process so far, in MiB (Linux).
fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

/// Resident set size of this process now, in MiB (Linux).
fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

const BODY: usize = 2 * 1024 * 1024 - 64;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let connections: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let budget_mib: Option<usize> = args.next().and_then(|a| a.parse().ok());
    let chunked = args.next().as_deref() == Some("chunked");
    let mut config = ServerConfig::default();
    match budget_mib {
        Some(0) => config = config.with_body_budget(usize::MAX),
        Some(mib) => config = config.with_body_budget(mib << 20),
        None => {}
    }
    let budget = config.body_budget;
    let router = router_with(Arc::new(Trivial { holdings: holdings() }), config);
    let serve = ServeConfig::default();
    let listener = bind("127.0.0.1:0", &serve).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_with(listener, router, std::future::pending(), serve));

    let before = peak_rss_mib();
    // One shared body, so the peers themselves add nothing to the resident set.
    let mut body = b"{\"AccountId\":\"".to_vec();
    body.resize(BODY - 2, b'a');
    body.extend_from_slice(b"\"}");
    let body: &'static [u8] = Box::leak(body.into_boxed_slice());
    let framing = if chunked { "transfer-encoding: chunked".to_string() } else { format!("content-length: {BODY}") };
    let head = format!(
        "POST /api/esgcategories HTTP/1.1\r\nhost: x\r\nauthorization: t\r\nx-pps-subscription-key: k\r\nx-pps-api-version: 2022.09.26\r\ncontent-type: application/json\r\n{framing}\r\n\r\n"
    );
    // One chunk of 400 KB (hex length, then the bytes), never finished.
    const CHUNK: usize = 400_000;
    let chunk_head = format!("{CHUNK:x}\r\n");
    let mut peers = Vec::with_capacity(connections);
    for _ in 0..connections {
        let (head, chunk_head) = (head.clone(), chunk_head.clone());
        peers.push(tokio::spawn(async move {
            let mut socket = tokio::net::TcpStream::connect(addr).await.ok()?;
            socket.write_all(head.as_bytes()).await.ok()?;
            // All but the last KiB (the kernel's buffers take it even where the server does not
            // read), then hold. A peer the server turned away has its 503 by the end of the wait.
            let rest = if chunked {
                let chunk_head = chunk_head.clone();
                socket.write_all(chunk_head.as_bytes()).await.ok()?;
                &body[..CHUNK]
            } else {
                &body[..BODY - 1024]
            };
            let _ = tokio::time::timeout(Duration::from_secs(10), socket.write_all(rest)).await;
            let mut reply = [0u8; 12];
            let answered = tokio::time::timeout(Duration::from_secs(3), socket.read_exact(&mut reply)).await;
            let refused = matches!(answered, Ok(Ok(_))) && reply.starts_with(b"HTTP/1.1 503");
            Some((refused, socket))
        }));
    }
    let mut held = Vec::new();
    let mut refused = 0;
    for peer in peers {
        match peer.await.ok().flatten() {
            Some((true, _)) => refused += 1,
            Some((false, socket)) => held.push(socket),
            None => {}
        }
    }
    // Let whatever the server is still reading arrive.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let budget = if budget == usize::MAX { "none".to_string() } else { format!("{} MiB", budget >> 20) };
    let (open, peak) = (held.len(), peak_rss_mib());
    drop(held);
    tokio::time::sleep(Duration::from_secs(3)).await;
    let kind = if chunked { "400 KB chunks of bodies of unknown length" } else { "2 MiB bodies" };
    println!(
        "{connections} peers with {kind}, budget {budget}: {open} held their bodies open, {refused} were answered 503; peak RSS {before:.1} MiB -> {peak:.1} MiB, {:.1} MiB once they left",
        rss_mib()
    );
}
