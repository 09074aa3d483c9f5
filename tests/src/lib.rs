//! Helpers shared by the end-to-end tests under `tests/`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Root of the workspace, for tests that read checked-in files such as `spec/openapi.yaml`.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits below the workspace root")
        .to_path_buf()
}

/// Text of the contract, `spec/openapi.yaml`.
pub fn spec_text() -> String {
    let path = workspace_root().join("spec/openapi.yaml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// One request exactly as it arrived on the socket.
#[derive(Debug, Clone)]
pub struct RawRequest {
    pub method: String,
    /// The request target: path and query, still percent-encoded.
    pub target: String,
    /// Header names lower-cased, in arrival order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RawRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    pub fn header_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        names.sort();
        names
    }
}

/// A canned reply: status line details, headers and body.
#[derive(Debug, Clone)]
pub struct RawReply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RawReply {
    pub fn json(status: u16, body: &str) -> Self {
        RawReply {
            status,
            headers: vec![("content-type".into(), "application/json; charset=utf-8".into())],
            body: body.as_bytes().to_vec(),
        }
    }

    pub fn problem(status: u16, body: &str) -> Self {
        RawReply {
            status,
            headers: vec![("content-type".into(), "application/problem+json".into())],
            body: body.as_bytes().to_vec(),
        }
    }

    pub fn empty(status: u16) -> Self {
        RawReply { status, headers: Vec::new(), body: Vec::new() }
    }
}

/// A server on 127.0.0.1 that records every request byte for byte and answers each with the same
/// canned reply: a view of the wire that does not depend on any HTTP library's parsing.
pub struct RawServer {
    pub addr: SocketAddr,
    requests: Arc<Mutex<Vec<RawRequest>>>,
}

impl RawServer {
    pub async fn start(reply: RawReply) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
        let addr = listener.local_addr().expect("bound address");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let seen = seen.clone();
                let reply = reply.clone();
                tokio::spawn(async move {
                    if let Some(request) = read_request(&mut socket).await {
                        seen.lock().unwrap().push(request);
                        let mut head = format!(
                            "HTTP/1.1 {} X\r\ncontent-length: {}\r\nconnection: close\r\n",
                            reply.status,
                            reply.body.len()
                        );
                        for (name, value) in &reply.headers {
                            head.push_str(&format!("{name}: {value}\r\n"));
                        }
                        head.push_str("\r\n");
                        let _ = socket.write_all(head.as_bytes()).await;
                        let _ = socket.write_all(&reply.body).await;
                        let _ = socket.shutdown().await;
                    }
                });
            }
        });
        RawServer { addr, requests }
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<RawRequest> {
        self.requests.lock().unwrap().clone()
    }

    /// The only request received; fails the test when there were more or none.
    pub fn only_request(&self) -> RawRequest {
        let all = self.requests();
        assert_eq!(all.len(), 1, "expected exactly one request, got {all:#?}");
        all.into_iter().next().unwrap()
    }
}

async fn read_request(socket: &mut tokio::net::TcpStream) -> Option<RawRequest> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos;
        }
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8(buf[..head_end].to_vec()).ok()?;
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let method = request_line.next()?.to_string();
    let target = request_line.next()?.to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize =
        headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(RawRequest { method, target, headers, body })
}

/// The README, whose Rust snippets `cargo test` compiles as doctests so they cannot drift from the
/// code they show.
#[doc = include_str!("../../README.md")]
pub mod readme {}
