//! SHA-256 with all 64 rounds, the 16 loads and the 48 schedule steps written out.

use multisha_contract::ops::{add_into, add8};
use multisha_contract::{SHA256_K, Sha2, Sha256Compression, Sha256Workspace, sha2_eight_rounds};

/// Sixteen loads and 48 schedule steps as straight-line code.
macro_rules! expand_all {
    ($w:ident, $words:ident; $($i:literal)*) => {
        $( $w[$i] = u32::from_be_bytes($words[$i]); )*
        expand_all!(@blend $w; 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38
            39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
    };
    (@blend $w:ident; $($i:literal)*) => {
        $( Sha256Compression::expand($w, $i); )*
    };
}

multisha_contract::declare_variant! {
    /// The `unroll64` SHA-256 variant.
    pub static VARIANT: Sha256Compression = {
        name: "unroll64",
        description: "all 64 rounds, loads and schedule steps written out (largest code)",
        schedule: Workspace,
        requires: [],
        cost: { call: 2.0, step: 150.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state`, expanding each block's schedule into `w[..64]`.
    #[inline(never)]
    pub fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]], w: &mut Sha256Workspace) {
        let w = w.words();
        for block in blocks {
            let (words, _) = block.as_chunks::<4>();
            expand_all!(w, words; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
            let (k8, _) = SHA256_K.as_chunks::<8>();
            let (w8, _) = w.as_chunks::<8>();
            sha2_eight_rounds!(Sha256Compression; add8(&k8[0], &w8[0]), a, b, c, d, e, f, g, h);
            sha2_eight_rounds!(Sha256Compression; add8(&k8[1], &w8[1]), a, b, c, d, e, f, g, h);
            sha2_eight_rounds!(Sha256Compression; add8(&k8[2], &w8[2]), a, b, c, d, e, f, g, h);
            sha2_eight_rounds!(Sha256Compression; add8(&k8[3], &w8[3]), a, b, c, d, e, f, g, h);
            sha2_eight_rounds!(Sha256Compression; add8(&k8[4], &w8[4]), a, b, c, d, e, f, g, h);
            sha2_eight_rounds!(Sha256Compression; add8(&k8[5], &w8[5]), a, b, c, d, e, f, g, h);
            sha2_eight_rounds!(Sha256Compression; add8(&k8[6], &w8[6]), a, b, c, d, e, f, g, h);
            sha2_eight_rounds!(Sha256Compression; add8(&k8[7], &w8[7]), a, b, c, d, e, f, g, h);
            add_into(state, [a, b, c, d, e, f, g, h]);
        }
    }
}
