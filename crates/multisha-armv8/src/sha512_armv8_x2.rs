//! SHA-512 of two messages at once on the AArch64 SHA-512 instructions (FEAT_SHA512, Rust
//! target feature `sha3`): two independent streams interleaved.
//!
//! One stream waits on each `SHA512H`/`SHA512H2` pair for the previous one (the state is its
//! own input), so a core that can run several at once idles; a second, independent message
//! fills the gaps, as `sha256_armv8_x2` does for SHA-256. Each stream is `sha512_armv8`'s
//! (see there for the instructions): the state in four vectors whose roles rotate every two
//! rounds, a window of eight schedule vectors; both streams share each round pair's
//! constants.
//!
//! Both streams' schedule windows (sixteen vectors) live in the lane workspace, which the
//! scheduler wipes once per batch, and are read back with volatile loads. Kept in registers,
//! two states, two windows and the round temporaries need more than the 32 vector registers,
//! and LLVM spilled schedule words to the stack, where nothing wipes them. For the same reason
//! the feed-forward reads the block's input states from `states`, where each block's output
//! is stored, behind an empty `asm!` that keeps the compiler from holding the values it loaded
//! at the start of the block in registers. Loads are cheap beside the rounds' latency: the
//! second stream is there to fill that.
//!
//! The constant entry runs the rounds of both lanes on a given schedule (no `SHA512SU0/1`).

use crate::sha512_armv8::{load_u64x2, load_words};
use core::arch::aarch64::{
    uint64x2_t, vaddq_u64, vextq_u64, vsha512h2q_u64, vsha512hq_u64, vsha512su0q_u64,
    vsha512su1q_u64, vst1q_u64,
};
use multisha_contract::{SHA512_K, Sha512Compression, aligned_words, equal_lanes};

type LaneWorkspace = <Sha512Compression as multisha_contract::Compression>::LaneWorkspace;

/// Words of the lane workspace the kernel uses: two windows of eight vectors, its small part.
const WORDS: usize = 2 * 8 * 2;
const _: () = assert!(
    WORDS <= LaneWorkspace::SMALL_LEN,
    "the lane workspace's small part is too small for this kernel"
);

/// Each lane's schedule window in the lane workspace (its small part: only those words are
/// zeroed and wiped).
#[inline(always)]
fn windows(ws: &mut LaneWorkspace) -> &mut [[uint64x2_t; 8]; 2] {
    let words = aligned_words(ws.small_words(), 16, WORDS);
    assert!(words.as_ptr().addr().is_multiple_of(16));
    // SAFETY: `words` is `WORDS` initialized `u64`s (256 bytes), 16-byte aligned (asserted),
    // and every bit pattern is a valid `uint64x2_t`; the result borrows `ws` as `words` did.
    unsafe { &mut *words.as_mut_ptr().cast::<[[uint64x2_t; 8]; 2]>() }
}

/// A window vector, read from memory where it is used: with a plain read LLVM keeps what it
/// has just stored in a register, and spills to the stack for want of registers.
#[inline(always)]
fn get(v: &uint64x2_t) -> uint64x2_t {
    // SAFETY: `v` is a reference: valid and aligned for a read.
    unsafe { core::ptr::read_volatile(v) }
}

/// The two lanes' states as `[ab, cd, ef, gh]`, each `[lane 0, lane 1]`, read from memory.
///
/// The empty `asm!` may (for all the compiler knows) write the states, so these loads cannot
/// be replaced by values loaded or stored before it.
#[inline(always)]
fn reload(s0: &mut [u64; 8], s1: &mut [u64; 8]) -> [[uint64x2_t; 2]; 4] {
    // SAFETY: an empty assembly block (the operands only show it the states): it executes
    // nothing, touches no stack and no flag.
    unsafe {
        core::arch::asm!(
            "/* {0} {1} */",
            in(reg) s0.as_mut_ptr(),
            in(reg) s1.as_mut_ptr(),
            options(nostack, preserves_flags),
        );
    }
    core::array::from_fn(|q| {
        [
            load_u64x2(&s0[2 * q..2 * q + 2]),
            load_u64x2(&s1[2 * q..2 * q + 2]),
        ]
    })
}

