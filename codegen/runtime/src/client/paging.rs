//! Walking a paged operation: one request per page, made only as the stream is read.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::future::Future;
use std::hash::Hash;
use std::pin::Pin;
use std::str::FromStr;
use std::task::{Context, Poll};

use futures_core::Stream;

use crate::client::Error;

/// One page of items and the key of the page after it, `None` after the last.
pub struct Page<T, K> {
    /// The items of the page.
    pub items: Vec<T>,
    /// What selects the next page: a page number, an offset or a cursor.
    pub next: Option<K>,
}

/// The items of every page from the one `first` selects on, for at most `max_pages` pages.
/// `fetch` asks for the page a key selects and says which key selects the next. A page whose
/// next key was requested already (`A → B → A`, or a page naming itself) ends the walk with an
/// [`Error::Paging`] rather than loop for ever, and so does a next page past `max_pages`.
pub fn items<'a, T, K, F, Fut>(operation: &'static str, max_pages: Option<u64>, first: K, fetch: F) -> Items<'a, T>
where
    T: Send + 'a,
    K: Hash + Eq + Clone + Send + 'a,
    F: FnMut(K) -> Fut + Send + 'a,
    Fut: Future<Output = Result<Page<T, K>, Error>> + Send + 'a,
{
    struct Walk<T, K, F> {
        fetch: F,
        next: Option<K>,
        // The keys requested so far: a next key among them would repeat the walk.
        requested: HashSet<K>,
        buffer: VecDeque<T>,
        // Reported once the items before it are read.
        failed: Option<Error>,
    }
    let walk = Walk { fetch, next: Some(first), requested: HashSet::new(), buffer: VecDeque::new(), failed: None };
    let stream = futures_util::stream::unfold(walk, move |mut walk| async move {
        loop {
            if let Some(item) = walk.buffer.pop_front() {
                return Some((Ok(item), walk));
            }
            if let Some(e) = walk.failed.take() {
                return Some((Err(e), walk));
            }
            let key = walk.next.take()?;
            walk.requested.insert(key.clone());
            match (walk.fetch)(key).await {
                Err(e) => walk.failed = Some(e),
                Ok(page) => {
                    match page.next {
                        Some(next) if walk.requested.contains(&next) => {
                            let reason =
                                "a reply names a page already read as the next one; following it would never end";
                            walk.failed = Some(Error::Paging { operation, reason: reason.to_string() });
                        }
                        Some(_) if max_pages.is_some_and(|most| walk.requested.len() as u64 >= most) => {
                            let most = max_pages.unwrap_or_default();
                            let reason = format!(
                                "{most} pages were read and the reply names another; the client builder's `max_pages` sets how many a walk may read"
                            );
                            walk.failed = Some(Error::Paging { operation, reason });
                        }
                        next => walk.next = next,
                    }
                    walk.buffer.extend(page.items);
                }
            }
        }
    });
    Items { inner: Box::pin(stream) }
}

/// The number of the page after `page` (pages counted from `first`), unless `count` items show
/// that `page` was the last: none at all, the reply's `total_pages` reached, or, when the reply
/// gives no total, fewer than the page `size`.
pub fn next_number(page: i64, first: i64, count: usize, total_pages: Option<i64>, size: Option<i64>) -> Option<i64> {
    let last = count == 0
        || match total_pages {
            Some(total) => page.saturating_sub(first).saturating_add(1) >= total,
            None => size.is_some_and(|size| (count as i64) < size),
        };
    if last { None } else { page.checked_add(1) }
}

/// The offset after a page of `count` items read at `offset`, unless that page was the last:
/// empty, reaching the reply's `total` of items, or, when the reply gives no total, shorter than
/// the `limit`.
pub fn next_offset(offset: i64, count: usize, total: Option<i64>, limit: Option<i64>) -> Option<i64> {
    let next = offset.checked_add(i64::try_from(count).ok()?)?;
    let last = count == 0
        || match total {
            Some(total) => next >= total,
            None => limit.is_some_and(|limit| (count as i64) < limit),
        };
    if last { None } else { Some(next) }
}

/// A page number or offset as the paging parameter's type; one it cannot hold is an
/// [`Error::InvalidArgument`] naming the parameter.
pub fn narrow<P: TryFrom<i64>>(name: &'static str, key: i64) -> Result<P, Error> {
    P::try_from(key).map_err(|_| Error::InvalidArgument { name, reason: format!("page key {key} is out of range") })
}

