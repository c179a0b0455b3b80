//! SHA-256 for x86-64 without SHA-NI: the schedule of two blocks at once with AVX2, the rounds
//! in scalar code with BMI2.
//!
//! * AVX2 (`vpshufb`, `vpsrld`/`vpslld`/`vpsrlq`, `vpalignr`, `vpaddd`, `vpblendd`) expands
//!   four schedule words per step in each 128-bit lane, block `2i` in the low lane and block
//!   `2i + 1` in the high lane, and adds `K` before storing.
//! * BMI2 `rorx` rotates into a new register without touching the source or the flags, so Σ0
//!   and Σ1 take three independent rotates and no copies.
//!
//! Design:
//! * Per pair of blocks, the 2 × 64 words of `w + K` go into a 128-word, 64-byte aligned buffer
//!   on this kernel's own stack (the caller's 64-word workspace holds one block; it is left
//!   untouched), interleaved four words per lane: words `8j..8j+4` are `w[4j..4j+4] + K` of
//!   the first block, `8j+4..8j+8` those of the second. The buffer holds message-derived data,
//!   so the kernel wipes it with `zeroize` once per call, after the last block.
//! * The expansion of a pair is interleaved with the first block's rounds (two vector steps
//!   after each eight rounds, always two groups ahead of the rounds), so the vector units work
//!   while the integer units are busy; the second block's rounds then only read `w`. This took
//!   the kernel from about 1.1x to about 1.35x of `unroll64` on the development machine.
//! * The rounds read one precomputed `k + w` word each; the roles of `a..h` rotate over eight
//!   rounds written out (no moves): all 64 for the first block (the vector steps sit between
//!   them), looped eight times for the second.
//! * `ch` is `g ^ (e & (f ^ g))`, needing no BMI1 `andn` (measured no faster here).
//! * The majority is `b ^ ((a ^ b) & (b ^ c))`: `b ^ c` of a round is `a ^ b` of the round
//!   before, so it is computed once.
//! * An odd last block is expanded in both lanes (the high lane is ignored) and compressed
//!   alone.
//! * Everything is inlined into `compress` (one symbol, for code-size measurement).

use crate::avx2_lanes::bswap;
use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi32, _mm256_alignr_epi8, _mm256_blend_epi32,
    _mm256_load_si256, _mm256_set_m128i, _mm256_shuffle_epi32, _mm256_slli_epi32,
    _mm256_srli_epi32, _mm256_srli_epi64, _mm256_store_si256, _mm256_xor_si256,
};
use multisha_contract::{Block64 as Block, SHA256_K, Sha256Compression, Sha256Workspace};
use zeroize::Zeroize;

/// The paired schedule of two blocks (`w + K`), 64-byte aligned for aligned vector stores.
#[repr(C, align(64))]
struct PairSchedule([u32; 128]);

/// `K` laid out like the workspace: each group of four constants twice, once per lane.
#[repr(C, align(32))]
struct PairedK([u32; 128]);

static K2: PairedK = {
    let mut k = [0u32; 128];
    let mut i = 0;
    while i < 64 {
        k[(i / 4) * 8 + i % 4] = SHA256_K[i];
        k[(i / 4) * 8 + 4 + i % 4] = SHA256_K[i];
        i += 1;
    }
    PairedK(k)
};

/// σ0 of each word: `rotr7 ^ rotr18 ^ (x >> 3)` from shifts (AVX2 has no vector rotate).
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma0(x: __m256i) -> __m256i {
    let right = _mm256_xor_si256(
        _mm256_xor_si256(_mm256_srli_epi32::<7>(x), _mm256_srli_epi32::<18>(x)),
        _mm256_srli_epi32::<3>(x),
    );
    // The two left parts overlap (bits 25..32), so they are xored, not ored.
    let left = _mm256_xor_si256(_mm256_slli_epi32::<25>(x), _mm256_slli_epi32::<14>(x));
    _mm256_xor_si256(right, left)
}

