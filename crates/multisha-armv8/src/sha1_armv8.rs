//! SHA-1 on the AArch64 SHA-1 instructions (FEAT_SHA1, Rust target feature `sha2`).
//!
//! The instructions, each working on a 128-bit vector of four 32-bit words:
//!
//! * `SHA1C  abcd, e, wk` (`vsha1cq_u32`): four rounds with the *choose* function
//!   (rounds 0..20). `abcd` holds the working variables a..d, `e` the fifth one as a scalar,
//!   `wk` the four schedule words of these rounds with the round constant already added.
//!   Returns the new a..d.
//! * `SHA1P  abcd, e, wk` (`vsha1pq_u32`): the same with the *parity* function
//!   (rounds 20..40 and 60..80).
//! * `SHA1M  abcd, e, wk` (`vsha1mq_u32`): the same with the *majority* function
//!   (rounds 40..60).
//! * `SHA1H  a` (`vsha1h_u32`): `rotl30(a)`, the `e` of the next four rounds (after four
//!   rounds the old `a` has moved down to `e`, rotated by 30 on the way).
//! * `SHA1SU0 w0, w4, w8` (`vsha1su0q_u32`) and `SHA1SU1 t, w12` (`vsha1su1q_u32`): the two
//!   halves of the schedule, `w[t] = rotl1(w[t-3] ^ w[t-8] ^ w[t-14] ^ w[t-16])` for four
//!   words at once. SU0 xors `w[t-16]`, `w[t-14]` and `w[t-8]`; SU1 xors in `w[t-3]` (for the
//!   fourth lane that is the first lane of its own result) and rotates by one.
//!
//! The kernel keeps a..d in one vector, e in a general register, the four round constants in
//! four vectors and the sixteen-word schedule window in four vectors, for every block of the
//! call. It never touches the workspace. The PBKDF2 loop keeps `U`, `T` and both HMAC keyed
//! states in registers across all its iterations: `abcd` is the next message's first words.

use crate::neon_words::{load_u32x4, load_words};
use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vandq_u32, vdupq_n_u32, veorq_u32, vgetq_lane_u32, vorrq_u32,
    vsha1cq_u32, vsha1h_u32, vsha1mq_u32, vsha1pq_u32, vsha1su0q_u32, vsha1su1q_u32, vst1q_u32,
};
use multisha_contract::{HmacKeys, SHA1_K, Sha1Compression, Sha1Workspace, hmac_template};

/// Four rounds: `abcd = op(abcd, e, w + k)`, and `e` becomes `rotl30` of the old `a`.
macro_rules! quad {
    ($op:ident, $k:expr, $abcd:ident, $e:ident, $w:ident) => {
        let wk = vaddq_u32($w, $k);
        let next_e = vsha1h_u32(vgetq_lane_u32::<0>($abcd));
        $abcd = $op($abcd, $e, wk);
        $e = next_e;
    };
}

/// Replaces the oldest four schedule words `$w0` (`w[t-16..t-12]`) with `w[t..t+4]`.
macro_rules! schedule {
    ($w0:ident, $w4:ident, $w8:ident, $w12:ident) => {
        $w0 = vsha1su1q_u32(vsha1su0q_u32($w0, $w4, $w8), $w12);
    };
}

/// One block with message words `$w0..$w3` compressed into `$abcd`, `$e` with the round
/// constants `$k` (one vector per 20-round group), feed-forward included.
macro_rules! compress_block {
    ($k:ident, $abcd:ident, $e:ident, $w0:expr, $w1:expr, $w2:expr, $w3:expr) => {{
        let (abcd_in, e_in) = ($abcd, $e);
        let (mut w0, mut w1, mut w2, mut w3) = ($w0, $w1, $w2, $w3);

        // Rounds 0..20: choose. After the quad that used a window vector for the last time,
        // the schedule overwrites it with the words four quads later.
        quad!(vsha1cq_u32, $k[0], $abcd, $e, w0);
        schedule!(w0, w1, w2, w3);
        quad!(vsha1cq_u32, $k[0], $abcd, $e, w1);
        schedule!(w1, w2, w3, w0);
        quad!(vsha1cq_u32, $k[0], $abcd, $e, w2);
        schedule!(w2, w3, w0, w1);
        quad!(vsha1cq_u32, $k[0], $abcd, $e, w3);
        schedule!(w3, w0, w1, w2);
        quad!(vsha1cq_u32, $k[0], $abcd, $e, w0);
        schedule!(w0, w1, w2, w3);

        // Rounds 20..40: parity.
        quad!(vsha1pq_u32, $k[1], $abcd, $e, w1);
        schedule!(w1, w2, w3, w0);
        quad!(vsha1pq_u32, $k[1], $abcd, $e, w2);
        schedule!(w2, w3, w0, w1);
        quad!(vsha1pq_u32, $k[1], $abcd, $e, w3);
        schedule!(w3, w0, w1, w2);
        quad!(vsha1pq_u32, $k[1], $abcd, $e, w0);
        schedule!(w0, w1, w2, w3);
        quad!(vsha1pq_u32, $k[1], $abcd, $e, w1);
        schedule!(w1, w2, w3, w0);

        // Rounds 40..60: majority.
        quad!(vsha1mq_u32, $k[2], $abcd, $e, w2);
        schedule!(w2, w3, w0, w1);
        quad!(vsha1mq_u32, $k[2], $abcd, $e, w3);
        schedule!(w3, w0, w1, w2);
        quad!(vsha1mq_u32, $k[2], $abcd, $e, w0);
        schedule!(w0, w1, w2, w3);
        quad!(vsha1mq_u32, $k[2], $abcd, $e, w1);
        schedule!(w1, w2, w3, w0);
        quad!(vsha1mq_u32, $k[2], $abcd, $e, w2);
        schedule!(w2, w3, w0, w1);

        // Rounds 60..80: parity; the last four quads need no new schedule words.
        quad!(vsha1pq_u32, $k[3], $abcd, $e, w3);
        schedule!(w3, w0, w1, w2);
        quad!(vsha1pq_u32, $k[3], $abcd, $e, w0);
        quad!(vsha1pq_u32, $k[3], $abcd, $e, w1);
        quad!(vsha1pq_u32, $k[3], $abcd, $e, w2);
        quad!(vsha1pq_u32, $k[3], $abcd, $e, w3);

        $abcd = vaddq_u32($abcd, abcd_in);
        $e = $e.wrapping_add(e_in);
    }};
}

