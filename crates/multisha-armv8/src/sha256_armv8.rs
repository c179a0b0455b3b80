//! SHA-256 (and SHA-224) on the AArch64 SHA-256 instructions (FEAT_SHA256, Rust target
//! feature `sha2`).
//!
//! The instructions, each working on 128-bit vectors of four 32-bit words:
//!
//! * `SHA256H  abcd, efgh, wk` (`vsha256hq_u32`): four rounds; returns the new a..d.
//!   `abcd` and `efgh` hold the eight working variables, `wk` the four schedule words of these
//!   rounds with their round constants already added.
//! * `SHA256H2 efgh, abcd, wk` (`vsha256h2q_u32`): the same four rounds, returning the new
//!   e..h. It takes the *old* a..d, so a..d is copied before `SHA256H` overwrites it.
//! * `SHA256SU0 w0, w4` (`vsha256su0q_u32`): first half of the schedule for four words,
//!   `w[t-16] + σ0(w[t-15])`.
//! * `SHA256SU1 t, w8, w12` (`vsha256su1q_u32`): second half, adds `w[t-7]` and
//!   `σ1(w[t-2])` (for the upper two lanes `w[t-2]` is a lane of its own result), giving
//!   `w[t..t+4]`.
//!
//! The kernel keeps the state in two vectors, all 64 round constants in sixteen vectors and
//! the sixteen-word schedule window in four vectors, for every block of the call. It never
//! touches the workspace. The PBKDF2 loop keeps `U`, `T` and both HMAC keyed states in
//! vectors across all its iterations: the state vectors are the next message's words.

use crate::neon_words::{load_u32x4, load_words};
use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vandq_u32, veorq_u32, vorrq_u32, vsha256h2q_u32, vsha256hq_u32,
    vsha256su0q_u32, vsha256su1q_u32, vst1q_u32,
};
use multisha_contract::{HmacKeys, SHA256_K, Sha256Compression, Sha256Workspace, hmac_template};

/// Four rounds with schedule words `$w` and round constants `$k`.
macro_rules! quad {
    ($k:expr, $abcd:ident, $efgh:ident, $w:ident) => {
        let wk = vaddq_u32($w, $k);
        let abcd_old = $abcd;
        $abcd = vsha256hq_u32($abcd, $efgh, wk);
        $efgh = vsha256h2q_u32($efgh, abcd_old, wk);
    };
}

/// Replaces the oldest four schedule words `$w0` (`w[t-16..t-12]`) with `w[t..t+4]`.
macro_rules! schedule {
    ($w0:ident, $w4:ident, $w8:ident, $w12:ident) => {
        $w0 = vsha256su1q_u32(vsha256su0q_u32($w0, $w4), $w8, $w12);
    };
}

/// One block with message words `$w0..$w3` compressed into `$abcd`, `$efgh` with the round
/// constants `$k`, feed-forward included.
macro_rules! compress_block {
    ($k:ident, $abcd:ident, $efgh:ident, $w0:expr, $w1:expr, $w2:expr, $w3:expr) => {{
        let (abcd_in, efgh_in) = ($abcd, $efgh);
        let (mut w0, mut w1, mut w2, mut w3) = ($w0, $w1, $w2, $w3);

        // Rounds 0..48: after the quad that used a window vector for the last time, the
        // schedule overwrites it with the words four quads later.
        quad!($k[0], $abcd, $efgh, w0);
        schedule!(w0, w1, w2, w3);
        quad!($k[1], $abcd, $efgh, w1);
        schedule!(w1, w2, w3, w0);
        quad!($k[2], $abcd, $efgh, w2);
        schedule!(w2, w3, w0, w1);
        quad!($k[3], $abcd, $efgh, w3);
        schedule!(w3, w0, w1, w2);

        quad!($k[4], $abcd, $efgh, w0);
        schedule!(w0, w1, w2, w3);
        quad!($k[5], $abcd, $efgh, w1);
        schedule!(w1, w2, w3, w0);
        quad!($k[6], $abcd, $efgh, w2);
        schedule!(w2, w3, w0, w1);
        quad!($k[7], $abcd, $efgh, w3);
        schedule!(w3, w0, w1, w2);

        quad!($k[8], $abcd, $efgh, w0);
        schedule!(w0, w1, w2, w3);
        quad!($k[9], $abcd, $efgh, w1);
        schedule!(w1, w2, w3, w0);
        quad!($k[10], $abcd, $efgh, w2);
        schedule!(w2, w3, w0, w1);
        quad!($k[11], $abcd, $efgh, w3);
        schedule!(w3, w0, w1, w2);

        // Rounds 48..64 need no new schedule words.
        quad!($k[12], $abcd, $efgh, w0);
        quad!($k[13], $abcd, $efgh, w1);
        quad!($k[14], $abcd, $efgh, w2);
        quad!($k[15], $abcd, $efgh, w3);

        $abcd = vaddq_u32($abcd, abcd_in);
        $efgh = vaddq_u32($efgh, efgh_in);
    }};
}

