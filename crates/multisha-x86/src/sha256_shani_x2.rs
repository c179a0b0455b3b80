//! SHA-256 of two messages at once with the x86 SHA extensions: two independent streams of
//! `sha256rnds2` interleaved.
//!
//! One stream waits on each `sha256rnds2` for the previous one (the state is its own input), so
//! a core that can run several of them at once idles; a second, independent message fills the
//! gaps (Linux's `sha256_ni_finup2x`: +38% on Sapphire Rapids, +64-98% on Zen 4/5 at 4 KiB).
//! Each stream is `sha256_shani`'s: state in two registers in SHA-NI order, a ring of four
//! schedule registers. The state at a block's start, which the feed-forward needs, is read
//! back from the caller's states, where each block's result is stored: the two streams leave
//! no registers for it, and LLVM spilled it to the stack.
//!
//! Three one-block messages (the single-message kernel's odd runs of Merkle nodes) run in three
//! steps of two streams (`one_block_three`), a padding block's rounds beside a message block's.
//! The constant entry runs the rounds of both lanes on a given schedule (`w` loaded four words
//! at a time, no `sha256msg1/2`). The PBKDF2 entry runs two chains (two output blocks of a
//! derivation) side by side, each message built from its chain's state registers.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_and_si128, _mm_blend_epi16, _mm_loadu_si128,
    _mm_or_si128, _mm_set_epi32, _mm_sha256msg1_epu32, _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32,
    _mm_shuffle_epi32, _mm_slli_si128, _mm_srli_si128, _mm_storeu_si128, _mm_xor_si128,
};
use multisha_contract::{HmacKeys, SHA256_K, Sha256Compression, equal_lanes, hmac_template};

use crate::sha256_shani::{block_words, next_words, store_digest};
use zeroize::Zeroize;

type LaneWorkspace = <Sha256Compression as multisha_contract::Compression>::LaneWorkspace;

/// `K[4i..4i+4]`.
#[inline]
#[target_feature(enable = "sse2")]
fn k4(i: usize) -> __m128i {
    let k: &[u32; 4] = SHA256_K[4 * i..4 * i + 4].try_into().expect("four words");
    // SAFETY: `k` is 16 readable bytes; unaligned load (SSE2, x86-64 baseline).
    unsafe { _mm_loadu_si128(k.as_ptr().cast()) }
}

/// `[a, b, c, d]`, `[e, f, g, h]` to the SHA-NI pair `abef`, `cdgh`.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1")]
fn to_shani(state: &[u32; 8]) -> (__m128i, __m128i) {
    let p: *const __m128i = state.as_ptr().cast();
    // SAFETY: `state` is 32 bytes: two unaligned 16-byte loads.
    let (dcba, hgfe) = unsafe { (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1))) };
    let cdab = _mm_shuffle_epi32::<0xb1>(dcba);
    let efgh = _mm_shuffle_epi32::<0x1b>(hgfe);
    (
        _mm_alignr_epi8::<8>(cdab, efgh),
        _mm_blend_epi16::<0xf0>(efgh, cdab),
    )
}

/// The SHA-NI pair back to `[a..d]`, `[e..h]` in `state`.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1")]
fn from_shani(state: &mut [u32; 8], abef: __m128i, cdgh: __m128i) {
    let feba = _mm_shuffle_epi32::<0x1b>(abef);
    let dchg = _mm_shuffle_epi32::<0xb1>(cdgh);
    let p: *mut __m128i = state.as_mut_ptr().cast();
    // SAFETY: `state` is 32 bytes: two unaligned 16-byte stores.
    unsafe {
        _mm_storeu_si128(p, _mm_blend_epi16::<0xf0>(feba, dchg));
        _mm_storeu_si128(p.add(1), _mm_alignr_epi8::<8>(dchg, feba));
    }
}

/// The feed-forward: `abef`, `cdgh` plus the block's starting state, read back from `state`
/// (not kept in registers: the schedules of both streams leave too few, and LLVM spilled the
/// copies to the stack); the sum is stored to `state` and returned.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1")]
fn feed_forward(state: &mut [u32; 8], abef: __m128i, cdgh: __m128i) -> (__m128i, __m128i) {
    // The barrier makes LLVM read `state` from memory instead of forwarding the copy it
    // holds since the block's start.
    let (abef_in, cdgh_in) = to_shani(core::hint::black_box(&*state));
    let (abef, cdgh) = (_mm_add_epi32(abef, abef_in), _mm_add_epi32(cdgh, cdgh_in));
    from_shani(state, abef, cdgh);
    (abef, cdgh)
}

