//! SHA-1 of eight messages at once with AVX2: one message per 32-bit lane of a `ymm`
//! register.
//!
//! Each of the five working variables `a..e` is one register holding that word of all eight
//! lanes, so a round is the scalar round written with vector operations, on eight messages (as
//! OpenSSL's `sha1-mb-x86_64` AVX2 path does). AVX2 has no vector rotate: the two rotations of
//! a round and the one of a schedule word are two shifts and an `or` each. On Zen 4 this is
//! about 0.95 cycles per byte, twice one stream of SHA-NI `sha1rnds4`.
//!
//! Design:
//! * The row-major states are transposed on entry and back on exit: words `a..d` with the
//!   4 × 4 transpose of `unpack{lo,hi}_epi{32,64}` within each 128-bit half (lane `i` in the
//!   low half and lane `i + 4` in the high half of a row, so nothing crosses halves), `e`
//!   inserted and extracted one lane at a time.
//! * Per block, the 16 message words of the eight lanes are transposed the same way (rows
//!   built from two 16-byte loads) and byte-swapped with `vpshufb`.
//! * The 80 schedule words of every lane (`W`, not `W + K`) and the chaining value live in the
//!   lane workspace, 32-byte aligned, which the scheduler wipes once per batch; registers hold
//!   the working variables, `K` and temporaries. Words 16..80 are expanded inside the rounds
//!   that use them, so that independent work fills the gaps of the rounds' dependency chain.
//! * The chaining value, the message words and the schedule words the first 20 rounds read are
//!   read back with volatile loads: from plain ones LLVM forwards the values it has just
//!   stored, keeps them in registers and spills them to the stack. Later rounds read plainly,
//!   which lets the loads fold into `vpxor` (volatile there costs 5%).
//! * `ch` is `(b & c) ^ (!b & d)` and the majority `(b & c) ^ (d & (b ^ c))`: two independent
//!   operations before the last, not a chain of three.
//!
//! The constant entry runs the rounds alone, on `w[t] + K` broadcast to every lane.

use crate::avx2_lanes::{
    LANES, load_halves, load_message, reload, store_halves, transpose4, vector_slots,
};
use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_extract_epi32,
    _mm256_or_si256, _mm256_set1_epi32, _mm256_setr_epi32, _mm256_slli_epi32, _mm256_srli_epi32,
    _mm256_xor_si256,
};
use multisha_contract::{Block64 as Block, Compression, SHA1_K, Sha1Compression, equal_lanes};

type LaneWorkspace = <Sha1Compression as Compression>::LaneWorkspace;
const _: () = assert!(
    SLOTS * LANES <= LaneWorkspace::LEN,
    "the lane workspace is too small for this kernel"
);

/// Vectors of eight words the kernel keeps in the lane workspace: the chaining value at the
/// start of the block (5), then the schedule (80).
const SAVED: usize = 5;
const SLOTS: usize = SAVED + 80;

/// Words `a..d` of a state.
fn abcd(state: &[u32; 5]) -> &[u32; 4] {
    state[..4].try_into().expect("four words")
}

/// Words `a..d` of a state, for writing.
fn abcd_mut(state: &mut [u32; 5]) -> &mut [u32; 4] {
    (&mut state[..4]).try_into().expect("four words")
}

/// The eight states, transposed: word `j` of every lane in register `j`.
#[inline]
#[target_feature(enable = "avx2")]
fn load_states(states: &[[u32; 5]; LANES]) -> [__m256i; 5] {
    let [a, b, c, d] = transpose4(core::array::from_fn(|i| {
        load_halves(abcd(&states[i]), abcd(&states[i + 4]))
    }));
    let e = _mm256_setr_epi32(
        states[0][4] as i32,
        states[1][4] as i32,
        states[2][4] as i32,
        states[3][4] as i32,
        states[4][4] as i32,
        states[5][4] as i32,
        states[6][4] as i32,
        states[7][4] as i32,
    );
    [a, b, c, d, e]
}

