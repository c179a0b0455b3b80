//! A value published once and then read without waiting: the slot's caches.

use core::cell::UnsafeCell;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicU8, Ordering};

/// A value published once and then copied out. Readers never wait: until it is published
/// (while the one thread that claimed it computes it, perhaps for a while) they get `None`,
/// and never a half-written value.
pub(crate) struct Published<T> {
    state: AtomicU8,
    value: UnsafeCell<MaybeUninit<T>>,
}

// SAFETY: the value is written once, by the one thread holding the claim, before the Release
// store that makes `get` read it; after that it is only read (copied).
unsafe impl<T: Copy + Send + Sync> Sync for Published<T> {}

/// The right to publish a [`Published`] value: one caller ever gets it.
pub(crate) struct Claim<'a, T>(&'a Published<T>);

impl<T: Copy> Published<T> {
    const EMPTY: u8 = 0;
    const CLAIMED: u8 = 1;
    const READY: u8 = 2;

    pub(crate) const fn new() -> Self {
        Self {
            state: AtomicU8::new(Self::EMPTY),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    /// The value, once published.
    #[inline]
    pub(crate) fn get_ref(&self) -> Option<&T> {
        if self.state.load(Ordering::Acquire) == Self::READY {
            // SAFETY: READY is stored (Release) only after the value was written, and the value
            // is never written again.
            Some(unsafe { (*self.value.get()).assume_init_ref() })
        } else {
            None
        }
    }

    /// The right to publish, for the first caller only.
    pub(crate) fn claim(&self) -> Option<Claim<'_, T>> {
        self.state
            .compare_exchange(
                Self::EMPTY,
                Self::CLAIMED,
                Ordering::Acquire,
                Ordering::Relaxed,
            )
            .is_ok()
            .then_some(Claim(self))
    }
}

impl<T: Copy> Claim<'_, T> {
    /// Publishes `value` for every later `get`.
    pub(crate) fn publish(self, value: T) {
        // SAFETY: only the one claim writes, and no reader reads before READY.
        unsafe { (*self.0.value.get()).write(value) };
        self.0.state.store(Published::<T>::READY, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::AtomicUsize;
    use std::time::Duration;

    /// Sixteen threads racing for one `Published` value: exactly one claims it; readers see
    /// nothing until it is published, then the whole value.
    #[test]
    fn a_published_value_is_claimed_once_and_read_whole() {
        let cell: Published<[u64; 8]> = Published::new();
        let barrier = std::sync::Barrier::new(16);
        let claims = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for t in 0..16u64 {
                let (cell, barrier, claims) = (&cell, &barrier, &claims);
                scope.spawn(move || {
                    barrier.wait();
                    if let Some(claim) = cell.claim() {
                        claims.fetch_add(1, Ordering::Relaxed);
                        std::thread::sleep(Duration::from_millis(20));
                        claim.publish([t; 8]);
                    }
                    for _ in 0..1000 {
                        if let Some(value) = cell.get_ref() {
                            assert!(value.iter().all(|&v| v == value[0]), "{value:?}");
                        }
                    }
                });
            }
        });
        assert_eq!(claims.load(Ordering::Relaxed), 1);
        assert!(cell.get_ref().is_some());
        assert!(cell.claim().is_none(), "claimed once, ever");
    }
}