/// Four rounds of one stream with `k + w` in `$wk`.
macro_rules! rounds4 {
    ($abef:ident, $cdgh:ident, $wk:expr) => {
        let wk = $wk;
        $cdgh = _mm_sha256rnds2_epu32($cdgh, $abef, wk);
        $abef = _mm_sha256rnds2_epu32($abef, $cdgh, _mm_shuffle_epi32::<0x0e>(wk));
    };
}

/// Four rounds of both streams on the same `k + w`, `$wk` (a padding block's, or a constant
/// schedule's): both streams' first two rounds, then both streams' second two, so that
/// `sha256rnds2`'s implicit operand `xmm0` holds each half once (as [`rounds4!`] one stream
/// after the other, LLVM copied a half into it before every instruction). Streams on words of
/// their own keep [`rounds4!`]: interleaved the same way, their schedules no longer fitted the
/// registers.
macro_rules! rounds4_shared {
    ($a0:ident, $c0:ident, $a1:ident, $c1:ident, $wk:expr) => {
        let wk = $wk;
        $c0 = _mm_sha256rnds2_epu32($c0, $a0, wk);
        $c1 = _mm_sha256rnds2_epu32($c1, $a1, wk);
        let high = _mm_shuffle_epi32::<0x0e>(wk);
        $a0 = _mm_sha256rnds2_epu32($a0, $c0, high);
        $a1 = _mm_sha256rnds2_epu32($a1, $c1, high);
    };
}

/// `w[t..t+4]` from the previous sixteen words, in place of the oldest four
/// ([`next_words`], `short` with `$short`).
macro_rules! schedule {
    ($w0:ident, $w1:ident, $w2:ident, $w3:ident $(, $short:ident)?) => {
        $w0 = next_words!($($short)? $w0, $w1, $w2, $w3);
    };
}

/// Four rounds of both streams with schedule vectors `$x` and `$y`, then (with `schedule`)
/// the words of both streams four groups later.
macro_rules! quad_x2 {
    ($i:expr, $a0:ident, $c0:ident, $a1:ident, $c1:ident,
     $x0:ident, $x1:ident, $x2:ident, $x3:ident,
     $y0:ident, $y1:ident, $y2:ident, $y3:ident $(, $schedule:ident $($short:ident)?)?) => {
        let k = k4($i);
        rounds4!($a0, $c0, _mm_add_epi32($x0, k));
        rounds4!($a1, $c1, _mm_add_epi32($y0, k));
        $(
            $schedule!($x0, $x1, $x2, $x3 $(, $short)?);
            $schedule!($y0, $y1, $y2, $y3 $(, $short)?);
        )?
    };
}

/// The 64 rounds of one block on both streams, the schedule vectors `x0..x3` and `y0..y3`
/// (replaced by the words sixteen later through rounds 0..48, with `next_words`' `short` arm
/// where given), and `$between!(a0, c0, a1, c1)` after every group but the last.
macro_rules! block_x2 {
    ($between:ident, $a0:ident, $c0:ident, $a1:ident, $c1:ident,
     $x0:ident, $x1:ident, $x2:ident, $x3:ident,
     $y0:ident, $y1:ident, $y2:ident, $y3:ident $(, $short:ident)?) => {
        for g in 0..3 {
            quad_x2!(4 * g, $a0, $c0, $a1, $c1, $x0, $x1, $x2, $x3, $y0, $y1, $y2, $y3, schedule $($short)?);
            $between!($a0, $c0, $a1, $c1);
            quad_x2!(4 * g + 1, $a0, $c0, $a1, $c1, $x1, $x2, $x3, $x0, $y1, $y2, $y3, $y0, schedule $($short)?);
            $between!($a0, $c0, $a1, $c1);
            quad_x2!(4 * g + 2, $a0, $c0, $a1, $c1, $x2, $x3, $x0, $x1, $y2, $y3, $y0, $y1, schedule $($short)?);
            $between!($a0, $c0, $a1, $c1);
            quad_x2!(4 * g + 3, $a0, $c0, $a1, $c1, $x3, $x0, $x1, $x2, $y3, $y0, $y1, $y2, schedule $($short)?);
            $between!($a0, $c0, $a1, $c1);
        }
        quad_x2!(12, $a0, $c0, $a1, $c1, $x0, $x1, $x2, $x3, $y0, $y1, $y2, $y3);
        $between!($a0, $c0, $a1, $c1);
        quad_x2!(13, $a0, $c0, $a1, $c1, $x1, $x2, $x3, $x0, $y1, $y2, $y3, $y0);
        $between!($a0, $c0, $a1, $c1);
        quad_x2!(14, $a0, $c0, $a1, $c1, $x2, $x3, $x0, $x1, $y2, $y3, $y0, $y1);
        $between!($a0, $c0, $a1, $c1);
        quad_x2!(15, $a0, $c0, $a1, $c1, $x3, $x0, $x1, $x2, $y3, $y0, $y1, $y2);
    };
}

