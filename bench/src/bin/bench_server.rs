//! Serves the generated router (trivial implementation) and the hand-written baseline side by side:
//! `bench_server GENERATED_PORT BASELINE_PORT`. Both listen with the same backlog, so the
//! comparison is of the serving code, not of the listen queue.

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
    // The generated side runs under the generated `serve` with its production limits (connection
    // cap, head, idle and body deadlines); the baseline under plain `axum::serve`, as a
    // hand-written service would.
    let config = portfolio_server::ServeConfig::default();
    let a = portfolio_server::bind(("127.0.0.1", generated_port), &config).await?;
    let b = portfolio_server::bind(("127.0.0.1", baseline_port), &config).await?;
    println!("generated on {generated_port}, baseline on {baseline_port}");
    let never = std::future::pending::<()>();
    let (x, y) = tokio::join!(portfolio_server::serve_with(a, generated, never, config), axum::serve(b, baseline));
    x.and(y)
}
