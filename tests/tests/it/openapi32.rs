//! The crates of `codegen/tests/fixtures/openapi32.yaml`, client against server over HTTP and
//! against raw peers: replies that are streams of items (`itemSchema`) arrive item by item.

use futures_util::StreamExt;
use openapi32_client::types::{Level, LogLine, WatchTicksReplyEvent};
use openapi32_client::{Client, Credentials, Error};
use openapi32_server::{ItemStream, MockApi};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn serve() -> (std::sync::Arc<MockApi>, Client) {
    let mock = MockApi::new();
    let base = mock.serve().await.expect("serve");
    (mock, Client::new(&base, Credentials::default()).expect("client"))
}

fn line(level: Level, message: &str) -> LogLine {
    LogLine::new(level, message.into())
}

#[tokio::test]
async fn json_lines_arrive_one_by_one_as_the_server_yields_them() {
    let (mock, client) = serve().await;
    // The server's items come from a channel the test feeds, so an item the client reads before
    // the next is sent proves the reply is not buffered whole on either side.
    let (send, receive) = tokio::sync::mpsc::unbounded_channel::<LogLine>();
    let receive = std::sync::Mutex::new(Some(receive));
    mock.on_tail_logs(move |_, input| {
        assert_eq!(input.level, Some(Level::Warn));
        let receive = receive.lock().unwrap().take().expect("one call");
        let items = futures_util::stream::unfold(receive, |mut r| async move { r.recv().await.map(|i| (i, r)) });
        std::future::ready(Ok(ItemStream::new(items)))
    });
    let mut lines = client.tail_logs().level(Level::Warn).await.expect("a stream");
    assert_eq!(lines.status, 200);
    send.send(line(Level::Warn, "first")).unwrap();
    assert_eq!(lines.next().await.expect("an item").expect("a log line"), line(Level::Warn, "first"));
    send.send(line(Level::Error, "second")).unwrap();
    assert_eq!(lines.next().await.expect("an item").expect("a log line"), line(Level::Error, "second"));
    drop(send);
    assert!(lines.next().await.is_none(), "the stream ends when the server's does");
}

#[tokio::test]
async fn server_sent_events_carry_their_fields() {
    let (mock, client) = serve().await;
    mock.on_watch_ticks(|_, _| async {
        let mut first = WatchTicksReplyEvent::new("one\ntwo".into());
        first.event = Some("tick".into());
        first.id = Some("1".into());
        first.retry = Some(500);
        Ok(ItemStream::from_items([first, WatchTicksReplyEvent::new("{\"n\":2}".into())]))
    });
    let mut ticks = client.watch_ticks().await.expect("a stream");
    let first = ticks.next().await.expect("an event").expect("a tick");
    assert_eq!(
        (first.event.as_deref(), first.data.as_str(), first.id.as_deref()),
        (Some("tick"), "one\ntwo", Some("1"))
    );
    assert_eq!(first.retry, Some(500));
    let second = ticks.next().await.expect("an event").expect("a tick");
    assert_eq!((second.event, second.data.as_str()), (None, "{\"n\":2}"));
    assert!(ticks.next().await.is_none());
}

/// Serves one connection with `reply` (a whole HTTP/1.1 response) and returns its address.
async fn raw_peer(reply: &'static [u8]) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("accept");
        let mut request = [0u8; 4096];
        let _ = socket.read(&mut request).await;
        let _ = socket.write_all(reply).await;
        let _ = socket.shutdown().await;
    });
    format!("http://{address}")
}

