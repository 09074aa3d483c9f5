//! Reading a request body: within its size limit, its time limit and the router's body budget,
//! with a content type the operation accepts.
//!
//! The reading is a small hand-written future rather than nested `async fn`s: every handler's
//! future holds it, and moving a large future costs each request a copy of it.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use bytes::BytesMut;
use http_body::Body as _;
use tokio::time::Sleep;

use crate::server::ApiError;
use crate::server::api_error::problem_types;
use crate::server::budget::{BodyBudget, Reservation};
use crate::server::problems::Problems;

/// What a request body may be: its size, the time it may take to arrive, and the budget it is
/// held in.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit<'a> {
    /// The most bytes the body may have.
    pub bytes: usize,
    /// The longest the body may take to arrive.
    pub timeout: Duration,
    /// What all bodies in flight together may hold.
    pub budget: &'a BodyBudget,
}

/// The bytes of a request body: 413 past the size limit, 408 past the time limit, 503 when the
/// body budget has no room for it, 415 for a content type not in `accepted`; an empty body
/// without a content type is `None` (and a recorded problem when `required`, naming `what` was
/// expected), while one with a content type is an empty body of that type (an empty text or
/// file). The bytes hold their room in the budget for as long as they live.
pub async fn read_body(
    headers: &HeaderMap,
    body: Body,
    limit: BodyLimit<'_>,
    accepted: &[&str],
    required: bool,
    what: &str,
    problems: &mut Problems,
) -> Result<Option<Bytes>, ApiError> {
    let declared = headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit.bytes as u64) {
        return Err(too_large(limit.bytes));
    }
    let bytes = Collect::new(body, limit, declared.map(|d| d as usize)).await?;
    let content_type = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if bytes.is_empty() && content_type.is_empty() {
        if required {
            problems.add("body", format!("{what} is required"));
        }
        return Ok(None);
    }
    if !accepts(accepted, content_type) {
        let shown = if content_type.is_empty() { "no content type".to_string() } else { format!("`{content_type}`") };
        return Err(ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE)
            .with_type(problem_types::UNSUPPORTED_MEDIA_TYPE)
            .with_detail(format!("a body with {shown} is not accepted; send one of {}", accepted.join(", "))));
    }
    Ok(Some(bytes))
}

/// Whether `content_type` is one of `accepted`, which may hold wildcards such as `*/*`,
/// `application/*` and `application/*+json`.
pub(crate) fn accepts(accepted: &[&str], content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    accepted.iter().any(|pattern| {
        if essence.eq_ignore_ascii_case(pattern) || *pattern == "*/*" {
            return true;
        }
        // `type/*suffix`: the type, then any subtype that ends in the suffix and is longer.
        let Some((top, suffix)) = pattern.split_once('*') else { return false };
        essence.len() > top.len() + suffix.len()
            && essence.get(..top.len()).is_some_and(|given| given.eq_ignore_ascii_case(top))
            && essence.get(essence.len() - suffix.len()..).is_some_and(|end| end.eq_ignore_ascii_case(suffix))
    })
}

/// Bodies up to this size are not counted in the budget: they arrive within the connection's own
/// read buffer, whose memory the connection cap already bounds, and counting them would cost
/// more than reading them.
pub const UNCOUNTED: usize = 8 * 1024;

/// The most one frame of a body can hold: what the connection reads at once (its read buffer,
/// `serve`'s `max_buf_size`). A body of unknown length holds room for one more before it reads
/// it, so a frame is never held without room.
pub const FRAME_ROOM: usize = 128 * 1024;

/// Room being waited for in the budget: rare, so it lives on the heap.
type Waiting<'a> = Pin<Box<dyn Future<Output = Option<Reservation>> + Send + 'a>>;

pin_project_lite::pin_project! {
    /// A body read frame by frame into room reserved in the budget: a declared length is
    /// reserved whole before a byte is read, so an admitted body never waits for room halfway;
    /// one of unknown length reserves room for its next frame before reading it, growing by
    /// doubling, so every byte it holds is counted. A body that arrives in one frame, as most
    /// do, is not copied.
    struct Collect<'a> {
        body: Body,
        limit: BodyLimit<'a>,
        // The declared length, when the request gave one.
        declared: Option<usize>,
        first: Option<Bytes>,
        joined: Option<BytesMut>,
        length: usize,
        reservation: Option<Reservation>,
        waiting: Option<Waiting<'a>>,
        // Whether the reader has let the connection hand over what it holds of the body.
        yielded: bool,
        // Set once the body is not all there: a small body, read at once, never touches the
        // timer, whose registration costs more than reading it.
        #[pin]
        deadline: Option<Sleep>,
    }
}

