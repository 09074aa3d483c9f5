//! The generated client against a server that records raw request bytes: what goes on the wire
//! and how every kind of reply is read. Each test pins a fault that peer generators show on this
//! spec.

use portfolio_client::types::{
    AccountModelWeighting, ClassificationType, HoldingData, ModelStatus, PutAccountModelWeightingRequest,
    RebalanceType, SortOrder, TransactionOrderBy,
};
use portfolio_client::{Client, Credentials, DateTime, Error};
use portfolio_tests::{RawReply, RawServer};

const HOLDINGS: &str =
    r#"[{"AccountId":"A1","Holdings":[{"Quantity":10.5,"Security":{"Code":"BHP"}}],"Unknown":true}]"#;

fn client(server: &RawServer) -> Client {
    Client::new(&server.base_url(), Credentials::new("token-123", "key-456")).expect("client")
}

#[tokio::test]
async fn holdings_round_trip_with_typed_arguments() {
    let server = RawServer::start(RawReply::json(200, HOLDINGS)).await;
    let date = DateTime::parse("2024-06-30T00:00:00").unwrap();
    let holdings: Vec<HoldingData> =
        client(&server).get_au_holdings(["A1", "A 2"], date, ClassificationType::MarketType).await.expect("holdings");
    assert_eq!(holdings.len(), 1);
    assert_eq!(holdings[0].account_id.as_deref(), Some("A1"));
    let units = holdings[0].holdings.as_ref().unwrap()[0].quantity;
    assert_eq!(units, Some(10.5));

    let request = server.only_request();
    assert_eq!(request.method, "GET");
    // Arrays exploded, the integer enum as its integer, the date-time with its `T`.
    assert_eq!(
        request.target,
        "/api/holdings?AccountIds=A1&AccountIds=A%202&ValuationDate=2024-06-30T00:00:00&ClassificationType=3"
    );
}

#[tokio::test]
async fn only_declared_headers_are_sent() {
    let server = RawServer::start(RawReply::json(200, "[]")).await;
    let date = DateTime::parse("2024-06-30").unwrap();
    client(&server).get_au_holdings(["A1"], date, ClassificationType::MarketType).await.unwrap();
    let request = server.only_request();
    assert_eq!(
        request.header_names(),
        ["accept", "authorization", "host", "x-pps-api-version", "x-pps-subscription-key"],
        "{request:#?}"
    );
    assert_eq!(request.header("authorization"), Some("token-123"), "the token is sent verbatim");
    assert_eq!(request.header("x-pps-subscription-key"), Some("key-456"));
    assert_eq!(request.header("x-pps-api-version"), Some(portfolio_client::API_VERSION));
    assert_eq!(request.header("accept"), Some("application/json"));
}

#[tokio::test]
async fn api_version_can_be_overridden() {
    let server = RawServer::start(RawReply::json(200, "[]")).await;
    let client = client(&server).with_api_version("2030.01.01").unwrap();
    client.get_au_models().await.unwrap();
    assert_eq!(server.only_request().header("x-pps-api-version"), Some("2030.01.01"));
}

#[tokio::test]
async fn the_builder_sets_the_version_header_and_refuses_a_bad_value() {
    let server = RawServer::start(RawReply::json(200, "[]")).await;
    let credentials = || Credentials::new("token-123", "key-456");
    let client = Client::builder(&server.base_url(), credentials()).version_header("2031.02.03").build().unwrap();
    assert_eq!(client.api_version(), "2031.02.03");
    client.get_au_models().await.unwrap();
    assert_eq!(server.only_request().header("x-pps-api-version"), Some("2031.02.03"));

    let refused = Client::builder(&server.base_url(), credentials()).version_header("a\nb").build().unwrap_err();
    assert!(
        matches!(&refused, Error::InvalidArgument { name: "x-pps-api-version", .. }),
        "a line break cannot be sent in a header: {refused:?}"
    );
}

