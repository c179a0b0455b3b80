//! SHA-256 of sixteen messages at once with AVX-512: one 32-bit word of every lane per `zmm`
//! register.
//!
//! * The working state is eight registers (`a..h`, each holding that word of the sixteen
//!   lanes), the schedule a ring of sixteen registers (`w[t]` replaces `w[t - 16]` just before
//!   round `t` needs it), so the rounds of sixteen blocks run as plain SIMD arithmetic:
//!   `vprord` for the rotations, `vpternlogd` for `ch` (`0xca`), `maj` (`0xe8`) and the
//!   three-way xors of Σ and σ (`0x96`), `K[t]` as a broadcast operand.
//! * Each block's 16 × 16 words are loaded lane by lane and transposed in registers by four
//!   stages that each swap one bit of the register index with one bit of the element index
//!   (one shuffle per output register, no index vectors), then byte-swapped with `vpshufb`.
//! * The chaining state arrives row-major (`[a..h]` per lane); it is transposed on entry by the
//!   same kind of bit swaps and kept, transposed, in `states` itself for the call: each block
//!   reads its input state from there after the message transpose, and again as the memory
//!   operands of the final adds, then stores its output there; on exit it is transposed back.
//!   Eight working registers, sixteen schedule registers and the round's temporaries fill the
//!   32 `zmm` registers: a register copy of the block's input state did not fit (the compiler
//!   spilled it to the stack), and an empty `asm!` keeps it from forwarding the stored values
//!   into registers. The generated code spills no vector register: nothing message-derived
//!   goes to the stack, and the lane workspace is not used (the schedule is `Registers`).
//! * Σ0 and Σ1 are computed as `rotr(x ^ rotr(x, ..) ^ rotr(x, ..), ..)`: as many operations
//!   as three rotations and a three-way xor, one temporary fewer. These functions and the
//!   round are written once for both word widths (`sha2_lane_functions!`); the SHA-512 lanes
//!   use them on 64-bit words.
//! * The constant entry runs the 64 rounds on the broadcast `w[t] + K[t]`: no schedule work.
//!
//! About 25 vector operations per round (17 for the round, 11 per schedule word), which bound
//! the speed: on Zen 4, whose 512-bit operations run as two 256-bit halves, it compresses
//! about 1 byte per cycle of all sixteen lanes together (~3.6 GB/s at ~3.4 GHz), some 10%
//! more than `shani-x2`.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_loadu_si512, _mm512_mask_shuffle_epi32,
    _mm512_mask_shuffle_i32x4, _mm512_ror_epi32, _mm512_set1_epi32, _mm512_shuffle_i32x4,
    _mm512_srli_epi32, _mm512_storeu_si512, _mm512_ternarylogic_epi32, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi64,
};
use multisha_contract::{SHA256_K, Sha256Compression, equal_lanes};

type LaneWorkspace = <Sha256Compression as multisha_contract::Compression>::LaneWorkspace;

/// Lanes of this kernel (and of the SHA-1 one that shares the message transpose).
pub(crate) const LANES: usize = 16;

/// Swaps bit `POS` of the element index with the bit of the register index that tells `x`
/// (0) from `y` (1): returns the pair's new registers (bit 0, bit 1). Element `p` of `x` with
/// bit `POS` of `p` set moves to `y`, and the reverse; every other element stays. Its own
/// inverse.
#[inline]
#[target_feature(enable = "avx512f")]
fn swap_bit<const POS: u32>(x: __m512i, y: __m512i) -> (__m512i, __m512i) {
    match POS {
        // Odd elements of the low output from `y`'s even ones (pairs swapped by `vpshufd`),
        // even elements of the high output from `x`'s odd ones.
        0 => (
            _mm512_mask_shuffle_epi32::<0xb1>(x, 0xaaaa, y),
            _mm512_mask_shuffle_epi32::<0xb1>(y, 0x5555, x),
        ),
        1 => (_mm512_unpacklo_epi64(x, y), _mm512_unpackhi_epi64(x, y)),
        // 128-bit lanes 1 and 3 of the low output from lanes 0 and 2 of `y`, lanes 0 and 2 of
        // the high output from lanes 1 and 3 of `x`.
        2 => (
            _mm512_mask_shuffle_i32x4::<0x80>(x, 0xf0f0, y, y),
            _mm512_mask_shuffle_i32x4::<0x31>(y, 0x0f0f, x, x),
        ),
        _ => (
            _mm512_shuffle_i32x4::<0x44>(x, y),
            _mm512_shuffle_i32x4::<0xee>(x, y),
        ),
    }
}

