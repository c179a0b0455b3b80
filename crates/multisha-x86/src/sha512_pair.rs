//! The assembly shared by the `avx2` and `avx512` SHA-512 kernels: the loop over pairs of
//! blocks, the scalar rounds and the stack frame, and the PBKDF2 loop (all its iterations in
//! one assembly block, each block built from the last digest's registers). Each kernel supplies only its message expansion step (`update` below); see
//! `sha512_avx2` for the design.

use core::mem::{MaybeUninit, offset_of};

use multisha_contract::{HmacKeys, SHA512_K, Sha512Compression, hmac_template};
use zeroize::Zeroize;

/// The kernel's stack frame: the paired schedule (`w + K` of two blocks, 2 × 80 words) and the
/// loop's pointers, which the assembly keeps here because every general register holds a
/// working variable or a temporary.
#[repr(C, align(64))]
pub(crate) struct Frame {
    /// Words `4j..4j+2` are `w[2j..2j+2] + K` of the first block, `4j+2..4j+4` those of the
    /// second.
    w: [u64; 160],
    state: *mut u64,
    next: *const u8,
    end: *const u8,
}

pub(crate) const STATE: usize = offset_of!(Frame, state);
pub(crate) const NEXT: usize = offset_of!(Frame, next);
pub(crate) const END: usize = offset_of!(Frame, end);

impl Frame {
    /// A frame for `blocks` (non-empty) and `state`, the schedule left uninitialised: the
    /// assembly writes every word before reading it.
    pub(crate) fn new(state: &mut [u64; 8], blocks: &[[u8; 128]]) -> MaybeUninit<Self> {
        let mut frame = MaybeUninit::<Self>::uninit();
        let p = frame.as_mut_ptr();
        // SAFETY: field writes through a raw pointer into the local frame, no reads.
        unsafe {
            (&raw mut (*p).state).write(state.as_mut_ptr());
            (&raw mut (*p).next).write(blocks.as_ptr().cast());
            (&raw mut (*p).end).write(blocks.as_ptr_range().end.cast());
        }
        frame
    }
}

/// The stack frame of the PBKDF2 loop ([`iterate_asm`]): the schedule as in [`Frame`] (one
/// block's, in the low lane of each group, the only one the rounds read; the high lane holds
/// the expansion of zeros (words 0..8) and the padding (words 8..16)), where `U` and `T` lie
/// and how many iterations are left, the HMAC block's template (RFC 8018 iterations compress
/// `(digest & mask) | pad`), both keyed states with their first rounds ([`first_round`]), and
/// the inner digest of the iteration under way.
#[repr(C, align(64))]
pub(crate) struct IterationFrame {
    w: [u64; 160],
    /// `U`: the message of each iteration's inner compression, then the outer one's digest.
    u: *mut u64,
    /// `T`, which takes the XOR of every `U`.
    t: *mut u64,
    /// Iterations left (one or more when the loop starts).
    count: u64,
    /// The mask of the first eight message words (the digest's bits).
    mask: [u64; 8],
    /// The padding of all sixteen message words.
    pad: [u64; 16],
    /// The inner keyed state, then the outer one.
    keys: [[u64; 8]; 2],
    /// [`first_round`] of the inner keyed state, then of the outer one.
    first: [[u64; 4]; 2],
    /// The inner compression's digest: the outer one's message.
    inner: [u64; 8],
}

pub(crate) const ITER_U: usize = offset_of!(IterationFrame, u);
pub(crate) const ITER_T: usize = offset_of!(IterationFrame, t);
pub(crate) const ITER_COUNT: usize = offset_of!(IterationFrame, count);
pub(crate) const ITER_MASK: usize = offset_of!(IterationFrame, mask);
pub(crate) const ITER_PAD: usize = offset_of!(IterationFrame, pad);
pub(crate) const ITER_KEYS: usize = offset_of!(IterationFrame, keys);
pub(crate) const ITER_FIRST: usize = offset_of!(IterationFrame, first);
pub(crate) const ITER_INNER: usize = offset_of!(IterationFrame, inner);

