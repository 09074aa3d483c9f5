//! The client against a server that misbehaves in every way we could think of: each reply maps to
//! the right `Error` variant, and nothing panics or hangs.

use std::time::Duration;

use portfolio_client::types::ClassificationType;
use portfolio_client::{Client, Credentials, DateTime, Error};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// What the server does after reading a request.
#[derive(Clone)]
enum Behaviour {
    /// Writes these bytes verbatim, then closes.
    Raw(Vec<u8>),
    /// Waits, then writes the bytes.
    Slow(Duration, Vec<u8>),
    /// Closes the connection without a word.
    Hangup,
}

async fn serve(behaviour: Behaviour) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let behaviour = behaviour.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 65536];
                let mut seen = Vec::new();
                while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => seen.extend_from_slice(&buf[..n]),
                    }
                }
                match behaviour {
                    Behaviour::Raw(bytes) => {
                        let _ = socket.write_all(&bytes).await;
                    }
                    Behaviour::Slow(delay, bytes) => {
                        tokio::time::sleep(delay).await;
                        let _ = socket.write_all(&bytes).await;
                    }
                    Behaviour::Hangup => {}
                }
                let _ = socket.shutdown().await;
            });
        }
    });
    format!("http://{addr}")
}

fn reply(status: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

fn client(base: &str) -> Client {
    let http = portfolio_client::reqwest::Client::builder().timeout(Duration::from_millis(500)).build().unwrap();
    Client::with_http_client(http, base, Credentials::new("t", "k")).unwrap()
}

async fn holdings(base: &str) -> Result<Vec<portfolio_client::types::HoldingData>, Error> {
    let date = DateTime::parse("2024-06-30T00:00:00Z").unwrap();
    // Bounded even if the client had no timeout: a hang fails the test instead of stalling CI.
    tokio::time::timeout(
        Duration::from_secs(10),
        client(base).get_au_holdings(["A1"], date, ClassificationType::MarketType),
    )
    .await
    .expect("the client returned within its timeout")
}

#[tokio::test]
async fn wrong_success_status_is_a_status_error() {
    let base = serve(Behaviour::Raw(reply("201 Created", "application/json", b"[]"))).await;
    let err = holdings(&base).await.unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(201), "{err:?}");
}

#[tokio::test]
async fn problem_bodies_are_parsed_and_other_bodies_kept() {
    let base = serve(Behaviour::Raw(reply(
        "429 Too Many Requests",
        "application/problem+json",
        br#"{"title":"Slow down","status":429}"#,
    )))
    .await;
    let err = holdings(&base).await.unwrap_err();
    assert_eq!(err.problem().and_then(|p| p.title.as_deref()), Some("Slow down"));

    let base = serve(Behaviour::Raw(reply("500 Internal Server Error", "text/html", b"<html>oops</html>"))).await;
    let err = holdings(&base).await.unwrap_err();
    assert!(err.problem().is_none());
    let Error::Status(status) = err else { panic!() };
    assert_eq!(&status.body[..], b"<html>oops</html>");

    // A JSON error body that is not a problem object is kept raw too.
    let base = serve(Behaviour::Raw(reply("400 Bad Request", "application/json", b"[1,2,3]"))).await;
    let err = holdings(&base).await.unwrap_err();
    assert!(err.problem().is_none(), "{err:?}");
}

