//! Serving the generated router behind a tower layer that checks credentials against a store, so
//! the implementation only ever sees known callers.
//!
//! ```sh
//! cargo run -p portfolio-tests --example credential_layer
//! curl -i -H 'Authorization: alice-token' -H 'x-pps-subscription-key: k' \
//!   -H 'x-pps-api-version: 2022.09.26' http://127.0.0.1:8081/api/models
//! ```

use std::collections::HashSet;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use portfolio_server::{ApiError, serve, shutdown_signal};

/// The access tokens this deployment accepts; a real one would ask a database or an identity
/// provider.
struct TokenStore(HashSet<String>);

async fn check_token(State(store): State<Arc<TokenStore>>, request: Request, next: Next) -> Response {
    let token = request.headers().get("authorization").and_then(|v| v.to_str().ok());
    match token {
        Some(token) if store.0.contains(token) => next.run(request).await,
        // A missing header falls through, so the generated layer answers with its own 401.
        None => next.run(request).await,
        Some(_) => ApiError::unauthorized("the access token is not known").into_response(),
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let store = Arc::new(TokenStore(["alice-token".to_string()].into_iter().collect()));
    let app =
        portfolio_server::router(sandbox::Sandbox::default()).layer(middleware::from_fn_with_state(store, check_token));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:8081").await?;
    println!("listening on http://127.0.0.1:8081 (Ctrl-C stops)");
    serve(listener, app, shutdown_signal()).await
}
