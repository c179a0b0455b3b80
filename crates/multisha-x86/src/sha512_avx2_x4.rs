//! SHA-512 of four messages at once with AVX2: one message per 64-bit lane of a `ymm`
//! register (as ISA-L's `sha512_mb` AVX2 lanes).
//!
//! Each of the eight working variables `a..h` is one register holding that word of all four
//! lanes, so a round is the scalar round written with vector operations. AVX2 has no 64-bit
//! rotate: a rotation is two shifts and an `or`, except σ0's rotation by 8, one `vpshufb`.
//!
//! Design (that of `sha256_avx2_x8`, on 64-bit words):
//! * The row-major states (two registers per lane) and each block's words (four registers per
//!   lane) are turned into one register per word by the 4 × 4 transpose of 64-bit words
//!   (`unpack{lo,hi}_epi64`, then `vperm2i128`); message words are byte-swapped with
//!   `vpshufb`.
//! * The sixteen registers hold the working variables and their temporaries only. The chaining
//!   value at the start of the block and a ring of the last sixteen schedule words (`W`, not
//!   `W + K`) live in the lane workspace, 32-byte aligned, which the scheduler wipes once per
//!   batch; each word is expanded inside the round that uses it, so that independent work fills
//!   the gaps of the rounds' dependency chain. They are read back with volatile loads, which
//!   keep LLVM from holding them in registers and spilling the working variables instead.
//! * `K[t]` is read pre-broadcast from a table (a memory operand of `vpaddq`).
//! * `ch` is `(e & f) ^ (!e & g)`, the majority `b ^ ((a ^ b) & (b ^ c))`; the round adds
//!   `w + K` to `h` before `ch` is computed. Either the carried `a ^ b` of `sha256_avx2_x8`
//!   (whose `b ^ c` is the previous round's `a ^ b`) or `ch` first left LLVM one register
//!   short, and it spilled a working value to the stack: as written, no vector register is
//!   spilled.
//!
//! The constant entry runs the rounds alone, on `w[t] + K[t]` broadcast to every lane.

use crate::avx2_lanes::{bswap, reload, vector_slots};
use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi64x, _mm256_setr_epi8,
    _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256,
};
use multisha_contract::{Block128 as Block, Compression, SHA512_K, Sha512Compression, equal_lanes};

type LaneWorkspace = <Sha512Compression as Compression>::LaneWorkspace;
const _: () = assert!(
    SLOTS * LANES <= LaneWorkspace::SMALL_LEN,
    "the lane workspace is too small for this kernel"
);

/// Messages per call.
const LANES: usize = 4;

/// Vectors of four words the kernel keeps in the lane workspace: the chaining value at the
/// start of the block (8), then the ring of the last sixteen schedule words.
const SAVED: usize = 8;
const SLOTS: usize = SAVED + 16;

/// `K[t]` in all four lanes.
#[repr(C, align(32))]
struct BroadcastK([[u64; LANES]; 80]);

static K4: BroadcastK = BroadcastK({
    let mut k = [[0; LANES]; 80];
    let mut t = 0;
    while t < 80 {
        k[t] = [SHA512_K[t]; LANES];
        t += 1;
    }
    k
});

/// `K[t]` in all four lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn k4(t: usize) -> __m256i {
    let k = &K4.0[t];
    // SAFETY: `k` is 32 readable bytes; unaligned load (the table is aligned anyway).
    unsafe { _mm256_loadu_si256(k.as_ptr().cast()) }
}

