//! Peak memory of the client while a server sends a JSON reply of SIZE MiB (default 2048) that
//! never ends as JSON, chunked so that no length warns the client: `reply_rss [SIZE_MIB]`.
//! Prints how the call ended, how much the server wrote, and the process's peak resident set.

use std::time::Instant;

use portfolio_client::types::ClassificationType;
use portfolio_client::{Client, Credentials, DateTime};
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

#[tokio::main]
async fn main() {
    let size: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2048) << 20;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = vec![0u8; 8192];
        let _ = socket.read(&mut request).await;
        let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
        socket.write_all(head.as_bytes()).await.unwrap();
        const CHUNK: usize = 256 * 1024;
        let mut chunk = format!("{CHUNK:x}\r\n[").into_bytes();
        chunk.extend(std::iter::repeat_n(b' ', CHUNK - 1));
        chunk.extend_from_slice(b"\r\n");
        let mut sent = 0u64;
        while sent < size && socket.write_all(&chunk).await.is_ok() {
            sent += CHUNK as u64;
        }
        let _ = socket.write_all(b"0\r\n\r\n").await;
        sent
    });
    let before = peak_rss_mib();
    let started = Instant::now();
    let client = Client::new(&base, Credentials::new("t", "k")).unwrap();
    let date = DateTime::parse("2024-06-30").unwrap();
    let result = client.get_au_holdings(["A1"], date, ClassificationType::MarketType).await;
    let ended = match &result {
        Ok(_) => "decoded".to_string(),
        Err(e) => e.to_string().chars().take(120).collect(),
    };
    let sent = server.await.unwrap();
    println!(
        "reply of {} MiB: the server wrote {} MiB; the call ended after {:.2} s with: {ended}; peak RSS {before:.1} MiB -> {:.1} MiB",
        size >> 20,
        sent >> 20,
        started.elapsed().as_secs_f64(),
        peak_rss_mib()
    );
}
