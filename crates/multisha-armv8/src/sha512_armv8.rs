//! SHA-512 (and SHA-384, SHA-512/224, SHA-512/256) on the AArch64 SHA-512 instructions
//! (FEAT_SHA512, which Rust's target feature `sha3` includes).
//!
//! The instructions, each working on 128-bit vectors of two 64-bit words:
//!
//! * `SHA512H  sum, ef', cd'` (`vsha512hq_u64`): the `Σ1`/`ch` half of two rounds. `sum` holds
//!   `h + k + w` of both rounds (the second round's in the low lane), `ef'` is `[f, g]` and
//!   `cd'` is `[d, e]` (the two `ext`s below); returns the two rounds' `T1` partial sums.
//! * `SHA512H2 t, cd, ab` (`vsha512h2q_u64`): the `Σ0`/`maj` half; returns the new `[g, h]`
//!   pair, which becomes `a, b` two rounds on. `cd + t` is the new `[e, f]`.
//! * `SHA512SU0 w0, w1` (`vsha512su0q_u64`): `w[t-16] + σ0(w[t-15])` for two words.
//! * `SHA512SU1 t, w14, w9` (`vsha512su1q_u64`): adds `σ1(w[t-2])` and `w[t-7]`, giving
//!   `w[t..t+2]`.
//!
//! The state lives in four vectors (`ab`, `cd`, `ef`, `gh`) for the whole call, the sixteen-word
//! schedule window in eight. Every two rounds the roles of the four state vectors rotate by
//! one (the pair that received the new `g, h` is the next pair's `a, b`), so eight round pairs
//! bring both the roles and the schedule ring back to where they started. It never touches
//! the workspace. The PBKDF2 loop keeps `U`, `T` and both HMAC keyed states in vectors across
//! all its iterations: the state vectors are the next message's first words.

use core::arch::aarch64::{
    uint64x2_t, vaddq_u64, vandq_u64, veorq_u64, vextq_u64, vld1q_u8, vld1q_u64, vorrq_u64,
    vreinterpretq_u64_u8, vrev64q_u8, vsha512h2q_u64, vsha512hq_u64, vsha512su0q_u64,
    vsha512su1q_u64, vst1q_u64,
};
use multisha_contract::{
    Block128 as Block, HmacKeys, SHA512_K, Sha512Compression, Sha512Workspace, hmac_template,
};

/// Loads the `i`-th pair of message words of `block` as big-endian words: `vrev64q_u8`
/// reverses the bytes within each 64-bit lane of the little-endian vector load.
#[inline(always)]
pub(crate) fn load_words(block: &Block, i: usize) -> uint64x2_t {
    let bytes: &[u8; 16] = block[16 * i..16 * i + 16].try_into().expect("16 bytes");
    // SAFETY: `bytes` is 16 readable bytes, exactly what `vld1q_u8` reads (no alignment
    // needed); NEON, which these three intrinsics require, is part of the aarch64 baseline.
    unsafe { vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(bytes.as_ptr()))) }
}

/// Loads two consecutive `u64`s into one vector, lane 0 first.
#[inline(always)]
pub(crate) fn load_u64x2(words: &[u64]) -> uint64x2_t {
    let words: &[u64; 2] = words.try_into().expect("2 words");
    // SAFETY: `words` is two readable `u64`s, exactly what `vld1q_u64` reads; NEON, which it
    // requires, is part of the aarch64 baseline.
    unsafe { vld1q_u64(words.as_ptr()) }
}

/// Two rounds with the schedule words `$w` and the round constants of round pair `$p`, on the
/// state vectors in the roles `$ab`, `$cd`, `$ef`, `$gh`: `$gh` receives the new `g, h` and
/// `$cd` the new `e, f`.
macro_rules! two_rounds {
    ($p:expr, $w:ident, $ab:ident, $cd:ident, $ef:ident, $gh:ident) => {
        let wk = vaddq_u64($w, load_u64x2(&SHA512_K[2 * $p..2 * $p + 2]));
        // The second round's `k + w` in the low lane, plus `h`.
        let sum = vaddq_u64(vextq_u64::<1>(wk, wk), $gh);
        let t = vsha512hq_u64(sum, vextq_u64::<1>($ef, $gh), vextq_u64::<1>($cd, $ef));
        $gh = vsha512h2q_u64(t, $cd, $ab);
        $cd = vaddq_u64($cd, t);
    };
}

/// Replaces the oldest two schedule words `$w0` (`w[t-16..t-14]`) with `w[t..t+2]`.
macro_rules! schedule {
    ($w0:ident, $w1:ident, $w4:ident, $w5:ident, $w7:ident) => {
        $w0 = vsha512su1q_u64(vsha512su0q_u64($w0, $w1), $w7, vextq_u64::<1>($w4, $w5));
    };
}

