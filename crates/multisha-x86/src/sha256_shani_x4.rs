//! SHA-256 of four messages at once with the x86 SHA extensions: four independent streams of
//! `sha256rnds2` interleaved, in inline assembly.
//!
//! One stream waits about four cycles on each `sha256rnds2`; Zen 4 starts one per cycle, so
//! four streams can keep it busy where `shani-x2` leaves it half idle.
//!
//! Registers are the constraint: legacy-SSE SHA instructions reach only xmm0-15, the four
//! states take eight and `sha256rnds2` reads its input from xmm0, so the four sixteen-word
//! schedule windows (sixteen more registers) cannot stay in registers as in `shani-x2`.
//! Written with intrinsics and left to the compiler, the windows (and states) are spilled to
//! the stack and the kernel runs slower than `shani-x2` (3.0 vs 3.2 GB/s at 4 KiB on Zen 4);
//! intrinsics with the schedule in the workspace still got states spilled. So the block loop is
//! one `asm!` block with a fixed register plan:
//!
//! * lane `l` keeps `abef` / `cdgh` in xmm(8+2l) / xmm(9+2l) for the whole call, and its newest
//!   schedule vector in xmm(4+l); xmm0 is the round input, xmm1-3 are temporaries;
//! * the schedule of a block lives in the lane workspace, four words per 16-byte slot, the
//!   lanes side by side (`w[4g..4g+4]` of lane `l` in slot `4g + l`, aligned): group `g` of
//!   four rounds reads slot `g` of every lane, then expands the words sixteen later of every
//!   lane from three reloaded slots and the newest vector;
//! * the state at the block start (for the feed-forward) goes to the workspace too, so nothing
//!   of the message or the state reaches the stack.
//!
//! On Zen 4 the schedule expansion, not the rounds, sets the pace (`sha256msg2` issues every
//! other cycle and shares the shuffle pipes with `sha256msg1` and `palignr`): about 15 cycles
//! per group of four lanes with expansion, 8 without.
//!
//! The constant entry runs the rounds of the four lanes on a given schedule (`w + k` computed
//! once per group for all lanes, no `sha256msg1/2`) and does not touch the workspace.

use multisha_contract::{SHA256_K, Sha256Compression, aligned_words, equal_lanes};

type LaneWorkspace = <Sha256Compression as multisha_contract::Compression>::LaneWorkspace;
const _: () = assert!(
    4 * SLOTS <= LaneWorkspace::SMALL_LEN,
    "the lane workspace is too small for this kernel"
);

/// 16-byte slots of the workspace in use: 64 schedule vectors (16 groups of 4 lanes), then
/// the 8 state vectors of the block start.
const SLOTS: usize = 64 + 8;

/// The constants the assembly reads through memory operands, which legacy SSE wants 16-byte
/// aligned: the round constants (offset 0), then the `pshufb` mask that byte-swaps each word
/// (offset 256).
#[repr(C, align(16))]
struct Constants {
    k: [u32; 64],
    bswap: [u8; 16],
}

static CONSTANTS: Constants = Constants {
    k: SHA256_K,
    bswap: [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12],
};

/// The state of lane `$l` (`[a..d]`, `[e..h]` at `{st} + 32 l`) to the SHA-NI pair
/// `abef`, `cdgh` (`load`); back (`store`); or back after adding the state in memory
/// (`add_store`, the feed-forward). Temporaries xmm0-3.
#[rustfmt::skip]
macro_rules! state {
    (@to, $l:literal, $abef:literal, $cdgh:literal) => {
        concat!(
            "movdqu xmm2, xmmword ptr [{st} + 32*", $l, "]\n",
            "movdqu xmm3, xmmword ptr [{st} + 32*", $l, " + 16]\n",
            "pshufd xmm2, xmm2, 0xb1\n",
            "pshufd xmm3, xmm3, 0x1b\n",
            "movdqa ", $abef, ", xmm2\n",
            "palignr ", $abef, ", xmm3, 8\n",
            "pblendw xmm3, xmm2, 0xf0\n",
            "movdqa ", $cdgh, ", xmm3\n",
        )
    };
    (@from, $l:literal, $abef:literal, $cdgh:literal) => {
        concat!(
            "pshufd xmm2, ", $abef, ", 0x1b\n",
            "pshufd xmm3, ", $cdgh, ", 0xb1\n",
            "movdqa xmm0, xmm2\n",
            "pblendw xmm0, xmm3, 0xf0\n",
            "palignr xmm3, xmm2, 8\n",
            "movdqu xmmword ptr [{st} + 32*", $l, "], xmm0\n",
            "movdqu xmmword ptr [{st} + 32*", $l, " + 16], xmm3\n",
        )
    };
    (load) => {
        concat!(
            state!(@to, 0, "xmm8", "xmm9"),
            state!(@to, 1, "xmm10", "xmm11"),
            state!(@to, 2, "xmm12", "xmm13"),
            state!(@to, 3, "xmm14", "xmm15"),
        )
    };
    (store) => {
        concat!(
            state!(@from, 0, "xmm8", "xmm9"),
            state!(@from, 1, "xmm10", "xmm11"),
            state!(@from, 2, "xmm12", "xmm13"),
            state!(@from, 3, "xmm14", "xmm15"),
        )
    };
    (@add_store, $l:literal, $abef:literal, $cdgh:literal) => {
        concat!(
            state!(@to, $l, "xmm0", "xmm1"),
            "paddd ", $abef, ", xmm0\n",
            "paddd ", $cdgh, ", xmm1\n",
            state!(@from, $l, $abef, $cdgh),
        )
    };
    (add_store) => {
        concat!(
            state!(@add_store, 0, "xmm8", "xmm9"),
            state!(@add_store, 1, "xmm10", "xmm11"),
            state!(@add_store, 2, "xmm12", "xmm13"),
            state!(@add_store, 3, "xmm14", "xmm15"),
        )
    };
}