/// [`swap_bit`] on every pair of registers of `v` whose indices differ in bit `slot` (given
/// as a mask), the register with the bit clear as `x`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn swap_stage<const POS: u32, const N: usize>(v: &mut [__m512i; N], slot: usize) {
    for r in 0..N {
        if r & slot == 0 {
            (v[r], v[r | slot]) = swap_bit::<POS>(v[r], v[r | slot]);
        }
    }
}

/// Block `$i` of every lane of `$blocks` (`&[&[[u8; 64]]]`, sixteen lanes) as sixteen
/// registers, word `t` of every lane in register `t`, big-endian words read.
///
/// Register `r` is loaded with lane `r`'s block, so its index bits are the lane and the element
/// bits the word; swapping each of the four register bits with the same element bit makes the
/// register the word and the element the lane. A macro, not a function: an `#[inline]`
/// function returning sixteen registers was left uninlined, its result passed through the
/// stack, and `#[inline(always)]` cannot be combined with `#[target_feature]`. Needs
/// `avx512f` and `avx512bw`.
macro_rules! load_message {
    ($blocks:expr, $i:expr) => {{
        use core::arch::x86_64::{
            _mm_set_epi64x, _mm512_broadcast_i32x4, _mm512_loadu_si512, _mm512_shuffle_epi8,
        };
        use $crate::sha256_avx512_x16::swap_stage;
        let bswap =
            _mm512_broadcast_i32x4(_mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203));
        let blocks: &[&[[u8; 64]]] = $blocks;
        let i: usize = $i;
        let load = |lane: usize| {
            let block: &[u8; 64] = &blocks[lane][i];
            // SAFETY: a block is 64 bytes: one unaligned 64-byte load.
            _mm512_shuffle_epi8(unsafe { _mm512_loadu_si512(block.as_ptr().cast()) }, bswap)
        };
        // Written out: `array::from_fn` was left as a loop through a stack array.
        let mut v = [
            load(0),
            load(1),
            load(2),
            load(3),
            load(4),
            load(5),
            load(6),
            load(7),
            load(8),
            load(9),
            load(10),
            load(11),
            load(12),
            load(13),
            load(14),
            load(15),
        ];
        swap_stage::<0, 16>(&mut v, 1);
        swap_stage::<1, 16>(&mut v, 2);
        swap_stage::<2, 16>(&mut v, 4);
        swap_stage::<3, 16>(&mut v, 8);
        v
    }};
}
pub(crate) use load_message;

/// Register of `v` (after [`to_words`]) that holds word `w` of every lane's state.
const fn word_reg(w: usize) -> usize {
    (w & 1) << 2 | (w >> 2 & 1) << 1 | (w >> 1 & 1)
}

/// The eight registers of the row-major states (register `r`: lanes `2r` and `2r + 1`, eight
/// words each) to the transposed state: word `w` of lane `l` at element `l` of register
/// [`word_reg`]`(w)`.
///
/// Register bits are lane bits 3, 2, 1 and element bits lane bit 0 and the word: swapping
/// register bit 2 with element bit 3, then register bits 1, 0, 2 with element bits 2, 1, 0
/// leaves the lane in the element and the word in the register.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn to_words(v: &mut [__m512i; 8]) {
    swap_stage::<3, 8>(v, 4);
    swap_stage::<2, 8>(v, 2);
    swap_stage::<1, 8>(v, 1);
    swap_stage::<0, 8>(v, 4);
}

