//! SHA-512 for x86-64: the schedule of two blocks at once with AVX2, the rounds in scalar
//! assembly with BMI1 and BMI2 (as the Linux and OpenSSL AVX2 SHA-512 code does).
//!
//! Design (the assembly is in `sha512_pair`, shared with the `avx512` kernel, which differs
//! only in the expansion step):
//! * One `asm!` block runs the loop over all blocks of the call. The eight working variables
//!   and five temporaries stay in registers for the whole call; the roles of `a..h` rotate
//!   over the rounds written out (no moves), `b ^ c` and `a ^ b` trade two registers.
//! * The rounds compute what OpenSSL's AVX2/BMI2 rounds compute (`sha512-x86_64.pl`): `Σ0`,
//!   `Σ1` from three independent `rorx` each, `ch` as `(e & f) + (!e & g)` with `andn`, `maj`
//!   as `b ^ ((a ^ b) & (b ^ c))` reusing the last round's `a ^ b`, `lea` for the sums, and
//!   `Σ0(a)` added into the new `a` only at the start of the next round, off the `e -> d`
//!   chain. 22 ALU instructions a round, 6 of them rotates (which Zen 4 runs on two of its
//!   four ALUs), against a 5-cycle chain: the order of the instructions decides how close the
//!   out-of-order scheduler gets to the 5.5 cycles the ALUs allow. OpenSSL's order ran at 6.4
//!   cycles a round on Zen 4, the order here (the best of a measured search over reorderings
//!   that keep the dependencies) at 6.0.
//! * Per pair of blocks, the 2 × 80 words of `w + K` go into a 64-byte aligned frame on this
//!   kernel's own stack (the caller's workspace is left untouched), interleaved two words
//!   per lane: words `4j..4j+2` are `w[2j..2j+2] + K` of the first block, `4j+2..4j+4` those
//!   of the second. The frame holds message-derived data, so the assembly wipes it with
//!   vector stores once per call, after the last block.
//! * AVX2 (`vpshufb`, `vpsrlq`/`vpsllq`, `vpalignr`, `vpaddq`) expands two schedule words
//!   per step in each 128-bit lane, block `2i` in the low lane and block `2i + 1` in the high
//!   lane, and adds `K` before storing. AVX2 has no 64-bit rotate: σ0 and σ1 are built from
//!   shifts, except `rotr8`, a byte shuffle.
//! * The expansion of a pair runs during the first block's rounds, one step per two rounds,
//!   eight groups ahead of the rounds; the second block's rounds then only read `w + K`. Each
//!   step's instructions are mixed into its two rounds (vector slots after every second
//!   scalar instruction), not appended: in a burst they held up the rounds' dispatch (the
//!   first block ran about 15% slower than the second; now about 1%).
//! * An odd last block is loaded into both lanes (the high lane is ignored) and compressed
//!   alone.

use multisha_contract::{HmacKeys, Sha512Compression, Sha512Workspace};

use crate::sha512_pair::{Frame, compress_pairs, iterate_pbkdf2};

/// Two rounds (`$first`, `$second`: `round!` arguments) with one expansion step in their
/// vector slots: group `$grp + $n` (`w[t..t+2]` of both blocks, `t` = 2 (`$grp` + `$n`)) into
/// `$x0`, from the ring `$x0` = `w[t-16..t-14]`, `$x1` = `w[t-14..t-12]`, `$x4`, `$x5` =
/// `w[t-8..t-4]`, `$x7` = `w[t-2..t]`; then stores it plus `K` into the frame. Temporaries
/// `ymm8..ymm11`; `ymm13` holds the `rotr8` shuffle. Which slot each instruction takes is
/// the fastest of a measured search (rounds with these steps, Zen 4: 6.3 cycles a round spread
/// evenly, 6.06 so; the rounds alone run at 6.0).
#[rustfmt::skip]
macro_rules! update {
    ($x0:ident $x1:ident $x4:ident $x5:ident $x7:ident, $grp:tt + $n:tt,
     [$($first:tt)*], [$($second:tt)*]) => {
        concat!(
            round!($($first)*, [
                concat!("vpalignr ymm8, ", stringify!($x1), ", ", stringify!($x0), ", 8\n"),
                concat!("vpalignr ymm9, ", stringify!($x5), ", ", stringify!($x4), ", 8\n"),
                "vpsrlq ymm10, ymm8, 1\n",
                concat!("vpaddq ", stringify!($x0), ", ", stringify!($x0), ", ymm9\n"),
                "vpsllq ymm11, ymm8, 63\n",
                "vpsrlq ymm9, ymm8, 7\n",
                "vpxor ymm10, ymm10, ymm11\n",
                "vpshufb ymm8, ymm8, ymm13\n",
                "vpxor ymm9, ymm9, ymm10\n",
                "",
                concat!(
                    concat!("vpsrlq ymm10, ", stringify!($x7), ", 19\n"),
                    "vpxor ymm8, ymm8, ymm9\n",
                    concat!("vpsllq ymm11, ", stringify!($x7), ", 45\n"),
                ),
                "",
            ]),
            round!($($second)*, [
                concat!("vpaddq ", stringify!($x0), ", ", stringify!($x0), ", ymm8\n"),
                concat!("vpsrlq ymm9, ", stringify!($x7), ", 61\n"),
                "vpxor ymm10, ymm10, ymm11\n",
                concat!("vpsllq ymm11, ", stringify!($x7), ", 3\n"),
                concat!(
                    concat!("vpsrlq ymm8, ", stringify!($x7), ", 6\n"),
                    "vpxor ymm9, ymm9, ymm11\n",
                ),
                "vpxor ymm10, ymm10, ymm8\n",
                "",
                "vpxor ymm10, ymm10, ymm9\n",
                concat!("vpaddq ", stringify!($x0), ", ", stringify!($x0), ", ymm10\n"),
                concat!("vpaddq ymm8, ", stringify!($x0), ", ymmword ptr [rip + {k2} + 32*(",
                    stringify!($grp), " + ", stringify!($n), ")]\n"),
                "",
                concat!("vmovdqa ymmword ptr [{fp} + 32*(", stringify!($grp), " + ", stringify!($n),
                    ")], ymm8\n"),
            ]),
        )
    };
}

multisha_contract::declare_variant! {
    /// The `avx2` SHA-512 variant.
    pub static VARIANT: Sha512Compression = {
        name: "avx2",
        description: "AVX2 message schedule for two blocks at a time, scalar rounds with BMI1 andn and BMI2 rorx, one assembly block per call",
        schedule: KernelStack,
        requires: ["avx2", "bmi1", "bmi2"],
        cost: { call: 2.0, step: 250.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state`, two blocks' schedules at a time in a stack frame that
    /// is wiped once before returning; the caller's workspace `_w` is not used.
    #[inline(never)]
    pub fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]], _w: &mut Sha512Workspace) {
        if blocks.is_empty() {
            return;
        }
        let mut frame = Frame::new(state, blocks);
        compress_pairs!(frame.as_mut_ptr(), update);
    }

    /// The PBKDF2 loop: every iteration in one assembly block, each block built in registers
    /// from the last digest, the schedule wiped once at the end (`sha512_pair::iterate_pbkdf2`).
    #[inline(never)]
    pub fn iterate(
        keys: &HmacKeys<Sha512Compression>,
        u: &mut [u64; 8],
        t: &mut [u64; 8],
        digest_len: usize,
        count: u32,
    ) {
        iterate_pbkdf2!(update, keys, u, t, digest_len, count);
    }
}