/// What a PBKDF2 block's first round makes of `state` before its first message word `w0`,
/// which every such round adds to the same two words: the new `e` less `w0` (`d + T1`, where
/// `T1 = h + Σ1(e) + Ch(e, f, g) + K[0]` without `w0`), the new `a` less `w0` (`T1 + Σ0(a) +
/// Maj(a, b, c)`), then `a ^ b` (the second round's `b ^ c`) and `g + K[1]` (the second
/// round's `h` with its constant). The keyed states are the same for every iteration, so the
/// first round is these and two additions, and the rounds begin as soon as the last digest
/// is.
pub(crate) fn first_round(state: &[u64; 8]) -> [u64; 4] {
    let [a, b, c, d, e, f, g, h] = *state;
    let sigma1 = e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41);
    let choose = (e & f) ^ (!e & g);
    let t1 = h
        .wrapping_add(sigma1)
        .wrapping_add(choose)
        .wrapping_add(SHA512_K[0]);
    let sigma0 = a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39);
    let majority = (a & b) ^ (a & c) ^ (b & c);
    [
        d.wrapping_add(t1),
        t1.wrapping_add(sigma0).wrapping_add(majority),
        a ^ b,
        g.wrapping_add(SHA512_K[1]),
    ]
}

impl IterationFrame {
    /// A frame for `count` iterations (one or more) on `u` and `t` under `keys`, with digests
    /// of `digest_len` bytes (24 or more: the first three message words are the digest's,
    /// whole), its schedule zero but for the padding's groups.
    pub(crate) fn new(
        digest_len: usize,
        keys: &HmacKeys<Sha512Compression>,
        u: &mut [u64; 8],
        t: &mut [u64; 8],
        count: u32,
    ) -> Self {
        assert!(
            digest_len >= 24,
            "the first three message words are the digest's"
        );
        assert!(count > 0, "the loop runs at least once");
        let template = hmac_template::<Sha512Compression>(digest_len);
        let mut mask = [0; 8];
        mask.copy_from_slice(&template.mask[..8]);
        assert!(
            template.mask[8..] == [0; 8],
            "SHA-512 digests fit the first eight words"
        );
        // Groups 4..8 (words 8..16, both lanes) are the padding plus `K` in every block, and
        // nothing else writes them: stored once here.
        let mut w = [0; 160];
        for group in 4..8 {
            for word in 0..4 {
                let i = 2 * group + word % 2;
                w[4 * group + word] = template.pad[i].wrapping_add(SHA512_K[i]);
            }
        }
        Self {
            w,
            u: u.as_mut_ptr(),
            t: t.as_mut_ptr(),
            count: u64::from(count),
            mask,
            pad: template.pad,
            keys: [keys.inner, keys.outer],
            first: [first_round(&keys.inner), first_round(&keys.outer)],
            inner: [0; 8],
        }
    }

    /// Wipes the schedule and the inner digest (message-derived), the keyed states and their
    /// first rounds (key-derived): the loop compresses without wiping, this once.
    pub(crate) fn wipe(&mut self) {
        self.w.zeroize();
        self.keys.as_flattened_mut().zeroize();
        self.first.as_flattened_mut().zeroize();
        self.inner.zeroize();
    }
}

/// `K` laid out like the paired schedule: each pair of constants twice, once per lane.
#[repr(C, align(32))]
pub(crate) struct PairedK([u64; 160]);

pub(crate) static K2: PairedK = {
    let mut k = [0u64; 160];
    let mut i = 0;
    while i < 80 {
        k[(i / 2) * 4 + i % 2] = SHA512_K[i];
        k[(i / 2) * 4 + 2 + i % 2] = SHA512_K[i];
        i += 1;
    }
    PairedK(k)
};

/// A `vpshufb` mask for both 128-bit lanes.
#[repr(C, align(32))]
pub(crate) struct Mask([u8; 32]);

/// Byte-swaps each 64-bit word (the message is big-endian).
pub(crate) static BSWAP64: Mask = Mask([
    7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, //
    7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
]);

/// Rotates each 64-bit word right by 8 bits.
pub(crate) static ROR8: Mask = Mask([
    1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, //
    1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
]);

/// The `asm!` name of operand `$r`: `{a}`.
macro_rules! r {
    ($r:ident) => {
        concat!("{", stringify!($r), "}")
    };
}
pub(crate) use r;

