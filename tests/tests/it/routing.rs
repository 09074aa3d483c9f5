//! The router: under the document's base path, serving its document, layers that learn the
//! operation, and paths that share a route or differ only in their text.

/// The features fixture.
mod features {
    use crate::fixtures::features::{Fixture, client};
    use features_client::types::{Cat, Pet};
    use features_client::{Client, Credentials};
    use std::sync::Mutex;

    #[test]
    fn a_version_header_is_refused_by_an_api_without_one() {
        let credentials = Credentials::new("tok", "dXNlcjpwdw==", "s1");
        let refused = Client::builder("http://127.0.0.1:1", credentials).version_header("2").build().unwrap_err();
        assert!(
            matches!(&refused, features_client::Error::InvalidArgument { name: "version_header", reason }
                if reason == "this API has no version header"),
            "{refused:?}"
        );
    }

    /// Mounted at the path of the document's server URL, the router serves every operation there,
    /// and a request outside it gets the document's 404 reply.
    #[tokio::test]
    async fn the_router_serves_under_the_documents_base_path_when_asked() {
        assert_eq!(features_server::BASE_PATH, "/v1");
        let fixture = std::sync::Arc::new(Fixture::default());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let config = features_server::ServerConfig::default().with_base_path(features_server::BASE_PATH);
        let app = features_server::router_with(fixture, config);
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

        let client = client(&format!("{base}{}", features_server::BASE_PATH));
        let cat = Pet::Cat(Cat::new("cat".into(), "Tom".into()));
        assert_eq!(client.add_pet(cat.clone()).await.unwrap(), cat);
        assert_eq!(client.list_pets().await.unwrap(), vec![cat]);
        let outside = reqwest::Client::new().get(format!("{base}/pets")).bearer_auth("tok").send().await.unwrap();
        assert_eq!(outside.status(), 404);
        let problem = outside.text().await.unwrap();
        assert!(problem.contains(r#""suggestions":[]"#), "the 404 takes the document's error shape: {problem}");
        // The server re-exports what its signatures name, as the client does.
        let _: features_server::uuid::Uuid = features_client::uuid::Uuid::nil();
    }

    /// With feature `document` and a route set, the router serves the document it was generated from;
    /// without the route, the path is like any other no operation serves.
    #[tokio::test]
    async fn the_router_serves_its_document_where_asked() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../codegen/tests/fixtures/features.yaml"));
        assert_eq!(features_server::DOCUMENT, text.unwrap());
        assert_eq!(features_server::DOCUMENT_MEDIA_TYPE, "application/yaml");
        for route in [Some("/openapi.yaml"), None] {
            let mut config = features_server::ServerConfig::default();
            if let Some(route) = route {
                config = config.with_document_route(route);
            }
            let app = features_server::router_with(std::sync::Arc::new(Fixture::default()), config);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let base = format!("http://{}", listener.local_addr().unwrap());
            tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
            let reply = reqwest::get(format!("{base}/openapi.yaml")).await.unwrap();
            match route {
                Some(_) => {
                    assert_eq!(reply.status(), 200);
                    assert_eq!(reply.headers()["content-type"], "application/yaml");
                    assert_eq!(reply.text().await.unwrap(), features_server::DOCUMENT);
                }
                None => assert_eq!(reply.status(), 404),
            }
        }
    }

    /// A tower layer around the router learns which operation each request was routed to, under a
    /// base path too; a request no operation serves has none.
    #[tokio::test]
    async fn layers_around_the_router_learn_each_requests_operation() {
        let seen = std::sync::Arc::new(Mutex::new(Vec::new()));
        let record = seen.clone();
        let config = features_server::ServerConfig::default().with_base_path(features_server::BASE_PATH);
        let app = features_server::router_with(std::sync::Arc::new(Fixture::default()), config).layer(
            axum::middleware::from_fn(move |request: axum::extract::Request, next: axum::middleware::Next| {
                let operation = features_server::operation_of(&request).map(|op| (op.id, op.method, op.path));
                record.lock().unwrap().push(operation);
                next.run(request)
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

        let client = client(&format!("{base}/v1"));
        client.list_pets().await.unwrap();
        let _ = reqwest::get(format!("{base}/v1/nowhere")).await.unwrap();
        let seen = seen.lock().unwrap().clone();
        assert_eq!(seen[0], Some(("listPets", "GET", "/pets")));
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!(seen[1], None, "no operation serves it");
        assert!(features_server::OPERATIONS.iter().any(|op| op.id == "addPet" && op.method == "POST"));
    }
}

/// The unseen fixture.
mod unseen {
    use crate::fixtures::unseen::serve;

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
        for (query, status) in [("?preview=true", 200), ("?a=1&preview=true", 200), ("?preview=false", 404), ("", 404)]
        {
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
        for (path, status) in
            [("/clips/intro:archive", 200), ("/clips/intro%3Arestore", 200), ("/clips/intro:other", 404)]
        {
            let reply = http.post(format!("{base}{path}")).send().await.expect("send");
            assert_eq!(reply.status(), status, "{path}");
        }
    }
}
