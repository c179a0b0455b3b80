//! The round functions of FIPS 180-4 §4.1, shared by every portable kernel.
//!
//! Each is `#[inline(always)]`, so a kernel built from them is as fast as one written by hand.

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

/// SHA-256 Σ0.
#[inline(always)]
pub const fn big_sigma0(a: u32) -> u32 {
    a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22)
}

/// SHA-256 Σ1.
#[inline(always)]
pub const fn big_sigma1(e: u32) -> u32 {
    e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25)
}

/// SHA-256 σ0 (schedule).
#[inline(always)]
pub const fn small_sigma0(x: u32) -> u32 {
    x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
}

/// SHA-256 σ1 (schedule).
#[inline(always)]
pub const fn small_sigma1(x: u32) -> u32 {
    x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
}

/// SHA-256 choose.
#[inline(always)]
pub const fn sha256_ch(e: u32, f: u32, g: u32) -> u32 {
    g ^ (e & (f ^ g))
}

/// Loads a block as 16 big-endian words.
#[inline(always)]
pub fn load_be(block: &crate::Block, w: &mut [u32]) {
    for (word, bytes) in w.iter_mut().zip(block.as_chunks::<4>().0) {
        *word = u32::from_be_bytes(*bytes);
    }
}

/// SHA-256 schedule expansion of `w[16..64]` from `w[0..16]`.
#[inline(always)]
pub fn sha256_expand(w: &mut [u32; 64], t: usize) {
    w[t] = w[t - 16]
        .wrapping_add(small_sigma0(w[t - 15]))
        .wrapping_add(w[t - 7])
        .wrapping_add(small_sigma1(w[t - 2]));
}

/// Adds the working variables back into the chaining state.
#[inline(always)]
pub fn add_into<const N: usize>(state: &mut [u32; N], working: [u32; N]) {
    for (s, v) in state.iter_mut().zip(working) {
        *s = s.wrapping_add(v);
    }
}

/// One SHA-256 round with the roles given by the caller, so unrolled kernels rotate names
/// instead of moving eight variables:
/// `h += Σ1(e) + ch(e,f,g) + (k + w); d += h; h += Σ0(a) + maj(a,b,c)`.
#[macro_export]
macro_rules! sha256_round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $kw:expr) => {
        $h = $h
            .wrapping_add($crate::ops::big_sigma1($e))
            .wrapping_add($crate::ops::sha256_ch($e, $f, $g))
            .wrapping_add($kw);
        $d = $d.wrapping_add($h);
        $h = $h
            .wrapping_add($crate::ops::big_sigma0($a))
            .wrapping_add($crate::ops::maj($a, $b, $c));
    };
}

/// Eight SHA-256 rounds over eight `k + w` words (`$kw: [u32; 8]`), the roles rotating by
/// one each round (after eight rounds they are back where they started).
#[macro_export]
macro_rules! sha256_eight_rounds {
    ($kw:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {
        let kw: [u32; 8] = $kw;
        $crate::sha256_round!($a, $b, $c, $d, $e, $f, $g, $h, kw[0]);
        $crate::sha256_round!($h, $a, $b, $c, $d, $e, $f, $g, kw[1]);
        $crate::sha256_round!($g, $h, $a, $b, $c, $d, $e, $f, kw[2]);
        $crate::sha256_round!($f, $g, $h, $a, $b, $c, $d, $e, kw[3]);
        $crate::sha256_round!($e, $f, $g, $h, $a, $b, $c, $d, kw[4]);
        $crate::sha256_round!($d, $e, $f, $g, $h, $a, $b, $c, kw[5]);
        $crate::sha256_round!($c, $d, $e, $f, $g, $h, $a, $b, kw[6]);
        $crate::sha256_round!($b, $c, $d, $e, $f, $g, $h, $a, kw[7]);
    };
}

/// `k[i] + w[i]` for eight consecutive rounds.
#[inline(always)]
pub fn add8(k: &[u32; 8], w: &[u32; 8]) -> [u32; 8] {
    core::array::from_fn(|i| k[i].wrapping_add(w[i]))
}
