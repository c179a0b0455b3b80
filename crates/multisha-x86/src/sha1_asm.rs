//! SHA-1 in x86-64 assembly: all 80 rounds written out, register-allocated by hand.
//!
//! Needs only baseline x86-64 (no CPU feature): `bswap`, `rol`/`ror`, `lea` and plain ALU
//! instructions. It is `unsafe fn` only to share the kernel signature.
//!
//! Design:
//! * One `asm!` block holds the loop over all blocks of the call. `a..e` stay in registers
//!   for the whole call (loaded once); each round updates only `e` and `b` and the next round
//!   renames the registers (`e` becomes `a`, ...), so there are no moves between rounds and
//!   after 80 rounds the roles are back where they started.
//! * `K` is an immediate (`lea e, [e + w + K]` adds word and constant in one instruction).
//! * The majority is two adds into `e`, `(c & d) + (b & (c ^ d))`: the two terms never share
//!   a set bit, so no `or` and no third temporary are needed.
//! * `e += rotl5(a)` comes last in each round: it is the only term on the round-to-round
//!   dependency chain, so everything else overlaps with the previous round.
//! * The schedule is a 16-word circular window in the caller's workspace, `w.words()[0..16]`:
//!   rounds 0..16 store the byte-swapped block words there, later rounds overwrite the
//!   oldest word in place. It holds message-derived data, so it lives in the workspace, which
//!   the caller wipes once per update call after this kernel returns; no copy of the message
//!   stays on this function's stack. The feed-forward reads and writes `state` in memory.
//! * The compiler picks the eleven registers (`in`/`out` operands), so callee-saved registers
//!   are saved by the compiler's own prologue with correct unwind info; the block itself
//!   neither pushes nor touches the stack.

use multisha_contract::{SHA1_K, Sha1Compression, Sha1Workspace};

/// The 32-bit name of the register holding role `$r` (an `asm!` operand name), e.g. `{a:e}`.
macro_rules! r32 {
    ($r:ident) => {
        concat!("{", stringify!($r), ":e}")
    };
}

/// Schedule word of round `$t` into `{x}`: from the block (`ld`, rounds 0..16) or expanded in
/// place, `w[t] = rotl1(w[t-3] ^ w[t-8] ^ w[t-14] ^ w[t-16])` (`ex`). The assembler folds the
/// byte offsets.
#[rustfmt::skip]
macro_rules! word {
    (ld, $t:literal) => {
        concat!(
            "mov {x:e}, dword ptr [{blk} + 4*", $t, "]\n",
            "bswap {x:e}\n",
            "mov dword ptr [{w} + 4*", $t, "], {x:e}\n",
        )
    };
    (ex, $t:literal) => {
        concat!(
            "mov {x:e}, dword ptr [{w} + 4*((", $t, "+13)&15)]\n",
            "xor {x:e}, dword ptr [{w} + 4*((", $t, "+8)&15)]\n",
            "xor {x:e}, dword ptr [{w} + 4*((", $t, "+2)&15)]\n",
            "xor {x:e}, dword ptr [{w} + 4*(", $t, "&15)]\n",
            "rol {x:e}, 1\n",
            "mov dword ptr [{w} + 4*(", $t, "&15)], {x:e}\n",
        )
    };
}

/// `e += f(b, c, d)` with `{y}` as the temporary.
#[rustfmt::skip]
macro_rules! func {
    // d ^ (b & (c ^ d))
    (ch, $b:ident, $c:ident, $d:ident, $e:ident) => {
        concat!(
            "mov {y:e}, ", r32!($c), "\n",
            "xor {y:e}, ", r32!($d), "\n",
            "and {y:e}, ", r32!($b), "\n",
            "xor {y:e}, ", r32!($d), "\n",
            "add ", r32!($e), ", {y:e}\n",
        )
    };
    (parity, $b:ident, $c:ident, $d:ident, $e:ident) => {
        concat!(
            "mov {y:e}, ", r32!($b), "\n",
            "xor {y:e}, ", r32!($c), "\n",
            "xor {y:e}, ", r32!($d), "\n",
            "add ", r32!($e), ", {y:e}\n",
        )
    };
    // (c & d) + (b & (c ^ d)), added one term at a time.
    (maj, $b:ident, $c:ident, $d:ident, $e:ident) => {
        concat!(
            "mov {y:e}, ", r32!($c), "\n",
            "and {y:e}, ", r32!($d), "\n",
            "add ", r32!($e), ", {y:e}\n",
            "mov {y:e}, ", r32!($c), "\n",
            "xor {y:e}, ", r32!($d), "\n",
            "and {y:e}, ", r32!($b), "\n",
            "add ", r32!($e), ", {y:e}\n",
        )
    };
}