#[tokio::test]
async fn truncated_and_mistyped_json_are_decode_errors() {
    for body in [&br#"[{"AccountId":"A1","Hold"#[..], br#"{"not":"an array"}"#, br#"[{"AccountId":42}]"#, b"", b"null"]
    {
        let base = serve(Behaviour::Raw(reply("200 OK", "application/json", body))).await;
        let err = holdings(&base).await.unwrap_err();
        assert!(matches!(err, Error::Decode { .. }), "{}: {err:?}", String::from_utf8_lossy(body));
    }
}

#[tokio::test]
async fn a_body_shorter_than_its_content_length_is_a_transport_error() {
    let mut bytes = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n".to_vec();
    bytes.extend_from_slice(b"[{\"AccountId\":\"A1\"}");
    let base = serve(Behaviour::Raw(bytes)).await;
    let err = holdings(&base).await.unwrap_err();
    assert!(matches!(err, Error::Transport { .. }), "{err:?}");
}

#[tokio::test]
async fn huge_bodies_do_not_break_the_client() {
    let mut body = b"[".to_vec();
    for i in 0..200_000 {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(br#"{"AccountId":"A1"}"#);
    }
    body.push(b']');
    let base = serve(Behaviour::Raw(reply("200 OK", "application/json", &body))).await;
    let holdings = holdings(&base).await.unwrap();
    assert_eq!(holdings.len(), 200_000);
}

#[tokio::test]
async fn slow_replies_time_out() {
    let base = serve(Behaviour::Slow(Duration::from_secs(5), reply("200 OK", "application/json", b"[]"))).await;
    let err = holdings(&base).await.unwrap_err();
    assert!(err.is_timeout(), "{err:?}");
}

#[tokio::test]
async fn dropped_connections_and_garbage_are_transport_errors() {
    let base = serve(Behaviour::Hangup).await;
    assert!(matches!(holdings(&base).await.unwrap_err(), Error::Transport { .. }));
    let base = serve(Behaviour::Raw(b"this is not http\r\n\r\n".to_vec())).await;
    assert!(matches!(holdings(&base).await.unwrap_err(), Error::Transport { .. }));
    let base = "http://127.0.0.1:9";
    assert!(matches!(holdings(base).await.unwrap_err(), Error::Transport { .. }));
}

#[tokio::test]
async fn status_errors_print_their_field_errors_once_and_bounded() {
    let problem = br#"{"title":"Invalid request","status":400,"detail":"`Size` is invalid","errors":{"Size":["must be at least 1, got 0"]}}"#;
    let base = serve(Behaviour::Raw(reply("400 Bad Request", "application/problem+json", problem))).await;
    let err = holdings(&base).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "GetAUHoldings: the server answered 400 Bad Request: Invalid request (`Size` is invalid): Size: must be at least 1, got 0"
    );
    // The message is whole, so a printed chain of sources adds nothing and repeats nothing.
    assert!(std::error::Error::source(&err).is_none());

    let many: Vec<String> = (0..20).map(|i| format!(r#""F{i:02}":["{}"]"#, "x".repeat(500))).collect();
    let problem = format!(r#"{{"title":"Invalid request","status":400,"errors":{{{}}}}}"#, many.join(","));
    let base = serve(Behaviour::Raw(reply("400 Bad Request", "application/problem+json", problem.as_bytes()))).await;
    let message = holdings(&base).await.unwrap_err().to_string();
    assert!(message.contains("F00: xxx") && message.contains("; and 15 more"), "{message}");
    assert!(message.len() < 1200, "{} characters", message.len());
}

#[tokio::test]
async fn status_errors_say_what_the_server_said_in_any_shape_on_one_bounded_line() {
    // A document's own error shape: no title or detail, a message.
    let body = br#"{"code":"not_found","message":"no holdings for account 42"}"#;
    let base = serve(Behaviour::Raw(reply("404 Not Found", "application/json", body))).await;
    let message = holdings(&base).await.unwrap_err().to_string();
    assert_eq!(message, "GetAUHoldings: the server answered 404 Not Found: no holdings for account 42");

    // Line breaks a server sends cannot start a line of their own in a log, and length is bounded.
    let problem = format!(r#"{{"title":"Bad\nINFO forged line","detail":"{}"}}"#, "d".repeat(5000));
    let base = serve(Behaviour::Raw(reply("400 Bad Request", "application/problem+json", problem.as_bytes()))).await;
    let message = holdings(&base).await.unwrap_err().to_string();
    assert!(!message.contains('\n') && message.contains("BadINFO forged line"), "{message}");
    assert!(message.contains("ddd...)") && message.len() < 400, "{} characters: {message}", message.len());
}

#[tokio::test]
async fn a_download_that_trickles_ends_at_the_minimum_rate() {
    // A head, then a byte every 20 ms for ever: each byte ends an idle wait, so only the rate
    // can end it.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = vec![0u8; 65536];
                let _ = socket.read(&mut buf).await;
                let head =
                    "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ntransfer-encoding: chunked\r\n\r\n";
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                while socket.write_all(b"1\r\nx\r\n").await.is_ok() {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            });
        }
    });
    let client = Client::builder(&base, Credentials::new("t", "k"))
        .min_download_rate(1000, Duration::from_millis(400))
        .build()
        .unwrap();
    let mut download = client.download_au_file("F1").await.expect("the head arrives");
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match download.body.next_chunk().await {
                Some(Ok(_)) => continue,
                Some(Err(e)) => break e,
                None => panic!("the trickle has no end"),
            }
        }
    });
    let error = ended.await.expect("ended by its rate, not by the test");
    assert!(
        matches!(error, Error::Timeout { kind: portfolio_client::TimeoutKind::DownloadRate(1000), .. }),
        "{error:?}"
    );
}
