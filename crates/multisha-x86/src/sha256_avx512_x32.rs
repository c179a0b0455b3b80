//! SHA-256 of thirty-two messages at once with AVX-512: two groups of sixteen lanes in
//! `sha256_avx512_x16`'s layout (one 32-bit word of every lane of a group per `zmm` register),
//! their rounds interleaved one by one.
//!
//! * Why: a group's round is one dependency chain (`e` to `e`, `a` to `a`). A core that runs
//!   512-bit operations at full width on four pipes (AMD Zen 5) finishes a round's ~25
//!   operations faster than the chain allows, and the second group's round fills the slots the
//!   first leaves idle (tape-sha256 reports 12.7 against 14.6 µs there for its `avx512-2x16`).
//!   Even on a Zen 4, which runs 512-bit operations as two halves, it measured 1.01-1.07 times
//!   `avx512-x16`'s speed on long messages and 1.09-1.18 on 64-byte ones (the constant entry's
//!   rounds, no schedule, are the most chain-bound). Where it does not pay (port-bound Intel
//!   cores, say) the planner, which compares the kernels' measured costs, leaves it out.
//! * The two working states are sixteen registers; the two schedules do not fit beside them,
//!   so each group's ring of sixteen schedule words lives in the lane workspace
//!   (`avx512_groups`). Nothing message-derived goes to the stack.
//! * Each group's message transpose, its block-input state kept transposed in `states`, the
//!   round and the SHA-2 functions are `sha256_avx512_x16`'s.
//! * The constant entry runs both groups' 64 rounds on the broadcast `w[t] + K[t]`; the input
//!   states wait transposed in `states` for the feed-forward (in registers, with the working
//!   states, they would be 32).

use core::arch::x86_64::{__m512i, _mm512_add_epi32, _mm512_set1_epi32};
use multisha_contract::{SHA256_K, Sha256Compression, equal_lanes};

use crate::avx512_groups::{GROUP, LANES, RING_WORDS, get, put, rings, rounds16x2, sha2_next_word};
use crate::sha256_avx512_x16::{
    add, big_sigma0, big_sigma1, ch, from_words, k, load_message, load_states, maj, named,
    reload_states, round, small_sigma0, small_sigma1, store_states, to_words, unnamed,
};

type LaneWorkspace = <Sha256Compression as multisha_contract::Compression>::LaneWorkspace;

const _: () = assert!(
    LaneWorkspace::LEN >= RING_WORDS,
    "the lane workspace is too small for this kernel"
);

sha2_next_word!();

/// Adds the block-input state kept transposed in `states` (one group) to the working state
/// `out` (`[a..h]`) and stores the sum there, transposed.
#[inline]
#[target_feature(enable = "avx512f")]
fn feed_forward(states: &mut [[u32; 8]], out: [__m512i; 8]) {
    let input = named(&reload_states(states));
    let sum = core::array::from_fn(|j| _mm512_add_epi32(out[j], input[j]));
    store_states(states, &unnamed(&sum));
}

/// Transposes a group's row-major states in place (to one register per word).
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose_in(states: &mut [[u32; 8]]) {
    let mut v = load_states(states);
    to_words(&mut v);
    store_states(states, &v);
}

/// The inverse of [`transpose_in`].
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose_out(states: &mut [[u32; 8]]) {
    let mut v = reload_states(states);
    from_words(&mut v);
    store_states(states, &v);
}

multisha_contract::declare_variant! {
    /// The `avx512-x32` SHA-256 many-message variant.
    pub static VARIANT: Sha256Compression = {
        name: "avx512-x32",
        description: "thirty-two messages at once: two groups of sixteen zmm lanes, their rounds interleaved for cores that run 512-bit operations at full width; the schedules in the lane workspace",
        schedule: LaneWorkspace,
        requires: ["avx512f", "avx512bw"],
        lanes: 32,
        cost: { setup: 300.0, call: 0.0, step: 720.0, message: 14.0, ragged: 22.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the thirty-two lanes, block by block in
    /// step: lanes 0..16 are the first group, 16..32 the second.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 8]], blocks: &[&[[u8; 64]]], ws: &mut LaneWorkspace) {
        let (blocks, n) = equal_lanes::<_, LANES>(blocks);
        let (first, second) = blocks.split_at(GROUP);
        let (s0, s1) = states.split_at_mut(GROUP);
        transpose_in(s0);
        transpose_in(s1);
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
                named(&reload_states(s0));
            let [mut a1, mut b1, mut c1, mut d1, mut e1, mut f1, mut g1, mut h1] =
                named(&reload_states(s1));
            macro_rules! kw_load {
                ($g:literal, $i:expr) => {
                    _mm512_add_epi32(get(&rings[$g][$i]), k($i))
                };
            }
            rounds16x2!(
                kw_load,
                [a0, b0, c0, d0, e0, f0, g0, h0],
                [a1, b1, c1, d1, e1, f1, g1, h1]
            );
            for group in 1..4 {
                macro_rules! kw_schedule {
                    (0, $i:expr) => {{
                        let w = next_word(&mut rings[0], $i, back2_0);
                        (back2_0, back1_0) = (back1_0, w);
                        _mm512_add_epi32(w, k(16 * group + $i))
                    }};
                    (1, $i:expr) => {{
                        let w = next_word(&mut rings[1], $i, back2_1);
                        (back2_1, back1_1) = (back1_1, w);
                        _mm512_add_epi32(w, k(16 * group + $i))
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
        transpose_out(s0);
        transpose_out(s1);
    }
    /// One compression of every lane on the expanded schedule `w[0..64]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 8]], w: &[u32], _ws: &mut LaneWorkspace) {
        let w: &[u32; 64] = w.try_into().expect("a 64-word schedule");
        assert_eq!(states.len(), LANES, "avx512-x32 takes thirty-two lanes");
        let (s0, s1) = states.split_at_mut(GROUP);
        transpose_in(s0);
        transpose_in(s1);
        let [mut a0, mut b0, mut c0, mut d0, mut e0, mut f0, mut g0, mut h0] =
            named(&reload_states(s0));
        let [mut a1, mut b1, mut c1, mut d1, mut e1, mut f1, mut g1, mut h1] =
            named(&reload_states(s1));
        for group in 0..4 {
            macro_rules! kw_constant {
                ($g:literal, $i:expr) => {
                    _mm512_set1_epi32(
                        w[16 * group + $i].wrapping_add(SHA256_K[16 * group + $i]) as i32,
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
        transpose_out(s0);
        transpose_out(s1);
    }
}
