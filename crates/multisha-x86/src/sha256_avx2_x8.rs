//! SHA-256 of eight messages at once with AVX2: one message per 32-bit lane of a `ymm`
//! register.
//!
//! Each of the eight working variables `a..h` is one register holding that word of all eight
//! lanes, so a round is the scalar round written with vector operations, on eight messages (as
//! OpenSSL's `sha256-mb-x86_64` and ISA-L's `sha256_mb` AVX2 paths do). AVX2 has no vector
//! rotate: a rotation is two shifts and an `or`, so a round takes about 35 vector operations
//! and a schedule word 21 more; the vector ALUs, not latency, bound the speed. On Zen 4 that is
//! about 2 cycles per byte: 1.05x one SHA-NI stream, 0.6x `shani-x2`, so this variant is for
//! CPUs without SHA-NI (3.8x the single-message `avx2` kernel on 4 KiB messages).
//!
//! Design:
//! * The row-major states are transposed on entry and back on exit: the 4 × 4 transpose of
//!   `unpack{lo,hi}_epi{32,64}` within each 128-bit half, with lane `i` in the low half and
//!   lane `i + 4` in the high half of a row, gives the word of lanes 0..8 in one register
//!   without crossing halves (no `vpermq`/`vperm2i128`).
//! * Per block, the 16 message words of the eight lanes are transposed the same way (rows
//!   built from two 16-byte loads) and byte-swapped with `vpshufb`.
//! * The sixteen registers hold the working variables and their temporaries only. The 64
//!   schedule words of every lane (`W`, not `W + K`) and the chaining value live in the lane
//!   workspace, 32-byte aligned, which the scheduler wipes once per batch. Words 16..64 are
//!   expanded inside the rounds that use them, so that independent work fills the gaps of the
//!   rounds' dependency chain (faster than a separate expansion pass, 1.83 against 1.56 GB/s).
//! * Schedule words and the chaining value are read back with volatile loads: from plain ones
//!   LLVM forwards the values it has just stored and keeps them in registers, which then spill
//!   the working variables to the stack (40 spill loads and stores per eight rounds).
//! * `K[t]` is read pre-broadcast from a table (a memory operand of `vpaddd`).
//! * `ch` is `(e & f) ^ (!e & g)` (`vpandn`: two independent operations, not a chain); the
//!   majority is `b ^ ((a ^ b) & (b ^ c))`, whose `b ^ c` is the previous round's `a ^ b`.
//!
//! The constant entry runs the rounds alone, on `w[t] + K[t]` broadcast to every lane.

use crate::avx2_lanes::{
    LANES, load_halves, load_message, reload, store_halves, transpose4, vector_slots,
};
use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_set1_epi32, _mm256_slli_epi32, _mm256_srli_epi32, _mm256_xor_si256,
};
use multisha_contract::{Block64 as Block, Compression, SHA256_K, Sha256Compression, equal_lanes};

type LaneWorkspace = <Sha256Compression as Compression>::LaneWorkspace;
const _: () = assert!(
    SLOTS * LANES <= LaneWorkspace::LEN,
    "the lane workspace is too small for this kernel"
);

/// Vectors of eight words the kernel keeps in the lane workspace: the chaining value at the
/// start of the block (8), then the schedule (64), then `a ^ b` carried between rounds (1).
const SAVED: usize = 8;
const SLOTS: usize = SAVED + 64 + 1;

/// `K[t]` in all eight lanes.
#[repr(C, align(32))]
struct BroadcastK([[u32; LANES]; 64]);

static K8: BroadcastK = BroadcastK({
    let mut k = [[0; LANES]; 64];
    let mut t = 0;
    while t < 64 {
        k[t] = [SHA256_K[t]; LANES];
        t += 1;
    }
    k
});

/// `K[t]` in all eight lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn k8(t: usize) -> __m256i {
    let k = &K8.0[t];
    // SAFETY: `k` is 32 readable bytes; unaligned load (the table is aligned anyway).
    unsafe { _mm256_loadu_si256(k.as_ptr().cast()) }
}

/// Words `4q..4q+4` of the eight states, one register per word.
#[inline]
#[target_feature(enable = "avx2")]
fn load_state_quarter(states: &[[u32; 8]; LANES], q: usize) -> [__m256i; 4] {
    transpose4(core::array::from_fn(|i| {
        let lo: &[u32; 4] = states[i][4 * q..4 * q + 4].try_into().expect("four words");
        let hi: &[u32; 4] = states[i + 4][4 * q..4 * q + 4]
            .try_into()
            .expect("four words");
        load_halves(lo, hi)
    }))
}

