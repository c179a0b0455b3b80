//! SHA-256, one round per iteration over a fully expanded 64-word schedule.

use multisha_contract::{Sha256Compression, Sha256Workspace};

multisha_contract::declare_variant! {
    /// The `rolled` SHA-256 variant.
    pub static VARIANT: Sha256Compression = {
        name: "rolled",
        description: "one round per loop iteration over a 64-word schedule (smallest code)",
        schedule: Workspace,
        requires: [],
        cost: { call: 2.0, step: 183.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state`, expanding each block's schedule into `w[..64]`.
    #[inline(never)]
    pub fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]], w: &mut Sha256Workspace) {
        crate::sha2_rolled::compress::<Sha256Compression>(state, blocks, w);
    }
}
