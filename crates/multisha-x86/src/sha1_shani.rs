//! SHA-1 with the x86 SHA extensions (SHA-NI).
//!
//! * `sha1rnds4` runs four rounds on `abcd` with one group's function and constant (its
//!   immediate selects the group); `e` enters folded into the first schedule word.
//! * `sha1nexte` derives the next four rounds' `e` (`rotl30` of the old `a`) and adds it to
//!   their schedule words.
//! * `sha1msg1` / `sha1msg2` expand the next four schedule words from the previous sixteen,
//!   with one `pxor` in between for the `w[t-8]` term; used for words 16..32 only (see
//!   `schedule_block`).
//!
//! Design: the state lives in two xmm registers for the whole call (loaded once, stored once),
//! and so does each block's schedule, so the workspace is ignored. Words sit in the SHA-NI
//! order (`w[t]` in the top lane), hence the full byte reversal on load. A block's schedule
//! is computed whole before its rounds (`schedule_block`), most of it with vector XORs and
//! shifts on the vector ALUs: from `sha1msg1/2`, which compete with the rounds for the SHA
//! unit, a block took 10% longer (Intel Xeon). The PBKDF2 loop keeps `U`, `T` and both HMAC
//! keyed states in SHA-NI order across all its iterations: a digest's `abcd` register is the
//! next message's first four words as it is.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_and_si128, _mm_extract_epi32, _mm_loadu_si128,
    _mm_or_si128, _mm_set_epi32, _mm_set_epi64x, _mm_sha1msg1_epu32, _mm_sha1msg2_epu32,
    _mm_sha1nexte_epu32, _mm_sha1rnds4_epu32, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_slli_epi32,
    _mm_srli_epi32, _mm_storeu_si128, _mm_xor_si128,
};
use multisha_contract::{HmacKeys, Sha1Compression, Sha1Workspace, hmac_template};

/// Four rounds from `abcd` = `$h0`: their `e` comes from `$h1` (the `abcd` four rounds
/// earlier) added to the words `$w`. Evaluates to the new `abcd`.
macro_rules! rounds4 {
    ($h0:ident, $h1:ident, $w:expr, $group:literal) => {
        _mm_sha1rnds4_epu32::<$group>($h0, _mm_sha1nexte_epu32($h1, $w))
    };
}

/// The five state words at `$state` (`&[u32; 5]`) as SHA-NI's `(abcd, e)`, `a` and `e` in
/// the top lanes.
macro_rules! to_shani {
    ($state:expr) => {{
        let state: &[u32; 5] = $state;
        // SAFETY: the state is 20 bytes, so its first 16 are readable; the load is unaligned.
        let abcd = unsafe { _mm_loadu_si128(state.as_ptr().cast()) };
        (
            _mm_shuffle_epi32::<0x1b>(abcd),
            _mm_set_epi32(state[4] as i32, 0, 0, 0),
        )
    }};
}

/// Stores a state in SHA-NI order into `$state` (`&mut [u32; 5]`).
macro_rules! from_shani {
    ($abcd:expr, $e:expr, $state:expr) => {{
        let state: &mut [u32; 5] = $state;
        let abcd = _mm_shuffle_epi32::<0x1b>($abcd);
        // SAFETY: the state is 20 bytes, so its first 16 are writable; the store is unaligned.
        unsafe { _mm_storeu_si128(state.as_mut_ptr().cast(), abcd) };
        state[4] = _mm_extract_epi32::<3>($e) as u32;
    }};
}

/// One block with message words `$w0..$w3` (w[t] in the top lane) compressed into the state
/// `$abcd`, `$e`, feed-forward included.
macro_rules! compress_block {
    ($abcd:ident, $e:ident, $w0:expr, $w1:expr, $w2:expr, $w3:expr) => {{
        let w = schedule_block([$w0, $w1, $w2, $w3]);
        let mut h0 = $abcd;
        let mut h1 = _mm_sha1rnds4_epu32::<0>(h0, _mm_add_epi32($e, w[0]));
        h0 = rounds4!(h1, h0, w[1], 0);
        h1 = rounds4!(h0, h1, w[2], 0);
        h0 = rounds4!(h1, h0, w[3], 0);
        h1 = rounds4!(h0, h1, w[4], 0);
        h0 = rounds4!(h1, h0, w[5], 1);
        h1 = rounds4!(h0, h1, w[6], 1);
        h0 = rounds4!(h1, h0, w[7], 1);
        h1 = rounds4!(h0, h1, w[8], 1);
        h0 = rounds4!(h1, h0, w[9], 1);
        h1 = rounds4!(h0, h1, w[10], 2);
        h0 = rounds4!(h1, h0, w[11], 2);
        h1 = rounds4!(h0, h1, w[12], 2);
        h0 = rounds4!(h1, h0, w[13], 2);
        h1 = rounds4!(h0, h1, w[14], 2);
        h0 = rounds4!(h1, h0, w[15], 3);
        h1 = rounds4!(h0, h1, w[16], 3);
        h0 = rounds4!(h1, h0, w[17], 3);
        h1 = rounds4!(h0, h1, w[18], 3);
        h0 = rounds4!(h1, h0, w[19], 3);
        $abcd = _mm_add_epi32($abcd, h0);
        // The final `e` is rotl30 of the `a` four rounds back, plus the saved `e`.
        $e = _mm_sha1nexte_epu32(h1, $e);
    }};
}

