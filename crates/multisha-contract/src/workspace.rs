//! The caller-owned schedule workspace and the once-per-call wipe.

use crate::{Compression, KernelFn, State};
use zeroize::Zeroize;

/// Scratch space for a kernel's message schedule.
///
/// It holds message-derived data, so it is wiped with `zeroize` once per update call, after
/// the last block ([`compress_and_wipe`]): wiping once per block costs 2-20% for nothing.
///
/// The words come into being (zeroed) on a kernel's first [`Workspace::words`] call: a kernel
/// that keeps its schedule in registers or on its own stack never asks, so the caller's
/// workspace costs it nothing, neither the zeroing nor the wipe. The words are 64-byte
/// aligned (the `Option` tag sits in front of them) so vector kernels can use aligned loads
/// and stores.
#[derive(Clone)]
pub struct Workspace<W: crate::Word, const N: usize> {
    words: Option<Aligned<[W; N]>>,
}

/// Cache-line alignment for the schedule words.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Aligned<T>(T);

/// SHA-1 workspace: 16 words, the circular schedule window every SHA-1 kernel uses (a bigger
/// one would only add stores to the zeroing and the wipe of every call).
pub type Sha1Workspace = Workspace<u32, 16>;

/// SHA-256 workspace: the 64-word schedule of one block. A kernel that expands two blocks at
/// once keeps that pair in its own stack buffer and wipes it before returning: a workspace
/// sized for it would double the zeroing and wiping of every call of every other kernel.
pub type Sha256Workspace = Workspace<u32, 64>;

/// What the engine needs of a workspace type: a zeroed one, its words, and the wipe.
pub trait WorkspaceBuffer<W>: Default {
    /// The schedule words.
    fn words_mut(&mut self) -> &mut [W];
    /// Overwrites every word with zero in a way the optimiser cannot drop.
    fn wipe(&mut self);
}

impl<W: crate::Word, const N: usize> Workspace<W, N> {
    /// A workspace whose words do not exist yet (nothing to zero, nothing to wipe).
    #[inline(always)]
    pub const fn new() -> Self {
        Self { words: None }
    }

    /// The schedule words, all zero on the first call. Kernels use a prefix of their choosing.
    #[inline(always)]
    pub fn words(&mut self) -> &mut [W; N] {
        &mut self.words.get_or_insert(Aligned([W::default(); N])).0
    }

    /// Whether a kernel asked for the words (and so the wipe has work to do).
    pub fn is_touched(&self) -> bool {
        self.words.is_some()
    }
}

impl<W: crate::Word, const N: usize> WorkspaceBuffer<W> for Workspace<W, N> {
    #[inline(always)]
    fn words_mut(&mut self) -> &mut [W] {
        self.words()
    }

    /// Zeroes the words if a kernel used them; an untouched workspace holds no data.
    #[inline(always)]
    fn wipe(&mut self) {
        wipe_observed(
            self.words.as_mut().map(|w| w.0.as_mut_slice()),
            N * W::BYTES,
        );
    }
}

/// Zeroes `words`, if a kernel asked for any, in a way the optimiser cannot drop; with the
/// `wipe-observer` feature, records what the wipe saw (`bytes`: the workspace's size).
#[inline(always)]
fn wipe_observed<W: crate::Word>(words: Option<&mut [W]>, bytes: usize) {
    let Some(words) = words else {
        #[cfg(feature = "wipe-observer")]
        crate::wipe_observer::record(bytes, false, false, true);
        return;
    };
    #[cfg(feature = "wipe-observer")]
    let had_data = words.iter().any(|&x| x != W::default());
    words.zeroize();
    #[cfg(feature = "wipe-observer")]
    crate::wipe_observer::record(
        bytes,
        true,
        had_data,
        words.iter().all(|&x| x == W::default()),
    );
    #[cfg(not(feature = "wipe-observer"))]
    let _ = bytes;
}

impl<W: crate::Word, const N: usize> Default for Workspace<W, N> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl<W: crate::Word, const N: usize> core::fmt::Debug for Workspace<W, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print message-derived data.
        write!(f, "Workspace<{N} words> {{ .. }}")
    }
}

