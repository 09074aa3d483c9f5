//! The crates of `codegen/tests/fixtures/unseen.yaml`, a document with the slips and constructs
//! public documents have and the project spec does not, client against server over HTTP: what the
//! generator repaired or read in its own way works on the wire.

use unseen_client::types::{Code, Level, Reading, ReadingFlag, ReadingSizes, TokenText, Tokens};
use unseen_client::{Client, Credentials, Nullable};
use unseen_server::{FileDownload, MockApi};

async fn serve() -> (std::sync::Arc<MockApi>, Client) {
    let mock = MockApi::new();
    let base = mock.serve().await.expect("serve");
    (mock, Client::new(&base, Credentials::new("response=abc", "key", "dXNlcjpwdw==", "t 1&x")).expect("client"))
}

#[tokio::test]
async fn replies_that_are_not_json_are_read_as_bytes() {
    let (mock, client) = serve().await;
    mock.on_export_readings(|_, _| async { Ok(FileDownload::new("id,value\n1,2\n").with_content_type("text/csv")) });
    mock.on_get_blob(|_, _| async { Ok(FileDownload::new(vec![0u8, 159, 146, 150])) });
    let csv = client.export_readings().await.expect("csv");
    assert_eq!(csv.content_type.as_deref(), Some("text/csv"));
    assert_eq!(csv.body.collect().await.expect("bytes"), b"id,value\n1,2\n");
    let blob = client.get_blob().await.expect("blob").body.collect().await.expect("bytes");
    assert_eq!(blob, [0, 159, 146, 150]);
}

#[tokio::test]
async fn a_download_with_a_partial_content_status_is_one_download() {
    let (mock, client) = serve().await;
    mock.on_get_blob_range(|_, input| async move {
        Ok(match input.range.as_deref() {
            Some("bytes=1-2") => FileDownload::new(vec![159u8, 146]).with_status(206),
            Some(_) => FileDownload::new(Vec::new()).with_status(416),
            None => FileDownload::new(vec![0u8, 159, 146, 150]),
        })
    });
    let whole = client.get_blob_range().await.expect("the whole blob");
    assert_eq!(whole.status, 200);
    assert_eq!(whole.body.collect().await.expect("bytes"), [0, 159, 146, 150]);
    let part = client.get_blob_range().range("bytes=1-2").await.expect("part of the blob");
    assert_eq!(part.status, 206);
    assert_eq!(part.body.collect().await.expect("bytes"), [159, 146]);
    // A status the operation does not document is the implementation's mistake, not a reply.
    let wrong = client.get_blob_range().range("bytes=9-9").await.expect_err("an undocumented status");
    assert_eq!(wrong.status().map(|s| s.as_u16()), Some(500), "{wrong:?}");
}