/// Nothing between groups of rounds ([`block_x2`]): the compiler interleaves the streams as
/// the loop over the groups leaves them.
macro_rules! free {
    ($($state:ident),*) => {};
}

/// Ties the two streams' states together after a group of rounds: an empty `asm!` that
/// (for all the compiler knows) reads and writes all four, so neither stream's next group
/// can be scheduled before the other's last one. Without it LLVM scheduled one message's 128
/// rounds after the other's in [`one_block_pair`] (straight-line code), and the pair took as
/// long as two messages one by one.
macro_rules! lockstep {
    ($a0:ident, $c0:ident, $a1:ident, $c1:ident) => {
        // SAFETY: an empty template: nothing runs, no memory, stack or flag is touched.
        unsafe {
            core::arch::asm!(
                "/* {0} {1} {2} {3} */",
                inout(xmm_reg) $a0, inout(xmm_reg) $c0, inout(xmm_reg) $a1, inout(xmm_reg) $c1,
                options(pure, nomem, nostack, preserves_flags),
            )
        };
    };
}

/// The states after the blocks `$block0` and `$block1` (each a whole message's first block)
/// compressed side by side from the state `$iv` (SHA-NI order), feed-forward included: the
/// states their padding blocks start from. (Macros, not functions: LLVM kept these out of
/// line and returned the states through the stack.)
macro_rules! message_blocks_x2 {
    ($iv:expr, $block0:expr, $block1:expr) => {{
        let iv: (__m128i, __m128i) = $iv;
        let [mut x0, mut x1, mut x2, mut x3] = block_words($block0);
        let [mut y0, mut y1, mut y2, mut y3] = block_words($block1);
        let (mut a0, mut c0, mut a1, mut c1) = (iv.0, iv.1, iv.0, iv.1);
        block_x2!(lockstep, a0, c0, a1, c1, x0, x1, x2, x3, y0, y1, y2, y3);
        (
            (_mm_add_epi32(a0, iv.0), _mm_add_epi32(c0, iv.1)),
            (_mm_add_epi32(a1, iv.0), _mm_add_epi32(c1, iv.1)),
        )
    }};
}

/// The padding blocks (on their constant `w + K`, `$padding_wk`) of two messages side by side
/// from their states `$middle0` and `$middle1` (SHA-NI order), in [`lockstep!`], each digest
/// written into `$out0` and `$out1` straight from the registers.
macro_rules! padding_blocks_x2 {
    ($middle0:expr, $middle1:expr, $padding_wk:expr, $out0:expr, $out1:expr) => {{
        let (middle0, middle1): ((__m128i, __m128i), (__m128i, __m128i)) = ($middle0, $middle1);
        let padding_wk: &[u32; 64] = $padding_wk;
        let ((mut a0, mut c0), (mut a1, mut c1)) = (middle0, middle1);
        for i in 0..16 {
            // SAFETY: words 4i..4i+4 (i < 16) of the 64 words; unaligned load.
            let wk = unsafe { _mm_loadu_si128(padding_wk.as_ptr().add(4 * i).cast()) };
            rounds4_shared!(a0, c0, a1, c1, wk);
            lockstep!(a0, c0, a1, c1);
        }
        store_digest(
            _mm_add_epi32(a0, middle0.0),
            _mm_add_epi32(c0, middle0.1),
            $out0,
        );
        store_digest(
            _mm_add_epi32(a1, middle1.0),
            _mm_add_epi32(c1, middle1.1),
            $out1,
        );
    }};
}

