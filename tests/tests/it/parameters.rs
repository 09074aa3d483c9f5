//! Parameters in every style and place: deep objects, exploded maps, label and matrix paths, lists
//! in paths and headers, JSON-encoded values, empty values and parameters axum would misread.

use crate::fixtures::unseen::serve;
use unseen_client::{Client, Credentials};

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