/// σ1 of the words in lanes 0 and 2 of each 128-bit lane, given `x = [v, v, u, u]`: a 64-bit
/// shift of a doubled word is a 32-bit rotate in its low half, which saves the left shifts.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma1_pairs(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(_mm256_srli_epi64::<17>(x), _mm256_srli_epi64::<19>(x)),
        _mm256_srli_epi32::<10>(x),
    )
}

/// `w[t..t+4]` from `x0 = w[t-16..t-12]`, ..., `x3 = w[t-4..t]`, in both lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn expand4(x0: __m256i, x1: __m256i, x2: __m256i, x3: __m256i) -> __m256i {
    let w15 = _mm256_alignr_epi8::<4>(x1, x0);
    let w7 = _mm256_alignr_epi8::<4>(x3, x2);
    let t = _mm256_add_epi32(_mm256_add_epi32(x0, w7), small_sigma0(w15));
    // w[t], w[t+1] need σ1 of w[t-2], w[t-1] (the top two words of x3).
    let s = small_sigma1_pairs(_mm256_shuffle_epi32::<0b11_11_10_10>(x3));
    let lo = _mm256_add_epi32(t, _mm256_shuffle_epi32::<0b11_11_10_00>(s));
    // w[t+2], w[t+3] need σ1 of w[t], w[t+1], just computed in the two low words of `lo`.
    let s = small_sigma1_pairs(_mm256_shuffle_epi32::<0b01_01_00_00>(lo));
    let hi = _mm256_add_epi32(t, _mm256_shuffle_epi32::<0b10_00_00_00>(s));
    _mm256_blend_epi32::<0b1100_1100>(lo, hi)
}

/// Words `4j..4j+4` of `b0` (low lane) and `b1` (high lane), big-endian.
#[inline]
#[target_feature(enable = "avx2")]
fn load_group(b0: &Block, b1: &Block, j: usize) -> __m256i {
    assert!(j < 4);
    // SAFETY: j < 4, so bytes 16j..16j+16 lie inside each 64-byte block; unaligned loads.
    let (lo, hi) = unsafe {
        (
            _mm_loadu_si128(b0.as_ptr().add(16 * j).cast()),
            _mm_loadu_si128(b1.as_ptr().add(16 * j).cast()),
        )
    };
    bswap::<4>(_mm256_set_m128i(hi, lo))
}

/// Stores group `j` of the paired schedule plus `K` at words `8j..8j+8` of `out`.
#[inline]
#[target_feature(enable = "avx2")]
fn store_group(out: &mut [u32; 128], j: usize, v: __m256i) {
    assert!(j < 16);
    // SAFETY: j < 16, so words 8j..8j+8 lie inside both 128-word arrays; both are 32-byte
    // aligned (the workspace to 64, `K2` to 32) and 8j words is a multiple of 32 bytes.
    unsafe {
        let k = _mm256_load_si256(K2.0.as_ptr().add(8 * j).cast());
        _mm256_store_si256(out.as_mut_ptr().add(8 * j).cast(), _mm256_add_epi32(v, k));
    }
}

/// One round with the roles given by the caller and the precomputed `k + w` word `$kw`.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $kw:expr) => {
        let ch = $g ^ ($e & ($f ^ $g));
        let s1 = $e.rotate_right(6) ^ $e.rotate_right(11) ^ $e.rotate_right(25);
        $h = $h.wrapping_add($kw).wrapping_add(ch).wrapping_add(s1);
        $d = $d.wrapping_add($h);
        let maj = $b ^ (($a ^ $b) & ($b ^ $c));
        let s0 = $a.rotate_right(2) ^ $a.rotate_right(13) ^ $a.rotate_right(22);
        $h = $h.wrapping_add(s0).wrapping_add(maj);
    };
}