/// One round, reading `k + w` at byte `32 * $grp + $off + $lane` of the frame, with the
/// vector instructions `$v0..$v11` (strings, possibly empty) mixed in after every second
/// instruction of the round. The terms are OpenSSL's AVX2/BMI2 rounds' (`sha512-x86_64.pl`):
/// * `ch` is `(e & f) + (!e & g)` (the terms never share a bit; `andn` makes the second one
///   instruction); `{cf}` holds a copy of `f` made at the end of the round before.
/// * `maj` is `b ^ ((a ^ b) & (b ^ c))`: `$x` receives `a ^ b`, which is the next round's
///   `b ^ c`, and `$y` holds this round's; the next round swaps the two roles (no move).
/// * `Σ0(a)` goes to `{s}` and is added into the new `a` only at the start of the next round,
///   off the path `e -> Σ1 -> h -> d`, which is the round-to-round chain.
/// * `lea` for additions leaves the flags alone.
///
/// The order is not OpenSSL's: it is the fastest of a few hundred dependency-preserving
/// reorderings measured on Zen 4 (6.0 cycles a round against 6.4 for OpenSSL's order; the 22
/// ALU instructions allow 5.5). Change it only with a measurement.
///
/// Two more forms, for the PBKDF2 block ([`iterate_asm`]): `@reg $r` reads the message word
/// from register `$r` instead, with its constant already in `h` (the second round); `first
/// $which` is the first round from the frame's `first[$which]` ([`first_round`]) and the
/// block's first four words in registers `a..d`.
#[rustfmt::skip]
macro_rules! round {
    // Before the general form, which would take `@ reg $r` for `$grp $off $lane`.
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident,
     $x:ident $y:ident, @reg $r:ident, [$($v:expr),* $(,)?]) => {
        round!(@from r!($r), $a $b $c $d $e $f $g $h, $x $y, [$($v),*])
    };
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident,
     $x:ident $y:ident, $grp:tt $off:tt $lane:tt, [$($v:expr),* $(,)?]) => {
        round!(@from concat!("qword ptr [{fp} + 32*", stringify!($grp), " + ", stringify!($off),
                " + ", stringify!($lane), "]"),
            $a $b $c $d $e $f $g $h, $x $y, [$($v),*])
    };
    // The first round of a block whose first four words are in `a..d` (the last digest's):
    // the first word goes to `s`, the second to `y` (which the second round reads first), the
    // third and fourth plus `K` to the frame (where the third and fourth rounds read them);
    // then the keyed state `keys[$which]` into the registers, of which `d` and `h` become the
    // new `e` and `a` (the pending `Σ0` is in `first`), `x` the second round's `b ^ c`, `g`
    // its `h` plus `K[1]`, `cf` a copy of its `f`. The fourth word is masked and padded
    // (SHA-512/224's digest ends in it).
    (first $which:tt,
     [$v0:expr, $v1:expr, $v2:expr, $v3:expr, $v4:expr, $v5:expr,
      $v6:expr, $v7:expr, $v8:expr, $v9:expr, $v10:expr, $v11:expr $(,)?]) => {
        concat!(
            "mov {s}, {a}\n",
            "mov {y}, {b}\n",
            "mov {cf}, {c}\n",
            $v0,
            "add {cf}, qword ptr [rip + {k2} + 32]\n",
            "mov qword ptr [{fp} + 32], {cf}\n",
            $v1,
            "mov {cf}, {d}\n",
            "and {cf}, qword ptr [{fp} + {mask} + 24]\n",
            $v2,
            "or {cf}, qword ptr [{fp} + {pad} + 24]\n",
            "add {cf}, qword ptr [rip + {k2} + 40]\n",
            $v3,
            "mov qword ptr [{fp} + 40], {cf}\n",
            "mov {d}, qword ptr [{fp} + {first} + 32*", stringify!($which), "]\n",
            $v4,
            "add {d}, {s}\n",
            "mov {h}, qword ptr [{fp} + {first} + 32*", stringify!($which), " + 8]\n",
            $v5,
            "add {h}, {s}\n",
            "mov {x}, qword ptr [{fp} + {first} + 32*", stringify!($which), " + 16]\n",
            $v6,
            "mov {g}, qword ptr [{fp} + {first} + 32*", stringify!($which), " + 24]\n",
            "mov {a}, qword ptr [{fp} + {keys} + 64*", stringify!($which), "]\n",
            $v7,
            "mov {b}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 8]\n",
            "mov {c}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 16]\n",
            $v8,
            "mov {e}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 32]\n",
            "mov {f}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 40]\n",
            $v9,
            "xor {s:e}, {s:e}\n",
            $v10,
            "mov {cf}, {e}\n",
            $v11,
        )
    };
    (@from $w:expr, $a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident,
     $x:ident $y:ident,
     [$v0:expr, $v1:expr, $v2:expr, $v3:expr, $v4:expr, $v5:expr,
      $v6:expr, $v7:expr, $v8:expr, $v9:expr, $v10:expr, $v11:expr $(,)?]) => {
        concat!(
            "add ", r!($h), ", ", $w, "\n",
            "rorx ", r!($x), ", ", r!($e), ", 18\n",
            $v0,
            "and {cf}, ", r!($e), "\n",
            "lea ", r!($h), ", [", r!($h), " + {cf}]\n",
            $v1,
            "andn {cf}, ", r!($e), ", ", r!($g), "\n",
            "lea ", r!($a), ", [", r!($a), " + {s}]\n",
            $v2,
            "rorx {t}, ", r!($e), ", 41\n",
            "lea ", r!($h), ", [", r!($h), " + {cf}]\n",
            $v3,
            "rorx {cf}, ", r!($a), ", 39\n",
            "xor {t}, ", r!($x), "\n",
            $v4,
            "mov ", r!($x), ", ", r!($a), "\n",
            "rorx {s}, ", r!($e), ", 14\n",
            $v5,
            "xor ", r!($x), ", ", r!($b), "\n",
            "xor {t}, {s}\n",
            $v6,
            "rorx {s}, ", r!($a), ", 34\n",
            "lea ", r!($h), ", [", r!($h), " + {t}]\n",
            $v7,
            "lea ", r!($d), ", [", r!($d), " + ", r!($h), "]\n",
            "and ", r!($y), ", ", r!($x), "\n",
            $v8,
            "rorx {t}, ", r!($a), ", 28\n",
            "xor ", r!($y), ", ", r!($b), "\n",
            $v9,
            "xor {s}, {cf}\n",
            "mov {cf}, ", r!($e), "\n",
            $v10,
            "xor {s}, {t}\n",
            "lea ", r!($h), ", [", r!($h), " + ", r!($y), "]\n",
            $v11,
        )
    };
}
pub(crate) use round;

