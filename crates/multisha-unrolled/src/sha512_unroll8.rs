//! SHA-512 with eight rounds written out and the roles of a..h rotating.

use multisha_contract::{Sha512Compression, Sha512Workspace};

multisha_contract::declare_variant! {
    /// The `unroll8` SHA-512 variant.
    pub static VARIANT: Sha512Compression = {
        name: "unroll8",
        description: "eight rounds written out with rotating roles, K from a table, LOAD and BLEND unrolled 8x",
        schedule: Workspace,
        requires: [],
        cost: { call: 2.0, step: 256.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state`, expanding each block's schedule into `w[..80]`.
    #[inline(never)]
    pub fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]], w: &mut Sha512Workspace) {
        crate::sha2_unroll8::compress::<Sha512Compression>(state, blocks, w);
    }
}