/// The inverse of [`to_words`]: the same swaps in reverse order.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn from_words(v: &mut [__m512i; 8]) {
    swap_stage::<0, 8>(v, 4);
    swap_stage::<1, 8>(v, 1);
    swap_stage::<2, 8>(v, 2);
    swap_stage::<3, 8>(v, 4);
}

/// The transposed block-input state that `compress` keeps in `states`, read back from memory.
///
/// The empty `asm!` may (for all the compiler knows) write `states`, so the loads cannot be
/// replaced by the values stored there earlier: that would keep them in registers for the whole
/// block, where they do not fit and were spilled to the stack.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn reload_states(states: &mut [[u32; 8]]) -> [__m512i; 8] {
    // SAFETY: an empty assembly block (the operand only shows it `states`): it executes
    // nothing, touches no stack and no flag.
    unsafe {
        core::arch::asm!("/* {0} */", in(reg) states.as_mut_ptr(), options(nostack, preserves_flags));
    }
    load_states(states)
}

/// Loads the eight registers of `states` (sixteen lanes of eight words, 512 bytes).
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn load_states(states: &[[u32; 8]]) -> [__m512i; 8] {
    assert_eq!(states.len(), LANES, "a group of sixteen lanes");
    let p: *const __m512i = states.as_ptr().cast();
    // SAFETY: `states` is 16 × 32 = 512 contiguous bytes: eight unaligned 64-byte loads.
    core::array::from_fn(|r| unsafe { _mm512_loadu_si512(p.add(r)) })
}

/// Stores eight registers into `states` (sixteen lanes of eight words, 512 bytes).
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn store_states(states: &mut [[u32; 8]], v: &[__m512i; 8]) {
    assert_eq!(states.len(), LANES, "a group of sixteen lanes");
    let p: *mut __m512i = states.as_mut_ptr().cast();
    for (r, x) in v.iter().enumerate() {
        // SAFETY: `states` is 16 × 32 = 512 contiguous bytes: eight unaligned 64-byte stores.
        unsafe { _mm512_storeu_si512(p.add(r), *x) };
    }
}

/// The transposed state as `[a, b, c, d, e, f, g, h]`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn named(v: &[__m512i; 8]) -> [__m512i; 8] {
    core::array::from_fn(|w| v[word_reg(w)])
}

/// Word held by register `r` after [`to_words`]: the inverse of [`word_reg`].
const fn reg_word(r: usize) -> usize {
    (r >> 1 & 1) << 2 | (r & 1) << 1 | (r >> 2 & 1)
}

/// `[a..h]` back to the register order of [`to_words`].
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn unnamed(s: &[__m512i; 8]) -> [__m512i; 8] {
    core::array::from_fn(|r| s[reg_word(r)])
}

