//! What the generated mocks share: a slot per operation for its handler, and the record of calls.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::server::ApiError;

/// A handler for one operation, taking the request context `C` and the input `I`.
type Handler<C, I, R> = Arc<dyn Fn(C, I) -> Pin<Box<dyn Future<Output = Result<R, ApiError>> + Send>> + Send + Sync>;

/// One operation's handler, when one is set, and what answers the operation without one.
pub struct Slot<C, I, R> {
    handler: Mutex<Option<Handler<C, I, R>>>,
    operation: &'static str,
    sample: Option<fn() -> Result<R, ApiError>>,
}

impl<C: Send + 'static, I: Send + 'static, R: Send + 'static> Slot<C, I, R> {
    /// The slot of `operation` (its operationId), answered with `sample` when the mock answers
    /// with samples and the operation has one.
    pub fn new(operation: &'static str, sample: Option<fn() -> Result<R, ApiError>>) -> Self {
        Slot { handler: Mutex::new(None), operation, sample }
    }

    /// Answers the operation with `handler` from now on.
    pub fn set<F, Fut>(&self, handler: F)
    where
        F: Fn(C, I) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ApiError>> + Send + 'static,
    {
        *lock(&self.handler) = Some(Arc::new(move |ctx, input| Box::pin(handler(ctx, input))));
    }

    /// Records the call in `mock`, then runs the handler; without one, answers with the sample
    /// when `mock` answers with samples, else 501 naming the operation.
    pub fn answer(
        &self,
        mock: &MockState,
        ctx: C,
        input: I,
    ) -> impl Future<Output = Result<R, ApiError>> + Send + use<C, I, R> {
        mock.calls.record(self.operation);
        let handler = lock(&self.handler).clone();
        let (operation, sample) = (self.operation, self.sample.filter(|_| mock.sampled));
        async move {
            match (handler, sample) {
                (Some(handler), _) => handler(ctx, input).await,
                (None, Some(sample)) => sample(),
                (None, None) => Err(ApiError::not_implemented(operation)),
            }
        }
    }
}

/// What a mock keeps besides its handlers: the calls made so far, and whether an operation without
/// a handler answers with its sample.
#[derive(Debug, Default)]
pub struct MockState {
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
    use super::{MockState, Slot};

    #[tokio::test]
    async fn a_slot_answers_with_its_handler_its_sample_or_501_and_records_each_call() {
        let (plain, sampled) = (MockState::default(), MockState::sampled());
        let slot: Slot<(), u8, u8> = Slot::new("Double", Some(|| super::sample("7")));
        let err = slot.answer(&plain, (), 2).await.unwrap_err();
        assert_eq!(err.status(), axum::http::StatusCode::NOT_IMPLEMENTED);
        assert!(err.to_string().contains("Double"), "{err}");
        assert_eq!(slot.answer(&sampled, (), 2).await.unwrap(), 7);
        let unsampled: Slot<(), u8, u8> = Slot::new("Triple", None);
        assert!(unsampled.answer(&sampled, (), 2).await.is_err(), "no sample: 501 even when sampling");
        slot.set(|(), n| async move { Ok(n * 2) });
        assert_eq!(slot.answer(&sampled, (), 2).await.unwrap(), 4);
        assert_eq!(plain.calls(), ["Double"]);
        assert_eq!(sampled.calls(), ["Double", "Triple", "Double"]);
    }
}