/// Two rounds without message expansion (the last 16 rounds of the first block, all of the
/// second).
#[rustfmt::skip]
macro_rules! no_update {
    ($x0:ident $x1:ident $x4:ident $x5:ident $x7:ident, $grp:tt + $n:tt,
     [$($first:tt)*], [$($second:tt)*]) => {
        concat!(
            round!($($first)*, ["", "", "", "", "", "", "", "", "", "", "", ""]),
            round!($($second)*, ["", "", "", "", "", "", "", "", "", "", "", ""]),
        )
    };
}
pub(crate) use no_update;

/// Sixteen rounds, `w + K` from groups `$grp..$grp+8` of lane `$lane` (0: first block, 16:
/// second), two rounds at a time through `$update!`, which spreads one expansion step (group
/// `$grp + 8 + m`, from the ring of the last eight groups in `ymm0..ymm8`, group `n` in
/// `ymm(n mod 8)`) over the two rounds' vector slots: mixed in instruction by instruction,
/// the vector work takes dispatch slots from the rounds evenly instead of in bursts. The
/// roles of `a..h` rotate once around every eight rounds, the ring once every sixteen.
///
/// With `[$first], [$second]`, the first two rounds are those (a PBKDF2 block's: the
/// [`round`] forms `first` and `@reg`).
#[rustfmt::skip]
macro_rules! sixteen {
    ($update:ident, $grp:tt, $lane:tt) => {
        sixteen!($update, $grp, $lane,
            [a b c d e f g h, x y, $grp 0 $lane], [h a b c d e f g, y x, $grp 8 $lane])
    };
    ($update:ident, $grp:tt, $lane:tt, [$($first:tt)*], [$($second:tt)*]) => {
        concat!(
            $update!(ymm0 ymm1 ymm4 ymm5 ymm7, $grp + 8, [$($first)*], [$($second)*]),
            $update!(ymm1 ymm2 ymm5 ymm6 ymm0, $grp + 9,
                [g h a b c d e f, x y, $grp 32 $lane], [f g h a b c d e, y x, $grp 40 $lane]),
            $update!(ymm2 ymm3 ymm6 ymm7 ymm1, $grp + 10,
                [e f g h a b c d, x y, $grp 64 $lane], [d e f g h a b c, y x, $grp 72 $lane]),
            $update!(ymm3 ymm4 ymm7 ymm0 ymm2, $grp + 11,
                [c d e f g h a b, x y, $grp 96 $lane], [b c d e f g h a, y x, $grp 104 $lane]),
            $update!(ymm4 ymm5 ymm0 ymm1 ymm3, $grp + 12,
                [a b c d e f g h, x y, $grp 128 $lane], [h a b c d e f g, y x, $grp 136 $lane]),
            $update!(ymm5 ymm6 ymm1 ymm2 ymm4, $grp + 13,
                [g h a b c d e f, x y, $grp 160 $lane], [f g h a b c d e, y x, $grp 168 $lane]),
            $update!(ymm6 ymm7 ymm2 ymm3 ymm5, $grp + 14,
                [e f g h a b c d, x y, $grp 192 $lane], [d e f g h a b c, y x, $grp 200 $lane]),
            $update!(ymm7 ymm0 ymm3 ymm4 ymm6, $grp + 15,
                [c d e f g h a b, x y, $grp 224 $lane], [b c d e f g h a, y x, $grp 232 $lane]),
        )
    };
}
pub(crate) use sixteen;

