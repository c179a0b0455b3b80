//! AVX2 building blocks shared by the eight-lane kernels (`sha1_avx2_x8`, `sha256_avx2_x8`),
//! the four-lane `sha512_avx2_x4` and the single-message `sha256_avx2`: big-endian word
//! loads, the in-half 4 × 4 transpose that turns four messages' words into one register per
//! word, the aligned vectors of a lane workspace, and the volatile reload that keeps LLVM from
//! holding workspace vectors in registers.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm_storeu_si128, _mm256_castsi256_si128, _mm256_extracti128_si256,
    _mm256_set_epi64x, _mm256_set_m128i, _mm256_shuffle_epi8, _mm256_unpackhi_epi32,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};
use multisha_contract::{Block64 as Block, Word, aligned_words};

/// Messages per call of the eight-lane kernels: lane `i` in the low half of each register,
/// lane `i + 4` in the high half.
pub(crate) const LANES: usize = 8;

/// `N` vectors of a lane workspace's `words` (32-bit or 64-bit), from its first 32-byte
/// boundary (aligned vectors never straddle a cache line).
#[inline]
pub(crate) fn vector_slots<W: Word, const N: usize>(words: &mut [W]) -> &mut [__m256i; N] {
    let region = aligned_words(words, 32, N * 32 / W::BYTES);
    assert!(region.as_ptr().addr().is_multiple_of(32));
    // SAFETY: `region` is `N` × 32 bytes of initialized words, 32-byte aligned (asserted), and
    // every bit pattern is a valid `__m256i`; the result borrows `words` as `region` did.
    unsafe { &mut *region.as_mut_ptr().cast::<[__m256i; N]>() }
}

/// A vector of the workspace, read from memory where it is used: with a plain read LLVM keeps
/// what it has just stored in a register, and spills the working variables instead.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn reload(v: &__m256i) -> __m256i {
    // SAFETY: `v` is a reference: valid and aligned for a read.
    unsafe { core::ptr::read_volatile(v) }
}

/// The 16 bytes of `lo` in the low half, those of `hi` in the high half.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn load_halves<T, const N: usize>(lo: &[T; N], hi: &[T; N]) -> __m256i {
    const { assert!(N * size_of::<T>() == 16) };
    // SAFETY: each of `lo` and `hi` is 16 readable bytes (checked above); unaligned loads.
    unsafe {
        _mm256_set_m128i(
            _mm_loadu_si128(hi.as_ptr().cast()),
            _mm_loadu_si128(lo.as_ptr().cast()),
        )
    }
}

/// The low half of `x` to `lo`, the high half to `hi`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn store_halves(x: __m256i, lo: &mut [u32; 4], hi: &mut [u32; 4]) {
    // SAFETY: each of `lo` and `hi` is 16 writable bytes; unaligned stores.
    unsafe {
        _mm_storeu_si128(lo.as_mut_ptr().cast(), _mm256_castsi256_si128(x));
        _mm_storeu_si128(hi.as_mut_ptr().cast(), _mm256_extracti128_si256::<1>(x));
    }
}

/// The 4 × 4 transpose of 32-bit words within each 128-bit half: rows `r[i]` =
/// `[x_i0, x_i1, x_i2, x_i3 | y_i0, .., y_i3]` become `[x_0j, .., x_3j | y_0j, .., y_3j]`.
/// Its own inverse.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn transpose4(r: [__m256i; 4]) -> [__m256i; 4] {
    let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    [
        _mm256_unpacklo_epi64(t0, t2),
        _mm256_unpackhi_epi64(t0, t2),
        _mm256_unpacklo_epi64(t1, t3),
        _mm256_unpackhi_epi64(t1, t3),
    ]
}

/// Byte-swaps each `BYTES`-byte word (4: SHA-1 and SHA-256, 8: SHA-512; the message is
/// big-endian).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn bswap<const BYTES: usize>(x: __m256i) -> __m256i {
    // `vpshufb` indexes within each 16-byte half: the same two quadwords in both.
    let [lo, hi] = const { bswap_indices(BYTES) };
    _mm256_shuffle_epi8(x, _mm256_set_epi64x(hi, lo, hi, lo))
}

/// The `vpshufb` indices of [`bswap`] for one 16-byte half, as two little-endian quadwords:
/// byte `i` comes from the mirror position within its word.
const fn bswap_indices(bytes: usize) -> [i64; 2] {
    let mut q = [0; 2];
    let mut i = 0;
    while i < 16 {
        let from = i / bytes * bytes + (bytes - 1 - i % bytes);
        q[i / 8] |= (from as i64) << (8 * (i % 8));
        i += 1;
    }
    q
}

/// Block `j` of every lane, transposed and byte-swapped, into `w[0..16]` (word `t` of all
/// eight lanes in `w[t]`).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn load_message<const W: usize>(
    blocks: &[&[Block]; LANES],
    j: usize,
    w: &mut [__m256i; W],
) {
    let lane: [&Block; LANES] = core::array::from_fn(|i| &blocks[i][j]);
    for q in 0..4 {
        let rows = core::array::from_fn(|i| {
            let lo = &lane[i].as_chunks::<16>().0[q];
            let hi = &lane[i + 4].as_chunks::<16>().0[q];
            bswap::<4>(load_halves(lo, hi))
        });
        for (m, x) in transpose4(rows).into_iter().enumerate() {
            w[4 * q + m] = x;
        }
    }
}
