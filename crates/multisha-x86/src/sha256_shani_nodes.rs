//! Merkle nodes on SHA-NI: runs of messages of one block each (64-byte nodes), a pair at a
//! time, pipelined so that four streams of `sha256rnds2` run at once where a pair alone has
//! two.
//!
//! A stream waits about four cycles on each `sha256rnds2` and Zen 4 starts one per cycle, so
//! two streams leave the unit half idle. A node's padding block depends only on the state its
//! message block left, so pair `k`'s message-block rounds run beside pair `k - 1`'s
//! padding-block rounds, whose `w + K` is a constant (no schedule to expand): four streams,
//! two of them expanding a schedule. (Four message blocks side by side and then their four
//! padding blocks, tried on a Zen 4, took 29.0 ns a node against this kernel's 26.9 at 16
//! nodes, called directly: the message half is bound by four schedules' `sha256msg1/2` on the
//! shuffle pipes, about 19 cycles a group of four rounds against 8 for the padding half. It
//! was faster at 4 nodes alone, 34.5 against 37.5.) The first step has no padding to run
//! beside its message blocks and the last no message blocks, so runs of fewer than four go as
//! pairs (`sha256_shani_x2::one_block_pair`) instead.
//!
//! Written with intrinsics, the four states, two schedule windows and the feed-forward states
//! need more than the sixteen registers legacy-SSE SHA instructions reach, and LLVM spilled
//! states around every group; so each step is one `asm!` block with a fixed register plan:
//! * xmm8/9 and xmm10/11: the message streams' `abef` / `cdgh`; xmm12/13 and xmm14/15: the
//!   padding streams'; xmm0 the round input; xmm6/7 each message stream's `w + K` of the group;
//!   xmm1-2 temporaries;
//! * the message streams' schedules in a stack buffer (`w[4g..4g+4]` of stream `s` at
//!   `32 g + 16 s`, aligned), each stream's newest vector also in xmm4 / xmm5: group `g` of
//!   four rounds reads its words there and expands the words sixteen later of both streams;
//! * the states after each pair's message blocks (the padding blocks' start and
//!   feed-forward) in the buffer too, so that no state but the final ones (the digests)
//!   reaches a Rust variable, which LLVM spills to the stack; the digests written in Rust.
//!
//! The first step runs the message streams alone and the last the padding streams alone
//! (padding streams run on the IV for nothing cost a quarter of a 4-node run on an Intel Xeon,
//! where two streams already keep the SHA unit busy). There, pairs alone are faster still
//! (53.6 ns a node against 56-58 at 4-8 nodes): `shani` declares both shapes, and the batch
//! calibration installs the one it measures faster. An odd last node is paired with itself,
//! and only its own digest written. The buffer is wiped before returning.

use core::arch::x86_64::__m128i;
use multisha_contract::SHA256_K;

use crate::sha256_shani::{PADDING_WK, store_digest};

/// The constants the assembly reads through memory operands, which legacy SSE wants 16-byte
/// aligned: the round constants (offset 0), the padding block's `w + K` (offset 256), the
/// `pshufb` mask that byte-swaps each word (offset 512).
#[repr(C, align(16))]
struct Constants {
    k: [u32; 64],
    padding_wk: [u32; 64],
    bswap: [u8; 16],
}

static CONSTANTS: Constants = Constants {
    k: SHA256_K,
    padding_wk: PADDING_WK,
    bswap: [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12],
};

/// The message streams' schedules: sixteen groups of four words for each of the two streams,
/// the streams side by side in each group (slots 0-31 of 16 bytes); then the four state
/// vectors after the last pair's message blocks (slots 32-35).
#[repr(C, align(16))]
struct Buffer([u32; 4 * SLOTS]);

/// 16-byte slots of [`Buffer`].
const SLOTS: usize = 36;

