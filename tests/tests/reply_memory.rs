//! A 2 GiB JSON reply costs the client no more memory than its reply limit. Its own test binary,
//! so the peak resident set it reads belongs to this call alone.

use std::time::Duration;

use portfolio_client::types::ClassificationType;
use portfolio_client::{Client, Credentials, DEFAULT_MAX_REPLY_SIZE, DateTime, Error};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const SIZE: u64 = 2 * 1024 * 1024 * 1024;
const CHUNK: usize = 256 * 1024;

/// Peak resident set size of this process so far, in KiB (Linux).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[tokio::test]
async fn a_2_gib_reply_is_refused_within_the_limit() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let sent = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = vec![0u8; 8192];
        let _ = socket.read(&mut request).await.unwrap();
        // Chunked, so the client cannot refuse it from its length and must count.
        let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
        socket.write_all(head.as_bytes()).await.unwrap();
        let mut chunk = format!("{CHUNK:x}\r\n[").into_bytes();
        chunk.extend(std::iter::repeat_n(b' ', CHUNK - 1));
        chunk.extend_from_slice(b"\r\n");
        let mut sent = 0u64;
        while sent < SIZE && socket.write_all(&chunk).await.is_ok() {
            sent += CHUNK as u64;
        }
        sent
    });

    let before = peak_rss_kib();
    let client = Client::new(&base, Credentials::new("t", "k")).unwrap();
    let date = DateTime::parse("2024-06-30").unwrap();
    let call = client.get_au_holdings(["A1"], date, ClassificationType::MarketType);
    let err = tokio::time::timeout(Duration::from_secs(60), call).await.expect("the call ends").unwrap_err();
    assert!(matches!(err, Error::BodyTooLarge { limit: DEFAULT_MAX_REPLY_SIZE, .. }), "{err:?}");
    let sent = sent.await.unwrap();
    assert!(sent < SIZE, "the client read the whole reply");
    if let (Some(before), Some(after)) = (before, peak_rss_kib()) {
        let grown_mib = after.saturating_sub(before) as f64 / 1024.0;
        let limit_mib = (DEFAULT_MAX_REPLY_SIZE >> 20) as f64;
        println!(
            "2 GiB reply against a {limit_mib} MiB limit: server wrote {} MiB before the client hung up; peak RSS {:.1} MiB -> {:.1} MiB (+{grown_mib:.1} MiB)",
            sent >> 20,
            before as f64 / 1024.0,
            after as f64 / 1024.0
        );
        assert!(grown_mib < 2.0 * limit_mib, "peak RSS grew by {grown_mib:.1} MiB for a {limit_mib} MiB limit");
    }
}