/// Two whole messages of one block each, `block0` and `block1`, from the state `iv` (SHA-NI
/// order) side by side: each block's rounds as `compress` runs them, the feed-forward, then
/// the padding block's rounds on its constant `w + K` (`padding_wk`, 64 words) and the
/// feed-forward again, the streams in [`lockstep!`]; writes both digests (28 or 32 bytes)
/// into `out0` and `out1` straight from the registers (returned, the final states went
/// through the stack, SHA-224's eighth words too, which the residue scan caught). The
/// single-message kernel `shani` runs pairs of one-block messages (Merkle nodes) here.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) fn one_block_pair(
    iv: (__m128i, __m128i),
    [block0, block1]: [&[u8; 64]; 2],
    padding_wk: &[u32; 64],
    [out0, out1]: [&mut [u8]; 2],
) {
    let (middle0, middle1) = message_blocks_x2!(iv, block0, block1);
    padding_blocks_x2!(middle0, middle1, padding_wk, out0, out1);
}

/// Four rounds of a padding block on the constant `w + K` (`$padding_wk`, group `$i`) in one
/// stream and of a message block on its schedule `$y0..$y3` in the other, then (with
/// `schedule`) that stream's words four groups later.
macro_rules! quad_beside_padding {
    ($i:expr, $a0:ident, $c0:ident, $a1:ident, $c1:ident, $padding_wk:expr,
     $y0:ident, $y1:ident, $y2:ident, $y3:ident $(, $schedule:ident)?) => {
        // SAFETY: words 4i..4i+4 (i < 16) of the 64 words; unaligned load.
        let wk = unsafe { _mm_loadu_si128($padding_wk.as_ptr().add(4 * $i).cast()) };
        rounds4!($a0, $c0, wk);
        rounds4!($a1, $c1, _mm_add_epi32($y0, k4($i)));
        $($schedule!($y0, $y1, $y2, $y3);)?
    };
}

/// The 64 rounds of a padding block in one stream (`$a0`, `$c0`) beside a message block in
/// the other (`$a1`, `$c1`, schedule `$y0..$y3`), in [`lockstep!`].
#[rustfmt::skip]
macro_rules! block_beside_padding {
    ($a0:ident, $c0:ident, $a1:ident, $c1:ident, $padding_wk:expr,
     $y0:ident, $y1:ident, $y2:ident, $y3:ident) => {
        for g in 0..3 {
            quad_beside_padding!(4 * g, $a0, $c0, $a1, $c1, $padding_wk, $y0, $y1, $y2, $y3, schedule);
            lockstep!($a0, $c0, $a1, $c1);
            quad_beside_padding!(4 * g + 1, $a0, $c0, $a1, $c1, $padding_wk, $y1, $y2, $y3, $y0, schedule);
            lockstep!($a0, $c0, $a1, $c1);
            quad_beside_padding!(4 * g + 2, $a0, $c0, $a1, $c1, $padding_wk, $y2, $y3, $y0, $y1, schedule);
            lockstep!($a0, $c0, $a1, $c1);
            quad_beside_padding!(4 * g + 3, $a0, $c0, $a1, $c1, $padding_wk, $y3, $y0, $y1, $y2, schedule);
            lockstep!($a0, $c0, $a1, $c1);
        }
        quad_beside_padding!(12, $a0, $c0, $a1, $c1, $padding_wk, $y0, $y1, $y2, $y3);
        lockstep!($a0, $c0, $a1, $c1);
        quad_beside_padding!(13, $a0, $c0, $a1, $c1, $padding_wk, $y1, $y2, $y3, $y0);
        lockstep!($a0, $c0, $a1, $c1);
        quad_beside_padding!(14, $a0, $c0, $a1, $c1, $padding_wk, $y2, $y3, $y0, $y1);
        lockstep!($a0, $c0, $a1, $c1);
        quad_beside_padding!(15, $a0, $c0, $a1, $c1, $padding_wk, $y3, $y0, $y1, $y2);
    };
}

/// The two middle states [`one_block_three`] keeps in memory of its own, wiped when dropped
/// (on an unwinding panic too).
#[repr(C, align(16))]
struct Pending([u32; 16]);

