//! SHA-512 for x86-64: the schedule of two blocks at once with AVX2, the rounds in scalar
//! assembly with BMI1 and BMI2 (as the Linux and OpenSSL AVX2 SHA-512 code does).
//!
//! * AVX2 (`vpshufb`, `vpsrlq`/`vpsllq`, `vpalignr`, `vpaddq`) expands two schedule words per
//!   step in each 128-bit lane, block `2i` in the low lane and block `2i + 1` in the high lane,
//!   and adds `K` before storing. Two words per step need no lane of their own result: σ1 of
//!   `w[t]`, `w[t+1]` reads `w[t-2]`, `w[t-1]`, both known. AVX2 has no 64-bit rotate, so σ0
//!   and σ1 are built from shifts.
//! * BMI1 `andn` and BMI2 `rorx`: `rorx` rotates into a new register without touching the source or the flags: Σ0 and
//!   Σ1 take three independent rotates each and no copies.
//!
//! Design (as `sha256_avx2`):
//! * Per pair of blocks, the 2 × 80 words of `w + K` go into a 160-word, 64-byte aligned
//!   buffer on this kernel's own stack (the caller's workspace is left untouched), interleaved
//!   two words per lane: words `4j..4j+2` are `w[2j..2j+2] + K` of the first block,
//!   `4j+2..4j+4` those of the second. The buffer holds message-derived data, so the kernel
//!   wipes it with `zeroize` once per call, after the last block.
//! * The expansion of a pair is interleaved with the first block's rounds (four vector steps
//!   after each eight rounds, eight groups ahead of the rounds), so the vector units work while
//!   the integer units are busy; the second block's rounds then only read `w`.
//! * The roles of `a..h` rotate over eight rounds written out (no moves).
//! * An odd last block is expanded in both lanes (the high lane is ignored) and compressed
//!   alone.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_load_si256,
    _mm256_set_m128i, _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_store_si256, _mm256_xor_si256,
};
use multisha_contract::{Block128 as Block, SHA512_K, Sha512Compression, Sha512Workspace};
use zeroize::Zeroize;

/// The paired schedule of two blocks (`w + K`), 64-byte aligned for aligned vector stores.
#[repr(C, align(64))]
struct PairSchedule([u64; 160]);

/// `K` laid out like the paired schedule: each pair of constants twice, once per lane.
#[repr(C, align(32))]
struct PairedK([u64; 160]);

static K2: PairedK = {
    let mut k = [0u64; 160];
    let mut i = 0;
    while i < 80 {
        k[(i / 2) * 4 + i % 2] = SHA512_K[i];
        k[(i / 2) * 4 + 2 + i % 2] = SHA512_K[i];
        i += 1;
    }
    PairedK(k)
};

/// `x` rotated right by `N` bits in each 64-bit word, from two shifts (`M` = 64 - `N`).
#[inline]
#[target_feature(enable = "avx2")]
fn rotr<const N: i32, const M: i32>(x: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_srli_epi64::<N>(x), _mm256_slli_epi64::<M>(x))
}

/// σ0 of each word: `rotr1 ^ rotr8 ^ (x >> 7)`.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr::<1, 63>(x), rotr::<8, 56>(x)),
        _mm256_srli_epi64::<7>(x),
    )
}

/// σ1 of each word: `rotr19 ^ rotr61 ^ (x >> 6)`.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr::<19, 45>(x), rotr::<61, 3>(x)),
        _mm256_srli_epi64::<6>(x),
    )
}

/// `w[t..t+2]` in both lanes from the ring `x` = `w[t-16..t]`, two words per vector.
#[inline]
#[target_feature(enable = "avx2")]
fn expand2(x: &[__m256i; 8]) -> __m256i {
    let w15 = _mm256_alignr_epi8::<8>(x[1], x[0]);
    let w7 = _mm256_alignr_epi8::<8>(x[5], x[4]);
    let t = _mm256_add_epi64(_mm256_add_epi64(x[0], w7), small_sigma0(w15));
    _mm256_add_epi64(t, small_sigma1(x[7]))
}

/// Byte-swaps each 64-bit word of both lanes (the message is big-endian).
#[inline]
#[target_feature(enable = "avx2")]
fn bswap64(x: __m256i) -> __m256i {
    #[rustfmt::skip]
    let mask = _mm256_setr_epi8(
        7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
        7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
    );
    _mm256_shuffle_epi8(x, mask)
}

