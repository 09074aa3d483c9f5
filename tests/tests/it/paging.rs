//! Paged operations walked as streams: page numbers, offsets, cursors in bodies and headers, link
//! headers, declared walks, and walks that would never end.

use crate::fixtures::unseen::serve;
use unseen_client::types::Reading;
use unseen_client::{Client, Credentials, Nullable};

#[tokio::test]
async fn zero_based_pages_with_reply_headers_stream_every_item() {
    use unseen_client::types::{ListReadingPagesReply, ListReadingPagesReplyHeaders};
    let (mock, client) = serve().await;
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = asked.clone();
    // Pages numbered from 0, as the page parameter's default says, each with its ETag.
    mock.on_list_reading_pages(move |_, input| {
        record.lock().unwrap().push(input.page);
        let reading = Reading::new(uuid::Uuid::from_u128(input.page as u128));
        let content = if input.page < 2 { vec![reading] } else { Vec::new() };
        let reply = ListReadingPagesReply::default().with_content(content).with_total_pages(2);
        std::future::ready(Ok((reply, ListReadingPagesReplyHeaders::default().with_e_tag(format!("p{}", input.page)))))
    });
    // Full pages of one item: the walk ends at the page count the reply gives.
    let mut stream = client.list_reading_pages().size(1).into_stream();
    let mut ids = Vec::new();
    while let Some(reading) = stream.next().await {
        ids.push(reading.expect("reading").id.as_u128());
    }
    assert_eq!(ids, [0, 1], "both pages, the first one included");
    assert_eq!(asked.lock().unwrap().as_slice(), [0, 1], "no page past the count");
}

/// Readings numbered `from..to`.
fn readings(range: std::ops::Range<u128>) -> Vec<Reading> {
    range.map(|n| Reading::new(uuid::Uuid::from_u128(n))).collect()
}

/// Every item of a walk, or its first error.
async fn walk(mut items: unseen_client::Items<'_, Reading>) -> Result<Vec<u128>, unseen_client::Error> {
    let mut ids = Vec::new();
    while let Some(reading) = items.next().await {
        ids.push(reading?.id.as_u128());
    }
    Ok(ids)
}

#[tokio::test]
async fn offsets_move_on_by_the_items_read_and_stop_at_the_total() {
    use unseen_client::types::ListReadingOffsetsReply;
    let (mock, client) = serve().await;
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = asked.clone();
    // Five readings, served two at a time (the limit's default) with the total.
    mock.on_list_reading_offsets(move |_, input| {
        let offset = input.offset.unwrap_or(0);
        record.lock().unwrap().push((offset, input.limit));
        let start = offset as u128;
        let items = readings(start.min(5)..(start + input.limit as u128).min(5));
        std::future::ready(Ok(ListReadingOffsetsReply::new(items).with_total_count(5)))
    });
    assert_eq!(walk(client.list_reading_offsets().into_stream()).await.unwrap(), [0, 1, 2, 3, 4]);
    assert_eq!(asked.lock().unwrap().as_slice(), [(0, 2), (2, 2), (4, 2)], "no request past the total");

    // Started further on, the walk starts there.
    asked.lock().unwrap().clear();
    assert_eq!(walk(client.list_reading_offsets().offset(3).into_stream()).await.unwrap(), [3, 4]);
    assert_eq!(asked.lock().unwrap().as_slice(), [(3, 2)]);
}

#[tokio::test]
async fn a_cursor_in_the_body_is_followed_until_it_is_null() {
    use unseen_client::types::{ListReadingsAfterReply, ListReadingsAfterReplyMeta};
    let (mock, client) = serve().await;
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = asked.clone();
    mock.on_list_readings_after(move |_, input| {
        record.lock().unwrap().push(input.cursor.clone());
        let (items, next) = match input.cursor.as_deref() {
            None => (readings(0..2), Some("b c/d")),
            Some("b c/d") => (readings(2..3), Some("e")),
            _ => (readings(3..4), None),
        };
        let mut meta = ListReadingsAfterReplyMeta::default();
        // The last page says `null`.
        meta.next_cursor = next.map_or(Nullable::Null, |next| Nullable::Value(next.to_string()));
        std::future::ready(Ok(ListReadingsAfterReply::default().with_data(items).with_meta(meta)))
    });
    assert_eq!(walk(client.list_readings_after().into_stream()).await.unwrap(), [0, 1, 2, 3]);
    let expected = [None, Some("b c/d".to_string()), Some("e".to_string())];
    assert_eq!(asked.lock().unwrap().as_slice(), expected, "each cursor as the reply gave it");
}

#[tokio::test]
async fn a_cursor_in_a_header_is_followed_until_it_is_empty() {
    use unseen_client::types::ListContinuedReadingsReplyHeaders;
    let (mock, client) = serve().await;
    mock.on_list_continued_readings(|_, input| {
        let (items, next) = match input.continuation_token.as_deref() {
            None => (readings(0..1), "t1"),
            Some("t1") => (readings(1..2), "t2"),
            // An empty cursor ends the walk as an absent one does.
            _ => (readings(2..3), ""),
        };
        let headers = ListContinuedReadingsReplyHeaders::default().with_x_continuation_token(next.to_string());
        std::future::ready(Ok((items, headers)))
    });
    assert_eq!(walk(client.list_continued_readings().into_stream()).await.unwrap(), [0, 1, 2]);
}

