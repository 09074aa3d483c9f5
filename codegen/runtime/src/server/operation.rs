//! Which operation a request was routed to, for tower layers around the router.

use axum::extract::MatchedPath;
use axum::http::{Extensions, Method, Request};

/// One operation of the document: its `operationId`, method and path template.
///
/// Layers added to a generated router (`Router::layer`, `Router::route_layer`) run once axum has
/// matched the request's route, so [`Operation::of`] can tell them which operation they wrap:
/// to log, meter or authorise per operation, in any order of layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Operation {
    /// The `operationId`, e.g. `getPet`.
    pub id: &'static str,
    /// The method, e.g. `GET`.
    pub method: &'static str,
    /// The path template as the router matches it, e.g. `/pets/{id}`.
    pub path: &'static str,
}

impl Operation {
    /// The operation of `operations` (a generated crate's `OPERATIONS`) that `request` was routed
    /// to; `None` before routing, for a request no operation serves, and where several operations
    /// share the route (told apart by their handler).
    pub fn of<B>(operations: &'static [Operation], request: &Request<B>) -> Option<&'static Operation> {
        Self::routed(operations, request.method(), request.extensions())
    }

    /// [`Operation::of`] for a request taken apart.
    pub fn routed(
        operations: &'static [Operation],
        method: &Method,
        extensions: &Extensions,
    ) -> Option<&'static Operation> {
        let matched = extensions.get::<MatchedPath>()?.as_str();
        let method = method.as_str();
        // The route itself; served under a base path, the template after it.
        let exact = only(operations.iter().filter(|op| op.method == method && op.path == matched));
        exact.or_else(|| {
            only(operations.iter().filter(|op| {
                op.method == method
                    && matched.strip_suffix(op.path).is_some_and(|base| base.starts_with('/') && !base.ends_with('/'))
            }))
        })
    }
}

/// The one item of `found`: the operation when exactly one matches.
fn only(mut found: impl Iterator<Item = &'static Operation>) -> Option<&'static Operation> {
    match (found.next(), found.next()) {
        (Some(op), None) => Some(op),
        _ => None,
    }
}
