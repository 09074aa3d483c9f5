//! The client against peers that try to take more than a call should give: a redirect to another
//! origin, replies that never end, servers that never answer or ask to be retried much later.

use std::time::{Duration, Instant};

use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use portfolio_client::types::{ClassificationType, DraftApplicant, DraftApplication, HoldingData};
use portfolio_client::{Client, Credentials, DateTime, Error, TimeoutKind};
use portfolio_tests::{RawReply, RawServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

fn date() -> DateTime {
    DateTime::parse("2024-06-30T00:00:00Z").unwrap()
}

async fn holdings(client: &Client) -> Result<Vec<HoldingData>, Error> {
    // Bounded from outside too: a hang fails the test instead of stalling CI.
    tokio::time::timeout(
        Duration::from_secs(20),
        client.get_au_holdings(["A1"], date(), ClassificationType::MarketType),
    )
    .await
    .expect("the call ends on its own")
}

/// Serves `router` on an ephemeral loopback port; returns its base URL.
async fn serve(router: axum::Router) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

#[tokio::test]
async fn redirects_to_another_origin_are_not_followed() {
    let elsewhere = RawServer::start(RawReply::json(200, "[]")).await;
    let target = format!("{}/capture?stolen=1", elsewhere.base_url());
    for status in [301u16, 302, 303, 307, 308] {
        let redirect =
            RawServer::start(RawReply { status, headers: vec![("location".into(), target.clone())], body: Vec::new() })
                .await;
        let client = Client::new(&redirect.base_url(), Credentials::new("secret-token", "secret-key")).unwrap();
        let err = holdings(&client).await.unwrap_err();
        assert_eq!(err.status().map(|s| s.as_u16()), Some(status), "{err}");
        let Error::Status(status_error) = &err else { unreachable!() };
        assert_eq!(status_error.headers.get(header::LOCATION).unwrap(), target.as_str());
        // A POST with a body is not re-sent elsewhere either.
        let err = client
            .create_draft_application()
            .body(DraftApplication::new(1, vec![DraftApplicant::default()]))
            .await
            .unwrap_err();
        assert_eq!(err.status().map(|s| s.as_u16()), Some(status), "{err}");
    }
    assert!(elsewhere.requests().is_empty(), "another origin received {:#?}", elsewhere.requests());

    // The safe settings hold for a reqwest client built from the client's own starting point.
    let redirect =
        RawServer::start(RawReply { status: 307, headers: vec![("location".into(), target)], body: Vec::new() }).await;
    let http = Client::http_client_builder().build().unwrap();
    let client = Client::with_http_client(http, &redirect.base_url(), Credentials::new("t", "k")).unwrap();
    assert_eq!(holdings(&client).await.unwrap_err().status().map(|s| s.as_u16()), Some(307));
    assert!(elsewhere.requests().is_empty());
}

#[tokio::test]
async fn redirects_within_the_origin_are_followed_with_credentials() {
    async fn moved() -> impl IntoResponse {
        (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, "/moved/holdings")])
    }
    async fn holdings_here(headers: HeaderMap) -> impl IntoResponse {
        let key = headers.get("x-pps-subscription-key").and_then(|v| v.to_str().ok()).unwrap_or("");
        let body = format!(r#"[{{"AccountId":"{key}"}}]"#);
        ([(header::CONTENT_TYPE, "application/json")], body)
    }
    let router = axum::Router::new()
        .route("/api/holdings", axum::routing::get(moved))
        .route("/moved/holdings", axum::routing::get(holdings_here));
    let base = serve(router).await;
    let client = Client::new(&base, Credentials::new("t", "key-1")).unwrap();
    let holdings = holdings(&client).await.unwrap();
    assert_eq!(holdings[0].account_id.as_deref(), Some("key-1"));
}

/// A reply of `status` whose body never ends (chunked, no length).
async fn endless(status: u16, content_type: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = vec![0u8; 8192];
                let _ = socket.read(&mut request).await;
                let head = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\n\r\n"
                );
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                let mut chunk = format!("{:x}\r\n", 64 * 1024).into_bytes();
                chunk.extend(std::iter::repeat_n(b' ', 64 * 1024));
                chunk.extend_from_slice(b"\r\n");
                while socket.write_all(&chunk).await.is_ok() {}
            });
        }
    });
    base
}

