//! `cargo run -p sandbox -- [--addr 127.0.0.1:8080] [--grace-period SECONDS] [--access-token T --subscription-key K]`

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::response::Response;
use portfolio_server::{ServeConfig, ServerConfig, bind, router_with, serve_with, shutdown_signal};
use sandbox::{Credentials, Sandbox};

const USAGE: &str =
    "usage: sandbox [--addr HOST:PORT] [--grace-period SECONDS] [--access-token TOKEN --subscription-key KEY]

  --addr              where to listen (default 127.0.0.1:8080)
  --grace-period      how long a shutdown waits for requests in flight, in seconds (default 10)
  --access-token      accept only this access token (with --subscription-key)
  --subscription-key  accept only this subscription key (with --access-token)
  -h, --help          print this and exit

Without credentials given, any non-empty access token and subscription key are accepted.
Ctrl-C or SIGTERM stops the sandbox; a second one stops it at once.";

struct Args {
    addr: SocketAddr,
    serve: ServeConfig,
    credentials: Credentials,
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut addr: SocketAddr = "127.0.0.1:8080".parse().expect("a valid default address");
    let mut serve = ServeConfig::default();
    let (mut token, mut key) = (None, None);
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--addr" => addr = value("--addr")?.parse().map_err(|e| format!("--addr: {e}"))?,
            "--grace-period" => {
                let seconds: f64 = value("--grace-period")?.parse().map_err(|e| format!("--grace-period: {e}"))?;
                let grace = Duration::try_from_secs_f64(seconds).map_err(|e| format!("--grace-period: {e}"))?;
                serve = serve.with_grace_period(grace);
            }
            "--access-token" => token = Some(value("--access-token")?),
            "--subscription-key" => key = Some(value("--subscription-key")?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let credentials = match (token, key) {
        (None, None) => Credentials::Any,
        (Some(access_token), Some(subscription_key)) => Credentials::Fixed { access_token, subscription_key },
        _ => return Err("--access-token and --subscription-key go together".to_string()),
    };
    Ok(Args { addr, serve, credentials })
}

/// Logs each request: method, path, status and duration (never headers, so never credentials).
async fn log_request(request: Request, next: Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_owned());
    let started = Instant::now();
    let response = next.run(request).await;
    tracing::info!(%method, %path, status = response.status().as_u16(), elapsed_ms = started.elapsed().as_secs_f64() * 1e3, "request");
    response
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .init();
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("{message}\n");
            }
            eprintln!("{USAGE}");
            return if message.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    let app = router_with(Arc::new(Sandbox::new(args.credentials)), ServerConfig::default())
        .layer(middleware::from_fn(log_request));
    let listener = match bind(args.addr, &args.serve).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("cannot listen on {}: {e}", args.addr);
            return ExitCode::FAILURE;
        }
    };
    tracing::info!(addr = %args.addr, "sandbox listening; Ctrl-C stops it (twice: at once)");
    let shutdown = async {
        shutdown_signal().await;
        tracing::info!("shutting down");
    };
    match serve_with(listener, app, shutdown, args.serve).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("server error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{USAGE, parse_args};

    /// The flags `parse_args` matches are the string literals in it that start with `--`: each is
    /// in the usage text, which the binary prints for `--help`.
    #[test]
    fn the_usage_lists_every_flag_the_parser_takes() {
        let source = include_str!("main.rs");
        let start = source.find("fn parse_args").expect("the parser");
        let end = start + source[start..].find("\n}\n").expect("its end");
        let flags: Vec<&str> =
            source[start..end].split('"').filter(|word| word.starts_with("--") && !word.contains(' ')).collect();
        assert!(flags.len() >= 5 && flags.contains(&"--grace-period"), "{flags:?}");
        for flag in flags {
            let listed = USAGE.lines().any(|line| line.trim_start().split([' ', ',']).any(|word| word == flag));
            assert!(listed, "`{flag}` is parsed but the usage does not list it");
        }
        let args = ["--grace-period", "2.5", "--addr", "127.0.0.1:0"].map(String::from);
        let parsed = parse_args(args.into_iter()).expect("valid flags");
        assert_eq!(parsed.serve.grace_period, std::time::Duration::from_millis(2500));
    }
}
