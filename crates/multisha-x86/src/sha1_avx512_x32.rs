//! SHA-1 of thirty-two messages at once with AVX-512: two groups of sixteen lanes in
//! `sha1_avx512_x16`'s layout (one 32-bit word of every lane of a group per `zmm` register),
//! their rounds interleaved one by one.
//!
//! * Why: as for `sha256_avx512_x32`, a core that runs 512-bit operations at full width on
//!   four pipes finishes a round's operations faster than the round's chain (`a` through
//!   `vprold` and two adds into the next `a`) allows, and the second group's round fills the
//!   slots the first leaves idle. On a Zen 4 it measured 1.02-1.06 times `avx512-x16`'s speed
//!   on long messages and 1.19 on 64-byte ones; the planner compares the kernels' measured
//!   costs and picks it only where it is faster.
//! * The two working states are ten registers; each group's ring of sixteen schedule words
//!   lives in the lane workspace (`avx512_groups`). Nothing message-derived goes to the stack.
//! * Each group's message transpose, its block-input state kept transposed in `states`, and
//!   the round are `sha1_avx512_x16`'s.
//! * The constant entry runs both groups' 80 rounds on the broadcast `w[t] + K`; the input
//!   states wait transposed in `states` for the feed-forward.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_rol_epi32, _mm512_set1_epi32, _mm512_ternarylogic_epi32,
    _mm512_xor_si512,
};
use multisha_contract::{SHA1_K, Sha1Compression, equal_lanes};

use crate::avx512_groups::{GROUP, LANES, RING_WORDS, get, put, rings};
use crate::sha1_avx512_x16::{feed_forward, k, reload_states, round, transpose_in, transpose_out};
use crate::sha256_avx512_x16::load_message;

type LaneWorkspace = <Sha1Compression as multisha_contract::Compression>::LaneWorkspace;

const _: () = assert!(
    LaneWorkspace::LEN >= RING_WORDS,
    "the lane workspace is too small for this kernel"
);

/// `w[t]` (`t` from 16) of one group in place of `w[t - 16]` in its ring, returned;
/// `three_back` is `w[t - 3]`, from a register: read back from the ring three rounds after its
/// store, it waited for the store.
#[inline]
#[target_feature(enable = "avx512f")]
fn next_word(ring: &mut [__m512i; 16], t: usize, three_back: __m512i) -> __m512i {
    let w = _mm512_rol_epi32::<1>(_mm512_xor_si512(
        _mm512_ternarylogic_epi32::<0x96>(
            get(&ring[t & 15]),
            get(&ring[(t - 14) & 15]),
            get(&ring[(t - 8) & 15]),
        ),
        three_back,
    ));
    put(&mut ring[t & 15], w);
    w
}

/// Twenty rounds of both groups from round `$t` with function `$f`, each round of the first
/// group followed by the same round of the second; `$kw!(g, t)` gives group `g`'s
/// `w[t] + K`.
macro_rules! rounds20x2 {
    ($kw:ident, $f:literal, $t:expr, [$($x:ident),*], [$($y:ident),*]) => {
        rounds20x2!(@5 $kw, $f, $t, [$($x),*], [$($y),*]);
        rounds20x2!(@5 $kw, $f, $t + 5, [$($x),*], [$($y),*]);
        rounds20x2!(@5 $kw, $f, $t + 10, [$($x),*], [$($y),*]);
        rounds20x2!(@5 $kw, $f, $t + 15, [$($x),*], [$($y),*]);
    };
    (@5 $kw:ident, $f:literal, $t:expr,
     [$a:ident, $b:ident, $c:ident, $d:ident, $e:ident],
     [$p:ident, $q:ident, $r:ident, $s:ident, $u:ident]) => {
        round!($f, $a, $b, $c, $d, $e, $kw!(0, $t));
        round!($f, $p, $q, $r, $s, $u, $kw!(1, $t));
        round!($f, $e, $a, $b, $c, $d, $kw!(0, $t + 1));
        round!($f, $u, $p, $q, $r, $s, $kw!(1, $t + 1));
        round!($f, $d, $e, $a, $b, $c, $kw!(0, $t + 2));
        round!($f, $s, $u, $p, $q, $r, $kw!(1, $t + 2));
        round!($f, $c, $d, $e, $a, $b, $kw!(0, $t + 3));
        round!($f, $r, $s, $u, $p, $q, $kw!(1, $t + 3));
        round!($f, $b, $c, $d, $e, $a, $kw!(0, $t + 4));
        round!($f, $q, $r, $s, $u, $p, $kw!(1, $t + 4));
    };
}

