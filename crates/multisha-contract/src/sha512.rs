//! SHA-512, SHA-384, SHA-512/224 and SHA-512/256 (FIPS 180-4 §6.4–6.7): the descriptor and its
//! constants. One compression function serves all four, each with its own IV and length.

use crate::{Compression, OutputSpec, Sha2, Workspace};

/// The SHA-512 compression function (SHA-384, SHA-512/224 and SHA-512/256 use it with other
/// IVs and truncate the output).
#[derive(Debug, Clone, Copy)]
pub enum Sha512Compression {}

/// SHA-512 workspace: the 80-word schedule of one block.
pub type Sha512Workspace = Workspace<u64, 80>;

/// SHA-512 initial hash value (FIPS 180-4 §5.3.5).
pub const SHA512_IV: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

/// SHA-384 initial hash value (FIPS 180-4 §5.3.4).
pub const SHA384_IV: [u64; 8] = [
    0xcbbb_9d5d_c105_9ed8,
    0x629a_292a_367c_d507,
    0x9159_015a_3070_dd17,
    0x152f_ecd8_f70e_5939,
    0x6733_2667_ffc0_0b31,
    0x8eb4_4a87_6858_1511,
    0xdb0c_2e0d_64f9_8fa7,
    0x47b5_481d_befa_4fa4,
];

/// SHA-512/224 initial hash value (FIPS 180-4 §5.3.6.1).
pub const SHA512_224_IV: [u64; 8] = [
    0x8c3d_37c8_1954_4da2,
    0x73e1_9966_89dc_d4d6,
    0x1dfa_b7ae_32ff_9c82,
    0x679d_d514_582f_9fcf,
    0x0f6d_2b69_7bd4_4da8,
    0x77e3_6f73_04c4_8942,
    0x3f9d_85a8_6a1d_36c8,
    0x1112_e6ad_91d6_92a1,
];

/// SHA-512/256 initial hash value (FIPS 180-4 §5.3.6.2).
pub const SHA512_256_IV: [u64; 8] = [
    0x2231_2194_fc2b_f72c,
    0x9f55_5fa3_c84c_64c2,
    0x2393_b86b_6f53_b151,
    0x9638_7719_5940_eabd,
    0x9628_3ee2_a88e_ffe3,
    0xbe5e_1e25_5386_3992,
    0x2b01_99fc_2c85_b8aa,
    0x0eb7_2ddc_81c5_2ca2,
];

/// SHA-512 round constants (FIPS 180-4 §4.2.3).
pub const SHA512_K: [u64; 80] = [
    0x428a_2f98_d728_ae22,
    0x7137_4491_23ef_65cd,
    0xb5c0_fbcf_ec4d_3b2f,
    0xe9b5_dba5_8189_dbbc,
    0x3956_c25b_f348_b538,
    0x59f1_11f1_b605_d019,
    0x923f_82a4_af19_4f9b,
    0xab1c_5ed5_da6d_8118,
    0xd807_aa98_a303_0242,
    0x1283_5b01_4570_6fbe,
    0x2431_85be_4ee4_b28c,
    0x550c_7dc3_d5ff_b4e2,
    0x72be_5d74_f27b_896f,
    0x80de_b1fe_3b16_96b1,
    0x9bdc_06a7_25c7_1235,
    0xc19b_f174_cf69_2694,
    0xe49b_69c1_9ef1_4ad2,
    0xefbe_4786_384f_25e3,
    0x0fc1_9dc6_8b8c_d5b5,
    0x240c_a1cc_77ac_9c65,
    0x2de9_2c6f_592b_0275,
    0x4a74_84aa_6ea6_e483,
    0x5cb0_a9dc_bd41_fbd4,
    0x76f9_88da_8311_53b5,
    0x983e_5152_ee66_dfab,
    0xa831_c66d_2db4_3210,
    0xb003_27c8_98fb_213f,
    0xbf59_7fc7_beef_0ee4,
    0xc6e0_0bf3_3da8_8fc2,
    0xd5a7_9147_930a_a725,
    0x06ca_6351_e003_826f,
    0x1429_2967_0a0e_6e70,
    0x27b7_0a85_46d2_2ffc,
    0x2e1b_2138_5c26_c926,
    0x4d2c_6dfc_5ac4_2aed,
    0x5338_0d13_9d95_b3df,
    0x650a_7354_8baf_63de,
    0x766a_0abb_3c77_b2a8,
    0x81c2_c92e_47ed_aee6,
    0x9272_2c85_1482_353b,
    0xa2bf_e8a1_4cf1_0364,
    0xa81a_664b_bc42_3001,
    0xc24b_8b70_d0f8_9791,
    0xc76c_51a3_0654_be30,
    0xd192_e819_d6ef_5218,
    0xd699_0624_5565_a910,
    0xf40e_3585_5771_202a,
    0x106a_a070_32bb_d1b8,
    0x19a4_c116_b8d2_d0c8,
    0x1e37_6c08_5141_ab53,
    0x2748_774c_df8e_eb99,
    0x34b0_bcb5_e19b_48a8,
    0x391c_0cb3_c5c9_5a63,
    0x4ed8_aa4a_e341_8acb,
    0x5b9c_ca4f_7763_e373,
    0x682e_6ff3_d6b2_b8a3,
    0x748f_82ee_5def_b2fc,
    0x78a5_636f_4317_2f60,
    0x84c8_7814_a1f0_ab72,
    0x8cc7_0208_1a64_39ec,
    0x90be_fffa_2363_1e28,
    0xa450_6ceb_de82_bde9,
    0xbef9_a3f7_b2c6_7915,
    0xc671_78f2_e372_532b,
    0xca27_3ece_ea26_619c,
    0xd186_b8c7_21c0_c207,
    0xeada_7dd6_cde0_eb1e,
    0xf57d_4f7f_ee6e_d178,
    0x06f0_67aa_7217_6fba,
    0x0a63_7dc5_a2c8_98a6,
    0x113f_9804_bef9_0dae,
    0x1b71_0b35_131c_471b,
    0x28db_77f5_2304_7d84,
    0x32ca_ab7b_40c7_2493,
    0x3c9e_be0a_15c9_bebc,
    0x431d_67c4_9c10_0d4c,
    0x4cc5_d4be_cb3e_42b6,
    0x597f_299c_fc65_7e2a,
    0x5fcb_6fab_3ad6_faec,
    0x6c44_198c_4a47_5817,
];

