//! SHA-512 of eight messages at once with AVX-512: one 64-bit word of every lane per `zmm`
//! register (the layout of ISA-L's `sha512_mb` AVX-512 lanes).
//!
//! * The working state is eight registers (`a..h`, each holding that word of the eight lanes),
//!   the schedule a ring of sixteen registers (`w[t]` replaces `w[t - 16]` just before round
//!   `t` needs it), so the rounds of eight blocks run as plain SIMD arithmetic: `vprorq` for
//!   the rotations, `vpternlogq` for `ch` (`0xca`), `maj` (`0xe8`) and the three-way xors of
//!   Σ and σ (`0x96`), `K[t]` as a broadcast operand. The functions and the round are
//!   `sha256_avx512_x16`'s, instantiated on 64-bit words (`sha2_lane_functions!`).
//! * Each block is two registers per lane (words 0..8 and 8..16); the two 8 × 8 transposes
//!   reuse `sha256_avx512_x16`'s bit swaps (64-bit element bits 0, 1, 2 are its 32-bit bits
//!   1, 2, 3), and `vpshufb` byte-swaps the words.
//! * The chaining state arrives row-major (`[a..h]` per lane, one register per lane): the same
//!   8 × 8 transpose makes it one register per word. As in the SHA-256 kernel it is kept,
//!   transposed, in `states` itself for the call, read back behind an empty `asm!` after the
//!   message transpose and for the feed-forward: eight working registers, sixteen schedule
//!   registers and the round's temporaries fill the 32 `zmm` registers. Nothing
//!   message-derived goes to the stack, and the lane workspace is not used.
//! * The constant entry runs the 80 rounds on the broadcast `w[t] + K[t]`: no schedule work.
//!
//! The same ~25 vector operations per round as SHA-256's sixteen lanes, on 64-bit words: 80
//! rounds for 1 KiB of the eight lanes where SHA-256 takes 64.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_loadu_si512, _mm512_ror_epi64, _mm512_set1_epi64,
    _mm512_srli_epi64, _mm512_storeu_si512, _mm512_ternarylogic_epi64,
};
use multisha_contract::{SHA512_K, Sha512Compression, equal_lanes};

use crate::sha256_avx512_x16::{round, rounds16, schedule, sha2_lane_functions, swap_stage};

type LaneWorkspace = <Sha512Compression as multisha_contract::Compression>::LaneWorkspace;

/// Lanes of this kernel.
pub(crate) const LANES: usize = 8;

/// The 8 × 8 transpose of 64-bit words: register `r` element `e` to register `e` element
/// `r`. Each stage swaps one bit of the register index with the same bit of the (64-bit)
/// element index; the stages commute and each is its own inverse, so this is its own inverse.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn transpose8(v: &mut [__m512i; 8]) {
    swap_stage::<1, 8>(v, 1);
    swap_stage::<2, 8>(v, 2);
    swap_stage::<3, 8>(v, 4);
}

/// Block `$i` of every lane of `$blocks` (`&[&[[u8; 128]]; 8]`) as sixteen registers, word
/// `t` of every lane in register `t`, big-endian words read. A macro, not a function, for the
/// reason `sha256_avx512_x16::load_message` gives (sixteen registers returned through the
/// stack). Needs `avx512f` and `avx512bw`.
macro_rules! load_message {
    ($blocks:expr, $i:expr) => {{
        use core::arch::x86_64::{
            _mm_set_epi64x, _mm512_broadcast_i32x4, _mm512_loadu_si512, _mm512_shuffle_epi8,
        };
        let bswap =
            _mm512_broadcast_i32x4(_mm_set_epi64x(0x0809_0a0b_0c0d_0e0f, 0x0001_0203_0405_0607));
        let blocks: &[&[[u8; 128]]; $crate::sha512_avx512_x8::LANES] = $blocks;
        let i: usize = $i;
        let load = |lane: usize, half: usize| {
            let bytes: &[u8; 64] = &blocks[lane][i].as_chunks::<64>().0[half];
            // SAFETY: `bytes` is 64 readable bytes: one unaligned 64-byte load.
            let x = unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) };
            _mm512_shuffle_epi8(x, bswap)
        };
        // Written out: `array::from_fn` was left as a loop through a stack array.
        let mut lo = [
            load(0, 0),
            load(1, 0),
            load(2, 0),
            load(3, 0),
            load(4, 0),
            load(5, 0),
            load(6, 0),
            load(7, 0),
        ];
        let mut hi = [
            load(0, 1),
            load(1, 1),
            load(2, 1),
            load(3, 1),
            load(4, 1),
            load(5, 1),
            load(6, 1),
            load(7, 1),
        ];
        $crate::sha512_avx512_x8::transpose8(&mut lo);
        $crate::sha512_avx512_x8::transpose8(&mut hi);
        [
            lo[0], lo[1], lo[2], lo[3], lo[4], lo[5], lo[6], lo[7], hi[0], hi[1], hi[2], hi[3],
            hi[4], hi[5], hi[6], hi[7],
        ]
    }};
}

pub(crate) use load_message;