#[tokio::test]
async fn endless_replies_stop_at_the_limits() {
    let limit = 4 * 1024 * 1024;
    let base = endless(200, "application/json").await;
    let client = Client::builder(&base, Credentials::new("t", "k")).max_reply_size(limit).build().unwrap();
    let err = holdings(&client).await.unwrap_err();
    assert!(matches!(err, Error::BodyTooLarge { limit: l, .. } if l == limit), "{err:?}");
    assert!(err.to_string().contains("GetAUHoldings"), "{err}");

    // Error bodies keep their start, on JSON and download operations alike.
    let base = endless(500, "text/plain").await;
    let client = Client::builder(&base, Credentials::new("t", "k")).max_error_body(1000).build().unwrap();
    for err in [holdings(&client).await.unwrap_err(), client.download_au_file("F1").await.unwrap_err()] {
        let Error::Status(status) = &err else { panic!("{err:?}") };
        assert_eq!(status.status, 500);
        assert_eq!(status.body.len(), 1000);
        assert!(status.truncated);
        let debug = format!("{err:?}");
        assert!(debug.len() < 2000, "Debug prints the whole body: {} bytes", debug.len());
        assert!(debug.contains("(1000 bytes in all)"), "{debug}");
    }
}

#[tokio::test]
async fn a_declared_length_over_the_limit_is_refused_before_reading() {
    let server = RawServer::start(RawReply::json(200, &format!("[{}]", " ".repeat(2 * 1024 * 1024)))).await;
    let client = Client::builder(&server.base_url(), Credentials::new("t", "k")).max_reply_size(1024).build().unwrap();
    let err = holdings(&client).await.unwrap_err();
    assert!(matches!(err, Error::BodyTooLarge { limit: 1024, .. }), "{err:?}");
}

/// A server that answers every request with `status` and `Retry-After: retry_after`, counting them.
async fn busy(retry_after: &str) -> RawServer {
    RawServer::start(RawReply {
        status: 503,
        headers: vec![("retry-after".into(), retry_after.into()), ("content-type".into(), "text/plain".into())],
        body: b"busy".to_vec(),
    })
    .await
}

#[tokio::test]
async fn the_timeout_bounds_the_whole_call_with_its_retries() {
    // Retry-After 1 s with a 2.5 s deadline: two retries fit, a third would not, so the call ends
    // with the status after about 2 s instead of waiting on.
    let server = busy("1").await;
    let client = Client::builder(&server.base_url(), Credentials::new("t", "k"))
        .timeout(Duration::from_millis(2500))
        .build()
        .unwrap();
    let started = Instant::now();
    let err = holdings(&client).await.unwrap_err();
    let elapsed = started.elapsed();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(503), "{err}");
    assert!(elapsed < Duration::from_millis(2600), "took {elapsed:?}");
    assert_eq!(server.requests().len(), 3, "first attempt and two retries within 2.5 s");

    // Asked to wait longer than the time left or than the policy allows: the status, at once.
    for retry_after in ["5", "3600", "Fri, 31 Dec 2100 23:59:59 GMT"] {
        let server = busy(retry_after).await;
        let client = Client::builder(&server.base_url(), Credentials::new("t", "k"))
            .timeout(Duration::from_secs(2))
            .build()
            .unwrap();
        let started = Instant::now();
        let err = holdings(&client).await.unwrap_err();
        assert_eq!(err.status().map(|s| s.as_u16()), Some(503), "{retry_after}: {err}");
        assert!(started.elapsed() < Duration::from_millis(500), "{retry_after}: took {:?}", started.elapsed());
        assert_eq!(server.requests().len(), 1, "{retry_after}: never retried sooner than asked");
    }
    let server = busy("3600").await;
    let client = Client::builder(&server.base_url(), Credentials::new("t", "k")).no_timeout().build().unwrap();
    assert_eq!(holdings(&client).await.unwrap_err().status().map(|s| s.as_u16()), Some(503));
}

/// A server that accepts connections and reads requests but never answers.
async fn silent() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut sink = vec![0u8; 8192];
                while matches!(socket.read(&mut sink).await, Ok(n) if n > 0) {}
            });
        }
    });
    base
}

