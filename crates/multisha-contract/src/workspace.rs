//! The caller-owned schedule workspace and the once-per-call wipe.

use crate::{Block, Family};
use zeroize::Zeroize;

/// Scratch space for a kernel's message schedule.
///
/// It holds message-derived data, so it is wiped with `zeroize` once per update call, after
/// the last block ([`compress_and_wipe`]): wiping once per block costs 2-20% for nothing.
/// 64-byte aligned so vector kernels can use aligned loads and stores.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Workspace<const WORDS: usize> {
    /// The schedule words. Kernels use a prefix of their choosing.
    pub words: [u32; WORDS],
}

/// SHA-1 workspace: 16 words, the circular schedule window every SHA-1 kernel uses (a bigger
/// one would only add stores to the zeroing and the wipe of every call).
pub type Sha1Workspace = Workspace<16>;

/// SHA-256 workspace: the 64-word schedule of one block. A kernel that expands two blocks at
/// once keeps that pair in its own stack buffer and wipes it before returning: a workspace
/// sized for it would double the zeroing and wiping of every call of every other kernel.
pub type Sha256Workspace = Workspace<64>;

impl<const WORDS: usize> Workspace<WORDS> {
    /// An all-zero workspace.
    #[inline(always)]
    pub const fn new() -> Self {
        Self { words: [0; WORDS] }
    }

    /// Overwrites every word with zero in a way the optimiser cannot drop.
    #[inline(always)]
    pub fn wipe(&mut self) {
        #[cfg(feature = "wipe-observer")]
        let had_data = self.words.iter().any(|&x| x != 0);
        self.words.as_mut_slice().zeroize();
        #[cfg(feature = "wipe-observer")]
        crate::wipe_observer::record(WORDS, had_data, self.words.iter().all(|&x| x == 0));
    }
}

impl<const WORDS: usize> AsMut<[u32]> for Workspace<WORDS> {
    fn as_mut(&mut self) -> &mut [u32] {
        &mut self.words
    }
}

impl<const WORDS: usize> Default for Workspace<WORDS> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl<const WORDS: usize> core::fmt::Debug for Workspace<WORDS> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print message-derived data.
        write!(f, "Workspace<{WORDS}> {{ .. }}")
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
pub unsafe fn compress_and_wipe<F: Family>(
    kernel: F::Kernel,
    state: &mut F::State,
    blocks: &[Block],
) {
    if blocks.is_empty() {
        return;
    }
    let mut w = F::Workspace::default();
    // SAFETY: the caller guarantees the CPU runs `kernel`.
    unsafe { F::call(kernel, state, blocks, &mut w) };
    F::wipe(&mut w);
}