/// Defines, in the calling module, the SHA-2 functions on every lane of a `zmm` register for
/// one word width (`epi32` for SHA-256 here, `epi64` for `sha512_avx512_x8`), given its
/// intrinsics and FIPS 180-4's rotation amounts: `add`, `big_sigma0/1`, `small_sigma0/1`, `ch`
/// and `maj`, which [`schedule!`], [`round!`] and [`rounds16!`] are written with. Each is an
/// `#[inline]` function with `avx512f`, as the kernels are, visible in the crate (the
/// two-group kernels import their word width's).
///
/// Σ is computed as `rotr(x ^ rotr(x, M - N) ^ rotr(x, L - N), N)`: as many operations as
/// three rotations and a three-way xor (`vpternlog` `0x96`), with one temporary fewer live (the
/// round has no register to spare).
macro_rules! sha2_lane_functions {
    (
        add: $add:ident,
        ror: $ror:ident,
        srli: $srli:ident,
        ternarylogic: $tern:ident,
        big_sigma0: [$n0:literal, $m0:literal, $l0:literal],
        big_sigma1: [$n1:literal, $m1:literal, $l1:literal],
        small_sigma0: [$r0:literal, $q0:literal, $s0:literal],
        small_sigma1: [$r1:literal, $q1:literal, $s1:literal] $(,)?
    ) => {
        /// A `zmm` register: sixteen 32-bit or eight 64-bit words.
        pub(crate) type Zmm = core::arch::x86_64::__m512i;

        /// Lane-wise addition modulo the word size.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn add(x: Zmm, y: Zmm) -> Zmm {
            $add(x, y)
        }

        /// Σ with rotations `N`, `N + M_N`, `N + L_N`.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn big_sigma<const N: i32, const M_N: i32, const L_N: i32>(x: Zmm) -> Zmm {
            $ror::<N>($tern::<0x96>(x, $ror::<M_N>(x), $ror::<L_N>(x)))
        }

        /// Schedule σ: two rotations and a shift, xored.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn small_sigma<const N: i32, const M: i32, const S: u32>(x: Zmm) -> Zmm {
            $tern::<0x96>($ror::<N>(x), $ror::<M>(x), $srli::<S>(x))
        }

        /// Σ0.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn big_sigma0(x: Zmm) -> Zmm {
            big_sigma::<$n0, { $m0 - $n0 }, { $l0 - $n0 }>(x)
        }

        /// Σ1.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn big_sigma1(x: Zmm) -> Zmm {
            big_sigma::<$n1, { $m1 - $n1 }, { $l1 - $n1 }>(x)
        }

        /// σ0.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn small_sigma0(x: Zmm) -> Zmm {
            small_sigma::<$r0, $q0, $s0>(x)
        }

        /// σ1.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn small_sigma1(x: Zmm) -> Zmm {
            small_sigma::<$r1, $q1, $s1>(x)
        }

        /// Choose.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn ch(e: Zmm, f: Zmm, g: Zmm) -> Zmm {
            $tern::<0xca>(e, f, g)
        }

        /// Majority.
        #[inline]
        #[target_feature(enable = "avx512f")]
        pub(crate) fn maj(a: Zmm, b: Zmm, c: Zmm) -> Zmm {
            $tern::<0xe8>(a, b, c)
        }
    };
}
pub(crate) use sha2_lane_functions;

sha2_lane_functions! {
    add: _mm512_add_epi32,
    ror: _mm512_ror_epi32,
    srli: _mm512_srli_epi32,
    ternarylogic: _mm512_ternarylogic_epi32,
    big_sigma0: [2, 13, 22],
    big_sigma1: [6, 11, 25],
    small_sigma0: [7, 18, 3],
    small_sigma1: [17, 19, 10],
}

/// `w[t]` from the ring in place of `w[t - 16]` (`$i = t mod 16`), with the calling module's
/// [`sha2_lane_functions!`].
macro_rules! schedule {
    ($w:ident, $i:expr) => {
        $w[$i] = add(
            add($w[$i], small_sigma0($w[($i + 1) & 15])),
            add($w[($i + 9) & 15], small_sigma1($w[($i + 14) & 15])),
        );
    };
}
pub(crate) use schedule;

/// One round with `$kw` = `w[t] + K[t]` on every lane, the variables named in their roles of
/// this round (with the calling module's [`sha2_lane_functions!`]); the next round takes
/// `h, a, b, c, d, e, f, g` as its `a..h`.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $kw:expr) => {
        let t1 = add(add($h, $kw), add(big_sigma1($e), ch($e, $f, $g)));
        $d = add($d, t1);
        $h = add(t1, add(big_sigma0($a), maj($a, $b, $c)));
    };
}
pub(crate) use round;