#[tokio::test]
async fn a_silent_server_times_out_with_a_message_that_says_so() {
    let base = silent().await;
    let client =
        Client::builder(&base, Credentials::new("t", "k")).timeout(Duration::from_millis(300)).build().unwrap();
    let started = Instant::now();
    let err = holdings(&client).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2), "took {:?}", started.elapsed());
    assert!(
        matches!(err, Error::Timeout { kind: TimeoutKind::Call(limit), .. } if limit == Duration::from_millis(300)),
        "{err:?}"
    );
    assert!(err.is_timeout());
    let message = err.to_string();
    assert!(message.starts_with("GetAUHoldings: timed out after "), "{message}");
    assert!(message.contains("the call's timeout is 300ms"), "{message}");

    // A call's own timeout takes precedence; a read timeout ends a stall without a call deadline.
    let started = Instant::now();
    let err = client
        .get_au_holdings(["A1"], date(), ClassificationType::MarketType)
        .timeout(Duration::from_millis(100))
        .await;
    assert!(matches!(err, Err(Error::Timeout { .. })), "{err:?}");
    assert!(started.elapsed() < Duration::from_millis(290), "took {:?}", started.elapsed());
    let client = Client::builder(&base, Credentials::new("t", "k"))
        .no_timeout()
        .read_timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    let err = holdings(&client).await.unwrap_err();
    assert!(matches!(err, Error::Timeout { kind: TimeoutKind::Read, .. }), "{err:?}");
    assert!(err.to_string().contains("no data from the server"), "{err}");
}

#[test]
fn clients_have_timeouts_unless_told_otherwise() {
    let debug = format!("{:?}", Client::builder("http://127.0.0.1:1", Credentials::new("t", "k")));
    assert!(debug.contains("timeout: Some(30s)"), "{debug}");
    assert!(debug.contains("connect_timeout: 10s"), "{debug}");
    let debug = format!("{:?}", Client::builder("http://127.0.0.1:1", Credentials::new("t", "k")).no_timeout());
    assert!(debug.contains("timeout: None"), "{debug}");
}

#[tokio::test]
async fn download_file_names_are_offered_sanitised() {
    let server = RawServer::start(RawReply {
        status: 200,
        headers: vec![
            ("content-type".into(), "application/octet-stream".into()),
            ("content-disposition".into(), "attachment; filename=\"../../etc/passwd\"".into()),
        ],
        body: b"x".to_vec(),
    })
    .await;
    let client = Client::new(&server.base_url(), Credentials::new("t", "k")).unwrap();
    let download = client.download_au_file("F1").await.unwrap();
    assert_eq!(download.file_name.as_deref(), Some("../../etc/passwd"));
    assert_eq!(download.safe_file_name().as_deref(), Some("passwd"));
}

/// A download of `chunks` HTTP chunks, `pause` apart, and no declared length.
async fn dripping_download(chunks: usize, size: usize, pause: Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = vec![0u8; 8192];
                let _ = socket.read(&mut request).await;
                let head =
                    "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ntransfer-encoding: chunked\r\n\r\n";
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                let mut chunk = format!("{size:x}\r\n").into_bytes();
                chunk.extend(std::iter::repeat_n(b'x', size));
                chunk.extend_from_slice(b"\r\n");
                for _ in 0..chunks {
                    if socket.write_all(&chunk).await.is_err() {
                        return;
                    }
                    tokio::time::sleep(pause).await;
                }
                let _ = socket.write_all(b"0\r\n\r\n").await;
            });
        }
    });
    base
}

