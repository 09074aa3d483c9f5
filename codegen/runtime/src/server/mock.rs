//! What the generated mocks share: a slot per operation for its handler, and the record of calls.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::server::ApiError;

/// A handler for one operation, taking the request context `C` and the input `I`.
type Handler<C, I, R> = Arc<dyn Fn(C, I) -> Pin<Box<dyn Future<Output = Result<R, ApiError>> + Send>> + Send + Sync>;

/// One operation's handler, when one is set.
pub struct Slot<C, I, R>(Mutex<Option<Handler<C, I, R>>>);

impl<C, I, R> Default for Slot<C, I, R> {
    fn default() -> Self {
        Slot(Mutex::new(None))
    }
}

impl<C: Send + 'static, I: Send + 'static, R: Send + 'static> Slot<C, I, R> {
    /// Answers the operation with `handler` from now on.
    pub fn set<F, Fut>(&self, handler: F)
    where
        F: Fn(C, I) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ApiError>> + Send + 'static,
    {
        *lock(&self.0) = Some(Arc::new(move |ctx, input| Box::pin(handler(ctx, input))));
    }

    /// Records a call of `operation` in `calls`, then answers it as [`Slot::call`] does.
    pub fn answer(
        &self,
        calls: &Calls,
        operation: &'static str,
        ctx: C,
        input: I,
        fallback: Option<fn() -> Result<R, ApiError>>,
    ) -> impl Future<Output = Result<R, ApiError>> + Send + use<C, I, R> {
        calls.record(operation);
        self.call(operation, ctx, input, fallback)
    }

    /// Runs the handler; when none is set, answers with `fallback`, or 501 naming `operation`.
    pub fn call(
        &self,
        operation: &'static str,
        ctx: C,
        input: I,
        fallback: Option<fn() -> Result<R, ApiError>>,
    ) -> impl Future<Output = Result<R, ApiError>> + Send + use<C, I, R> {
        let handler = lock(&self.0).clone();
        async move {
            match (handler, fallback) {
                (Some(handler), _) => handler(ctx, input).await,
                (None, Some(fallback)) => fallback(),
                (None, None) => Err(ApiError::not_implemented(operation)),
            }
        }
    }
}

/// A reply made up at generation time, as JSON text, read into its Rust type; a sample the type
/// cannot hold is the generator's fault, answered as a 500 that says so.
pub fn sample<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, ApiError> {
    serde_json::from_str(json).map_err(|e| ApiError::internal(format!("the sampled reply does not fit its type: {e}")))
}

/// The operations called on a mock, by operationId, in order.
#[derive(Debug, Default)]
pub struct Calls(Mutex<Vec<&'static str>>);

impl Calls {
    /// Records a call of `operation`.
    pub fn record(&self, operation: &'static str) {
        lock(&self.0).push(operation);
    }

    /// The calls so far.
    pub fn list(&self) -> Vec<&'static str> {
        lock(&self.0).clone()
    }
}

/// A lock that a panicking handler cannot leave unusable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::{Calls, Slot};

    #[tokio::test]
    async fn a_slot_answers_with_its_handler_or_501() {
        let slot: Slot<(), u8, u8> = Slot::default();
        let err = slot.call("Double", (), 2, None).await.unwrap_err();
        assert_eq!(err.status(), axum::http::StatusCode::NOT_IMPLEMENTED);
        let sampled = slot.call("Double", (), 2, Some(|| super::sample("7"))).await.unwrap();
        assert_eq!(sampled, 7);
        slot.set(|(), n| async move { Ok(n * 2) });
        assert_eq!(slot.call("Double", (), 2, Some(|| super::sample("7"))).await.unwrap(), 4);
        let calls = Calls::default();
        calls.record("Double");
        assert_eq!(calls.list(), ["Double"]);
    }
}
