//! SHA-1 of sixteen messages at once with AVX-512: one 32-bit word of every lane per `zmm`
//! register.
//!
//! * The working state is five registers (`a..e`, each holding that word of the sixteen
//!   lanes), the schedule a ring of sixteen registers (`w[t]` replaces `w[t - 16]` just before
//!   round `t`: one `vpternlogd`, one `vpxord`, one `vprold`); `f` is one `vpternlogd` (`ch`
//!   `0xca`, parity `0x96`, `maj` `0xe8`), the rotations `vprold`, `K` a broadcast.
//! * The message words come from `sha256_avx512_x16`'s in-register 16 × 16 transpose.
//! * The chaining state arrives row-major (`[a..e]` per lane, 16 × 5 words = five registers);
//!   on entry each output register gathers its sixteen words from the five input registers
//!   (one `vpermt2d` over the first two, then one masked `vpermt2d` per further register,
//!   tables built at compile time), and the reverse on exit. In between it stays, transposed,
//!   in `states`, read back from there at the start and the end of each block behind an empty
//!   `asm!`, as in the SHA-256 kernel: the generated code spills no vector register, nothing
//!   message-derived goes to the stack, and the lane workspace is not used.
//! * The schedule's three-way xor overwrites `w[t - 16]` (dead after it), so it needs no copy.
//! * The constant entry runs the 80 rounds on the broadcast `w[t] + K`: no schedule work.
//!
//! About 10 vector operations per round, which bound the speed: on Zen 4 (512-bit operations
//! as two 256-bit halves) about 2 bytes per cycle of all sixteen lanes together (~6.9 GB/s).

use core::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_loadu_si512, _mm512_mask_permutex2var_epi32,
    _mm512_permutex2var_epi32, _mm512_rol_epi32, _mm512_set1_epi32, _mm512_storeu_si512,
    _mm512_ternarylogic_epi32, _mm512_xor_si512,
};
use multisha_contract::{SHA1_K, Sha1Compression, equal_lanes};

use crate::sha256_avx512_x16::{LANES, load_message};

type LaneWorkspace = <Sha1Compression as multisha_contract::Compression>::LaneWorkspace;

/// How to rearrange five registers of sixteen words: for each output register, the
/// `vpermt2d` index of each element (0..16: the first source register, 16..32: the second or
/// the one being merged) and, per source register, the mask of the elements it provides.
#[repr(C, align(64))]
pub(crate) struct Transpose {
    index: [[u32; 16]; 5],
    from: [[u16; 5]; 5],
}

/// The table from row-major states (`[a..e]` per lane) to one register per word, if
/// `to_words`, or back.
const fn transpose(to_words: bool) -> Transpose {
    let mut t = Transpose {
        index: [[0; 16]; 5],
        from: [[0; 5]; 5],
    };
    let mut out = 0;
    while out < 5 {
        let mut e = 0;
        while e < 16 {
            // Row-major position `lin` is word `lin % 5` of lane `lin / 5`.
            let (src, pos) = if to_words {
                let lin = 5 * e + out;
                (lin / 16, lin % 16)
            } else {
                let lin = 16 * out + e;
                (lin % 5, lin / 5)
            };
            t.index[out][e] = if src == 0 { pos } else { 16 + pos } as u32;
            t.from[out][src] |= 1 << e;
            e += 1;
        }
        out += 1;
    }
    t
}

pub(crate) static TO_WORDS: Transpose = transpose(true);
pub(crate) static FROM_WORDS: Transpose = transpose(false);

/// The five registers rearranged by table `t`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn permute(v: &[__m512i; 5], t: &Transpose) -> [__m512i; 5] {
    core::array::from_fn(|out| {
        // SAFETY: one row of the table is 16 words: one aligned-enough 64-byte load.
        let index = unsafe { _mm512_loadu_si512(t.index[out].as_ptr().cast()) };
        // The first two source registers in one permute, the others merged into it.
        let mut x = _mm512_permutex2var_epi32(v[0], index, v[1]);
        for src in 2..5 {
            x = _mm512_mask_permutex2var_epi32(x, t.from[out][src], index, v[src]);
        }
        x
    })
}

