//! What documents write their own way works on the wire: repaired schemas and their limits,
//! Swagger 2.0 spellings in an OpenAPI 3 document, looser reading, and maps beside properties.

/// The features fixture.
mod features {
    use crate::fixtures::features::{client, start};

    #[tokio::test]
    async fn maps_beside_properties_and_names_from_the_path_round_trip() {
        use features_client::types::Stats;
        let (base, _) = start().await;
        let client = client(&base);
        // No operationId: the method is named from the method and path; both path parameters are
        // percent-encoded by the client and decoded by the server.
        let stats = client.get_stats_by_kind_by_from("a/b c", "ü?#").await.unwrap();
        let mut expected = Stats::new(2);
        expected.additional_properties.insert("a/b c".into(), 1);
        expected.additional_properties.insert("ü?#".into(), 1);
        assert_eq!(stats, expected);
        let raw = reqwest::Client::new().get(format!("{base}/stats/x/y")).send().await.unwrap().text().await.unwrap();
        assert_eq!(raw, r#"{"total":2,"x":1,"y":1}"#, "extra properties sit beside the declared ones");
    }
}

/// The unseen fixture.
mod unseen {
    use crate::fixtures::unseen::serve;
    use unseen_client::Nullable;
    use unseen_client::types::{Code, Level, Reading, ReadingFlag, ReadingSizes, TokenText, Tokens};
    use unseen_server::FileDownload;

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
        let stored = form("id=00000000-0000-0000-0000-000000000000&score=null&alias=null&unit=null&mark=null")
            .await
            .expect("send");
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
        let stored = json(r#"{"id": "00000000-0000-0000-0000-000000000000", "note": "ok", "positive": 3.0}"#)
            .await
            .expect("send");
        assert_eq!(stored.status(), 204);
        assert_eq!(seen.lock().unwrap().last().unwrap().positive, Some(3), "`3.0` is the integer 3");
        // Past 15 digits, a zero fraction is read without it: serde_json alone lands a quarter off.
        let stored = json(r#"{"id": "00000000-0000-0000-0000-000000000000", "value": -1889331988471979.0}"#)
            .await
            .expect("send");
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
            Ok(server_types::PostLegacyReply::Ok(
                note,
                server_types::PostLegacyReply200Headers::default().with_x_rate(7),
            ))
        });
        let body = PostLegacyBody::default()
            .with_attachment(unseen_client::File::new("a.txt", b"x".to_vec()))
            .with_note(serde_json::json!(3));
        let reply = client.post_legacy().kind(PostLegacyKind::B).body(body).await.expect("a reply");
        let unseen_client::types::PostLegacyReply::Ok(note, headers) = reply else { panic!("{reply:?}") };
        assert_eq!(note, LegacyNote::default().with_kind(LegacyNoteKind::Final));
        assert_eq!(headers.x_rate, Some(7));
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
}
