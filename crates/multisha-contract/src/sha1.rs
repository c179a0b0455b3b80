//! SHA-1 (FIPS 180-4 §6.1): the descriptor and its constants.

use crate::{Compression, OutputSpec, Sha1Workspace};

/// The SHA-1 compression function.
#[derive(Debug, Clone, Copy)]
pub enum Sha1Compression {}

/// SHA-1 initial hash value (FIPS 180-4 §5.3.1).
pub const SHA1_IV: [u32; 5] = [
    0x6745_2301,
    0xEFCD_AB89,
    0x98BA_DCFE,
    0x1032_5476,
    0xC3D2_E1F0,
];

/// SHA-1 round constants, one per 20-round group (FIPS 180-4 §4.2.1).
pub const SHA1_K: [u32; 4] = [0x5A82_7999, 0x6ED9_EBA1, 0x8F1B_BCDC, 0xCA62_C1D6];

impl Compression for Sha1Compression {
    const ID: &'static str = "sha1";
    const NAME: &'static str = "SHA-1";
    const ENV_VAR: &'static str = "MULTISHA_SHA1";
    const ENV_VAR_MANY: &'static str = "MULTISHA_SHA1_MANY";
    type Word = u32;
    type State = [u32; 5];
    type Block = [u8; 64];
    type Workspace = Sha1Workspace;
    /// In all, the largest a lane kernel uses, `avx2-x8`'s (5 saved + 80 schedule vectors of 8
    /// lanes); the small part is `shani-x4`'s (4 lanes of 80 schedule + 8 saved words), the
    /// tiny part `shani-x2`'s (2 lanes' saved `abcd` and `e`). Each kernel checks at compile
    /// time that its part fits. The part in use is created (zeroed) and wiped once per batch
    /// call, so none is bigger than that.
    type LaneWorkspace = crate::LaneWorkspace<u32, 352, 680>;
    type Counter = u64;
    const LENGTH_BYTES: usize = 8;
    const OUTPUTS: &'static [OutputSpec<[u32; 5]>] = &[OutputSpec {
        id: "sha1",
        name: "SHA-1",
        iv: SHA1_IV,
        len: 20,
    }];
    const ROUNDS: usize = 80;
    const WIDEST_LANES: usize = 32;
    const ONE_BLOCK_PADDING: &'static [u32] = &ONE_BLOCK_PADDING;

    fn schedule(block: &[u8; 64], w: &mut [u32]) {
        crate::ops::load_be(block, &mut w[..16]);
        for t in 16..80 {
            w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
        }
    }
}

/// The expanded schedule of the padding block of a 64-byte message: `0x80`, zeros, and the
/// length, 512 bits.
const ONE_BLOCK_PADDING: [u32; 80] = {
    let mut w = [0u32; 80];
    w[0] = 0x8000_0000;
    w[15] = 512;
    let mut t = 16;
    while t < 80 {
        w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
        t += 1;
    }
    w
};