/// The 4 × 4 transpose of 64-bit words: element `j` of row `i` to element `i` of row `j`.
/// Its own inverse.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose4(r: [__m256i; 4]) -> [__m256i; 4] {
    let t0 = _mm256_unpacklo_epi64(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi64(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi64(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    [
        _mm256_permute2x128_si256::<0x20>(t0, t2),
        _mm256_permute2x128_si256::<0x20>(t1, t3),
        _mm256_permute2x128_si256::<0x31>(t0, t2),
        _mm256_permute2x128_si256::<0x31>(t1, t3),
    ]
}

/// The 32 bytes at `p`.
#[inline]
#[target_feature(enable = "avx2")]
fn load32(p: &[u64; 4]) -> __m256i {
    // SAFETY: `p` is 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(p.as_ptr().cast()) }
}

/// Words `4q..4q+4` of the four states, one register per word.
#[inline]
#[target_feature(enable = "avx2")]
fn load_state_half(states: &[[u64; 8]; LANES], q: usize) -> [__m256i; 4] {
    transpose4(core::array::from_fn(|i| {
        load32(states[i][4 * q..4 * q + 4].try_into().expect("four words"))
    }))
}

/// The four states, transposed: word `j` of every lane in register `j`.
#[inline]
#[target_feature(enable = "avx2")]
fn load_states(states: &[[u64; 8]; LANES]) -> [__m256i; 8] {
    let [a, b, c, d] = load_state_half(states, 0);
    let [e, f, g, h] = load_state_half(states, 1);
    [a, b, c, d, e, f, g, h]
}

/// The transposed states back to the row-major `states`.
#[inline]
#[target_feature(enable = "avx2")]
fn store_states(states: &mut [[u64; 8]; LANES], v: [__m256i; 8]) {
    let [a, b, c, d, e, f, g, h] = v;
    for (q, words) in [[a, b, c, d], [e, f, g, h]].into_iter().enumerate() {
        for (state, row) in states.iter_mut().zip(transpose4(words)) {
            let out: &mut [u64; 4] = (&mut state[4 * q..4 * q + 4])
                .try_into()
                .expect("four words");
            // SAFETY: `out` is 32 writable bytes; unaligned store.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), row) };
        }
    }
}

/// Block `j` of every lane, transposed and byte-swapped, into `w[0..16]` (word `t` of all four
/// lanes in `w[t]`).
#[inline]
#[target_feature(enable = "avx2")]
fn load_message(blocks: &[&[Block]; LANES], j: usize, w: &mut [__m256i; 16]) {
    let lane: [&Block; LANES] = core::array::from_fn(|i| &blocks[i][j]);
    for q in 0..4 {
        let rows = core::array::from_fn(|i| {
            let chunk = &lane[i].as_chunks::<32>().0[q];
            // SAFETY: `chunk` is 32 readable bytes; unaligned load.
            bswap::<8>(unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) })
        });
        for (m, x) in transpose4(rows).into_iter().enumerate() {
            w[4 * q + m] = x;
        }
    }
}

/// The kernel's part of the lane workspace.
#[inline]
fn slots(ws: &mut LaneWorkspace) -> &mut [__m256i; SLOTS] {
    vector_slots(ws.small_words())
}

/// `x` rotated right by `n` bits in each lane (`m` = 64 - `n`).
macro_rules! rotr {
    ($x:expr, $n:literal, $m:literal) => {
        _mm256_or_si256(_mm256_srli_epi64::<$n>($x), _mm256_slli_epi64::<$m>($x))
    };
}

/// Σ0: `rotr28 ^ rotr34 ^ rotr39`.
#[inline]
#[target_feature(enable = "avx2")]
fn big_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 28, 36), rotr!(x, 34, 30)),
        rotr!(x, 39, 25),
    )
}

/// Σ1: `rotr14 ^ rotr18 ^ rotr41`.
#[inline]
#[target_feature(enable = "avx2")]
fn big_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 14, 50), rotr!(x, 18, 46)),
        rotr!(x, 41, 23),
    )
}

/// σ0: `rotr1 ^ rotr8 ^ (x >> 7)`, the rotation by a byte as one `vpshufb`.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma0(x: __m256i) -> __m256i {
    #[rustfmt::skip]
    let rotr8 = _mm256_setr_epi8(
        1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
        1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
    );
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 1, 63), _mm256_shuffle_epi8(x, rotr8)),
        _mm256_srli_epi64::<7>(x),
    )
}

/// σ1: `rotr19 ^ rotr61 ^ (x >> 6)`.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 19, 45), rotr!(x, 61, 3)),
        _mm256_srli_epi64::<6>(x),
    )
}

/// `w[t] + K[t]` of a message word already in the ring.
macro_rules! wk_load {
    ($w:ident, $t:expr) => {{
        let t = $t;
        _mm256_add_epi64(reload(&$w[t]), k4(t))
    }};
}

/// `w[t]` expanded from the ring and stored into it in place of `w[t - 16]`; `w[t] + K[t]`.
macro_rules! wk_expand {
    ($w:ident, $t:expr) => {{
        let t = $t;
        let x = _mm256_add_epi64(
            _mm256_add_epi64(
                small_sigma1(reload(&$w[(t - 2) & 15])),
                reload(&$w[(t - 7) & 15]),
            ),
            _mm256_add_epi64(
                small_sigma0(reload(&$w[(t - 15) & 15])),
                reload(&$w[t & 15]),
            ),
        );
        $w[t & 15] = x;
        _mm256_add_epi64(x, k4(t))
    }};
}

/// `w[t] + K[t]` of the constant schedule, broadcast.
macro_rules! wk_constant {
    ($w:ident, $t:expr) => {{
        let t = $t;
        _mm256_add_epi64(_mm256_set1_epi64x($w[t] as i64), k4(t))
    }};
}

