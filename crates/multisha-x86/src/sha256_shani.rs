//! SHA-256 with the x86 SHA extensions (SHA-NI).
//!
//! * `sha256rnds2` runs two rounds on the state split as `abef` / `cdgh`, taking the two
//!   rounds' `k + w` from the low half of its third operand.
//! * `sha256msg1` adds `σ0(w[t-15])` to `w[t-16]`, `sha256msg2` adds the `σ1(w[t-2])` terms
//!   (including the dependency inside the four new words); shifts and adds supply `w[t-7]`
//!   around it, the one word of it from the group just made after `sha256msg2` (the
//!   schedule's chain, not the rounds, set the pace of single blocks and PBKDF2; see
//!   `next_words`).
//!
//! Design: the state lives in two xmm registers in SHA-NI order for the whole call
//! (converted once on entry and once on exit), the schedule in a ring of five xmm registers,
//! so the workspace is ignored. K is added four words at a time from the contract's table.
//! Messages of exactly one block (64-byte Merkle nodes) have an entry of their own: the
//! padding block's rounds on a constant `w + K` (`PADDING_WK`); two messages side by side
//! (`sha256_shani_x2::one_block_pair`: SHA-NI's rounds are latency-bound, and a second
//! independent message fills the gaps), three in three steps of two streams, runs of four or
//! more pipelined four streams at a time (`sha256_shani_nodes`) or in pairs, whichever the
//! calibration measures faster.
//! The PBKDF2 loop keeps `U`, `T` and both HMAC keyed states in SHA-NI order across all its
//! iterations and builds each message from the state registers.
//!
//! Two variants come from this one source: `shani` in legacy SSE encodings (module [`sse`],
//! every CPU with SHA-NI) and `shani-vex` in VEX encodings (module [`vex`], CPUs with AVX),
//! which drop the register copies two-operand SSE needs (`shani_kernel!`).

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_and_si128, _mm_blend_epi16, _mm_extract_epi32,
    _mm_loadu_si128, _mm_or_si128, _mm_set_epi32, _mm_set_epi64x, _mm_sha256msg1_epu32,
    _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32, _mm_shuffle_epi8, _mm_shuffle_epi32,
    _mm_slli_si128, _mm_srli_si128, _mm_storel_epi64, _mm_storeu_si128, _mm_xor_si128,
};
use multisha_contract::{
    Compression, HmacKeys, SHA256_K, Sha256Compression, Sha256Workspace, hmac_template,
};

/// Four rounds whose `k + w` are the four words `$wk`.
macro_rules! rounds4_wk {
    ($abef:ident, $cdgh:ident, $wk:expr) => {
        let wk = $wk;
        $cdgh = _mm_sha256rnds2_epu32($cdgh, $abef, wk);
        // The next two rounds take their k + w from the high half.
        $abef = _mm_sha256rnds2_epu32($abef, $cdgh, _mm_shuffle_epi32::<0x0e>(wk));
    };
}

/// Four rounds with schedule words `$w` and constants `K[4*$i..4*$i+4]` (`$i` < 16).
macro_rules! rounds4 {
    ($abef:ident, $cdgh:ident, $w:expr, $i:expr) => {
        // SAFETY: `SHA256_K` has 64 words, so words 4i..4i+4 (i < 16) are readable.
        let k = unsafe { _mm_loadu_si128(SHA256_K.as_ptr().add(4 * $i).cast()) };
        rounds4_wk!($abef, $cdgh, _mm_add_epi32($w, k));
    };
}

/// w[t..t+4] from the previous sixteen words `$w0..$w3` (w[t-16..t] four at a time):
/// `sha256msg1` adds σ0(w[t-15]) to w[t-16], an `palignr` supplies w[t-7], `sha256msg2` adds
/// the σ1(w[t-2]) terms.
macro_rules! next_words {
    // (`short` first: the plain arm would try to read it as an expression.) The same words
    // with a shorter path from `$w3`, for a stream whose schedule cannot run ahead of its
    // rounds (PBKDF2's blocks, made of the last digest), where the schedule's chain, one group
    // after the other, sets the pace: `w[t-4]`, the one word of w[t-7..t-4] that `$w3`
    // supplies, only adds to the last new word, which nothing else in `sha256msg2` reads, so it
    // is added after it, and `sha256msg2` waits for `$w3` alone. Two instructions more than the
    // plain form.
    (short $w0:expr, $w1:expr, $w2:expr, $w3:expr) => {
        _mm_add_epi32(
            _mm_sha256msg2_epu32(
                _mm_add_epi32(_mm_sha256msg1_epu32($w0, $w1), _mm_srli_si128::<4>($w2)),
                $w3,
            ),
            _mm_slli_si128::<12>($w3),
        )
    };
    // The plain form by name, for a caller that picks the form with a token.
    (plain $w0:expr, $w1:expr, $w2:expr, $w3:expr) => {
        next_words!($w0, $w1, $w2, $w3)
    };
    ($w0:expr, $w1:expr, $w2:expr, $w3:expr) => {
        _mm_sha256msg2_epu32(
            _mm_add_epi32(
                _mm_sha256msg1_epu32($w0, $w1),
                _mm_alignr_epi8::<4>($w3, $w2),
            ),
            $w3,
        )
    };
}
pub(crate) use next_words;

