//! SHA-512 of sixteen messages at once with AVX-512: two groups of eight lanes in
//! `sha512_avx512_x8`'s layout (one 64-bit word of every lane of a group per `zmm` register),
//! their rounds interleaved one by one.
//!
//! * Why: as for `sha256_avx512_x32`, a group's round is one dependency chain; a core that
//!   runs 512-bit operations at full width on four pipes finishes a round's operations faster
//!   than the chain allows, and the second group's round fills the slots the first leaves
//!   idle. On a Zen 4 it measured 0.99-1.07 times `avx512-x8`'s speed; the planner compares
//!   the kernels' measured costs and picks it only where it is faster.
//! * The two working states are sixteen registers; each group's ring of sixteen schedule words
//!   lives in the lane workspace (`avx512_groups`). Nothing message-derived goes to the stack.
//! * Each group's message transpose, its block-input state kept transposed in `states`, the
//!   round and the SHA-2 functions are `sha512_avx512_x8`'s (and `sha256_avx512_x16`'s, on
//!   64-bit words).
//! * The constant entry runs both groups' 80 rounds on the broadcast `w[t] + K[t]`; the input
//!   states wait transposed in `states` for the feed-forward.

use core::arch::x86_64::{__m512i, _mm512_add_epi64, _mm512_set1_epi64};
use multisha_contract::{SHA512_K, Sha512Compression, equal_lanes};

use crate::avx512_groups::{get, put, ring_words, rings, rounds16x2, sha2_next_word};
use crate::sha256_avx512_x16::round;
use crate::sha512_avx512_x8::{
    self as x8, add, big_sigma0, big_sigma1, ch, k, load_message, maj, reload_states, small_sigma0,
    small_sigma1, store_states, transpose8,
};

type LaneWorkspace = <Sha512Compression as multisha_contract::Compression>::LaneWorkspace;

/// Lanes of this kernel: two groups.
const LANES: usize = 2 * GROUP;

/// Lanes of a group.
const GROUP: usize = x8::LANES;

const _: () = assert!(
    LaneWorkspace::LEN >= ring_words::<u64>(),
    "the lane workspace is too small for this kernel"
);

sha2_next_word!();

/// Adds the block-input state kept transposed in `states` (one group) to the working state
/// `out` (`[a..h]`) and stores the sum there, transposed.
#[inline]
#[target_feature(enable = "avx512f")]
fn feed_forward(states: &mut [[u64; 8]], out: [__m512i; 8]) {
    let input = reload_states(states);
    let sum = core::array::from_fn(|j| _mm512_add_epi64(out[j], input[j]));
    store_states(states, &sum);
}

/// Transposes a group's row-major states in place (to one register per word; its own
/// inverse).
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose_states(states: &mut [[u64; 8]]) {
    let mut v = reload_states(states);
    transpose8(&mut v);
    store_states(states, &v);
}

/// The two groups of `blocks` (sixteen lanes) as arrays of eight.
#[allow(clippy::type_complexity)]
fn groups<'a>(
    blocks: &'a [&'a [[u8; 128]]; LANES],
) -> (&'a [&'a [[u8; 128]]; GROUP], &'a [&'a [[u8; 128]]; GROUP]) {
    let (groups, _) = blocks.as_chunks::<GROUP>();
    (&groups[0], &groups[1])
}