multisha_contract::declare_variant! {
    /// The `armv8` SHA-256 variant.
    pub static VARIANT: Sha256Compression = {
        name: "armv8",
        description: "ARMv8 crypto extensions (SHA256H/H2, SHA256SU0/1), state and constants in registers",
        schedule: Registers,
        requires: ["sha2"],
        cost: { call: 2.0, step: 40.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state` with the SHA-256 instructions; `_w` is not used (the
    /// schedule lives in vector registers).
    #[inline(never)]
    pub fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]], _w: &mut Sha256Workspace) {
        let k: [uint32x4_t; 16] = core::array::from_fn(|i| load_u32x4(&SHA256_K[4 * i..4 * i + 4]));
        let mut abcd = load_u32x4(&state[..4]);
        let mut efgh = load_u32x4(&state[4..]);

        for block in blocks {
            let w = [0, 1, 2, 3].map(|i| load_words(block, i));
            compress_block!(k, abcd, efgh, w[0], w[1], w[2], w[3]);
        }

        store(state, abcd, efgh);
    }

    /// The PBKDF2 loop on the SHA-256 instructions: `U`, `T`, both keyed states and the round
    /// constants stay in vector registers across all iterations; a digest's `abcd` is the
    /// next message's first four words as it is, `efgh` (masked and padded for SHA-224) the
    /// next four, the rest constant padding.
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
        let k: [uint32x4_t; 16] = core::array::from_fn(|i| load_u32x4(&SHA256_K[4 * i..4 * i + 4]));
        let template = hmac_template::<Sha256Compression>(digest_len);
        assert!(
            template.mask[..4] == [u32::MAX; 4],
            "SHA-256 digests fill the first four words"
        );
        let mask1 = load_u32x4(&template.mask[4..8]);
        let [pad1, pad2, pad3] = [1, 2, 3].map(|i| load_u32x4(&template.pad[4 * i..4 * i + 4]));
        let (inner_abcd, inner_efgh) = (load_u32x4(&keys.inner[..4]), load_u32x4(&keys.inner[4..]));
        let (outer_abcd, outer_efgh) = (load_u32x4(&keys.outer[..4]), load_u32x4(&keys.outer[4..]));
        let (mut abcd, mut efgh) = (load_u32x4(&u[..4]), load_u32x4(&u[4..]));
        let (mut t_abcd, mut t_efgh) = (load_u32x4(&t[..4]), load_u32x4(&t[4..]));
        for _ in 0..count {
            let (w0, w1) = (abcd, vorrq_u32(vandq_u32(efgh, mask1), pad1));
            (abcd, efgh) = (inner_abcd, inner_efgh);
            compress_block!(k, abcd, efgh, w0, w1, pad2, pad3);
            let (w0, w1) = (abcd, vorrq_u32(vandq_u32(efgh, mask1), pad1));
            (abcd, efgh) = (outer_abcd, outer_efgh);
            compress_block!(k, abcd, efgh, w0, w1, pad2, pad3);
            t_abcd = veorq_u32(t_abcd, abcd);
            t_efgh = veorq_u32(t_efgh, efgh);
        }
        store(u, abcd, efgh);
        store(t, t_abcd, t_efgh);
    }
}

/// Stores `abcd` and `efgh` as the eight words of `state`.
#[inline(always)]
fn store(state: &mut [u32; 8], abcd: uint32x4_t, efgh: uint32x4_t) {
    let (lo, hi) = state.split_at_mut(4);
    // SAFETY: `lo` and `hi` are four writable `u32`s each, exactly what `vst1q_u32` writes;
    // NEON, which it requires, is part of the aarch64 baseline.
    unsafe {
        vst1q_u32(lo.as_mut_ptr(), abcd);
        vst1q_u32(hi.as_mut_ptr(), efgh);
    }
}