/// All eighty rounds of both groups.
macro_rules! rounds80x2 {
    ($kw:ident, $x:tt, $y:tt) => {
        rounds20x2!($kw, 0xca, 0, $x, $y);
        rounds20x2!($kw, 0x96, 20, $x, $y);
        rounds20x2!($kw, 0xe8, 40, $x, $y);
        rounds20x2!($kw, 0x96, 60, $x, $y);
    };
}

multisha_contract::declare_variant! {
    /// The `avx512-x32` SHA-1 many-message variant.
    pub static VARIANT: Sha1Compression = {
        name: "avx512-x32",
        description: "thirty-two messages at once: two groups of sixteen zmm lanes, their rounds interleaved for cores that run 512-bit operations at full width; the schedules in the lane workspace",
        schedule: LaneWorkspace,
        requires: ["avx512f", "avx512bw"],
        lanes: 32,
        cost: { setup: 300.0, call: 0.0, step: 370.0, message: 14.0, ragged: 21.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the thirty-two lanes, block by block in
    /// step: lanes 0..16 are the first group, 16..32 the second.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 5]], blocks: &[&[[u8; 64]]], ws: &mut LaneWorkspace) {
        let (blocks, n) = equal_lanes::<_, LANES>(blocks);
        let (first, second) = blocks.split_at(GROUP);
        let (s0, s1) = states.split_at_mut(GROUP);
        transpose_in(s0);
        transpose_in(s1);
        let rings = rings(ws);
        for i in 0..n {
            // Each group's three newest schedule words, `w[t - 3]` to `w[t - 1]`, in
            // registers.
            let words = load_message!(first, i);
            let mut back0 = [words[13], words[14], words[15]];
            for (slot, x) in rings[0].iter_mut().zip(words) {
                put(slot, x);
            }
            let words = load_message!(second, i);
            let mut back1 = [words[13], words[14], words[15]];
            for (slot, x) in rings[1].iter_mut().zip(words) {
                put(slot, x);
            }
            let [mut a0, mut b0, mut c0, mut d0, mut e0] = reload_states(s0);
            let [mut a1, mut b1, mut c1, mut d1, mut e1] = reload_states(s1);
            macro_rules! kw_schedule {
                (0, $t:expr) => {
                    kw_schedule!(@ 0, back0, $t)
                };
                (1, $t:expr) => {
                    kw_schedule!(@ 1, back1, $t)
                };
                (@ $g:literal, $back:ident, $t:expr) => {{
                    let w = if $t >= 16 {
                        let w = next_word(&mut rings[$g], $t, $back[0]);
                        $back = [$back[1], $back[2], w];
                        w
                    } else {
                        get(&rings[$g][$t & 15])
                    };
                    _mm512_add_epi32(w, k($t))
                }};
            }
            rounds80x2!(kw_schedule, [a0, b0, c0, d0, e0], [a1, b1, c1, d1, e1]);
            // (The last rounds' newest words go unread.)
            let _ = (back0, back1);
            feed_forward(s0, [a0, b0, c0, d0, e0]);
            feed_forward(s1, [a1, b1, c1, d1, e1]);
        }
        transpose_out(s0);
        transpose_out(s1);
    }
    /// One compression of every lane on the expanded schedule `w[0..80]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 5]], w: &[u32], _ws: &mut LaneWorkspace) {
        let w: &[u32; 80] = w.try_into().expect("an 80-word schedule");
        assert_eq!(states.len(), LANES, "avx512-x32 takes thirty-two lanes");
        let (s0, s1) = states.split_at_mut(GROUP);
        transpose_in(s0);
        transpose_in(s1);
        let [mut a0, mut b0, mut c0, mut d0, mut e0] = reload_states(s0);
        let [mut a1, mut b1, mut c1, mut d1, mut e1] = reload_states(s1);
        macro_rules! kw_constant {
            ($g:literal, $t:expr) => {
                _mm512_set1_epi32(w[$t].wrapping_add(SHA1_K[$t / 20]) as i32)
            };
        }
        rounds80x2!(kw_constant, [a0, b0, c0, d0, e0], [a1, b1, c1, d1, e1]);
        feed_forward(s0, [a0, b0, c0, d0, e0]);
        feed_forward(s1, [a1, b1, c1, d1, e1]);
        transpose_out(s0);
        transpose_out(s1);
    }
}