/// The transposed states back to the row-major `states`.
#[inline]
#[target_feature(enable = "avx2")]
fn store_states(states: &mut [[u32; 5]; LANES], v: [__m256i; 5]) {
    let [a, b, c, d, e] = v;
    let rows = transpose4([a, b, c, d]);
    // Written out: a loop over `rows` leaves the array on the stack.
    let [s0, s1, s2, s3, s4, s5, s6, s7] = states;
    store_halves(rows[0], abcd_mut(s0), abcd_mut(s4));
    store_halves(rows[1], abcd_mut(s1), abcd_mut(s5));
    store_halves(rows[2], abcd_mut(s2), abcd_mut(s6));
    store_halves(rows[3], abcd_mut(s3), abcd_mut(s7));
    s0[4] = _mm256_extract_epi32::<0>(e) as u32;
    s1[4] = _mm256_extract_epi32::<1>(e) as u32;
    s2[4] = _mm256_extract_epi32::<2>(e) as u32;
    s3[4] = _mm256_extract_epi32::<3>(e) as u32;
    s4[4] = _mm256_extract_epi32::<4>(e) as u32;
    s5[4] = _mm256_extract_epi32::<5>(e) as u32;
    s6[4] = _mm256_extract_epi32::<6>(e) as u32;
    s7[4] = _mm256_extract_epi32::<7>(e) as u32;
}

/// The kernel's part of the lane workspace.
#[inline]
fn slots(ws: &mut LaneWorkspace) -> &mut [__m256i; SLOTS] {
    vector_slots(ws.words())
}

/// `x` rotated left by `n` bits in each lane (`m` = 32 - `n`).
macro_rules! rotl {
    ($x:expr, $n:literal, $m:literal) => {
        _mm256_or_si256(_mm256_slli_epi32::<$n>($x), _mm256_srli_epi32::<$m>($x))
    };
}

/// The round function of rounds 0..20: `(b & c) ^ (!b & d)`.
macro_rules! ch {
    ($b:ident, $c:ident, $d:ident) => {
        _mm256_xor_si256(_mm256_and_si256($b, $c), _mm256_andnot_si256($b, $d))
    };
}

/// The round function of rounds 20..40 and 60..80: `b ^ c ^ d`.
macro_rules! parity {
    ($b:ident, $c:ident, $d:ident) => {
        _mm256_xor_si256(_mm256_xor_si256($b, $c), $d)
    };
}

/// The round function of rounds 40..60: `(b & c) ^ (d & (b ^ c))`.
macro_rules! maj {
    ($b:ident, $c:ident, $d:ident) => {
        _mm256_xor_si256(
            _mm256_and_si256($b, $c),
            _mm256_and_si256($d, _mm256_xor_si256($b, $c)),
        )
    };
}

/// `w[t] + k` of a message word already in the schedule.
macro_rules! wk_load {
    ($w:ident, $t:expr, $k:expr) => {
        _mm256_add_epi32(reload(&$w[$t]), $k)
    };
}

/// `w[t]` expanded from the schedule and stored into it; `w[t] + k`. Reads with `$read`:
/// `reload` in the rounds right after the message load, `Clone::clone` (a plain read) elsewhere.
macro_rules! wk_expand {
    ($w:ident, $t:expr, $k:expr) => {
        wk_expand!($w, $t, $k, Clone::clone)
    };
    ($w:ident, $t:expr, $k:expr, $read:path) => {{
        let t = $t;
        let x = _mm256_xor_si256(
            _mm256_xor_si256($read(&$w[t - 3]), $read(&$w[t - 8])),
            _mm256_xor_si256($read(&$w[t - 14]), $read(&$w[t - 16])),
        );
        let x = rotl!(x, 1, 31);
        $w[t] = x;
        _mm256_add_epi32(x, $k)
    }};
}

/// `w[t] + k` of the constant schedule: `w[t]` broadcast straight from memory (a load, where
/// the sum of two scalars needs a move to a vector register and a shuffle).
macro_rules! wk_constant {
    ($w:ident, $t:expr, $k:expr) => {
        _mm256_add_epi32(_mm256_set1_epi32($w[$t] as i32), $k)
    };
}

/// One round with the roles given by the caller: `e += rotl5(a) + f(b, c, d) + (w + k)`,
/// `b = rotl30(b)`.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $wk:expr) => {
        $e = _mm256_add_epi32(
            _mm256_add_epi32(_mm256_add_epi32($e, $wk), $f!($b, $c, $d)),
            rotl!($a, 5, 27),
        );
        $b = rotl!($b, 30, 2);
    };
}

/// Rounds `$t..$t + 5` with round function `$f`, `w + k` from `$wk!($w, t, $k)`; the roles
/// rotate once around.
macro_rules! five_rounds {
    ([$a:ident, $b:ident, $c:ident, $d:ident, $e:ident], $f:ident, $wk:ident, $w:ident,
     $t:expr, $k:expr) => {
        let t = $t;
        round!($a, $b, $c, $d, $e, $f, $wk!($w, t, $k));
        round!($e, $a, $b, $c, $d, $f, $wk!($w, t + 1, $k));
        round!($d, $e, $a, $b, $c, $f, $wk!($w, t + 2, $k));
        round!($c, $d, $e, $a, $b, $f, $wk!($w, t + 3, $k));
        round!($b, $c, $d, $e, $a, $f, $wk!($w, t + 4, $k));
    };
}