/// Words `4q..4q+4` of the eight states back from one register per word.
#[inline]
#[target_feature(enable = "avx2")]
fn store_state_quarter(states: &mut [[u32; 8]; LANES], q: usize, words: [__m256i; 4]) {
    let rows = transpose4(words);
    // Written out: a loop over `rows` leaves the array on the stack.
    let [s0, s1, s2, s3, s4, s5, s6, s7] = states;
    store_halves(rows[0], quarter(s0, q), quarter(s4, q));
    store_halves(rows[1], quarter(s1, q), quarter(s5, q));
    store_halves(rows[2], quarter(s2, q), quarter(s6, q));
    store_halves(rows[3], quarter(s3, q), quarter(s7, q));
}

/// Words `4q..4q+4` of a state.
fn quarter(state: &mut [u32; 8], q: usize) -> &mut [u32; 4] {
    (&mut state[4 * q..4 * q + 4])
        .try_into()
        .expect("four words")
}

/// The eight states, transposed: word `j` of every lane in register `j`.
#[inline]
#[target_feature(enable = "avx2")]
fn load_states(states: &[[u32; 8]; LANES]) -> [__m256i; 8] {
    let [a, b, c, d] = load_state_quarter(states, 0);
    let [e, f, g, h] = load_state_quarter(states, 1);
    [a, b, c, d, e, f, g, h]
}

/// The transposed states back to the row-major `states`.
#[inline]
#[target_feature(enable = "avx2")]
fn store_states(states: &mut [[u32; 8]; LANES], v: [__m256i; 8]) {
    let [a, b, c, d, e, f, g, h] = v;
    store_state_quarter(states, 0, [a, b, c, d]);
    store_state_quarter(states, 1, [e, f, g, h]);
}

/// The kernel's part of the lane workspace.
#[inline]
fn slots(ws: &mut LaneWorkspace) -> &mut [__m256i; SLOTS] {
    vector_slots(ws.words())
}

/// `a ^ b` from a local, which LLVM keeps in a register.
#[inline(always)]
fn carried(v: &__m256i) -> __m256i {
    *v
}

/// `x` rotated right by `n` bits in each lane (`m` = 32 - `n`).
macro_rules! rotr {
    ($x:expr, $n:literal, $m:literal) => {
        _mm256_or_si256(_mm256_srli_epi32::<$n>($x), _mm256_slli_epi32::<$m>($x))
    };
}

/// Σ0: `rotr2 ^ rotr13 ^ rotr22`.
#[inline]
#[target_feature(enable = "avx2")]
fn big_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 2, 30), rotr!(x, 13, 19)),
        rotr!(x, 22, 10),
    )
}

/// Σ1: `rotr6 ^ rotr11 ^ rotr25`.
#[inline]
#[target_feature(enable = "avx2")]
fn big_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 6, 26), rotr!(x, 11, 21)),
        rotr!(x, 25, 7),
    )
}

/// σ0: `rotr7 ^ rotr18 ^ (x >> 3)`.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 7, 25), rotr!(x, 18, 14)),
        _mm256_srli_epi32::<3>(x),
    )
}

/// σ1: `rotr17 ^ rotr19 ^ (x >> 10)`.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 17, 15), rotr!(x, 19, 13)),
        _mm256_srli_epi32::<10>(x),
    )
}

/// `w[t] + K[t]` of a message word already in the schedule.
macro_rules! wk_load {
    ($w:ident, $t:expr) => {{
        let t = $t;
        _mm256_add_epi32(reload(&$w[t]), k8(t))
    }};
}

/// `w[t]` expanded from the schedule and stored into it; `w[t] + K[t]`.
macro_rules! wk_expand {
    ($w:ident, $t:expr) => {{
        let t = $t;
        let x = _mm256_add_epi32(
            _mm256_add_epi32(small_sigma1(reload(&$w[t - 2])), reload(&$w[t - 7])),
            _mm256_add_epi32(small_sigma0(reload(&$w[t - 15])), reload(&$w[t - 16])),
        );
        $w[t] = x;
        _mm256_add_epi32(x, k8(t))
    }};
}

/// `w[t] + K[t]` of the constant schedule, broadcast: `w[t]` broadcast straight from memory
/// (a load, where the sum of two scalars needs a move to a vector register and a shuffle).
macro_rules! wk_constant {
    ($w:ident, $t:expr) => {{
        let t = $t;
        _mm256_add_epi32(_mm256_set1_epi32($w[t] as i32), k8(t))
    }};
}

/// One round with the roles given by the caller, `k + w` in `$wk`; `a ^ b` goes to `$ab` for
/// the next round (where it is `b ^ c`), which reads it with `$get`: a workspace slot and
/// [`reload`] where the schedule expansion needs the registers (in a register, LLVM spilled
/// it to the stack), a local and [`carried`] in the constant entry.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $ab:ident, $get:ident, $wk:expr) => {
        // `h + w + K` before `ch`: the other order has LLVM compute `ch`, then expand the
        // schedule word with `ch` waiting in a spill slot (one per round, in the stack).
        let hwk = _mm256_add_epi32($h, $wk);
        let ch = _mm256_xor_si256(_mm256_and_si256($e, $f), _mm256_andnot_si256($e, $g));
        let t1 = _mm256_add_epi32(_mm256_add_epi32(hwk, ch), big_sigma1($e));
        $d = _mm256_add_epi32($d, t1);
        let ab = _mm256_xor_si256($a, $b);
        let maj = _mm256_xor_si256($b, _mm256_and_si256(ab, $get($ab)));
        *$ab = ab;
        $h = _mm256_add_epi32(_mm256_add_epi32(t1, big_sigma0($a)), maj);
    };
}

