//! SHA-1 of two messages at once with the x86 SHA extensions: two independent streams of
//! `sha1rnds4` interleaved.
//!
//! One stream waits on each `sha1rnds4` for the previous one (six cycles on Zen 4, which can
//! start one every other cycle), so a second, independent message fills the gaps. Each stream
//! runs `sha1_shani`'s rounds: `abcd` in one register, `e` folded into the schedule words by
//! `sha1nexte` from the `abcd` four rounds back. Its block schedule is a ring of five
//! registers expanded by `sha1msg1/2`: computed whole on the vector ALUs as in `sha1_shani`,
//! two streams' schedules did not fit the registers (LLVM spilled them) and gained only 2%.
//! The state at a block's start, which the feed-forward needs, waits in the lane workspace's
//! tiny part: the two streams leave no registers for it, and LLVM spilled it to the stack.
//!
//! The constant entry runs the rounds of both lanes on a given schedule (`w` loaded four
//! words at a time, reversed into SHA-NI order, no `sha1msg1/2`). The PBKDF2 entry runs two
//! chains (two output blocks of a derivation) side by side, each message built from its
//! chain's state registers and its schedule computed whole, mostly off the SHA unit
//! (`sha1_shani`'s `schedule_block`); its blocks start from the keyed states, so nothing is set
//! aside.

use crate::sha1_shani::schedule_block;
use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_and_si128, _mm_extract_epi32, _mm_loadu_si128, _mm_or_si128,
    _mm_set_epi32, _mm_set_epi64x, _mm_sha1msg1_epu32, _mm_sha1msg2_epu32, _mm_sha1nexte_epu32,
    _mm_sha1rnds4_epu32, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_storeu_si128, _mm_xor_si128,
};
use multisha_contract::{HmacKeys, Sha1Compression, aligned_words, equal_lanes, hmac_template};

type LaneWorkspace = <Sha1Compression as multisha_contract::Compression>::LaneWorkspace;
const _: () = assert!(
    4 * SLOTS <= LaneWorkspace::TINY_LEN,
    "the lane workspace is too small for this kernel"
);

/// 16-byte slots of the lane workspace's tiny part in use: `abcd` and `e` of both lanes at
/// the block's start, for the feed-forward. In registers they left the rounds too few, and
/// LLVM spilled them to the stack; read back from the caller's states (as `shani-x2` for
/// SHA-256 does), `e` alone cost 13-20% (it goes through a scalar store and load).
const SLOTS: usize = 4;

/// The kernel's slots of the lane workspace.
#[inline]
fn slots(ws: &mut LaneWorkspace) -> &mut [__m128i; SLOTS] {
    let words = aligned_words(ws.tiny_words(), 16, 4 * SLOTS);
    assert!(words.as_ptr().addr().is_multiple_of(16));
    // SAFETY: `words` is `SLOTS` × 16 bytes of initialized words, 16-byte aligned (asserted),
    // and every bit pattern is a valid `__m128i`; the result borrows `ws` as `words` did.
    unsafe { &mut *words.as_mut_ptr().cast::<[__m128i; SLOTS]>() }
}

/// A slot, read from memory where it is used: from a plain read LLVM forwards the value it
/// stored, held in a register all along (and spilled).
#[inline]
#[target_feature(enable = "sse2")]
fn reload(v: &__m128i) -> __m128i {
    // SAFETY: `v` is a reference: valid and aligned for a read.
    unsafe { core::ptr::read_volatile(v) }
}

/// `abcd` (SHA-NI order, `a` in the top lane) and `e` (top lane) of `state`.
#[inline]
#[target_feature(enable = "sse2,sse4.1")]
fn load_state(state: &[u32; 5]) -> (__m128i, __m128i) {
    // SAFETY: `state` is 20 bytes, so its first 16 are readable; unaligned load.
    let abcd = unsafe { _mm_loadu_si128(state.as_ptr().cast()) };
    (
        _mm_shuffle_epi32::<0x1b>(abcd),
        _mm_set_epi32(state[4] as i32, 0, 0, 0),
    )
}

/// `abcd` and `e` back into `state`.
#[inline]
#[target_feature(enable = "sse2,sse4.1")]
fn store_state(state: &mut [u32; 5], abcd: __m128i, e: __m128i) {
    // SAFETY: `state` is 20 bytes, so its first 16 are writable; unaligned store.
    unsafe { _mm_storeu_si128(state.as_mut_ptr().cast(), _mm_shuffle_epi32::<0x1b>(abcd)) };
    state[4] = _mm_extract_epi32::<3>(e) as u32;
}

