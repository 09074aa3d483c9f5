//! What users of the client rely on beyond single calls: paging streams, retries, a rate limit,
//! timeouts and cancellation, tracing spans, request ids and credential providers. Everything
//! runs over real HTTP on 127.0.0.1.

use axum::Router;
use axum::extract::Query;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::StreamExt;
use portfolio_client::types::SortOrder;
use portfolio_client::{Client, Credentials, DateTime, Error, RetryPolicy, TimeoutKind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

async fn sandbox() -> String {
    serve(portfolio_server::router(sandbox::Sandbox::default())).await
}

fn d(text: &str) -> DateTime {
    DateTime::parse(text).unwrap()
}

#[derive(Clone, Default)]
struct Counter(Arc<AtomicUsize>);

impl Counter {
    fn hit(&self) -> usize {
        self.0.fetch_add(1, Ordering::SeqCst) + 1
    }
    fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

fn json(body: &str) -> Response {
    ([("content-type", "application/json")], body.to_string()).into_response()
}

#[tokio::test]
async fn paged_wrappers_stream_every_item_across_pages() {
    let client = Client::new(&sandbox().await, Credentials::new("t", "k")).unwrap();
    let all = client
        .get_au_transactions("A100", d("2024-01-01T00:00:00Z"), d("2024-12-31T00:00:00Z"))
        .size(1000)
        .await
        .unwrap();
    let expected: Vec<_> = all.data.unwrap().into_iter().map(|t| t.transaction_id.unwrap()).collect();
    assert_eq!(expected.len(), 23);
    let streamed: Vec<_> = client
        .get_au_transactions("A100", d("2024-01-01T00:00:00Z"), d("2024-12-31T00:00:00Z"))
        .size(5)
        .into_stream()
        .map(|t| t.unwrap().transaction_id.unwrap())
        .collect()
        .await;
    assert_eq!(streamed, expected, "five pages of five, in order");

    // An array of paged wrappers (the accounts search) streams its items too.
    let accounts: Vec<_> = client.get_au_accounts().search("*").size(2).into_stream().collect().await;
    assert_eq!(accounts.len(), 5);
}

#[tokio::test]
async fn plain_array_pages_stop_at_a_short_page() {
    let hits = Counter::default();
    let pages = Arc::new(Mutex::new(Vec::new()));
    let app = Router::new().route(
        "/api/unsettledtransactions",
        get({
            let (hits, pages) = (hits.clone(), pages.clone());
            move |Query(q): Query<std::collections::HashMap<String, String>>| async move {
                hits.hit();
                let page: usize = q["Page"].parse().unwrap();
                let size: usize = q["Size"].parse().unwrap();
                pages.lock().unwrap().push(page);
                let total = 7;
                let items: Vec<String> =
                    ((page - 1) * size..(page * size).min(total)).map(|i| format!(r#"{{"Quantity":{i}}}"#)).collect();
                json(&format!("[{}]", items.join(",")))
            }
        }),
    );
    let client = Client::new(&serve(app).await, Credentials::new("t", "k")).unwrap();
    let items: Vec<_> = client
        .get_au_unsettled_transactions("A1", d("2024-01-01T00:00:00Z"), d("2024-12-31T00:00:00Z"))
        .size(3)
        .into_stream()
        .collect()
        .await;
    let quantities: Vec<f64> = items.into_iter().map(|i| i.unwrap().quantity.unwrap()).collect();
    assert_eq!(quantities, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(*pages.lock().unwrap(), [1, 2, 3], "the short third page is the last one fetched");

    // Pages are fetched only as the stream is read; `next` needs no crate beside the client.
    let before = hits.count();
    let mut stream = client
        .get_au_unsettled_transactions("A1", d("2024-01-01T00:00:00Z"), d("2024-12-31T00:00:00Z"))
        .size(3)
        .into_stream();
    portfolio_client::Items::next(&mut stream).await.unwrap().unwrap();
    assert_eq!(hits.count(), before + 1);
}

/// A server that answers `failures` times with `status` (and `retry_after`), then succeeds.
fn flaky(hits: Counter, failures: usize, status: StatusCode, retry_after: Option<&'static str>) -> Router {
    let handler = move || {
        let hits = hits.clone();
        async move {
            if hits.hit() <= failures {
                let mut headers = HeaderMap::new();
                if let Some(after) = retry_after {
                    headers.insert("retry-after", after.parse().unwrap());
                }
                return (status, headers, "busy").into_response();
            }
            json("[]")
        }
    };
    Router::new().route("/api/models", get(handler.clone())).route(
        "/api/esgcategories",
        post(move || {
            let h = handler.clone();
            async move {
                let response = h().await;
                if response.status().is_success() { StatusCode::NO_CONTENT.into_response() } else { response }
            }
        }),
    )
}

#[tokio::test]
async fn gets_retry_503_and_429_honouring_retry_after() {
    let hits = Counter::default();
    let base = serve(flaky(hits.clone(), 2, StatusCode::SERVICE_UNAVAILABLE, Some("0"))).await;
    let client = Client::new(&base, Credentials::new("t", "k")).unwrap();
    client.get_au_models().await.unwrap();
    assert_eq!(hits.count(), 3, "two failures, then success");

    let hits = Counter::default();
    let base = serve(flaky(hits.clone(), 1, StatusCode::TOO_MANY_REQUESTS, Some("1"))).await;
    let client = Client::new(&base, Credentials::new("t", "k")).unwrap();
    let started = Instant::now();
    client.get_au_models().await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(950), "waited as Retry-After asked: {:?}", started.elapsed());
    assert_eq!(hits.count(), 2);
}

#[tokio::test]
async fn retries_are_capped_and_backoff_is_used_without_retry_after() {
    let hits = Counter::default();
    let base = serve(flaky(hits.clone(), usize::MAX, StatusCode::SERVICE_UNAVAILABLE, None)).await;
    let policy = RetryPolicy { initial_backoff: Duration::from_millis(20), ..RetryPolicy::default() };
    let client = Client::builder(&base, Credentials::new("t", "k")).retry(policy).build().unwrap();
    let started = Instant::now();
    let err = client.get_au_models().await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::SERVICE_UNAVAILABLE));
    assert_eq!(hits.count(), 4, "one attempt and three retries");
    assert!(started.elapsed() >= Duration::from_millis(60), "backoff of 20, 40 and 80 ms (jittered down to half)");

    let hits = Counter::default();
    let base = serve(flaky(hits.clone(), usize::MAX, StatusCode::SERVICE_UNAVAILABLE, Some("0"))).await;
    let client = Client::builder(&base, Credentials::new("t", "k")).retry(RetryPolicy::never()).build().unwrap();
    client.get_au_models().await.unwrap_err();
    assert_eq!(hits.count(), 1);
}

#[tokio::test]
async fn posts_are_not_retried_unless_asked() {
    let hits = Counter::default();
    let base = serve(flaky(hits.clone(), 1, StatusCode::SERVICE_UNAVAILABLE, Some("0"))).await;
    let client = Client::new(&base, Credentials::new("t", "k")).unwrap();
    assert_eq!(
        client.add_au_account_esg_categories().await.unwrap_err().status(),
        Some(StatusCode::SERVICE_UNAVAILABLE)
    );
    assert_eq!(hits.count(), 1);

    let hits = Counter::default();
    let base = serve(flaky(hits.clone(), 1, StatusCode::SERVICE_UNAVAILABLE, Some("0"))).await;
    let policy = RetryPolicy { retry_non_idempotent: true, ..RetryPolicy::default() };
    let client = Client::builder(&base, Credentials::new("t", "k")).retry(policy).build().unwrap();
    client.add_au_account_esg_categories().await.unwrap();
    assert_eq!(hits.count(), 2);
}

/// With `idempotency_keys` on, a POST the document gives no key to is sent with one of the
/// client's own, the same on its retry, and retried; without it, no key is sent and no POST retried.
#[tokio::test]
async fn configured_idempotency_keys_make_posts_retryable() {
    let keys = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = keys.clone();
    let app = Router::new().route(
        "/api/esgcategories",
        post(move |headers: HeaderMap| {
            let mut keys = seen.lock().unwrap();
            keys.push(headers.get("idempotency-key").map(|v| v.to_str().unwrap().to_string()));
            let status = if keys.len() % 2 == 1 { StatusCode::SERVICE_UNAVAILABLE } else { StatusCode::NO_CONTENT };
            async move { status }
        }),
    );
    let base = serve(app).await;
    let policy =
        RetryPolicy { idempotency_keys: true, initial_backoff: Duration::from_millis(10), ..RetryPolicy::default() };
    let client = Client::builder(&base, Credentials::new("t", "k")).retry(policy).build().unwrap();
    client.add_au_account_esg_categories().await.unwrap();
    let sent = std::mem::take(&mut *keys.lock().unwrap());
    assert_eq!(sent.len(), 2);
    assert!(sent[0].is_some() && sent[0] == sent[1], "{sent:?}");

    let client = Client::new(&base, Credentials::new("t", "k")).unwrap();
    assert_eq!(
        client.add_au_account_esg_categories().await.unwrap_err().status(),
        Some(StatusCode::SERVICE_UNAVAILABLE)
    );
    assert_eq!(*keys.lock().unwrap(), [None], "no key, and no retry, unless asked");
}

#[tokio::test]
async fn the_rate_limit_spaces_requests() {
    let hits = Counter::default();
    let base = serve(flaky(hits.clone(), 0, StatusCode::OK, None)).await;
    let client = Client::builder(&base, Credentials::new("t", "k")).rate_limit(20.0).build().unwrap();
    let started = Instant::now();
    for _ in 0..10 {
        client.get_au_models().await.unwrap();
    }
    assert!(
        started.elapsed() >= Duration::from_millis(440),
        "10 requests at 20/s take 450 ms: {:?}",
        started.elapsed()
    );
    assert!(Client::builder(&base, Credentials::new("t", "k")).rate_limit(0.0).build().is_err());
}

fn slow(delay: Duration, dropped: Counter) -> Router {
    struct Guard(Counter);
    impl Drop for Guard {
        fn drop(&mut self) {
            self.0.hit();
        }
    }
    Router::new().route(
        "/api/models",
        get(move || {
            let dropped = dropped.clone();
            async move {
                let _guard = Guard(dropped);
                tokio::time::sleep(delay).await;
                json("[]")
            }
        }),
    )
}

#[tokio::test]
async fn client_and_call_timeouts_apply() {
    let base = serve(slow(Duration::from_secs(3), Counter::default())).await;
    let client =
        Client::builder(&base, Credentials::new("t", "k")).timeout(Duration::from_millis(200)).build().unwrap();
    let started = Instant::now();
    let err = client.get_au_models().await.unwrap_err();
    assert!(
        matches!(&err, Error::Timeout { kind: TimeoutKind::Call(limit), .. } if limit.as_millis() == 200),
        "{err:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(2));

    // A call's own timeout wins over the client's.
    let client = Client::new(&base, Credentials::new("t", "k")).unwrap();
    let err = client.get_au_models().timeout(Duration::from_millis(100)).await.unwrap_err();
    assert!(
        matches!(&err, Error::Timeout { kind: TimeoutKind::Call(limit), .. } if limit.as_millis() == 100),
        "{err:?}"
    );
}

#[tokio::test]
async fn dropping_a_call_cancels_it() {
    let dropped = Counter::default();
    let base = serve(slow(Duration::from_secs(30), dropped.clone())).await;
    let client = Client::new(&base, Credentials::new("t", "k")).unwrap();
    let call = tokio::spawn(async move { client.get_au_models().await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    call.abort();
    // The server notices the closed connection and drops its handler.
    let started = Instant::now();
    while dropped.count() == 0 {
        assert!(started.elapsed() < Duration::from_secs(5), "the server never saw the call go away");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A writer that keeps everything tracing prints, for inspection.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn spans_describe_each_call_on_both_sides_without_credentials() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let client = Client::builder(&sandbox().await, Credentials::new("secret-token", "secret-key"))
        .request_ids(true)
        .build()
        .unwrap();
    client
        .get_au_transactions("A100", d("2024-01-01T00:00:00Z"), d("2024-02-01T00:00:00Z"))
        .order(SortOrder::Asc)
        .await
        .unwrap();
    let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    let closes: Vec<&str> = text.lines().filter(|l| l.contains("close")).collect();
    assert_eq!(closes.len(), 2, "one span on each side:\n{text}");
    for line in &closes {
        assert!(line.contains("operation=\"GetAUTransactions\""), "{line}");
        assert!(line.contains("path=\"/api/transactions\""), "{line}");
        assert!(line.contains("status=200"), "{line}");
        assert!(line.contains("duration_ms="), "{line}");
    }
    // The same request id on both sides ties their logs together.
    let ids: Vec<&str> =
        closes.iter().map(|l| l.split("request_id=").nth(1).unwrap().split([' ', '}', ':']).next().unwrap()).collect();
    assert_eq!(ids[0], ids[1], "{text}");
    assert!(!text.contains("secret"), "credentials leaked into the logs:\n{text}");
}

#[tokio::test]
async fn credentials_providers_are_asked_per_request_and_their_errors_surface() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let app = Router::new().route(
        "/api/models",
        get({
            let seen = seen.clone();
            move |headers: HeaderMap| async move {
                seen.lock().unwrap().push(headers["authorization"].to_str().unwrap().to_string());
                json("[]")
            }
        }),
    );
    let base = serve(app).await;
    let calls = Counter::default();
    let provider = {
        let calls = calls.clone();
        move || {
            let n = calls.hit();
            async move {
                if n == 3 {
                    return Err("token service unavailable".into());
                }
                Ok(Credentials::new(format!("token-{n}"), "key"))
            }
        }
    };
    let client =
        Client::builder(&base, Credentials::new("unused", "unused")).credentials_provider(provider).build().unwrap();
    client.get_au_models().await.unwrap();
    client.get_au_models().await.unwrap();
    let err = client.get_au_models().await.unwrap_err();
    assert!(matches!(&err, Error::Credentials { operation: "GetAUModels", .. }), "{err:?}");
    assert!(err.to_string().contains("token service unavailable"));
    assert_eq!(
        *seen.lock().unwrap(),
        ["token-1", "token-2"],
        "each request asked the provider; the failed one sent nothing"
    );
}

/// Hooks see every attempt: the request hook signs it (the server sees the signature on the
/// retry too), the response hook sees each reply's status, and a hook's error stops the call.
#[tokio::test]
async fn hooks_sign_every_attempt_and_see_every_reply() {
    struct Signer {
        statuses: Arc<std::sync::Mutex<Vec<u16>>>,
        refuse: bool,
    }
    impl portfolio_client::Hooks for Signer {
        fn on_request(
            &self,
            operation: &'static str,
            request: &mut reqwest::Request,
        ) -> Result<(), portfolio_client::BoxError> {
            if self.refuse {
                return Err("no signing key".into());
            }
            let signature = format!("{operation}:{}", request.url().path());
            request.headers_mut().insert("x-signature", signature.parse().unwrap());
            Ok(())
        }
        fn on_response(&self, _: &'static str, response: &reqwest::Response) {
            self.statuses.lock().unwrap().push(response.status().as_u16());
        }
    }
    let signatures = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = signatures.clone();
    let hits = Counter::default();
    let app = Router::new().route(
        "/api/models",
        get(move |headers: HeaderMap| {
            seen.lock().unwrap().push(headers.get("x-signature").map(|v| v.to_str().unwrap().to_string()));
            let first = hits.hit() == 1;
            async move {
                match first {
                    true => (StatusCode::SERVICE_UNAVAILABLE, [("retry-after", "0")], "busy").into_response(),
                    false => json("[]"),
                }
            }
        }),
    );
    let base = serve(app).await;
    let statuses = Arc::new(std::sync::Mutex::new(Vec::new()));
    let hooks = Signer { statuses: statuses.clone(), refuse: false };
    let client = Client::builder(&base, Credentials::new("t", "k")).hooks(hooks).build().unwrap();
    client.get_au_models().await.unwrap();
    let signed = Some("GetAUModels:/api/models".to_string());
    assert_eq!(*signatures.lock().unwrap(), [signed.clone(), signed]);
    assert_eq!(*statuses.lock().unwrap(), [503, 200]);

    let refusing = Signer { statuses, refuse: true };
    let client = Client::builder(&base, Credentials::new("t", "k")).hooks(refusing).build().unwrap();
    let err = client.get_au_models().await.unwrap_err();
    assert!(matches!(err, Error::Hook { operation: "GetAUModels", .. }), "{err:?}");
    assert_eq!(signatures.lock().unwrap().len(), 2, "a refused request is not sent");
}

/// The unseen fixture.
mod unseen {
    use crate::fixtures::unseen::serve;

    use unseen_client::{Client, Credentials};

    /// Every builder's future can move between threads, as a spawned task needs, and has a name.
    #[test]
    fn request_futures_are_send_and_nameable() {
        fn send<T: Send>(_: &T) {}
        let client = Client::new("http://127.0.0.1:9", Credentials::new("", "", "", "")).expect("client");
        let future: unseen_client::Sending<'_, String> = client.get_shelf("oak").send();
        send(&future);
        send(&std::future::IntoFuture::into_future(client.delete_loose()));
    }

    /// An operation that declares `Idempotency-Key` gets a key of the client's own when the caller sets
    /// none, the same on the retry, so the POST is retried; a key the caller sets is sent as it is.
    #[tokio::test]
    async fn a_declared_idempotency_key_is_sent_and_kept_across_retries() {
        let (mock, client) = serve().await;
        let keys = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = keys.clone();
        mock.on_create_payment(move |_, input| {
            let mut keys = seen.lock().unwrap();
            keys.push(input.idempotency_key);
            let first = keys.len() == 1;
            async move {
                match first {
                    true => Err(unseen_server::ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE)),
                    false => Ok(()),
                }
            }
        });
        client.create_payment().await.expect("the retry succeeds");
        let sent = keys.lock().unwrap().clone();
        assert_eq!(sent.len(), 2, "one attempt and one retry");
        let key = sent[0].clone().expect("a key of the client's own");
        assert_eq!(key.len(), 36, "{key}");
        assert_eq!(sent[1].as_deref(), Some(key.as_str()), "the same key on the retry");

        keys.lock().unwrap().clear();
        client.create_payment().idempotency_key("mine").await.expect("the retry succeeds");
        let sent = keys.lock().unwrap().clone();
        assert_eq!(sent, [Some("mine".to_string()), Some("mine".to_string())]);
    }
}