impl<'a> Collect<'a> {
    fn new(body: Body, limit: BodyLimit<'a>, declared: Option<usize>) -> Self {
        // A request with no body says so without a header.
        let declared = declared.or_else(|| body.size_hint().exact().map(|n| n as usize));
        let mut collect = Collect {
            body,
            limit,
            declared,
            first: None,
            joined: None,
            length: 0,
            reservation: None,
            waiting: None,
            yielded: false,
            deadline: None,
        };
        if let Some(declared) = declared.filter(|d| *d > UNCOUNTED) {
            collect.reserve(declared);
        }
        collect
    }

    /// Reserves `bytes` at once if there is room, else starts waiting for it.
    fn reserve(&mut self, bytes: usize) {
        reserve(self.limit.budget, &mut self.reservation, &mut self.waiting, bytes);
    }
}

/// Takes room for `bytes` in all (beyond what `reservation` holds) at once, or starts waiting for
/// it in `waiting`.
fn reserve<'a>(
    budget: &'a BodyBudget,
    reservation: &mut Option<Reservation>,
    waiting: &mut Option<Waiting<'a>>,
    bytes: usize,
) {
    // A body larger than the whole budget gets all of it, and no more.
    let more = bytes.min(budget.total()).saturating_sub(reservation.as_ref().map_or(0, Reservation::bytes));
    if more == 0 {
        return;
    }
    match budget.try_reserve(more) {
        Some(room) => add(reservation, room),
        None => *waiting = Some(Box::pin(budget.reserve(more))),
    }
}

fn add(reservation: &mut Option<Reservation>, room: Reservation) {
    match reservation {
        Some(held) => held.absorb(room),
        None => *reservation = Some(room),
    }
}

/// A time as good as for ever that the clock can always add.
const FOR_EVER: Duration = Duration::from_secs(u32::MAX as u64);

impl Future for Collect<'_> {
    type Output = Result<Bytes, ApiError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        loop {
            // A body of unknown length takes room for the most its next frame can hold before
            // reading it: what it holds is always counted.
            if this.declared.is_none() && this.waiting.is_none() {
                let held = this.reservation.as_ref().map_or(0, Reservation::bytes);
                let next = this.length.saturating_add(FRAME_ROOM).min(this.limit.bytes);
                if next > held {
                    // Never past the body limit, which the length is within.
                    let wanted = next.max(held.saturating_mul(2)).min(this.limit.bytes);
                    reserve(this.limit.budget, this.reservation, this.waiting, wanted);
                }
            }
            if let Some(waiting) = this.waiting.as_mut() {
                match waiting.as_mut().poll(cx) {
                    Poll::Ready(Some(room)) => {
                        add(this.reservation, room);
                        *this.waiting = None;
                    }
                    Poll::Ready(None) => return Poll::Ready(Err(no_room())),
                    Poll::Pending => return wait(this.deadline, this.yielded, this.limit.timeout, cx),
                }
            }
            let frame = match Pin::new(&mut *this.body).poll_frame(cx) {
                Poll::Pending => return wait(this.deadline, this.yielded, this.limit.timeout, cx),
                Poll::Ready(None) => break,
                Poll::Ready(Some(Err(e))) => {
                    return Poll::Ready(Err(ApiError::bad_request(format!("the request body could not be read: {e}"))));
                }
                Poll::Ready(Some(Ok(frame))) => frame,
            };
            // Trailers carry nothing a body reader needs.
            let Ok(data) = frame.into_data() else { continue };
            *this.length = this.length.saturating_add(data.len());
            if *this.length > this.limit.bytes {
                return Poll::Ready(Err(too_large(this.limit.bytes)));
            }
            match (&mut *this.first, &mut *this.joined) {
                (None, _) => *this.first = Some(data),
                (Some(head), None) => {
                    let mut buffer = BytesMut::with_capacity((head.len() + data.len()).max(8 * 1024));
                    buffer.extend_from_slice(head);
                    buffer.extend_from_slice(&data);
                    *this.joined = Some(buffer);
                }
                (Some(_), Some(buffer)) => buffer.extend_from_slice(&data),
            }
        }
        let bytes = match (this.first.take(), this.joined.take()) {
            (_, Some(buffer)) => buffer.freeze(),
            (Some(only), None) => only,
            (None, None) => Bytes::new(),
        };
        // What was taken for frames that never came is given back; a small body, read within the
        // connection's own buffer, holds none.
        Poll::Ready(Ok(match this.reservation.take() {
            Some(held) if bytes.len() > UNCOUNTED => held.shrink_to(bytes.len()).hold(bytes),
            _ => bytes,
        }))
    }
}

