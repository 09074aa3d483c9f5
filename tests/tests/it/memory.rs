//! Memory a call may take, read from the peak resident set: a 2 GiB JSON reply costs the client no
//! more than its reply limit, and a download larger than 100 MiB is never held whole. Each test
//! runs again in a process of its own, so the peak it reads belongs to its call alone.

use std::process::Command;
use std::time::Duration;

use portfolio_client::types::ClassificationType;
use portfolio_client::{Client, Credentials, DEFAULT_MAX_REPLY_SIZE, DateTime, Error};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const REPLY_SIZE: u64 = 2 * 1024 * 1024 * 1024;
const REPLY_CHUNK: usize = 256 * 1024;
const DOWNLOAD_SIZE: u64 = 120 * 1024 * 1024;
const DOWNLOAD_CHUNK: usize = 64 * 1024;

/// Set in the process a test runs again in.
const ALONE: &str = "PORTFOLIO_TESTS_ALONE";

/// Whether the caller, the test `name` of this module, should run its body here: in the process
/// this binary starts for that test alone, yes; otherwise it starts that process, which must run
/// exactly that one test and pass, and answers no.
fn in_own_process(name: &str) -> bool {
    if std::env::var_os(ALONE).is_some() {
        return true;
    }
    let test = format!("{}::{name}", module_path!().split_once("::").map_or("", |(_, rest)| rest));
    let exe = std::env::current_exe().expect("the test binary's path");
    let output = Command::new(exe)
        .args([test.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(ALONE, "1")
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&output.stdout);
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{test} failed in a process of its own");
    assert!(stdout.contains("test result: ok. 1 passed"), "{test} did not run in a process of its own");
    false
}

/// Peak resident set size of this process so far, in KiB (Linux).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn byte_at(i: u64) -> u8 {
    (i % 251) as u8
}

#[tokio::test]
async fn a_2_gib_reply_is_refused_within_the_limit() {
    if !in_own_process("a_2_gib_reply_is_refused_within_the_limit") {
        return;
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let sent = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = vec![0u8; 8192];
        let _ = socket.read(&mut request).await.unwrap();
        // Chunked, so the client cannot refuse it from its length and must count.
        let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
        socket.write_all(head.as_bytes()).await.unwrap();
        let mut chunk = format!("{REPLY_CHUNK:x}\r\n[").into_bytes();
        chunk.extend(std::iter::repeat_n(b' ', REPLY_CHUNK - 1));
        chunk.extend_from_slice(b"\r\n");
        let mut sent = 0u64;
        while sent < REPLY_SIZE && socket.write_all(&chunk).await.is_ok() {
            sent += REPLY_CHUNK as u64;
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
    assert!(sent < REPLY_SIZE, "the client read the whole reply");
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

#[tokio::test]
async fn a_120_mib_download_streams_in_bounded_memory() {
    if !in_own_process("a_120_mib_download_streams_in_bounded_memory") {
        return;
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = vec![0u8; 8192];
        let _ = socket.read(&mut request).await.unwrap();
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: {DOWNLOAD_SIZE}\r\ncontent-disposition: attachment; filename=\"big.bin\"\r\n\r\n"
        );
        socket.write_all(head.as_bytes()).await.unwrap();
        let mut sent = 0u64;
        let mut chunk = vec![0u8; DOWNLOAD_CHUNK];
        while sent < DOWNLOAD_SIZE {
            let n = DOWNLOAD_CHUNK.min((DOWNLOAD_SIZE - sent) as usize);
            for (j, b) in chunk[..n].iter_mut().enumerate() {
                *b = byte_at(sent + j as u64);
            }
            socket.write_all(&chunk[..n]).await.unwrap();
            sent += n as u64;
        }
    });

    let before = peak_rss_kib();
    let client = Client::new(&base, Credentials::new("t", "k")).unwrap();
    let mut download = client.download_au_file("F1").await.unwrap();
    assert_eq!(download.content_length, Some(DOWNLOAD_SIZE));
    assert_eq!(download.file_name.as_deref(), Some("big.bin"));
    let mut received = 0u64;
    while let Some(chunk) = download.body.next_chunk().await {
        let chunk = chunk.unwrap();
        for (j, b) in chunk.iter().enumerate() {
            assert_eq!(*b, byte_at(received + j as u64), "byte {}", received + j as u64);
        }
        received += chunk.len() as u64;
    }
    assert_eq!(received, DOWNLOAD_SIZE);
    if let (Some(before), Some(after)) = (before, peak_rss_kib()) {
        let grown_mib = after.saturating_sub(before) as f64 / 1024.0;
        println!(
            "downloaded {} MiB; peak RSS {:.1} MiB -> {:.1} MiB (+{grown_mib:.1} MiB)",
            DOWNLOAD_SIZE >> 20,
            before as f64 / 1024.0,
            after as f64 / 1024.0
        );
        assert!(grown_mib < 32.0, "the download was buffered: peak RSS grew by {grown_mib:.1} MiB");
    }
}