/// The four schedule vectors of `block` in SHA-NI order (`w[4i]` in the top lane).
#[inline]
#[target_feature(enable = "sse2,ssse3")]
fn load_block(block: &[u8; 64]) -> [__m128i; 4] {
    // Reverses all 16 bytes: big-endian words, and the first word in the top lane.
    let reverse = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
    let p: *const __m128i = block.as_ptr().cast();
    // SAFETY: `block` is 64 bytes, so the four unaligned 16-byte loads stay inside.
    unsafe { [0, 1, 2, 3].map(|i| _mm_shuffle_epi8(_mm_loadu_si128(p.add(i)), reverse)) }
}

/// Four rounds of both streams: stream `i` from `abcd` = `$h0[i]`, its `e` from `$h1[i]` (the
/// `abcd` four rounds earlier) added to the words `$w[i]`; the new `abcd` goes to `$h1[i]`.
macro_rules! rounds4 {
    ($h0:ident, $h1:ident, $w:expr, $group:literal) => {
        let [w0, w1] = $w;
        $h1[0] = _mm_sha1rnds4_epu32::<$group>($h0[0], _mm_sha1nexte_epu32($h1[0], w0));
        $h1[1] = _mm_sha1rnds4_epu32::<$group>($h0[1], _mm_sha1nexte_epu32($h1[1], w1));
    };
}

/// The next four schedule words of both streams into slot `$s4` of `$x` and `$y` from slots
/// `$s0..$s3`, then four rounds with them.
macro_rules! schedule_rounds4 {
    ($h0:ident, $h1:ident, $x:ident, $y:ident,
     [$s0:literal $s1:literal $s2:literal $s3:literal $s4:literal], $group:literal) => {
        $x[$s4] = _mm_sha1msg2_epu32(
            _mm_xor_si128(_mm_sha1msg1_epu32($x[$s0], $x[$s1]), $x[$s2]),
            $x[$s3],
        );
        $y[$s4] = _mm_sha1msg2_epu32(
            _mm_xor_si128(_mm_sha1msg1_epu32($y[$s0], $y[$s1]), $y[$s2]),
            $y[$s3],
        );
        rounds4!($h0, $h1, [$x[$s4], $y[$s4]], $group);
    };
}

/// Rounds 4..80 of both streams on the schedule rings `$x`, `$y` (the first four slots the
/// block's words), after the first four rounds: `$h0` holds `abcd` at the start, `$h1` the
/// `abcd` after round 4.
macro_rules! rounds80 {
    ($h0:ident, $h1:ident, $x:ident, $y:ident) => {
        // Rounds 0..20.
        rounds4!($h1, $h0, [$x[1], $y[1]], 0);
        rounds4!($h0, $h1, [$x[2], $y[2]], 0);
        rounds4!($h1, $h0, [$x[3], $y[3]], 0);
        schedule_rounds4!($h0, $h1, $x, $y, [0 1 2 3 4], 0);
        // Rounds 20..40.
        schedule_rounds4!($h1, $h0, $x, $y, [1 2 3 4 0], 1);
        schedule_rounds4!($h0, $h1, $x, $y, [2 3 4 0 1], 1);
        schedule_rounds4!($h1, $h0, $x, $y, [3 4 0 1 2], 1);
        schedule_rounds4!($h0, $h1, $x, $y, [4 0 1 2 3], 1);
        schedule_rounds4!($h1, $h0, $x, $y, [0 1 2 3 4], 1);
        // Rounds 40..60.
        schedule_rounds4!($h0, $h1, $x, $y, [1 2 3 4 0], 2);
        schedule_rounds4!($h1, $h0, $x, $y, [2 3 4 0 1], 2);
        schedule_rounds4!($h0, $h1, $x, $y, [3 4 0 1 2], 2);
        schedule_rounds4!($h1, $h0, $x, $y, [4 0 1 2 3], 2);
        schedule_rounds4!($h0, $h1, $x, $y, [0 1 2 3 4], 2);
        // Rounds 60..80.
        schedule_rounds4!($h1, $h0, $x, $y, [1 2 3 4 0], 3);
        schedule_rounds4!($h0, $h1, $x, $y, [2 3 4 0 1], 3);
        schedule_rounds4!($h1, $h0, $x, $y, [3 4 0 1 2], 3);
        schedule_rounds4!($h0, $h1, $x, $y, [4 0 1 2 3], 3);
        schedule_rounds4!($h1, $h0, $x, $y, [0 1 2 3 4], 3);
    };
}