/// Words `2j..2j+2` of `b0` (low lane) and `b1` (high lane), big-endian.
#[inline]
#[target_feature(enable = "avx2")]
fn load_group(b0: &Block, b1: &Block, j: usize) -> __m256i {
    assert!(j < 8);
    // SAFETY: j < 8, so bytes 16j..16j+16 lie inside each 128-byte block; unaligned loads.
    let (lo, hi) = unsafe {
        (
            _mm_loadu_si128(b0.as_ptr().add(16 * j).cast()),
            _mm_loadu_si128(b1.as_ptr().add(16 * j).cast()),
        )
    };
    bswap64(_mm256_set_m128i(hi, lo))
}

/// Stores group `j` of the paired schedule plus `K` at words `4j..4j+4` of `out`.
#[inline]
#[target_feature(enable = "avx2")]
fn store_group(out: &mut [u64; 160], j: usize, v: __m256i) {
    assert!(j < 40);
    // SAFETY: j < 40, so words 4j..4j+4 lie inside both 160-word arrays; both are 32-byte
    // aligned (the buffer to 64, `K2` to 32) and 4j words is a multiple of 32 bytes.
    unsafe {
        let k = _mm256_load_si256(K2.0.as_ptr().add(4 * j).cast());
        _mm256_store_si256(out.as_mut_ptr().add(4 * j).cast(), _mm256_add_epi64(v, k));
    }
}

/// One round with the roles given by the caller and the precomputed `k + w` word `$kw`, in
/// assembly so the compiler cannot reassociate the sums into a longer dependency chain (left to
/// itself, LLVM adds the loaded `k + w` last, one cycle onto the `e -> d` chain every round).
/// Laid out as OpenSSL's AVX2/BMI2 rounds: `ch` is `(e & f) + (!e & g)` (the terms never share a
/// bit; `andn` makes the second one instruction), `maj` is `b ^ ((a ^ b) & (b ^ c))` with
/// `b ^ c` kept from the round before (`$bc`), and `Σ0(a)` is added into the new `a` only at
/// the start of the next round (`$s0`), off the critical path of `d += h`. (Trading two `b ^ c`
/// variables between rounds instead of the `mov` runs out of registers: the rounds spill.)
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $kw:ident + $offset:literal, $bc:ident, $s0:ident) => {
        // SAFETY: `$kw` points at 14 readable words of the schedule (`eight_rounds!` checks)
        // and `$offset` < 14; otherwise register-only arithmetic (`andn` needs BMI1, `rorx`
        // BMI2, both required by this kernel's declaration), no stack, no flags as operands.
        unsafe {
            core::arch::asm!(
                "add {h}, qword ptr [{kw} + 8*{offset}]",
                "add {a}, {s0}",
                "rorx {t0}, {e}, 14",
                "rorx {t1}, {e}, 18",
                "mov {t2}, {e}",
                "and {t2}, {f}",
                "xor {t0}, {t1}",
                "rorx {t1}, {e}, 41",
                "add {h}, {t2}",
                "andn {t2}, {e}, {g}",
                "xor {t0}, {t1}",
                "add {h}, {t2}",
                "add {h}, {t0}",
                "add {d}, {h}",
                "mov {t2}, {a}",
                "xor {t2}, {b}",
                "and {bc}, {t2}",
                "xor {bc}, {b}",
                "add {h}, {bc}",
                "mov {bc}, {t2}",
                "rorx {s0}, {a}, 28",
                "rorx {t0}, {a}, 34",
                "rorx {t1}, {a}, 39",
                "xor {s0}, {t0}",
                "xor {s0}, {t1}",
                a = inout(reg) $a,
                b = in(reg) $b,
                d = inout(reg) $d,
                e = in(reg) $e,
                f = in(reg) $f,
                g = in(reg) $g,
                h = inout(reg) $h,
                bc = inout(reg) $bc,
                s0 = inout(reg) $s0,
                t0 = out(reg) _,
                t1 = out(reg) _,
                t2 = out(reg) _,
                kw = in(reg) $kw,
                offset = const $offset,
                options(pure, readonly, nostack),
            );
        }
        let _ = &$c;
    };
}

