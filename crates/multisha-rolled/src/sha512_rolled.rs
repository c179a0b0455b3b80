//! SHA-512, one round per iteration over a fully expanded 80-word schedule.

use multisha_contract::{Sha512Compression, Sha512Workspace};

multisha_contract::declare_variant! {
    /// The `rolled` SHA-512 variant.
    pub static VARIANT: Sha512Compression = {
        name: "rolled",
        description: "one round per loop iteration over an 80-word schedule (smallest code)",
        schedule: Workspace,
        requires: [],
        cost: { call: 2.0, step: 320.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state`, expanding each block's schedule into `w[..80]`.
    #[inline(never)]
    pub fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]], w: &mut Sha512Workspace) {
        crate::sha2_rolled::compress::<Sha512Compression>(state, blocks, w);
    }
}
