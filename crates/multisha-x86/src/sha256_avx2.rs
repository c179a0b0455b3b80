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
//! * Per pair of blocks, the 2 × 64 words of `w + K` go into all 128 words of the caller's
//!   workspace, interleaved four words per lane: words `8j..8j+4` are `w[4j..4j+4] + K` of the
//!   first block, `8j+4..8j+8` those of the second. The workspace holds message-derived data
//!   and the caller wipes it once per update call after this kernel returns.
//! * The rounds read one precomputed `k + w` word each; the roles of `a..h` rotate over eight
//!   rounds written out (no moves), looped eight times.
//! * The majority is `b ^ ((a ^ b) & (b ^ c))`: `b ^ c` of a round is `a ^ b` of the round
//!   before, so it is computed once.
//! * An odd last block is expanded in both lanes (the high lane is ignored) and compressed
//!   alone.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi32, _mm256_alignr_epi8, _mm256_blend_epi32,
    _mm256_load_si256, _mm256_set_m128i, _mm256_setr_epi8, _mm256_shuffle_epi8,
    _mm256_shuffle_epi32, _mm256_slli_epi32, _mm256_srli_epi32, _mm256_srli_epi64,
    _mm256_store_si256, _mm256_xor_si256,
};
use multisha_contract::{Block, SHA256_K, Sha256State, Sha256Workspace};

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

/// Writes `w + K` of `b0` (low lanes) and `b1` (high lanes) into all 128 workspace words.
#[inline]
#[target_feature(enable = "avx2")]
fn schedule_pair(b0: &Block, b1: &Block, out: &mut [u32; 128]) {
    #[rustfmt::skip]
    let bswap = _mm256_setr_epi8(
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
    );
    let load = |i: usize| {
        // SAFETY: i < 4, so bytes 16i..16i+16 lie inside each 64-byte block; unaligned loads.
        let (lo, hi) = unsafe {
            (
                _mm_loadu_si128(b0.as_ptr().add(16 * i).cast()),
                _mm_loadu_si128(b1.as_ptr().add(16 * i).cast()),
            )
        };
        _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), bswap)
    };
    let mut store = |j: usize, v: __m256i| {
        // SAFETY: j < 16, so words 8j..8j+8 lie inside both 128-word arrays; both are 32-byte
        // aligned (the workspace to 64, `K2` to 32) and 8j words is a multiple of 32 bytes.
        unsafe {
            let k = _mm256_load_si256(K2.0.as_ptr().add(8 * j).cast());
            _mm256_store_si256(out.as_mut_ptr().add(8 * j).cast(), _mm256_add_epi32(v, k));
        }
    };
    let mut x = [load(0), load(1), load(2), load(3)];
    for (j, &v) in x.iter().enumerate() {
        store(j, v);
    }
    for j in 4..16 {
        let v = expand4(x[0], x[1], x[2], x[3]);
        x = [x[1], x[2], x[3], v];
        store(j, v);
    }
}

/// One round with the roles given by the caller and the precomputed `k + w` word `$kw`.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $kw:expr) => {
        let ch = ($e & $f) ^ (!$e & $g);
        let s1 = $e.rotate_right(6) ^ $e.rotate_right(11) ^ $e.rotate_right(25);
        $h = $h.wrapping_add($kw).wrapping_add(ch).wrapping_add(s1);
        $d = $d.wrapping_add($h);
        let maj = $b ^ (($a ^ $b) & ($b ^ $c));
        let s0 = $a.rotate_right(2) ^ $a.rotate_right(13) ^ $a.rotate_right(22);
        $h = $h.wrapping_add(s0).wrapping_add(maj);
    };
}

/// 64 rounds of one block over the lane `LANE` (0 or 4) of the paired `w + K`.
#[inline]
#[target_feature(enable = "avx2,bmi2")]
fn rounds<const LANE: usize>(state: &mut Sha256State, kw: &[u32; 128]) {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for i in 0..8 {
        // Rounds 8i..8i+8 are words 16i + LANE + {0..4, 8..12}.
        let kw = &kw[16 * i + LANE..][..12];
        round!(a, b, c, d, e, f, g, h, kw[0]);
        round!(h, a, b, c, d, e, f, g, kw[1]);
        round!(g, h, a, b, c, d, e, f, kw[2]);
        round!(f, g, h, a, b, c, d, e, kw[3]);
        round!(e, f, g, h, a, b, c, d, kw[8]);
        round!(d, e, f, g, h, a, b, c, kw[9]);
        round!(c, d, e, f, g, h, a, b, kw[10]);
        round!(b, c, d, e, f, g, h, a, kw[11]);
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

/// Compresses `blocks` into `state`, two blocks' schedules at a time in `w` (all 128 words).
///
/// # Safety
/// The CPU must support `avx2` and `bmi2`.
#[inline(never)]
#[target_feature(enable = "avx2,bmi2")]
pub unsafe fn compress(state: &mut Sha256State, blocks: &[Block], w: &mut Sha256Workspace) {
    let (pairs, rest) = blocks.as_chunks::<2>();
    for [b0, b1] in pairs {
        schedule_pair(b0, b1, &mut w.words);
        rounds::<0>(state, &w.words);
        rounds::<4>(state, &w.words);
    }
    if let [b] = rest {
        schedule_pair(b, b, &mut w.words);
        rounds::<0>(state, &w.words);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn harness() {
        if !std::is_x86_feature_detected!("avx2") || !std::is_x86_feature_detected!("bmi2") {
            std::println!("sha256/avx2 skipped: CPU lacks AVX2 or BMI2");
            return;
        }
        // SAFETY: both features the kernel needs were detected just above.
        let checks = unsafe {
            multisha_contract::harness::sha256_kernel_suite("sha256/avx2", super::compress)
        };
        assert!(checks > 2200);
    }
}
#[cfg(test)]
mod dbg {
    #[test]
    fn sched() {
        let b0 = [0x11u8; 64];
        let mut b1 = [0u8; 64];
        for (i, x) in b1.iter_mut().enumerate() {
            *x = (i * 7) as u8;
        }
        let mut ws = multisha_contract::Sha256Workspace::new();
        unsafe { super::schedule_pair(&b0, &b1, &mut ws.words) };
        let w = ws.words;
        for (lane, blk) in [(0, &b0), (4, &b1)] {
            let mut s = [0u32; 64];
            multisha_contract::ops::load_be(blk, &mut s);
            for t in 16..64 {
                multisha_contract::ops::sha256_expand(&mut s, t);
            }
            for t in 0..64 {
                let got =
                    w[(t / 4) * 8 + lane + t % 4].wrapping_sub(multisha_contract::SHA256_K[t]);
                assert_eq!(got, s[t], "lane {lane} t {t}");
            }
        }
    }
}
