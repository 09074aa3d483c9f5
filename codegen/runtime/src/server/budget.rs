//! A budget for the request bodies a router holds in memory at once, so that many connections
//! each sending a large body cannot together exhaust the process's memory.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Room for request bodies, shared by every request a router serves.
///
/// Counted in KiB, so that one reservation of any size a body may have fits the semaphore's
/// `u32` count; a body's reservation is rounded up to whole KiB.
#[derive(Debug, Clone)]
pub struct BodyBudget {
    kib: Arc<Semaphore>,
    total_kib: usize,
    wait: Duration,
}

/// Room held in a [`BodyBudget`], given back when it is dropped.
#[derive(Debug)]
pub struct Reservation {
    permit: OwnedSemaphorePermit,
}

impl Reservation {
    /// Bytes this reservation holds room for.
    pub fn bytes(&self) -> usize {
        self.permit.num_permits().saturating_mul(1024)
    }

    /// Adds `more` to this reservation.
    pub(crate) fn absorb(&mut self, more: Reservation) {
        self.permit.merge(more.permit);
    }

    /// This reservation holding room for `bytes` (whole KiB) and no more: the rest is given back.
    pub(crate) fn shrink_to(mut self, bytes: usize) -> Reservation {
        let keep = kib(bytes);
        let extra = self.permit.num_permits().saturating_sub(keep);
        if extra > 0 {
            drop(self.permit.split(extra));
        }
        self
    }

    /// `bytes`, holding this reservation for as long as they (or any slice of them) live: a body
    /// handed on as a file keeps its room until the file is dropped.
    pub fn hold(self, bytes: Bytes) -> Bytes {
        Bytes::from_owner(Held { bytes, _reservation: self })
    }
}

/// Bytes and the room they were read into.
struct Held {
    bytes: Bytes,
    _reservation: Reservation,
}

impl AsRef<[u8]> for Held {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl BodyBudget {
    /// A budget of `bytes` (at least 1 KiB), for which a request waits at most `wait`.
    pub fn new(bytes: usize, wait: Duration) -> Self {
        let most = Semaphore::MAX_PERMITS.min(u32::MAX as usize);
        let total_kib = kib(bytes).clamp(1, most);
        BodyBudget { kib: Arc::new(Semaphore::new(total_kib)), total_kib, wait }
    }

    /// Room for `bytes` if there is some now. A request for more than the whole budget asks for
    /// all of it.
    pub fn try_reserve(&self, bytes: usize) -> Option<Reservation> {
        let permit = self.kib.clone().try_acquire_many_owned(self.wanted(bytes)).ok()?;
        Some(Reservation { permit })
    }

    /// Room for `bytes`, at once or within the budget's wait, or `None` when none frees up in
    /// time. A request for more than the whole budget waits for all of it.
    pub async fn reserve(&self, bytes: usize) -> Option<Reservation> {
        if let Some(room) = self.try_reserve(bytes) {
            return Some(room);
        }
        let waiting = self.kib.clone().acquire_many_owned(self.wanted(bytes));
        let permit = tokio::time::timeout(self.wait, waiting).await.ok()?.ok()?;
        Some(Reservation { permit })
    }

    /// `bytes` in permits: whole KiB, at most the total (which `new` keeps within `u32`).
    fn wanted(&self, bytes: usize) -> u32 {
        kib(bytes).min(self.total_kib) as u32
    }

    /// Bytes of room in all.
    pub fn total(&self) -> usize {
        self.total_kib.saturating_mul(1024)
    }

    /// Bytes of room free now.
    pub fn available(&self) -> usize {
        self.kib.available_permits().saturating_mul(1024)
    }
}

/// `bytes` in KiB, rounded up; at least 1.
fn kib(bytes: usize) -> usize {
    bytes.div_ceil(1024).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reservations_hold_room_until_their_bytes_are_dropped() {
        let budget = BodyBudget::new(64 * 1024, Duration::from_millis(20));
        let first = budget.reserve(40 * 1024).await.expect("room");
        assert_eq!(budget.available(), 24 * 1024);
        assert!(budget.reserve(30 * 1024).await.is_none(), "no room: refused after the wait");
        let bytes = first.hold(Bytes::from(vec![1u8; 40 * 1024]));
        let slice = bytes.slice(10..20);
        drop(bytes);
        assert_eq!(budget.available(), 24 * 1024, "a slice still holds the room");
        drop(slice);
        assert_eq!(budget.available(), 64 * 1024);
        // More than the whole budget waits for all of it, and then gets it.
        let all = budget.reserve(usize::MAX).await.expect("the whole budget");
        assert_eq!(all.bytes(), 64 * 1024);
    }

    #[tokio::test]
    async fn a_reservation_gives_back_what_it_no_longer_needs() {
        let budget = BodyBudget::new(100 * 1024, Duration::from_millis(20));
        let held = budget.try_reserve(64 * 1024).expect("room").shrink_to(10 * 1024 + 1);
        assert_eq!((held.bytes(), budget.available()), (11 * 1024, 89 * 1024));
    }

    #[tokio::test]
    async fn reservations_add_up() {
        let budget = BodyBudget::new(100 * 1024, Duration::from_millis(20));
        let mut held = budget.try_reserve(10 * 1024).expect("room");
        held.absorb(budget.try_reserve(30 * 1024).expect("room"));
        assert_eq!(held.bytes(), 40 * 1024);
        assert_eq!(budget.available(), 60 * 1024);
        assert!(budget.try_reserve(61 * 1024).is_none());
        drop(held);
        assert_eq!(budget.total(), budget.available());
    }
}
