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
    /// How many words it holds: kernels check at compile time that what they use fits (the
    /// words start cache-line aligned, so a kernel's aligned part starts at word 0).
    pub const LEN: usize = N;

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
        #[cfg(feature = "wipe-observer")]
        let had_data = self
            .words
            .as_ref()
            .is_some_and(|w| w.0.iter().any(|&x| x != W::default()));
        if let Some(words) = &mut self.words {
            words.0.as_mut_slice().zeroize();
        }
        #[cfg(feature = "wipe-observer")]
        crate::wipe_observer::record(
            N * W::BYTES,
            self.words.is_some(),
            had_data,
            self.words
                .as_ref()
                .is_none_or(|w| w.0.iter().all(|&x| x == W::default())),
        );
    }
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
}