/// Stores `[ab, cd, ef, gh]` of both lanes into their states.
#[inline(always)]
fn store(s0: &mut [u64; 8], s1: &mut [u64; 8], v: [[uint64x2_t; 2]; 4]) {
    for (lane, state) in [s0, s1].into_iter().enumerate() {
        let (pairs, _) = state.as_chunks_mut::<2>();
        for (pair, q) in pairs.iter_mut().zip(v) {
            // SAFETY: `pair` is two writable `u64`s, exactly what `vst1q_u64` writes; NEON is
            // part of the aarch64 baseline.
            unsafe { vst1q_u64(pair.as_mut_ptr(), q[lane]) };
        }
    }
}

/// The feed-forward: stores `$out + $input` (`[ab, cd, ef, gh]` of both lanes) into the
/// states `$s0`, `$s1`. A macro: as an `#[inline(always)]` function taking the two arrays,
/// `compress_constant` kept values in a 208-byte stack frame.
macro_rules! store_sum {
    ($s0:ident, $s1:ident, $out:expr, $input:ident) => {
        let out = $out;
        store(
            $s0,
            $s1,
            core::array::from_fn(|q| {
                [
                    vaddq_u64(out[q][0], $input[q][0]),
                    vaddq_u64(out[q][1], $input[q][1]),
                ]
            }),
        );
    };
}

/// Two rounds of both streams with the round constants of pair `$p` and the schedule words
/// `$wx` (lane 0) and `$wy` (lane 1), on the state vectors in the roles `$ab`, `$cd`, `$ef`,
/// `$gh` (each `[lane 0, lane 1]`): `$gh` receives the new `g, h` and `$cd` the new `e, f`.
macro_rules! two_rounds {
    ($p:expr, $wx:expr, $wy:expr, $ab:ident, $cd:ident, $ef:ident, $gh:ident) => {
        let k = load_u64x2(&SHA512_K[2 * $p..2 * $p + 2]);
        let (wk0, wk1) = (vaddq_u64($wx, k), vaddq_u64($wy, k));
        // The second round's `k + w` in the low lane, plus `h`.
        let sum0 = vaddq_u64(vextq_u64::<1>(wk0, wk0), $gh[0]);
        let sum1 = vaddq_u64(vextq_u64::<1>(wk1, wk1), $gh[1]);
        let t0 = vsha512hq_u64(
            sum0,
            vextq_u64::<1>($ef[0], $gh[0]),
            vextq_u64::<1>($cd[0], $ef[0]),
        );
        let t1 = vsha512hq_u64(
            sum1,
            vextq_u64::<1>($ef[1], $gh[1]),
            vextq_u64::<1>($cd[1], $ef[1]),
        );
        $gh[0] = vsha512h2q_u64(t0, $cd[0], $ab[0]);
        $gh[1] = vsha512h2q_u64(t1, $cd[1], $ab[1]);
        $cd[0] = vaddq_u64($cd[0], t0);
        $cd[1] = vaddq_u64($cd[1], t1);
    };
}

/// Replaces the oldest two schedule words of window `$w` (slot `$s0`, `w[t-16..t-14]`) with
/// `w[t..t+2]`, from slots `$s1`, `$s4`, `$s5` and `$s7`.
macro_rules! schedule {
    ($w:ident, $s0:literal, $s1:literal, $s4:literal, $s5:literal, $s7:literal) => {
        $w[$s0] = vsha512su1q_u64(
            vsha512su0q_u64(get(&$w[$s0]), get(&$w[$s1])),
            get(&$w[$s7]),
            vextq_u64::<1>(get(&$w[$s4]), get(&$w[$s5])),
        );
    };
}

/// Two rounds of both streams on slot `$s0` of their windows `$x` and `$y`, after replacing
/// it with the words sixteen later when `schedule` is given.
macro_rules! step {
    ($p:expr, $x:ident, $y:ident, [$s0:literal $s1:literal $s4:literal $s5:literal $s7:literal],
     $ab:ident, $cd:ident, $ef:ident, $gh:ident $(, $schedule:ident)?) => {
        $(
            $schedule!($x, $s0, $s1, $s4, $s5, $s7);
            $schedule!($y, $s0, $s1, $s4, $s5, $s7);
        )?
        two_rounds!($p, get(&$x[$s0]), get(&$y[$s0]), $ab, $cd, $ef, $gh);
    };
}

