//! Tests of reading parameters and bodies.

use axum::http::StatusCode;

use super::path::{segment_has, segment_values};
use super::query::{QueryParams, fixed_query, query_has};
use super::*;

use crate::server::problems::parse;

#[test]
fn segments_split_at_their_literal_text() {
    assert_eq!(segment_values("v2.7", &["v", ".", ""]), Some(vec!["2", "7"]));
    assert_eq!(segment_values("intro.mp4", &["", ".", ""]), Some(vec!["intro", "mp4"]));
    assert_eq!(segment_values("x:archive", &["", ":archive"]), Some(vec!["x"]));
    assert_eq!(segment_values(":archive", &["", ":archive"]), None);
    assert_eq!(segment_values("x:other", &["", ":archive"]), None);
    assert!(segment_has("/clips/intro%3Aarchive", 2, &["", ":archive"]));
}

#[test]
fn a_query_the_path_fixes_is_read_as_the_request_query_is() {
    assert!(query_has(Some("beta=true&n=1"), &[("beta", "true")]));
    assert!(query_has(Some("q=a%20b"), &[("q", "a+b")]), "the path's `+` is a space too");
    assert!(query_has(Some("f=a%2Fb"), &[("f", "a%2Fb")]));
    assert!(!query_has(Some("beta=false"), &[("beta", "true")]));
    assert!(!query_has(None, &[("beta", "true")]));
    let err = fixed_query(Some("q=other"), &[("q", "a+b")]).unwrap_err();
    assert_eq!(err.status(), StatusCode::NOT_FOUND);
}

#[test]
fn integers_written_with_a_zero_fraction_are_integers() {
    assert_eq!(parse::<i32>("6.0", "integer"), Ok(6));
    assert_eq!(parse::<u8>("2e1", "integer"), Ok(20));
    assert!(parse::<i32>("6.5", "integer").unwrap_err().contains("`6.5`"));
    assert_eq!(parse::<String>("6.0", ""), Ok("6.0".to_string()));
    assert_eq!(parse::<f64>("6.0", ""), Ok(6.0));
}

#[test]
fn query_values_are_decoded_and_checked() {
    let mut problems = Problems::default();
    let text = "Page=2&Ids=a&Ids=b%20c&Flag=yes&Dup=1&Dup=2&Csv=1,2,x&Pipes=1%7C2&Spaces=3+4&Bad=%FF&%C0=1&None=";
    let query = QueryParams::parse(Some(text), &mut problems);
    assert_eq!(query.optional::<i32>("Page", "integer", &mut problems), Some(2));
    assert_eq!(
        query.required_list::<String>("Ids", "string", None, &mut problems),
        Some(vec!["a".into(), "b c".into()])
    );
    assert_eq!(query.optional::<bool>("Flag", "boolean", &mut problems), None);
    assert_eq!(query.optional::<i32>("Dup", "integer", &mut problems), None);
    assert_eq!(query.required::<String>("Missing", "string", &mut problems), None);
    assert_eq!(query.optional_list::<i32>("Csv", "integer", Some(','), &mut problems), None);
    assert_eq!(query.optional_list::<i32>("Pipes", "integer", Some('|'), &mut problems), Some(vec![1, 2]));
    assert_eq!(query.optional_list::<i32>("Spaces", "integer", Some(' '), &mut problems), Some(vec![3, 4]));
    assert_eq!(query.required_list::<i32>("None", "integer", None, &mut problems), Some(vec![]), "`None=`");
    let error = problems.into_error();
    let names: Vec<&String> = error.errors().keys().collect();
    assert_eq!(names, ["Bad", "Csv", "Dup", "Flag", "Missing", "query"]);
}

#[test]
fn credentials_are_read_from_their_scheme_or_cookie() {
    use axum::http::{HeaderMap, HeaderValue};
    let mut headers = HeaderMap::new();
    headers.insert("authorization", HeaderValue::from_static("bearer  tok-1 "));
    headers.append("cookie", HeaderValue::from_static("theme=dark; sid=abc"));
    headers.append("cookie", HeaderValue::from_static("sidx=no; session=s-2"));
    assert_eq!(super::scheme_credential(&headers, "Bearer").as_deref(), Some("tok-1"));
    assert_eq!(super::scheme_credential(&headers, "Basic"), None);
    assert_eq!(super::cookie_credential(&headers, "session").as_deref(), Some("s-2"));
    assert_eq!(super::cookie_credential(&headers, "sid").as_deref(), Some("abc"), "not `sidx`");
    assert_eq!(super::cookie_credential(&headers, "missing"), None);
}