impl Compression for Sha512Compression {
    const ID: &'static str = "sha512";
    const NAME: &'static str = "SHA-512";
    const ENV_VAR: &'static str = "MULTISHA_SHA512";
    const ENV_VAR_MANY: &'static str = "MULTISHA_SHA512_MANY";
    type Word = u64;
    type State = [u64; 8];
    type Block = [u8; 128];
    type Workspace = Sha512Workspace;
    /// In all, `avx512-x16`'s (two rings of 16 schedule vectors of 8 lanes); the small part
    /// is `avx2-x4`'s (8 saved + a ring of 16 schedule vectors of 4 lanes), of which
    /// `armv8-x2` uses 32 words (2 lanes of a 16-word schedule window). Each kernel checks at
    /// compile time that its part fits; `avx512-x8` keeps everything in registers. The part in
    /// use is created (zeroed) and wiped once per batch call.
    type LaneWorkspace = crate::LaneWorkspace<u64, 96, 256>;
    type Counter = u128;
    const LENGTH_BYTES: usize = 16;
    const OUTPUTS: &'static [OutputSpec<[u64; 8]>] = &[
        OutputSpec {
            id: "sha384",
            name: "SHA-384",
            iv: SHA384_IV,
            len: 48,
        },
        OutputSpec {
            id: "sha512",
            name: "SHA-512",
            iv: SHA512_IV,
            len: 64,
        },
        OutputSpec {
            id: "sha512_224",
            name: "SHA-512/224",
            iv: SHA512_224_IV,
            len: 28,
        },
        OutputSpec {
            id: "sha512_256",
            name: "SHA-512/256",
            iv: SHA512_256_IV,
            len: 32,
        },
    ];
    const ROUNDS: usize = 80;
    const WIDEST_LANES: usize = 16;
    const ONE_BLOCK_PADDING: &'static [u64] = &ONE_BLOCK_PADDING;

    fn schedule(block: &[u8; 128], w: &mut [u64]) {
        crate::sha2::schedule::<Self>(block, w);
    }
}

/// The expanded schedule of the padding block of a 128-byte message.
const ONE_BLOCK_PADDING: [u64; 80] = crate::sha2::one_block_padding!(Sha512Compression, u64, 80);

impl Sha2 for Sha512Compression {
    const K: &'static [u64] = &SHA512_K;
    const BIG_SIGMA0: [u32; 3] = [28, 34, 39];
    const BIG_SIGMA1: [u32; 3] = [14, 18, 41];
    const SMALL_SIGMA0: [u32; 3] = [1, 8, 7];
    const SMALL_SIGMA1: [u32; 3] = [19, 61, 6];
}
