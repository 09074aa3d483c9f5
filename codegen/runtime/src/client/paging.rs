//! Walking a paged operation: one request per page, made only as the stream is read.

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use crate::client::Error;

/// One page of items and, when the reply says, how many pages there are.
pub struct Page<T> {
    /// The items of the page.
    pub items: Vec<T>,
    /// How many pages there are, when the reply says.
    pub total_pages: Option<i64>,
}

/// The items of every page from `first` on, in an API whose pages are numbered from `base` (0 or
/// 1). The walk stops after the last page (by the total the reply gives), at an empty page, or at a
/// page shorter than `size` when no total is given.
pub fn items<'a, T, F, Fut>(first: i32, base: i32, size: Option<i64>, fetch: F) -> Items<'a, T>
where
    T: Send + 'a,
    F: FnMut(i32) -> Fut + Send + 'a,
    Fut: Future<Output = Result<Page<T>, Error>> + Send + 'a,
{
    struct Walk<T, F> {
        fetch: F,
        next: Option<i32>,
        buffer: VecDeque<T>,
    }
    let walk = Walk { fetch, next: Some(first), buffer: VecDeque::new() };
    let stream = futures_util::stream::unfold(walk, move |mut walk| async move {
        loop {
            if let Some(item) = walk.buffer.pop_front() {
                return Some((Ok(item), walk));
            }
            let page = walk.next?;
            match (walk.fetch)(page).await {
                Err(e) => {
                    walk.next = None;
                    return Some((Err(e), walk));
                }
                Ok(reply) => {
                    let count = reply.items.len() as i64;
                    let last = count == 0
                        || match reply.total_pages {
                            // Pages are numbered from `base`: the last is `base + total - 1`.
                            Some(total) => i64::from(page) - i64::from(base) + 1 >= total,
                            None => size.is_some_and(|size| count < size),
                        };
                    walk.next = if last { None } else { page.checked_add(1) };
                    walk.buffer.extend(reply.items);
                }
            }
        }
    });
    Items { inner: Box::pin(stream) }
}

/// Every item of a paged operation, page after page, fetched as it is read. Read it with
/// [`Items::next`] (`while let Some(item) = items.next().await`) or as a
/// [`futures_core::Stream`]; after an error it ends.
pub struct Items<'a, T> {
    inner: Pin<Box<dyn Stream<Item = Result<T, Error>> + Send + 'a>>,
}

impl<T> Items<'_, T> {
    /// The next item, or `None` after the last page.
    pub async fn next(&mut self) -> Option<Result<T, Error>> {
        std::future::poll_fn(|cx| self.inner.as_mut().poll_next(cx)).await
    }
}

impl<T> Stream for Items<'_, T> {
    type Item = Result<T, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.as_mut().poll_next(cx)
    }
}

impl<T> fmt::Debug for Items<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Items").finish_non_exhaustive()
    }
}