/// Loads group `$j` (words `2j..2j+2`) of both blocks into `$x` (first block in the low lane)
/// and stores it plus `K`.
#[rustfmt::skip]
macro_rules! load {
    ($j:tt, $xmm:ident $ymm:ident) => {
        concat!(
            "vmovdqu ", stringify!($xmm), ", xmmword ptr [{t} + 16*", stringify!($j), "]\n",
            "vinserti128 ", stringify!($ymm), ", ", stringify!($ymm), ", xmmword ptr [", r!(x),
                " + 16*", stringify!($j), "], 1\n",
            "vpshufb ", stringify!($ymm), ", ", stringify!($ymm), ", ymm12\n",
            "vpaddq ymm8, ", stringify!($ymm), ", ymmword ptr [rip + {k2} + 32*", stringify!($j), "]\n",
            "vmovdqa ymmword ptr [{fp} + 32*", stringify!($j), "], ymm8\n",
        )
    };
}
pub(crate) use load;

/// `state += v` in memory (the pending `Σ0` first), and `v` = the new state.
#[rustfmt::skip]
macro_rules! feed_forward {
    () => {
        concat!(
            "add {a}, {s}\n",
            "mov {t}, qword ptr [{fp} + {state}]\n",
            "add {a}, qword ptr [{t}]\n", "mov qword ptr [{t}], {a}\n",
            "add {b}, qword ptr [{t} + 8]\n", "mov qword ptr [{t} + 8], {b}\n",
            "add {c}, qword ptr [{t} + 16]\n", "mov qword ptr [{t} + 16], {c}\n",
            "add {d}, qword ptr [{t} + 24]\n", "mov qword ptr [{t} + 24], {d}\n",
            "add {e}, qword ptr [{t} + 32]\n", "mov qword ptr [{t} + 32], {e}\n",
            "add {f}, qword ptr [{t} + 40]\n", "mov qword ptr [{t} + 40], {f}\n",
            "add {g}, qword ptr [{t} + 48]\n", "mov qword ptr [{t} + 48], {g}\n",
            "add {h}, qword ptr [{t} + 56]\n", "mov qword ptr [{t} + 56], {h}\n",
        )
    };
}
pub(crate) use feed_forward;

/// What the first round expects: no pending `Σ0`, `b ^ c` in `y`, a copy of `f` in `cf`.
macro_rules! round_entry {
    () => {
        concat!(
            "xor {s:e}, {s:e}\n",
            "mov {y}, {b}\n",
            "xor {y}, {c}\n",
            "mov {cf}, {f}\n",
        )
    };
}
pub(crate) use round_entry;

/// The `asm!` of both assembly blocks: `$template` run on the frame at `$frame` (`{fp}`),
/// after loading the eight state words from the pointer at `[{fp} + {state}]` into `{a}..{h}`
/// and `ROR8` into `ymm13`, with the rounds' registers and every vector register clobbered;
/// `$operands` name what else the template uses (`state` among them).
#[rustfmt::skip]
macro_rules! rounds_asm {
    ($frame:expr, [$($template:expr),* $(,)?], $($operands:tt)*) => {
        core::arch::asm!(
            "vmovdqa ymm13, ymmword ptr [rip + {ror8}]",
            "mov {t}, qword ptr [{fp} + {state}]",
            "mov {a}, qword ptr [{t}]",
            "mov {b}, qword ptr [{t} + 8]",
            "mov {c}, qword ptr [{t} + 16]",
            "mov {d}, qword ptr [{t} + 24]",
            "mov {e}, qword ptr [{t} + 32]",
            "mov {f}, qword ptr [{t} + 40]",
            "mov {g}, qword ptr [{t} + 48]",
            "mov {h}, qword ptr [{t} + 56]",
            $($template,)*
            "vzeroupper",
            $($operands)*
            fp = in(reg) $frame,
            a = out(reg) _,
            b = out(reg) _,
            c = out(reg) _,
            d = out(reg) _,
            e = out(reg) _,
            f = out(reg) _,
            g = out(reg) _,
            h = out(reg) _,
            t = out(reg) _,
            s = out(reg) _,
            x = out(reg) _,
            y = out(reg) _,
            cf = out(reg) _,
            k2 = sym $crate::sha512_pair::K2,
            ror8 = sym $crate::sha512_pair::ROR8,
            out("ymm0") _, out("ymm1") _, out("ymm2") _, out("ymm3") _,
            out("ymm4") _, out("ymm5") _, out("ymm6") _, out("ymm7") _,
            out("ymm8") _, out("ymm9") _, out("ymm10") _, out("ymm11") _,
            out("ymm12") _, out("ymm13") _,
            // `vzeroupper` zeroes the upper halves of the two registers the rounds do not use:
            // where a kernel is inlined (a PBKDF2 loop over it), the compiler must not keep
            // vectors there.
            out("ymm14") _, out("ymm15") _,
            options(nostack),
        )
    };
}
pub(crate) use rounds_asm;