/// The whole schedule of a block, in groups of four words (SHA-NI order), from its first
/// four groups: groups 4..8 by `sha1msg1/2`, the rest as
/// `w[t] = rotl2(w[t-6] ^ w[t-16] ^ w[t-28] ^ w[t-32])` on the vector ALUs, off the SHA unit
/// the rounds wait on (one stream: 10% less time per block; the PBKDF2 loops of one and two
/// streams: 9% and 10% less, on an Intel Xeon).
#[inline]
#[target_feature(enable = "sha,sse2,ssse3")]
pub(crate) fn schedule_block(message: [__m128i; 4]) -> [__m128i; 20] {
    let mut w = [message[0]; 20];
    w[..4].copy_from_slice(&message);
    for g in 4..8 {
        w[g] = _mm_sha1msg2_epu32(
            _mm_xor_si128(_mm_sha1msg1_epu32(w[g - 4], w[g - 3]), w[g - 2]),
            w[g - 1],
        );
    }
    for g in 8..20 {
        // `w[4g-6..4g-2]`: the low half of group g-2 and the high half of g-1 (SHA-NI order).
        let w6 = _mm_alignr_epi8::<8>(w[g - 2], w[g - 1]);
        let v = _mm_xor_si128(
            _mm_xor_si128(w6, w[g - 4]),
            _mm_xor_si128(w[g - 7], w[g - 8]),
        );
        w[g] = _mm_or_si128(_mm_slli_epi32::<2>(v), _mm_srli_epi32::<30>(v));
    }
    w
}

multisha_contract::declare_variant! {
    /// The `shani` SHA-1 variant.
    pub static VARIANT: Sha1Compression = {
        name: "shani",
        description: "x86 SHA extensions (sha1rnds4, sha1nexte; sha1msg1/2 for a quarter of the schedule, vector XORs and shifts for the rest), state and schedule in registers",
        schedule: Registers,
        requires: ["sha", "sse2", "ssse3", "sse4.1"],
        cost: { call: 2.0, step: 29.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state` with SHA-NI; `w` is not used.
    #[inline(never)]
    pub fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]], w: &mut Sha1Workspace) {
        let _ = w;
        // Reverses all 16 bytes: big-endian words, and w[t] in the top lane as SHA-NI wants.
        let reverse = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
        let (mut abcd, mut e) = to_shani!(state);

        for block in blocks {
            let p: *const __m128i = block.as_ptr().cast();
            // SAFETY: `block` is 64 bytes, so the four unaligned 16-byte loads stay inside it.
            let [w0, w1, w2, w3] =
                unsafe { [0, 1, 2, 3].map(|i| _mm_shuffle_epi8(_mm_loadu_si128(p.add(i)), reverse)) };
            compress_block!(abcd, e, w0, w1, w2, w3);
        }

        from_shani!(abcd, e, state);
    }

    /// The PBKDF2 loop with SHA-NI: `U`, `T` and both keyed states stay in registers in
    /// SHA-NI order for the whole call; the `abcd` register of a digest is its first four
    /// message words as they are, `e` masked and padded the next four.
    #[inline(never)]
    pub fn iterate(
        keys: &HmacKeys<Sha1Compression>,
        u: &mut [u32; 5],
        t: &mut [u32; 5],
        digest_len: usize,
        count: u32,
    ) {
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
        let (inner_abcd, inner_e) = to_shani!(&keys.inner);
        let (outer_abcd, outer_e) = to_shani!(&keys.outer);
        let (mut abcd, mut e) = to_shani!(u);
        let (mut t_abcd, mut t_e) = to_shani!(t);
        for _ in 0..count {
            for start in [(inner_abcd, inner_e), (outer_abcd, outer_e)] {
                let w0 = abcd;
                let w1 = _mm_or_si128(_mm_and_si128(e, mask1), pad1);
                (abcd, e) = start;
                compress_block!(abcd, e, w0, w1, pad2, pad3);
            }
            t_abcd = _mm_xor_si128(t_abcd, abcd);
            t_e = _mm_xor_si128(t_e, e);
        }
        from_shani!(abcd, e, u);
        from_shani!(t_abcd, t_e, t);
    }
}
