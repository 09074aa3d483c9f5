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
    fn absorb(&mut self, more: Reservation) {
        self.permit.merge(more.permit);
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

    /// Room for `bytes`, at once or within the budget's wait, or `None` when none frees up in
    /// time. A request for more than the whole budget waits for all of it.
    pub async fn reserve(&self, bytes: usize) -> Option<Reservation> {
        // At most `u32::MAX`, as `new` bounds the total.
        let wanted = kib(bytes).min(self.total_kib) as u32;
        let permit = match self.kib.clone().try_acquire_many_owned(wanted) {
            Ok(permit) => permit,
            Err(_) => tokio::time::timeout(self.wait, self.kib.clone().acquire_many_owned(wanted)).await.ok()?.ok()?,
        };
        Some(Reservation { permit })
    }

    /// Grows `reservation` to hold at least `bytes`, by doubling, up to `most`; `false` when the
    /// budget has no room for it in time.
    pub async fn grow(&self, reservation: &mut Reservation, bytes: usize, most: usize) -> bool {
        let have = reservation.bytes();
        if have >= bytes || have >= self.total_kib.saturating_mul(1024) {
            return true;
        }
        let target = bytes.max(have.saturating_mul(2)).min(most.max(bytes));
        match self.reserve(target - have).await {
            Some(more) => {
                reservation.absorb(more);
                true
            }
            None => false,
        }
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
    async fn a_reservation_grows_by_doubling_within_its_limit() {
        let budget = BodyBudget::new(1024 * 1024, Duration::from_millis(20));
        let mut held = budget.reserve(10 * 1024).await.expect("room");
        assert!(budget.grow(&mut held, 11 * 1024, 100 * 1024).await);
        assert_eq!(held.bytes(), 20 * 1024);
        assert!(budget.grow(&mut held, 90 * 1024, 100 * 1024).await);
        assert_eq!(held.bytes(), 90 * 1024);
        assert!(budget.grow(&mut held, 95 * 1024, 100 * 1024).await);
        assert_eq!(held.bytes(), 100 * 1024, "never past the limit it is given");
        let _rest = budget.reserve(budget.available()).await.expect("the rest");
        assert!(!budget.grow(&mut held, 101 * 1024, 200 * 1024).await, "no room left");
    }
}
