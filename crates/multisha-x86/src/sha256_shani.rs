//! SHA-256 with the x86 SHA extensions (SHA-NI).
//!
//! * `sha256rnds2` runs two rounds on the state split as `abef` / `cdgh`, taking the two
//!   rounds' `k + w` from the low half of its third operand.
//! * `sha256msg1` adds `σ0(w[t-15])` to `w[t-16]`, `sha256msg2` adds the `σ1(w[t-2])` terms
//!   (including the dependency inside the four new words); shifts and adds supply `w[t-7]`
//!   around it, the one word of it from the group just made after `sha256msg2` (the
//!   schedule's chain, not the rounds, set the pace of single blocks and PBKDF2; see
//!   `next_words`).
//!
//! Design: the state lives in two xmm registers in SHA-NI order for the whole call
//! (converted once on entry and once on exit), the schedule in a ring of five xmm registers,
//! so the workspace is ignored. K is added four words at a time from the contract's table.
//! The PBKDF2 loop keeps `U`, `T` and both HMAC keyed states in SHA-NI order across all its
//! iterations and builds each message from the state registers.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_and_si128, _mm_blend_epi16, _mm_loadu_si128,
    _mm_or_si128, _mm_set_epi32, _mm_set_epi64x, _mm_sha256msg1_epu32, _mm_sha256msg2_epu32,
    _mm_sha256rnds2_epu32, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_slli_si128, _mm_srli_si128,
    _mm_storeu_si128, _mm_xor_si128,
};
use multisha_contract::{HmacKeys, SHA256_K, Sha256Compression, Sha256Workspace, hmac_template};

/// Four rounds with schedule words `$w` and constants `K[4*$i..4*$i+4]` (`$i` < 16).
macro_rules! rounds4 {
    ($abef:ident, $cdgh:ident, $w:expr, $i:expr) => {
        // SAFETY: `SHA256_K` has 64 words, so words 4i..4i+4 (i < 16) are readable.
        let k = unsafe { _mm_loadu_si128(SHA256_K.as_ptr().add(4 * $i).cast()) };
        let wk = _mm_add_epi32($w, k);
        $cdgh = _mm_sha256rnds2_epu32($cdgh, $abef, wk);
        // The next two rounds take their k + w from the high half.
        $abef = _mm_sha256rnds2_epu32($abef, $cdgh, _mm_shuffle_epi32::<0x0e>(wk));
    };
}

/// w[t..t+4] from the previous sixteen words `$w0..$w3` (w[t-16..t] four at a time):
/// `sha256msg1` adds σ0(w[t-15]) to w[t-16], an `palignr` supplies w[t-7], `sha256msg2` adds
/// the σ1(w[t-2]) terms.
macro_rules! next_words {
    // (`short` first: the plain arm would try to read it as an expression.) The same words
    // with a shorter path from `$w3`, for a stream whose schedule cannot run
    // ahead of its rounds (a message of one block, PBKDF2's blocks, made of the last digest),
    // where the schedule's chain, one group after the other, sets the pace: `w[t-4]`, the
    // one word of w[t-7..t-4] that `$w3` supplies, only adds to the last new word, which
    // nothing else in `sha256msg2` reads, so it is added after it, and `sha256msg2` waits
    // for `$w3` alone. Two instructions more than the plain form.
    (short $w0:expr, $w1:expr, $w2:expr, $w3:expr) => {
        _mm_add_epi32(
            _mm_sha256msg2_epu32(
                _mm_add_epi32(_mm_sha256msg1_epu32($w0, $w1), _mm_srli_si128::<4>($w2)),
                $w3,
            ),
            _mm_slli_si128::<12>($w3),
        )
    };
    ($w0:expr, $w1:expr, $w2:expr, $w3:expr) => {
        _mm_sha256msg2_epu32(
            _mm_add_epi32(
                _mm_sha256msg1_epu32($w0, $w1),
                _mm_alignr_epi8::<4>($w3, $w2),
            ),
            $w3,
        )
    };
}
pub(crate) use next_words;

/// Schedule `$w4` = w[t..t+4] from the previous sixteen words ([`next_words`], the short
/// chain), then run four rounds with it.
macro_rules! schedule_rounds4 {
    ($abef:ident, $cdgh:ident,
     $w0:ident, $w1:ident, $w2:ident, $w3:ident, $w4:ident, $i:literal) => {
        $w4 = next_words!(short $w0, $w1, $w2, $w3);
        rounds4!($abef, $cdgh, $w4, $i);
    };
}