#[tokio::test]
async fn date_times_from_time_values_are_iso_8601_with_t() {
    let server =
        RawServer::start(RawReply::json(200, r#"{"Data":[],"Metadata":{"TotalCount":0,"TotalPages":0}}"#)).await;
    let from = time::macros::datetime!(2022-09-26 00:00:00 UTC);
    let to = time::macros::datetime!(2023-09-26 08:30:00);
    client(&server)
        .get_au_transactions("A1", from, to)
        .page(2)
        .order_by(TransactionOrderBy::Security)
        .order(SortOrder::Asc)
        .buys_and_sells_only(true)
        .await
        .unwrap();
    assert_eq!(
        server.only_request().target,
        "/api/transactions?AccountId=A1&FromDate=2022-09-26T00:00:00Z&ToDate=2023-09-26T08:30:00\
         &BuysAndSellsOnly=true&Page=2&OrderBy=1&Order=0"
    );
}

#[tokio::test]
async fn optional_parameters_left_unset_are_not_sent() {
    let server = RawServer::start(RawReply::json(200, "[]")).await;
    client(&server).get_au_accounts().await.unwrap();
    assert_eq!(server.only_request().target, "/api/accounts");
}

#[tokio::test]
async fn an_absent_optional_body_is_no_body_at_all() {
    let server = RawServer::start(RawReply::empty(204)).await;
    client(&server).replace_account_model_weightings().await.unwrap();
    let request = server.only_request();
    assert_eq!(request.method, "PUT");
    assert!(request.body.is_empty(), "body: {:?}", String::from_utf8_lossy(&request.body));
    assert_eq!(request.header("content-type"), None);
}

#[tokio::test]
async fn bodies_are_json_with_integer_enums() {
    let server = RawServer::start(RawReply::empty(204)).await;
    let body = PutAccountModelWeightingRequest::new(
        "A1".into(),
        RebalanceType::Fixed,
        vec![AccountModelWeighting::default().with_model_code("M1".into())],
    );
    client(&server).replace_account_model_weightings().body(body).await.unwrap();
    let request = server.only_request();
    assert_eq!(request.header("content-type"), Some("application/json"));
    let json: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(json["RebalanceType"], 1, "integer enums are JSON integers: {json}");
    assert_eq!(json["AccountId"], "A1");
    assert_eq!(json["AccountModelWeightings"][0]["ModelCode"], "M1");
    assert!(json["AccountModelWeightings"][0].get("Percentage").is_none(), "unset fields are left out: {json}");
}

#[tokio::test]
async fn path_parameters_are_percent_encoded() {
    let server = RawServer::start(RawReply::json(200, r#"{"Status":"Draft"}"#)).await;
    let id = uuid::Uuid::parse_str("6f1c2a34-0000-4000-8000-00000000abcd").unwrap();
    let status = client(&server).get_draft_application_status(id).await.unwrap();
    assert_eq!(status.status.as_deref(), Some("Draft"));
    assert_eq!(server.only_request().target, "/api/application/6f1c2a34-0000-4000-8000-00000000abcd/status");
}

#[tokio::test]
async fn query_values_are_percent_encoded() {
    let server = RawServer::start(RawReply::json(200, "[]")).await;
    client(&server).get_au_accounts().search("smith & co*").await.unwrap();
    assert_eq!(server.only_request().target, "/api/accounts?search=smith%20%26%20co%2A");
}

#[tokio::test]
async fn downloads_stream_with_their_file_name() {
    let content: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    let reply = RawReply {
        status: 200,
        headers: vec![
            ("content-type".into(), "application/pdf".into()),
            ("content-disposition".into(), "attachment; filename=\"statement.pdf\"".into()),
        ],
        body: content.clone(),
    };
    let server = RawServer::start(reply).await;
    let mut download = client(&server).download_au_file("F1").await.unwrap();
    assert_eq!(download.file_name.as_deref(), Some("statement.pdf"));
    assert_eq!(download.content_type.as_deref(), Some("application/pdf"));
    assert_eq!(download.content_length, Some(content.len() as u64));
    let mut received = Vec::new();
    let mut chunks = 0;
    while let Some(chunk) = download.body.next_chunk().await {
        received.extend_from_slice(&chunk.unwrap());
        chunks += 1;
    }
    assert_eq!(received, content);
    assert!(chunks >= 1);
    let request = server.only_request();
    assert_eq!(request.target, "/api/file?fileId=F1");
    assert_eq!(request.header("accept"), Some("application/octet-stream"));
}

#[tokio::test]
async fn error_statuses_carry_status_headers_body_and_problem() {
    let problem = r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"no account A9","errors":{"accountId":["unknown"]}}"#;
    let server = RawServer::start(RawReply::problem(404, problem)).await;
    let err = client(&server).get_au_child_accounts("A9").await.unwrap_err();
    let Error::Status(status) = &err else { panic!("expected a status error, got {err:?}") };
    assert_eq!(status.status.as_u16(), 404);
    assert_eq!(status.operation, "GetAUChildAccounts");
    assert_eq!(status.body, problem.as_bytes());
    let parsed = err.problem().expect("problem details");
    assert_eq!(parsed.detail.as_deref(), Some("no account A9"));
    assert_eq!(parsed.errors["accountId"], ["unknown"]);
    assert_eq!(status.headers["content-type"], "application/problem+json");
    assert!(err.to_string().contains("404"), "{err}");
}

#[tokio::test]
async fn non_json_error_bodies_are_kept_raw() {
    let reply = RawReply {
        status: 502,
        headers: vec![("content-type".into(), "text/html".into())],
        body: b"<h1>bad gateway</h1>".to_vec(),
    };
    let server = RawServer::start(reply).await;
    let err = client(&server).get_au_models().await.unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(502));
    assert!(err.problem().is_none());
    let Error::Status(status) = err else { unreachable!() };
    assert_eq!(status.body, &b"<h1>bad gateway</h1>"[..]);
}

#[tokio::test]
async fn undecodable_replies_name_the_path() {
    let server = RawServer::start(RawReply::json(200, r#"[{"AccountId":"A1","Holdings":[{"Quantity":"ten"}]}]"#)).await;
    let date = DateTime::parse("2024-06-30").unwrap();
    let err = client(&server).get_au_holdings(["A1"], date, ClassificationType::MarketType).await.unwrap_err();
    let Error::Decode { path, body, operation, .. } = &err else { panic!("expected a decode error, got {err:?}") };
    assert_eq!(path, "[0].Holdings[0].Quantity");
    assert_eq!(*operation, "GetAUHoldings");
    assert!(body.starts_with(b"[{"));
}

#[tokio::test]
async fn a_struct_sent_as_an_array_of_its_values_is_a_decode_error() {
    // serde's derive would read `["A1", [...]]` as a `HoldingData`; the runtime's reader wants
    // an object wherever the document has one, however deep.
    for body in [r#"[["A1", []]]"#, r#"[{"AccountId":"A1","Holdings":[[10.5]]}]"#] {
        let server = RawServer::start(RawReply::json(200, body)).await;
        let date = DateTime::parse("2024-06-30").unwrap();
        let err = client(&server).get_au_holdings(["A1"], date, ClassificationType::MarketType).await.unwrap_err();
        let Error::Decode { source, .. } = &err else { panic!("{body}: expected a decode error, got {err:?}") };
        assert!(source.to_string().starts_with("invalid type: sequence, expected struct"), "{body}: {source}");
    }
}

#[tokio::test]
async fn enum_values_the_spec_does_not_list_are_kept_not_decode_errors() {
    let server = RawServer::start(RawReply::json(200, r#"[{"Status":7},{"Status":"7"}]"#)).await;
    let err = client(&server).get_au_models().await.unwrap_err();
    let Error::Decode { path, .. } = &err else { panic!("{err:?}") };
    assert_eq!(path, "[1].Status", "only the value of the wrong JSON type fails");

    let server = RawServer::start(RawReply::json(200, r#"[{"Status":7}]"#)).await;
    let models = client(&server).get_au_models().await.unwrap();
    assert_eq!(models[0].status, Some(ModelStatus::Unknown(7)));
    assert_eq!(serde_json::to_value(&models[0]).unwrap(), serde_json::json!({"Status": 7}));
}

#[tokio::test]
async fn success_statuses_other_than_the_documented_one_are_errors() {
    let server = RawServer::start(RawReply::json(200, "{}")).await;
    let err = client(&server).add_au_account_esg_categories().await.unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(200));
}

#[test]
fn credentials_never_appear_in_debug_output() {
    let client = Client::new("http://127.0.0.1:9", Credentials::new("secret-token", "secret-key")).unwrap();
    let text = format!("{client:?} {:?}", Credentials::new("secret-token", "secret-key"));
    assert!(!text.contains("secret"), "{text}");
    let builder = format!("{:?}", client.get_au_models());
    assert!(!builder.contains("secret"), "{builder}");
}

#[test]
fn bad_base_urls_and_header_values_are_refused_up_front() {
    let creds = || Credentials::new("t", "k");
    for bad in ["not a url", "ftp://example.com", "http://example.com/?q=1", "mailto:x@example.com"] {
        let err = Client::new(bad, creds()).unwrap_err();
        assert!(matches!(err, Error::InvalidArgument { name: "base_url", .. }), "{bad}: {err:?}");
    }
    let err = Client::new("http://example.com", Credentials::new("line\nbreak", "k")).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument { name: "Authorization", .. }), "{err:?}");
}

#[tokio::test]
async fn https_base_urls_reach_the_tls_layer() {
    // Nothing listens on port 9; with TLS support compiled in, the failure is a connection error,
    // not "scheme not supported".
    let client = Client::new("https://127.0.0.1:9", Credentials::new("t", "k")).unwrap();
    let err = client.get_au_models().await.unwrap_err();
    let Error::Transport { source, .. } = &err else { panic!("{err:?}") };
    assert!(source.is_connect(), "{source:?}");
}

#[tokio::test]
async fn base_url_path_prefixes_are_kept() {
    let server = RawServer::start(RawReply::json(200, "[]")).await;
    let client = Client::new(&format!("{}/portfolio/", server.base_url()), Credentials::new("t", "k")).unwrap();
    client.get_au_models().await.unwrap();
    assert_eq!(server.only_request().target, "/portfolio/api/models");
}

#[test]
fn date_times_work_with_the_crates_error_and_compare_as_instants() {
    fn parse_both() -> Result<(DateTime, DateTime), portfolio_client::Error> {
        Ok((DateTime::parse("2024-06-30T00:00:00Z")?, DateTime::parse("2024-06-30T10:00:00+10:00")?))
    }
    let (utc, sydney) = parse_both().unwrap();
    assert_eq!(utc, sydney);
    let mut sorted = [DateTime::parse("2024-07-01").unwrap(), utc, DateTime::parse("2024-01-01T00:00:00Z").unwrap()];
    sorted.sort();
    assert_eq!(sorted.map(|d| d.to_string()), ["2024-01-01T00:00:00Z", "2024-06-30T00:00:00Z", "2024-07-01"]);
    fn bad() -> Result<DateTime, portfolio_client::Error> {
        Ok(DateTime::parse("yesterday")?)
    }
    let err = bad().unwrap_err();
    assert!(err.to_string().contains("`yesterday` is not an ISO 8601 date-time"), "{err}");
}

/// The path a decode error names is the one serde_path_to_error finds by tracking every step:
/// at every depth, after keys with escapes, across lines, and at a missing or misplaced value.
#[tokio::test]
async fn decode_errors_name_the_same_path_as_a_tracking_decoder() {
    use portfolio_client::types::Model;

    fn tracked<T: serde::de::DeserializeOwned>(body: &str) -> String {
        let mut de = serde_json::Deserializer::from_str(body);
        serde_path_to_error::deserialize::<_, T>(&mut de).err().expect("the body does not decode").path().to_string()
    }
    let models = [
        r#"[{"Status":"7"}]"#,
        r#"[{"Code":"A"},{"Code":"B","Status":1.5}]"#,
        r#"[ { "Code" : "A" , "Sta\u0074us" : "x" } ]"#,
        "[\n  {\n    \"Code\": \"A\",\n    \"Status\": true\n  }\n]",
        r#"{"Code":"A"}"#,
        r#"[{"Code":"A"}, 5]"#,
        r#"[{"Code":"A,[{\"]"}, {"Code": 5}]"#,
    ];
    for body in models {
        let server = RawServer::start(RawReply::json(200, body)).await;
        let err = client(&server).get_au_models().await.unwrap_err();
        let Error::Decode { path, .. } = &err else { panic!("{body}: {err:?}") };
        assert_eq!(*path, tracked::<Vec<Model>>(body), "{body}");
    }
    let holdings = [
        r#"[{"AccountId":"A1","Holdings":[{"Quantity":1},{"Quantity":"ten"}]}]"#,
        r#"[{"AccountId":"A1","Holdings":[{"Quantity":1}]},{"AccountId":"A2","Holdings":{}}]"#,
    ];
    let date = DateTime::parse("2024-06-30").unwrap();
    for body in holdings {
        let server = RawServer::start(RawReply::json(200, body)).await;
        let err = client(&server).get_au_holdings(["A1"], date, ClassificationType::MarketType).await.unwrap_err();
        let Error::Decode { path, .. } = &err else { panic!("{body}: {err:?}") };
        assert_eq!(*path, tracked::<Vec<HoldingData>>(body), "{body}");
    }
}