multisha_contract::declare_variant! {
    /// The `avx2-x8` SHA-1 many-message variant.
    pub static VARIANT: Sha1Compression = {
        name: "avx2-x8",
        description: "eight messages at once, one per 32-bit lane of AVX2 registers; transposed schedules and block-start states in the lane workspace",
        schedule: LaneWorkspace,
        requires: ["avx2"],
        lanes: 8,
        cost: { setup: 204.0, call: 0.0, step: 200.0, message: 14.0, ragged: 20.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the eight lanes, block by block in step;
    /// the schedule and the block's starting chaining value live in `w`.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 5]], blocks: &[&[[u8; 64]]], w: &mut LaneWorkspace) {
        let states: &mut [[u32; 5]; LANES] =
            states.try_into().expect("avx2-x8 takes eight lanes");
        let (blocks, n) = equal_lanes::<Block, LANES>(blocks);
        let (saved, w) = slots(w).split_at_mut(SAVED);
        let saved: &mut [__m256i; SAVED] = saved.try_into().expect("five vectors");
        let w: &mut [__m256i; 80] = w.try_into().expect("the schedule");
        let k = SHA1_K.map(|k| _mm256_set1_epi32(k as i32));
        // The chaining value lives in the workspace between blocks (in registers it would
        // leave the rounds too few), read after the message is in place.
        *saved = load_states(states);
        for j in 0..n {
            load_message(blocks, j, w);
            let [mut a, mut b, mut c, mut d, mut e] = saved.each_ref().map(|x| reload(x));
            for i in 0..3 {
                five_rounds!([a, b, c, d, e], ch, wk_load, w, 5 * i, k[0]);
            }
            round!(a, b, c, d, e, ch, wk_load!(w, 15, k[0]));
            round!(e, a, b, c, d, ch, wk_expand!(w, 16, k[0], reload));
            round!(d, e, a, b, c, ch, wk_expand!(w, 17, k[0], reload));
            round!(c, d, e, a, b, ch, wk_expand!(w, 18, k[0], reload));
            round!(b, c, d, e, a, ch, wk_expand!(w, 19, k[0], reload));
            for i in 4..8 {
                five_rounds!([a, b, c, d, e], parity, wk_expand, w, 5 * i, k[1]);
            }
            for i in 8..12 {
                five_rounds!([a, b, c, d, e], maj, wk_expand, w, 5 * i, k[2]);
            }
            for i in 12..16 {
                five_rounds!([a, b, c, d, e], parity, wk_expand, w, 5 * i, k[3]);
            }
            for (slot, x) in saved.iter_mut().zip([a, b, c, d, e]) {
                *slot = _mm256_add_epi32(x, reload(slot));
            }
        }
        store_states(states, saved.each_ref().map(|x| reload(x)));
    }
    /// One compression of the eight lanes on the expanded schedule `w[0..80]`, broadcast; the
    /// starting chaining value waits in `ws` for the feed-forward.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 5]], w: &[u32], ws: &mut LaneWorkspace) {
        let states: &mut [[u32; 5]; LANES] =
            states.try_into().expect("avx2-x8 takes eight lanes");
        let w: &[u32; 80] = w.try_into().expect("an 80-word schedule");
        let saved: &mut [__m256i; SAVED] =
            (&mut slots(ws)[..SAVED]).try_into().expect("five vectors");
        let k = SHA1_K.map(|k| _mm256_set1_epi32(k as i32));
        // As in `compress`: in memory, not in registers next to the working variables.
        *saved = load_states(states);
        let [mut a, mut b, mut c, mut d, mut e] = saved.each_ref().map(|x| reload(x));
        for i in 0..4 {
            five_rounds!([a, b, c, d, e], ch, wk_constant, w, 5 * i, k[0]);
        }
        for i in 4..8 {
            five_rounds!([a, b, c, d, e], parity, wk_constant, w, 5 * i, k[1]);
        }
        for i in 8..12 {
            five_rounds!([a, b, c, d, e], maj, wk_constant, w, 5 * i, k[2]);
        }
        for i in 12..16 {
            five_rounds!([a, b, c, d, e], parity, wk_constant, w, 5 * i, k[3]);
        }
        for (slot, x) in saved.iter_mut().zip([a, b, c, d, e]) {
            *slot = _mm256_add_epi32(x, reload(slot));
        }
        store_states(states, saved.each_ref().map(|x| reload(x)));
    }
}
