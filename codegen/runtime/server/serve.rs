//! Running the router until it is told to stop, finishing the requests in flight.

use std::future::Future;

use axum::Router;
use tokio::net::TcpListener;

/// Serves `router` on `listener` until `shutdown` completes; then stops accepting connections and
/// returns once the requests in flight have been answered.
pub async fn serve(listener: TcpListener, router: Router, shutdown: impl Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
    axum::serve(listener, router).with_graceful_shutdown(shutdown).await
}

/// Completes on Ctrl-C or, on Unix, on `SIGTERM` (what process managers send to stop a service).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            // No Ctrl-C handling here (no terminal); wait for the other signal only.
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
