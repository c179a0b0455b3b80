//! SHA-1 of four messages at once with the x86 SHA extensions: four independent streams of
//! `sha1rnds4` interleaved, in inline assembly.
//!
//! One stream waits six cycles on each `sha1rnds4` (Zen 4), which the core could start every
//! other cycle: two streams (`shani-x2`) still leave a third of it idle, four fill it.
//!
//! Each stream is `sha1_shani`'s: `abcd` in one register, `e` folded into the schedule words
//! by `sha1nexte` from the `abcd` four rounds back. Four streams of state (eight registers)
//! and schedule windows (twenty) do not fit in xmm0-15, which legacy-SSE SHA instructions are
//! limited to, so the block loop is one `asm!` block with a fixed register plan:
//!
//! * lane `l` keeps its current `abcd` in xmm(8+2l) and the previous one (at a block start:
//!   `e`, in the top lane) in xmm(9+2l) for the whole call, its newest schedule vector in
//!   xmm(4+l); xmm0 and xmm1 are temporaries;
//! * the schedule of a block lives in the lane workspace, four words per 16-byte slot in
//!   SHA-NI order, the lanes side by side (`w[4g..4g+4]` of lane `l` in slot `4g + l`,
//!   aligned): group `g` of four rounds reads slot `g` of every lane, then expands the words
//!   sixteen later of every lane from three reloaded slots and the newest vector;
//! * the state at the block start (for the feed-forward) goes to the workspace too, so nothing
//!   of the message or the state reaches the stack.
//!
//! The constant entry runs the rounds of the four lanes on a given schedule (each group of
//! words loaded and reversed once for all lanes, no `sha1msg1/2`) and does not touch the
//! workspace.

use multisha_contract::{Sha1Compression, aligned_words, equal_lanes};

type LaneWorkspace = <Sha1Compression as multisha_contract::Compression>::LaneWorkspace;
const _: () = assert!(
    4 * SLOTS <= LaneWorkspace::SMALL_LEN,
    "the lane workspace is too small for this kernel"
);

/// 16-byte slots of the workspace in use: 80 schedule vectors (20 groups of 4 lanes), then
/// `abcd` and `e` of each lane at the block start.
const SLOTS: usize = 80 + 8;

/// The `pshufb` mask that reverses all 16 bytes (big-endian words, the first in the top lane
/// as SHA-NI wants), 16-byte aligned for the memory operand.
#[repr(C, align(16))]
struct Reverse([u8; 16]);