impl Drop for Pending {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

/// Three whole messages of one block each from the state `iv` (SHA-NI order) in three steps of
/// two streams: the first two messages' blocks side by side, then the first one's padding
/// block beside the third one's block, then the padding blocks of the second and the third.
/// The SHA unit never runs one stream alone (a pair, then the odd message on its own, left it
/// half idle for the odd one's two blocks). Digests as [`one_block_pair`] writes them.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) fn one_block_three(
    iv: (__m128i, __m128i),
    [block0, block1, block2]: [&[u8; 64]; 3],
    padding_wk: &[u32; 64],
    [out0, out1, out2]: [&mut [u8]; 3],
) {
    let ((mut a0, mut c0), (a1, c1)) = message_blocks_x2!(iv, block0, block1);
    // The first two messages' middle states wait out the next step (the first one's to its
    // end, for its feed-forward) in memory of our own, wiped in place at the block's end:
    // held in registers beside two streams and a schedule, they left too few, and LLVM
    // spilled one of them to the stack, unwiped.
    let (middle1, middle2) = {
        let mut pending = Pending([0; 16]);
        let p: *mut __m128i = pending.0.as_mut_ptr().cast();
        // SAFETY: `pending` is 64 bytes: four unaligned 16-byte stores.
        unsafe {
            _mm_storeu_si128(p, a0);
            _mm_storeu_si128(p.add(1), c0);
            _mm_storeu_si128(p.add(2), a1);
            _mm_storeu_si128(p.add(3), c1);
        }
        let p: *const __m128i = core::hint::black_box(&mut pending).0.as_ptr().cast();
        // The first message's padding block beside the third message's block.
        let [mut z0, mut z1, mut z2, mut z3] = block_words(block2);
        let (mut a2, mut c2) = iv;
        block_beside_padding!(a0, c0, a2, c2, padding_wk, z0, z1, z2, z3);
        // SAFETY: as the stores above: unaligned 16-byte loads.
        let (mid_a0, mid_c0) = unsafe { (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1))) };
        store_digest(_mm_add_epi32(a0, mid_a0), _mm_add_epi32(c0, mid_c0), out0);
        // SAFETY: as the stores above: unaligned 16-byte loads.
        let middle1 = unsafe { (_mm_loadu_si128(p.add(2)), _mm_loadu_si128(p.add(3))) };
        (middle1, (_mm_add_epi32(a2, iv.0), _mm_add_epi32(c2, iv.1)))
    };
    // The padding blocks of the second and the third.
    padding_blocks_x2!(middle1, middle2, padding_wk, out1, out2);
}