/// One block with message words `$words` (eight vectors of two) compressed into the state
/// vectors `$ab`, `$cd`, `$ef`, `$gh`, feed-forward included.
macro_rules! compress_block {
    ($ab:ident, $cd:ident, $ef:ident, $gh:ident, $words:expr) => {{
        let (ab_in, cd_in, ef_in, gh_in) = ($ab, $cd, $ef, $gh);
        let [
            mut s0,
            mut s1,
            mut s2,
            mut s3,
            mut s4,
            mut s5,
            mut s6,
            mut s7,
        ]: [uint64x2_t; 8] = $words;

        // Rounds 0..16 read the loaded words; each later group of sixteen first computes
        // the window vector it is about to use (eight pairs after its last use).
        two_rounds!(0, s0, $ab, $cd, $ef, $gh);
        two_rounds!(1, s1, $gh, $ab, $cd, $ef);
        two_rounds!(2, s2, $ef, $gh, $ab, $cd);
        two_rounds!(3, s3, $cd, $ef, $gh, $ab);
        two_rounds!(4, s4, $ab, $cd, $ef, $gh);
        two_rounds!(5, s5, $gh, $ab, $cd, $ef);
        two_rounds!(6, s6, $ef, $gh, $ab, $cd);
        two_rounds!(7, s7, $cd, $ef, $gh, $ab);
        for group in 1..5 {
            let p = 8 * group;
            schedule!(s0, s1, s4, s5, s7);
            two_rounds!(p, s0, $ab, $cd, $ef, $gh);
            schedule!(s1, s2, s5, s6, s0);
            two_rounds!(p + 1, s1, $gh, $ab, $cd, $ef);
            schedule!(s2, s3, s6, s7, s1);
            two_rounds!(p + 2, s2, $ef, $gh, $ab, $cd);
            schedule!(s3, s4, s7, s0, s2);
            two_rounds!(p + 3, s3, $cd, $ef, $gh, $ab);
            schedule!(s4, s5, s0, s1, s3);
            two_rounds!(p + 4, s4, $ab, $cd, $ef, $gh);
            schedule!(s5, s6, s1, s2, s4);
            two_rounds!(p + 5, s5, $gh, $ab, $cd, $ef);
            schedule!(s6, s7, s2, s3, s5);
            two_rounds!(p + 6, s6, $ef, $gh, $ab, $cd);
            schedule!(s7, s0, s3, s4, s6);
            two_rounds!(p + 7, s7, $cd, $ef, $gh, $ab);
        }

        $ab = vaddq_u64($ab, ab_in);
        $cd = vaddq_u64($cd, cd_in);
        $ef = vaddq_u64($ef, ef_in);
        $gh = vaddq_u64($gh, gh_in);
    }};
}

multisha_contract::declare_variant! {
    /// The `armv8` SHA-512 variant.
    pub static VARIANT: Sha512Compression = {
        name: "armv8",
        description: "ARMv8.2 SHA-512 instructions (SHA512H/H2, SHA512SU0/1), state and schedule in registers",
        schedule: Registers,
        requires: ["sha3"],
        cost: { call: 2.0, step: 100.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state` with the SHA-512 instructions; `_w` is not used (the
    /// schedule lives in vector registers).
    #[inline(never)]
    pub fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]], _w: &mut Sha512Workspace) {
        let mut ab = load_u64x2(&state[0..2]);
        let mut cd = load_u64x2(&state[2..4]);
        let mut ef = load_u64x2(&state[4..6]);
        let mut gh = load_u64x2(&state[6..8]);

        for block in blocks {
            let words = core::array::from_fn(|i| load_words(block, i));
            compress_block!(ab, cd, ef, gh, words);
        }

        store(state, [ab, cd, ef, gh]);
    }

    /// The PBKDF2 loop on the SHA-512 instructions: `U`, `T` and both keyed states stay in
    /// vector registers across all iterations; a digest's state vectors are the next
    /// message's first eight words (masked and padded for the shorter outputs), the rest
    /// constant padding.
    #[inline(never)]
    pub fn iterate(
        keys: &HmacKeys<Sha512Compression>,
        u: &mut [u64; 8],
        t: &mut [u64; 8],
        digest_len: usize,
        count: u32,
    ) {
        if count == 0 {
            return;
        }
        let template = hmac_template::<Sha512Compression>(digest_len);
        let pairs = |words: &[u64; 16]| -> [uint64x2_t; 8] {
            core::array::from_fn(|i| load_u64x2(&words[2 * i..2 * i + 2]))
        };
        let (mask, pad) = (pairs(&template.mask), pairs(&template.pad));
        let quarters = |state: &[u64; 8]| -> [uint64x2_t; 4] {
            core::array::from_fn(|i| load_u64x2(&state[2 * i..2 * i + 2]))
        };
        let (inner, outer) = (quarters(&keys.inner), quarters(&keys.outer));
        let [mut ab, mut cd, mut ef, mut gh] = quarters(u);
        let mut sum = quarters(t);
        for _ in 0..count {
            for start in [inner, outer] {
                let digest = [ab, cd, ef, gh];
                let words: [uint64x2_t; 8] = core::array::from_fn(|i| match i {
                    0..4 => vorrq_u64(vandq_u64(digest[i], mask[i]), pad[i]),
                    _ => pad[i],
                });
                [ab, cd, ef, gh] = start;
                compress_block!(ab, cd, ef, gh, words);
            }
            for (sum, word) in sum.iter_mut().zip([ab, cd, ef, gh]) {
                *sum = veorq_u64(*sum, word);
            }
        }
        store(u, [ab, cd, ef, gh]);
        store(t, sum);
    }
}

/// Stores the four state vectors as the eight words of `state`.
#[inline(always)]
fn store(state: &mut [u64; 8], vectors: [uint64x2_t; 4]) {
    let (quarters, _) = state.as_chunks_mut::<2>();
    for (quarter, vector) in quarters.iter_mut().zip(vectors) {
        // SAFETY: each chunk is two writable `u64`s, exactly what `vst1q_u64` writes; NEON,
        // which it requires, is part of the aarch64 baseline.
        unsafe { vst1q_u64(quarter.as_mut_ptr(), vector) };
    }
}