/// The transposed block-input state that `compress` keeps in `states`, read back from memory.
///
/// The empty `asm!` may (for all the compiler knows) write `states`, so the loads cannot be
/// replaced by the values stored there earlier: that would keep them in registers for the whole
/// block, where they do not fit and were spilled to the stack.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn reload_states(states: &mut [[u32; 5]]) -> [__m512i; 5] {
    // SAFETY: an empty assembly block (the operand only shows it `states`): it executes
    // nothing, touches no stack and no flag.
    unsafe {
        core::arch::asm!("/* {0} */", in(reg) states.as_mut_ptr(), options(nostack, preserves_flags));
    }
    load_states(states)
}

/// Loads the five registers of `states` (sixteen lanes of five words, 320 bytes).
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn load_states(states: &[[u32; 5]]) -> [__m512i; 5] {
    assert_eq!(states.len(), LANES, "a group of sixteen lanes");
    let p: *const __m512i = states.as_ptr().cast();
    // SAFETY: `states` is 16 × 20 = 320 contiguous bytes: five unaligned 64-byte loads.
    core::array::from_fn(|r| unsafe { _mm512_loadu_si512(p.add(r)) })
}

/// Stores five registers into `states` (sixteen lanes of five words, 320 bytes).
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn store_states(states: &mut [[u32; 5]], v: &[__m512i; 5]) {
    assert_eq!(states.len(), LANES, "a group of sixteen lanes");
    let p: *mut __m512i = states.as_mut_ptr().cast();
    for (r, x) in v.iter().enumerate() {
        // SAFETY: `states` is 16 × 20 = 320 contiguous bytes: five unaligned 64-byte stores.
        unsafe { _mm512_storeu_si512(p.add(r), *x) };
    }
}

/// One round with `$kw` = `w[t] + K` on every lane and `f` the `vpternlogd` function `$f`,
/// the variables named in their roles of this round; the next round takes `e, a, b, c, d`.
macro_rules! round {
    ($f:literal, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $kw:expr) => {
        $e = _mm512_add_epi32(
            _mm512_add_epi32($e, $kw),
            _mm512_add_epi32(
                _mm512_rol_epi32::<5>($a),
                _mm512_ternarylogic_epi32::<$f>($b, $c, $d),
            ),
        );
        $b = _mm512_rol_epi32::<30>($b);
    };
}

pub(crate) use round;

/// Twenty rounds from round `$t` with function `$f`, `$kw!(t)` giving `w[t] + K`.
macro_rules! rounds20 {
    ($kw:ident, $f:literal, $t:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        rounds20!(@5 $kw, $f, $t, $a, $b, $c, $d, $e);
        rounds20!(@5 $kw, $f, $t + 5, $a, $b, $c, $d, $e);
        rounds20!(@5 $kw, $f, $t + 10, $a, $b, $c, $d, $e);
        rounds20!(@5 $kw, $f, $t + 15, $a, $b, $c, $d, $e);
    };
    (@5 $kw:ident, $f:literal, $t:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        round!($f, $a, $b, $c, $d, $e, $kw!($t));
        round!($f, $e, $a, $b, $c, $d, $kw!($t + 1));
        round!($f, $d, $e, $a, $b, $c, $kw!($t + 2));
        round!($f, $c, $d, $e, $a, $b, $kw!($t + 3));
        round!($f, $b, $c, $d, $e, $a, $kw!($t + 4));
    };
}