multisha_contract::declare_variant! {
    /// The `armv8` SHA-1 variant.
    pub static VARIANT: Sha1Compression = {
        name: "armv8",
        description: "ARMv8 crypto extensions (SHA1C/P/M, SHA1H, SHA1SU0/1), state and constants in registers",
        schedule: Registers,
        requires: ["sha2"],
        cost: { call: 2.0, step: 35.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state` with the SHA-1 instructions; `_w` is not used (the
    /// schedule lives in vector registers).
    #[inline(never)]
    pub fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]], _w: &mut Sha1Workspace) {
        let k = SHA1_K.map(|k| vdupq_n_u32(k));

        let mut abcd = load_u32x4(&state[..4]);
        let mut e = state[4];

        for block in blocks {
            let w = [0, 1, 2, 3].map(|i| load_words(block, i));
            compress_block!(k, abcd, e, w[0], w[1], w[2], w[3]);
        }

        store(state, abcd, e);
    }

    /// The PBKDF2 loop on the SHA-1 instructions: `U`, `T`, both keyed states and the round
    /// constants stay in registers across all iterations; a digest's `abcd` is the next
    /// message's first four words as it is, `e` the fifth, the rest constant padding.
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
        let k = SHA1_K.map(|k| vdupq_n_u32(k));
        let template = hmac_template::<Sha1Compression>(digest_len);
        assert!(
            template.mask[..4] == [u32::MAX; 4],
            "SHA-1 digests fill the first four words"
        );
        let mask1 = load_u32x4(&template.mask[4..8]);
        let [pad1, pad2, pad3] = [1, 2, 3].map(|i| load_u32x4(&template.pad[4 * i..4 * i + 4]));
        let (inner_abcd, inner_e) = (load_u32x4(&keys.inner[..4]), keys.inner[4]);
        let (outer_abcd, outer_e) = (load_u32x4(&keys.outer[..4]), keys.outer[4]);
        let (mut abcd, mut e) = (load_u32x4(&u[..4]), u[4]);
        let (mut t_abcd, mut t_e) = (load_u32x4(&t[..4]), t[4]);
        for _ in 0..count {
            let (w0, w1) = (abcd, vorrq_u32(vandq_u32(vdupq_n_u32(e), mask1), pad1));
            (abcd, e) = (inner_abcd, inner_e);
            compress_block!(k, abcd, e, w0, w1, pad2, pad3);
            let (w0, w1) = (abcd, vorrq_u32(vandq_u32(vdupq_n_u32(e), mask1), pad1));
            (abcd, e) = (outer_abcd, outer_e);
            compress_block!(k, abcd, e, w0, w1, pad2, pad3);
            t_abcd = veorq_u32(t_abcd, abcd);
            t_e ^= e;
        }
        store(u, abcd, e);
        store(t, t_abcd, t_e);
    }
}

/// Stores `abcd` and `e` as the five words of `state`.
#[inline(always)]
fn store(state: &mut [u32; 5], abcd: uint32x4_t, e: u32) {
    // SAFETY: `state` is five writable `u32`s, and `vst1q_u32` writes the first four; NEON,
    // which it requires, is part of the aarch64 baseline.
    unsafe { vst1q_u32(state.as_mut_ptr(), abcd) };
    state[4] = e;
}