/// The transposed block-input state that `compress` keeps in `states`, read back from memory.
///
/// The empty `asm!` may (for all the compiler knows) write `states`, so the loads cannot be
/// replaced by the values stored there earlier, which would keep them in registers for the
/// whole block, where they do not fit.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn reload_states(states: &mut [[u64; 8]]) -> [__m512i; 8] {
    // SAFETY: an empty assembly block (the operand only shows it `states`): it executes
    // nothing, touches no stack and no flag.
    unsafe {
        core::arch::asm!(
            "/* {0} */",
            in(reg) states.as_mut_ptr(),
            options(nostack, preserves_flags),
        );
    }
    load_states(states)
}

/// Loads the eight registers of `states` (eight lanes of eight words, 512 bytes).
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn load_states(states: &[[u64; 8]]) -> [__m512i; 8] {
    assert_eq!(states.len(), LANES, "a group of eight lanes");
    let p: *const __m512i = states.as_ptr().cast();
    // SAFETY: `states` is 8 × 64 = 512 contiguous bytes: eight unaligned 64-byte loads.
    core::array::from_fn(|r| unsafe { _mm512_loadu_si512(p.add(r)) })
}

/// Stores eight registers into `states` (eight lanes of eight words, 512 bytes).
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn store_states(states: &mut [[u64; 8]], v: &[__m512i; 8]) {
    assert_eq!(states.len(), LANES, "a group of eight lanes");
    let p: *mut __m512i = states.as_mut_ptr().cast();
    for (r, x) in v.iter().enumerate() {
        // SAFETY: `states` is 8 × 64 = 512 contiguous bytes: eight unaligned 64-byte stores.
        unsafe { _mm512_storeu_si512(p.add(r), *x) };
    }
}

sha2_lane_functions! {
    add: _mm512_add_epi64,
    ror: _mm512_ror_epi64,
    srli: _mm512_srli_epi64,
    ternarylogic: _mm512_ternarylogic_epi64,
    big_sigma0: [28, 34, 39],
    big_sigma1: [14, 18, 41],
    small_sigma0: [1, 8, 7],
    small_sigma1: [19, 61, 6],
}

/// `K[t]` on every lane.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn k(t: usize) -> __m512i {
    _mm512_set1_epi64(SHA512_K[t] as i64)
}

multisha_contract::declare_variant! {
    /// The `avx512-x8` SHA-512 many-message variant.
    pub static VARIANT: Sha512Compression = {
        name: "avx512-x8",
        description: concat!(
            "eight messages at once: one word of every lane per zmm register, vprorq and ",
            "vpternlogq rounds, the schedule in a ring of sixteen registers",
        ),
        schedule: Registers,
        requires: ["avx512f", "avx512bw"],
        lanes: 8,
        cost: { setup: 163.0, call: 0.0, step: 424.0, message: 25.0, ragged: 25.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the eight lanes, block by block in step;
    /// `_w` is not used.
    #[inline(never)]
    pub fn compress(states: &mut [[u64; 8]], blocks: &[&[[u8; 128]]], _w: &mut LaneWorkspace) {
        let (blocks, n) = equal_lanes::<_, LANES>(blocks);
        let mut v = load_states(states);
        transpose8(&mut v);
        store_states(states, &v);
        for i in 0..n {
            let mut w = load_message!(blocks, i);
            // The block's input state is read from `states` (see the module header) after the
            // message transpose, which needs the registers.
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = reload_states(states);
            macro_rules! kw_load {
                ($i:expr) => {
                    _mm512_add_epi64(w[$i], k($i))
                };
            }
            rounds16!(kw_load, a, b, c, d, e, f, g, h);
            for group in 1..5 {
                macro_rules! kw_schedule {
                    ($i:expr) => {{
                        schedule!(w, $i);
                        _mm512_add_epi64(w[$i], k(16 * group + $i))
                    }};
                }
                rounds16!(kw_schedule, a, b, c, d, e, f, g, h);
            }
            let input = reload_states(states);
            let out = [a, b, c, d, e, f, g, h];
            let sum = core::array::from_fn(|j| _mm512_add_epi64(out[j], input[j]));
            store_states(states, &sum);
        }
        let mut v = reload_states(states);
        transpose8(&mut v);
        store_states(states, &v);
    }
    /// One compression of every lane on the expanded schedule `w[0..80]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u64; 8]], w: &[u64], _ws: &mut LaneWorkspace) {
        let w: &[u64; 80] = w.try_into().expect("an 80-word schedule");
        let mut input = load_states(states);
        transpose8(&mut input);
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = input;
        for group in 0..5 {
            macro_rules! kw_constant {
                ($i:expr) => {
                    _mm512_set1_epi64(
                        w[16 * group + $i].wrapping_add(SHA512_K[16 * group + $i]) as i64,
                    )
                };
            }
            rounds16!(kw_constant, a, b, c, d, e, f, g, h);
        }
        let out = [a, b, c, d, e, f, g, h];
        let mut v = core::array::from_fn(|j| _mm512_add_epi64(out[j], input[j]));
        transpose8(&mut v);
        store_states(states, &v);
    }
}
