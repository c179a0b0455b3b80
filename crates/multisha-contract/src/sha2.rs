//! What SHA-256 and SHA-512 share: eight working variables, Σ/σ functions that differ only in
//! their rotation amounts, a K table per round. Portable kernels written against [`Sha2`]
//! serve both word sizes (as ring's `sha2/fallback.rs` does).

use crate::{Compression, Word};

/// A SHA-2 compression function (SHA-256 or SHA-512): the round constants and the rotation
/// amounts of its Σ and σ functions (FIPS 180-4 §4.1.2, §4.1.3).
pub trait Sha2: Compression<State = [<Self as Compression>::Word; 8]> {
    /// One constant per round; the number of rounds is its length (64 or 80).
    const K: &'static [Self::Word];
    /// Σ0 rotations.
    const BIG_SIGMA0: [u32; 3];
    /// Σ1 rotations.
    const BIG_SIGMA1: [u32; 3];
    /// σ0: two rotations and a shift.
    const SMALL_SIGMA0: [u32; 3];
    /// σ1: two rotations and a shift.
    const SMALL_SIGMA1: [u32; 3];

    /// Σ0.
    #[inline(always)]
    fn big_sigma0(x: Self::Word) -> Self::Word {
        let [a, b, c] = Self::BIG_SIGMA0;
        x.rotate_right(a) ^ x.rotate_right(b) ^ x.rotate_right(c)
    }

    /// Σ1.
    #[inline(always)]
    fn big_sigma1(x: Self::Word) -> Self::Word {
        let [a, b, c] = Self::BIG_SIGMA1;
        x.rotate_right(a) ^ x.rotate_right(b) ^ x.rotate_right(c)
    }

    /// σ0 (schedule).
    #[inline(always)]
    fn small_sigma0(x: Self::Word) -> Self::Word {
        let [a, b, c] = Self::SMALL_SIGMA0;
        x.rotate_right(a) ^ x.rotate_right(b) ^ (x >> c)
    }

    /// σ1 (schedule).
    #[inline(always)]
    fn small_sigma1(x: Self::Word) -> Self::Word {
        let [a, b, c] = Self::SMALL_SIGMA1;
        x.rotate_right(a) ^ x.rotate_right(b) ^ (x >> c)
    }

    /// Choose, `(e & f) ^ (!e & g)`, written with one temporary fewer.
    #[inline(always)]
    fn ch(e: Self::Word, f: Self::Word, g: Self::Word) -> Self::Word {
        g ^ (e & (f ^ g))
    }

    /// Majority as `(b & c) + (a & (b ^ c))`: the two terms never share a set bit, so the
    /// `|` of the textbook form becomes an add.
    #[inline(always)]
    fn maj(a: Self::Word, b: Self::Word, c: Self::Word) -> Self::Word {
        (b & c).wrapping_add(a & (b ^ c))
    }

    /// Schedule step: `w[t] = w[t-16] + σ0(w[t-15]) + w[t-7] + σ1(w[t-2])`.
    #[inline(always)]
    fn expand(w: &mut [Self::Word], t: usize) {
        w[t] = w[t - 16]
            .wrapping_add(Self::small_sigma0(w[t - 15]))
            .wrapping_add(w[t - 7])
            .wrapping_add(Self::small_sigma1(w[t - 2]));
    }
}

/// One SHA-2 round of algorithm `$alg` with the roles given by the caller, so unrolled kernels
/// rotate names instead of moving eight variables:
/// `h += Σ1(e) + ch(e,f,g) + (k + w); d += h; h += Σ0(a) + maj(a,b,c)`.
#[macro_export]
macro_rules! sha2_round {
    ($alg:ty; $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $kw:expr) => {
        $h = $crate::Word::wrapping_add(
            $crate::Word::wrapping_add(
                $crate::Word::wrapping_add($h, <$alg as $crate::Sha2>::big_sigma1($e)),
                <$alg as $crate::Sha2>::ch($e, $f, $g),
            ),
            $kw,
        );
        $d = $crate::Word::wrapping_add($d, $h);
        $h = $crate::Word::wrapping_add(
            $crate::Word::wrapping_add($h, <$alg as $crate::Sha2>::big_sigma0($a)),
            <$alg as $crate::Sha2>::maj($a, $b, $c),
        );
    };
}

/// Eight SHA-2 rounds over eight `k + w` words (`$kw: [Word; 8]`), the roles rotating by one
/// each round (after eight rounds they are back where they started).
#[macro_export]
macro_rules! sha2_eight_rounds {
    ($alg:ty; $kw:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {
        let kw = $kw;
        $crate::sha2_round!($alg; $a, $b, $c, $d, $e, $f, $g, $h, kw[0]);
        $crate::sha2_round!($alg; $h, $a, $b, $c, $d, $e, $f, $g, kw[1]);
        $crate::sha2_round!($alg; $g, $h, $a, $b, $c, $d, $e, $f, kw[2]);
        $crate::sha2_round!($alg; $f, $g, $h, $a, $b, $c, $d, $e, kw[3]);
        $crate::sha2_round!($alg; $e, $f, $g, $h, $a, $b, $c, $d, kw[4]);
        $crate::sha2_round!($alg; $d, $e, $f, $g, $h, $a, $b, $c, kw[5]);
        $crate::sha2_round!($alg; $c, $d, $e, $f, $g, $h, $a, $b, kw[6]);
        $crate::sha2_round!($alg; $b, $c, $d, $e, $f, $g, $h, $a, kw[7]);
    };
}

/// The expanded schedule of the padding block of a message exactly one block long, for the
/// SHA-2 function `$alg` with words `$word` and `$rounds` rounds, at compile time: `0x80`,
/// zeros, and the block's length in bits (sixteen words) in the last word.
macro_rules! one_block_padding {
    ($alg:ty, $word:ty, $rounds:literal) => {{
        const S0: [u32; 3] = <$alg as $crate::Sha2>::SMALL_SIGMA0;
        const S1: [u32; 3] = <$alg as $crate::Sha2>::SMALL_SIGMA1;
        let mut w: [$word; $rounds] = [0; $rounds];
        w[0] = 1 << (<$word>::BITS - 1);
        w[15] = 16 * <$word>::BITS as $word;
        let mut t = 16;
        while t < $rounds {
            let (x, y) = (w[t - 15], w[t - 2]);
            let s0 = x.rotate_right(S0[0]) ^ x.rotate_right(S0[1]) ^ (x >> S0[2]);
            let s1 = y.rotate_right(S1[0]) ^ y.rotate_right(S1[1]) ^ (y >> S1[2]);
            w[t] = w[t - 16]
                .wrapping_add(s0)
                .wrapping_add(w[t - 7])
                .wrapping_add(s1);
            t += 1;
        }
        w
    }};
}
pub(crate) use one_block_padding;

/// The expanded SHA-2 schedule of `block` into `w[0..K.len()]`.
#[inline]
pub(crate) fn schedule<A: Sha2>(block: &A::Block, w: &mut [A::Word]) {
    crate::ops::load_be(block.as_ref(), &mut w[..16]);
    for t in 16..A::K.len() {
        A::expand(w, t);
    }
}