static REVERSE: Reverse = Reverse([15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

/// The state of lane `$l` (`[a, b, c, d, e]` at `{st} + 20 l`) into `abcd` (SHA-NI order) and
/// `e` (top lane, the other lanes zero) (`to`); back (`from`); or back after adding the state
/// in memory (`add_store`, the feed-forward). Temporaries xmm0-1.
#[rustfmt::skip]
macro_rules! state {
    (@to, $l:literal, $abcd:literal, $e:literal) => {
        concat!(
            "movdqu ", $abcd, ", xmmword ptr [{st} + 20*", $l, "]\n",
            "pshufd ", $abcd, ", ", $abcd, ", 0x1b\n",
            "movd ", $e, ", dword ptr [{st} + 20*", $l, " + 16]\n",
            "pslldq ", $e, ", 12\n",
        )
    };
    (@from, $l:literal, $abcd:literal, $e:literal) => {
        concat!(
            "pshufd xmm0, ", $abcd, ", 0x1b\n",
            "movdqu xmmword ptr [{st} + 20*", $l, "], xmm0\n",
            "pextrd dword ptr [{st} + 20*", $l, " + 16], ", $e, ", 3\n",
        )
    };
    (@add_store, $l:literal, $abcd:literal, $e:literal) => {
        concat!(
            state!(@to, $l, "xmm0", "xmm1"),
            "paddd ", $abcd, ", xmm0\n",
            // `e` is rotl30 of the `a` four rounds back (in `$e`), plus the saved `e`.
            "sha1nexte ", $e, ", xmm1\n",
            state!(@from, $l, $abcd, $e),
        )
    };
    ($op:ident) => {
        concat!(
            state!(@$op, 0, "xmm8", "xmm9"),
            state!(@$op, 1, "xmm10", "xmm11"),
            state!(@$op, 2, "xmm12", "xmm13"),
            state!(@$op, 3, "xmm14", "xmm15"),
        )
    };
}

/// Loads lane `$l`'s block (`{$b}`) into slots `$l`, `4 + $l`, `8 + $l`, `12 + $l`; the last
/// vector also stays in `$last`.
#[rustfmt::skip]
macro_rules! load_lane {
    ($l:literal, $b:literal, $last:literal) => {
        concat!(
            "movdqu xmm0, xmmword ptr [{", $b, "}]\n",
            "pshufb xmm0, xmmword ptr [{rev}]\n",
            "movdqa xmmword ptr [{ws} + 16*", $l, "], xmm0\n",
            "movdqu xmm1, xmmword ptr [{", $b, "} + 16]\n",
            "pshufb xmm1, xmmword ptr [{rev}]\n",
            "movdqa xmmword ptr [{ws} + 16*(4+", $l, ")], xmm1\n",
            "movdqu xmm0, xmmword ptr [{", $b, "} + 32]\n",
            "pshufb xmm0, xmmword ptr [{rev}]\n",
            "movdqa xmmword ptr [{ws} + 16*(8+", $l, ")], xmm0\n",
            "movdqu ", $last, ", xmmword ptr [{", $b, "} + 48]\n",
            "pshufb ", $last, ", xmmword ptr [{rev}]\n",
            "movdqa xmmword ptr [{ws} + 16*(12+", $l, ")], ", $last, "\n",
        )
    };
}

/// Four rounds of the four lanes with function group `$f` and the words `$w0..$w3`: first
/// each lane's previous `abcd` (xmm(9+2l); at a block start `e`) becomes `e + w`
/// (`sha1nexte`; `paddd` for the first group, where it holds `e`), then each current `abcd`
/// (xmm(8+2l)) moves on and its old value becomes the previous one. (All four `e + w` first:
/// interleaved lane by lane, Zen 4 runs a group in 12 cycles instead of 8.)
#[rustfmt::skip]
macro_rules! rounds {
    ($e_op:literal, $f:literal, $w0:expr, $w1:expr, $w2:expr, $w3:expr) => {
        concat!(
            $e_op, " xmm9, ", $w0, "\n",
            $e_op, " xmm11, ", $w1, "\n",
            $e_op, " xmm13, ", $w2, "\n",
            $e_op, " xmm15, ", $w3, "\n",
            rounds!(@lane $f, "xmm8", "xmm9"),
            rounds!(@lane $f, "xmm10", "xmm11"),
            rounds!(@lane $f, "xmm12", "xmm13"),
            rounds!(@lane $f, "xmm14", "xmm15"),
        )
    };
    (@lane $f:literal, $abcd:literal, $prev:literal) => {
        concat!(
            "movdqa xmm0, ", $abcd, "\n",
            "sha1rnds4 ", $abcd, ", ", $prev, ", ", $f, "\n",
            "movdqa ", $prev, ", xmm0\n",
        )
    };
}

/// `w[4g+16..4g+20]` of lane `$l` into slot `4(g+4) + l` and `$last`:
/// `sha1msg2(sha1msg1(w[4g..], w[4g+4..]) ^ w[4g+8..], w[4g+12..])`, the older vectors read
/// from the workspace, the newest (`$last`) from its register.
#[rustfmt::skip]
macro_rules! expand_lane {
    ($g:literal, $l:literal, $last:literal) => {
        concat!(
            "movdqa xmm1, xmmword ptr [{ws} + 16*(4*", $g, "+", $l, ")]\n",
            "sha1msg1 xmm1, xmmword ptr [{ws} + 16*(4*", $g, "+4+", $l, ")]\n",
            "pxor xmm1, xmmword ptr [{ws} + 16*(4*", $g, "+8+", $l, ")]\n",
            "sha1msg2 xmm1, ", $last, "\n",
            "movdqa ", $last, ", xmm1\n",
            "movdqa xmmword ptr [{ws} + 16*(4*", $g, "+16+", $l, ")], xmm1\n",
        )
    };
}

/// The workspace slot of group `$g` of lane `$l` as a memory operand.
macro_rules! slot {
    ($g:literal, $l:literal) => {
        concat!("xmmword ptr [{ws} + 16*(4*", $g, "+", $l, ")]")
    };
}

/// Rounds `4g..4g+4` of the four lanes (function group `$f`; `first` for `g = 0`), then
/// (`expand`) their words sixteen later.
#[rustfmt::skip]
macro_rules! group {
    ($g:literal, $f:literal, $e_op:literal) => {
        rounds!($e_op, $f, slot!($g, 0), slot!($g, 1), slot!($g, 2), slot!($g, 3))
    };
    ($g:literal, $f:literal, first, expand) => {
        concat!(group!($g, $f, "paddd"), group!(@expand $g))
    };
    ($g:literal, $f:literal, expand) => {
        concat!(group!($g, $f, "sha1nexte"), group!(@expand $g))
    };
    ($g:literal, $f:literal) => {
        group!($g, $f, "sha1nexte")
    };
    (@expand $g:literal) => {
        concat!(
            expand_lane!($g, 0, "xmm4"),
            expand_lane!($g, 1, "xmm5"),
            expand_lane!($g, 2, "xmm6"),
            expand_lane!($g, 3, "xmm7"),
        )
    };
}

/// Saves `abcd` and `e` of every lane to slots 80..88 (`save`) or adds them back (`add`).
#[rustfmt::skip]
macro_rules! saved {
    (save) => {
        concat!(
            "movdqa xmmword ptr [{ws} + 16*80], xmm8\n",
            "movdqa xmmword ptr [{ws} + 16*81], xmm9\n",
            "movdqa xmmword ptr [{ws} + 16*82], xmm10\n",
            "movdqa xmmword ptr [{ws} + 16*83], xmm11\n",
            "movdqa xmmword ptr [{ws} + 16*84], xmm12\n",
            "movdqa xmmword ptr [{ws} + 16*85], xmm13\n",
            "movdqa xmmword ptr [{ws} + 16*86], xmm14\n",
            "movdqa xmmword ptr [{ws} + 16*87], xmm15\n",
        )
    };
    // `e` is rotl30 of the `a` four rounds back (the previous `abcd`), plus the saved `e`.
    (add) => {
        concat!(
            "paddd xmm8, xmmword ptr [{ws} + 16*80]\n",
            "sha1nexte xmm9, xmmword ptr [{ws} + 16*81]\n",
            "paddd xmm10, xmmword ptr [{ws} + 16*82]\n",
            "sha1nexte xmm11, xmmword ptr [{ws} + 16*83]\n",
            "paddd xmm12, xmmword ptr [{ws} + 16*84]\n",
            "sha1nexte xmm13, xmmword ptr [{ws} + 16*85]\n",
            "paddd xmm14, xmmword ptr [{ws} + 16*86]\n",
            "sha1nexte xmm15, xmmword ptr [{ws} + 16*87]\n",
        )
    };
}

/// Rounds `4g..4g+4` of the four lanes on the given schedule (`{w}`, the same for every
/// lane): the words loaded and reversed once into xmm1.
#[rustfmt::skip]
macro_rules! constant_group {
    ($g:literal, $f:literal) => {
        constant_group!($g, $f, "sha1nexte")
    };
    ($g:literal, $f:literal, first) => {
        constant_group!($g, $f, "paddd")
    };
    ($g:literal, $f:literal, $e_op:literal) => {
        concat!(
            "movdqu xmm1, xmmword ptr [{w} + 16*", $g, "]\n",
            "pshufd xmm1, xmm1, 0x1b\n",
            rounds!($e_op, $f, "xmm1", "xmm1", "xmm1", "xmm1"),
        )
    };
}

multisha_contract::declare_variant! {
    /// The `shani-x4` SHA-1 many-message variant.
    pub static VARIANT: Sha1Compression = {
        name: "shani-x4",
        description: "four messages at once: four streams of sha1rnds4 interleaved in inline assembly, states in registers, schedules and block-start states in the lane workspace",
        schedule: LaneWorkspace,
        requires: ["sha", "sse2", "ssse3", "sse4.1"],
        lanes: 4,
        cost: { setup: 134.0, call: 13.0, step: 185.0, message: 12.0, ragged: 22.0 },
    };
    /// Compresses `blocks[i]` into `states[i]` for the four lanes, block by block in step,
    /// with the schedules (and the states at each block start) in `ws`.
    #[inline(never)]
    pub fn compress(states: &mut [[u32; 5]], blocks: &[&[[u8; 64]]], ws: &mut LaneWorkspace) {
        let states: &mut [[u32; 5]; 4] = states.try_into().expect("shani-x4 takes four lanes");
        let (lanes, n) = equal_lanes::<_, 4>(blocks);
        if n == 0 {
            // The assembly loop runs at least once: zero blocks leave the states as they are.
            return;
        }
        let slots: &mut [u32; 4 * SLOTS] = aligned_words(ws.small_words(), 16, 4 * SLOTS)
            .try_into()
            .expect("room for the schedules");
        // The block reads `n` (at least 1) blocks of 64 bytes from each lane's slice (unaligned
        // loads, the pointers advancing by 64 per block), reads and writes the four 20-byte
        // states of `states` (exclusively borrowed; unaligned) and the `SLOTS` 16-byte slots
        // of `slots` (exclusively borrowed, 16-byte aligned), reads the aligned `REVERSE`; it
        // uses no stack. Every register it writes is an output or a clobber.
        // SAFETY: those accesses stay in the borrowed buffers; the SHA, SSE2, SSSE3 and SSE4.1
        // instructions are enabled on this function.
        unsafe {
            core::arch::asm!(
                state!(to),
                "2:",
                load_lane!(0, "b0", "xmm4"),
                load_lane!(1, "b1", "xmm5"),
                load_lane!(2, "b2", "xmm6"),
                load_lane!(3, "b3", "xmm7"),
                saved!(save),
                group!(0, 0, first, expand),
                group!(1, 0, expand),
                group!(2, 0, expand),
                group!(3, 0, expand),
                group!(4, 0, expand),
                group!(5, 1, expand),
                group!(6, 1, expand),
                group!(7, 1, expand),
                group!(8, 1, expand),
                group!(9, 1, expand),
                group!(10, 2, expand),
                group!(11, 2, expand),
                group!(12, 2, expand),
                group!(13, 2, expand),
                group!(14, 2, expand),
                group!(15, 3, expand),
                group!(16, 3),
                group!(17, 3),
                group!(18, 3),
                group!(19, 3),
                saved!(add),
                "add {b0}, 64",
                "add {b1}, 64",
                "add {b2}, 64",
                "add {b3}, 64",
                "dec {n}",
                "jnz 2b",
                state!(from),
                st = in(reg) states.as_mut_ptr(),
                ws = in(reg) slots.as_mut_ptr(),
                rev = in(reg) &raw const REVERSE,
                b0 = inout(reg) lanes[0].as_ptr() => _,
                b1 = inout(reg) lanes[1].as_ptr() => _,
                b2 = inout(reg) lanes[2].as_ptr() => _,
                b3 = inout(reg) lanes[3].as_ptr() => _,
                n = inout(reg) n => _,
                out("xmm0") _,
                out("xmm1") _,
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
    /// One compression of the four lanes on the expanded schedule `w[0..80]`; `_ws` is not
    /// used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u32; 5]], w: &[u32], _ws: &mut LaneWorkspace) {
        let states: &mut [[u32; 5]; 4] = states.try_into().expect("shani-x4 takes four lanes");
        let w: &[u32; 80] = w.try_into().expect("an 80-word schedule");
        // The block reads the 80 words of `w` (unaligned), reads and writes the four 20-byte
        // states of `states` (exclusively borrowed; unaligned); it uses no stack and changes no
        // flags. Every register it writes is a clobber.
        // SAFETY: those accesses stay in the borrowed buffers; the SHA, SSE2 and SSE4.1
        // instructions are enabled on this function.
        unsafe {
            core::arch::asm!(
                state!(to),
                constant_group!(0, 0, first),
                constant_group!(1, 0),
                constant_group!(2, 0),
                constant_group!(3, 0),
                constant_group!(4, 0),
                constant_group!(5, 1),
                constant_group!(6, 1),
                constant_group!(7, 1),
                constant_group!(8, 1),
                constant_group!(9, 1),
                constant_group!(10, 2),
                constant_group!(11, 2),
                constant_group!(12, 2),
                constant_group!(13, 2),
                constant_group!(14, 2),
                constant_group!(15, 3),
                constant_group!(16, 3),
                constant_group!(17, 3),
                constant_group!(18, 3),
                constant_group!(19, 3),
                state!(add_store),
                st = in(reg) states.as_mut_ptr(),
                w = in(reg) w.as_ptr(),
                out("xmm0") _,
                out("xmm1") _,
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
