//! SHA-256 of two messages at once on the AArch64 SHA-256 instructions (FEAT_SHA256, Rust
//! target feature `sha2`): two independent streams interleaved.
//!
//! One stream waits on each `SHA256H`/`SHA256H2` pair for the previous one (the state is its
//! own input), so a core that can run several at once idles; a second, independent message
//! fills the gaps (Linux's 2-way `sha256_ce_finup2x`: +65-70% on Cortex-X1/A76). Each stream
//! is `sha256_armv8`'s: the state in two vectors, a window of four schedule vectors; both
//! lanes share each group's round constants. Two states, two windows and the saved states take
//! sixteen of the 32 vector registers, so not all sixteen constant vectors fit beside them:
//! the compiler keeps twelve in registers for the call and reloads four per block from its
//! stack (constants only; the message stays in registers).
//!
//! The constant entry runs the rounds of both lanes on a given schedule (`w + k` computed once
//! per group for both lanes, no `SHA256SU0/1`).

use crate::neon_words::{load_u32x4, load_words};
use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vsha256h2q_u32, vsha256hq_u32, vsha256su0q_u32, vsha256su1q_u32,
    vst1q_u32,
};
use multisha_contract::{SHA256_K, Sha256Compression, equal_lanes};

type LaneWorkspace = <Sha256Compression as multisha_contract::Compression>::LaneWorkspace;

/// Stores a vector into four `u32`s.
#[inline(always)]
fn store_u32x4(words: &mut [u32], v: uint32x4_t) {
    let words: &mut [u32; 4] = words.try_into().expect("4 words");
    // SAFETY: `words` is four writable `u32`s, exactly what `vst1q_u32` writes; NEON is part
    // of the aarch64 baseline.
    unsafe { vst1q_u32(words.as_mut_ptr(), v) }
}

/// Four rounds of both streams with round constants `K[4i..4i+4]` and schedule words `$w0`
/// (stream 0) and `$w1` (stream 1).
macro_rules! quad_x2 {
    ($i:expr, $abcd:ident, $efgh:ident, $w0:expr, $w1:expr) => {
        let k = load_u32x4(&SHA256_K[4 * $i..4 * $i + 4]);
        let (wk0, wk1) = (vaddq_u32($w0, k), vaddq_u32($w1, k));
        let (abcd0, abcd1) = ($abcd[0], $abcd[1]);
        $abcd[0] = vsha256hq_u32(abcd0, $efgh[0], wk0);
        $abcd[1] = vsha256hq_u32(abcd1, $efgh[1], wk1);
        $efgh[0] = vsha256h2q_u32($efgh[0], abcd0, wk0);
        $efgh[1] = vsha256h2q_u32($efgh[1], abcd1, wk1);
    };
}

/// Replaces the oldest four schedule words (slot `$s0` of `$w`) with the words sixteen later,
/// from slots `$s1..$s3`.
macro_rules! schedule {
    ($w:ident, $s0:literal, $s1:literal, $s2:literal, $s3:literal) => {
        $w[$s0] = vsha256su1q_u32(vsha256su0q_u32($w[$s0], $w[$s1]), $w[$s2], $w[$s3]);
    };
}

/// Four rounds of both streams on slot `$s0` of their windows `$x` and `$y`; with `schedule`,
/// then the words of both streams four groups later in place of those.
macro_rules! step {
    ($i:expr, $abcd:ident, $efgh:ident, $x:ident, $y:ident,
     [$s0:literal $s1:literal $s2:literal $s3:literal] $(, $schedule:ident)?) => {
        quad_x2!($i, $abcd, $efgh, $x[$s0], $y[$s0]);
        $(
            $schedule!($x, $s0, $s1, $s2, $s3);
            $schedule!($y, $s0, $s1, $s2, $s3);
        )?
    };
}

multisha_contract::declare_variant! {
    /// The `armv8-x2` SHA-256 many-message variant.
    pub static VARIANT: Sha256Compression = {
        name: "armv8-x2",
        description: "two messages at once: two streams of SHA256H/H2 interleaved, states and schedules in registers",
        schedule: Registers,
        requires: ["sha2"],
        lanes: 2,
        cost: { setup: 120.0, call: 36.0, step: 48.0, message: 2.0, ragged: 4.0 },
    };
    /// Compresses `blocks[0]` into `states[0]` and `blocks[1]` into `states[1]`, block by
    /// block in step; `_ws` is not used.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 8]], blocks: &[&[[u8; 64]]], _ws: &mut LaneWorkspace) {
        let [s0, s1] = states else {
            panic!("armv8-x2 takes two lanes");
        };
        let (&[b0, b1], _) = equal_lanes::<_, 2>(blocks);
        let mut abcd = [load_u32x4(&s0[..4]), load_u32x4(&s1[..4])];
        let mut efgh = [load_u32x4(&s0[4..]), load_u32x4(&s1[4..])];
        for (block0, block1) in b0.iter().zip(b1.iter()) {
            let (abcd_in, efgh_in) = (abcd, efgh);
            let mut x: [uint32x4_t; 4] = core::array::from_fn(|i| load_words(block0, i));
            let mut y: [uint32x4_t; 4] = core::array::from_fn(|i| load_words(block1, i));
            // Rounds 0..48: after the group that used a window vector for the last time, the
            // schedule overwrites it with the words four groups later.
            for g in 0..3 {
                step!(4 * g, abcd, efgh, x, y, [0 1 2 3], schedule);
                step!(4 * g + 1, abcd, efgh, x, y, [1 2 3 0], schedule);
                step!(4 * g + 2, abcd, efgh, x, y, [2 3 0 1], schedule);
                step!(4 * g + 3, abcd, efgh, x, y, [3 0 1 2], schedule);
            }
            // Rounds 48..64 need no new schedule words.
            step!(12, abcd, efgh, x, y, [0 1 2 3]);
            step!(13, abcd, efgh, x, y, [1 2 3 0]);
            step!(14, abcd, efgh, x, y, [2 3 0 1]);
            step!(15, abcd, efgh, x, y, [3 0 1 2]);
            for i in 0..2 {
                abcd[i] = vaddq_u32(abcd[i], abcd_in[i]);
                efgh[i] = vaddq_u32(efgh[i], efgh_in[i]);
            }
        }
        for (state, (abcd, efgh)) in [s0, s1].into_iter().zip(abcd.into_iter().zip(efgh)) {
            let (lo, hi) = state.split_at_mut(4);
            store_u32x4(lo, abcd);
            store_u32x4(hi, efgh);
        }
    }
    /// One compression of both lanes on the expanded schedule `w[0..64]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 8]], w: &[u32], _ws: &mut LaneWorkspace) {
        let [s0, s1] = states else {
            panic!("armv8-x2 takes two lanes");
        };
        let w: &[u32; 64] = w.try_into().expect("a 64-word schedule");
        let abcd_in = [load_u32x4(&s0[..4]), load_u32x4(&s1[..4])];
        let efgh_in = [load_u32x4(&s0[4..]), load_u32x4(&s1[4..])];
        let (mut abcd, mut efgh) = (abcd_in, efgh_in);
        for (i, words) in w.chunks_exact(4).enumerate() {
            let v = load_u32x4(words);
            quad_x2!(i, abcd, efgh, v, v);
        }
        for (i, state) in [s0, s1].into_iter().enumerate() {
            let (lo, hi) = state.split_at_mut(4);
            store_u32x4(lo, vaddq_u32(abcd[i], abcd_in[i]));
            store_u32x4(hi, vaddq_u32(efgh[i], efgh_in[i]));
        }
    }
}