/// Compresses the blocks described by `$frame` (from [`Frame::new`]) with the expansion step
/// `$update`, then wipes the schedule. Expands to an `unsafe` block.
#[rustfmt::skip]
macro_rules! compress_pairs {
    ($frame:expr, $update:ident) => {{
        use $crate::sha512_pair::{
            BSWAP64, END, NEXT, STATE, feed_forward, load, no_update, r, round, round_entry,
            rounds_asm, sixteen,
        };
        let frame: *mut $crate::sha512_pair::Frame = $frame;
        // The assembly reads the blocks `[next, end)` (non-empty, a whole number of 128-byte
        // blocks), reads and writes the 8 words at `state` (an exclusive borrow the caller
        // holds for the call) and the frame (a local of the caller; its pointers are written,
        // its schedule written before read), and reads the 32-byte aligned statics `K2`,
        // `BSWAP64`, `ROR8`. Every register it writes is an operand or a declared clobber, the
        // flags are clobbered (no `preserves_flags`), it does not push.
        // SAFETY: those accesses stay in memory the caller lends; `rorx`/`andn` need BMI2/BMI1
        // and the vector instructions AVX2 (and the caller's `$update` its own features), which
        // the calling kernel's declaration requires.
        unsafe {
            rounds_asm!(frame, [
                "vmovdqa ymm12, ymmword ptr [rip + {bswap}]",
                // One pair per iteration; a lone last block is loaded into both lanes.
                "2:",
                "mov {t}, qword ptr [{fp} + {next}]",
                "lea {x}, [{t} + 128]",
                "cmp {x}, qword ptr [{fp} + {end}]",
                "cmove {x}, {t}",
                load!(0, xmm0 ymm0),
                load!(1, xmm1 ymm1),
                load!(2, xmm2 ymm2),
                load!(3, xmm3 ymm3),
                load!(4, xmm4 ymm4),
                load!(5, xmm5 ymm5),
                load!(6, xmm6 ymm6),
                load!(7, xmm7 ymm7),
                // The first block, expanding both blocks' schedules as it goes.
                round_entry!(),
                sixteen!($update, 0, 0),
                sixteen!($update, 8, 0),
                sixteen!($update, 16, 0),
                sixteen!($update, 24, 0),
                sixteen!(no_update, 32, 0),
                feed_forward!(),
                "mov {t}, qword ptr [{fp} + {next}]",
                "add {t}, 128",
                "mov qword ptr [{fp} + {next}], {t}",
                "cmp {t}, qword ptr [{fp} + {end}]",
                "je 3f",
                // The second block, from the schedule alone.
                round_entry!(),
                sixteen!(no_update, 0, 16),
                sixteen!(no_update, 8, 16),
                sixteen!(no_update, 16, 16),
                sixteen!(no_update, 24, 16),
                sixteen!(no_update, 32, 16),
                feed_forward!(),
                "mov {t}, qword ptr [{fp} + {next}]",
                "add {t}, 128",
                "mov qword ptr [{fp} + {next}], {t}",
                "cmp {t}, qword ptr [{fp} + {end}]",
                "jne 2b",
                "3:",
                // Wipes the schedule (message-derived), once per call: stores the compiler
                // cannot drop.
                "vpxor xmm8, xmm8, xmm8",
                "xor {t:e}, {t:e}",
                "4:",
                "vmovdqa ymmword ptr [{fp} + {t}], ymm8",
                "vmovdqa ymmword ptr [{fp} + {t} + 32], ymm8",
                "vmovdqa ymmword ptr [{fp} + {t} + 64], ymm8",
                "vmovdqa ymmword ptr [{fp} + {t} + 96], ymm8",
                "add {t}, 128",
                "cmp {t}, 1280",
                "jb 4b",
            ],
                state = const STATE,
                next = const NEXT,
                end = const END,
                bswap = sym BSWAP64,
            );
        }
    }};
}
pub(crate) use compress_pairs;

