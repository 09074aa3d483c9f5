//! Walking a paged operation: one request per page, made only as the stream is read.

use std::collections::VecDeque;
use std::future::Future;

use futures_core::Stream;

use crate::Error;

/// One page of items and, when the reply says, how many pages there are.
pub(crate) struct Page<T> {
    pub(crate) items: Vec<T>,
    pub(crate) total_pages: Option<i64>,
}

/// The items of every page from `first` on. The walk stops after the last page (by the total the
/// reply gives), at an empty page, or at a page shorter than `size` when no total is given.
pub(crate) fn items<T, F, Fut>(first: i32, size: Option<i64>, fetch: F) -> impl Stream<Item = Result<T, Error>>
where
    F: FnMut(i32) -> Fut,
    Fut: Future<Output = Result<Page<T>, Error>>,
{
    struct Walk<T, F> {
        fetch: F,
        next: Option<i32>,
        buffer: VecDeque<T>,
    }
    let walk = Walk { fetch, next: Some(first), buffer: VecDeque::new() };
    futures_util::stream::unfold(walk, move |mut walk| async move {
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
                            Some(total) => i64::from(page) >= total,
                            None => size.is_some_and(|size| count < size),
                        };
                    walk.next = if last { None } else { page.checked_add(1) };
                    walk.buffer.extend(reply.items);
                }
            }
        }
    })
}