/// Schedule `$w4` = w[t..t+4] from the previous sixteen words ([`next_words`] in the form
/// `$form`: `short` or `plain`), then run four rounds with it.
macro_rules! schedule_rounds4 {
    ($form:ident, $abef:ident, $cdgh:ident,
     $w0:ident, $w1:ident, $w2:ident, $w3:ident, $w4:ident, $i:literal) => {
        $w4 = next_words!($form $w0, $w1, $w2, $w3);
        rounds4!($abef, $cdgh, $w4, $i);
    };
}

/// The eight state words at `$state` (`&[u32; 8]`) as SHA-NI's `(abef, cdgh)`:
/// `abef` = [f, e, b, a] and `cdgh` = [h, g, d, c] (lane 0 first).
macro_rules! to_shani {
    ($state:expr) => {{
        let state: &[u32; 8] = $state;
        let p: *const __m128i = state.as_ptr().cast();
        // SAFETY: the state is 32 bytes: two unaligned 16-byte loads.
        let (dcba, hgfe) = unsafe { (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1))) };
        let cdab = _mm_shuffle_epi32::<0xb1>(dcba);
        let efgh = _mm_shuffle_epi32::<0x1b>(hgfe);
        (
            _mm_alignr_epi8::<8>(cdab, efgh),
            _mm_blend_epi16::<0xf0>(efgh, cdab),
        )
    }};
}

/// `[a, b, c, d]` and `[e, f, g, h]` (lane 0 first) of a state in SHA-NI order.
macro_rules! from_shani_words {
    ($abef:expr, $cdgh:expr) => {{
        let feba = _mm_shuffle_epi32::<0x1b>($abef);
        let dchg = _mm_shuffle_epi32::<0xb1>($cdgh);
        (
            _mm_blend_epi16::<0xf0>(feba, dchg),
            _mm_alignr_epi8::<8>(dchg, feba),
        )
    }};
}

/// Stores a state in SHA-NI order into `$state` (`&mut [u32; 8]`) as eight words.
macro_rules! from_shani {
    ($abef:expr, $cdgh:expr, $state:expr) => {{
        let state: &mut [u32; 8] = $state;
        let (abcd, efgh) = from_shani_words!($abef, $cdgh);
        let p: *mut __m128i = state.as_mut_ptr().cast();
        // SAFETY: the state is 32 bytes: two unaligned 16-byte stores.
        unsafe {
            _mm_storeu_si128(p, abcd);
            _mm_storeu_si128(p.add(1), efgh);
        }
    }};
}

/// Writes the digest of the final state `$abef`, `$cdgh` (SHA-NI order) into `$out`
/// (`&mut [u8]`): its big-endian words, 32 bytes (SHA-256) or the first 28 (SHA-224), straight
/// from the registers.
macro_rules! store_digest {
    ($abef:expr, $cdgh:expr, $out:expr, $bswap:expr) => {{
        let out: &mut [u8] = $out;
        let (abcd, efgh) = from_shani_words!($abef, $cdgh);
        let (abcd, efgh) = (
            _mm_shuffle_epi8(abcd, $bswap),
            _mm_shuffle_epi8(efgh, $bswap),
        );
        let (first, rest) = out
            .split_first_chunk_mut::<16>()
            .expect("a digest of 28 or 32 bytes");
        // SAFETY: `first` is 16 bytes: an unaligned 16-byte store.
        unsafe { _mm_storeu_si128(first.as_mut_ptr().cast(), abcd) };
        match rest.len() {
            // SAFETY: 16 bytes: an unaligned 16-byte store.
            16 => unsafe { _mm_storeu_si128(rest.as_mut_ptr().cast(), efgh) },
            12 => {
                // SAFETY: the first 8 of the 12 bytes: an unaligned 8-byte store.
                unsafe { _mm_storel_epi64(rest.as_mut_ptr().cast(), efgh) };
                rest[8..].copy_from_slice(&_mm_extract_epi32::<2>(efgh).to_ne_bytes());
            }
            len => panic!("a SHA-256 digest is 28 or 32 bytes, not {}", 16 + len),
        }
    }};
}