/// One round with the roles given by the caller, `k + w` in `$wk`.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $wk:expr) => {
        // `w + K` first, no carried `a ^ b`: see the module header (no spill).
        let hwk = _mm256_add_epi64($h, $wk);
        let ch = _mm256_xor_si256(_mm256_and_si256($e, $f), _mm256_andnot_si256($e, $g));
        let t1 = _mm256_add_epi64(_mm256_add_epi64(hwk, ch), big_sigma1($e));
        $d = _mm256_add_epi64($d, t1);
        let maj = _mm256_xor_si256(
            $b,
            _mm256_and_si256(_mm256_xor_si256($a, $b), _mm256_xor_si256($b, $c)),
        );
        $h = _mm256_add_epi64(_mm256_add_epi64(t1, big_sigma0($a)), maj);
    };
}

/// Rounds `$t..$t + 8`, `k + w` from `$wk!($w, t)`; the roles rotate once around.
macro_rules! eight_rounds {
    ([$a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident],
     $wk:ident, $w:ident, $t:expr) => {
        let t = $t;
        round!($a, $b, $c, $d, $e, $f, $g, $h, $wk!($w, t));
        round!($h, $a, $b, $c, $d, $e, $f, $g, $wk!($w, t + 1));
        round!($g, $h, $a, $b, $c, $d, $e, $f, $wk!($w, t + 2));
        round!($f, $g, $h, $a, $b, $c, $d, $e, $wk!($w, t + 3));
        round!($e, $f, $g, $h, $a, $b, $c, $d, $wk!($w, t + 4));
        round!($d, $e, $f, $g, $h, $a, $b, $c, $wk!($w, t + 5));
        round!($c, $d, $e, $f, $g, $h, $a, $b, $wk!($w, t + 6));
        round!($b, $c, $d, $e, $f, $g, $h, $a, $wk!($w, t + 7));
    };
}

multisha_contract::declare_variant! {
    /// The `avx2-x4` SHA-512 many-message variant.
    pub static VARIANT: Sha512Compression = {
        name: "avx2-x4",
        description: concat!(
            "four messages at once, one per 64-bit lane of AVX2 registers (rotations as shifts, ",
            "vpshufb for the byte one); a ring of sixteen schedule words in the lane workspace",
        ),
        schedule: LaneWorkspace,
        requires: ["avx2"],
        lanes: 4,
        cost: { setup: 135.0, call: 32.0, step: 523.0, message: 12.0, ragged: 22.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the four lanes, block by block in step;
    /// the schedule ring and the block's starting chaining value live in `w`.
    #[inline(never)]
    pub fn compress(states: &mut [[u64; 8]], blocks: &[&[[u8; 128]]], w: &mut LaneWorkspace) {
        let states: &mut [[u64; 8]; LANES] =
            states.try_into().expect("avx2-x4 takes four lanes");
        let (blocks, n) = equal_lanes::<Block, LANES>(blocks);
        let (saved, w) = slots(w).split_at_mut(SAVED);
        let saved: &mut [__m256i; SAVED] = saved.try_into().expect("eight vectors");
        let w: &mut [__m256i; 16] = w.try_into().expect("the schedule ring");
        // The chaining value lives in the workspace between blocks (in registers it would
        // leave the rounds too few), read after the message is in place.
        *saved = load_states(states);
        for j in 0..n {
            load_message(blocks, j, w);
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] =
                saved.each_ref().map(|x| reload(x));
            for i in 0..2 {
                eight_rounds!([a, b, c, d, e, f, g, h], wk_load, w, 8 * i);
            }
            for i in 2..10 {
                eight_rounds!([a, b, c, d, e, f, g, h], wk_expand, w, 8 * i);
            }
            for (slot, x) in saved.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                *slot = _mm256_add_epi64(x, reload(slot));
            }
        }
        store_states(states, saved.each_ref().map(|x| reload(x)));
    }
    /// One compression of the four lanes on the expanded schedule `w[0..80]`, broadcast; the
    /// starting chaining value waits in `ws` for the feed-forward.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u64; 8]], w: &[u64], ws: &mut LaneWorkspace) {
        let states: &mut [[u64; 8]; LANES] =
            states.try_into().expect("avx2-x4 takes four lanes");
        let w: &[u64; 80] = w.try_into().expect("an 80-word schedule");
        let saved: &mut [__m256i; SAVED] =
            (&mut slots(ws)[..SAVED]).try_into().expect("eight vectors");
        // Kept in registers, the chaining value would be spilled to this function's stack.
        *saved = load_states(states);
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] =
            saved.each_ref().map(|x| reload(x));
        for i in 0..10 {
            eight_rounds!([a, b, c, d, e, f, g, h], wk_constant, w, 8 * i);
        }
        for (slot, x) in saved.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *slot = _mm256_add_epi64(x, reload(slot));
        }
        store_states(states, saved.each_ref().map(|x| reload(x)));
    }
}
