//! What the generated mocks share: the handler of each operation, and the record of calls.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::server::ApiError;

/// A handler for one operation, taking the request context `C` and the input `I`.
type Handler<C, I, R> = Arc<dyn Fn(C, I) -> Pin<Box<dyn Future<Output = Result<R, ApiError>> + Send>> + Send + Sync>;

/// What a mock keeps: the handler of each operation that has one, the calls made so far, and
/// whether an operation without a handler answers with its sample.
///
/// Handlers are kept by the type of their operation's input, which is the operation's own, so
/// a mock needs no field per operation and a handler is found again with its exact type.
#[derive(Default)]
pub struct MockState {
    handlers: Mutex<HashMap<TypeId, Box<dyn Any + Send + Sync>>>,
    calls: Calls,
    sampled: bool,
}

impl MockState {
    /// The state of a mock whose operations without a handler answer with their samples.
    pub fn sampled() -> Self {
        MockState { sampled: true, ..MockState::default() }
    }

    /// The operations called so far, by operationId, in the order they were called.
    pub fn calls(&self) -> Vec<&'static str> {
        lock(&self.calls.0).clone()
    }

    /// Answers the operation whose input is `I` with `handler` from now on.
    pub fn set<C, I, R, F, Fut>(&self, handler: F)
    where
        I: 'static,
        C: 'static,
        R: 'static,
        F: Fn(C, I) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ApiError>> + Send + 'static,
    {
        let handler: Handler<C, I, R> = Arc::new(move |ctx, input| Box::pin(handler(ctx, input)));
        lock(&self.handlers).insert(TypeId::of::<I>(), Box::new(handler));
    }

    /// Records a call of `operation` (its operationId), then runs its handler; without one,
    /// answers with `sample` when the mock answers with samples, else 501 naming the operation.
    pub fn answer<C, I, R>(
        &self,
        operation: &'static str,
        sample: Option<fn() -> Result<R, ApiError>>,
        ctx: C,
        input: I,
    ) -> impl Future<Output = Result<R, ApiError>> + Send + use<C, I, R>
    where
        C: Send + 'static,
        I: Send + 'static,
        R: Send + 'static,
    {
        self.calls.record(operation);
        let handler =
            lock(&self.handlers).get(&TypeId::of::<I>()).map(|h| h.downcast_ref::<Handler<C, I, R>>().cloned());
        let sample = sample.filter(|_| self.sampled);
        async move {
            match (handler, sample) {
                (Some(Some(handler)), _) => handler(ctx, input).await,
                // Set and answered through the same generated method pair, so the types agree.
                (Some(None), _) => Err(ApiError::internal(format!("the handler of {operation} has another type"))),
                (None, Some(sample)) => sample(),
                (None, None) => Err(ApiError::not_implemented(operation)),
            }
        }
    }
}

impl fmt::Debug for MockState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MockState")
            .field("calls", &self.calls())
            .field("sampled", &self.sampled)
            .finish_non_exhaustive()
    }
}

/// A reply made up at generation time, as JSON text, read into its Rust type; a sample the type
/// cannot hold is the generator's fault, answered as a 500 that says so.
pub fn sample<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, ApiError> {
    serde_json::from_str(json).map_err(|e| ApiError::internal(format!("the sampled reply does not fit its type: {e}")))
}

/// The operations called on a mock, by operationId, in order.
#[derive(Debug, Default)]
struct Calls(Mutex<Vec<&'static str>>);

impl Calls {
    fn record(&self, operation: &'static str) {
        lock(&self.0).push(operation);
    }
}

/// A lock that a panicking handler cannot leave unusable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::MockState;

    #[tokio::test]
    async fn an_operation_answers_with_its_handler_its_sample_or_501_and_each_call_is_recorded() {
        let (plain, sampled) = (MockState::default(), MockState::sampled());
        let double: Option<fn() -> Result<u8, _>> = Some(|| super::sample("7"));
        let err = plain.answer("Double", double, (), 2u8).await.unwrap_err();
        assert_eq!(err.status(), axum::http::StatusCode::NOT_IMPLEMENTED);
        assert!(err.to_string().contains("Double"), "{err}");
        assert_eq!(sampled.answer("Double", double, (), 2u8).await.unwrap(), 7);
        let unsampled = sampled.answer::<(), u16, u16>("Triple", None, (), 2).await;
        assert!(unsampled.is_err(), "no sample: 501 even when sampling");
        sampled.set(|(), n: u8| async move { Ok(n * 2) });
        assert_eq!(sampled.answer("Double", double, (), 2u8).await.unwrap(), 4);
        // Another input type is another operation: still without a handler.
        assert!(sampled.answer::<(), u16, u16>("Triple", None, (), 2).await.is_err());
        assert_eq!(plain.calls(), ["Double"]);
        assert_eq!(sampled.calls(), ["Double", "Triple", "Double", "Triple"]);
    }
}