/// The IV in SHA-NI order, aligned for the feed-forward's memory operands.
#[repr(C, align(16))]
struct Iv([__m128i; 2]);

/// The padding streams' start, the states after the last pair's message blocks (`start`);
/// their feed-forward from those states (`end`): the final states, the digests.
#[rustfmt::skip]
macro_rules! padding_states {
    (start) => {
        concat!(
            "movdqa xmm12, xmmword ptr [{ws} + 512]\n",
            "movdqa xmm13, xmmword ptr [{ws} + 528]\n",
            "movdqa xmm14, xmmword ptr [{ws} + 544]\n",
            "movdqa xmm15, xmmword ptr [{ws} + 560]\n",
        )
    };
    (end) => {
        concat!(
            "paddd xmm12, xmmword ptr [{ws} + 512]\n",
            "paddd xmm13, xmmword ptr [{ws} + 528]\n",
            "paddd xmm14, xmmword ptr [{ws} + 544]\n",
            "paddd xmm15, xmmword ptr [{ws} + 560]\n",
        )
    };
}

/// Stream `$s`'s first sixteen words from its block `{b$s}`, byte-swapped, into the buffer;
/// the last four also into its newest-vector register `$n`.
#[rustfmt::skip]
macro_rules! load_block {
    ($s:literal, $n:literal) => {
        concat!(
            load_block!(@words $s, 0),
            load_block!(@words $s, 1),
            load_block!(@words $s, 2),
            load_block!(@words $s, 3),
            "movdqa ", $n, ", xmm1\n",
        )
    };
    (@words $s:literal, $i:literal) => {
        concat!(
            "movdqu xmm1, xmmword ptr [{b", $s, "} + 16*", $i, "]\n",
            "pshufb xmm1, xmmword ptr [{c} + 512]\n",
            "movdqa xmmword ptr [{ws} + 32*", $i, " + 16*", $s, "], xmm1\n",
        )
    };
}

/// Group `$g` of four rounds of the message streams and, with `$pad` = `pad`, the padding
/// streams (`nopad`: the first step, which has no padding blocks to run): the first two rounds
/// of each, the schedule words sixteen later (`expand`, groups 0-11), the second two rounds of
/// each.
#[rustfmt::skip]
macro_rules! group {
    ($g:literal, $pad:ident) => {
        concat!(group!(@first $g, $pad), group!(@second $g, $pad))
    };
    ($g:literal, $pad:ident, expand) => {
        concat!(
            group!(@first $g, $pad),
            expand_words!(2, $g, 0, "xmm4"),
            expand_words!(2, $g, 1, "xmm5"),
            group!(@second $g, $pad),
        )
    };
    (@first $g:literal, $pad:ident) => {
        concat!(
            "movdqa xmm6, xmmword ptr [{ws} + 32*", $g, "]\n",
            "paddd xmm6, xmmword ptr [{c} + 16*", $g, "]\n",
            "movdqa xmm0, xmm6\n",
            "sha256rnds2 xmm9, xmm8\n",
            "movdqa xmm7, xmmword ptr [{ws} + 32*", $g, " + 16]\n",
            "paddd xmm7, xmmword ptr [{c} + 16*", $g, "]\n",
            "movdqa xmm0, xmm7\n",
            "sha256rnds2 xmm11, xmm10\n",
            group!(@padding_first $g, $pad),
        )
    };
    (@second $g:literal, $pad:ident) => {
        concat!(
            "pshufd xmm0, xmm6, 0x0e\n",
            "sha256rnds2 xmm8, xmm9\n",
            "pshufd xmm0, xmm7, 0x0e\n",
            "sha256rnds2 xmm10, xmm11\n",
            group!(@padding_second $g, $pad),
        )
    };
    (@padding_first $g:literal, pad) => {
        concat!(
            "movdqa xmm0, xmmword ptr [{c} + 256 + 16*", $g, "]\n",
            "sha256rnds2 xmm13, xmm12\n",
            "sha256rnds2 xmm15, xmm14\n",
        )
    };
    (@padding_second $g:literal, pad) => {
        concat!(
            "movq xmm0, qword ptr [{c} + 256 + 16*", $g, " + 8]\n",
            "sha256rnds2 xmm12, xmm13\n",
            "sha256rnds2 xmm14, xmm15\n",
        )
    };
    (@padding_first $g:literal, nopad) => { "" };
    (@padding_second $g:literal, nopad) => { "" };
}