/// Loads lane `$l`'s block (`{$b}`) as big-endian words into slots `$l`, `4 + $l`, `8 + $l`,
/// `12 + $l`; the last vector also stays in `$last`.
#[rustfmt::skip]
macro_rules! load_lane {
    ($l:literal, $b:literal, $last:literal) => {
        concat!(
            "movdqu xmm1, xmmword ptr [{", $b, "}]\n",
            "pshufb xmm1, xmmword ptr [{c} + 256]\n",
            "movdqa xmmword ptr [{ws} + 16*", $l, "], xmm1\n",
            "movdqu xmm2, xmmword ptr [{", $b, "} + 16]\n",
            "pshufb xmm2, xmmword ptr [{c} + 256]\n",
            "movdqa xmmword ptr [{ws} + 16*(4+", $l, ")], xmm2\n",
            "movdqu xmm3, xmmword ptr [{", $b, "} + 32]\n",
            "pshufb xmm3, xmmword ptr [{c} + 256]\n",
            "movdqa xmmword ptr [{ws} + 16*(8+", $l, ")], xmm3\n",
            "movdqu ", $last, ", xmmword ptr [{", $b, "} + 48]\n",
            "pshufb ", $last, ", xmmword ptr [{c} + 256]\n",
            "movdqa xmmword ptr [{ws} + 16*(12+", $l, ")], ", $last, "\n",
        )
    };
}

/// Rounds `4g..4g+4` of lane `$l`. Next to the schedule expansion, `w + k` is built in xmm0
/// itself (fewer instructions); alone (`copy`), it is built in xmm1 (its upper half in xmm2)
/// and copied to xmm0 right before each `sha256rnds2`, which Zen 4 runs faster (8 instead of
/// 10 cycles per group of four lanes).
#[rustfmt::skip]
macro_rules! rounds_lane {
    ($g:literal, $l:literal, $abef:literal, $cdgh:literal) => {
        concat!(
            "movdqa xmm0, xmmword ptr [{ws} + 16*(4*", $g, "+", $l, ")]\n",
            "paddd xmm0, xmmword ptr [{c} + 16*", $g, "]\n",
            "sha256rnds2 ", $cdgh, ", ", $abef, "\n",
            "pshufd xmm0, xmm0, 0x0e\n",
            "sha256rnds2 ", $abef, ", ", $cdgh, "\n",
        )
    };
    ($g:literal, $l:literal, $abef:literal, $cdgh:literal, copy) => {
        concat!(
            "movdqa xmm1, xmmword ptr [{ws} + 16*(4*", $g, "+", $l, ")]\n",
            "paddd xmm1, xmmword ptr [{c} + 16*", $g, "]\n",
            "pshufd xmm2, xmm1, 0x0e\n",
            "movdqa xmm0, xmm1\n",
            "sha256rnds2 ", $cdgh, ", ", $abef, "\n",
            "movdqa xmm0, xmm2\n",
            "sha256rnds2 ", $abef, ", ", $cdgh, "\n",
        )
    };
}

