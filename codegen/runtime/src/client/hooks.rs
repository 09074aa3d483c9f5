//! The caller's code around every attempt of every call.

use std::fmt;

use crate::client::BoxError;

/// Code of the caller's that sees every attempt of every call: to sign requests, add tracing
/// headers or count replies. Each method has a default that does nothing; set the hooks with the
/// client builder's `hooks`.
pub trait Hooks: Send + Sync + 'static {
    /// Called with each attempt's request just before it is sent, once credentials, the version
    /// header and any idempotency key are on it, so a signature made here covers them; a retry
    /// calls it again with the request as first built. An error ends the call with
    /// [`Error::Hook`](crate::client::Error::Hook), and the request is not sent.
    fn on_request(&self, operation: &'static str, request: &mut reqwest::Request) -> Result<(), BoxError> {
        let _ = (operation, request);
        Ok(())
    }

    /// Called with the head of each reply as it arrives, before its body is read (a reply that is
    /// retried included).
    fn on_response(&self, operation: &'static str, response: &reqwest::Response) {
        let _ = (operation, response);
    }
}

impl fmt::Debug for dyn Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Hooks")
    }
}