#[tokio::test]
async fn what_other_servers_write_is_read_as_the_formats_define() {
    // CRLF line endings, comments, an event without data, a field with no space, and a last
    // event cut off without its blank line (which is not dispatched).
    let events = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n\
        : a comment\r\nevent: ping\r\ndata:a\r\ndata: b\r\n\r\nretry: 10\r\nid: 9\r\n\r\ndata: cut off\r\n";
    let client = Client::new(&raw_peer(events).await, Credentials::default()).expect("client");
    let mut ticks = client.watch_ticks().await.expect("a stream");
    let first = ticks.next().await.expect("an event").expect("a tick");
    assert_eq!((first.event.as_deref(), first.data.as_str()), (Some("ping"), "a\nb"));
    // An event without `data` does not fit the item schema, which requires it: a located error.
    let second = ticks.next().await.expect("an event").expect_err("no data");
    assert!(matches!(second, Error::Decode { .. }), "{second:?}");
    assert!(ticks.next().await.is_none(), "the stream is over after an error");

    // JSON Lines: blank lines are skipped, a last line without its newline is an item.
    let lines = b"HTTP/1.1 200 OK\r\ncontent-type: application/jsonl\r\nconnection: close\r\n\r\n\
        {\"level\":\"info\",\"message\":\"a\"}\n\n{\"level\":\"warn\",\"message\":\"b\"}";
    let client = Client::new(&raw_peer(lines).await, Credentials::default()).expect("client");
    let mut logs = client.tail_logs().await.expect("a stream");
    assert_eq!(logs.next().await.expect("an item").expect("a line"), line(Level::Info, "a"));
    assert_eq!(logs.next().await.expect("an item").expect("a line"), line(Level::Warn, "b"));
    assert!(logs.next().await.is_none());
}

#[tokio::test]
async fn an_item_larger_than_the_reply_limit_ends_the_stream() {
    // A line that never ends: the client stops reading at its limit instead of buffering it all.
    let mut reply = b"HTTP/1.1 200 OK\r\ncontent-type: application/jsonl\r\nconnection: close\r\n\r\n".to_vec();
    reply.extend(std::iter::repeat_n(b'x', 64 * 1024));
    let reply: &'static [u8] = Box::leak(reply.into_boxed_slice());
    let client =
        Client::builder(&raw_peer(reply).await, Credentials::default()).max_reply_size(1024).build().expect("client");
    let mut logs = client.tail_logs().await.expect("a stream");
    let error = logs.next().await.expect("an outcome").expect_err("too large");
    assert!(matches!(error, Error::BodyTooLarge { limit: 1024, .. }), "{error:?}");
    assert!(logs.next().await.is_none());

    // An event whose data lines add up past the limit is refused the same way.
    let mut reply = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n".to_vec();
    for _ in 0..100 {
        reply.extend_from_slice(b"data: 0123456789012345678901234567890123456789\n");
    }
    let reply: &'static [u8] = Box::leak(reply.into_boxed_slice());
    let client =
        Client::builder(&raw_peer(reply).await, Credentials::default()).max_reply_size(1024).build().expect("client");
    let mut ticks = client.watch_ticks().await.expect("a stream");
    let error = ticks.next().await.expect("an outcome").expect_err("too large");
    assert!(matches!(error, Error::BodyTooLarge { .. }), "{error:?}");
}