/// The lane kernels' workspace: the transposed schedules of a batch's messages, wiped once per
/// batch call.
///
/// Like [`Workspace`], its words come into being (zeroed) when a kernel first asks, but in
/// three sizes: a kernel that sets aside a few vectors asks for
/// [`LaneWorkspace::TINY_LEN`] words ([`LaneWorkspace::tiny_words`]), the kernels that need
/// at most `SMALL` words ask for those ([`LaneWorkspace::small_words`]), and then only they
/// are zeroed and wiped; the largest kernel asks for all `FULL` ([`LaneWorkspace::words`]).
/// Each part is a prefix of the larger ones. Zeroing and wiping all of SHA-256's words (576
/// then) for `shani-x4`, which uses 288, cost small batches 5-9% on Zen 4 (8 messages of 128
/// bytes: 1.26 times a loop of one-shot calls, 1.37 with half the words).
pub struct LaneWorkspace<W: crate::Word, const SMALL: usize, const FULL: usize> {
    words: LaneWords<W, SMALL, FULL>,
}

/// The words of a lane workspace's tiny part: four 16-byte vectors of 32-bit words.
const TINY: usize = 16;

/// The words of a [`LaneWorkspace`], if a kernel asked for them, 64-byte aligned.
enum LaneWords<W, const SMALL: usize, const FULL: usize> {
    Untouched,
    Tiny(Aligned<[W; TINY]>),
    Small(Aligned<[W; SMALL]>),
    Full(Aligned<[W; FULL]>),
}

impl<W: crate::Word, const SMALL: usize, const FULL: usize> LaneWorkspace<W, SMALL, FULL> {
    /// How many words the largest kernel may use (from word 0, cache-line aligned).
    pub const LEN: usize = FULL;
    /// How many words a kernel that asks for the small part may use.
    pub const SMALL_LEN: usize = SMALL;
    /// How many words a kernel that asks for the tiny part may use.
    pub const TINY_LEN: usize = TINY;
    const SMALL_FITS: () = assert!(SMALL <= FULL, "the small part is a prefix of the words");

    /// A workspace whose words do not exist yet (nothing to zero, nothing to wipe).
    #[inline(always)]
    pub const fn new() -> Self {
        let () = Self::SMALL_FITS;
        Self {
            words: LaneWords::Untouched,
        }
    }

    /// The first [`Self::TINY_LEN`] words, all zero on the first call for any words. For
    /// SHA-1's `shani-x2`, zeroing and wiping the small part instead made a call on one block
    /// per lane with a new workspace 1.3-1.5 times as slow.
    #[inline(always)]
    pub fn tiny_words(&mut self) -> &mut [W; TINY] {
        const { assert!(TINY <= SMALL, "the tiny part is a prefix of the small part") };
        if matches!(self.words, LaneWords::Untouched) {
            self.words = LaneWords::Tiny(Aligned([W::default(); TINY]));
        }
        match &mut self.words {
            LaneWords::Tiny(words) => &mut words.0,
            LaneWords::Small(words) => (&mut words.0[..TINY])
                .try_into()
                .expect("the tiny part is a prefix of the words"),
            LaneWords::Full(words) => (&mut words.0[..TINY])
                .try_into()
                .expect("the tiny part is a prefix of the words"),
            LaneWords::Untouched => unreachable!("the tiny part was made above"),
        }
    }

    /// The first `SMALL` words, all zero on the first call for them (a tiny part asked for
    /// before is wiped and replaced).
    #[inline(always)]
    pub fn small_words(&mut self) -> &mut [W; SMALL] {
        if matches!(self.words, LaneWords::Untouched | LaneWords::Tiny(_)) {
            if let Some(tiny) = self.in_use() {
                tiny.zeroize();
            }
            self.words = LaneWords::Small(Aligned([W::default(); SMALL]));
        }
        match &mut self.words {
            LaneWords::Small(words) => &mut words.0,
            LaneWords::Full(words) => (&mut words.0[..SMALL])
                .try_into()
                .expect("the small part is a prefix of the words"),
            LaneWords::Untouched | LaneWords::Tiny(_) => {
                unreachable!("the small part was made above")
            }
        }
    }

    /// All `FULL` words, all zero on the first call for them (a smaller part asked for before
    /// is wiped and replaced).
    #[inline(always)]
    pub fn words(&mut self) -> &mut [W; FULL] {
        if !matches!(self.words, LaneWords::Full(_)) {
            self.make_full();
        }
        match &mut self.words {
            LaneWords::Full(words) => &mut words.0,
            _ => unreachable!("the full words were made above"),
        }
    }

    /// Wipes the smaller part, if any, and replaces it by `FULL` zeroed words. Out of line: LLVM
    /// builds the new words in a stack temporary and copies them in, and inlined into a
    /// kernel that temporary made the kernel's frame `FULL` words deep (once per batch, so
    /// the call costs nothing measurable).
    #[inline(never)]
    #[cold]
    fn make_full(&mut self) {
        if let Some(small) = self.in_use() {
            small.zeroize();
        }
        self.words = LaneWords::Full(Aligned([W::default(); FULL]));
    }

