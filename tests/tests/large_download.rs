//! A download larger than 100 MiB goes through the client without being held in memory. Its own
//! test binary, so the peak resident set it reads belongs to this download alone.

use portfolio_client::{Client, Credentials};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const SIZE: u64 = 120 * 1024 * 1024;
const CHUNK: usize = 64 * 1024;

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
async fn a_120_mib_download_streams_in_bounded_memory() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = vec![0u8; 8192];
        let _ = socket.read(&mut request).await.unwrap();
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: {SIZE}\r\ncontent-disposition: attachment; filename=\"big.bin\"\r\n\r\n"
        );
        socket.write_all(head.as_bytes()).await.unwrap();
        let mut sent = 0u64;
        let mut chunk = vec![0u8; CHUNK];
        while sent < SIZE {
            let n = CHUNK.min((SIZE - sent) as usize);
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
    assert_eq!(download.content_length, Some(SIZE));
    assert_eq!(download.file_name.as_deref(), Some("big.bin"));
    let mut received = 0u64;
    while let Some(chunk) = download.body.next_chunk().await {
        let chunk = chunk.unwrap();
        for (j, b) in chunk.iter().enumerate() {
            assert_eq!(*b, byte_at(received + j as u64), "byte {}", received + j as u64);
        }
        received += chunk.len() as u64;
    }
    assert_eq!(received, SIZE);
    if let (Some(before), Some(after)) = (before, peak_rss_kib()) {
        let grown_mib = after.saturating_sub(before) as f64 / 1024.0;
        println!(
            "downloaded {} MiB; peak RSS {:.1} MiB -> {:.1} MiB (+{grown_mib:.1} MiB)",
            SIZE >> 20,
            before as f64 / 1024.0,
            after as f64 / 1024.0
        );
        assert!(grown_mib < 32.0, "the download was buffered: peak RSS grew by {grown_mib:.1} MiB");
    }
}