/// [`store_digest!`] as a function, for the other SHA-NI kernels.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(crate) fn store_digest(abef: __m128i, cdgh: __m128i, out: &mut [u8]) {
    let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
    store_digest!(abef, cdgh, out, bswap);
}

/// The first eight message words of an HMAC block whose digest is the state `$abef`,
/// `$cdgh`: its words as they are (state words are the digest's big-endian words), the second
/// four masked and padded for SHA-224.
macro_rules! message {
    ($abef:expr, $cdgh:expr, $mask1:expr, $pad1:expr) => {{
        let (abcd, efgh) = from_shani_words!($abef, $cdgh);
        (abcd, _mm_or_si128(_mm_and_si128(efgh, $mask1), $pad1))
    }};
}

/// The 64 rounds of one block on the state `$abef`, `$cdgh` with the message words in `$w0..$w3`
/// (a fifth schedule register `$w4`), the schedule in the form `$form` ([`next_words`]). No
/// feed-forward.
macro_rules! block_rounds {
    ($form:ident,
     $abef:ident, $cdgh:ident, $w0:ident, $w1:ident, $w2:ident, $w3:ident, $w4:ident) => {
        rounds4!($abef, $cdgh, $w0, 0);
        rounds4!($abef, $cdgh, $w1, 1);
        rounds4!($abef, $cdgh, $w2, 2);
        rounds4!($abef, $cdgh, $w3, 3);
        schedule_rounds4!($form, $abef, $cdgh, $w0, $w1, $w2, $w3, $w4, 4);
        schedule_rounds4!($form, $abef, $cdgh, $w1, $w2, $w3, $w4, $w0, 5);
        schedule_rounds4!($form, $abef, $cdgh, $w2, $w3, $w4, $w0, $w1, 6);
        schedule_rounds4!($form, $abef, $cdgh, $w3, $w4, $w0, $w1, $w2, 7);
        schedule_rounds4!($form, $abef, $cdgh, $w4, $w0, $w1, $w2, $w3, 8);
        schedule_rounds4!($form, $abef, $cdgh, $w0, $w1, $w2, $w3, $w4, 9);
        schedule_rounds4!($form, $abef, $cdgh, $w1, $w2, $w3, $w4, $w0, 10);
        schedule_rounds4!($form, $abef, $cdgh, $w2, $w3, $w4, $w0, $w1, 11);
        schedule_rounds4!($form, $abef, $cdgh, $w3, $w4, $w0, $w1, $w2, 12);
        schedule_rounds4!($form, $abef, $cdgh, $w4, $w0, $w1, $w2, $w3, 13);
        schedule_rounds4!($form, $abef, $cdgh, $w0, $w1, $w2, $w3, $w4, 14);
        schedule_rounds4!($form, $abef, $cdgh, $w1, $w2, $w3, $w4, $w0, 15);
        let _ = ($w1, $w2, $w3, $w4);
    };
}

/// One block with message words `$w0..$w3` (big-endian words, w[0] in lane 0 of `$w0`)
/// compressed into the state `$abef`, `$cdgh`, feed-forward included.
macro_rules! compress_block {
    ($abef:ident, $cdgh:ident, $w0:expr, $w1:expr, $w2:expr, $w3:expr) => {{
        let (abef_in, cdgh_in) = ($abef, $cdgh);
        let (mut w0, mut w1, mut w2, mut w3) = ($w0, $w1, $w2, $w3);
        let mut w4;
        block_rounds!(short, $abef, $cdgh, w0, w1, w2, w3, w4);
        $abef = _mm_add_epi32($abef, abef_in);
        $cdgh = _mm_add_epi32($cdgh, cdgh_in);
    }};
}