/// Group `$j` (words `2j..2j+2`) of a PBKDF2 block into `$ymm`: for `$j < 4` the source
/// words masked and padded, loaded eight bytes at a time (the loop's source was just stored
/// that way: wider loads would wait for the stores to drain instead of taking their data)
/// into the low lane only, through `$xmm` (the rounds read nothing else; a `vinserti128`
/// into the high lane would put three cycles between the last block's state and this one's
/// first round), and (`words`, not `unstored`) stored plus `K` for the rounds; for `$j >= 4`
/// the padding, in both lanes (the frame holds it plus `K` from the start).
#[rustfmt::skip]
macro_rules! load_iteration {
    (words $j:tt, $xmm:ident $ymm:ident) => {
        concat!(
            load_iteration!(unstored $j, $xmm $ymm),
            "vpaddq ymm8, ", stringify!($ymm), ", ymmword ptr [rip + {k2} + 32*", stringify!($j), "]\n",
            "vmovdqa ymmword ptr [{fp} + 32*", stringify!($j), "], ymm8\n",
        )
    };
    (unstored $j:tt, $xmm:ident $ymm:ident) => {
        concat!(
            "vmovq ", stringify!($xmm), ", qword ptr [{t} + 16*", stringify!($j), "]\n",
            "vpinsrq ", stringify!($xmm), ", ", stringify!($xmm), ", qword ptr [{t} + 16*",
                stringify!($j), " + 8], 1\n",
            "vpand ", stringify!($xmm), ", ", stringify!($xmm), ", xmmword ptr [{fp} + {mask} + 16*",
                stringify!($j), "]\n",
            "vpor ", stringify!($xmm), ", ", stringify!($xmm), ", xmmword ptr [{fp} + {pad} + 16*",
                stringify!($j), "]\n",
        )
    };
    (pad $j:tt, $ymm:ident) => {
        concat!(
            "vbroadcasti128 ", stringify!($ymm), ", xmmword ptr [{fp} + {pad} + 16*",
                stringify!($j), "]\n",
        )
    };
}
pub(crate) use load_iteration;

/// One PBKDF2 block's compression for [`iterate_asm`], as template strings: the message is
/// the digest whose first four words are in `a..d` and whose eight words are at `$src` (the
/// instruction that loads its address into `{t}`), compressed from the keyed state
/// `keys[$which]` with the expansion step `$update`; the digest goes to `a..h` and to
/// `$dst` (the instruction that loads its address into `{t}`). The schedule is left in the
/// frame, which the loop wipes once at its end.
#[rustfmt::skip]
macro_rules! iteration_block {
    ($update:ident, $which:tt, $src:expr, $dst:expr) => {
        concat!(
            $src, "\n",
            // The vector path reads the words from memory (off the rounds' path: the first
            // four words reach them from registers, through the `first` round).
            load_iteration!(unstored 0, xmm0 ymm0),
            load_iteration!(unstored 1, xmm1 ymm1),
            load_iteration!(words 2, xmm2 ymm2),
            load_iteration!(words 3, xmm3 ymm3),
            load_iteration!(pad 4, ymm4),
            load_iteration!(pad 5, ymm5),
            load_iteration!(pad 6, ymm6),
            load_iteration!(pad 7, ymm7),
            sixteen!($update, 0, 0, [first $which], [h a b c d e f g, y x, @reg y]),
            sixteen!($update, 8, 0),
            sixteen!($update, 16, 0),
            sixteen!($update, 24, 0),
            sixteen!(no_update, 32, 0),
            // The feed-forward: the pending `Σ0`, the keyed state, the digest out.
            "add {a}, {s}\n",
            "add {a}, qword ptr [{fp} + {keys} + 64*", stringify!($which), "]\n",
            "add {b}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 8]\n",
            "add {c}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 16]\n",
            "add {d}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 24]\n",
            "add {e}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 32]\n",
            "add {f}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 40]\n",
            "add {g}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 48]\n",
            "add {h}, qword ptr [{fp} + {keys} + 64*", stringify!($which), " + 56]\n",
            $dst, "\n",
            "mov qword ptr [{t}], {a}\n",
            "mov qword ptr [{t} + 8], {b}\n",
            "mov qword ptr [{t} + 16], {c}\n",
            "mov qword ptr [{t} + 24], {d}\n",
            "mov qword ptr [{t} + 32], {e}\n",
            "mov qword ptr [{t} + 40], {f}\n",
            "mov qword ptr [{t} + 48], {g}\n",
            "mov qword ptr [{t} + 56], {h}\n",
        )
    };
}
pub(crate) use iteration_block;

