//! SHA-256 with eight rounds written out and the roles of a..h rotating.

use multisha_contract::{Sha256Compression, Sha256Workspace};

multisha_contract::declare_variant! {
    /// The `unroll8` SHA-256 variant.
    pub static VARIANT: Sha256Compression = {
        name: "unroll8",
        description: "eight rounds written out with rotating roles, K from a table, LOAD and BLEND unrolled 8x",
        schedule: Workspace,
        requires: [],
        cost: { call: 2.0, step: 150.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state`, expanding each block's schedule into `w[..64]`.
    #[inline(never)]
    pub fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]], w: &mut Sha256Workspace) {
        crate::sha2_unroll8::compress::<Sha256Compression>(state, blocks, w);
    }
}
