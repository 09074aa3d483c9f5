//! The hand-written axum baseline: the same two endpoints, the same checks a careful hand-written
//! service makes (credentials, version, parameters, body type), the same bytes on the wire.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use portfolio_server::types::{ClassificationType, HoldingData, PostEsgCategoryRequest};

fn problem(status: StatusCode, detail: &str) -> Response {
    let body = serde_json::json!({ "type": "about:blank", "title": status.canonical_reason(), "status": status.as_u16(), "detail": detail });
    (status, [(header::CONTENT_TYPE, "application/problem+json")], body.to_string()).into_response()
}

/// The status and detail of the first header problem, if any.
fn check_headers(headers: &HeaderMap) -> Option<(StatusCode, &'static str)> {
    for name in ["authorization", "x-pps-subscription-key"] {
        if headers.get(name).and_then(|v| v.to_str().ok()).is_none_or(|v| v.trim().is_empty()) {
            return Some((StatusCode::UNAUTHORIZED, "missing credentials"));
        }
    }
    if headers.get("x-pps-api-version").is_none() {
        return Some((StatusCode::BAD_REQUEST, "missing version"));
    }
    None
}

async fn holdings(
    State(reply): State<Arc<Vec<HoldingData>>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    if let Some((status, detail)) = check_headers(&headers) {
        return problem(status, detail);
    }
    let (mut ids, mut date, mut kind) = (Vec::new(), None, None);
    for (name, value) in form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        match &*name {
            "AccountIds" => ids.push(value.into_owned()),
            "ValuationDate" => date = portfolio_server::DateTime::parse(&value).ok(),
            "ClassificationType" => kind = value.parse::<ClassificationType>().ok(),
            _ => {}
        }
    }
    if ids.is_empty() || date.is_none() || kind.is_none() {
        return problem(StatusCode::BAD_REQUEST, "invalid parameters");
    }
    std::hint::black_box((ids, date, kind));
    // The same work the trivial implementation does: an owned reply per request.
    let reply: Vec<HoldingData> = (*reply).clone();
    let body = serde_json::to_vec(&reply).expect("the reply serializes");
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn add_esg(headers: HeaderMap, body: Bytes) -> Response {
    if let Some((status, detail)) = check_headers(&headers) {
        return problem(status, detail);
    }
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json"));
    if !json {
        return problem(StatusCode::UNSUPPORTED_MEDIA_TYPE, "send JSON");
    }
    match serde_json::from_slice::<PostEsgCategoryRequest>(&body) {
        Ok(request) if !request.category_ids.is_empty() => {
            std::hint::black_box(request);
            StatusCode::NO_CONTENT.into_response()
        }
        _ => problem(StatusCode::BAD_REQUEST, "invalid body"),
    }
}

/// The baseline router.
pub fn router(reply: Vec<HoldingData>) -> Router {
    Router::new()
        .route("/api/holdings", get(holdings))
        .route("/api/esgcategories", axum::routing::post(add_esg))
        .with_state(Arc::new(reply))
}
