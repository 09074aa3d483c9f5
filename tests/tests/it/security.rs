//! Credentials: bearer, basic, cookie and query API keys each required in its own form, several
//! accepted sets, and a provider asked only when an operation sends credentials.

/// The features fixture.
mod features {
    use crate::fixtures::features::{client, start};

    use features_client::{Client, Credentials, Error};

    #[tokio::test]
    async fn each_credential_kind_is_required_in_its_own_form() {
        let (base, _) = start().await;
        let http = reqwest::Client::new();
        let status = |r: reqwest::Response| r.status().as_u16();
        // Bearer: missing, or another scheme, is 401; the scheme name is case-insensitive.
        assert_eq!(status(http.get(format!("{base}/pets")).send().await.unwrap()), 401);
        let basic = http.get(format!("{base}/pets")).header("authorization", "Basic abc").send().await.unwrap();
        assert_eq!(status(basic), 401);
        let lower = http.get(format!("{base}/pets")).header("authorization", "bearer tok").send().await.unwrap();
        assert_eq!(status(lower), 200);
        // Cookie: found among other cookies.
        let cookies =
            http.get(format!("{base}/shapes/text")).header("cookie", "a=1; session=s9; scale=1").send().await.unwrap();
        assert_eq!(status(cookies), 200);
        let no_scale = http.get(format!("{base}/shapes/text")).header("cookie", "session=s9").send().await.unwrap();
        assert_eq!(status(no_scale), 400, "a required cookie parameter is checked like any other");
        let zero =
            http.get(format!("{base}/shapes/text")).header("cookie", "session=s9; scale=0").send().await.unwrap();
        assert_eq!(status(zero), 400);
        let other = http.get(format!("{base}/shapes/text")).header("cookie", "sessionx=1").send().await.unwrap();
        let body = other.text().await.unwrap();
        assert!(body.contains("the `session` cookie is missing or empty"), "{body}");
        // No credentials at all where the spec asks for none.
        assert_eq!(status(http.get(format!("{base}/notes")).send().await.unwrap()), 200);
    }

    #[tokio::test]
    async fn of_several_accepted_sets_of_credentials_the_client_sends_one_it_holds_and_the_server_takes_any() {
        let (base, _) = start().await;
        // The client sends the first set it holds in full, and only that set.
        assert_eq!(client(&base).who_am_i().await.unwrap(), "bearer tok with session s1");
        let partner = Client::new(&base, Credentials::new("tok", "dXNlcjpwdw==", "s1").with_partner_key("p7")).unwrap();
        assert_eq!(partner.who_am_i().await.unwrap(), "partner p7");
        // Where every set is one a client need not hold, holding none is an error before sending.
        let refused = client(&base).get_badge("b1").await.unwrap_err();
        assert!(matches!(refused, Error::MissingCredentials { operation: "getBadge", .. }), "{refused:?}");
        assert!(refused.to_string().contains("the `partner_token` query parameter"), "{refused}");
        assert_eq!(partner.get_badge("b1").await.unwrap(), r#"b1 for Some("p7") None"#);
        let token = Client::new(&base, Credentials::new("t", "b", "s").with_partner_token("q 1")).unwrap();
        assert_eq!(token.get_badge("b2").await.unwrap(), r#"b2 for None Some("q 1")"#);

        // The server accepts any one set in full, and names them all otherwise.
        let http = reqwest::Client::new();
        let get = |path: &str| http.get(format!("{base}{path}"));
        let status = |r: reqwest::Response| r.status().as_u16();
        assert_eq!(status(get("/badges").header("x-partner-key", "k").send().await.unwrap()), 200);
        let both =
            get("/badges").header("authorization", "Bearer t").header("cookie", "session=s").send().await.unwrap();
        assert_eq!(status(both), 200);
        let half = get("/badges").header("authorization", "Bearer t").send().await.unwrap();
        assert_eq!(status(half), 401, "a set is accepted only in full");
        let body = get("/badges").send().await.unwrap().text().await.unwrap();
        assert!(
            body.contains("the `X-Partner-Key` header, or `authorization: Bearer` and the `session` cookie"),
            "{body}"
        );
        assert_eq!(status(get("/badges/b?partner_token=x").send().await.unwrap()), 200);
        assert_eq!(status(get("/badges/b").send().await.unwrap()), 401);

        // A set after one the client always holds is never sent by it, but servers accept it.
        assert_eq!(client(&base).get_badge_holder("h").await.unwrap(), r#"h for Some("tok") None"#);
        let vault = get("/badges/h/holder").header("x-vault-key", "v").send().await.unwrap();
        assert_eq!(vault.text().await.unwrap(), r#""h for None Some(\"v\")""#);
    }
}

/// The unseen fixture.
mod unseen {
    use crate::fixtures::unseen::serve;

    use unseen_client::{Client, Credentials};
    use unseen_server::MockApi;

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
}