/// The eight state words at `$state` (`&[u32; 8]`) as SHA-NI's `(abef, cdgh)`:
/// `abef` = [f, e, b, a] and `cdgh` = [h, g, d, c] (lane 0 first).
macro_rules! to_shani {
    ($state:expr) => {{
        let state: &[u32; 8] = $state;
        let p: *const __m128i = state.as_ptr().cast();
        // SAFETY: the state is 32 bytes: two unaligned 16-byte loads.
        let (dcba, hgfe) = unsafe { (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1))) };
        let cdab = _mm_shuffle_epi32::<0xb1>(dcba);
        let efgh = _mm_shuffle_epi32::<0x1b>(hgfe);
        (
            _mm_alignr_epi8::<8>(cdab, efgh),
            _mm_blend_epi16::<0xf0>(efgh, cdab),
        )
    }};
}

/// `[a, b, c, d]` and `[e, f, g, h]` (lane 0 first) of a state in SHA-NI order.
macro_rules! from_shani_words {
    ($abef:expr, $cdgh:expr) => {{
        let feba = _mm_shuffle_epi32::<0x1b>($abef);
        let dchg = _mm_shuffle_epi32::<0xb1>($cdgh);
        (
            _mm_blend_epi16::<0xf0>(feba, dchg),
            _mm_alignr_epi8::<8>(dchg, feba),
        )
    }};
}

/// Stores a state in SHA-NI order into `$state` (`&mut [u32; 8]`) as eight words.
macro_rules! from_shani {
    ($abef:expr, $cdgh:expr, $state:expr) => {{
        let state: &mut [u32; 8] = $state;
        let (abcd, efgh) = from_shani_words!($abef, $cdgh);
        let p: *mut __m128i = state.as_mut_ptr().cast();
        // SAFETY: the state is 32 bytes: two unaligned 16-byte stores.
        unsafe {
            _mm_storeu_si128(p, abcd);
            _mm_storeu_si128(p.add(1), efgh);
        }
    }};
}

/// The first eight message words of an HMAC block whose digest is the state `$abef`,
/// `$cdgh`: its words as they are (state words are the digest's big-endian words), the second
/// four masked and padded for SHA-224.
macro_rules! message {
    ($abef:expr, $cdgh:expr, $mask1:expr, $pad1:expr) => {{
        let (abcd, efgh) = from_shani_words!($abef, $cdgh);
        (abcd, _mm_or_si128(_mm_and_si128(efgh, $mask1), $pad1))
    }};
}

/// One block with message words `$w0..$w3` (big-endian words, w[0] in lane 0 of `$w0`)
/// compressed into the state `$abef`, `$cdgh`, feed-forward included.
macro_rules! compress_block {
    ($abef:ident, $cdgh:ident, $w0:expr, $w1:expr, $w2:expr, $w3:expr) => {{
        let (abef_in, cdgh_in) = ($abef, $cdgh);
        let (mut w0, mut w1, mut w2, mut w3) = ($w0, $w1, $w2, $w3);
        let mut w4;

        rounds4!($abef, $cdgh, w0, 0);
        rounds4!($abef, $cdgh, w1, 1);
        rounds4!($abef, $cdgh, w2, 2);
        rounds4!($abef, $cdgh, w3, 3);
        schedule_rounds4!($abef, $cdgh, w0, w1, w2, w3, w4, 4);
        schedule_rounds4!($abef, $cdgh, w1, w2, w3, w4, w0, 5);
        schedule_rounds4!($abef, $cdgh, w2, w3, w4, w0, w1, 6);
        schedule_rounds4!($abef, $cdgh, w3, w4, w0, w1, w2, 7);
        schedule_rounds4!($abef, $cdgh, w4, w0, w1, w2, w3, 8);
        schedule_rounds4!($abef, $cdgh, w0, w1, w2, w3, w4, 9);
        schedule_rounds4!($abef, $cdgh, w1, w2, w3, w4, w0, 10);
        schedule_rounds4!($abef, $cdgh, w2, w3, w4, w0, w1, 11);
        schedule_rounds4!($abef, $cdgh, w3, w4, w0, w1, w2, 12);
        schedule_rounds4!($abef, $cdgh, w4, w0, w1, w2, w3, 13);
        schedule_rounds4!($abef, $cdgh, w0, w1, w2, w3, w4, 14);
        schedule_rounds4!($abef, $cdgh, w1, w2, w3, w4, w0, 15);
        let _ = (w1, w2, w3, w4);

        $abef = _mm_add_epi32($abef, abef_in);
        $cdgh = _mm_add_epi32($cdgh, cdgh_in);
    }};
}