/// The sixteen message words of `block`, big-endian, four to a register (w[0] in lane 0).
#[inline]
#[target_feature(enable = "sse2,ssse3")]
pub(crate) fn block_words(block: &[u8; 64]) -> [__m128i; 4] {
    let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
    let p: *const __m128i = block.as_ptr().cast();
    // SAFETY: `block` is 64 bytes, so the four unaligned 16-byte loads stay inside it.
    unsafe { [0, 1, 2, 3].map(|i| _mm_shuffle_epi8(_mm_loadu_si128(p.add(i)), bswap)) }
}

/// `w + K` of the padding block of a one-block message: a constant, so its rounds load it
/// and add nothing.
pub(crate) const PADDING_WK: [u32; 64] = {
    let w = <Sha256Compression as Compression>::ONE_BLOCK_PADDING;
    let mut wk = [0; 64];
    let mut i = 0;
    while i < 64 {
        wk[i] = w[i].wrapping_add(SHA256_K[i]);
        i += 1;
    }
    wk
};

/// The final state (SHA-NI order) of the whole message of one block `$block` (`&[u8; 64]`)
/// from the state `$iv_abef`, `$iv_cdgh`: the block's rounds, the feed-forward, the padding
/// block's rounds on [`PADDING_WK`] (LLVM folds each round pair's words into a constant of
/// its own), the feed-forward again. The block's schedule in the form `$form` ([`next_words`]):
/// which one is faster depends on the core ([`one_block_alone`]).
macro_rules! one_block_message {
    ($form:ident, $iv_abef:expr, $iv_cdgh:expr, $block:expr) => {{
        let (mut abef, mut cdgh) = ($iv_abef, $iv_cdgh);
        let [mut w0, mut w1, mut w2, mut w3] = block_words($block);
        let mut w4;
        block_rounds!($form, abef, cdgh, w0, w1, w2, w3, w4);
        abef = _mm_add_epi32(abef, $iv_abef);
        cdgh = _mm_add_epi32(cdgh, $iv_cdgh);
        let (mid_abef, mid_cdgh) = (abef, cdgh);
        for i in 0..16 {
            // SAFETY: words 4i..4i+4 (i < 16) of the 64 words: an unaligned 16-byte load.
            let wk = unsafe { _mm_loadu_si128(PADDING_WK.as_ptr().add(4 * i).cast()) };
            rounds4_wk!(abef, cdgh, wk);
        }
        (_mm_add_epi32(abef, mid_abef), _mm_add_epi32(cdgh, mid_cdgh))
    }};
}

/// Runs of at least this many one-block messages go through the pipelined kernel
/// (`sha256_shani_nodes`), shorter ones as pairs: its first and last steps run two streams,
/// which pairs do too. On a Zen 4, `sha256_pairs` of 4 nodes took 36.4 ns a node against
/// 37.6 as pairs (the `merkle_nodes` example).
const PIPELINED_FROM: usize = 4;

/// Messages of one block (two or more) two side by side (hashtree's shape: each pair's rounds
/// interleaved, the states in registers from the IV to the digest); of an odd count, the first
/// three in three steps of two streams (`sha256_shani_x2::one_block_three`): a pair and then
/// the odd one on its own left the SHA unit half idle for the odd one's two blocks (on an
/// Intel Xeon with AMX, 3, 5 and 7 nodes took 57.7-59.5, 55.6-57.0 and 54.4-56.1 ns a node
/// that way, 52.0-53.4, 52.1-53.5 and 52.1-53.5 now, hashtree 53.8-59.7, 54.3-56.8 and
/// 54.3-55.8). One message alone is the entries' (`one_block_alone`), here only if called so.
#[inline(never)]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn one_block_pairs(iv: &[u32; 8], blocks: &[&[u8; 64]], digests: &mut [&mut [u8]]) {
    assert_eq!(blocks.len(), digests.len(), "a digest for every block");
    let iv_shani = to_shani!(iv);
    let three = if blocks.len() % 2 == 1 { 3 } else { 0 };
    let (first, pairs) = blocks.split_at(three.min(blocks.len()));
    let (first_outs, pair_outs) = digests.split_at_mut(first.len());
    match (first, first_outs) {
        ([block0, block1, block2], [out0, out1, out2]) => {
            crate::sha256_shani_x2::one_block_three(
                iv_shani,
                [block0, block1, block2],
                &PADDING_WK,
                [out0, out1, out2],
            );
        }
        ([block], [out]) => sse::one_block_alone(iv, block, out),
        _ => {}
    }
    for (pair, out) in pairs.chunks_exact(2).zip(pair_outs.chunks_exact_mut(2)) {
        let [first, second] = out else {
            unreachable!("chunks of two")
        };
        crate::sha256_shani_x2::one_block_pair(
            iv_shani,
            [pair[0], pair[1]],
            &PADDING_WK,
            [first, second],
        );
    }
}