multisha_contract::declare_variant! {
    /// The `shani-x2` SHA-256 many-message variant.
    pub static VARIANT: Sha256Compression = {
        name: "shani-x2",
        description: "two messages at once: two streams of sha256rnds2 interleaved, schedules in registers, states in registers and the caller's states (read back for the feed-forward)",
        schedule: Registers,
        requires: ["sha", "sse2", "ssse3", "sse4.1"],
        lanes: 2,
        cost: { setup: 92.0, call: 27.0, step: 66.0, message: 10.0, ragged: 18.0 },
    };
    /// Compresses `blocks[0]` into `states[0]` and `blocks[1]` into `states[1]`, block by
    /// block in step; `_w` is not used.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 8]], blocks: &[&[[u8; 64]]], _w: &mut LaneWorkspace) {
        let [s0, s1] = states else {
            panic!("shani-x2 takes two lanes");
        };
        let (&[b0, b1], _) = equal_lanes::<_, 2>(blocks);
        let (mut a0, mut c0) = to_shani(s0);
        let (mut a1, mut c1) = to_shani(s1);
        for (block0, block1) in b0.iter().zip(b1.iter()) {
            let [mut x0, mut x1, mut x2, mut x3] = block_words(block0);
            let [mut y0, mut y1, mut y2, mut y3] = block_words(block1);
            // Rounds 0..48 consume a schedule vector, then replace it by the one sixteen words
            // later; rounds 48..64 only consume.
            block_x2!(lockstep, a0, c0, a1, c1, x0, x1, x2, x3, y0, y1, y2, y3);
            (a0, c0) = feed_forward(s0, a0, c0);
            (a1, c1) = feed_forward(s1, a1, c1);
        }
    }
    /// One compression of both lanes on the expanded schedule `w[0..64]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 8]], w: &[u32], _ws: &mut LaneWorkspace) {
        let [s0, s1] = states else {
            panic!("shani-x2 takes two lanes");
        };
        let w: &[u32; 64] = w.try_into().expect("a 64-word schedule");
        let (mut a0, mut c0) = to_shani(s0);
        let (mut a1, mut c1) = to_shani(s1);
        let (a0_in, c0_in, a1_in, c1_in) = (a0, c0, a1, c1);
        for i in 0..16 {
            // SAFETY: words 4i..4i+4 (i < 16) of the 64-word schedule; unaligned load.
            let wk = _mm_add_epi32(unsafe { _mm_loadu_si128(w.as_ptr().add(4 * i).cast()) }, k4(i));
            rounds4_shared!(a0, c0, a1, c1, wk);
        }
        from_shani(s0, _mm_add_epi32(a0, a0_in), _mm_add_epi32(c0, c0_in));
        from_shani(s1, _mm_add_epi32(a1, a1_in), _mm_add_epi32(c1, c1_in));
    }
    /// The PBKDF2 loop of two chains at once (two output blocks of one derivation), as
    /// `sha256_shani`'s for one: `U`, `T` and both keyed states in SHA-NI order in registers
    /// (or their spill slots) across all iterations, each message built from the state.
    #[inline(never)]
    pub fn iterate(
        keys: &HmacKeys<Sha256Compression>,
        u: &mut [[u32; 8]],
        t: &mut [[u32; 8]],
        digest_len: usize,
        count: u32,
    ) {
        let ([u0, u1], [t0, t1]) = (u, t) else {
            panic!("shani-x2 takes two lanes");
        };
        if count == 0 {
            return;
        }
        let template = hmac_template::<Sha256Compression>(digest_len);
        assert!(
            template.mask[..4] == [u32::MAX; 4],
            "SHA-256 digests fill the first four words"
        );
        let words = |w: &[u32]| _mm_set_epi32(w[3] as i32, w[2] as i32, w[1] as i32, w[0] as i32);
        let (mask1, pad1) = (words(&template.mask[4..8]), words(&template.pad[4..8]));
        let (pad2, pad3) = (words(&template.pad[8..12]), words(&template.pad[12..16]));
        let inner = to_shani(&keys.inner);
        let outer = to_shani(&keys.outer);
        let (mut a0, mut c0) = to_shani(u0);
        let (mut a1, mut c1) = to_shani(u1);
        let (mut ta0, mut tc0) = to_shani(t0);
        let (mut ta1, mut tc1) = to_shani(t1);
        for _ in 0..count {
            for (start_a, start_c) in [inner, outer] {
                let (mut x0, mut x1) = message(a0, c0, mask1, pad1);
                let (mut y0, mut y1) = message(a1, c1, mask1, pad1);
                let (mut x2, mut x3, mut y2, mut y3) = (pad2, pad3, pad2, pad3);
                (a0, c0, a1, c1) = (start_a, start_c, start_a, start_c);
                block_x2!(free, a0, c0, a1, c1, x0, x1, x2, x3, y0, y1, y2, y3, short);
                (a0, c0) = (_mm_add_epi32(a0, start_a), _mm_add_epi32(c0, start_c));
                (a1, c1) = (_mm_add_epi32(a1, start_a), _mm_add_epi32(c1, start_c));
            }
            (ta0, tc0) = (_mm_xor_si128(ta0, a0), _mm_xor_si128(tc0, c0));
            (ta1, tc1) = (_mm_xor_si128(ta1, a1), _mm_xor_si128(tc1, c1));
        }
        from_shani(u0, a0, c0);
        from_shani(u1, a1, c1);
        from_shani(t0, ta0, tc0);
        from_shani(t1, ta1, tc1);
    }
}

/// The first eight message words of an HMAC block whose digest is the state `abef`, `cdgh`:
/// `[a, b, c, d]` as it is (state words are the digest's big-endian words), `[e, f, g, h]`
/// masked and padded for SHA-224.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1")]
fn message(abef: __m128i, cdgh: __m128i, mask1: __m128i, pad1: __m128i) -> (__m128i, __m128i) {
    let feba = _mm_shuffle_epi32::<0x1b>(abef);
    let dchg = _mm_shuffle_epi32::<0xb1>(cdgh);
    let efgh = _mm_alignr_epi8::<8>(dchg, feba);
    (
        _mm_blend_epi16::<0xf0>(feba, dchg),
        _mm_or_si128(_mm_and_si128(efgh, mask1), pad1),
    )
}
