//! Arguments a generated client must not put on the wire as given: path parameters that would
//! move the request elsewhere, and cookie credentials that would add cookies of their own. Each is
//! refused before anything is sent, which a recording server on 127.0.0.1 confirms.

use features_client::types::{AddVisitBody, Cat, Pet};
use features_client::{Client, Credentials, Error};
use portfolio_tests::{RawReply, RawServer};

fn client(server: &RawServer, session: &str) -> Client {
    let base = format!("{}/v1", server.base_url());
    Client::new(&base, Credentials::new("tok", "dXNlcjpwdw==", session)).unwrap()
}

fn refused(result: Result<impl std::fmt::Debug, Error>) -> (&'static str, String) {
    match result {
        Err(Error::InvalidArgument { name, reason }) => (name, reason),
        other => panic!("expected InvalidArgument, got {other:?}"),
    }
}

#[tokio::test]
async fn dot_segments_and_empty_segments_in_path_parameters_are_refused() {
    let server = RawServer::start(RawReply::json(200, "{}")).await;
    let client = client(&server, "s1");
    let pet = || Pet::Cat(Cat::new("cat".into(), "Tom".into()));
    for name in ["..", ".", ""] {
        let (parameter, reason) = refused(client.put_pet(name, pet()).await);
        assert_eq!(parameter, "name", "{name:?}: {reason}");
        assert!(reason.contains("/pets/{name}"), "{reason}");
    }
    for (kind, from, named) in [("..", "..", "kind"), ("x", "..", "from"), (".", "2024", "kind"), ("a", "", "from")] {
        let (parameter, _) = refused(client.get_stats_by_kind_by_from(kind, from).await);
        assert_eq!(parameter, named, "{kind:?} {from:?}");
    }
    let (parameter, _) = refused(client.add_visit("..", AddVisitBody::new("checkup".into(), 5)).await);
    assert_eq!(parameter, "name");
    assert!(server.requests().is_empty(), "something was sent: {:#?}", server.requests());

    // Dots inside a value, or more of them than a dot segment has, are values like any other.
    let _ = client.put_pet("...", pet()).await;
    let _ = client.put_pet("a..b", pet()).await;
    let _ = client.put_pet("%2e%2e", pet()).await;
    let targets: Vec<String> = server.requests().into_iter().map(|r| r.target).collect();
    assert_eq!(targets, ["/v1/pets/...", "/v1/pets/a..b", "/v1/pets/%252e%252e"]);
}

#[tokio::test]
async fn a_cookie_credential_cannot_add_cookies_and_a_request_carries_one_cookie_header() {
    let server = RawServer::start(RawReply::json(200, "\"round\"")).await;
    let base = format!("{}/v1", server.base_url());
    for session in ["s; admin=true", "a,b", "with space", "quote\"d", "back\\slash", "tab\there"] {
        // Fixed credentials are checked when the client is built.
        let (name, reason) = refused(Client::new(&base, Credentials::new("tok", "b", session)));
        assert_eq!(name, "session", "{session}: {reason}");
        assert!(reason.contains("a cookie value cannot hold"), "{reason}");
        // A provider's are checked on each call, before anything is sent.
        let session = session.to_string();
        let provided = Client::builder(&base, Credentials::new("tok", "b", "ok"))
            .credentials_provider(move || {
                let session = session.clone();
                async move { Ok(Credentials::new("tok", "b", session)) }
            })
            .build()
            .unwrap();
        let (name, _) = refused(provided.get_shape("text", 2).await);
        assert_eq!(name, "session");
    }
    assert!(server.requests().is_empty(), "something was sent: {:#?}", server.requests());

    // The session credential and two cookie parameters travel in one header; a parameter's
    // separators are percent-encoded, so it stays one cookie.
    let _ = client(&server, "tok_en-1=+/").get_shape("text", 2).label("a; b=c").await;
    let request = server.only_request();
    let cookies: Vec<&str> = request.headers.iter().filter(|(n, _)| n == "cookie").map(|(_, v)| v.as_str()).collect();
    assert_eq!(cookies, ["session=tok_en-1=+/; label=a%3B%20b%3Dc; scale=2"]);
}