#[tokio::test]
async fn downloads_are_bounded_by_their_own_time_and_size_limits() {
    // One byte every 20 ms would take 20 s: the stream's total time ends it.
    let base = dripping_download(1000, 1, Duration::from_millis(20)).await;
    let client =
        Client::builder(&base, Credentials::new("t", "k")).stream_timeout(Duration::from_millis(400)).build().unwrap();
    let mut download = client.download_au_file("F1").await.unwrap();
    let started = Instant::now();
    let mut received = 0;
    let error = loop {
        match download.body.next_chunk().await.expect("the stream ends with an error, not quietly") {
            Ok(chunk) => received += chunk.len(),
            Err(error) => break error,
        }
    };
    assert!(
        matches!(error, Error::Timeout { kind: TimeoutKind::StreamTotal(limit), .. } if limit == Duration::from_millis(400)),
        "{error:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(2) && received < 40, "{received} bytes in {:?}", started.elapsed());
    assert!(download.body.next_chunk().await.is_none(), "over after the timeout");

    // A server that goes quiet between chunks: the wait for the next one runs out.
    let base = dripping_download(3, 10, Duration::from_secs(5)).await;
    let client = Client::builder(&base, Credentials::new("t", "k"))
        .stream_idle_timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let mut download = client.download_au_file("F1").await.unwrap();
    assert_eq!(download.body.next_chunk().await.unwrap().unwrap().len(), 10);
    let error = download.body.next_chunk().await.unwrap().unwrap_err();
    assert!(matches!(error, Error::Timeout { kind: TimeoutKind::StreamIdle(_), .. }), "{error:?}");

    // `collect` reads at most `max_reply_size`; chunk by chunk, `max_stream_size` applies.
    let base = dripping_download(64, 16 * 1024, Duration::ZERO).await;
    let client = Client::builder(&base, Credentials::new("t", "k")).max_reply_size(100_000).build().unwrap();
    let error = client.download_au_file("F1").await.unwrap().body.collect().await.unwrap_err();
    assert!(matches!(error, Error::BodyTooLarge { limit: 100_000, .. }), "{error:?}");
    let client = Client::builder(&base, Credentials::new("t", "k")).build().unwrap();
    assert_eq!(client.download_au_file("F1").await.unwrap().body.collect().await.unwrap().len(), 64 * 16 * 1024);
    let client = Client::builder(&base, Credentials::new("t", "k")).max_stream_size(200_000).build().unwrap();
    let mut download = client.download_au_file("F1").await.unwrap();
    let mut received = 0;
    let error = loop {
        match download.body.next_chunk().await.expect("an outcome") {
            Ok(chunk) => received += chunk.len(),
            Err(error) => break error,
        }
    };
    assert!(matches!(error, Error::BodyTooLarge { limit: 200_000, .. }), "{error:?}");
    assert!(received <= 200_000, "{received}");
}

#[tokio::test]
async fn extreme_settings_are_refused_or_honoured_without_panics() {
    // Settings that cannot work are refused by `build`, naming the setting.
    let refused = |builder: portfolio_client::ClientBuilder| match builder.build() {
        Err(Error::InvalidArgument { name, .. }) => name,
        other => panic!("{other:?}"),
    };
    let builder = || Client::builder("http://127.0.0.1:1", Credentials::new("t", "k"));
    for (rate, _) in [(1e-20, "too slow"), (0.0, "zero"), (-1.0, "negative"), (f64::NAN, "not a number")] {
        assert_eq!(refused(builder().rate_limit(rate)), "rate_limit", "{rate}");
    }
    assert_eq!(refused(builder().timeout(Duration::ZERO)), "timeout");
    assert_eq!(refused(builder().read_timeout(Duration::ZERO)), "read_timeout");
    assert_eq!(refused(builder().max_reply_size(0)), "max_reply_size");
    assert!(builder().rate_limit(1e300).build().is_ok(), "a rate too fast to matter is no limit");

    // The largest values mean "no limit": a call works under them.
    let server = RawServer::start(RawReply::json(200, "[]")).await;
    let client = Client::builder(&server.base_url(), Credentials::new("t", "k"))
        .timeout(Duration::MAX)
        .connect_timeout(Duration::MAX)
        .read_timeout(Duration::MAX)
        .stream_idle_timeout(Duration::MAX)
        .stream_timeout(Duration::MAX)
        .max_reply_size(u64::MAX)
        .max_error_body(u64::MAX)
        .max_stream_size(u64::MAX)
        .build()
        .unwrap();
    assert_eq!(holdings(&client).await.unwrap(), Vec::new());
    let downloaded = client.download_au_file("F1").await.unwrap().body.collect().await.unwrap();
    assert_eq!(downloaded, b"[]");

    // A server declaring a body of 2^63-1 bytes: nothing is sized for it up front.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = vec![0u8; 8192];
                let _ = socket.read(&mut request).await;
                let head =
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 9223372036854775807\r\n\r\n[";
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(&[b' '; 64 * 1024]).await;
                let _ = socket.write_all(b"]").await;
            });
        }
    });
    let client = Client::builder(&base, Credentials::new("t", "k")).max_reply_size(u64::MAX).build().unwrap();
    let err = holdings(&client).await.unwrap_err();
    assert!(matches!(err, Error::Transport { .. }), "the body broke off: {err:?}");
}