/// The value of the query parameter `param` in the `rel="next"` target of a `Link` header
/// (RFC 8288), or `None` when there is no next link. Only the value is taken: the walk sends it
/// to the client's own base URL, never to a host the header names. A value that does not parse
/// as the parameter's type is an [`Error::Decode`].
pub fn next_in_link<K>(operation: &'static str, link: Option<&str>, param: &str) -> Result<Option<K>, Error>
where
    K: FromStr,
    K::Err: fmt::Display,
{
    let Some(target) = link.and_then(next_target) else { return Ok(None) };
    let query = target.split_once('?').map_or("", |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    let Some(value) = query.split('&').find_map(|pair| {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        (form_decoded(name) == param).then(|| form_decoded(value))
    }) else {
        return Ok(None);
    };
    value.parse().map(Some).map_err(|e: K::Err| Error::Decode {
        operation,
        path: "header Link".to_string(),
        body: bytes::Bytes::new(),
        source: serde::de::Error::custom(format!("`{param}={value}` in the next link: {e}")),
    })
}

/// The target of the first link whose `rel` holds `next`, in a header of comma-separated
/// `<target>; name=value` links.
fn next_target(header: &str) -> Option<&str> {
    let mut rest = header;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let close = after.find('>')?;
        let target = &after[..close];
        // The parameters run to the next link, which starts with `<` after a comma.
        let tail = &after[close + 1..];
        let end = tail.find('<').unwrap_or(tail.len());
        let params = tail[..end].trim_end().trim_end_matches(',');
        let is_next = params.split(';').any(|param| {
            let Some((name, value)) = param.split_once('=') else { return false };
            name.trim().eq_ignore_ascii_case("rel")
                && value.trim().trim_matches('"').split_ascii_whitespace().any(|rel| rel.eq_ignore_ascii_case("next"))
        });
        if is_next {
            return Some(target);
        }
        rest = &tail[end..];
    }
    None
}

/// A query-string component decoded: `+` is a space, percent escapes are bytes.
fn form_decoded(text: &str) -> String {
    let spaced = text.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced).decode_utf8_lossy().into_owned()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_pages_end_at_the_total_an_empty_page_or_a_short_one() {
        // Pages from 1, three in all.
        assert_eq!(next_number(1, 1, 10, Some(3), Some(10)), Some(2));
        assert_eq!(next_number(3, 1, 10, Some(3), Some(10)), None);
        // Pages from 0: the third is page 2.
        assert_eq!(next_number(1, 0, 10, Some(3), None), Some(2));
        assert_eq!(next_number(2, 0, 10, Some(3), None), None);
        // No total: a short page is the last; without a size only an empty one is.
        assert_eq!(next_number(4, 1, 9, None, Some(10)), None);
        assert_eq!(next_number(4, 1, 9, None, None), Some(5));
        assert_eq!(next_number(4, 1, 0, None, None), None);
        assert_eq!(next_number(i64::MAX, 1, 5, None, None), None);
    }

    #[test]
    fn offsets_advance_by_the_items_read() {
        assert_eq!(next_offset(0, 20, Some(45), Some(20)), Some(20));
        assert_eq!(next_offset(40, 5, Some(45), Some(20)), None);
        assert_eq!(next_offset(40, 20, None, Some(20)), Some(60));
        assert_eq!(next_offset(40, 19, None, Some(20)), None);
        assert_eq!(next_offset(40, 0, None, None), None);
        assert_eq!(next_offset(i64::MAX, 1, None, None), None);
    }

    #[test]
    fn a_link_header_gives_the_parameter_of_its_next_target() {
        let header = r#"<https://api.example/items?page=1&per_page=2>; rel="prev first", <https://other.example/items?per_page=2&page=3>; rel="next", <https://api.example/items?page=9>; rel=last"#;
        assert_eq!(next_in_link::<i64>("op", Some(header), "page").unwrap(), Some(3));
        assert_eq!(next_in_link::<String>("op", Some(header), "per_page").unwrap().as_deref(), Some("2"));
        // Decoded as a query string is; a missing parameter or next link is the end.
        let encoded = "<https://a.example/x?after=a%2Fb+c#frag>; rel=next";
        assert_eq!(next_in_link::<String>("op", Some(encoded), "after").unwrap().as_deref(), Some("a/b c"));
        assert_eq!(next_in_link::<String>("op", Some(encoded), "before").unwrap(), None);
        assert_eq!(
            next_in_link::<String>("op", Some("<https://a.example/x?after=1>; rel=prev"), "after").unwrap(),
            None
        );
        assert_eq!(next_in_link::<String>("op", None, "after").unwrap(), None);
        assert_eq!(next_in_link::<String>("op", Some("garbage <unclosed; rel=next"), "after").unwrap(), None);
        let bad = next_in_link::<i64>("op", Some("<?page=two>; rel=next"), "page").unwrap_err();
        assert!(bad.to_string().contains("page=two"), "{bad}");
    }

    #[tokio::test]
    async fn a_repeated_cursor_ends_the_walk_with_an_error_after_its_items() {
        let mut items = items("op", None, None::<String>, |cursor| async move {
            let next = Some("again".to_string());
            Ok(Page { items: vec![cursor.unwrap_or_default()], next: Some(next) })
        });
        assert_eq!(items.next().await.unwrap().unwrap(), "");
        assert_eq!(items.next().await.unwrap().unwrap(), "again");
        let error = items.next().await.unwrap().unwrap_err();
        assert!(error.to_string().contains("never end"), "{error}");
        assert!(items.next().await.is_none());
    }

    #[tokio::test]
    async fn cursors_that_come_round_again_end_the_walk() {
        // A → B → A: each page names the other, never itself.
        let mut items = items("op", None, "A".to_string(), |cursor| async move {
            let next = if cursor == "A" { "B" } else { "A" };
            Ok(Page { items: Vec::<u8>::new(), next: Some(next.to_string()) })
        });
        let error = items.next().await.unwrap().unwrap_err();
        assert!(matches!(error, Error::Paging { .. }) && error.to_string().contains("never end"), "{error}");
        assert!(items.next().await.is_none());
    }

    #[tokio::test]
    async fn a_walk_stops_at_its_most_pages() {
        let mut items =
            items("op", Some(5), 1i64, |page| async move { Ok(Page { items: vec![page], next: Some(page + 1) }) });
        for page in 1..=5 {
            assert_eq!(items.next().await.unwrap().unwrap(), page);
        }
        let error = items.next().await.unwrap().unwrap_err();
        assert!(error.to_string().contains("`max_pages`"), "{error}");
        assert!(items.next().await.is_none());
    }
}