#[tokio::test]
async fn the_query_method_is_served_beside_other_methods_and_alone() {
    use openapi32_client::types::LogQuery;
    let (mock, client) = serve().await;
    mock.on_search_logs(|_, input| async move {
        let contains = input.body.contains.unwrap_or_default();
        Ok(vec![line(Level::Info, &format!("has {contains}"))])
    });
    mock.on_count_logs(|_, input| async move { Ok(if input.body.level == Some(Level::Error) { 3 } else { 0 }) });
    let query = LogQuery::default().with_contains("disk".into());
    assert_eq!(client.search_logs(query).await.expect("lines"), vec![line(Level::Info, "has disk")]);
    let query = LogQuery::default().with_level(Level::Error);
    assert_eq!(client.count_logs(query).await.expect("a count"), 3);

    // Other methods are turned away where no operation takes them, and the body is validated.
    let base = mock.serve().await.expect("serve");
    let http = reqwest::Client::new();
    let query = reqwest::Method::from_bytes(b"QUERY").expect("a method");
    for (method, path, status) in [
        (reqwest::Method::DELETE, "/logs", 405),
        (reqwest::Method::GET, "/counts", 405),
        (reqwest::Method::PUT, "/counts", 405),
        (query.clone(), "/ticks", 405),
    ] {
        let reply = http.request(method.clone(), format!("{base}{path}")).send().await.expect("send");
        assert_eq!(reply.status(), status, "{method} {path}");
    }
    let reply = http
        .request(query, format!("{base}/counts"))
        .header("content-type", "application/json")
        .body(r#"{"contains":""}"#)
        .send()
        .await
        .expect("send");
    assert_eq!(reply.status(), 400, "minLength holds");
}

#[tokio::test]
async fn line_breaks_in_event_data_cannot_forge_fields_or_events() {
    let (mock, client) = serve().await;
    mock.on_watch_ticks(|_, _| async {
        let forged = WatchTicksReplyEvent::new("price\rid: 666\revent: admin\r\rdata: forged".into());
        Ok(ItemStream::from_items([forged, WatchTicksReplyEvent::new("next".into())]))
    });
    let base = mock.serve().await.expect("serve");
    // As a browser's EventSource reads the wire: lines end at CR, LF or CRLF.
    let wire = reqwest::get(format!("{base}/ticks")).await.expect("send").text().await.expect("body");
    for line in wire.split(['\r', '\n']) {
        assert!(line.is_empty() || line.starts_with("data: "), "a field of its own on the wire: {line:?} in {wire:?}");
    }
    let mut ticks = client.watch_ticks().await.expect("a stream");
    let first = ticks.next().await.expect("an event").expect("a tick");
    assert_eq!(first.data, "price\nid: 666\nevent: admin\n\ndata: forged");
    assert_eq!((first.id, first.event), (None, None));
    assert_eq!(ticks.next().await.expect("an event").expect("a tick").data, "next");
    assert!(ticks.next().await.is_none());

    // A one-line field with a line break in it is not written: the stream breaks off there.
    mock.on_watch_ticks(|_, _| async {
        let mut bad = WatchTicksReplyEvent::new("x".into());
        bad.event = Some("tick\ndata: forged".into());
        let later = async move {
            // Written after the first has left, so the client has the reply to read.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            bad
        };
        let items = futures_util::stream::once(async { WatchTicksReplyEvent::new("before".into()) })
            .chain(futures_util::stream::once(later));
        Ok(ItemStream::new(items))
    });
    let mut ticks = client.watch_ticks().await.expect("a stream");
    assert_eq!(ticks.next().await.expect("an event").expect("a tick").data, "before");
    let broken = ticks.next().await.expect("an outcome").expect_err("cut off");
    assert!(matches!(broken, Error::Transport { .. }), "{broken:?}");
}

#[tokio::test]
async fn events_may_end_their_lines_with_a_lone_cr() {
    let events = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n\
        event: ping\rdata: a\rdata: b\r\r: comment\rdata: c\r\n\r\ndata: last\r\r";
    let client = Client::new(&raw_peer(events).await, Credentials::default()).expect("client");
    let mut ticks = client.watch_ticks().await.expect("a stream");
    let first = ticks.next().await.expect("an event").expect("a tick");
    assert_eq!((first.event.as_deref(), first.data.as_str()), (Some("ping"), "a\nb"));
    assert_eq!(ticks.next().await.expect("an event").expect("a tick").data, "c");
    assert_eq!(ticks.next().await.expect("an event").expect("a tick").data, "last", "a CR at the very end");
    assert!(ticks.next().await.is_none());
}

/// A reply that arrives as `chunks`, one HTTP chunk each, `pause` apart; the connection then
/// closes.
async fn chunked_peer(content_type: &'static str, chunks: Vec<Vec<u8>>, pause: std::time::Duration) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("accept");
        let mut request = [0u8; 4096];
        let _ = socket.read(&mut request).await;
        let head = format!("HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\n\r\n");
        let _ = socket.write_all(head.as_bytes()).await;
        for chunk in chunks {
            let mut framed = format!("{:x}\r\n", chunk.len()).into_bytes();
            framed.extend_from_slice(&chunk);
            framed.extend_from_slice(b"\r\n");
            if socket.write_all(&framed).await.is_err() {
                return;
            }
            if !pause.is_zero() {
                tokio::time::sleep(pause).await;
            }
        }
        let _ = socket.write_all(b"0\r\n\r\n").await;
    });
    format!("http://{address}")
}