/// Rounds `4g..4g+4` of the four lanes, then (`expand`) their words sixteen later.
#[rustfmt::skip]
macro_rules! group {
    ($g:literal) => {
        concat!(
            rounds_lane!($g, 0, "xmm8", "xmm9", copy),
            rounds_lane!($g, 1, "xmm10", "xmm11", copy),
            rounds_lane!($g, 2, "xmm12", "xmm13", copy),
            rounds_lane!($g, 3, "xmm14", "xmm15", copy),
        )
    };
    ($g:literal, expand) => {
        concat!(
            rounds_lane!($g, 0, "xmm8", "xmm9"),
            rounds_lane!($g, 1, "xmm10", "xmm11"),
            rounds_lane!($g, 2, "xmm12", "xmm13"),
            rounds_lane!($g, 3, "xmm14", "xmm15"),
            expand_words!(4, $g, 0, "xmm4"),
            expand_words!(4, $g, 1, "xmm5"),
            expand_words!(4, $g, 2, "xmm6"),
            expand_words!(4, $g, 3, "xmm7"),
        )
    };
}

/// Saves the states to slots 64..72 (`save`) or adds them back (`add`).
#[rustfmt::skip]
macro_rules! saved {
    (save) => {
        concat!(
            "movdqa xmmword ptr [{ws} + 16*64], xmm8\n",
            "movdqa xmmword ptr [{ws} + 16*65], xmm9\n",
            "movdqa xmmword ptr [{ws} + 16*66], xmm10\n",
            "movdqa xmmword ptr [{ws} + 16*67], xmm11\n",
            "movdqa xmmword ptr [{ws} + 16*68], xmm12\n",
            "movdqa xmmword ptr [{ws} + 16*69], xmm13\n",
            "movdqa xmmword ptr [{ws} + 16*70], xmm14\n",
            "movdqa xmmword ptr [{ws} + 16*71], xmm15\n",
        )
    };
    (add) => {
        concat!(
            "paddd xmm8, xmmword ptr [{ws} + 16*64]\n",
            "paddd xmm9, xmmword ptr [{ws} + 16*65]\n",
            "paddd xmm10, xmmword ptr [{ws} + 16*66]\n",
            "paddd xmm11, xmmword ptr [{ws} + 16*67]\n",
            "paddd xmm12, xmmword ptr [{ws} + 16*68]\n",
            "paddd xmm13, xmmword ptr [{ws} + 16*69]\n",
            "paddd xmm14, xmmword ptr [{ws} + 16*70]\n",
            "paddd xmm15, xmmword ptr [{ws} + 16*71]\n",
        )
    };
}

/// Rounds `4g..4g+4` of the four lanes on the given schedule (`{w}`, the same for every lane):
/// `w + k` computed once, each half copied to xmm0 before its four `sha256rnds2`.
#[rustfmt::skip]
macro_rules! constant_group {
    ($g:literal) => {
        concat!(
            "movdqu xmm1, xmmword ptr [{w} + 16*", $g, "]\n",
            "paddd xmm1, xmmword ptr [{c} + 16*", $g, "]\n",
            "pshufd xmm2, xmm1, 0x0e\n",
            "movdqa xmm0, xmm1\n",
            "sha256rnds2 xmm9, xmm8\n",
            "sha256rnds2 xmm11, xmm10\n",
            "sha256rnds2 xmm13, xmm12\n",
            "sha256rnds2 xmm15, xmm14\n",
            "movdqa xmm0, xmm2\n",
            "sha256rnds2 xmm8, xmm9\n",
            "sha256rnds2 xmm10, xmm11\n",
            "sha256rnds2 xmm12, xmm13\n",
            "sha256rnds2 xmm14, xmm15\n",
        )
    };
}