multisha_contract::declare_variant! {
    /// The `avx512-x16` SHA-512 many-message variant.
    pub static VARIANT: Sha512Compression = {
        name: "avx512-x16",
        description: "sixteen messages at once: two groups of eight zmm lanes, their rounds interleaved for cores that run 512-bit operations at full width; the schedules in the lane workspace",
        schedule: LaneWorkspace,
        requires: ["avx512f", "avx512bw"],
        lanes: 16,
        cost: { setup: 320.0, call: 0.0, step: 860.0, message: 25.0, ragged: 25.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the sixteen lanes, block by block in step:
    /// lanes 0..8 are the first group, 8..16 the second.
    #[inline(never)]
    pub fn compress(states: &mut [[u64; 8]], blocks: &[&[[u8; 128]]], ws: &mut LaneWorkspace) {
        let (blocks, n) = equal_lanes::<_, LANES>(blocks);
        let (first, second) = groups(blocks);
        let (s0, s1) = states.split_at_mut(GROUP);
        transpose_states(s0);
        transpose_states(s1);
        let rings = rings(ws);
        for i in 0..n {
            // Each group's two newest schedule words, `w[t - 2]` and `w[t - 1]`, in registers.
            let words = load_message!(first, i);
            let (mut back2_0, mut back1_0) = (words[14], words[15]);
            for (slot, x) in rings[0].iter_mut().zip(words) {
                put(slot, x);
            }
            let words = load_message!(second, i);
            let (mut back2_1, mut back1_1) = (words[14], words[15]);
            for (slot, x) in rings[1].iter_mut().zip(words) {
                put(slot, x);
            }
            let [mut a0, mut b0, mut c0, mut d0, mut e0, mut f0, mut g0, mut h0] =
                reload_states(s0);
            let [mut a1, mut b1, mut c1, mut d1, mut e1, mut f1, mut g1, mut h1] =
                reload_states(s1);
            macro_rules! kw_load {
                ($g:literal, $i:expr) => {
                    _mm512_add_epi64(get(&rings[$g][$i]), k($i))
                };
            }
            rounds16x2!(
                kw_load,
                [a0, b0, c0, d0, e0, f0, g0, h0],
                [a1, b1, c1, d1, e1, f1, g1, h1]
            );
            for group in 1..5 {
                macro_rules! kw_schedule {
                    (0, $i:expr) => {{
                        let w = next_word(&mut rings[0], $i, back2_0);
                        (back2_0, back1_0) = (back1_0, w);
                        _mm512_add_epi64(w, k(16 * group + $i))
                    }};
                    (1, $i:expr) => {{
                        let w = next_word(&mut rings[1], $i, back2_1);
                        (back2_1, back1_1) = (back1_1, w);
                        _mm512_add_epi64(w, k(16 * group + $i))
                    }};
                }
                rounds16x2!(
                    kw_schedule,
                    [a0, b0, c0, d0, e0, f0, g0, h0],
                    [a1, b1, c1, d1, e1, f1, g1, h1]
                );
            }
            feed_forward(s0, [a0, b0, c0, d0, e0, f0, g0, h0]);
            feed_forward(s1, [a1, b1, c1, d1, e1, f1, g1, h1]);
        }
        transpose_states(s0);
        transpose_states(s1);
    }
    /// One compression of every lane on the expanded schedule `w[0..80]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u64; 8]], w: &[u64], _ws: &mut LaneWorkspace) {
        let w: &[u64; 80] = w.try_into().expect("an 80-word schedule");
        assert_eq!(states.len(), LANES, "avx512-x16 takes sixteen lanes");
        let (s0, s1) = states.split_at_mut(GROUP);
        transpose_states(s0);
        transpose_states(s1);
        let [mut a0, mut b0, mut c0, mut d0, mut e0, mut f0, mut g0, mut h0] = reload_states(s0);
        let [mut a1, mut b1, mut c1, mut d1, mut e1, mut f1, mut g1, mut h1] = reload_states(s1);
        for group in 0..5 {
            macro_rules! kw_constant {
                ($g:literal, $i:expr) => {
                    _mm512_set1_epi64(
                        w[16 * group + $i].wrapping_add(SHA512_K[16 * group + $i]) as i64,
                    )
                };
            }
            rounds16x2!(
                kw_constant,
                [a0, b0, c0, d0, e0, f0, g0, h0],
                [a1, b1, c1, d1, e1, f1, g1, h1]
            );
        }
        feed_forward(s0, [a0, b0, c0, d0, e0, f0, g0, h0]);
        feed_forward(s1, [a1, b1, c1, d1, e1, f1, g1, h1]);
        transpose_states(s0);
        transpose_states(s1);
    }
}
