//! Request bodies by media type: forms, bytes, text, XML, bodies of any type, a schema per media
//! type, `null` where it is allowed and required-or-null properties, and patches that clear.

/// The features fixture.
mod features {
    use crate::fixtures::features::{client, start};
    use features_client::types::{LabelKind, Owner};

    #[tokio::test]
    async fn form_bodies_round_trip_with_lists_enums_and_nested_objects() {
        use features_client::types::{AddVisitBody, Visit};
        let (base, _) = start().await;
        let client = client(&base);
        let owner = Owner::default().with_name("Ann & Bo".into());
        let body = AddVisitBody::new("check up".into(), 30)
            .with_urgent(true)
            .with_kind(LabelKind::InProgress)
            .with_notes(vec!["limps a bit".into(), "a+b=c".into()])
            .with_owner(owner.clone())
            .with_signature("Dr. Vet".into());
        // The signature is write-only and required: optional in the type, which replies share, but
        // a request without it is refused.
        let mut unsigned = body.clone();
        unsigned.signature = None;
        let refused = client.add_visit("Rex", unsigned).await.expect_err("unsigned");
        assert!(format!("{refused:?}").contains("body.signature"), "{refused:?}");
        let visit = client.add_visit("Rex", body).await.unwrap();
        let expected = Visit::new("Rex".into(), "check up".into(), 30)
            .with_urgent(true)
            .with_kind(LabelKind::InProgress)
            .with_notes(vec!["limps a bit".into(), "a+b=c".into()])
            .with_owner(owner);
        assert_eq!(visit, expected);

        // The server reads plain form text, and names the field whose value does not fit.
        let http = reqwest::Client::new();
        let send = |body: &'static str| {
            http.post(format!("{base}/pets/Rex/visits"))
                .bearer_auth("tok")
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
        };
        let ok = send("reason=a+b&minutes=5&notes=x&notes=y&signature=s").await.unwrap();
        assert_eq!(ok.status(), 200);
        let text = ok.text().await.unwrap();
        assert!(text.contains(r#""reason":"a b""#) && text.contains(r#""notes":["x","y"]"#), "{text}");
        // Absent properties with a default arrive as that default.
        assert!(text.contains(r#""urgent":false"#) && text.contains(r#""kind":"in-progress""#), "{text}");
        let bad = send("reason=a&minutes=many").await.unwrap();
        assert_eq!(bad.status(), 400);
        let problem = bad.text().await.unwrap();
        assert!(problem.contains("body.minutes"), "{problem}");
        let low = send("reason=a&minutes=0").await.unwrap();
        assert_eq!(low.status(), 400, "limits apply to form bodies too");
        let json = http
            .post(format!("{base}/pets/Rex/visits"))
            .bearer_auth("tok")
            .header("content-type", "application/json")
            .body(r#"{"reason":"a","minutes":5}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(json.status(), 415);
    }

    #[tokio::test]
    async fn binary_bodies_arrive_byte_for_byte() {
        let (base, _) = start().await;
        let client = client(&base);
        let photo: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
        assert_eq!(client.put_photo("Rex", photo).await.unwrap(), 70_000);
        let http = reqwest::Client::new();
        let wrong = http
            .put(format!("{base}/pets/Rex/photo"))
            .bearer_auth("tok")
            .header("content-type", "image/jpeg")
            .body(vec![1u8, 2, 3])
            .send()
            .await
            .unwrap();
        assert_eq!(wrong.status(), 415, "only the declared media type is accepted");
        // No body and no content type: the required body is missing. With a content type, an empty
        // body is an empty file.
        let missing = http.put(format!("{base}/pets/Rex/photo")).bearer_auth("tok").send();
        assert_eq!(missing.await.unwrap().status(), 400, "the body is required");
    }

    #[tokio::test]
    async fn text_bodies_arrive_as_text() {
        let (base, _) = start().await;
        let client = client(&base);
        assert_eq!(client.put_note_text("n1", "héllo\nwörld".to_string()).await.unwrap(), "HÉLLO\nWÖRLD");
        let invalid = reqwest::Client::new()
            .put(format!("{base}/notes/n1/text"))
            .header("content-type", "text/plain")
            .body(vec![0xffu8, 0xfe])
            .send()
            .await
            .unwrap();
        assert_eq!(invalid.status(), 400);
        assert!(invalid.text().await.unwrap().contains("not UTF-8"));
    }

    #[tokio::test]
    async fn a_patch_sends_null_to_clear_and_leaves_out_what_it_keeps() {
        use features_client::Nullable;
        use features_client::types::PetDetails;
        let (base, _) = start().await;
        let mut patch = PetDetails::default().with_color("black".into());
        patch.nickname = Nullable::Null;
        let now = client(&base).patch_pet_details("Rex", patch.clone()).await.unwrap();
        let mut expected = PetDetails::default().with_age(3).with_color("black".into());
        expected.nickname = Nullable::Null;
        assert_eq!(now, expected);
        // On the wire: `null` for the cleared detail, nothing at all for the kept one.
        let wire = portfolio_tests::RawServer::start(portfolio_tests::RawReply::json(200, "{}")).await;
        let _ = client(&wire.base_url()).patch_pet_details("Rex", patch).await;
        assert_eq!(wire.only_request().body, br#"{"nickname":null,"color":"black"}"#);
        // `null` for an optional detail that may not be null is refused, naming it; a client reading
        // such a reply takes it as absent.
        let null_color = reqwest::Client::new()
            .patch(format!("{base}/pets/Rex/details"))
            .bearer_auth("tok")
            .header("content-type", "application/json")
            .body(r#"{"color":null}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(null_color.status(), 400);
        let problem = null_color.text().await.unwrap();
        assert!(problem.contains("color") && problem.contains("`null` is not allowed"), "{problem}");
        let read: PetDetails = serde_json::from_str(r#"{"color":null}"#).unwrap();
        assert_eq!(read.color, None);
        // A value that is present is still checked against its limits.
        let long = PetDetails::default().with_nickname("a very long nickname".into());
        let refused = client(&base).patch_pet_details("Rex", long).await.unwrap_err();
        assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused}");
    }
}

/// The unseen fixture.
mod unseen {
    use crate::fixtures::unseen::serve;

    use unseen_server::FileDownload;

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
        assert_eq!(
            post(r#"{"text": null, "storage": {"kind": "disk", "path": "/a"}}"#).await.expect("send").status(),
            200
        );
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
        let (sent, _) =
            client.add_memo(AddMemoBody::Multipart(form.clone())).await.expect("multipart with a thumbnail");
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
            raw.post(format!("{}/kennel", client.base_url()))
                .header("content-type", "application/xml")
                .body(body)
                .send()
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
            Some(ArchiveKennelError::BadRequest(fault)) => {
                assert!(fault.message.contains("level"), "{}", fault.message)
            }
            other => panic!("not the documented 400: {other:?} from {error:?}"),
        }
    }
}