/// Rounds `$t..$t + 8`, `k + w` from `$wk!($w, t)`; the roles rotate once around.
macro_rules! eight_rounds {
    ([$a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident],
     $ab:ident, $get:ident, $wk:ident, $w:ident, $t:expr) => {
        let t = $t;
        round!($a, $b, $c, $d, $e, $f, $g, $h, $ab, $get, $wk!($w, t));
        round!($h, $a, $b, $c, $d, $e, $f, $g, $ab, $get, $wk!($w, t + 1));
        round!($g, $h, $a, $b, $c, $d, $e, $f, $ab, $get, $wk!($w, t + 2));
        round!($f, $g, $h, $a, $b, $c, $d, $e, $ab, $get, $wk!($w, t + 3));
        round!($e, $f, $g, $h, $a, $b, $c, $d, $ab, $get, $wk!($w, t + 4));
        round!($d, $e, $f, $g, $h, $a, $b, $c, $ab, $get, $wk!($w, t + 5));
        round!($c, $d, $e, $f, $g, $h, $a, $b, $ab, $get, $wk!($w, t + 6));
        round!($b, $c, $d, $e, $f, $g, $h, $a, $ab, $get, $wk!($w, t + 7));
    };
}

multisha_contract::declare_variant! {
    /// The `avx2-x8` SHA-256 many-message variant.
    pub static VARIANT: Sha256Compression = {
        name: "avx2-x8",
        description: "eight messages at once, one per 32-bit lane of AVX2 registers; transposed schedules and block-start states in the lane workspace",
        schedule: LaneWorkspace,
        requires: ["avx2"],
        lanes: 8,
        cost: { setup: 194.0, call: 7.0, step: 428.0, message: 13.0, ragged: 22.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the eight lanes, block by block in step;
    /// the schedule and the block's starting chaining value live in `w`.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 8]], blocks: &[&[[u8; 64]]], w: &mut LaneWorkspace) {
        let states: &mut [[u32; 8]; LANES] =
            states.try_into().expect("avx2-x8 takes eight lanes");
        let (blocks, n) = equal_lanes::<Block, LANES>(blocks);
        let (saved, rest) = slots(w).split_at_mut(SAVED);
        let saved: &mut [__m256i; SAVED] = saved.try_into().expect("eight vectors");
        let (w, ab) = rest.split_at_mut(64);
        let w: &mut [__m256i; 64] = w.try_into().expect("the schedule");
        let ab = &mut ab[0];
        // The chaining value lives in the workspace between blocks (in registers it would
        // leave the rounds too few), read after the message is in place.
        *saved = load_states(states);
        for j in 0..n {
            load_message(blocks, j, w);
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] =
                saved.each_ref().map(|x| reload(x));
            *ab = _mm256_xor_si256(b, c);
            for i in 0..2 {
                eight_rounds!([a, b, c, d, e, f, g, h], ab, reload, wk_load, w, 8 * i);
            }
            for i in 2..8 {
                eight_rounds!([a, b, c, d, e, f, g, h], ab, reload, wk_expand, w, 8 * i);
            }
            for (slot, x) in saved.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                *slot = _mm256_add_epi32(x, reload(slot));
            }
        }
        store_states(states, saved.each_ref().map(|x| reload(x)));
    }
    /// One compression of the eight lanes on the expanded schedule `w[0..64]`, broadcast; the
    /// starting chaining value waits in `ws` for the feed-forward.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 8]], w: &[u32], ws: &mut LaneWorkspace) {
        let states: &mut [[u32; 8]; LANES] =
            states.try_into().expect("avx2-x8 takes eight lanes");
        let w: &[u32; 64] = w.try_into().expect("a 64-word schedule");
        let saved: &mut [__m256i; SAVED] =
            (&mut slots(ws)[..SAVED]).try_into().expect("eight vectors");
        // Kept in registers (or read from `states` again, which LLVM merges with the first
        // read), the chaining value would be spilled to this function's stack.
        *saved = load_states(states);
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] =
            saved.each_ref().map(|x| reload(x));
        // Without the schedule expansion the registers suffice: `a ^ b` stays in one.
        let mut ab_register = _mm256_xor_si256(b, c);
        let ab = &mut ab_register;
        for i in 0..8 {
            eight_rounds!([a, b, c, d, e, f, g, h], ab, carried, wk_constant, w, 8 * i);
        }
        for (slot, x) in saved.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *slot = _mm256_add_epi32(x, reload(slot));
        }
        store_states(states, saved.each_ref().map(|x| reload(x)));
    }
}
