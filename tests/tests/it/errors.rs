//! Rejections in the document's own error shape and media type (JSON, text, CSV, YAML), and
//! decode errors that name the path where a reply went wrong.

/// The features fixture.
mod features {
    use crate::fixtures::features::{client, start};
    use features_client::Error;
    use features_client::types::Note;

    #[tokio::test]
    async fn rejections_take_the_documented_error_body_and_the_client_reads_it_as_the_error_type() {
        use features_client::types::{CheckParameterLimitsError, LimitError, LimitErrorFieldsItem};
        let (base, _) = start().await;
        let error = client(&base).check_parameter_limits("ABC").page(101).await.unwrap_err();
        let Some(CheckParameterLimitsError::ClientError(400, body)) = CheckParameterLimitsError::from_error(&error)
        else {
            panic!("not the documented 4XX body: {error}");
        };
        let page = LimitErrorFieldsItem::new("page".into(), "must have between 1 and 100, has 101".into());
        assert_eq!(body, LimitError::new(400, body.message.clone()).with_fields(vec![page]));
        assert!(body.message.contains("invalid"), "{}", body.message);
        // The one place errors are written saw it, with the operation that answered.
        let raw = reqwest::get(format!("{base}/limits/ABC?page=0")).await.unwrap();
        assert_eq!(raw.headers()["x-answered-by"], "checkParameterLimits");
        // A method no operation serves at a path: the document's most common `4XX` body, with 405.
        let refused = reqwest::Client::new().delete(format!("{base}/limits/ABC")).send().await.unwrap();
        assert_eq!((refused.status().as_u16(), refused.headers()["x-answered-by"].to_str().unwrap()), (405, "none"));
        let body: serde_json::Value = serde_json::from_slice(&refused.bytes().await.unwrap()).unwrap();
        assert_eq!(body["code"], 405, "{body}");
        assert_eq!(body["message"], "DELETE is not served at /limits/ABC");
        // Where the document gives no error body, errors stay problem details, labelled
        // `application/json` where every reply the operation documents is plain JSON.
        let window = reqwest::get(format!("{base}/notes?offset=0&limit=0")).await.unwrap();
        assert_eq!(window.headers()["content-type"], "application/json");
        let problem: serde_json::Value = serde_json::from_slice(&window.bytes().await.unwrap()).unwrap();
        assert_eq!(problem["type"], "urn:problem-type:invalid-request", "{problem}");
    }

    /// A server that answers `path` with `body` as JSON, to see how the client decodes it.
    async fn json_server(path: &'static str, body: &'static str) -> String {
        let app = axum::Router::new().route(
            path,
            axum::routing::get(move || async move { ([(axum::http::header::CONTENT_TYPE, "application/json")], body) }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        base
    }

    #[tokio::test]
    async fn decode_errors_in_required_fields_and_unions_name_the_path_a_tracking_decoder_finds() {
        fn tracked<T: serde::de::DeserializeOwned>(body: &str) -> String {
            let mut de = serde_json::Deserializer::from_str(body);
            serde_path_to_error::deserialize::<_, T>(&mut de)
                .err()
                .expect("the body does not decode")
                .path()
                .to_string()
        }
        for body in [r#"[{"text":"a"},{"id":"n2"}]"#, r#"[{"text":"a","tags":["x",{"y":1}]}]"#] {
            let err = client(&json_server("/notes", body).await).list_notes().await.unwrap_err();
            let Error::Decode { path, .. } = &err else { panic!("{body}: {err:?}") };
            assert_eq!(*path, tracked::<Vec<Note>>(body), "{body}");
        }
        // A union reads its value whole before choosing a member, which loses serde_path_to_error's
        // count of items (it says `[0]` for the second); the error names the union's own place.
        let pets = [
            (r#"[{"petType":"Cat","name":"a"},{"petType":"Snake","name":"b"}]"#, "[1]"),
            (r#"{"pets": [{"petType":"Dog"}, {"petType":"Dog","name":7}]}"#, "."),
            (r#"[{"petType":"Cat","name":"a"}, {"petType":"Dog"}]"#, "[1]"),
        ];
        for (body, expected) in pets {
            let err = client(&json_server("/pets", body).await).list_pets().await.unwrap_err();
            let Error::Decode { path, .. } = &err else { panic!("{body}: {err:?}") };
            assert_eq!(path, expected, "{body}");
        }
    }
}

/// The unseen fixture.
mod unseen {
    use crate::fixtures::unseen::serve;

    use unseen_server::{FileDownload, MockApi};

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
}