/// Waits for more of the body, or ends with 408 once its time is up.
///
/// The handler is first polled before the connection has handed over the body it already
/// holds, so the first wait only yields (the connection delivers the body in the same turn and
/// the reader is polled again); the timer is set only when the body is truly still on its way.
fn wait(
    mut deadline: Pin<&mut Option<Sleep>>,
    yielded: &mut bool,
    timeout: Duration,
    cx: &mut Context<'_>,
) -> Poll<Result<Bytes, ApiError>> {
    if !*yielded {
        *yielded = true;
        cx.waker().wake_by_ref();
        return Poll::Pending;
    }
    if deadline.is_none() {
        deadline.set(Some(tokio::time::sleep(timeout.min(FOR_EVER))));
    }
    match deadline.as_pin_mut() {
        Some(sleep) => sleep.poll(cx).map(|()| Err(timed_out(timeout))),
        None => Poll::Pending,
    }
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(StatusCode::PAYLOAD_TOO_LARGE)
        .with_type(problem_types::BODY_TOO_LARGE)
        .with_detail(format!("the request body is larger than {limit} bytes"))
}

fn timed_out(limit: Duration) -> ApiError {
    ApiError::new(StatusCode::REQUEST_TIMEOUT)
        .with_type(problem_types::BODY_TIMEOUT)
        .with_detail(format!("the request body did not arrive within {limit:?}"))
}

/// 503 for a body the budget has no room for in time.
fn no_room() -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE)
        .with_type(problem_types::OVERLOADED)
        .with_detail("the server holds as many request bodies as it may; retry shortly")
        .with_retry_after(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body of unknown length (chunked) of `frames` frames of `size` bytes, counting in
    /// `taken` the frames the reader took.
    fn chunked(frames: usize, size: usize, taken: std::sync::Arc<std::sync::atomic::AtomicUsize>) -> Body {
        let stream = futures_util::stream::unfold(0, move |sent| {
            let taken = taken.clone();
            async move {
                (sent < frames).then(|| {
                    taken.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    (Ok::<_, std::io::Error>(Bytes::from(vec![b'x'; size])), sent + 1)
                })
            }
        });
        Body::from_stream(stream)
    }

    #[tokio::test]
    async fn a_body_of_unknown_length_takes_no_frame_without_room_for_it() {
        let budget = BodyBudget::new(512 * 1024, Duration::from_millis(50));
        let limit = BodyLimit { bytes: 4 << 20, timeout: Duration::from_secs(5), budget: &budget };
        let read = |body| async move {
            let mut problems = Problems::default();
            read_body(&HeaderMap::new(), body, limit, &["*/*"], true, "a body", &mut problems).await
        };
        // With the budget taken, not a frame is read: the body waits in the connection, and is
        // turned away once the wait is over.
        let holder = budget.try_reserve(512 * 1024).expect("all of it");
        let taken = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let refused = read(chunked(3, 100 * 1024, taken.clone())).await.expect_err("no room");
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(taken.load(std::sync::atomic::Ordering::SeqCst), 0, "a frame was held without room");
        // With room, every byte held is counted, and what its frames did not need is given back.
        drop(holder);
        let bytes = read(chunked(3, 100 * 1024, taken.clone())).await.expect("room").expect("a body");
        assert_eq!(bytes.len(), 300 * 1024);
        assert_eq!(budget.available(), budget.total() - 300 * 1024, "room for the body and no more");
        drop(bytes);
        assert_eq!(budget.available(), budget.total());
        // A small body holds no room once read.
        let small = read(chunked(1, 100, taken)).await.expect("room").expect("a body");
        assert_eq!((small.len(), budget.available()), (100, budget.total()));
    }

    #[test]
    fn content_types_match_with_wildcards_and_parameters() {
        let accepted = ["application/json", "application/json-patch+json", "text/json", "application/*+json"];
        for ok in [
            "application/json",
            "Application/JSON; charset=utf-8",
            "text/json",
            "application/vnd.api+json",
            "application/json-patch+json",
        ] {
            assert!(accepts(&accepted, ok), "{ok}");
        }
        for bad in ["", "text/plain", "application/xml", "application/+json", "text/x+json", "multipart/form-data"] {
            assert!(!accepts(&accepted, bad), "{bad}");
        }
        assert!(accepts(&["*/*"], "application/xml") && accepts(&["*/*"], ""));
        assert!(accepts(&["application/*"], "application/json") && !accepts(&["application/*"], "text/plain"));
    }
}
