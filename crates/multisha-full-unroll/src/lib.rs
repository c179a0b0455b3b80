//! SHA-256 with all 64 rounds, the 16 loads and the 48 schedule steps written out.
//!
//! Kept to measure what full unrolling buys over `unroll8` (four times the code for the same
//! work) on a given CPU, hot and cold.
#![no_std]

use multisha_contract::ops::{add_into, add8, sha256_expand};
use multisha_contract::{Block, SHA256_K, Sha256State, Sha256Workspace, sha256_eight_rounds};

/// Sixteen loads and 48 schedule steps as straight-line code.
macro_rules! expand_all {
    ($w:ident, $words:ident; $($i:literal)*) => {
        $( $w[$i] = u32::from_be_bytes($words[$i]); )*
        expand_all!(@blend $w; 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38
            39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
    };
    (@blend $w:ident; $($i:literal)*) => {
        $( sha256_expand($w, $i); )*
    };
}

/// Compresses `blocks` into `state`, expanding each block's schedule into `w[..64]`.
#[inline(never)]
pub fn compress(state: &mut Sha256State, blocks: &[Block], w: &mut Sha256Workspace) {
    let w = &mut w.words;
    for block in blocks {
        let (words, _) = block.as_chunks::<4>();
        expand_all!(w, words; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        let (k8, _) = SHA256_K.as_chunks::<8>();
        let (w8, _) = w.as_chunks::<8>();
        sha256_eight_rounds!(add8(&k8[0], &w8[0]), a, b, c, d, e, f, g, h);
        sha256_eight_rounds!(add8(&k8[1], &w8[1]), a, b, c, d, e, f, g, h);
        sha256_eight_rounds!(add8(&k8[2], &w8[2]), a, b, c, d, e, f, g, h);
        sha256_eight_rounds!(add8(&k8[3], &w8[3]), a, b, c, d, e, f, g, h);
        sha256_eight_rounds!(add8(&k8[4], &w8[4]), a, b, c, d, e, f, g, h);
        sha256_eight_rounds!(add8(&k8[5], &w8[5]), a, b, c, d, e, f, g, h);
        sha256_eight_rounds!(add8(&k8[6], &w8[6]), a, b, c, d, e, f, g, h);
        sha256_eight_rounds!(add8(&k8[7], &w8[7]), a, b, c, d, e, f, g, h);
        add_into(state, [a, b, c, d, e, f, g, h]);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn harness() {
        // SAFETY: a portable kernel runs on every CPU.
        let checks = unsafe {
            multisha_contract::harness::sha256_kernel_suite("sha256/unroll64", super::compress)
        };
        assert!(checks > 2200);
    }
}