/// Rounds `8i..8i+8` on the working variables `$v`, reading `k + w` from lane `$lane` (0 or
/// 2) of the paired schedule: words `16i + lane + {0, 1, 4, 5, 8, 9, 12, 13}`. The roles rotate
/// once around. A macro, not a function: a `#[target_feature]` function cannot be
/// `#[inline(always)]`.
macro_rules! eight_rounds {
    ($v:ident, $bc:ident, $s0:ident, $w:ident, $i:expr, $lane:expr) => {
        // Bounds-checked here, read by the rounds' assembly through the pointer.
        let kw = $w[16 * $i + $lane..][..14].as_ptr();
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = $v;
        round!(a, b, c, d, e, f, g, h, kw + 0, $bc, $s0);
        round!(h, a, b, c, d, e, f, g, kw + 1, $bc, $s0);
        round!(g, h, a, b, c, d, e, f, kw + 4, $bc, $s0);
        round!(f, g, h, a, b, c, d, e, kw + 5, $bc, $s0);
        round!(e, f, g, h, a, b, c, d, kw + 8, $bc, $s0);
        round!(d, e, f, g, h, a, b, c, kw + 9, $bc, $s0);
        round!(c, d, e, f, g, h, a, b, kw + 12, $bc, $s0);
        round!(b, c, d, e, f, g, h, a, kw + 13, $bc, $s0);
        $v = [a, b, c, d, e, f, g, h];
    };
}

/// Adds the working variables into the chaining state and leaves it in memory, so the rounds
/// keep the general registers for the working variables and their temporaries.
#[inline]
fn feed_forward(state: &mut [u64; 8], mut v: [u64; 8], s0: u64) {
    // The last round's Σ0 belongs to the new `a`.
    v[0] = v[0].wrapping_add(s0);
    for (s, x) in state.iter_mut().zip(v) {
        *s = s.wrapping_add(x);
    }
    core::hint::black_box(state);
}

multisha_contract::declare_variant! {
    /// The `avx2` SHA-512 variant.
    pub static VARIANT: Sha512Compression = {
        name: "avx2",
        description: "AVX2 message schedule for two blocks at a time, scalar rounds with BMI1 andn and BMI2 rorx in assembly",
        schedule: KernelStack,
        requires: ["avx2", "bmi1", "bmi2"],
    };
    /// Compresses `blocks` into `state`, two blocks' schedules at a time in a stack buffer that
    /// is wiped once before returning; the caller's workspace `_w` is not used.
    #[inline(never)]
    pub fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]], _w: &mut Sha512Workspace) {
        let mut pair = PairSchedule([0; 160]);
        let w = &mut pair.0;
        let mut todo = blocks;
        while let [b0, rest @ ..] = todo {
            // An odd last block is expanded in both lanes; the high lane is then ignored.
            let (b1, both) = match rest {
                [b1, ..] => (b1, true),
                [] => (b0, false),
            };
            let mut x: [__m256i; 8] = core::array::from_fn(|j| load_group(b0, b1, j));
            for (j, &g) in x.iter().enumerate() {
                store_group(w, j, g);
            }
            let mut v = *state;
            let (mut bc, mut s0) = (v[1] ^ v[2], 0);
            // Written out (not a loop) so the schedule ring stays in registers: cycle `i` runs
            // rounds 8i..8i+8 and expands groups 4i+8..4i+12 (needed two cycles later).
            macro_rules! step {
                ($i:literal, expand) => {
                    eight_rounds!(v, bc, s0, w, $i, 0);
                    for j in 4 * $i + 8..4 * $i + 12 {
                        let g = expand2(&x);
                        x = [x[1], x[2], x[3], x[4], x[5], x[6], x[7], g];
                        store_group(w, j, g);
                    }
                };
                ($i:literal) => {
                    eight_rounds!(v, bc, s0, w, $i, 0);
                };
            }
            step!(0, expand);
            step!(1, expand);
            step!(2, expand);
            step!(3, expand);
            step!(4, expand);
            step!(5, expand);
            step!(6, expand);
            step!(7, expand);
            step!(8);
            step!(9);
            // The last round's `b ^ c` has no next round.
            let _ = bc;
            feed_forward(state, v, s0);
            if !both {
                break;
            }
            let mut v = *state;
            let (mut bc, mut s0) = (v[1] ^ v[2], 0);
            for i in 0..10 {
                eight_rounds!(v, bc, s0, w, i, 2);
            }
            let _ = bc;
            feed_forward(state, v, s0);
            todo = &rest[1..];
        }
        pair.0.as_mut_slice().zeroize();
    }
}