/// One round: `e += w + K + f(b, c, d) + rotl5(a)`, `b = rotl30(b)`. The `lea` works on the
/// 64-bit names and keeps the low 32 bits, so stale upper halves do not matter.
#[rustfmt::skip]
macro_rules! round {
    ($f:ident, $k:ident, $src:ident $t:literal,
     $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        concat!(
            word!($src, $t),
            "lea ", r32!($e), ", [{", stringify!($e), ":r} + {x:r} + {", stringify!($k), "}]\n",
            func!($f, $b, $c, $d, $e),
            "ror ", r32!($b), ", 2\n",
            "mov {x:e}, ", r32!($a), "\n",
            "rol {x:e}, 5\n",
            "add ", r32!($e), ", {x:e}\n",
        )
    };
}

/// Five rounds, the roles rotating by one each round (back in place after the fifth).
#[rustfmt::skip]
macro_rules! five {
    ($f:ident, $k:ident; $s0:ident $t0:literal, $s1:ident $t1:literal, $s2:ident $t2:literal,
     $s3:ident $t3:literal, $s4:ident $t4:literal) => {
        concat!(
            round!($f, $k, $s0 $t0, a, b, c, d, e),
            round!($f, $k, $s1 $t1, e, a, b, c, d),
            round!($f, $k, $s2 $t2, d, e, a, b, c),
            round!($f, $k, $s3 $t3, c, d, e, a, b),
            round!($f, $k, $s4 $t4, b, c, d, e, a),
        )
    };
}

