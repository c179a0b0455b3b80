//! What the batch paths keep per lane besides the kernel's schedule: the lanes' chaining
//! states and their padded tails. Both are message data: [`LaneBuffers::wipe`] (or
//! [`LaneBuffers::wipe_first`], for the slots a batch used) zeroes them once per batch call (and
//! the test-only wipe log sees it).

use crate::{BlockBytes, Compression};
use zeroize::Zeroize;

/// The most lanes a multi-lane kernel may have.
pub const MAX_LANES: usize = 16;

/// Per-lane chaining states and padded tails (one or two blocks each) of a batch.
pub struct LaneBuffers<A: Compression> {
    /// The lanes' chaining states, contiguous as the lane kernels take them.
    pub states: [A::State; MAX_LANES],
    /// Each lane's padded tail.
    pub tails: [[A::Block; 2]; MAX_LANES],
}

impl<A: Compression> LaneBuffers<A> {
    /// Zeroed buffers.
    pub fn new() -> Self {
        Self {
            states: [A::State::default(); MAX_LANES],
            tails: [[A::Block::ZERO; 2]; MAX_LANES],
        }
    }

    /// Zeroes every state and tail in a way the optimiser cannot drop.
    pub fn wipe(&mut self) {
        self.wipe_first(MAX_LANES);
    }

    /// Zeroes the states and tails of the first `lanes` slots in a way the optimiser cannot
    /// drop: a batch that wrote no others (the buffers start zeroed) leaves nothing behind,
    /// and a 4-lane kernel's batch does not pay for wiping sixteen.
    ///
    /// # Panics
    /// If `lanes` is more than [`MAX_LANES`].
    pub fn wipe_first(&mut self, lanes: usize) {
        #[cfg(feature = "wipe-observer")]
        let had_data = self.states.iter().any(|s| *s != A::State::default())
            || self
                .tails
                .iter()
                .flatten()
                .any(|b| b.as_ref().iter().any(|&x| x != 0));
        for state in &mut self.states[..lanes] {
            state.as_mut().zeroize();
        }
        for tail in &mut self.tails[..lanes] {
            crate::wipe_blocks(tail);
        }
        #[cfg(feature = "wipe-observer")]
        crate::wipe_observer::record(
            size_of::<Self>(),
            true,
            had_data,
            self.states.iter().all(|s| *s == A::State::default())
                && self
                    .tails
                    .iter()
                    .flatten()
                    .all(|b| b.as_ref().iter().all(|&x| x == 0)),
        );
    }
}

impl<A: Compression> Default for LaneBuffers<A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: Compression> core::fmt::Debug for LaneBuffers<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print message-derived data.
        f.write_str("LaneBuffers { .. }")
    }
}