multisha_contract::declare_variant! {
    /// The `shani` SHA-256 variant.
    pub static VARIANT: Sha256Compression = {
        name: "shani",
        description: "x86 SHA extensions (sha256rnds2, sha256msg1/2), state in registers across blocks",
        schedule: Registers,
        requires: ["sha", "sse2", "ssse3", "sse4.1"],
        cost: { call: 2.0, step: 33.0, message: 12.0 },
        constant:
        /// One compression of `state` on the expanded schedule `w[0..64]` (the constant padding
        /// block of a one-block message): the rounds alone, `w + K` loaded four words at a time,
        /// nothing to schedule and nothing built in memory, so back-to-back messages overlap.
        #[inline(never)]
        pub fn compress_constant(state: &mut [u32; 8], w: &[u32]) {
            let w: &[u32; 64] = w.try_into().expect("a 64-word schedule");
            let (mut abef, mut cdgh) = to_shani!(state);
            let (abef_in, cdgh_in) = (abef, cdgh);
            for i in 0..16 {
                // SAFETY: words 4i..4i+4 (i < 16) of the 64-word schedule: an unaligned
                // 16-byte load.
                let words = unsafe { _mm_loadu_si128(w.as_ptr().add(4 * i).cast()) };
                rounds4!(abef, cdgh, words, i);
            }
            abef = _mm_add_epi32(abef, abef_in);
            cdgh = _mm_add_epi32(cdgh, cdgh_in);
            from_shani!(abef, cdgh, state);
        }
    };
    /// Compresses `blocks` into `state` with SHA-NI; `w` is not used.
    #[inline(never)]
    pub fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]], w: &mut Sha256Workspace) {
        let _ = w;
        // Byte-swaps each 32-bit word (the message is big-endian).
        let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
        let (mut abef, mut cdgh) = to_shani!(state);

        for block in blocks {
            let q: *const __m128i = block.as_ptr().cast();
            // SAFETY: `block` is 64 bytes, so the four unaligned 16-byte loads stay inside it.
            let [w0, w1, w2, w3] =
                unsafe { [0, 1, 2, 3].map(|i| _mm_shuffle_epi8(_mm_loadu_si128(q.add(i)), bswap)) };
            compress_block!(abef, cdgh, w0, w1, w2, w3);
        }

        from_shani!(abef, cdgh, state);
    }

    /// The PBKDF2 loop with SHA-NI: `U`, `T` and both keyed states stay in SHA-NI order in
    /// registers for the whole call; each compression's message is the last digest's state
    /// registers reordered (no byte swapping), then the constant padding words.
    #[inline(never)]
    pub fn iterate(
        keys: &HmacKeys<Sha256Compression>,
        u: &mut [u32; 8],
        t: &mut [u32; 8],
        digest_len: usize,
        count: u32,
    ) {
        if count == 0 {
            return;
        }
        // The message words past the first four: (e..h & mask) | pad, then padding only.
        let template = hmac_template::<Sha256Compression>(digest_len);
        let words = |w: &[u32]| _mm_set_epi32(w[3] as i32, w[2] as i32, w[1] as i32, w[0] as i32);
        assert!(
            template.mask[..4] == [u32::MAX; 4],
            "SHA-256 digests fill the first four words"
        );
        let (mask1, pad1) = (words(&template.mask[4..8]), words(&template.pad[4..8]));
        let (pad2, pad3) = (words(&template.pad[8..12]), words(&template.pad[12..16]));
        let (inner_abef, inner_cdgh) = to_shani!(&keys.inner);
        let (outer_abef, outer_cdgh) = to_shani!(&keys.outer);
        let (mut abef, mut cdgh) = to_shani!(u);
        let (mut t_abef, mut t_cdgh) = to_shani!(t);
        for _ in 0..count {
            let (w0, w1) = message!(abef, cdgh, mask1, pad1);
            (abef, cdgh) = (inner_abef, inner_cdgh);
            compress_block!(abef, cdgh, w0, w1, pad2, pad3);
            let (w0, w1) = message!(abef, cdgh, mask1, pad1);
            (abef, cdgh) = (outer_abef, outer_cdgh);
            compress_block!(abef, cdgh, w0, w1, pad2, pad3);
            t_abef = _mm_xor_si128(t_abef, abef);
            t_cdgh = _mm_xor_si128(t_cdgh, cdgh);
        }
        from_shani!(abef, cdgh, u);
        from_shani!(t_abef, t_cdgh, t);
    }
}