/// Sixteen rounds, `$kw!(i)` giving `w[t] + K[t]` for round `t = 16g + i` of the group.
macro_rules! rounds16 {
    ($kw:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {
        rounds16!(@8 $kw, 0, $a, $b, $c, $d, $e, $f, $g, $h);
        rounds16!(@8 $kw, 8, $a, $b, $c, $d, $e, $f, $g, $h);
    };
    (@8 $kw:ident, $o:literal,
     $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {
        round!($a, $b, $c, $d, $e, $f, $g, $h, $kw!($o));
        round!($h, $a, $b, $c, $d, $e, $f, $g, $kw!($o + 1));
        round!($g, $h, $a, $b, $c, $d, $e, $f, $kw!($o + 2));
        round!($f, $g, $h, $a, $b, $c, $d, $e, $kw!($o + 3));
        round!($e, $f, $g, $h, $a, $b, $c, $d, $kw!($o + 4));
        round!($d, $e, $f, $g, $h, $a, $b, $c, $kw!($o + 5));
        round!($c, $d, $e, $f, $g, $h, $a, $b, $kw!($o + 6));
        round!($b, $c, $d, $e, $f, $g, $h, $a, $kw!($o + 7));
    };
}
pub(crate) use rounds16;

/// `K[t]` on every lane.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn k(t: usize) -> __m512i {
    _mm512_set1_epi32(SHA256_K[t] as i32)
}

multisha_contract::declare_variant! {
    /// The `avx512-x16` SHA-256 many-message variant.
    pub static VARIANT: Sha256Compression = {
        name: "avx512-x16",
        description: "sixteen messages at once: one word of every lane per zmm register, vprord and vpternlogd rounds, the schedule in a ring of sixteen registers",
        schedule: Registers,
        requires: ["avx512f", "avx512bw"],
        lanes: 16,
        cost: { setup: 148.0, call: 0.0, step: 351.0, message: 14.0, ragged: 22.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the sixteen lanes, block by block in step;
    /// `_w` is not used.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 8]], blocks: &[&[[u8; 64]]], _w: &mut LaneWorkspace) {
        let (blocks, n) = equal_lanes::<_, LANES>(blocks);
        let mut v = load_states(states);
        to_words(&mut v);
        store_states(states, &v);
        for i in 0..n {
            let mut w = load_message!(blocks, i);
            // The block's input state is read from `states` (see the module header) after the
            // message transpose, which needs the registers.
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] =
                named(&reload_states(states));
            macro_rules! kw_load {
                ($i:expr) => {
                    _mm512_add_epi32(w[$i], k($i))
                };
            }
            rounds16!(kw_load, a, b, c, d, e, f, g, h);
            for group in 1..4 {
                macro_rules! kw_schedule {
                    ($i:expr) => {{
                        schedule!(w, $i);
                        _mm512_add_epi32(w[$i], k(16 * group + $i))
                    }};
                }
                rounds16!(kw_schedule, a, b, c, d, e, f, g, h);
            }
            let input = named(&reload_states(states));
            let out = [a, b, c, d, e, f, g, h];
            let sum = core::array::from_fn(|j| _mm512_add_epi32(out[j], input[j]));
            store_states(states, &unnamed(&sum));
        }
        let mut v = reload_states(states);
        from_words(&mut v);
        store_states(states, &v);
    }
    /// One compression of every lane on the expanded schedule `w[0..64]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 8]], w: &[u32], _ws: &mut LaneWorkspace) {
        let w: &[u32; 64] = w.try_into().expect("a 64-word schedule");
        let mut v = load_states(states);
        to_words(&mut v);
        let input = named(&v);
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = input;
        for group in 0..4 {
            macro_rules! kw_constant {
                ($i:expr) => {
                    _mm512_set1_epi32(
                        w[16 * group + $i].wrapping_add(SHA256_K[16 * group + $i]) as i32,
                    )
                };
            }
            rounds16!(kw_constant, a, b, c, d, e, f, g, h);
        }
        let out = [a, b, c, d, e, f, g, h];
        let mut v = unnamed(&core::array::from_fn(|j| _mm512_add_epi32(out[j], input[j])));
        from_words(&mut v);
        store_states(states, &v);
    }
}