multisha_contract::declare_variant! {
    /// The `shani-x4` SHA-256 many-message variant.
    pub static VARIANT: Sha256Compression = {
        name: "shani-x4",
        description: "four messages at once: four streams of sha256rnds2 interleaved in inline assembly, states in registers, schedules and block-start states in the lane workspace",
        schedule: LaneWorkspace,
        requires: ["sha", "sse2", "ssse3", "sse4.1"],
        lanes: 4,
        cost: { setup: 137.0, call: 26.0, step: 148.0, message: 12.0, ragged: 15.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the four lanes, block by block in step,
    /// with the schedules (and the states at each block start) in `ws`.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 8]], blocks: &[&[[u8; 64]]], ws: &mut LaneWorkspace) {
        let states: &mut [[u32; 8]; 4] = states.try_into().expect("shani-x4 takes four lanes");
        let (lanes, n) = equal_lanes::<_, 4>(blocks);
        if n == 0 {
            // The assembly loop runs at least once: zero blocks leave the states as they are.
            return;
        }
        let slots: &mut [u32; 4 * SLOTS] = aligned_words(ws.small_words(), 16, 4 * SLOTS)
            .try_into()
            .expect("room for the schedules");
        // The block reads `n` (at least 1) blocks of 64 bytes from each lane's slice (unaligned
        // loads, the pointers advancing by 64 per block), reads and writes the four 32-byte
        // states of `states` (exclusively borrowed; unaligned) and the `SLOTS` 16-byte slots
        // of `slots` (exclusively borrowed, 16-byte aligned), reads the aligned `CONSTANTS`; it
        // uses no stack. Every register it writes is an output or a clobber.
        // SAFETY: those accesses stay in the borrowed buffers; the SHA, SSE2, SSSE3 and SSE4.1
        // instructions are enabled on this function.
        unsafe {
            core::arch::asm!(
                state!(load),
                "2:",
                load_lane!(0, "b0", "xmm4"),
                load_lane!(1, "b1", "xmm5"),
                load_lane!(2, "b2", "xmm6"),
                load_lane!(3, "b3", "xmm7"),
                saved!(save),
                group!(0, expand),
                group!(1, expand),
                group!(2, expand),
                group!(3, expand),
                group!(4, expand),
                group!(5, expand),
                group!(6, expand),
                group!(7, expand),
                group!(8, expand),
                group!(9, expand),
                group!(10, expand),
                group!(11, expand),
                group!(12),
                group!(13),
                group!(14),
                group!(15),
                saved!(add),
                "add {b0}, 64",
                "add {b1}, 64",
                "add {b2}, 64",
                "add {b3}, 64",
                "dec {n}",
                "jnz 2b",
                state!(store),
                st = in(reg) states.as_mut_ptr(),
                ws = in(reg) slots.as_mut_ptr(),
                c = in(reg) &raw const CONSTANTS,
                b0 = inout(reg) lanes[0].as_ptr() => _,
                b1 = inout(reg) lanes[1].as_ptr() => _,
                b2 = inout(reg) lanes[2].as_ptr() => _,
                b3 = inout(reg) lanes[3].as_ptr() => _,
                n = inout(reg) n => _,
                out("xmm0") _,
                out("xmm1") _,
                out("xmm2") _,
                out("xmm3") _,
                out("xmm4") _,
                out("xmm5") _,
                out("xmm6") _,
                out("xmm7") _,
                out("xmm8") _,
                out("xmm9") _,
                out("xmm10") _,
                out("xmm11") _,
                out("xmm12") _,
                out("xmm13") _,
                out("xmm14") _,
                out("xmm15") _,
                options(nostack),
            );
        }
    }
    /// One compression of the four lanes on the expanded schedule `w[0..64]`; `_ws` is not
    /// used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 8]], w: &[u32], _ws: &mut LaneWorkspace) {
        let states: &mut [[u32; 8]; 4] = states.try_into().expect("shani-x4 takes four lanes");
        let w: &[u32; 64] = w.try_into().expect("a 64-word schedule");
        // The block reads the 64 words of `w` (unaligned), reads and writes the four 32-byte
        // states of `states` (exclusively borrowed; unaligned), reads the aligned `CONSTANTS`;
        // it uses no stack and changes no flags. Every register it writes is a clobber.
        // SAFETY: those accesses stay in the borrowed buffers; the SHA, SSE2, SSSE3 and SSE4.1
        // instructions are enabled on this function.
        unsafe {
            core::arch::asm!(
                state!(load),
                constant_group!(0),
                constant_group!(1),
                constant_group!(2),
                constant_group!(3),
                constant_group!(4),
                constant_group!(5),
                constant_group!(6),
                constant_group!(7),
                constant_group!(8),
                constant_group!(9),
                constant_group!(10),
                constant_group!(11),
                constant_group!(12),
                constant_group!(13),
                constant_group!(14),
                constant_group!(15),
                state!(add_store),
                st = in(reg) states.as_mut_ptr(),
                w = in(reg) w.as_ptr(),
                c = in(reg) &raw const CONSTANTS,
                out("xmm0") _,
                out("xmm1") _,
                out("xmm2") _,
                out("xmm3") _,
                out("xmm8") _,
                out("xmm9") _,
                out("xmm10") _,
                out("xmm11") _,
                out("xmm12") _,
                out("xmm13") _,
                out("xmm14") _,
                out("xmm15") _,
                options(nostack, preserves_flags),
            );
        }
    }
}
