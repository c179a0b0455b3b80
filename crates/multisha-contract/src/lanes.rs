//! What the batch paths keep per lane besides the kernel's schedule: the lanes' chaining
//! states and their padded tails. Both are message data: [`LaneBuffers::wipe`] (or
//! [`LaneBuffers::wipe_first`], for the slots a batch used) zeroes them once per batch call (and
//! the test-only wipe log sees it).

use crate::{BlockBytes, Compression};
use zeroize::Zeroize;

/// The most lanes a multi-lane kernel may have (each compression function declares its own
/// widest, [`Compression::WIDEST_LANES`]).
pub const MAX_LANES: usize = 32;

/// The slots of a batch whose lane kernels are at most this wide: their [`LaneBuffers`] and
/// the executor's per-slot arrays have this many, not [`MAX_LANES`] (set up for every batch,
/// thirty-two slots cost every lane kernel's batches 45-55 ns more on a Zen 4).
pub const NARROW_SLOTS: usize = 16;

/// A lane kernel's `blocks` as its `N` lanes, and the blocks each lane has (the same for all).
///
/// # Panics
/// If there are not `N` lanes or their lengths differ: the lane scheduler never calls a
/// kernel so.
#[track_caller]
pub fn equal_lanes<'a, B, const N: usize>(blocks: &'a [&'a [B]]) -> (&'a [&'a [B]; N], usize) {
    let lanes: &[&[B]; N] = blocks
        .try_into()
        .unwrap_or_else(|_| panic!("a kernel of {N} lanes called with {}", blocks.len()));
    let n = lanes.first().map_or(0, |lane| lane.len());
    assert!(
        lanes.iter().all(|lane| lane.len() == n),
        "lanes of unequal length"
    );
    (lanes, n)
}

/// `len` words of a lane workspace from its first `align`-byte boundary (`align` a multiple of
/// the word size), for kernels that keep aligned vectors there.
///
/// # Panics
/// If `words` is too short for that.
#[track_caller]
pub fn aligned_words<W>(words: &mut [W], align: usize, len: usize) -> &mut [W] {
    let skip = (align - words.as_ptr().addr() % align) % align / size_of::<W>();
    &mut words[skip..][..len]
}

/// Per-lane chaining states and padded tails (one or two blocks each) of a batch, `SLOTS` of
/// each ([`NARROW_SLOTS`] or [`MAX_LANES`]).
pub struct LaneBuffers<A: Compression, const SLOTS: usize> {
    /// The lanes' chaining states, contiguous as the lane kernels take them.
    pub states: [A::State; SLOTS],
    /// Each lane's padded tail.
    pub tails: [[A::Block; 2]; SLOTS],
}

impl<A: Compression, const SLOTS: usize> LaneBuffers<A, SLOTS> {
    /// Zeroed buffers.
    pub fn new() -> Self {
        const { assert!(SLOTS <= MAX_LANES, "no kernel has more lanes") };
        Self {
            states: [A::State::default(); SLOTS],
            tails: [[A::Block::ZERO; 2]; SLOTS],
        }
    }

    /// Zeroes the states and tails of the first `lanes` slots in a way the optimiser cannot
    /// drop: a batch that wrote no others (the buffers start zeroed) leaves nothing behind,
    /// and a 4-lane kernel's batch does not pay for wiping sixteen.
    ///
    /// # Panics
    /// If `lanes` is more than `SLOTS`.
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

/// Zeroes lane states in a way the optimiser cannot drop (a batch whose lanes kept no tails:
/// messages of one block, whose padding block runs through the constant entry), recorded as
/// one wipe with the `wipe-observer` feature.
pub fn wipe_lane_states<A: Compression>(states: &mut [A::State]) {
    #[cfg(feature = "wipe-observer")]
    let had_data = states.iter().any(|s| *s != A::State::default());
    for state in states.iter_mut() {
        state.as_mut().zeroize();
    }
    #[cfg(feature = "wipe-observer")]
    crate::wipe_observer::record(
        size_of_val(states),
        true,
        had_data,
        states.iter().all(|s| *s == A::State::default()),
    );
}

impl<A: Compression, const SLOTS: usize> Default for LaneBuffers<A, SLOTS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: Compression, const SLOTS: usize> core::fmt::Debug for LaneBuffers<A, SLOTS> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print message-derived data.
        f.write_str("LaneBuffers { .. }")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_lanes_gives_the_lanes_and_their_length() {
        let blocks = [[0u8; 64]; 6];
        let lanes: [&[[u8; 64]]; 2] = [&blocks[..3], &blocks[3..]];
        let (got, n) = equal_lanes::<_, 2>(&lanes);
        assert_eq!((got.len(), n), (2, 3));
    }

    #[test]
    #[should_panic(expected = "a kernel of 4 lanes called with 2")]
    fn equal_lanes_refuses_another_lane_count() {
        let blocks = [[0u8; 64]; 2];
        let lanes: [&[[u8; 64]]; 2] = [&blocks[..1], &blocks[1..]];
        equal_lanes::<_, 4>(&lanes);
    }

    #[test]
    #[should_panic(expected = "lanes of unequal length")]
    fn equal_lanes_refuses_ragged_lanes() {
        let blocks = [[0u8; 64]; 3];
        let lanes: [&[[u8; 64]]; 2] = [&blocks[..1], &blocks[1..]];
        equal_lanes::<_, 2>(&lanes);
    }

    #[test]
    fn aligned_words_start_on_the_boundary() {
        let mut words = [0u32; 40];
        for start in 0..4 {
            let got = aligned_words(&mut words[start..], 16, 8);
            assert_eq!(got.len(), 8);
            assert!(got.as_ptr().addr().is_multiple_of(16));
        }
    }
}