/// The padding streams' start and feed-forward ([`padding_states`]) where a step has them.
macro_rules! padding_states_of {
    (pad, $which:ident) => {
        padding_states!($which)
    };
    (nopad, $which:ident) => {
        ""
    };
}

/// Group `$g` of four rounds of the padding streams alone: [`group!`]'s padding halves.
macro_rules! padding_group {
    ($g:literal) => {
        concat!(
            group!(@padding_first $g, pad),
            group!(@padding_second $g, pad)
        )
    };
}

/// Zeros (xmm0) into the buffer's 16-byte slots `$i`.
macro_rules! wipe {
    ($($i:literal),*) => {
        concat!($("movdqa xmmword ptr [{ws} + 16*", $i, "], xmm0\n",)*)
    };
}

/// The digests of `blocks` (two or more messages of one block each) from the state `iv`
/// (SHA-NI order) into `digests` (28 or 32 bytes each).
///
/// # Panics
/// If there are fewer than two blocks, or `digests` differs in length.
#[inline(never)]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) fn hash_nodes(iv: (__m128i, __m128i), blocks: &[&[u8; 64]], digests: &mut [&mut [u8]]) {
    assert!(
        blocks.len() >= 2 && blocks.len() == digests.len(),
        "two or more blocks, a digest for each"
    );
    let iv = Iv([iv.0, iv.1]);
    // Written before it is read: each step's block loads fill groups 0-3 of the schedules,
    // the expansion the rest, each step's end the states (which the next step's padding
    // streams start from).
    let mut buffer = core::mem::MaybeUninit::<Buffer>::uninit();
    let ws: *mut u32 = buffer.as_mut_ptr().cast();
    // Straight from the registers: through an array (a closure's argument) the final states,
    // SHA-224's eighth words too, went to the stack.
    macro_rules! write_pair {
        ($k:expr, $p0a:ident, $p0c:ident, $p1a:ident, $p1c:ident) => {
            store_digest($p0a, $p0c, digests[2 * $k]);
            if let Some(out) = digests.get_mut(2 * $k + 1) {
                store_digest($p1a, $p1c, out);
            }
        };
    }
    // Pair `$k`'s message blocks, with (`pad`) or without (`nopad`) the last pair's padding
    // blocks beside them: the padding streams' final states (the last pair's digests; with
    // `nopad`, whatever the registers held).
    macro_rules! step {
        ($pad:ident, $k:expr) => {{
            let block0 = blocks[2 * $k];
            let block1 = blocks.get(2 * $k + 1).copied().unwrap_or(block0);
            let (p0a, p0c, p1a, p1c): (__m128i, __m128i, __m128i, __m128i);
            // Offsets: the buffer's 576 bytes, the constants' 528, the IV's 32; the buffer is
            // a local, so the asm needs no stack.
            // SAFETY: SHA-NI and SSSE3 (this function's features); 64-byte blocks (unaligned
            // loads); aligned constants, buffer and IV for the memory operands, offsets inside.
            unsafe {
                core::arch::asm!(
                    "movdqa xmm8, xmmword ptr [{iv}]",
                    "movdqa xmm9, xmmword ptr [{iv} + 16]",
                    "movdqa xmm10, xmm8",
                    "movdqa xmm11, xmm9",
                    padding_states_of!($pad, start),
                    load_block!(0, "xmm4"),
                    load_block!(1, "xmm5"),
                    group!(0, $pad, expand),
                    group!(1, $pad, expand),
                    group!(2, $pad, expand),
                    group!(3, $pad, expand),
                    group!(4, $pad, expand),
                    group!(5, $pad, expand),
                    group!(6, $pad, expand),
                    group!(7, $pad, expand),
                    group!(8, $pad, expand),
                    group!(9, $pad, expand),
                    group!(10, $pad, expand),
                    group!(11, $pad, expand),
                    group!(12, $pad),
                    group!(13, $pad),
                    group!(14, $pad),
                    group!(15, $pad),
                    padding_states_of!($pad, end),
                    // The message blocks' feed-forward: the next step's padding start.
                    "paddd xmm8, xmmword ptr [{iv}]",
                    "paddd xmm9, xmmword ptr [{iv} + 16]",
                    "paddd xmm10, xmmword ptr [{iv}]",
                    "paddd xmm11, xmmword ptr [{iv} + 16]",
                    "movdqa xmmword ptr [{ws} + 512], xmm8",
                    "movdqa xmmword ptr [{ws} + 528], xmm9",
                    "movdqa xmmword ptr [{ws} + 544], xmm10",
                    "movdqa xmmword ptr [{ws} + 560], xmm11",
                    ws = in(reg) ws,
                    c = in(reg) &raw const CONSTANTS,
                    iv = in(reg) &raw const iv,
                    b0 = in(reg) block0.as_ptr(),
                    b1 = in(reg) block1.as_ptr(),
                    out("xmm12") p0a,
                    out("xmm13") p0c,
                    out("xmm14") p1a,
                    out("xmm15") p1c,
                    out("xmm0") _,
                    out("xmm1") _,
                    out("xmm2") _,
                    out("xmm4") _,
                    out("xmm5") _,
                    out("xmm6") _,
                    out("xmm7") _,
                    out("xmm8") _,
                    out("xmm9") _,
                    out("xmm10") _,
                    out("xmm11") _,
                    options(nostack, preserves_flags),
                );
            }
            (p0a, p0c, p1a, p1c)
        }};
    }
    let pairs = blocks.len().div_ceil(2);
    // The first step alone: no padding streams (on a core whose SHA unit is busy with two
    // streams, four rounds on the IV for nothing cost a quarter of a 4-node run).
    let _ = step!(nopad, 0);
    for k in 1..pairs {
        let (p0a, p0c, p1a, p1c) = step!(pad, k);
        write_pair!(k - 1, p0a, p0c, p1a, p1c);
    }
    let (p0a, p0c, p1a, p1c): (__m128i, __m128i, __m128i, __m128i);
    // SAFETY: SHA-NI (this function's features); the constants and the buffer are aligned and
    // the offsets stay inside them (the padding words end at 512, the buffer at 576). No stack.
    unsafe {
        core::arch::asm!(
            padding_states!(start),
            padding_group!(0),
            padding_group!(1),
            padding_group!(2),
            padding_group!(3),
            padding_group!(4),
            padding_group!(5),
            padding_group!(6),
            padding_group!(7),
            padding_group!(8),
            padding_group!(9),
            padding_group!(10),
            padding_group!(11),
            padding_group!(12),
            padding_group!(13),
            padding_group!(14),
            padding_group!(15),
            padding_states!(end),
            // The last pair's message words and states (every earlier pair's were
            // overwritten): wiped here, where no optimiser can drop the stores.
            "pxor xmm0, xmm0",
            wipe!(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35
            ),
            c = in(reg) &raw const CONSTANTS,
            ws = in(reg) ws,
            out("xmm12") p0a,
            out("xmm13") p0c,
            out("xmm14") p1a,
            out("xmm15") p1c,
            out("xmm0") _,
            options(nostack, preserves_flags),
        );
    }
    write_pair!(pairs - 1, p0a, p0c, p1a, p1c);
}
