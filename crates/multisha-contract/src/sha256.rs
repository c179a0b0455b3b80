//! SHA-256 and SHA-224 (FIPS 180-4 §6.2, §6.3): the descriptor and its constants.

use crate::{Compression, OutputSpec, Sha2, Sha256Workspace};

/// The SHA-256 compression function (SHA-224 uses it with another IV).
#[derive(Debug, Clone, Copy)]
pub enum Sha256Compression {}

/// SHA-256 initial hash value (FIPS 180-4 §5.3.3).
pub const SHA256_IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// SHA-224 initial hash value (FIPS 180-4 §5.3.2).
pub const SHA224_IV: [u32; 8] = [
    0xc105_9ed8,
    0x367c_d507,
    0x3070_dd17,
    0xf70e_5939,
    0xffc0_0b31,
    0x6858_1511,
    0x64f9_8fa7,
    0xbefa_4fa4,
];

/// SHA-256 round constants (FIPS 180-4 §4.2.2).
pub const SHA256_K: [u32; 64] = [
    0x428a_2f98,
    0x7137_4491,
    0xb5c0_fbcf,
    0xe9b5_dba5,
    0x3956_c25b,
    0x59f1_11f1,
    0x923f_82a4,
    0xab1c_5ed5,
    0xd807_aa98,
    0x1283_5b01,
    0x2431_85be,
    0x550c_7dc3,
    0x72be_5d74,
    0x80de_b1fe,
    0x9bdc_06a7,
    0xc19b_f174,
    0xe49b_69c1,
    0xefbe_4786,
    0x0fc1_9dc6,
    0x240c_a1cc,
    0x2de9_2c6f,
    0x4a74_84aa,
    0x5cb0_a9dc,
    0x76f9_88da,
    0x983e_5152,
    0xa831_c66d,
    0xb003_27c8,
    0xbf59_7fc7,
    0xc6e0_0bf3,
    0xd5a7_9147,
    0x06ca_6351,
    0x1429_2967,
    0x27b7_0a85,
    0x2e1b_2138,
    0x4d2c_6dfc,
    0x5338_0d13,
    0x650a_7354,
    0x766a_0abb,
    0x81c2_c92e,
    0x9272_2c85,
    0xa2bf_e8a1,
    0xa81a_664b,
    0xc24b_8b70,
    0xc76c_51a3,
    0xd192_e819,
    0xd699_0624,
    0xf40e_3585,
    0x106a_a070,
    0x19a4_c116,
    0x1e37_6c08,
    0x2748_774c,
    0x34b0_bcb5,
    0x391c_0cb3,
    0x4ed8_aa4a,
    0x5b9c_ca4f,
    0x682e_6ff3,
    0x748f_82ee,
    0x78a5_636f,
    0x84c8_7814,
    0x8cc7_0208,
    0x90be_fffa,
    0xa450_6ceb,
    0xbef9_a3f7,
    0xc671_78f2,
];

impl Compression for Sha256Compression {
    const ID: &'static str = "sha256";
    const NAME: &'static str = "SHA-256";
    const ENV_VAR: &'static str = "MULTISHA_SHA256";
    const ENV_VAR_MANY: &'static str = "MULTISHA_SHA256_MANY";
    type Word = u32;
    type State = [u32; 8];
    type Block = [u8; 64];
    type Workspace = Sha256Workspace;
    /// In all, the largest a lane kernel uses, `avx2-x8`'s (8 saved + 64 schedule + 1 carried
    /// vectors of 8 lanes); the small part is `shani-x4`'s (4 lanes of 64 schedule + 8 saved
    /// words). Each kernel checks at compile time that its part fits. The part in use is
    /// created (zeroed) and wiped once per batch call, so neither is bigger than that.
    type LaneWorkspace = crate::LaneWorkspace<u32, 288, 584>;
    type Counter = u64;
    const LENGTH_BYTES: usize = 8;
    const OUTPUTS: &'static [OutputSpec<[u32; 8]>] = &[
        OutputSpec {
            id: "sha224",
            name: "SHA-224",
            iv: SHA224_IV,
            len: 28,
        },
        OutputSpec {
            id: "sha256",
            name: "SHA-256",
            iv: SHA256_IV,
            len: 32,
        },
    ];
    const ROUNDS: usize = 64;
    const WIDEST_LANES: usize = 32;
    const ONE_BLOCK_PADDING: &'static [u32] = &ONE_BLOCK_PADDING;

    fn schedule(block: &[u8; 64], w: &mut [u32]) {
        crate::sha2::schedule::<Self>(block, w);
    }
}

/// The expanded schedule of the padding block of a 64-byte message.
const ONE_BLOCK_PADDING: [u32; 64] = crate::sha2::one_block_padding!(Sha256Compression, u32, 64);

impl Sha2 for Sha256Compression {
    const K: &'static [u32] = &SHA256_K;
    const BIG_SIGMA0: [u32; 3] = [2, 13, 22];
    const BIG_SIGMA1: [u32; 3] = [6, 11, 25];
    const SMALL_SIGMA0: [u32; 3] = [7, 18, 3];
    const SMALL_SIGMA1: [u32; 3] = [17, 19, 10];
}