multisha_contract::declare_variant! {
    /// The `asm` SHA-1 variant.
    pub static VARIANT: Sha1Compression = {
        name: "asm",
        description: "fully unrolled x86-64 assembly, registers allocated by hand, roles rotating, K as immediates",
        schedule: Workspace,
        requires: [],
        cost: { call: 2.0, step: 60.0, message: 12.0 },
    };
    /// Compresses `blocks` into `state`, keeping a 16-word circular schedule in `w.words()[0..16]`.
    #[inline(never)]
    pub fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]], w: &mut Sha1Workspace) {
        let Some(last) = blocks.last() else { return };
        let [a, b, c, d, e] = *state;
        // The loop reads whole 64-byte blocks from `blocks.as_ptr()` up to one past `last` (the
        // slice is non-empty, so it runs at least once), reads and writes the 5 words of `state`
        // and the 16 words of `w`, all through exclusive or shared borrows held for the call.
        // SAFETY: it touches only that memory, clobbers only its declared operands and the
        // flags, and does not touch the stack.
        unsafe {
            core::arch::asm!(
                "2:",
                five!(ch, k0; ld 0, ld 1, ld 2, ld 3, ld 4),
                five!(ch, k0; ld 5, ld 6, ld 7, ld 8, ld 9),
                five!(ch, k0; ld 10, ld 11, ld 12, ld 13, ld 14),
                five!(ch, k0; ld 15, ex 16, ex 17, ex 18, ex 19),
                five!(parity, k1; ex 20, ex 21, ex 22, ex 23, ex 24),
                five!(parity, k1; ex 25, ex 26, ex 27, ex 28, ex 29),
                five!(parity, k1; ex 30, ex 31, ex 32, ex 33, ex 34),
                five!(parity, k1; ex 35, ex 36, ex 37, ex 38, ex 39),
                five!(maj, k2; ex 40, ex 41, ex 42, ex 43, ex 44),
                five!(maj, k2; ex 45, ex 46, ex 47, ex 48, ex 49),
                five!(maj, k2; ex 50, ex 51, ex 52, ex 53, ex 54),
                five!(maj, k2; ex 55, ex 56, ex 57, ex 58, ex 59),
                five!(parity, k3; ex 60, ex 61, ex 62, ex 63, ex 64),
                five!(parity, k3; ex 65, ex 66, ex 67, ex 68, ex 69),
                five!(parity, k3; ex 70, ex 71, ex 72, ex 73, ex 74),
                five!(parity, k3; ex 75, ex 76, ex 77, ex 78, ex 79),
                // Feed-forward: the chaining value in memory is the block's input state.
                "add {a:e}, dword ptr [{st}]",
                "mov dword ptr [{st}], {a:e}",
                "add {b:e}, dword ptr [{st} + 4]",
                "mov dword ptr [{st} + 4], {b:e}",
                "add {c:e}, dword ptr [{st} + 8]",
                "mov dword ptr [{st} + 8], {c:e}",
                "add {d:e}, dword ptr [{st} + 12]",
                "mov dword ptr [{st} + 12], {d:e}",
                "add {e:e}, dword ptr [{st} + 16]",
                "mov dword ptr [{st} + 16], {e:e}",
                "add {blk}, 64",
                "cmp {blk}, {end}",
                "jne 2b",
                a = inout(reg) a => _,
                b = inout(reg) b => _,
                c = inout(reg) c => _,
                d = inout(reg) d => _,
                e = inout(reg) e => _,
                x = out(reg) _,
                y = out(reg) _,
                blk = inout(reg) blocks.as_ptr() => _,
                end = in(reg) core::ptr::from_ref(last).wrapping_add(1),
                st = in(reg) state.as_mut_ptr(),
                w = in(reg) w.words().as_mut_ptr(),
                // `lea` takes a signed 32-bit displacement; modulo 2^32 it is the same constant.
                k0 = const SHA1_K[0] as i32,
                k1 = const SHA1_K[1] as i32,
                k2 = const SHA1_K[2] as i32,
                k3 = const SHA1_K[3] as i32,
                options(nostack),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use multisha_contract::harness::{TestRng, reference_sha1};
    use multisha_contract::{SHA1_IV, Sha1Compression};
    use std::vec::Vec;

    fn digest(data: &[u8]) -> Vec<u8> {
        let mut out = [0u8; 20];
        // SAFETY: the kernel needs no CPU feature.
        unsafe {
            multisha_contract::oneshot::<Sha1Compression>(super::compress, SHA1_IV, data, &mut out)
        };
        out.to_vec()
    }

    /// Recurses `depth` frames, each holding a live buffer, and hashes at every level, so the
    /// kernel runs with the stack pointer at many depths and alignments next to live data.
    fn recurse(depth: usize, data: &[u8], want: &[u8]) -> u8 {
        let mut pad = [depth as u8; 200];
        core::hint::black_box(&mut pad);
        assert_eq!(digest(data), want, "sha1/asm at recursion depth {depth}");
        let below = if depth == 0 {
            0
        } else {
            recurse(depth - 1, data, want)
        };
        // Uses `pad` after the call so the frame stays live (and intact) across it.
        below ^ core::hint::black_box(pad)[depth % 200]
    }

    #[test]
    fn deep_recursion() {
        let data = TestRng::new(7).bytes(300);
        let want = reference_sha1(&data);
        // A large stack so depth, not the default test-thread stack, is what is exercised.
        let t = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || recurse(2000, &data, &want))
            .unwrap();
        t.join().unwrap();
    }

    #[test]
    fn eight_threads() {
        let handles: Vec<_> = (0..8u64)
            .map(|i| {
                std::thread::spawn(move || {
                    let mut rng = TestRng::new(100 + i);
                    for round in 0..200 {
                        let len = rng.below(2000);
                        let data = rng.bytes(len);
                        assert_eq!(
                            digest(&data),
                            reference_sha1(&data),
                            "sha1/asm thread {i} round {round}"
                        );
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }
}