#[tokio::test]
async fn a_long_line_in_small_chunks_is_read_in_linear_time() {
    // One 16 MiB line in 4 KiB chunks: searching the whole buffer again for each chunk would scan
    // about 32 GiB here; each byte searched once is 16 MiB.
    let message = "m".repeat(16 * 1024 * 1024);
    let line = format!("{{\"level\":\"info\",\"message\":\"{message}\"}}\n").into_bytes();
    let chunks: Vec<Vec<u8>> = line.chunks(4096).map(<[u8]>::to_vec).collect();
    let base = chunked_peer("application/jsonl", chunks, std::time::Duration::ZERO).await;
    let client = Client::new(&base, Credentials::default()).expect("client");
    let mut logs = client.tail_logs().await.expect("a stream");
    let item = tokio::time::timeout(std::time::Duration::from_secs(20), logs.next())
        .await
        .expect("read in linear time")
        .expect("an item")
        .expect("a line");
    assert_eq!(item.message.len(), message.len());
}

#[tokio::test]
async fn streams_are_bounded_by_their_own_idle_timeout_total_time_and_size() {
    use std::time::{Duration, Instant};
    // Bytes keep coming, but never a whole item: the wait for an item runs out.
    let drip: Vec<Vec<u8>> = b"{\"level\":\"info\",\"message\":\"".iter().map(|b| vec![*b]).collect();
    let base = chunked_peer("application/jsonl", drip, Duration::from_millis(50)).await;
    let client = Client::builder(&base, Credentials::default())
        .stream_idle_timeout(Duration::from_millis(400))
        .build()
        .expect("client");
    let mut logs = client.tail_logs().await.expect("a stream");
    let started = Instant::now();
    let error = logs.next().await.expect("an outcome").expect_err("timed out");
    assert!(
        matches!(error, Error::Timeout { kind: openapi32_client::TimeoutKind::StreamIdle(limit), .. } if limit == Duration::from_millis(400)),
        "{error:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(2), "took {:?}", started.elapsed());
    assert!(logs.next().await.is_none(), "over after the timeout");

    // Whole items, steadily: the stream's total time runs out.
    let item = b"{\"level\":\"info\",\"message\":\"m\"}\n".to_vec();
    let base = chunked_peer("application/jsonl", vec![item.clone(); 100], Duration::from_millis(50)).await;
    let client = Client::builder(&base, Credentials::default())
        .stream_timeout(Duration::from_millis(500))
        .build()
        .expect("client");
    let mut logs = client.tail_logs().await.expect("a stream");
    let mut items = 0;
    let error = loop {
        match logs.next().await.expect("an outcome") {
            Ok(_) => items += 1,
            Err(error) => break error,
        }
    };
    assert!(matches!(error, Error::Timeout { kind: openapi32_client::TimeoutKind::StreamTotal(_), .. }), "{error:?}");
    assert!((5..=12).contains(&items), "{items} items in 500 ms at one per 50 ms");

    // Past the size limit for the whole stream, it ends.
    let base = chunked_peer("application/jsonl", vec![item; 100], Duration::ZERO).await;
    let client = Client::builder(&base, Credentials::default()).max_stream_size(320).build().expect("client");
    let mut logs = client.tail_logs().await.expect("a stream");
    let mut items = 0;
    let error = loop {
        match logs.next().await.expect("an outcome") {
            Ok(_) => items += 1,
            Err(error) => break error,
        }
    };
    assert!(matches!(error, Error::BodyTooLarge { limit: 320, .. }), "{error:?}");
    assert!(items <= 10, "{items} items of 32 bytes within 320 bytes");
}
