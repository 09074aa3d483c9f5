//! Serves the generated router (trivial implementation) and the hand-written baseline side by side:
//! `bench_server GENERATED_PORT BASELINE_PORT`.

use std::sync::Arc;

use portfolio_bench::{baseline, holdings, trivial::Trivial};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let generated_port: u16 = args.next().and_then(|a| a.parse().ok()).unwrap_or(18001);
    let baseline_port: u16 = args.next().and_then(|a| a.parse().ok()).unwrap_or(18002);
    let generated = portfolio_server::router_with(
        Arc::new(Trivial { holdings: holdings() }),
        portfolio_server::ServerConfig::default(),
    );
    let baseline = baseline::router(holdings());
    let a = tokio::net::TcpListener::bind(("127.0.0.1", generated_port)).await?;
    let b = tokio::net::TcpListener::bind(("127.0.0.1", baseline_port)).await?;
    println!("generated on {generated_port}, baseline on {baseline_port}");
    let (x, y) = tokio::join!(axum::serve(a, generated), axum::serve(b, baseline));
    x.and(y)
}