/// Rounds `8i..8i+8` on the working variables `$v`, reading `k + w` from lane `$lane` (0 or
/// 4) of the paired schedule: words `16i + lane + {0..4, 8..12}`. The roles rotate once
/// around. A macro, not a function: a `#[target_feature]` function cannot be
/// `#[inline(always)]`, and LLVM declines to inline this one on its own.
macro_rules! eight_rounds {
    ($v:ident, $w:ident, $i:expr, $lane:expr) => {
        let kw = &$w[16 * $i + $lane..][..12];
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = $v;
        round!(a, b, c, d, e, f, g, h, kw[0]);
        round!(h, a, b, c, d, e, f, g, kw[1]);
        round!(g, h, a, b, c, d, e, f, kw[2]);
        round!(f, g, h, a, b, c, d, e, kw[3]);
        round!(e, f, g, h, a, b, c, d, kw[8]);
        round!(d, e, f, g, h, a, b, c, kw[9]);
        round!(c, d, e, f, g, h, a, b, kw[10]);
        round!(b, c, d, e, f, g, h, a, kw[11]);
        $v = [a, b, c, d, e, f, g, h];
    };
}

/// Adds the working variables into the chaining state, and leaves it in memory.
///
/// Left alone, LLVM keeps the eight state words in registers across the whole block loop,
/// which leaves the rounds six registers for eight working variables and their temporaries:
/// they spill on every round. The state is needed once per block, so it lives in memory.
#[inline]
fn feed_forward(state: &mut [u32; 8], v: [u32; 8]) {
    for (s, x) in state.iter_mut().zip(v) {
        *s = s.wrapping_add(x);
    }
    core::hint::black_box(state);
}

multisha_contract::declare_variant! {
    /// The `avx2` SHA-256 variant.
    pub static VARIANT: Sha256Compression = {
        name: "avx2",
        description: "AVX2 message schedule for two blocks at a time, scalar rounds with BMI2 rorx",
        schedule: KernelStack,
        requires: ["avx2", "bmi2"],
        cost: { call: 2.0, step: 117.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state`, two blocks' schedules at a time in a stack buffer that is
    /// wiped once before returning; the caller's workspace `_w` is not used.
    ///
    /// Per pair, the schedule of both blocks is expanded while the rounds of the first run: the
    /// vector steps for groups `2i+4`, `2i+5` sit between the scalar rounds `8i..8i+8`, so the
    /// vector units work while the integer units are busy, and the second block's rounds then
    /// only read `w`.
    #[inline(never)]
    pub fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]], _w: &mut Sha256Workspace) {
        let mut pair = PairSchedule([0; 128]);
        let w = &mut pair.0;
        let mut todo = blocks;
        while let [b0, rest @ ..] = todo {
            // An odd last block is expanded in both lanes; the high lane is then ignored.
            let (b1, both) = match rest {
                [b1, ..] => (b1, true),
                [] => (b0, false),
            };
            let mut x = [0, 1, 2, 3].map(|j| load_group(b0, b1, j));
            for (j, &g) in x.iter().enumerate() {
                store_group(w, j, g);
            }
            let mut v = *state;
            // Written out (not a loop) so the schedule ring stays in registers.
            macro_rules! step {
                ($i:literal, expand) => {
                    eight_rounds!(v, w, $i, 0);
                    for j in [2 * $i + 4, 2 * $i + 5] {
                        let g = expand4(x[0], x[1], x[2], x[3]);
                        x = [x[1], x[2], x[3], g];
                        store_group(w, j, g);
                    }
                };
                ($i:literal) => {
                    eight_rounds!(v, w, $i, 0);
                };
            }
            step!(0, expand);
            step!(1, expand);
            step!(2, expand);
            step!(3, expand);
            step!(4, expand);
            step!(5, expand);
            step!(6);
            step!(7);
            feed_forward(state, v);
            if !both {
                break;
            }
            let mut v = *state;
            for i in 0..8 {
                eight_rounds!(v, w, i, 4);
            }
            feed_forward(state, v);
            todo = &rest[1..];
        }
        pair.0.as_mut_slice().zeroize();
    }
}