#[tokio::test]
async fn a_choice_beside_shared_properties_reads_each_member_with_them() {
    use unseen_client::types::{Sensor, SensorThermometer};
    let (mock, client) = serve().await;
    mock.on_add_sensor(|_, input| std::future::ready(Ok(input.body)));
    let mut inner = SensorThermometer::new("thermo".into(), "t-1".into(), 21.5);
    inner.labels = Some(vec!["lab".into()]);
    inner.extra = Some(Default::default());
    inner.modes = Some(Vec::new());
    inner.weights = Some(Default::default());
    inner.calibration = Some(serde_json::json!({"at": []}));
    inner.limits = Some(Default::default());
    inner.batch = Some(unseen_client::types::SensorThermometerBatch::Integer(8));
    inner.site = Some(unseen_client::types::Place::new("BE".into(), "Gent".into()));
    let thermometer = Sensor::Thermometer(inner);
    assert_eq!(client.add_sensor(thermometer.clone()).await.expect("a thermometer"), thermometer);

    // The shared part's limits and each member's own hold on the server.
    let long_id = Sensor::Thermometer(SensorThermometer::new("thermo".into(), "ninechars".into(), 21.5));
    let too_cold = Sensor::Thermometer(SensorThermometer::new("thermo".into(), "t-1".into(), -300.0));
    for (bad, field) in [(long_id, "id"), (too_cold, "celsius")] {
        let refused = client.add_sensor(bad).await.expect_err(field);
        assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{field}: {refused:?}");
        assert!(refused.to_string().contains(field), "{field}: {refused}");
    }
    let base = mock.serve().await.expect("serve");
    let http = reqwest::Client::new();
    let post = |body: String| {
        let request = http.post(format!("{base}/sensors")).header("content-type", "application/json");
        async move { request.header("x-key", "key").body(body).send().await.expect("send") }
    };
    // Empty collections as defaults: what the request leaves out reads as empty.
    let echoed = post(r#"{"kind":"baro","id":"b-1","hectopascals":1013}"#.into()).await.bytes().await.expect("body");
    let echoed: serde_json::Value = serde_json::from_slice(&echoed).expect("json");
    assert_eq!((&echoed["labels"], &echoed["extra"]), (&serde_json::json!([]), &serde_json::json!({})), "{echoed}");
    // And defaults with content read as the document writes them.
    let defaults = (&echoed["modes"], &echoed["weights"], &echoed["calibration"]);
    let expected =
        (&serde_json::json!(["walk", "cycle"]), &serde_json::json!({"a": 1}), &serde_json::json!({"at": [1, null]}));
    assert_eq!(defaults, expected, "{echoed}");
    let decoded = (&echoed["batch"], &echoed["site"]);
    assert_eq!(
        decoded,
        (&serde_json::json!("auto"), &serde_json::json!({"country": "NL", "city": "Delft"})),
        "{echoed}"
    );
    // A property's choice of ranges: 5 is in neither.
    for (gain, status) in [(0.5, 200), (12.0, 200), (5.0, 400)] {
        let reply = post(format!(r#"{{"kind":"baro","id":"b-1","hectopascals":1013,"gain":{gain}}}"#)).await;
        assert_eq!(reply.status(), status, "gain {gain}");
        let text = reply.text().await.expect("body");
        assert!(status == 200 || text.contains("gain"), "gain {gain}: {text}");
    }
    // A barometer without its own required property, or without the shared one, is refused.
    for body in [r#"{"kind":"baro","id":"b-1"}"#, r#"{"kind":"baro","hectopascals":1013}"#] {
        assert_eq!(post(body.into()).await.status(), 400, "{body}");
    }
}

#[tokio::test]
async fn inline_members_are_told_apart_and_named_by_the_one_tag_each_allows() {
    use unseen_client::types::{Event, EventTick, EventTickType, PostNoteBody};
    let (mock, client) = serve().await;
    mock.on_post_event(|_, input| std::future::ready(Ok(input.body)));
    let tick = Event::Tick(EventTick::new(EventTickType::Tick, 7));
    assert_eq!(client.post_event(tick.clone()).await.expect("a tick"), tick);
    let note: Event = serde_json::from_str(r#"{"type":"note","text":"hi"}"#).expect("a note");
    assert!(matches!(note, Event::Note(ref n) if n.text == "hi"), "{note:?}");
    assert!(serde_json::from_str::<Event>(r#"{"type":"other"}"#).is_err());
    // Each value a member lists selects it, and it is sent back as it came.
    for kind in ["alarm", "alert"] {
        let alarm: Event = serde_json::from_str(&format!(r#"{{"type":"{kind}","level":3}}"#)).expect(kind);
        assert!(matches!(alarm, Event::AlarmOrAlert(ref a) if a.level == 3), "{alarm:?}");
        assert_eq!(client.post_event(alarm.clone()).await.expect(kind), alarm);
    }

    // A multipart body without a file part goes and arrives whole.
    let seen = std::sync::Arc::new(std::sync::Mutex::new(None));
    let record = seen.clone();
    mock.on_post_note(move |_, input| {
        *record.lock().unwrap() = Some(input.body.text);
        std::future::ready(Ok(()))
    });
    client.post_note(PostNoteBody::new("hello".into())).await.expect("a note");
    assert_eq!(seen.lock().unwrap().as_deref(), Some("hello"));
}

#[tokio::test]
async fn repaired_schemas_round_trip_and_their_limits_hold() {
    let (mock, client) = serve().await;
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = seen.clone();
    mock.on_add_reading(move |_, input| {
        record.lock().unwrap().push(input.body);
        std::future::ready(Ok(()))
    });
    let mut reading = Reading::new(uuid::Uuid::nil());
    // `true` in the string enum became the text "true"; the extra enum name was dropped.
    reading.flag = Some(ReadingFlag::True);
    reading.level = Some(Level::High);
    reading.value = Some(i64::MIN);
    reading.code = Some(Code::from("ABC"));
    reading.positive = Some(1);
    reading.taken = Some("2024-02-29".into());
    reading.owner = Some("Zoë".into());
    reading.handle = Some("aab_1".into());
    reading.sizes = Some(ReadingSizes::IntegerList(vec![0, 9]));
    // `[1, 2]`: not a list of the inner choice's members, but one of them.
    reading.tokens = Some(Tokens::TokenText(TokenText::IntegerList(vec![1, 2])));
    reading.contact = Some("someone@example.com".into());
    reading.score = Nullable::Value(1.0);
    reading.alias = Nullable::Null;
    client.add_reading(reading.clone()).await.expect("a reading within every limit");
    assert_eq!(seen.lock().unwrap().as_slice(), [reading.clone()]);

    // The exclusive minimum written as a number, and the limits of a referenced string.
    for (bad, field) in [
        (reading.clone().with_positive(0), "positive"),
        (reading.clone().with_code(Code::from("ABCD")), "code"),
        (reading.clone().with_note("eleven chars".into()), "note"),
        (reading.clone().with_score(0.0), "score"),
        (reading.clone().with_score(1.5), "score"),
        (reading.clone().with_alias("fives".into()), "alias"),
        // Formats the value stays text in: the server checks them.
        (reading.clone().with_taken("2023-02-29".into()), "taken"),
        (reading.clone().with_contact("someone at example.com".into()), "contact"),
        (reading.clone().with_owner("zoë".into()), "owner"),
        // The forbidden prefix, and a handle without the digit the look-ahead asks for.
        (reading.clone().with_handle("tmp_1".into()), "handle"),
        (reading.clone().with_handle("ab_c".into()), "handle"),
        (reading.clone().with_batch(Code::from("ABCD")), "batch"),
        (reading.clone().with_sizes(ReadingSizes::Integer(-1)), "sizes"),
        (reading.clone().with_sizes(ReadingSizes::IntegerList(vec![1, 10])), "sizes[1]"),
        (reading.clone().with_sizes(ReadingSizes::IntegerList(vec![1, 2, 3, 4])), "sizes"),
        // `[]` is a list of token texts and a token text of no integers: two members of a
        // `oneOf`, which takes values of exactly one.
        (reading.clone().with_tokens(Tokens::TokenTextList(Vec::new())), "tokens"),
    ] {
        let refused = client.add_reading(bad).await.expect_err(field);
        assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{field}: {refused:?}");
        assert!(refused.to_string().contains(field), "{field}: {refused}");
    }
    assert_eq!(seen.lock().unwrap().len(), 1, "nothing invalid reached the implementation");
    // Outside a server's reading of a request (a client reading a reply), the first member
    // that reads the value takes it.
    assert_eq!(serde_json::from_str::<Tokens>("[]").expect("read"), Tokens::TokenTextList(Vec::new()));

    // The document also takes the body as a form: the server reads it, with the same limits.
    let base = mock.serve().await.expect("serve");
    let form = |body: &'static str| {
        reqwest::Client::new()
            .post(format!("{base}/readings"))
            .header("x-key", "key")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    let id = "00000000-0000-0000-0000-000000000000";
    let stored = form("id=00000000-0000-0000-0000-000000000000&positive=2&taken=2024-02-29").await.expect("send");
    assert_eq!(stored.status(), 204);
    assert_eq!(seen.lock().unwrap()[1].id.to_string(), id);
    assert_eq!(seen.lock().unwrap()[1].taken.as_deref(), Some("2024-02-29"));
    let refused = form("id=00000000-0000-0000-0000-000000000000&positive=0").await.expect("send");
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("text").contains("positive"));
    // A form has no `null`: the text `null` is it where the field may be null and has no such
    // text (a number), and stays text where it is text.
    let stored =
        form("id=00000000-0000-0000-0000-000000000000&score=null&alias=null&unit=null&mark=null").await.expect("send");
    assert_eq!(stored.status(), 204, "{:?}", stored.text().await);
    let last = seen.lock().unwrap().last().cloned().expect("stored");
    assert_eq!(last.score, Nullable::Null);
    assert_eq!(last.unit, Nullable::Null, "no member of the choice is text that could be `null`");
    assert_eq!(serde_json::to_value(&last).expect("JSON")["mark"], "null", "a member is any text");
    assert_eq!(serde_json::to_value(&last).expect("JSON")["alias"], "null");

    // The document closes the object: a property it does not name is refused.
    let json = |body: &'static str| {
        reqwest::Client::new()
            .post(format!("{base}/readings"))
            .header("x-key", "key")
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let refused = json(r#"{"id": "00000000-0000-0000-0000-000000000000", "colour": "red"}"#).await.expect("send");
    assert_eq!(refused.status(), 400);
    let text = refused.text().await.expect("text");
    assert!(text.contains("colour"), "{text}");
    let stored =
        json(r#"{"id": "00000000-0000-0000-0000-000000000000", "note": "ok", "positive": 3.0}"#).await.expect("send");
    assert_eq!(stored.status(), 204);
    assert_eq!(seen.lock().unwrap().last().unwrap().positive, Some(3), "`3.0` is the integer 3");
    // Past 15 digits, a zero fraction is read without it: serde_json alone lands a quarter off.
    let stored =
        json(r#"{"id": "00000000-0000-0000-0000-000000000000", "value": -1889331988471979.0}"#).await.expect("send");
    assert_eq!(stored.status(), 204);
    assert_eq!(seen.lock().unwrap().last().unwrap().value, Some(-1889331988471979));
    // A property of any value may be `null`; one with a type may not.
    let stored = json(r#"{"id": "00000000-0000-0000-0000-000000000000", "meta": null}"#).await.expect("send");
    assert_eq!(stored.status(), 204);
    let refused = json(r#"{"id": "00000000-0000-0000-0000-000000000000", "note": null}"#).await.expect("send");
    assert_eq!(refused.status(), 400);
    assert_eq!(seen.lock().unwrap().len(), 6, "only the valid bodies reached the implementation");
}

#[tokio::test]
async fn deep_object_lists_and_maps_are_written_and_read_back() {
    // On the wire: `expand[]` repeated, and one `filter[key]` pair per entry.
    let raw = portfolio_tests::RawServer::start(portfolio_tests::RawReply::json(200, "[]")).await;
    let client =
        Client::new(&raw.base_url(), Credentials::new("response=abc", "key", "dXNlcjpwdw==", "t 1&x")).expect("client");
    let filter = std::collections::BTreeMap::from([("kind".to_string(), "a b".to_string())]);
    client.list_readings().expand(["x", "y"]).filter(filter.clone()).await.expect("readings");
    assert_eq!(raw.only_request().target, "/readings?expand%5B%5D=x&expand%5B%5D=y&filter%5Bkind%5D=a%20b");

    // And the generated server reads both back.
    let (mock, client) = serve().await;
    let seen = std::sync::Arc::new(std::sync::Mutex::new(None));
    let record = seen.clone();
    mock.on_list_readings(move |_, input| {
        *record.lock().unwrap() = Some((input.expand, input.filter, input.units));
        std::future::ready(Ok(Vec::new()))
    });
    client.list_readings().expand(["x", "y"]).filter(filter.clone()).await.expect("readings");
    // `units` was left out, so it reads as its default.
    let units = vec!["c".to_string(), "f".to_string()];
    assert_eq!(seen.lock().unwrap().clone(), Some((Some(vec!["x".to_string(), "y".to_string()]), Some(filter), units)));
}

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

#[tokio::test]
async fn an_object_in_the_path_a_list_in_a_header_and_one_or_many_in_the_query() {
    use unseen_client::types::{Found, Place};
    let (mock, client) = serve().await;
    mock.on_find_place(|_, input| async move {
        let mut found = Found::default().with_place(input.place);
        found.origin = input.x_origin;
        found.tags = input.x_tags;
        found.ids = input.ids;
        Ok(found)
    });
    // A comma inside a value is percent-encoded by the client, and the place still round-trips
    // when its values have none.
    let place = Place::new("NL".into(), "Den Haag".into());
    let origin = Place::new("BE".into(), "Gent".into());
    let found = client
        .find_place(place.clone())
        .x_origin(origin.clone())
        .x_tags(["blue", "green"])
        .ids(["AB".to_string(), "CD".to_string()])
        .await
        .expect("found");
    assert_eq!(found.place, Some(place));
    assert_eq!(found.origin, Some(origin));
    assert_eq!(found.tags, Some(vec!["blue".to_string(), "green".to_string()]));
    assert_eq!(found.ids, Some(vec!["AB".to_string(), "CD".to_string()]));

    // What other clients send: the object as `property,value` pairs, the list over two header
    // lines with spaces, one id alone (the scalar form of the choice).
    let base = mock.serve().await.expect("serve");
    let http = reqwest::Client::new();
    let reply = http
        .get(format!("{base}/places/city,Delft,country,NL?ids=XY"))
        .header("x-key", "key")
        .header("x-tags", "a, b")
        .header("x-tags", "c")
        .header("x-origin", "country,FR,city,Lyon")
        .send()
        .await
        .expect("send");
    assert_eq!(reply.status(), 200);
    let found: serde_json::Value = serde_json::from_slice(&reply.bytes().await.expect("body")).expect("json");
    assert_eq!(
        found,
        serde_json::json!({
            "place": {"country": "NL", "city": "Delft"},
            "origin": {"country": "FR", "city": "Lyon"},
            "tags": ["a", "b", "c"],
            "ids": ["XY"]
        })
    );
    // A parameter's format is checked like a property's.
    for (since, status) in [("2024-02-29", 200), ("2023-02-29", 400), ("yesterday", 400)] {
        let url = format!("{base}/places/city,Delft,country,NL?since={since}");
        let reply = http.get(url).header("x-key", "key").send().await.expect("send");
        assert_eq!(reply.status(), status, "{since}");
        if status == 400 {
            assert!(reply.text().await.expect("text").contains("since"), "{since}");
        }
    }
    // A segment that is not pairs, or lacks a required property, is a located 400.
    for (segment, problem) in [("city,Delft,country", "place"), ("city,Delft", "country")] {
        let reply = http.get(format!("{base}/places/{segment}")).header("x-key", "key").send().await.expect("send");
        assert_eq!(reply.status(), 400, "{segment}");
        let text = reply.text().await.expect("text");
        assert!(text.contains(problem), "{segment}: {text}");
    }
}

#[tokio::test]
async fn a_choice_inside_an_all_of_reads_each_member_with_the_other_members() {
    use unseen_client::types::{RoleChange, RoleChangeOption1, RoleChangeOption2};
    let (mock, client) = serve().await;
    mock.on_change_role(|_, input| std::future::ready(Ok(input.body)));
    let remove = RoleChange::Option1(RoleChangeOption1::new("n-1".into(), true));
    assert_eq!(client.change_role(remove.clone()).await.expect("remove"), remove);
    let mut assign = RoleChangeOption2::new("n-2".into(), "eu".into());
    assign.capacity = Some(4);
    let assign = RoleChange::Option2(assign);
    assert_eq!(client.change_role(assign.clone()).await.expect("assign"), assign);
    // The shared member's limit holds inside either choice.
    let long = RoleChange::Option1(RoleChangeOption1::new("node-1".into(), true));
    let refused = client.change_role(long).await.expect_err("too long an id");
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused:?}");
}

#[tokio::test]
async fn enums_without_a_type_or_with_null_and_a_reply_written_as_a_request_body() {
    use unseen_client::Nullable;
    use unseen_client::types::{Alert, AlertGrouping, By, ListAlertsBy};
    let (mock, client) = serve().await;
    mock.on_list_alerts(|_, input| async move {
        // The enums came typed; the reply says which ones came.
        let grouping = match (input.by, input.not_by) {
            (Some(ListAlertsBy::Rules), Some(By::AutoPause)) => Nullable::Value(AlertGrouping::Time),
            _ => Nullable::Absent,
        };
        let mut alert = Alert::default();
        alert.grouping = grouping;
        alert.mode = Nullable::Null;
        Ok(vec![alert])
    });
    let alerts = client.list_alerts().by(ListAlertsBy::Rules).not_by(By::AutoPause).await.expect("alerts");
    let mut expected = Alert::default().with_grouping(AlertGrouping::Time);
    expected.mode = Nullable::Null;
    assert_eq!(alerts, vec![expected]);
    // A value outside the enum is refused, as for any typed enum.
    let base = mock.serve().await.expect("serve");
    let http = reqwest::Client::new();
    let reply = http.get(format!("{base}/alerts?by=sometimes")).header("x-key", "key").send().await.expect("send");
    assert_eq!(reply.status(), 400);
    // The nullable enums tell `null` from absent.
    let read: Alert = serde_json::from_str(r#"{"grouping":null}"#).expect("nulls");
    assert_eq!((read.grouping, read.mode), (Nullable::Null, Nullable::Absent));
}

#[tokio::test]
async fn a_map_exploded_into_the_query_takes_what_no_other_parameter_does() {
    use std::collections::BTreeMap;
    let (mock, client) = serve().await;
    let meta: BTreeMap<String, String> =
        [("a".to_string(), "1".to_string()), ("b".to_string(), "two".to_string())].into();
    let expected = meta.clone();
    mock.on_list_readings(move |_, input| {
        // The declared parameters keep their own pairs; the map takes the rest.
        let as_sent = input.meta.as_ref() == Some(&expected)
            && input.limit == Some(5)
            && input.filter == Some([("x".to_string(), "y".to_string())].into());
        let reply =
            if as_sent { Ok(Vec::new()) } else { Err(unseen_server::ApiError::bad_request(format!("{input:?}"))) };
        std::future::ready(reply)
    });
    let readings = client
        .list_readings()
        .limit(5)
        .filter([("x".to_string(), "y".to_string())].into())
        .meta(meta)
        .await
        .expect("the map and the other parameters apart");
    assert!(readings.is_empty());
}

#[tokio::test]
async fn a_body_offered_as_json_or_multipart_with_a_file_is_a_case_each() {
    use unseen_client::File;
    use unseen_client::types::{AddFileBody, NamedFile};
    let (mock, client) = serve().await;
    mock.on_add_file(|_, input| async move {
        use unseen_server::types::AddFileBody as Body;
        Ok(match input.body {
            Body::Multipart(form) => format!("{}:{}", form.name.unwrap_or_default(), form.file.bytes.len()),
            Body::Json(json) => format!("json {json}"),
        })
    });
    let body = NamedFile::new(File::new("notes.txt", "twelve bytes")).with_name("notes.txt".into());
    assert_eq!(client.add_file(AddFileBody::Multipart(body)).await.expect("stored"), "notes.txt:12");
    // JSON has no file parts: its case is the value as it came.
    let json = AddFileBody::Json(serde_json::json!({"name": "notes.txt"}));
    assert_eq!(client.add_file(json).await.expect("stored"), r#"json {"name":"notes.txt"}"#);
}

#[tokio::test]
async fn swagger_2_spellings_in_an_openapi_3_document_work_on_the_wire() {
    use unseen_client::types::{LegacyNote, LegacyNoteKind, PostLegacyBody, PostLegacyKind};
    use unseen_server::types as server_types;
    let (mock, client) = serve().await;
    mock.on_post_legacy(|ctx, input| async move {
        // The `basic` scheme is read as HTTP basic; the query parameter and the file part arrive.
        assert_eq!(ctx.legacy.as_deref(), Some("dXNlcjpwdw=="));
        assert_eq!(input.kind, Some(server_types::PostLegacyKind::B));
        let body = input.body.expect("a body");
        assert_eq!(body.attachment.expect("a file").bytes.as_ref(), b"x");
        assert_eq!(body.note, Some(serde_json::json!(3)));
        let note = server_types::LegacyNote::default().with_kind(server_types::LegacyNoteKind::Final);
        Ok(server_types::PostLegacyReply::Ok(note, server_types::PostLegacyReply200Headers::default().with_x_rate(7)))
    });
    let body = PostLegacyBody::default()
        .with_attachment(unseen_client::File::new("a.txt", b"x".to_vec()))
        .with_note(serde_json::json!(3));
    let reply = client.post_legacy().kind(PostLegacyKind::B).body(body).await.expect("a reply");
    let unseen_client::types::PostLegacyReply::Ok(note, headers) = reply else { panic!("{reply:?}") };
    assert_eq!(note, LegacyNote::default().with_kind(LegacyNoteKind::Final));
    assert_eq!(headers.x_rate, Some(7));
}

#[tokio::test]
async fn bodies_of_any_media_type_go_as_json_or_as_the_callers_bytes() {
    use unseen_client::types::Place;
    let (mock, client) = serve().await;
    mock.on_put_note(|_, input| async move {
        assert_eq!((input.id.as_str(), input.body.city.as_str()), ("n1", "Delft"));
        Ok(())
    });
    mock.on_put_note_xml(|_, input| async move {
        assert_eq!(input.body, b"<place city=\"Delft\"/>");
        Ok(())
    });
    client.put_note("n1", Place::new("NL".into(), "Delft".into())).await.expect("sent as JSON");
    client.put_note_xml("n1", b"<place city=\"Delft\"/>".to_vec()).await.expect("sent as bytes");
    // `*/*` accepts any content type on the server, and reads the body as JSON.
    let base = mock.serve().await.expect("serve");
    let other = reqwest::Client::new()
        .put(format!("{base}/notes/n1"))
        .header("x-key", "key")
        .header("content-type", "application/vnd.example")
        .body(r#"{"country":"NL","city":"Delft"}"#)
        .send()
        .await
        .expect("send");
    assert_eq!(other.status(), 204);
    assert_eq!(mock.calls(), ["putNote", "putNoteXml", "putNote"]);
}

#[tokio::test]
async fn parameters_without_a_plain_text_form_travel_as_json_text() {
    use unseen_client::types::Place;
    let (mock, client) = serve().await;
    mock.on_find_places(|_, input| async move {
        let mut cities = vec![input.near.city];
        cities.extend(input.also.unwrap_or_default().into_iter().map(|p| p.city));
        cities.extend(input.x_origin.map(|p| p.city));
        Ok(cities)
    });
    let place = |city: &str| Place::new("NL".into(), city.into());
    let cities = client
        .find_places(place("Delft"))
        .also(vec![place("Leiden"), place("Gouda")])
        .x_origin(place("Utrecht"))
        .radius(100.0)
        .kind(unseen_client::types::NodeKind::Host)
        .await
        .expect("a reply");
    assert_eq!(cities, ["Delft", "Leiden", "Gouda", "Utrecht"]);
    // Text that is not the JSON of the value is a problem naming the parameter.
    let base = mock.serve().await.expect("serve");
    let bad = reqwest::Client::new()
        .get(format!("{base}/places?near=Delft"))
        .header("x-key", "key")
        .send()
        .await
        .expect("send");
    assert_eq!(bad.status(), 400);
    let problem: serde_json::Value = serde_json::from_slice(&bad.bytes().await.unwrap()).unwrap();
    assert!(problem["errors"]["near"][0].as_str().unwrap().starts_with("is not the JSON text"), "{problem}");
}

#[tokio::test]
async fn a_choice_that_only_narrows_a_number_is_checked_by_the_server() {
    use unseen_client::types::Place;
    let (mock, client) = serve().await;
    mock.on_find_places(|_, input| async move { Ok(vec![format!("{:?}", input.radius)]) });
    let near = || Place::new("NL".into(), "Delft".into());
    // Within either member: 0 to 10, or exactly 100.
    for radius in [5.0, 100.0] {
        let reply = client.find_places(near()).radius(radius).await.expect("a radius a member allows");
        assert_eq!(reply, [format!("Some({radius:?})")]);
    }
    // Between the members, or past both: neither allows it.
    for radius in [50.0, 101.0] {
        let refused = client.find_places(near()).radius(radius).await.expect_err("a radius no member allows");
        assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{radius}: {refused:?}");
        assert!(refused.to_string().contains("radius"), "{radius}: {refused}");
    }
}

#[tokio::test]
async fn an_api_key_in_the_query_is_sent_with_every_call_and_required_by_the_server() {
    let (mock, client) = serve().await;
    mock.on_get_feed(|ctx, input| async move {
        Ok(vec![format!("{} since {}", ctx.token.unwrap_or_default(), input.since.unwrap_or_default())])
    });
    // Encoded on the way, decoded on arrival, beside the operation's own query parameters.
    assert_eq!(client.get_feed().since(7).await.expect("a feed"), ["t 1&x since 7"]);
    assert_eq!(client.get_feed().await.expect("a feed"), ["t 1&x since 0"]);
    let base = mock.serve().await.expect("serve");
    let missing = reqwest::get(format!("{base}/feed?since=1")).await.expect("send");
    assert_eq!(missing.status(), 401);
    assert!(missing.text().await.unwrap().contains("the `access_token` query parameter is missing or empty"));
    // A failed call's error, printed or logged, does not show the key.
    let closed =
        Client::new("http://127.0.0.1:9", Credentials::new("response=abc", "key", "dXNlcjpwdw==", "secret-token"))
            .expect("client");
    let error = closed.get_feed().await.expect_err("nothing listens there");
    let shown = format!("{error} {error:?}");
    assert!(!shown.contains("secret-token") && shown.contains("getFeed"), "{shown}");
}

#[tokio::test]
async fn a_multipart_body_that_is_not_an_object_is_the_callers_bytes() {
    let (mock, client) = serve().await;
    mock.on_post_scan(|_, input| async move {
        assert_eq!(input.body, b"--b\r\n\r\npage\r\n--b--\r\n");
        Ok(())
    });
    client.post_scan(b"--b\r\n\r\npage\r\n--b--\r\n".to_vec()).await.expect("stored");
}

#[tokio::test]
async fn label_and_matrix_path_parameters_carry_their_prefix() {
    let (mock, client) = serve().await;
    mock.on_get_labelled(|_, input| async move {
        assert_eq!(input.id, 7);
        Ok(())
    });
    mock.on_get_matrix(|_, input| async move {
        assert_eq!((input.id, input.next.as_deref()), (8, Some("a/b?c")));
        Ok(())
    });
    client.get_labelled(7).await.expect("label style");
    client.get_matrix(8).next("a/b?c").await.expect("matrix style");
    // A segment without its prefix says which one it needs.
    let base = mock.serve().await.expect("serve");
    let bare =
        reqwest::Client::new().get(format!("{base}/matrix/8")).header("x-key", "key").send().await.expect("send");
    let problem: serde_json::Value = serde_json::from_slice(&bare.bytes().await.unwrap()).unwrap();
    assert!(problem["errors"]["id"][0].as_str().unwrap().contains("must start with `;id=`"), "{problem}");
}

#[tokio::test]
async fn a_required_list_or_map_a_form_leaves_out_is_empty() {
    let (mock, client) = serve().await;
    mock.on_count_batch(|_, input| async move { Ok((input.body.ids.len() + input.body.tags.len()) as i64) });
    let tags = [("a".to_string(), "b".to_string())].into_iter().collect();
    let body = unseen_client::types::CountBatchBody::new(vec![4, 5], tags);
    assert_eq!(client.count_batch(body).await.expect("two ids and a tag"), 3);
    let base = mock.serve().await.expect("serve");
    for (form, count) in [("label=none", "0"), ("ids=1&ids=2&ids=3", "3"), ("tags=&ids=4", "1")] {
        let reply = reqwest::Client::new()
            .post(format!("{base}/readings/batch"))
            .header("x-key", "key")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form)
            .send()
            .await
            .expect("send");
        assert_eq!(reply.status(), 200, "{form}");
        assert_eq!(reply.text().await.expect("text"), count, "{form}");
    }
}

#[tokio::test]
async fn an_express_style_parameter_is_a_parameter_and_a_star_segment_is_literal() {
    let (mock, client) = serve().await;
    mock.on_get_legacy(|_, input| async move { Ok(input.code) });
    mock.on_get_wild(|_, input| async move {
        Ok(input.view.page.unwrap_or(7) + input.x_trace.map_or(0, |trace| trace.len() as i32 * 100))
    });
    assert_eq!(client.get_legacy("AB").send().await.expect("echoed"), "AB");
    let view = unseen_client::types::GetWildView::default();
    assert_eq!(client.get_wild(view.clone()).send().await.expect("a count"), 7);
    let second = view.with_page(2);
    assert_eq!(client.get_wild(second.clone()).send().await.expect("the page"), 2);
    assert_eq!(client.get_wild(second).x_trace("abc").send().await.expect("a text header"), 302);
    let base = mock.serve().await.expect("serve");
    let http = reqwest::Client::new();
    let wild = http.get(format!("{base}/wild/*")).header("x-key", "key").send().await.expect("send");
    assert_eq!(wild.status(), 200, "a required object with no required property may come as no pairs");
    let page = http.get(format!("{base}/wild/*?page=3.0")).header("x-key", "key").send().await.expect("send");
    assert_eq!(page.text().await.expect("text"), "3", "`3.0` is an integer in the query too");
    let other = http.get(format!("{base}/wild/x")).header("x-key", "key").send().await.expect("send");
    assert_eq!(other.status(), 404, "`*` is the segment itself, not a wildcard");
}

#[tokio::test]
async fn an_empty_value_is_absent_only_where_the_document_allows_it() {
    let (mock, _) = serve().await;
    mock.on_get_legacy(|_, input| async move { Ok(format!("{:?} {:?}", input.since, input.after)) });
    let base = mock.serve().await.expect("serve");
    let http = reqwest::Client::new();
    let get = |query: &'static str| http.get(format!("{base}/legacy/AB?{query}")).header("x-key", "key").send();
    assert_eq!(get("").await.expect("send").status(), 200, "`sort` may be left out: that is its `null`");
    let empty = get("since=").await.expect("send");
    assert_eq!(empty.status(), 200, "`allowEmptyValue`: `since=` is no value");
    assert_eq!(empty.text().await.expect("text"), "\"None None\"");
    let refused = get("after=").await.expect("send");
    assert_eq!(refused.status(), 400, "`after` does not allow an empty value");
    assert!(refused.text().await.expect("text").contains("`after`"));
    let given = get("since=2026-11-25T10:00:00Z&after=3").await.expect("send");
    assert_eq!(given.status(), 200);
    assert!(given.text().await.expect("text").contains("Some(3)"));
}

#[tokio::test]
async fn the_client_leaves_out_an_optional_query_parameter_it_was_not_given() {
    let (mock, client) = serve().await;
    mock.on_get_legacy(|_, input| async move { Ok(format!("{} {:?}", input.since.is_some(), input.after)) });
    assert_eq!(client.get_legacy("AB").send().await.expect("none"), "false None");
    assert_eq!(client.get_legacy("AB").after(2).send().await.expect("after"), "false Some(2)");
}

#[tokio::test]
async fn a_required_property_that_may_be_null_must_be_sent() {
    let (mock, client) = serve().await;
    mock.on_add_remark(|_, input| async move { Ok(input.body.text.is_some()) });
    let note = unseen_client::types::Remark::default();
    assert!(!client.add_remark(note.clone()).await.expect("`null` is a value"));
    let written = serde_json::to_value(&note).expect("json");
    assert_eq!(written, serde_json::json!({"text": null}), "the client writes the `null`");
    let base = mock.serve().await.expect("serve");
    let post = |body: &'static str| {
        reqwest::Client::new()
            .post(format!("{base}/remarks"))
            .header("x-key", "key")
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    assert_eq!(post(r#"{"text": "hi"}"#).await.expect("send").status(), 200);
    // JSON Schema counts `4.0` as an integer.
    assert_eq!(post(r#"{"text": null, "stars": 4.0}"#).await.expect("send").status(), 200);
    assert_eq!(post(r#"{"text": null, "stars": 4.5}"#).await.expect("send").status(), 400);
    for (body, problem) in [
        (r#"{"text": null, "ratings": {}}"#, "body.ratings:"),
        (r#"{"text": null, "ratings": {"a": [1, 2], "b": [1, 2], "c": [1, 2]}}"#, "body.ratings:"),
        (r#"{"text": null, "ratings": {"a": [1]}}"#, "body.ratings.a:"),
        (r#"{"text": null, "ratings": {"a": [1, 9]}}"#, "body.ratings.a[1]:"),
    ] {
        let refused = post(body).await.expect("send");
        assert_eq!(refused.status(), 400, "{body}");
        let text = refused.text().await.expect("text");
        assert!(text.contains(problem), "{body}: {text}");
    }
    assert_eq!(post(r#"{"text": null, "ratings": {"a": [1, 5]}}"#).await.expect("send").status(), 200);
    assert_eq!(post(r#"{"text": null, "mood": {"happy": true}}"#).await.expect("send").status(), 200);
    // `hint` is text of at most 3 characters, or any value (`{nullable: true}` says no more).
    assert_eq!(post(r#"{"text": null, "hint": {"any": ["value"]}}"#).await.expect("send").status(), 200);
    assert_eq!(post(r#"{"text": null, "hint": "abc"}"#).await.expect("send").status(), 200);
    let refused = post(r#"{"text": null, "mood": {"happy": true, "sad": 1}}"#).await.expect("send");
    assert_eq!(refused.status(), 400, "the member is closed");
    assert!(refused.text().await.expect("text").contains("sad"));
    assert_eq!(post(r#"{"text": null, "storage": {"kind": "disk", "path": "/a"}}"#).await.expect("send").status(), 200);
    for (body, problem) in [
        (r#"{"text": null, "storage": {"kind": "tape"}}"#, "tape"),
        (r#"{"text": null, "storage": {"kind": "disk", "path": "/a/b/c"}}"#, "path"),
    ] {
        let refused = post(body).await.expect("send");
        assert_eq!(refused.status(), 400, "{body}");
        let text = refused.text().await.expect("text");
        assert!(text.contains(problem), "{body}: {text}");
    }
    let disk = unseen_client::types::RemarkStorage::Disk(unseen_client::types::RemarkStorageDisk::new(
        unseen_client::types::RemarkStorageDiskKind::Disk,
        "/b".to_string(),
    ));
    let written = serde_json::to_value(&disk).expect("json");
    assert_eq!(written, serde_json::json!({"kind": "disk", "path": "/b"}));
    assert_eq!(serde_json::from_value::<unseen_client::types::RemarkStorage>(written).expect("read back"), disk);
    // Without `type`, the schema allows `null` too: an optional property sent so is absent.
    assert_eq!(post(r#"{"text": null, "place": null}"#).await.expect("send").status(), 200);
    let both = r#"{"text": null, "resync": {"all": "yes", "hashes": ["a"]}}"#;
    assert_eq!(post(both).await.expect("send").status(), 200, "not the first member, but the second");
    let refused = post(r#"{"text": null, "resync": {"all": "yes"}}"#).await.expect("send");
    assert_eq!(refused.status(), 400);
    let text = refused.text().await.expect("text");
    assert!(text.contains("expected a boolean"), "the first member's own error: {text}");
    // A value both members of the `oneOf` accept is refused, as `oneOf` says, not read as the
    // first.
    let refused = post(r#"{"text": null, "resync": {"all": true, "hashes": ["a"]}}"#).await.expect("send");
    assert_eq!(refused.status(), 400);
    let text = refused.text().await.expect("text");
    assert!(text.contains("resync") && text.contains("matches 2 of the `oneOf` schemas"), "{text}");
    for (vectors, status) in [("[1, 2]", 200), ("[[1], [2, 3]]", 200), ("[]", 200), (r#"[["x"]]"#, 400)] {
        let body = format!(r#"{{"text": null, "vectors": {vectors}}}"#);
        let reply = reqwest::Client::new()
            .post(format!("{base}/remarks"))
            .header("x-key", "key")
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("send");
        assert_eq!(reply.status(), status, "{vectors}");
    }
    // The document offers the same schema as multipart: read with the same limits.
    let multipart = |stars: &str| {
        let body = format!(
            "--b\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nhi\r\n\
             --b\r\nContent-Disposition: form-data; name=\"stars\"\r\n\r\n{stars}\r\n--b--\r\n"
        );
        reqwest::Client::new()
            .post(format!("{base}/remarks"))
            .header("x-key", "key")
            .header("content-type", "multipart/form-data; boundary=b")
            .body(body)
            .send()
    };
    let read = multipart("4").await.expect("send");
    assert_eq!(read.status(), 200);
    assert_eq!(read.text().await.expect("text"), "true");
    let refused = multipart("6").await.expect("send");
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("text").contains("stars"));
    let refused = post("{}").await.expect("send");
    assert_eq!(refused.status(), 400, "left out is not `null`");
    let body: serde_json::Value =
        serde_json::from_str(&refused.text().await.expect("text")).expect("the documented error body");
    let detail = body["errors"][0]["detail"].as_str().expect("a message in the list");
    assert!(detail.contains("`text`"), "{body}");
    // Without a per-field message, the one item is the error's detail.
    let wrong_type = reqwest::Client::new()
        .post(format!("{base}/remarks"))
        .header("x-key", "key")
        .header("content-type", "text/plain")
        .body("hi")
        .send()
        .await
        .expect("send");
    assert_eq!(wrong_type.status(), 415);
    let body: serde_json::Value =
        serde_json::from_str(&wrong_type.text().await.expect("text")).expect("the documented error body");
    assert!(body["errors"][0]["detail"].as_str().expect("the detail").contains("text/plain"), "{body}");
}

#[tokio::test]
async fn a_body_with_a_schema_per_media_type_is_read_as_the_request_names_it() {
    use unseen_client::File;
    use unseen_client::types::{AddMemoBody, AddMemoJsonBody, AddMemoMultipartBody};
    let (mock, client) = serve().await;
    mock.on_add_memo(|_, input| async move {
        use unseen_server::types::AddMemoBody as Body;
        let revision = unseen_server::types::AddMemoReplyHeaders::default().with_x_revision(7);
        let text = match input.body {
            Body::Json(json) => format!("json: {}", json.text),
            Body::Multipart(form) => {
                let thumb = form.thumb.map_or(0, |t| t.bytes.len());
                let pages = form.pages.map_or(0, |p| p.len());
                let stickers = form.stickers.map_or(0, |s| s.len());
                let cover = form.cover.map(|c| String::from_utf8_lossy(&c.bytes).into_owned()).unwrap_or_default();
                format!(
                    "multipart: {} ({} bytes, thumb {thumb}, {pages} pages, {stickers} stickers, cover {cover:?})",
                    form.title,
                    form.scan.bytes.len()
                )
            }
            Body::Bytes(bytes) => format!("bytes: {bytes:?}"),
        };
        Ok((text, revision))
    });
    let json = AddMemoBody::Json(AddMemoJsonBody::new("milk".into()));
    let (text, headers) = client.add_memo(json).await.expect("JSON");
    assert_eq!(text, "json: milk");
    // The reply header the document gives as a header parameter's reference.
    assert_eq!(headers.x_revision, Some(7));
    let mut form = AddMemoMultipartBody::new("scan".into(), File::new("s.png", vec![1u8, 2, 3]));
    let (sent, _) = client.add_memo(AddMemoBody::Multipart(form.clone())).await.expect("multipart");
    assert_eq!(sent, "multipart: scan (3 bytes, thumb 0, 0 pages, 0 stickers, cover \"\")");
    form.thumb = Some(File::new("t.png", vec![9u8; 2]));
    form.pages = Some(vec![File::new("1.png", vec![1u8]), File::new("2.png", vec![2u8])]);
    // A choice of a file or a list of files is one or more parts; a choice of a file or an
    // object is one part, whose bytes hold whichever came.
    form.stickers = Some(vec![File::new("a.png", vec![1u8]), File::new("b.png", vec![2u8])]);
    form.cover = Some(File::new("c.png", b"png".to_vec()));
    let (sent, _) = client.add_memo(AddMemoBody::Multipart(form.clone())).await.expect("multipart with a thumbnail");
    assert_eq!(sent, "multipart: scan (3 bytes, thumb 2, 2 pages, 2 stickers, cover \"png\")");
    // The object member as another client sends it: a text part with no file name.
    let base = mock.serve().await.expect("serve");
    let body = "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nscan\r\n\
                --b\r\nContent-Disposition: form-data; name=\"scan\"; filename=\"s.png\"\r\n\r\nabc\r\n\
                --b\r\nContent-Disposition: form-data; name=\"cover\"\r\n\r\n{\"shelf\":\"b4\"}\r\n--b--\r\n";
    let reply = reqwest::Client::new()
        .post(format!("{base}/memos"))
        .header("x-key", "key")
        .header("content-type", "multipart/form-data; boundary=b")
        .body(body)
        .send()
        .await
        .expect("send");
    assert_eq!(reply.status(), 200);
    let text: String = serde_json::from_str(&reply.text().await.expect("text")).expect("the memo's text");
    assert!(text.ends_with(r#"cover "{\"shelf\":\"b4\"}")"#), "{text}");
    // The longest list the choice allows is the most parts it takes.
    let mut too_many = form;
    too_many.stickers = Some((0..4u8).map(|i| File::new("s.png", vec![i])).collect());
    let refused = client.add_memo(AddMemoBody::Multipart(too_many)).await.expect_err("four stickers");
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused:?}");
    assert!(refused.to_string().contains("stickers"), "{refused}");
    assert_eq!(client.add_memo(AddMemoBody::Bytes(vec![7, 8])).await.expect("bytes").0, "bytes: [7, 8]");

    // Each case's own limits hold.
    let long = AddMemoBody::Json(AddMemoJsonBody::new("x".repeat(21)));
    let short = AddMemoBody::Multipart(AddMemoMultipartBody::new("s".into(), File::new("s.png", vec![1u8])));
    // Files are compared by their content alone, as JSON Schema compares binary strings.
    let mut twice = AddMemoMultipartBody::new("scan".into(), File::new("s.png", vec![1u8]));
    twice.pages = Some(vec![File::new("1.png", vec![1u8]), File::new("2.png", vec![1u8])]);
    let twice = AddMemoBody::Multipart(twice);
    for (bad, field) in [(long, "text"), (short, "title"), (twice, "pages")] {
        let refused = client.add_memo(bad).await.expect_err(field);
        assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{field}: {refused:?}");
        assert!(refused.to_string().contains(field), "{field}: {refused}");
    }

    // A media type no case reads (XML, warned about at generation) or none at all: 415, naming
    // every type that is read.
    let http = reqwest::Client::new();
    for content_type in [Some("application/xml"), None] {
        let mut request = http.post(format!("{base}/memos")).header("x-key", "key").body("<memo/>");
        if let Some(ct) = content_type {
            request = request.header("content-type", ct);
        }
        let reply = request.send().await.expect("send");
        assert_eq!(reply.status(), 415, "{content_type:?}");
        let text = reply.text().await.expect("text");
        for listed in ["application/json", "multipart/form-data", "application/octet-stream"] {
            assert!(text.contains(listed), "{content_type:?}: {text}");
        }
    }
}

#[tokio::test]
async fn an_operation_that_documents_only_text_is_refused_in_text() {
    let (mock, client) = serve().await;
    mock.on_greet(|_, input| async move {
        Ok(FileDownload::new(format!("hello {}", input.name)).with_content_type("text/plain"))
    });
    let greeting = client.greet("ann").await.expect("a greeting").body.collect().await.expect("text");
    assert_eq!(greeting, b"hello ann");
    let refused = client.greet("annabel").await.expect_err("too long");
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused:?}");
    assert!(refused.to_string().contains("name"), "{refused}");

    let base = mock.serve().await.expect("serve");
    let reply = reqwest::get(format!("{base}/greeting")).await.expect("send");
    assert_eq!(reply.status(), 400);
    assert_eq!(reply.headers()["content-type"], "text/plain");
    let text = reply.text().await.expect("text");
    assert!(text.lines().any(|line| line.starts_with("name: ")), "{text}");
}

#[tokio::test]
async fn a_reply_without_content_beside_a_download_is_a_download_without_bytes() {
    let (mock, client) = serve().await;
    let queued = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = queued.clone();
    mock.on_get_report(move |_, _| {
        let queued = flag.load(std::sync::atomic::Ordering::SeqCst);
        async move {
            Ok(match queued {
                true => FileDownload::new("ignored").with_status(204),
                false => FileDownload::new(vec![1u8, 2]).with_content_type("application/vnd.ms-excel"),
            })
        }
    });
    let now = client.get_report().await.expect("the spreadsheet");
    assert_eq!((now.status, now.content_type.as_deref()), (200, Some("application/vnd.ms-excel")));
    assert_eq!(now.body.collect().await.expect("bytes"), [1, 2]);

    queued.store(true, std::sync::atomic::Ordering::SeqCst);
    let later = client.get_report().await.expect("queued");
    assert_eq!((later.status, later.content_type.as_deref()), (204, None));
    assert!(later.body.collect().await.expect("no bytes").is_empty());
}

#[tokio::test]
async fn rejections_of_a_csv_or_bytes_only_operation_are_text_in_its_own_media_type() {
    let (mock, _) = serve().await;
    let base = mock.serve().await.expect("serve");
    for (path, media, name) in
        [("/ledger?year=3000", "text/csv", "year"), ("/firmware?build=0", "application/octet-stream", "build")]
    {
        let reply = reqwest::get(format!("{base}{path}")).await.expect("send");
        assert_eq!(reply.status(), 400, "{path}");
        assert_eq!(reply.headers()["content-type"], media, "{path}");
        let text = reply.text().await.expect("text");
        assert!(text.lines().any(|line| line.starts_with(&format!("{name}: "))), "{path}: {text}");
    }
}

#[tokio::test]
async fn look_around_patterns_on_parameters_are_checked() {
    let (mock, _) = serve().await;
    let base = mock.serve().await.expect("serve");
    let refused = reqwest::get(format!("{base}/ledger?year=2000&account=tmp_cash")).await.expect("send");
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("text").contains("account"));
    let kept = reqwest::get(format!("{base}/ledger?year=2000&account=cash")).await.expect("send");
    assert_ne!(kept.status(), 400, "{:?}", kept.text().await);
}

#[tokio::test]
async fn rejections_of_a_yaml_only_operation_take_its_documented_shape_as_yaml() {
    let (mock, _) = serve().await;
    let base = mock.serve().await.expect("serve");
    let reply = reqwest::get(format!("{base}/settings?depth=9")).await.expect("send");
    assert_eq!(reply.status(), 400);
    assert_eq!(reply.headers()["content-type"], "application/x-yaml");
    let body: serde_json::Value =
        serde_json::from_str(&reply.text().await.expect("text")).expect("JSON, which is YAML");
    assert!(body["error"].as_str().is_some_and(|e| e.contains("depth")), "{body}");
}

#[tokio::test]
async fn a_json_reply_beside_a_download_is_a_download_of_its_bytes() {
    let (mock, client) = serve().await;
    let as_json = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let flag = as_json.clone();
    mock.on_answer_offer(move |_, _| {
        let json = flag.load(std::sync::atomic::Ordering::SeqCst);
        async move {
            Ok(match json {
                true => FileDownload::new(r#"{"sdp":"v=0"}"#).with_content_type("application/json").with_status(200),
                // The file's own status is the default one.
                false => FileDownload::new("v=0").with_content_type("application/sdp"),
            })
        }
    });
    let json = client.answer_offer().await.expect("the JSON answer");
    assert_eq!((json.status, json.content_type.as_deref()), (200, Some("application/json")));
    assert_eq!(json.body.collect().await.expect("bytes"), br#"{"sdp":"v=0"}"#.as_slice());
    as_json.store(false, std::sync::atomic::Ordering::SeqCst);
    let sdp = client.answer_offer().await.expect("the SDP answer");
    assert_eq!((sdp.status, sdp.content_type.as_deref()), (201, Some("application/sdp")));
    assert_eq!(sdp.body.collect().await.expect("bytes"), b"v=0".as_slice());
}

#[tokio::test]
async fn a_form_and_multipart_of_one_schema_beside_json_are_each_read() {
    use unseen_client::types::{OpenTicketBody, OpenTicketJsonBody, TicketForm};
    let (mock, client) = serve().await;
    mock.on_open_ticket(|_, input| async move {
        use unseen_server::types::OpenTicketBody as Body;
        Ok(match input.body {
            Body::Json(json) => format!("json {}", json.subject),
            Body::Form(form) => format!("form {} {:?}", form.title, form.urgent),
            Body::Multipart(form) => format!("multipart {} {:?}", form.title, form.urgent),
        })
    });
    let mut form = TicketForm::new("leak".into());
    form.urgent = Some(true);
    let json = OpenTicketBody::Json(OpenTicketJsonBody::new("roof".into()));
    assert_eq!(client.open_ticket(json).await.expect("JSON"), "json roof");
    let sent = client.open_ticket(OpenTicketBody::Form(form.clone())).await.expect("form");
    assert_eq!(sent, "form leak Some(true)");
    let sent = client.open_ticket(OpenTicketBody::Multipart(form)).await.expect("multipart");
    assert_eq!(sent, "multipart leak Some(true)");
    let long = OpenTicketBody::Multipart(TicketForm::new("a title too long".into()));
    let refused = client.open_ticket(long).await.expect_err("too long");
    assert!(refused.to_string().contains("title"), "{refused}");
}

#[tokio::test]
async fn paths_that_differ_only_in_parameter_names_share_a_route() {
    let (mock, client) = serve().await;
    mock.on_get_shelf(|_, input| async move { Ok(format!("shelf {}", input.shelf)) });
    let dropped = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = dropped.clone();
    mock.on_drop_shelf(move |_, input| {
        seen.lock().unwrap().push(input.shelf_id);
        async { Ok(()) }
    });
    assert_eq!(client.get_shelf("oak").await.expect("get"), "shelf oak");
    client.drop_shelf(7).await.expect("drop");
    assert_eq!(*dropped.lock().unwrap(), [7]);
    // Each operation's own limits hold under the shared route.
    let refused = client.drop_shelf(100).await.expect_err("past the maximum");
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused:?}");
    assert!(refused.to_string().contains("shelf.id"), "{refused}");
}

#[tokio::test]
async fn a_segment_of_parameters_among_literal_text_is_split_into_them() {
    use unseen_client::types::GetClipExt;
    let (mock, client) = serve().await;
    mock.on_get_clip(|_, input| async move { Ok(format!("{} as {:?}", input.clip, input.ext)) });
    assert_eq!(client.get_clip("intro", GetClipExt::Mp4).await.expect("a clip"), "intro as Mp4");
    let refused = client.get_clip("much-too-long", GetClipExt::Webm).await.expect_err("too long");
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused:?}");

    let base = mock.serve().await.expect("serve");
    for (path, status) in
        [("/clips/intro.mp4", 200), ("/clips/intro", 404), ("/clips/intro.avi", 400), ("/clips/.mp4", 404)]
    {
        let reply = reqwest::get(format!("{base}{path}")).await.expect("send");
        assert_eq!(reply.status(), status, "{path}");
    }
}

#[tokio::test]
async fn a_query_the_path_fixes_is_where_the_operation_is() {
    let (mock, client) = serve().await;
    mock.on_preview_litters(|_, _| async { Ok("a preview".to_string()) });
    assert_eq!(client.preview_litters().await.expect("the client sends the query"), "a preview");
    let base = mock.serve().await.expect("serve");
    // No other operation is served on the route: without the pair, nothing is there.
    for (query, status) in [("?preview=true", 200), ("?a=1&preview=true", 200), ("?preview=false", 404), ("", 404)] {
        let reply = reqwest::get(format!("{base}/litters{query}")).await.expect("send");
        assert_eq!(reply.status(), status, "{query}");
    }
}

#[tokio::test]
async fn operations_of_one_method_on_one_route_are_told_apart_by_their_text() {
    let (mock, client) = serve().await;
    mock.on_archive_clip(|_, input| async move { Ok(format!("archived {}", input.clip)) });
    mock.on_restore_clip(|_, input| async move { Ok(format!("restored {}", input.clip)) });
    assert_eq!(client.archive_clip("intro").await.expect("archive"), "archived intro");
    assert_eq!(client.restore_clip("intro").await.expect("restore"), "restored intro");
    let base = mock.serve().await.expect("serve");
    let http = reqwest::Client::new();
    for (path, status) in [("/clips/intro:archive", 200), ("/clips/intro%3Arestore", 200), ("/clips/intro:other", 404)]
    {
        let reply = http.post(format!("{base}{path}")).send().await.expect("send");
        assert_eq!(reply.status(), status, "{path}");
    }
}

/// What no one Rust type holds exactly travels in the looser form the warnings name, and works:
/// two choices in one parameter as JSON text, a body named but never described as bytes, a reply
/// named but never described as a download, an HTTP scheme of its own in `Authorization`, and an
/// operation that documents only an informational status answering 200.
#[tokio::test]
async fn what_is_read_looser_still_works_on_the_wire() {
    use unseen_client::types::{Loose, LooseLevel, LooseShape};
    let (mock, client) = serve().await;
    mock.on_put_loose(|_, input| async move {
        let read = (input.note.as_deref(), input.single, input.flat.as_deref());
        assert!(read == (Some("n"), Some(7), Some("f")) || read == (None, None, None), "{read:?}");
        let body = input.body.unwrap_or_else(|| b"none".to_vec());
        let mut loose = Loose::default()
            .with_rows(vec![serde_json::json!(1), serde_json::json!("b")])
            .with_level(LooseLevel::Value3)
            .with_shape(LooseShape::String(String::from_utf8(body).expect("text")));
        loose.day = input.tag;
        Ok(loose)
    });
    let loose = client
        .put_loose("x")
        .tag(serde_json::json!("ab"))
        .note("n")
        .single(7)
        .flat("f")
        .body(b"round".to_vec())
        .await
        .expect("the loose shapes");
    assert_eq!(loose.shape, Some(LooseShape::String("round".into())));
    assert_eq!((loose.day, loose.level), (Some(serde_json::json!("ab")), Some(LooseLevel::Value3)));
    // Held as any JSON, but checked against the document's schema: the server refuses what it
    // refuses, and names where.
    for refused in [serde_json::json!("a"), serde_json::json!(3), serde_json::json!(true)] {
        let err = client.put_loose("x").tag(refused.clone()).await.expect_err("outside the schema");
        assert_eq!(err.status().map(|s| s.as_u16()), Some(400), "{refused}: {err:?}");
        assert!(format!("{err:?}").contains("does not match the document's schema"), "{err:?}");
    }
    let loose = client.put_loose("x").tag(serde_json::json!(12)).await.expect("an integer of ten or more");
    assert_eq!(loose.day, Some(serde_json::json!(12)));

    // The scheme's credential goes after its name, and the server asks for it.
    mock.on_delete_loose(|ctx, input| async move {
        assert_eq!(input.body.as_deref(), Some(&b"gone"[..]));
        let sent = ctx.headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default();
        assert_eq!(ctx.digest.as_deref(), Some("response=abc"));
        Ok(FileDownload::new(sent.to_string()))
    });
    let reply = client.delete_loose().body(b"gone".to_vec()).await.expect("the download");
    assert_eq!(reply.body.collect().await.expect("bytes"), b"digest response=abc");
    let raw = reqwest::Client::new().delete(format!("{}/loose", client.base_url())).send().await.expect("sent");
    assert_eq!(raw.status(), 401);

    mock.on_post_loose(|_, _| async { Ok(()) });
    client.post_loose().await.expect("a 200 without a body");
}

/// A JSON body the document also takes as XML is read from either: elements, an attribute, a
/// wrapped and an unwrapped list, as the schema's `xml` objects say; XML that is malformed, or
/// outside the schema, is refused with where.
#[tokio::test]
async fn a_body_sent_as_xml_is_read_by_its_schema() {
    use unseen_client::types::Dog;
    let (mock, client) = serve().await;
    mock.on_add_to_kennel(|_, input| std::future::ready(Ok(input.body)));
    let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
        <dog id="7"><name>Rex</name><photoUrls><photoUrl>a.png</photoUrl><photoUrl>b.png</photoUrl></photoUrls>
        <toy><kind>ball</kind></toy><toy><kind>rope</kind></toy><good>true</good></dog>"#;
    let raw = reqwest::Client::new();
    let send = |body: &'static str| {
        raw.post(format!("{}/kennel", client.base_url())).header("content-type", "application/xml").body(body).send()
    };
    let reply = send(xml).await.expect("sent");
    assert_eq!(reply.status(), 200);
    let dog: Dog = serde_json::from_slice(&reply.bytes().await.expect("a body")).expect("the dog as JSON");
    assert_eq!((dog.id, dog.name.as_str(), dog.good), (Some(7), "Rex", Some(true)));
    assert_eq!(dog.photo_urls.as_deref(), Some(&["a.png".to_string(), "b.png".to_string()][..]));
    assert_eq!(dog.toys.as_ref().map(Vec::len), Some(2));
    // The client sends JSON, which the server reads as ever.
    assert_eq!(client.add_to_kennel(dog.clone()).await.expect("as JSON"), dog);
    // A path that fixes a query value (`/kennel?draft=true`) is an operation of its own: the
    // client sends that value beside its parameters, the server chooses by it.
    mock.on_draft_kennel_entry(|_, input| std::future::ready(Ok(format!("{} {:?}", input.body.name, input.note))));
    let body = unseen_client::types::DraftKennelEntryBody::new("Rex".into());
    let drafted = client.draft_kennel_entry(body.clone()).note("later").await.expect("a draft");
    assert_eq!(drafted, r#"Rex Some("later")"#);
    assert_eq!(client.draft_kennel_entry(body).await.expect("a draft"), "Rex None");
    assert_eq!(client.add_to_kennel(dog.clone()).await.expect("not a draft"), dog, "without the query");
    for (query, drafted) in
        [("?draft=true", true), ("?note=a&draft=%74rue", true), ("?draft=false", false), ("", false)]
    {
        let reply = raw
            .post(format!("{}/kennel{query}", client.base_url()))
            .header("content-type", "application/json")
            .body(r#"{"name": "Rex"}"#)
            .send()
            .await
            .expect("sent");
        let text = reply.text().await.expect("text");
        assert_eq!(text.starts_with(r#""Rex"#), drafted, "{query}: {text}");
    }
    for (bad, why) in [
        ("<dog><name>Rex</dog>", "the body is not XML"),
        ("<dog><name></name></dog>", "body.name"),
        ("<dog><name>Rex</name><good>perhaps</good></dog>", "body.good"),
    ] {
        let reply = send(bad).await.expect("sent");
        assert_eq!(reply.status(), 400, "{bad}");
        let text = reply.text().await.expect("a problem");
        assert!(text.contains(why), "{bad}: {text}");
    }
}

/// Lists in the path, in each style OpenAPI defines for them: `simple` (`1,2`), `label`
/// exploded (`.a.b`) and `matrix` (`;marks=x,y`), written by the client and read by the server,
/// their limits checked.
#[tokio::test]
async fn lists_in_the_path_are_written_and_read_in_their_styles() {
    let (mock, client) = serve().await;
    mock.on_get_batches(|_, input| async move {
        Ok(vec![format!("{:?}", input.ids), input.labels.join("|"), input.marks.join("|")])
    });
    let read = client.get_batches([1, 2], ["a", "b c"], ["x", "y"]).await.expect("the lists");
    assert_eq!(read, ["[1, 2]", "a|b c", "x|y"]);
    let raw = reqwest::Client::new();
    let get = |path: &str| raw.get(format!("{}{path}", client.base_url())).header("X-Key", "key").send();
    let reply = get("/batches/3,4/.c.d/;marks=z").await.expect("sent");
    assert_eq!(reply.status(), 200);
    let bytes = reply.bytes().await.expect("a body");
    assert_eq!(serde_json::from_slice::<Vec<String>>(&bytes).unwrap(), ["[3, 4]", "c|d", "z"]);
    for (path, why) in [
        ("/batches/3,x/.c/;marks=z", "ids"),
        ("/batches/3/c/;marks=z", "must start with `.`"),
        ("/batches/3/.c/;marks=w,x,y,z", "marks"),
    ] {
        let reply = get(path).await.expect("sent");
        assert_eq!(reply.status(), 400, "{path}");
        let text = reply.text().await.expect("a problem");
        assert!(text.contains(why), "{path}: {text}");
    }
}

/// A body whose schema allows `null` may be `null`: the client sends `None` as `null`, the server
/// reads it as `None`, and a required body that is not sent at all is still refused.
#[tokio::test]
async fn a_nullable_body_may_be_null() {
    use unseen_client::types::Toy;
    let (mock, client) = serve().await;
    mock.on_clear_kennel(|_, input| std::future::ready(Ok(input.body.is_some())));
    assert!(!client.clear_kennel(None).await.expect("null"));
    assert!(client.clear_kennel(Some(Toy::default().with_kind("ball".into()))).await.expect("a toy"));
    let raw = reqwest::Client::new().put(format!("{}/kennel/clear", client.base_url()));
    let reply = raw.header("X-Key", "key").send().await.expect("sent");
    assert_eq!(reply.status(), 400, "a required body, not sent");
}

#[tokio::test]
async fn an_enum_value_named_err_and_a_choice_of_named_texts_travel_as_query_text() {
    use unseen_client::types::{ListLogsLevel, ListLogsRef};
    let (mock, client) = serve().await;
    mock.on_list_logs(|_, input| async move { Ok(vec![format!("{:?}", input.level), format!("{:?}", input.r#ref)]) });
    let code = client.list_logs(ListLogsLevel::Err, ListLogsRef::LogCode("a-7".into())).await.expect("a code");
    assert_eq!(code, ["Err", r#"LogCode("a-7")"#]);
    // Text that is a UUID reads as the UUID member; any other text as the plain one.
    let id = "c99506a6-1255-4b71-afa5-7b8ba48c3b1b";
    let read = client.list_logs(ListLogsLevel::Info, id.parse().expect("text")).await.expect("an id");
    assert_eq!(read, ["Info".to_string(), format!("LogId({id})")]);
    assert!("err".parse::<ListLogsLevel>().is_ok_and(|level| level == ListLogsLevel::Err));
}

/// A JSON body the document also lists as text and as bytes, which give an object no form of
/// their own, is read as JSON under each; an error reply whose object the document lists only
/// under an archive's media type is written as JSON and read back by the client as its type.
#[tokio::test]
async fn a_body_listed_as_text_or_bytes_is_json_and_an_archives_error_is_json() {
    use unseen_client::types::{ArchiveKennelError, Dog};
    let (mock, client) = serve().await;
    mock.on_archive_kennel(|_, input| {
        std::future::ready(Ok(FileDownload::new(input.body.name).with_content_type("application/x-tar")))
    });
    let raw = reqwest::Client::new();
    for media in ["application/json", "text/plain", "application/octet-stream"] {
        let reply = raw
            .put(format!("{}/kennel/archive", client.base_url()))
            .header("content-type", media)
            .body(r#"{"name":"Rex","favourite":null,"labels":null,"marks":null}"#)
            .send()
            .await
            .expect("sent");
        assert_eq!(reply.status(), 200, "{media}");
        assert_eq!(reply.text().await.expect("bytes"), "Rex", "{media}");
    }
    // Another media type stays refused, and so does a body that is not the schema's JSON.
    let other = raw.put(format!("{}/kennel/archive", client.base_url())).header("content-type", "image/png");
    assert_eq!(other.body(r#"{"name":"Rex"}"#).send().await.expect("sent").status(), 415);
    let text = raw.put(format!("{}/kennel/archive", client.base_url())).header("content-type", "text/plain");
    assert_eq!(text.body("Rex").send().await.expect("sent").status(), 400);
    // The server's own rejection takes the documented shape, as JSON, which the client reads.
    let dog = Dog::new("Rex".into());
    let error = client.archive_kennel(dog).level(10).send().await.expect_err("level past 9");
    let reply = raw
        .put(format!("{}/kennel/archive?level=10", client.base_url()))
        .header("content-type", "application/json")
        .body(r#"{"name":"Rex"}"#)
        .send()
        .await
        .expect("sent");
    assert_eq!(reply.headers()["content-type"], "application/json");
    match ArchiveKennelError::from_error(&error) {
        Some(ArchiveKennelError::BadRequest(fault)) => assert!(fault.message.contains("level"), "{}", fault.message),
        other => panic!("not the documented 400: {other:?} from {error:?}"),
    }
}

/// A request too large for the server to read its head is answered before any route is found, in
/// the document's error body for requests no operation serves (here its `4XX` list of errors),
/// through the crate's own `serve` and the mock's alike.
#[tokio::test]
async fn a_head_too_large_to_read_is_refused_in_the_documents_shape() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let served = listener.local_addr().expect("address");
    let router = unseen_server::router_with(MockApi::new(), unseen_server::ServerConfig::default());
    tokio::spawn(unseen_server::serve(listener, router, std::future::pending()));
    let (mock, _) = serve().await;
    let mocked = mock.serve().await.expect("serve");
    let mocked = mocked.strip_prefix("http://").expect("a URL").to_string();
    for addr in [served.to_string(), mocked] {
        let mut stream = tokio::net::TcpStream::connect(&addr).await.expect("connect");
        let head = format!("GET /readings HTTP/1.1\r\nhost: x\r\nx-big: {}\r\n\r\n", "a".repeat(200 * 1024));
        // The server may stop reading and answer before the whole head is written.
        let _ = stream.write_all(head.as_bytes()).await;
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply).await;
        let reply = String::from_utf8_lossy(&reply);
        assert!(reply.starts_with("HTTP/1.1 431"), "{addr}: {reply}");
        assert!(reply.contains("content-type: application/json\r\n"), "{addr}: {reply}");
        let body: serde_json::Value =
            serde_json::from_str(reply.split("\r\n\r\n").nth(1).expect("a body")).expect("JSON");
        let detail = body["errors"][0]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("head"), "{addr}: {body}");
    }
}

/// Credentials are fetched for the operations that send them and only for those: a provider that
/// fails stops a signed call before it is sent, and is never asked for an operation the document
/// lets anyone call.
#[tokio::test]
async fn the_credentials_provider_is_asked_only_for_operations_that_send_credentials() {
    let mock = MockApi::new();
    let base = mock.serve().await.expect("serve");
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let provider = {
        let asked = asked.clone();
        move || {
            asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            async { Err::<Credentials, _>("the token service is down".into()) }
        }
    };
    let client = Client::builder(&base, Credentials::new("", "", "", "")).credentials_provider(provider).build();
    let client = client.expect("client");
    mock.on_get_shelf(|_, input| async move { Ok(format!("shelf {}", input.shelf)) });
    assert_eq!(client.get_shelf("oak").await.expect("an anonymous call"), "shelf oak");
    assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 0, "the provider was asked for an anonymous call");

    let refused = client.delete_loose().await.expect_err("a signed call without credentials");
    assert!(matches!(refused, unseen_client::Error::Credentials { operation: "deleteLoose", .. }), "{refused:?}");
    assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 1);
    assert_eq!(mock.calls(), ["getShelf"], "the signed call reached the server");
}

/// Every builder's future can move between threads, as a spawned task needs, and has a name.
#[test]
fn request_futures_are_send_and_nameable() {
    fn send<T: Send>(_: &T) {}
    let client = Client::new("http://127.0.0.1:9", Credentials::new("", "", "", "")).expect("client");
    let future: unseen_client::Sending<'_, String> = client.get_shelf("oak").send();
    send(&future);
    send(&std::future::IntoFuture::into_future(client.delete_loose()));
}

/// An operation that declares `Idempotency-Key` gets a key of the client's own when the caller sets
/// none, the same on the retry, so the POST is retried; a key the caller sets is sent as it is.
#[tokio::test]
async fn a_declared_idempotency_key_is_sent_and_kept_across_retries() {
    let (mock, client) = serve().await;
    let keys = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = keys.clone();
    mock.on_create_payment(move |_, input| {
        let mut keys = seen.lock().unwrap();
        keys.push(input.idempotency_key);
        let first = keys.len() == 1;
        async move {
            match first {
                true => Err(unseen_server::ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE)),
                false => Ok(()),
            }
        }
    });
    client.create_payment().await.expect("the retry succeeds");
    let sent = keys.lock().unwrap().clone();
    assert_eq!(sent.len(), 2, "one attempt and one retry");
    let key = sent[0].clone().expect("a key of the client's own");
    assert_eq!(key.len(), 36, "{key}");
    assert_eq!(sent[1].as_deref(), Some(key.as_str()), "the same key on the retry");

    keys.lock().unwrap().clear();
    client.create_payment().idempotency_key("mine").await.expect("the retry succeeds");
    let sent = keys.lock().unwrap().clone();
    assert_eq!(sent, [Some("mine".to_string()), Some("mine".to_string())]);
}

#[tokio::test]
async fn lists_behind_references_are_written_and_read_as_lists() {
    let (mock, client) = serve().await;
    mock.on_list_named(|_, input| {
        let lists = [input.codes, input.labels.unwrap_or_default(), input.tags.unwrap_or_default()];
        std::future::ready(Ok(lists.into_iter().chain([input.x_marks.unwrap_or_default()]).collect()))
    });
    let read = client
        .list_named(["a", "b"])
        .labels(["l 1", "l,2"])
        .tags(["t1", "t|2"])
        .x_marks(["m1", "m2"])
        .await
        .expect("every list is sent and read back");
    let strings = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let expected = [strings(&["a", "b"]), strings(&["l 1", "l,2"]), strings(&["t1", "t|2"]), strings(&["m1", "m2"])];
    assert_eq!(read, expected);
    // An item holding the list's delimiter would be read as two: it is refused before sending.
    let refused = client.list_named(["a"]).labels(["l|2"]).await.expect_err("a delimiter inside an item");
    assert!(refused.to_string().contains("joins the items"), "{refused}");
}

#[tokio::test]
async fn path_parameters_axum_would_read_otherwise_are_captured_by_position() {
    let (mock, client) = serve().await;
    mock.on_get_key(|_, input| std::future::ready(Ok(input.empty)));
    mock.on_get_file_meta(|_, input| std::future::ready(Ok(input.rest)));
    assert_eq!(client.get_key("k 1").await.expect("an empty name"), "k 1");
    // `{*rest}` is one segment here, not the rest of the path.
    assert_eq!(client.get_file_meta("a.txt").await.expect("a starred name"), "a.txt");
    assert_eq!(client.get_file_meta("a/b").await.expect("a slash, encoded"), "a/b");
}

#[tokio::test]
async fn bodies_that_are_no_object_are_checked_against_their_limits() {
    let (mock, client) = serve().await;
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (a, r, m) = (calls.clone(), calls.clone(), calls.clone());
    mock.on_add_codes(move |_, _| {
        a.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        std::future::ready(Ok(()))
    });
    mock.on_replace_codes(move |_, _| {
        r.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        std::future::ready(Ok(()))
    });
    mock.on_set_motto(move |_, _| {
        m.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        std::future::ready(Ok(()))
    });
    let base = mock.serve().await.expect("serve");
    let send = |method: reqwest::Method, path: &str, content_type: &str, body: String| {
        reqwest::Client::new()
            .request(method, format!("{base}{path}"))
            .header("x-key", "key")
            .header("content-type", content_type)
            .body(body)
            .send()
    };
    client.add_codes(vec!["AB".into(), "C".into()]).await.expect("within the limits");
    client.set_motto("keep it small".into()).await.expect("within the limits");
    let many = serde_json::to_string(&vec!["x"; 5_000]).unwrap();
    for (method, path, content_type, body, problem) in [
        (reqwest::Method::POST, "/codes", "application/json", r#"["AB","CD","EF","GH"]"#.to_string(), "\"body\""),
        (reqwest::Method::POST, "/codes", "application/json", r#"["AB","cd"]"#.to_string(), "body[1]"),
        (reqwest::Method::POST, "/codes", "application/json", r#"["ABCDE"]"#.to_string(), "body[0]"),
        (reqwest::Method::POST, "/codes", "application/json", many, "\"body\""),
        (reqwest::Method::PUT, "/codes", "application/json", "[]".to_string(), "\"body\""),
        (reqwest::Method::PUT, "/codes", "application/json", r#"["ok","x"]"#.to_string(), "body[1]"),
        (reqwest::Method::PUT, "/motto", "text/plain", "SHOUTING".to_string(), "\"body\""),
        (reqwest::Method::PUT, "/motto", "text/plain", "a".repeat(21), "\"body\""),
    ] {
        let refused = send(method.clone(), path, content_type, body.clone()).await.expect("send");
        assert_eq!(refused.status(), 400, "{method} {path} {body:.40}");
        let text = refused.text().await.expect("text");
        assert!(text.contains(problem), "{method} {path} {body:.40}: {text}");
    }
    assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 2, "nothing invalid reached the implementation");
}