/// Rounds 4..80 of both streams after the first four, on the schedule groups `$words(i)`
/// (`[stream 0's, stream 1's]` words `4i..4i+4`): `$h0` holds `abcd` at the start, `$h1` the
/// `abcd` after round 4.
macro_rules! rounds_on_schedule {
    ($h0:ident, $h1:ident, $words:expr) => {
        let words = $words;
        rounds4!($h1, $h0, words(1), 0);
        rounds4!($h0, $h1, words(2), 0);
        rounds4!($h1, $h0, words(3), 0);
        rounds4!($h0, $h1, words(4), 0);
        rounds4!($h1, $h0, words(5), 1);
        rounds4!($h0, $h1, words(6), 1);
        rounds4!($h1, $h0, words(7), 1);
        rounds4!($h0, $h1, words(8), 1);
        rounds4!($h1, $h0, words(9), 1);
        rounds4!($h0, $h1, words(10), 2);
        rounds4!($h1, $h0, words(11), 2);
        rounds4!($h0, $h1, words(12), 2);
        rounds4!($h1, $h0, words(13), 2);
        rounds4!($h0, $h1, words(14), 2);
        rounds4!($h1, $h0, words(15), 3);
        rounds4!($h0, $h1, words(16), 3);
        rounds4!($h1, $h0, words(17), 3);
        rounds4!($h0, $h1, words(18), 3);
        rounds4!($h1, $h0, words(19), 3);
    };
}