multisha_contract::declare_variant! {
    /// The `armv8-x2` SHA-512 many-message variant.
    pub static VARIANT: Sha512Compression = {
        name: "armv8-x2",
        description: concat!(
            "two messages at once: two streams of SHA512H/H2 interleaved, states in registers, ",
            "schedule windows in the lane workspace",
        ),
        schedule: LaneWorkspace,
        requires: ["sha3"],
        lanes: 2,
        cost: { setup: 150.0, call: 60.0, step: 120.0, message: 2.0, ragged: 4.0 },
    };
    /// Compresses `blocks[0]` into `states[0]` and `blocks[1]` into `states[1]`, block by
    /// block in step; the schedule windows live in `ws`.
    #[inline(never)]
    pub fn compress(states: &mut [[u64; 8]], blocks: &[&[[u8; 128]]], ws: &mut LaneWorkspace) {
        let [s0, s1] = states else {
            panic!("armv8-x2 takes two lanes");
        };
        let (&[b0, b1], _) = equal_lanes::<_, 2>(blocks);
        let [x, y] = windows(ws);
        for (block0, block1) in b0.iter().zip(b1.iter()) {
            for i in 0..8 {
                x[i] = load_words(block0, i);
                y[i] = load_words(block1, i);
            }
            let [mut ab, mut cd, mut ef, mut gh] = reload(s0, s1);
            // Rounds 0..16 read the loaded words; each later group of sixteen first computes
            // the window vector it is about to use (eight pairs after its last use).
            step!(0, x, y, [0 1 4 5 7], ab, cd, ef, gh);
            step!(1, x, y, [1 2 5 6 0], gh, ab, cd, ef);
            step!(2, x, y, [2 3 6 7 1], ef, gh, ab, cd);
            step!(3, x, y, [3 4 7 0 2], cd, ef, gh, ab);
            step!(4, x, y, [4 5 0 1 3], ab, cd, ef, gh);
            step!(5, x, y, [5 6 1 2 4], gh, ab, cd, ef);
            step!(6, x, y, [6 7 2 3 5], ef, gh, ab, cd);
            step!(7, x, y, [7 0 3 4 6], cd, ef, gh, ab);
            for group in 1..5 {
                let p = 8 * group;
                step!(p, x, y, [0 1 4 5 7], ab, cd, ef, gh, schedule);
                step!(p + 1, x, y, [1 2 5 6 0], gh, ab, cd, ef, schedule);
                step!(p + 2, x, y, [2 3 6 7 1], ef, gh, ab, cd, schedule);
                step!(p + 3, x, y, [3 4 7 0 2], cd, ef, gh, ab, schedule);
                step!(p + 4, x, y, [4 5 0 1 3], ab, cd, ef, gh, schedule);
                step!(p + 5, x, y, [5 6 1 2 4], gh, ab, cd, ef, schedule);
                step!(p + 6, x, y, [6 7 2 3 5], ef, gh, ab, cd, schedule);
                step!(p + 7, x, y, [7 0 3 4 6], cd, ef, gh, ab, schedule);
            }
            let input = reload(s0, s1);
            store_sum!(s0, s1, [ab, cd, ef, gh], input);
        }
    }
    /// One compression of both lanes on the expanded schedule `w[0..80]`; `_ws` is not used.
    #[inline(never)]
    pub fn compress_constant(states: &mut [[u64; 8]], w: &[u64], _ws: &mut LaneWorkspace) {
        let [s0, s1] = states else {
            panic!("armv8-x2 takes two lanes");
        };
        let w: &[u64; 80] = w.try_into().expect("an 80-word schedule");
        let input = reload(s0, s1);
        let [mut ab, mut cd, mut ef, mut gh] = input;
        // Eight round pairs bring the roles back to where they started.
        for (g, words) in w.chunks_exact(16).enumerate() {
            let v: [uint64x2_t; 8] = core::array::from_fn(|i| load_u64x2(&words[2 * i..][..2]));
            two_rounds!(8 * g, v[0], v[0], ab, cd, ef, gh);
            two_rounds!(8 * g + 1, v[1], v[1], gh, ab, cd, ef);
            two_rounds!(8 * g + 2, v[2], v[2], ef, gh, ab, cd);
            two_rounds!(8 * g + 3, v[3], v[3], cd, ef, gh, ab);
            two_rounds!(8 * g + 4, v[4], v[4], ab, cd, ef, gh);
            two_rounds!(8 * g + 5, v[5], v[5], gh, ab, cd, ef);
            two_rounds!(8 * g + 6, v[6], v[6], ef, gh, ab, cd);
            two_rounds!(8 * g + 7, v[7], v[7], cd, ef, gh, ab);
        }
        store_sum!(s0, s1, [ab, cd, ef, gh], input);
    }
}
