//! SHA-1 of two messages at once on the AArch64 SHA-1 instructions (FEAT_SHA1, Rust target
//! feature `sha2`): two independent streams interleaved.
//!
//! One stream waits on each `SHA1C`/`SHA1P`/`SHA1M` for the previous one (`abcd` is its own
//! input), so a core that can run several at once idles; a second, independent message fills
//! the gaps, as Linux's 2-way SHA-256 does. Each stream is `sha1_armv8`'s: `abcd` in one
//! vector, `e` in a general register, a window of four schedule vectors; the four round
//! constants are shared.
//!
//! The constant entry runs the rounds of both lanes on a given schedule (`w + k` computed once
//! per group for both lanes, no `SHA1SU0/1`).

use crate::neon_words::load_words;
use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vdupq_n_u32, vgetq_lane_u32, vld1q_u32, vsha1cq_u32, vsha1h_u32,
    vsha1mq_u32, vsha1pq_u32, vsha1su0q_u32, vsha1su1q_u32, vst1q_u32,
};
use multisha_contract::{SHA1_K, Sha1Compression, equal_lanes};

type LaneWorkspace = <Sha1Compression as multisha_contract::Compression>::LaneWorkspace;

/// `abcd` and `e` of `state`.
#[inline(always)]
fn load_state(state: &[u32; 5]) -> (uint32x4_t, u32) {
    // SAFETY: `state` is five readable `u32`s, and `vld1q_u32` reads the first four; NEON is
    // part of the aarch64 baseline.
    (unsafe { vld1q_u32(state.as_ptr()) }, state[4])
}

/// `abcd` and `e` into `state`.
#[inline(always)]
fn store_state(state: &mut [u32; 5], abcd: uint32x4_t, e: u32) {
    // SAFETY: `state` is five writable `u32`s, and `vst1q_u32` writes the first four; NEON is
    // part of the aarch64 baseline.
    unsafe { vst1q_u32(state.as_mut_ptr(), abcd) };
    state[4] = e;
}

/// Four rounds of both streams: `abcd = op(abcd, e, w + k)`, and `e` becomes `rotl30` of the
/// old `a`; `$w0` and `$w1` are the words of stream 0 and 1.
macro_rules! quad_x2 {
    ($op:ident, $k:expr, $abcd:ident, $e:ident, $w0:expr, $w1:expr) => {
        let (wk0, wk1) = (vaddq_u32($w0, $k), vaddq_u32($w1, $k));
        let next_e = [
            vsha1h_u32(vgetq_lane_u32::<0>($abcd[0])),
            vsha1h_u32(vgetq_lane_u32::<0>($abcd[1])),
        ];
        $abcd[0] = $op($abcd[0], $e[0], wk0);
        $abcd[1] = $op($abcd[1], $e[1], wk1);
        $e = next_e;
    };
}

/// Replaces the oldest four schedule words (slot `$s0` of `$w`) with the words sixteen later,
/// from slots `$s1..$s3`.
macro_rules! schedule {
    ($w:ident, $s0:literal, $s1:literal, $s2:literal, $s3:literal) => {
        $w[$s0] = vsha1su1q_u32(vsha1su0q_u32($w[$s0], $w[$s1], $w[$s2]), $w[$s3]);
    };
}

/// No schedule step (the last four groups).
macro_rules! no_schedule {
    ($w:ident, $s0:literal, $s1:literal, $s2:literal, $s3:literal) => {};
}

/// Four rounds of both streams on slot `$s0` of their windows `$x` and `$y`, then `$schedule`
/// on both windows.
macro_rules! step {
    ($op:ident, $k:expr, $abcd:ident, $e:ident, $x:ident, $y:ident,
     [$s0:literal $s1:literal $s2:literal $s3:literal], $schedule:ident) => {
        quad_x2!($op, $k, $abcd, $e, $x[$s0], $y[$s0]);
        $schedule!($x, $s0, $s1, $s2, $s3);
        $schedule!($y, $s0, $s1, $s2, $s3);
    };
}

/// Five groups of four rounds of both streams with function `$op` and constant `$k`, starting
/// at window slot `$first`, each followed by its schedule step.
macro_rules! twenty {
    ($op:ident, $k:expr, $abcd:ident, $e:ident, $x:ident, $y:ident, $first:tt) => {
        twenty!(@from $first, $op, $k, $abcd, $e, $x, $y);
    };
    (@from 0, $($rest:tt)*) => {
        twenty!(@slots [[0 1 2 3] [1 2 3 0] [2 3 0 1] [3 0 1 2] [0 1 2 3]], $($rest)*);
    };
    (@from 1, $($rest:tt)*) => {
        twenty!(@slots [[1 2 3 0] [2 3 0 1] [3 0 1 2] [0 1 2 3] [1 2 3 0]], $($rest)*);
    };
    (@from 2, $($rest:tt)*) => {
        twenty!(@slots [[2 3 0 1] [3 0 1 2] [0 1 2 3] [1 2 3 0] [2 3 0 1]], $($rest)*);
    };
    (@from 3, $($rest:tt)*) => {
        twenty!(@slots [[3 0 1 2] [0 1 2 3] [1 2 3 0] [2 3 0 1] [3 0 1 2]], $($rest)*);
    };
    (@slots [$($slots:tt)*], $op:ident, $k:expr, $abcd:ident, $e:ident, $x:ident, $y:ident) => {
        $(step!($op, $k, $abcd, $e, $x, $y, $slots, schedule);)*
    };
}