/// All eighty rounds.
macro_rules! rounds80 {
    ($kw:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        rounds20!($kw, 0xca, 0, $a, $b, $c, $d, $e);
        rounds20!($kw, 0x96, 20, $a, $b, $c, $d, $e);
        rounds20!($kw, 0xe8, 40, $a, $b, $c, $d, $e);
        rounds20!($kw, 0x96, 60, $a, $b, $c, $d, $e);
    };
}

/// Adds the block-input state kept transposed in `states` (sixteen lanes) to the working state
/// `out` (`[a..e]`) and stores the sum there, transposed.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn feed_forward(states: &mut [[u32; 5]], out: [__m512i; 5]) {
    let input = reload_states(states);
    let sum = core::array::from_fn(|j| _mm512_add_epi32(out[j], input[j]));
    store_states(states, &sum);
}

/// Transposes sixteen lanes' row-major states in place (to one register per word).
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn transpose_in(states: &mut [[u32; 5]]) {
    store_states(states, &permute(&load_states(states), &TO_WORDS));
}

/// The inverse of [`transpose_in`], from the states kept transposed in `states`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn transpose_out(states: &mut [[u32; 5]]) {
    let words = reload_states(states);
    store_states(states, &permute(&words, &FROM_WORDS));
}

/// `K` of round `t` on every lane.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn k(t: usize) -> __m512i {
    _mm512_set1_epi32(SHA1_K[t / 20] as i32)
}

multisha_contract::declare_variant! {
    /// The `avx512-x16` SHA-1 many-message variant.
    pub static VARIANT: Sha1Compression = {
        name: "avx512-x16",
        description: "sixteen messages at once: one word of every lane per zmm register, vprold and vpternlogd rounds, the schedule in a ring of sixteen registers",
        schedule: Registers,
        requires: ["avx512f", "avx512bw"],
        lanes: 16,
        cost: { setup: 146.0, call: 0.0, step: 182.0, message: 14.0, ragged: 21.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the sixteen lanes, block by block in step;
    /// `_w` is not used.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 5]], blocks: &[&[[u8; 64]]], _w: &mut LaneWorkspace) {
        let (blocks, n) = equal_lanes::<_, LANES>(blocks);
        transpose_in(states);
        for i in 0..n {
            let mut w = load_message!(blocks, i);
            // The block's input state is read from `states` (see the module header) after the
            // message transpose, which needs the registers.
            let [mut a, mut b, mut c, mut d, mut e] = reload_states(states);
            macro_rules! kw_schedule {
                ($t:expr) => {{
                    if $t >= 16 {
                        // `w[t - 16]`, dead after, is the operand the three-way xor
                        // overwrites (no copy), and the newest word comes last.
                        w[$t & 15] = _mm512_rol_epi32::<1>(_mm512_xor_si512(
                            _mm512_ternarylogic_epi32::<0x96>(
                                w[$t & 15],
                                w[($t - 14) & 15],
                                w[($t - 8) & 15],
                            ),
                            w[($t - 3) & 15],
                        ));
                    }
                    _mm512_add_epi32(w[$t & 15], k($t))
                }};
            }
            rounds80!(kw_schedule, a, b, c, d, e);
            feed_forward(states, [a, b, c, d, e]);
        }
        transpose_out(states);
    }
    /// One compression of every lane on the expanded schedule `w[0..80]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 5]], w: &[u32], _ws: &mut LaneWorkspace) {
        let w: &[u32; 80] = w.try_into().expect("an 80-word schedule");
        let input = permute(&load_states(states), &TO_WORDS);
        let [mut a, mut b, mut c, mut d, mut e] = input;
        macro_rules! kw_constant {
            ($t:expr) => {
                _mm512_set1_epi32(w[$t].wrapping_add(SHA1_K[$t / 20]) as i32)
            };
        }
        rounds80!(kw_constant, a, b, c, d, e);
        let out = [a, b, c, d, e];
        let sum = core::array::from_fn(|j| _mm512_add_epi32(out[j], input[j]));
        store_states(states, &permute(&sum, &FROM_WORDS));
    }
}
