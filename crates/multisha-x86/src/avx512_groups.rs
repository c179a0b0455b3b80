//! What the two-group AVX-512 kernels (`sha1_avx512_x32`, `sha256_avx512_x32`,
//! `sha512_avx512_x16`) share: two groups of lanes (sixteen of 32-bit words, eight of 64-bit
//! words), whose working states fill half the `zmm` registers, so each group's ring of sixteen
//! schedule words lives in the lane workspace (2 KiB, 64-byte aligned, wiped once per batch),
//! read and written with volatile accesses: with plain ones the compiler keeps ring words in
//! registers it does not have and spills them to the stack.

use core::arch::x86_64::__m512i;
use multisha_contract::{Word, WorkspaceBuffer, aligned_words};

/// Lanes of a group of 32-bit words.
pub(crate) const GROUP: usize = 16;

/// Lanes of a two-group kernel of 32-bit words.
pub(crate) const LANES: usize = 2 * GROUP;

/// The two groups' schedule rings: sixteen registers each.
pub(crate) type Rings = [[__m512i; 16]; 2];

/// Words of type `W` of [`Rings`] in a lane workspace.
pub(crate) const fn ring_words<W: Word>() -> usize {
    size_of::<Rings>() / W::BYTES
}

/// 32-bit words of [`Rings`] in a lane workspace.
pub(crate) const RING_WORDS: usize = ring_words::<u32>();

/// The rings in a lane workspace, from its first 64-byte boundary.
///
/// # Panics
/// If the workspace has fewer than [`ring_words`] words from there (each kernel checks its
/// workspace's size at compile time).
#[inline]
pub(crate) fn rings<W: Word>(ws: &mut impl WorkspaceBuffer<W>) -> &mut Rings {
    let region = aligned_words(ws.words_mut(), 64, ring_words::<W>());
    assert!(region.as_ptr().addr().is_multiple_of(64));
    // SAFETY: `region` is initialized words of the size of `Rings`, 64-byte aligned
    // (asserted), and every bit pattern is a valid `__m512i`; the result borrows `ws` as
    // `region` did.
    unsafe { &mut *region.as_mut_ptr().cast::<Rings>() }
}

/// A ring word, read from memory where it is used.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn get(v: &__m512i) -> __m512i {
    // SAFETY: `v` is a reference: valid and aligned for a read.
    unsafe { core::ptr::read_volatile(v) }
}

/// Writes a ring word to memory.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn put(v: &mut __m512i, x: __m512i) {
    // SAFETY: `v` is a mutable reference: valid and aligned for a write.
    unsafe { core::ptr::write_volatile(v, x) }
}
