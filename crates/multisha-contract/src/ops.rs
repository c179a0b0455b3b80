//! Helpers shared by the portable kernels: the SHA-1 round functions of FIPS 180-4 §4.1.1 and
//! word loading. (The SHA-2 functions are methods of [`crate::Sha2`].)
//!
//! Each is `#[inline(always)]`, so a kernel built from them is as fast as one written by hand.

use crate::Word;

/// SHA-1 choose, `(b & c) | (!b & d)`, written with one temporary fewer.
#[inline(always)]
pub const fn sha1_ch(b: u32, c: u32, d: u32) -> u32 {
    d ^ (b & (c ^ d))
}

/// SHA-1 parity.
#[inline(always)]
pub const fn sha1_parity(b: u32, c: u32, d: u32) -> u32 {
    b ^ c ^ d
}

/// Majority as `(c & d) + (b & (c ^ d))`: the two terms never share a set bit, so the `|` of
/// the textbook form becomes an add, and a kernel can add the two terms into `e` one by one
/// without a temporary for the whole function.
#[inline(always)]
pub const fn maj(b: u32, c: u32, d: u32) -> u32 {
    (c & d).wrapping_add(b & (c ^ d))
}

/// SHA-1 schedule step on a 16-word circular window: `w[t] = rotl1(w[t-3]^w[t-8]^w[t-14]^w[t-16])`.
#[inline(always)]
pub fn sha1_schedule(w: &mut [u32; 16], t: usize) -> u32 {
    let x = (w[(t + 13) & 15] ^ w[(t + 8) & 15] ^ w[(t + 2) & 15] ^ w[t & 15]).rotate_left(1);
    w[t & 15] = x;
    x
}

/// Loads a block as big-endian words into the start of `w`.
#[inline(always)]
pub fn load_be<W: Word>(block: &[u8], w: &mut [W]) {
    for (word, bytes) in w.iter_mut().zip(block.chunks_exact(W::BYTES)) {
        *word = W::from_be_slice(bytes);
    }
}

/// Adds the working variables back into the chaining state.
#[inline(always)]
pub fn add_into<W: Word, const N: usize>(state: &mut [W; N], working: [W; N]) {
    for (s, v) in state.iter_mut().zip(working) {
        *s = s.wrapping_add(v);
    }
}

/// `k[i] + w[i]` for eight consecutive rounds.
#[inline(always)]
pub fn add8<W: Word>(k: &[W], w: &[W]) -> [W; 8] {
    core::array::from_fn(|i| k[i].wrapping_add(w[i]))
}