/// The PBKDF2 loop on the frame `$frame` (an [`IterationFrame`]) with the expansion step
/// `$update`, all of it in one assembly block: each iteration compresses `U` from the inner
/// keyed state into the frame's `inner`, that from the outer keyed state into `U`, and XORs
/// `U` into `T`. A block's first words go from the last digest's registers to its rounds
/// (no store and load between the compressions on the rounds' path), its first round is
/// mostly precomputed ([`first_round`]). Expands to an `unsafe` block.
#[rustfmt::skip]
macro_rules! iterate_asm {
    ($frame:expr, $update:ident) => {{
        use $crate::sha512_pair::{
            ITER_COUNT, ITER_FIRST, ITER_INNER, ITER_KEYS, ITER_MASK, ITER_PAD, ITER_T, ITER_U,
            iteration_block, load_iteration, no_update, r, round, rounds_asm, sixteen,
        };
        let frame: *mut $crate::sha512_pair::IterationFrame = $frame;
        // The assembly reads and writes the 8 words at `u` and at `t` (two distinct arrays
        // the caller borrows exclusively for the call) and the frame (a local of the caller,
        // its schedule written before read, `count` at least one), and reads the 32-byte
        // aligned statics `K2` and `ROR8`. Every register it writes is an operand or a
        // declared clobber, the flags are clobbered, it does not push.
        // SAFETY: those accesses stay in memory the caller lends; `rorx`/`andn` need BMI2/BMI1
        // and the vector instructions AVX2 (and the caller's `$update` its own features), which
        // the calling kernel's declaration requires.
        unsafe {
            // `rounds_asm!` loads `U` into `a..h` first (`state` is `u`): the first block's
            // first words.
            rounds_asm!(frame, [
                // The loop's start on a cache line of its own, wherever the program places
                // the function (the same loop measured differently in differently linked
                // programs on an AMD Zen 5).
                ".p2align 6",
                "2:",
                iteration_block!($update, 0,
                    "mov {t}, qword ptr [{fp} + {u}]", "lea {t}, [{fp} + {inner}]"),
                iteration_block!($update, 1,
                    "lea {t}, [{fp} + {inner}]", "mov {t}, qword ptr [{fp} + {u}]"),
                "mov {t}, qword ptr [{fp} + {tt}]",
                "xor qword ptr [{t}], {a}",
                "xor qword ptr [{t} + 8], {b}",
                "xor qword ptr [{t} + 16], {c}",
                "xor qword ptr [{t} + 24], {d}",
                "xor qword ptr [{t} + 32], {e}",
                "xor qword ptr [{t} + 40], {f}",
                "xor qword ptr [{t} + 48], {g}",
                "xor qword ptr [{t} + 56], {h}",
                "dec qword ptr [{fp} + {count}]",
                "jnz 2b",
            ],
                state = const ITER_U,
                u = const ITER_U,
                tt = const ITER_T,
                count = const ITER_COUNT,
                mask = const ITER_MASK,
                pad = const ITER_PAD,
                keys = const ITER_KEYS,
                first = const ITER_FIRST,
                inner = const ITER_INNER,
            );
        }
    }};
}
pub(crate) use iterate_asm;

/// The PBKDF2 loop of the `avx2` and `avx512` SHA-512 kernels, with the expansion step
/// `$update` (the [`IterateFn`](multisha_contract::IterateFn) contract): each iteration
/// compresses `U` into the inner keyed state and that digest into the outer one, building
/// each block in registers from the last digest's words (no byte swapping, no copy through a
/// block buffer), all iterations in one assembly block ([`iterate_asm`]), and wipes the
/// schedule once at the end instead of once per block.
macro_rules! iterate_pbkdf2 {
    ($update:ident, $keys:expr, $u:expr, $t:expr, $digest_len:expr, $count:expr) => {{
        let keys: &multisha_contract::HmacKeys<multisha_contract::Sha512Compression> = $keys;
        let (u, t): (&mut [u64; 8], &mut [u64; 8]) = ($u, $t);
        let count: u32 = $count;
        if count > 0 {
            let mut frame =
                $crate::sha512_pair::IterationFrame::new($digest_len, keys, u, t, count);
            $crate::sha512_pair::iterate_asm!(&mut frame, $update);
            frame.wipe();
        }
    }};
}
pub(crate) use iterate_pbkdf2;