    /// The words in use, if a kernel asked for any.
    #[inline(always)]
    fn in_use(&mut self) -> Option<&mut [W]> {
        match &mut self.words {
            LaneWords::Untouched => None,
            LaneWords::Tiny(words) => Some(&mut words.0),
            LaneWords::Small(words) => Some(&mut words.0),
            LaneWords::Full(words) => Some(&mut words.0),
        }
    }
}

impl<W: crate::Word, const SMALL: usize, const FULL: usize> WorkspaceBuffer<W>
    for LaneWorkspace<W, SMALL, FULL>
{
    #[inline(always)]
    fn words_mut(&mut self) -> &mut [W] {
        self.words()
    }

    /// Zeroes the words in use, if a kernel asked for any.
    #[inline(always)]
    fn wipe(&mut self) {
        let words = self.in_use();
        let bytes = words.as_ref().map_or(0, |w| w.len() * W::BYTES);
        wipe_observed(words, bytes);
    }
}

impl<W: crate::Word, const SMALL: usize, const FULL: usize> Default
    for LaneWorkspace<W, SMALL, FULL>
{
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl<W: crate::Word, const SMALL: usize, const FULL: usize> core::fmt::Debug
    for LaneWorkspace<W, SMALL, FULL>
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print message-derived data.
        write!(f, "LaneWorkspace<{SMALL} of {FULL} words> {{ .. }}")
    }
}

/// Compresses `blocks` into `state` with `kernel`, then wipes the schedule once.
///
/// This is the block-level update path: the workspace lives on this stack frame only for the
/// duration of the call. An empty `blocks` slice does nothing (no kernel call, no wipe).
///
/// # Safety
/// The CPU must support every feature `kernel` requires.
#[inline(always)]
pub unsafe fn compress_and_wipe<A: Compression>(
    kernel: KernelFn<A>,
    state: &mut State<A>,
    blocks: &[A::Block],
) {
    if blocks.is_empty() {
        return;
    }
    let mut w = A::Workspace::default();
    // SAFETY: the caller guarantees the CPU runs `kernel`.
    unsafe { kernel(state, blocks, &mut w) };
    w.wipe();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_cache_line_aligned_and_start_zeroed() {
        fn check<W: crate::Word, const N: usize>() {
            let mut w = Workspace::<W, N>::new();
            assert!(!w.is_touched());
            let words = w.words();
            assert_eq!(words.as_ptr() as usize % 64, 0);
            assert!(words.iter().all(|&x| x == W::default()));
            assert!(w.is_touched());
        }
        check::<u32, 16>();
        check::<u32, 64>();
        check::<u32, 680>();
        check::<u64, 80>();
        check::<u64, 640>();
    }

    #[test]
    fn lane_words_come_in_two_sizes() {
        let mut w = LaneWorkspace::<u32, 8, 24>::new();
        // The small part alone: zero, aligned, and what the wipe covers.
        let small = w.small_words();
        assert_eq!(small.as_ptr() as usize % 64, 0);
        assert!(small.iter().all(|&x| x == 0));
        small.fill(7);
        w.wipe();
        assert!(w.small_words().iter().all(|&x| x == 0));
        // Asking for all the words replaces the small part with zeroed full words.
        w.small_words().fill(7);
        let full = w.words();
        assert_eq!(full.len(), 24);
        assert_eq!(full.as_ptr() as usize % 64, 0);
        assert!(full.iter().all(|&x| x == 0));
        // Once full, the small part is their prefix.
        full[3] = 9;
        full[20] = 9;
        assert_eq!(w.small_words()[3], 9);
        w.wipe();
        assert!(w.words().iter().all(|&x| x == 0));
    }

    #[test]
    fn the_tiny_part_is_a_prefix_of_the_others() {
        let mut w = LaneWorkspace::<u32, 24, 40>::new();
        let tiny = w.tiny_words();
        assert_eq!(tiny.as_ptr() as usize % 64, 0);
        assert!(tiny.iter().all(|&x| x == 0));
        tiny.fill(7);
        w.wipe();
        assert!(w.tiny_words().iter().all(|&x| x == 0));
        // The small part replaces it, zeroed; then the tiny part is the small part's prefix.
        w.tiny_words().fill(7);
        assert!(w.small_words().iter().all(|&x| x == 0));
        w.small_words()[5] = 9;
        assert_eq!(w.tiny_words()[5], 9);
        // And of the full words.
        assert!(w.words().iter().all(|&x| x == 0));
        w.words()[15] = 9;
        assert_eq!(w.tiny_words()[15], 9);
        w.wipe();
        assert!(w.words().iter().all(|&x| x == 0));
    }
}