multisha_contract::declare_variant! {
    /// The `shani-x2` SHA-1 many-message variant.
    pub static VARIANT: Sha1Compression = {
        name: "shani-x2",
        description: "two messages at once: two streams of sha1rnds4 interleaved, schedules in registers, states in registers and the lane workspace",
        schedule: Registers,
        requires: ["sha", "sse2", "ssse3", "sse4.1"],
        lanes: 2,
        cost: { setup: 94.0, call: 24.0, step: 73.0, message: 2.0, ragged: 12.0 },
    };
    /// Compresses `blocks[0]` into `states[0]` and `blocks[1]` into `states[1]`, block by
    /// block in step; the states at each block's start wait in `ws` for the feed-forward.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 5]], blocks: &[&[[u8; 64]]], ws: &mut LaneWorkspace) {
        let [s0, s1] = states else {
            panic!("shani-x2 takes two lanes");
        };
        let (&[b0, b1], _) = equal_lanes::<_, 2>(blocks);
        let (abcd0, e0) = load_state(s0);
        let (abcd1, e1) = load_state(s1);
        let (mut abcd, mut e) = ([abcd0, abcd1], [e0, e1]);
        let saved = slots(ws);
        for (block0, block1) in b0.iter().zip(b1.iter()) {
            *saved = [abcd[0], abcd[1], e[0], e[1]];
            let [x0, x1, x2, x3] = load_block(block0);
            let [y0, y1, y2, y3] = load_block(block1);
            let mut x = [x0, x1, x2, x3, x0];
            let mut y = [y0, y1, y2, y3, y0];
            let mut h0 = abcd;
            let mut h1 = [
                _mm_sha1rnds4_epu32::<0>(h0[0], _mm_add_epi32(e[0], x0)),
                _mm_sha1rnds4_epu32::<0>(h0[1], _mm_add_epi32(e[1], y0)),
            ];
            rounds80!(h0, h1, x, y);
            for i in 0..2 {
                abcd[i] = _mm_add_epi32(reload(&saved[i]), h0[i]);
                // The final `e` is rotl30 of the `a` four rounds back, plus the saved `e`.
                e[i] = _mm_sha1nexte_epu32(h1[i], reload(&saved[2 + i]));
            }
        }
        store_state(s0, abcd[0], e[0]);
        store_state(s1, abcd[1], e[1]);
    }
    /// One compression of both lanes on the expanded schedule `w[0..80]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 5]], w: &[u32], _ws: &mut LaneWorkspace) {
        let [s0, s1] = states else {
            panic!("shani-x2 takes two lanes");
        };
        let w: &[u32; 80] = w.try_into().expect("an 80-word schedule");
        // `w[4i..4i+4]` in SHA-NI order, the same for both lanes.
        let words = |i: usize| {
            let p: *const __m128i = w[4 * i..4 * i + 4].as_ptr().cast();
            // SAFETY: four words of `w` (16 readable bytes); unaligned load.
            let v = unsafe { _mm_loadu_si128(p) };
            [_mm_shuffle_epi32::<0x1b>(v); 2]
        };
        let (abcd0, e0) = load_state(s0);
        let (abcd1, e1) = load_state(s1);
        let (abcd, e) = ([abcd0, abcd1], [e0, e1]);
        let [w0, _] = words(0);
        let mut h0 = abcd;
        let mut h1 = [
            _mm_sha1rnds4_epu32::<0>(h0[0], _mm_add_epi32(e[0], w0)),
            _mm_sha1rnds4_epu32::<0>(h0[1], _mm_add_epi32(e[1], w0)),
        ];
        rounds_on_schedule!(h0, h1, words);
        store_state(s0, _mm_add_epi32(abcd[0], h0[0]), _mm_sha1nexte_epu32(h1[0], e[0]));
        store_state(s1, _mm_add_epi32(abcd[1], h0[1]), _mm_sha1nexte_epu32(h1[1], e[1]));
    }
    /// The PBKDF2 loop of two chains at once (two output blocks of one derivation), as
    /// `sha1_shani`'s for one: `U`, `T` and both keyed states in SHA-NI order in registers (or
    /// their spill slots) across all iterations; a digest's `abcd` is the next message's first
    /// four words as it is, `e` masked and padded the next four.
    #[inline(never)]
    pub fn iterate(
        keys: &HmacKeys<Sha1Compression>,
        u: &mut [[u32; 5]],
        t: &mut [[u32; 5]],
        digest_len: usize,
        count: u32,
    ) {
        let ([u0, u1], [t0, t1]) = (u, t) else {
            panic!("shani-x2 takes two lanes");
        };
        if count == 0 {
            return;
        }
        let template = hmac_template::<Sha1Compression>(digest_len);
        assert!(
            template.mask[..4] == [u32::MAX; 4],
            "SHA-1 digests fill the first four words"
        );
        // w[t] in the top lane, as SHA-NI wants.
        let words = |w: &[u32]| _mm_set_epi32(w[0] as i32, w[1] as i32, w[2] as i32, w[3] as i32);
        let (mask1, pad1) = (words(&template.mask[4..8]), words(&template.pad[4..8]));
        let (pad2, pad3) = (words(&template.pad[8..12]), words(&template.pad[12..16]));
        let inner = load_state(&keys.inner);
        let outer = load_state(&keys.outer);
        let (a0, e0) = load_state(u0);
        let (a1, e1) = load_state(u1);
        let (mut abcd, mut e) = ([a0, a1], [e0, e1]);
        let (ta0, te0) = load_state(t0);
        let (ta1, te1) = load_state(t1);
        let (mut t_abcd, mut t_e) = ([ta0, ta1], [te0, te1]);
        for _ in 0..count {
            for (start_abcd, start_e) in [inner, outer] {
                let w1 = [0, 1].map(|i| _mm_or_si128(_mm_and_si128(e[i], mask1), pad1));
                let x = schedule_block([abcd[0], w1[0], pad2, pad3]);
                let y = schedule_block([abcd[1], w1[1], pad2, pad3]);
                let mut h0 = [start_abcd; 2];
                let mut h1 = [
                    _mm_sha1rnds4_epu32::<0>(start_abcd, _mm_add_epi32(start_e, x[0])),
                    _mm_sha1rnds4_epu32::<0>(start_abcd, _mm_add_epi32(start_e, y[0])),
                ];
                rounds_on_schedule!(h0, h1, |i| [x[i], y[i]]);
                for i in 0..2 {
                    abcd[i] = _mm_add_epi32(start_abcd, h0[i]);
                    e[i] = _mm_sha1nexte_epu32(h1[i], start_e);
                }
            }
            for i in 0..2 {
                t_abcd[i] = _mm_xor_si128(t_abcd[i], abcd[i]);
                t_e[i] = _mm_xor_si128(t_e[i], e[i]);
            }
        }
        store_state(u0, abcd[0], e[0]);
        store_state(u1, abcd[1], e[1]);
        store_state(t0, t_abcd[0], t_e[0]);
        store_state(t1, t_abcd[1], t_e[1]);
    }
}
