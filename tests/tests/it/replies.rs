//! Replies as the client reads them: several success statuses, redirects, default-only replies,
//! reply headers, bytes that are not JSON, downloads beside other replies, open enums and
//! protocol switches.

/// The features fixture.
mod features {
    use crate::fixtures::features::{client, start};
    use features_client::Error;
    use features_client::types::{Cat, Label, LabelKind, Pet};

    #[tokio::test]
    async fn several_success_statuses_are_one_reply_enum() {
        use features_client::types::{PutPetReply, PutPetReply201, PutPetReply201Headers};
        let (base, _) = start().await;
        let client = client(&base);
        let tom = Pet::Cat(Cat::new("cat".into(), "Tom".into()));
        let created = client.put_pet("Tom", tom.clone()).await.unwrap();
        let location = PutPetReply201Headers::new("/pets/Tom".into());
        assert_eq!(created, PutPetReply::Created(PutPetReply201::new("Tom".into()), location));
        assert_eq!(client.put_pet("Tom", tom.clone()).await.unwrap(), PutPetReply::NoContent);
        let loud = Pet::Cat(Cat::new("cat".into(), "Tom".into()).with_meows(true));
        assert_eq!(client.put_pet("Tom", loud).await.unwrap(), PutPetReply::Ok(tom));
        let raw = reqwest::Client::new()
            .put(format!("{base}/pets/Tom"))
            .bearer_auth("tok")
            .header("content-type", "application/json")
            .body(r#"{"petType":"cat","name":"Tom","meows":true}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(raw.status(), 204, "the variant decides the status");
    }

    #[tokio::test]
    async fn a_documented_redirect_is_the_reply_with_its_headers() {
        use features_client::types::FollowReplyHeaders;
        let (base, _) = start().await;
        let client = client(&base);
        let headers = client.follow("home").await.unwrap();
        assert_eq!(headers, FollowReplyHeaders::new("/to/home".into()).with_x_hops(1));
        let raw = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
            .get(format!("{base}/go/home"))
            .send()
            .await
            .unwrap();
        assert_eq!(raw.status(), 302);
        assert_eq!(raw.headers()["location"], "/to/home");
        assert_eq!(raw.headers()["x-hops"], "1");
        let refused = client.follow("two\nlines").await.unwrap_err();
        assert_eq!(refused.status().map(|s| s.as_u16()), Some(500));
        assert!(
            refused.problem().and_then(|p| p.detail.as_deref()).is_some_and(|d| d.contains("`location`")),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn a_default_only_reply_is_read_as_200_with_typed_headers() {
        use features_client::types::{LabelKind, ReadCounterReplyHeaders};
        let (base, _) = start().await;
        let client = client(&base);
        let (count, headers) = client.read_counter().await.unwrap();
        assert_eq!(count, 7);
        assert_eq!(headers, ReadCounterReplyHeaders::new(42).with_x_kind(LabelKind::V1));
        let raw = reqwest::get(format!("{base}/counter")).await.unwrap();
        assert_eq!(raw.status(), 200);
        assert_eq!(raw.headers()["x-count"], "42");
        assert_eq!(raw.headers()["x-kind"], "1");
    }

    /// A server that answers the counter with the headers given, to see how the client reads them.
    async fn counter_server(headers: &'static [(&'static str, &'static str)]) -> String {
        let app = axum::Router::new().route(
            "/counter",
            axum::routing::get(move || async move {
                let mut response = axum::response::IntoResponse::into_response("7");
                for (name, value) in headers {
                    response.headers_mut().insert(*name, axum::http::HeaderValue::from_static(value));
                }
                response
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        base
    }

    #[tokio::test]
    async fn reply_headers_that_are_missing_or_malformed_are_decode_errors_naming_them() {
        let missing = client(&counter_server(&[]).await).read_counter().await.unwrap_err();
        assert!(matches!(&missing, Error::Decode { path, .. } if path == "header x-count"), "{missing:?}");
        assert!(missing.to_string().contains("missing"), "{missing}");
        let malformed = client(&counter_server(&[("x-count", "many")]).await).read_counter().await.unwrap_err();
        assert!(matches!(&malformed, Error::Decode { path, .. } if path == "header x-count"), "{malformed:?}");
        assert!(malformed.to_string().contains("`many`"), "{malformed}");
        let (_, unlisted) =
            client(&counter_server(&[("x-count", "3"), ("x-kind", "done")]).await).read_counter().await.unwrap();
        assert_eq!(unlisted.x_kind, Some(LabelKind::Unknown("done".into())), "a reply header keeps an unlisted value");
        let (_, headers) = client(&counter_server(&[("x-count", "3")]).await).read_counter().await.unwrap();
        assert_eq!((headers.x_count, headers.x_kind), (3, None));
    }

    #[tokio::test]
    async fn a_protocol_switch_hands_the_connection_to_both_sides() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (base, _) = start().await;
        let mut tunnel = client(&base).open_tunnel("echo").await.expect("switched");
        for message in [&b"hello"[..], b"over the switched connection"] {
            tunnel.write_all(message).await.unwrap();
            let mut echoed = vec![0u8; message.len()];
            tunnel.read_exact(&mut echoed).await.unwrap();
            assert_eq!(echoed, message);
        }
        // A protocol the implementation does not speak is an error reply, as any other.
        let refused = client(&base).open_tunnel("carrier-pigeon").await.unwrap_err();
        assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused}");
        // A request that names no protocol is answered 400, naming the header.
        let nameless = reqwest::Client::new().get(format!("{base}/tunnel")).send().await.unwrap();
        let problem: serde_json::Value = serde_json::from_slice(&nameless.bytes().await.unwrap()).unwrap();
        assert_eq!(problem["errors"]["Upgrade"][0], "header is required", "{problem}");
    }

    #[tokio::test]
    async fn string_enums_keep_unlisted_text_in_replies_and_servers_refuse_it() {
        // Outside a server's request reading, any text is a value; a union still prefers a listed
        // value and gives other text to its plain-text member.
        assert_eq!("archived".parse::<LabelKind>().unwrap(), LabelKind::Unknown("archived".into()));
        assert_eq!(LabelKind::Unknown("archived".into()).to_string(), "archived");
        let label: Label = serde_json::from_str(r#""archived""#).unwrap();
        assert_eq!(label, Label::String("archived".into()));
        let kind: Option<LabelKind> = serde_json::from_str(r#""archived""#).unwrap();
        assert_eq!(kind, Some(LabelKind::Unknown("archived".into())));

        let (base, _) = start().await;
        #[allow(deprecated)]
        let err =
            client(&base).list_labels().kinds(vec![LabelKind::V1, "archived".parse().unwrap()]).await.unwrap_err();
        assert_eq!(err.status().map(|s| s.as_u16()), Some(400));
        let errors = &err.problem().unwrap().errors;
        assert_eq!(
            errors["kinds"],
            [r#"`archived` is not a value of LabelKind; expected one of "in-progress", "1", """#],
            "{err}"
        );
    }
}

/// The unseen fixture.
mod unseen {
    use crate::fixtures::unseen::serve;

    use unseen_server::FileDownload;

    #[tokio::test]
    async fn replies_that_are_not_json_are_read_as_bytes() {
        let (mock, client) = serve().await;
        mock.on_export_readings(|_, _| async {
            Ok(FileDownload::new("id,value\n1,2\n").with_content_type("text/csv"))
        });
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
    async fn a_json_reply_beside_a_download_is_a_download_of_its_bytes() {
        let (mock, client) = serve().await;
        let as_json = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let flag = as_json.clone();
        mock.on_answer_offer(move |_, _| {
            let json = flag.load(std::sync::atomic::Ordering::SeqCst);
            async move {
                Ok(match json {
                    true => {
                        FileDownload::new(r#"{"sdp":"v=0"}"#).with_content_type("application/json").with_status(200)
                    }
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
}