/// The variant's declaration and its entry for one message of one block alone, compiled for
/// the features `$feature` into module `$module`: once in legacy SSE encodings (`shani`, every
/// CPU with SHA-NI, the Atoms without AVX included) and once in VEX encodings (`shani-vex`).
/// The SHA instructions have no VEX form; with VEX, every other instruction takes three
/// operands, and the register copies that two-operand SSE needs before `paddd` and the
/// rounds are gone (27 of about 250 instructions of one node alone). One node is about 128
/// rounds in a chain, so back-to-back calls run side by side only as far as the out-of-order
/// window reaches: on an Intel Xeon (AMX generation) one-shot `sha256` of 64 bytes took 54.7
/// ns with VEX against 57.1 (the `hashes` bench, both variants in one process) and
/// `sha256_pairs` of one node 51.3 against 52.0 (the `merkle_nodes` example; hashtree 50.1);
/// longer messages, bound by the SHA unit, the same (SHA-1's kernel, tried so, gained nothing).
macro_rules! shani_kernel {
    ($(#[$module_doc:meta])* $module:ident, $(#[$doc:meta])* $name:literal, $description:literal,
     [$($feature:literal),*]) => {
        $(#[$module_doc])*
        pub mod $module {
            use super::*;

            multisha_contract::declare_variant! {
                $(#[$doc])*
                pub static VARIANT: Sha256Compression = {
                    name: $name,
                    description: $description,
                    schedule: Registers,
                    requires: [$($feature),*],
                    cost: { call: 2.0, step: 33.0, message: 12.0, one_block: 40.0 },
                    one_block:
                    /// Messages of one block (64-byte Merkle nodes), the padding block's rounds on
                    /// a constant `w + K`: four or more pipelined (`sha256_shani_nodes`: a pair's
                    /// message blocks beside the last pair's padding blocks, four streams where a
                    /// pair has two: faster where one stream leaves the SHA unit idle, as on a Zen
                    /// 4), two or three as [`one_block_pairs`] runs them, one alone as
                    /// [`one_block_alone`] does.
                    #[inline(never)]
                    pub fn hash_one_block(
                        iv: &[u32; 8],
                        blocks: &[&[u8; 64]],
                        digests: &mut [&mut [u8]],
                    ) {
                        if let ([block], [out]) = (blocks, &mut *digests) {
                            return one_block_alone(iv, block, out);
                        }
                        if blocks.len() < PIPELINED_FROM {
                            // (A call, not a second copy of the pairs' code: with two copies the
                            // compiler inlined the pair into neither, and 3 nodes took 62.4 ns a
                            // node against 60.4 on an Intel Xeon.)
                            return one_block_pairs(iv, blocks, digests);
                        }
                        assert_eq!(blocks.len(), digests.len(), "a digest for every block");
                        crate::sha256_shani_nodes::hash_nodes(to_shani!(iv), blocks, digests);
                    },
                    one_block_alternative:
                    /// Messages of one block two side by side, however many ([`one_block_pairs`]),
                    /// one alone as [`one_block_alone`] does: faster than the
                    /// pipeline where two streams already keep the SHA unit busy (on an Intel Xeon
                    /// with AMX, 53.6 ns a node against 56-58 at 4-8 nodes).
                    #[inline(never)]
                    pub fn hash_one_block_pairs(
                        iv: &[u32; 8],
                        blocks: &[&[u8; 64]],
                        digests: &mut [&mut [u8]],
                    ) {
                        if let ([block], [out]) = (blocks, &mut *digests) {
                            return one_block_alone(iv, block, out);
                        }
                        one_block_pairs(iv, blocks, digests);
                    }
                };
                /// Compresses `blocks` into `state` with SHA-NI; `w` is not used.
                #[inline(never)]
                pub fn compress(
                    state: &mut [u32; 8],
                    blocks: &[[u8; 64]],
                    w: &mut Sha256Workspace,
                ) {
                    let _ = w;
                    let (mut abef, mut cdgh) = to_shani!(state);

                    for block in blocks {
                        let [w0, w1, w2, w3] = block_words(block);
                        compress_block!(abef, cdgh, w0, w1, w2, w3);
                    }

                    from_shani!(abef, cdgh, state);
                }

                /// The PBKDF2 loop with SHA-NI: `U`, `T` and both keyed states stay in SHA-NI order
                /// in registers for the whole call; each compression's message is the last digest's
                /// state registers reordered (no byte swapping), then the constant padding words.
                #[inline(never)]
                pub fn iterate(
                    keys: &HmacKeys<Sha256Compression>,
                    u: &mut [u32; 8],
                    t: &mut [u32; 8],
                    digest_len: usize,
                    count: u32,
                ) {
                    if count == 0 {
                        return;
                    }
                    // The message words past the first four: (e..h & mask) | pad, then padding
                    // only.
                    let template = hmac_template::<Sha256Compression>(digest_len);
                    let words = |w: &[u32]| {
                        _mm_set_epi32(w[3] as i32, w[2] as i32, w[1] as i32, w[0] as i32)
                    };
                    assert!(
                        template.mask[..4] == [u32::MAX; 4],
                        "SHA-256 digests fill the first four words"
                    );
                    let (mask1, pad1) = (words(&template.mask[4..8]), words(&template.pad[4..8]));
                    let (pad2, pad3) = (words(&template.pad[8..12]), words(&template.pad[12..16]));
                    let (inner_abef, inner_cdgh) = to_shani!(&keys.inner);
                    let (outer_abef, outer_cdgh) = to_shani!(&keys.outer);
                    let (mut abef, mut cdgh) = to_shani!(u);
                    let (mut t_abef, mut t_cdgh) = to_shani!(t);
                    for _ in 0..count {
                        let (w0, w1) = message!(abef, cdgh, mask1, pad1);
                        (abef, cdgh) = (inner_abef, inner_cdgh);
                        compress_block!(abef, cdgh, w0, w1, pad2, pad3);
                        let (w0, w1) = message!(abef, cdgh, mask1, pad1);
                        (abef, cdgh) = (outer_abef, outer_cdgh);
                        compress_block!(abef, cdgh, w0, w1, pad2, pad3);
                        t_abef = _mm_xor_si128(t_abef, abef);
                        t_cdgh = _mm_xor_si128(t_cdgh, cdgh);
                    }
                    from_shani!(abef, cdgh, u);
                    from_shani!(t_abef, t_cdgh, t);
                }
            }

            /// One message of one block alone (a Merkle proof's step, a one-shot call of 64 bytes),
            /// its schedule in the plain form: no pairs to set up for, the IV not kept past the
            /// message. The words come from memory, not from the state, so the schedule runs
            /// ahead of the rounds, and the plain form (two instructions fewer a group than the
            /// short one, [`next_words`]) was the faster on both cores measured: on an Intel Xeon
            /// with AMX one node took 1.07-1.08 times hashtree's time against 1.09-1.12 (calls
            /// back to back); on an AMD Zen 4, over 64 different nodes, one-shot `sha256` of 64
            /// bytes 55.2 ns against 57.9, `sha256_pairs` of one node 53.5 against 56.0, a chain
            /// of nodes 82.6 against 83.3 (medians of four processes each, alternated).
            #[inline(never)]
            $(#[target_feature(enable = $feature)])*
            pub(super) fn one_block_alone(iv: &[u32; 8], block: &[u8; 64], out: &mut [u8]) {
                let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
                let (iv_abef, iv_cdgh) = to_shani!(iv);
                let (abef, cdgh) = one_block_message!(plain, iv_abef, iv_cdgh, block);
                store_digest!(abef, cdgh, out, bswap);
            }
        }
    };
}

shani_kernel! {
    /// The `shani` variant: legacy SSE encodings, for every CPU with SHA-NI.
    sse,
    /// The `shani` SHA-256 variant.
    "shani",
    "x86 SHA extensions (sha256rnds2, sha256msg1/2), state in registers across blocks; messages \
     of one block two at a time or in pipelined runs of four or more (whichever measures \
     faster), the padding block on a constant schedule",
    ["sha", "sse2", "ssse3", "sse4.1"]
}

shani_kernel! {
    /// The `shani-vex` variant: the same kernel in VEX encodings, for CPUs with AVX.
    vex,
    /// The `shani-vex` SHA-256 variant.
    "shani-vex",
    "the shani kernel (x86 SHA extensions) in VEX encodings: three-operand AVX forms for all \
     but the SHA instructions, so no register copies; AVX2 listed for AVX",
    ["sha", "sse2", "ssse3", "sse4.1", "avx2"]
}

pub use sse::VARIANT;