#[tokio::test]
async fn a_link_header_gives_the_next_page_but_never_the_host() {
    use unseen_client::types::ListLinkedReadingsReplyHeaders;
    let (mock, client) = serve().await;
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = asked.clone();
    mock.on_list_linked_readings(move |_, input| {
        record.lock().unwrap().push((input.p, input.n));
        let page = input.p.unwrap_or(1);
        // The next page on another host: only its `p` is taken, and asked of this server.
        let link = match page {
            1 | 2 => format!(
                r#"<https://elsewhere.invalid/readings/linked?p=1>; rel="prev first", <https://elsewhere.invalid/readings/linked?n=1&p={}>; rel="next""#,
                page + 1
            ),
            _ => "<https://elsewhere.invalid/readings/linked?p=1>; rel=first".to_string(),
        };
        let headers = ListLinkedReadingsReplyHeaders::default().with_link(link);
        std::future::ready(Ok((readings(page as u128..page as u128 + 1), headers)))
    });
    assert_eq!(walk(client.list_linked_readings().n(1).into_stream()).await.unwrap(), [1, 2, 3]);
    let expected = [(None, Some(1)), (Some(2), Some(1)), (Some(3), Some(1))];
    assert_eq!(asked.lock().unwrap().as_slice(), expected);
}

#[tokio::test]
async fn a_declared_walk_reads_items_deep_in_the_reply_and_refuses_a_repeated_cursor() {
    use unseen_client::types::{ListResumedReadingsReply, ListResumedReadingsReplyResult};
    let (mock, client) = serve().await;
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = calls.clone();
    // The second page names itself as the next: the walk reports it rather than loop for ever.
    mock.on_list_resumed_readings(move |_, input| {
        count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (items, next) = match input.from.as_deref() {
            None => (readings(0..2), "x"),
            _ => (readings(2..3), "x"),
        };
        let reply =
            ListResumedReadingsReply::new(ListResumedReadingsReplyResult::new(items)).with_following(next.to_string());
        std::future::ready(Ok(reply))
    });
    let mut items = client.list_resumed_readings().into_stream();
    let mut ids = Vec::new();
    let error = loop {
        match items.next().await.expect("an error before the end") {
            Ok(reading) => ids.push(reading.id.as_u128()),
            Err(e) => break e,
        }
    };
    assert_eq!(ids, [0, 1, 2], "the items before the repeat are read");
    assert!(error.to_string().contains("names a page already read as the next"), "{error}");
    assert!(items.next().await.is_none());
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 2);
}

/// The items of `items` up to the error that ends them, which there must be.
async fn until_error<T>(mut items: unseen_client::Items<'_, T>) -> (usize, unseen_client::Error) {
    let mut read = 0;
    loop {
        match items.next().await.expect("an error before the end") {
            Ok(_) => read += 1,
            Err(e) => {
                assert!(items.next().await.is_none(), "an error ends the walk");
                return (read, e);
            }
        }
    }
}

#[tokio::test]
async fn walks_that_would_never_end_are_ended() {
    use unseen_client::types::{
        ListLinkedReadingsReplyHeaders, ListResumedReadingsReply, ListResumedReadingsReplyResult,
    };
    let (mock, client) = serve().await;
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = calls.clone();
    // Cursors that come round again, A → B → A, with empty pages.
    mock.on_list_resumed_readings(move |_, input| {
        count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let next = if input.from.as_deref() == Some("A") { "B" } else { "A" };
        let reply = ListResumedReadingsReply::new(ListResumedReadingsReplyResult::new(Vec::new()))
            .with_following(next.to_string());
        std::future::ready(Ok(reply))
    });
    let walk = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        until_error(client.list_resumed_readings().into_stream()),
    );
    let (_, error) = walk.await.expect("the walk ends");
    assert!(matches!(error, unseen_client::Error::Paging { .. }), "{error:?}");
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 3, "none, A and B are asked once each");

    // A `Link` header that always names one more page: the client's `max_pages` ends the walk.
    mock.on_list_linked_readings(|_, input| {
        let page = input.p.unwrap_or(1);
        let link = format!(r#"<https://api.example/readings/linked?p={}>; rel="next""#, page + 1);
        let headers = ListLinkedReadingsReplyHeaders::default().with_link(link);
        std::future::ready(Ok((readings(page as u128..page as u128 + 1), headers)))
    });
    let base = mock.serve().await.expect("serve");
    let capped = Client::builder(&base, Credentials::new("response=abc", "key", "dXNlcjpwdw==", "t 1&x"))
        .max_pages(25)
        .build()
        .expect("client");
    let (read, error) = until_error(capped.list_linked_readings().into_stream()).await;
    assert_eq!(read, 25, "the items of every page read come first");
    assert!(error.to_string().contains("max_pages"), "{error}");
    // The default bound holds too, without being set.
    let started = std::time::Instant::now();
    let (read, error) = until_error(client.list_linked_readings().into_stream()).await;
    assert_eq!(read as u64, unseen_client::DEFAULT_MAX_PAGES, "{error} after {:?}", started.elapsed());
}