multisha_contract::declare_variant! {
    /// The `armv8-x2` SHA-1 many-message variant.
    pub static VARIANT: Sha1Compression = {
        name: "armv8-x2",
        description: "two messages at once: two streams of SHA1C/P/M interleaved, states, constants and schedules in registers",
        schedule: Registers,
        requires: ["sha2"],
        lanes: 2,
        cost: { setup: 120.0, call: 36.0, step: 42.0, message: 2.0, ragged: 4.0 },
    };
    /// Compresses `blocks[0]` into `states[0]` and `blocks[1]` into `states[1]`, block by
    /// block in step; `_ws` is not used.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 5]], blocks: &[&[[u8; 64]]], _ws: &mut LaneWorkspace) {
        let [s0, s1] = states else {
            panic!("armv8-x2 takes two lanes");
        };
        let (&[b0, b1], _) = equal_lanes::<_, 2>(blocks);
        let k = SHA1_K.map(|k| vdupq_n_u32(k));
        let ((abcd0, e0), (abcd1, e1)) = (load_state(s0), load_state(s1));
        let (mut abcd, mut e) = ([abcd0, abcd1], [e0, e1]);
        for (block0, block1) in b0.iter().zip(b1.iter()) {
            let (abcd_in, e_in) = (abcd, e);
            let mut x: [uint32x4_t; 4] = core::array::from_fn(|i| load_words(block0, i));
            let mut y: [uint32x4_t; 4] = core::array::from_fn(|i| load_words(block1, i));
            // After the group that used a window vector for the last time, the schedule
            // overwrites it with the words four groups later; the last four groups need no
            // new words.
            twenty!(vsha1cq_u32, k[0], abcd, e, x, y, 0);
            twenty!(vsha1pq_u32, k[1], abcd, e, x, y, 1);
            twenty!(vsha1mq_u32, k[2], abcd, e, x, y, 2);
            step!(vsha1pq_u32, k[3], abcd, e, x, y, [3 0 1 2], schedule);
            step!(vsha1pq_u32, k[3], abcd, e, x, y, [0 1 2 3], no_schedule);
            step!(vsha1pq_u32, k[3], abcd, e, x, y, [1 2 3 0], no_schedule);
            step!(vsha1pq_u32, k[3], abcd, e, x, y, [2 3 0 1], no_schedule);
            step!(vsha1pq_u32, k[3], abcd, e, x, y, [3 0 1 2], no_schedule);
            for i in 0..2 {
                abcd[i] = vaddq_u32(abcd[i], abcd_in[i]);
                e[i] = e[i].wrapping_add(e_in[i]);
            }
        }
        store_state(s0, abcd[0], e[0]);
        store_state(s1, abcd[1], e[1]);
    }
    /// One compression of both lanes on the expanded schedule `w[0..80]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 5]], w: &[u32], _ws: &mut LaneWorkspace) {
        let [s0, s1] = states else {
            panic!("armv8-x2 takes two lanes");
        };
        let w: &[u32; 80] = w.try_into().expect("an 80-word schedule");
        let ((abcd0, e0), (abcd1, e1)) = (load_state(s0), load_state(s1));
        let (abcd_in, e_in) = ([abcd0, abcd1], [e0, e1]);
        let (mut abcd, mut e) = (abcd_in, e_in);
        for (i, words) in w.chunks_exact(4).enumerate() {
            let words: &[u32; 4] = words.try_into().expect("4 words");
            // SAFETY: `words` is four readable `u32`s, exactly what `vld1q_u32` reads; NEON is
            // part of the aarch64 baseline.
            let v = unsafe { vld1q_u32(words.as_ptr()) };
            let k = vdupq_n_u32(SHA1_K[i / 5]);
            match i / 5 {
                0 => {
                    quad_x2!(vsha1cq_u32, k, abcd, e, v, v);
                }
                2 => {
                    quad_x2!(vsha1mq_u32, k, abcd, e, v, v);
                }
                _ => {
                    quad_x2!(vsha1pq_u32, k, abcd, e, v, v);
                }
            }
        }
        store_state(s0, vaddq_u32(abcd[0], abcd_in[0]), e[0].wrapping_add(e_in[0]));
        store_state(s1, vaddq_u32(abcd[1], abcd_in[1]), e[1].wrapping_add(e_in[1]));
    }
}
