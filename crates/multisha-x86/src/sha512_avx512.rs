//! SHA-512 for x86-64 with AVX-512: the `avx2` kernel (see `sha512_avx2` for the design) with
//! an expansion step from AVX-512VL's 64-bit rotate `vprorq` and three-way `vpternlogq`:
//! σ0 and σ1 take four instructions each instead of eight and nine, so the first block's
//! rounds, which carry the expansion of both blocks, compete less with it for dispatch.

use multisha_contract::{HmacKeys, Sha512Compression, Sha512Workspace};

use crate::sha512_pair::{Frame, compress_pairs, iterate_pbkdf2};

/// One expansion step: group `$grp + $n` (`w[t..t+2]` of both blocks, `t` = 2 (`$grp` +
/// `$n`)) into `$x0`, from the ring `$x0` = `w[t-16..t-14]`, `$x1` = `w[t-14..t-12]`, `$x4`,
/// `$x5` = `w[t-8..t-4]`, `$x7` = `w[t-2..t]`; then stores it plus `K` into the frame.
/// Temporaries `ymm8..ymm11`.
#[rustfmt::skip]
macro_rules! update {
    ($x0:ident $x1:ident $x4:ident $x5:ident $x7:ident, $grp:tt + $n:tt,
     [$($first:tt)*], [$($second:tt)*]) => {
        concat!(
            round!($($first)*, [
                    concat!("vpalignr ymm8, ", stringify!($x1), ", ", stringify!($x0), ", 8\n"),
                    concat!("vpalignr ymm9, ", stringify!($x5), ", ", stringify!($x4), ", 8\n"),
                    "",
                    concat!("vprorq ymm10, ymm8, 1\n"),
                    concat!("vprorq ymm11, ymm8, 8\n"),
                    "",
                    concat!("vpaddq ", stringify!($x0), ", ", stringify!($x0), ", ymm9\n"),
                    "",
                    concat!("vpsrlq ymm8, ymm8, 7\n"),
                    concat!("vprorq ymm9, ", stringify!($x7), ", 19\n"),
                    "",
                    concat!("vpternlogq ymm8, ymm10, ymm11, 0x96\n"),
            ]),
            round!($($second)*, [
                    concat!("vprorq ymm10, ", stringify!($x7), ", 61\n"),
                    "",
                    concat!("vpsrlq ymm11, ", stringify!($x7), ", 6\n"),
                    "",
                    concat!("vpaddq ", stringify!($x0), ", ", stringify!($x0), ", ymm8\n"),
                    concat!("vpternlogq ymm11, ymm9, ymm10, 0x96\n"),
                    "",
                    concat!("vpaddq ", stringify!($x0), ", ", stringify!($x0), ", ymm11\n"),
                    concat!("vpaddq ymm8, ", stringify!($x0), ", ymmword ptr [rip + {k2} + 32*(",
                    stringify!($grp), " + ", stringify!($n), ")]\n"),
                    "",
                    concat!("vmovdqa ymmword ptr [{fp} + 32*(", stringify!($grp), " + ", stringify!($n),
                    ")], ymm8\n"),
                    "",
            ]),
        )
    };
}

multisha_contract::declare_variant! {
    /// The `avx512` SHA-512 variant.
    pub static VARIANT: Sha512Compression = {
        name: "avx512",
        description: "AVX-512VL message schedule (vprorq, vpternlogq) for two blocks at a time, scalar rounds with BMI1 andn and BMI2 rorx, one assembly block per call",
        schedule: KernelStack,
        requires: ["avx2", "avx512f", "avx512vl", "bmi1", "bmi2"],
        cost: { call: 2.0, step: 230.0, message: 12.0 },
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
