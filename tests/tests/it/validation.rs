//! The document's limits enforced by the server and named in its answer: every limit of a body
//! schema and of a parameter, look-around patterns, and bodies that are not objects.

/// The features fixture.
mod features {
    use crate::fixtures::features::{client, field_errors, start};

    #[tokio::test]
    async fn every_limit_of_a_body_schema_is_enforced_and_named() {
        use features_client::types::Limits;
        let (base, _) = start().await;
        let client = client(&base);
        let within = Limits::default()
            .with_code("ABC-12".into())
            .with_step(15)
            .with_ratio(0.5)
            .with_tags(vec!["a".into(), "bc".into()])
            .with_grid(vec![vec![0, 1], vec![2]])
            .with_country("AU".into())
            .with_visited(vec!["NZ".into()]);
        client.check_limits(within).await.unwrap();
        let post = |body: &'static str| {
            reqwest::Client::new()
                .post(format!("{base}/limits"))
                .header("content-type", "application/json")
                .body(body)
                .send()
        };
        let broken =
            post(r#"{"code":"abc-1","step":7,"ratio":1,"tags":["a","long","a"],"grid":[[0,-1]]}"#).await.unwrap();
        assert_eq!(broken.status(), 400);
        let problem: serde_json::Value = serde_json::from_slice(&broken.bytes().await.unwrap()).unwrap();
        let errors = problem["errors"].as_object().unwrap();
        let named: Vec<&String> = errors.keys().collect();
        assert_eq!(
            named,
            ["body.code", "body.grid[0][1]", "body.ratio", "body.step", "body.tags", "body.tags[1]"],
            "{problem}"
        );
        assert_eq!(errors["body.code"][0], r"must match the pattern `^[A-Z]{3}-\d+$`");
        assert_eq!(errors["body.ratio"][0], "must be less than 1, is 1");
        assert_eq!(errors["body.step"][0], "must be a multiple of 5, is 7");
        assert_eq!(errors["body.tags"][0], "must not repeat items; item 2 repeats an earlier one");
        // Limits of a referenced schema, on a property and on array items.
        let referenced = post(r#"{"country":"usa","visited":["NZ","nz"]}"#).await.unwrap();
        let problem: serde_json::Value = serde_json::from_slice(&referenced.bytes().await.unwrap()).unwrap();
        let errors = problem["errors"].as_object().unwrap();
        assert_eq!(errors.keys().collect::<Vec<_>>(), ["body.country", "body.visited[1]"], "{problem}");
        assert_eq!(errors["body.country"].as_array().unwrap().len(), 2, "length and pattern: {problem}");
        // The bounds themselves are out of an exclusive range; any value inside is in.
        assert_eq!(post(r#"{"ratio":0}"#).await.unwrap().status(), 400);
        assert_eq!(post(r#"{"ratio":1e-9,"step":-10}"#).await.unwrap().status(), 204);
    }

    #[tokio::test]
    async fn every_limit_of_a_parameter_is_enforced_wherever_it_is_sent() {
        let (base, _) = start().await;
        let get = |target: &str, trace: &str, region: &str| {
            reqwest::Client::new()
                .get(format!("{base}{target}"))
                .header("x-trace", trace)
                .header("cookie", format!("region={region}"))
                .send()
        };
        let within = get("/limits/ABC?page=100&ratio=0.5&step=-15&tags=a&tags=bcd", "12345678", "eu").await.unwrap();
        assert_eq!(within.status(), 204, "{}", within.text().await.unwrap());
        // The client sends the same, through its own encoding of each location.
        client(&base)
            .check_parameter_limits("ABC")
            .page(100)
            .ratio(0.5)
            .step(-15)
            .tags(["a", "bcd"])
            .x_trace("12345678")
            .region("eu")
            .await
            .unwrap();

        // The operation documents its `4XX` body as `LimitError`, so the rejection takes that shape:
        // the status in `code`, the summary in `message`, one `fields` entry per message.
        let broken = get("/limits/abcdefg?page=101&ratio=1&step=7&tags=a&tags=long&tags=a&tags=b", "123456789", "EU")
            .await
            .unwrap();
        assert_eq!(broken.status(), 400);
        assert_eq!(broken.headers()["content-type"], "application/json");
        let body: serde_json::Value = serde_json::from_slice(&broken.bytes().await.unwrap()).unwrap();
        assert_eq!(body["code"], 400, "{body}");
        let errors = field_errors(&body);
        let named: Vec<&String> = errors.keys().collect();
        assert_eq!(named, ["X-Trace", "code", "page", "ratio", "region", "step", "tags", "tags[1]"], "{body}");
        assert_eq!(errors["code"].len(), 2, "length and pattern: {body}");
        assert_eq!(errors["page"][0], "must have between 1 and 100, has 101");
        assert_eq!(errors["ratio"][0], "must be less than 1, is 1");
        assert_eq!(errors["step"][0], "must be a multiple of 5, is 7");
        assert_eq!(errors["tags"].len(), 2, "count and uniqueness: {body}");
        // Below the exclusive minimum, and an object's property limit, named under its parameter.
        let low = get("/limits/AB?ratio=0&page=0", "t", "eu").await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&low.bytes().await.unwrap()).unwrap();
        assert_eq!(field_errors(&body).keys().collect::<Vec<_>>(), ["page", "ratio"], "{body}");
        let window = reqwest::get(format!("{base}/notes?offset=0&limit=0")).await.unwrap();
        assert_eq!(window.status(), 400);
        let problem: serde_json::Value = serde_json::from_slice(&window.bytes().await.unwrap()).unwrap();
        assert_eq!(problem["errors"].as_object().unwrap().keys().collect::<Vec<_>>(), ["window.limit"], "{problem}");
    }
}

/// The unseen fixture.
mod unseen {
    use crate::fixtures::unseen::serve;

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
}
