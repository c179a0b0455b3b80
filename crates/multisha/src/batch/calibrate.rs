//! The planner's costs measured on the running CPU, twice per process and compression function,
//! the way Linux times its RAID-6 routines at boot and FFTW's planner measures in its MEASURE
//! mode; but only once the process's batch work makes the measurement cheap beside it. Until
//! then (and with measuring off) the kernels' declared estimates plan every batch: measuring
//! takes up to 2 ms, which a process's first batch of a few short messages (under a
//! microsecond of hashing) would otherwise pay. Each batch planned on the estimates counts its
//! predicted time one by one ([`account`]); when the count, this batch's included, reaches
//! [`WORK_PER_MEASUREMENT`] times the budget (100 ms), the batch's caller measures, before its
//! batch is planned again with the measured costs. [`measure_now`] measures on request
//! (`engine::calibrate`). Once the batch work planned on those costs takes as long again, and
//! at least [`WINDOWS_APART_MS`] after the first, a second measurement is made
//! ([`account_blocks`], [`measure_again`]) and each kernel keeps its cost from the window
//! where it ran faster ([`quieter`]): a neighbour on the same core comes and goes, and a
//! measurement made while it was busy would plan the process's every batch as if it always
//! were. Before the first, the estimates themselves are worked out only once the batch work
//! reaches [`ESTIMATES_FOR_WORK_NS`] (or one batch [`ESTIMATES_FOR_BATCH_NS`]): until then
//! batches go one by one ([`estimates_for`]).
//!
//! Each kernel runs small batches through the executor itself (so the costs include what
//! the executor adds: padding, digests, the lanes' set-up and wipe): a lane-full of
//! one-block messages (one group: one call of one step), twice as many (two groups), one
//! such message alone and a lane-full of one-block messages of different lengths (each
//! padded for its own length: the executor runs messages of one block shape side by side,
//! so this is what a ragged message costs beside others of its shape), and a lane-full of
//! two-block and one of nine-block ones (one group of two calls each: whole blocks, then
//! the tail), each repeated and the fastest run kept, the shapes and the kernels
//! interleaved. Six equations give the set-up, the cost per group, per call, per step, per
//! message of a full group and per message of its own length beside others. Two more shapes
//! check the model where the executor does more than those show: two lane-fulls of 1, 2 and
//! 3 blocks in turn, all lengths different, refill the lanes as messages end (what the
//! model leaves unexplained there is a part per message of a batch of differing lengths,
//! `refill`), and one and four lane-fulls of messages exactly a block long (64-byte Merkle
//! nodes), which the executor runs in groups of their own, their padding block through the
//! kernel's constant entry, give that path's set-up and time per message. The
//! single-message kernel has no set-up and one part per message: a one-block message, a
//! two-block one (two calls: the whole block, then the padding) and a nine-block one give
//! its call, step and message; where it has an entry for one-block messages, eight of them
//! (in one run) its time per such message, and where it declares two shapes of that entry,
//! both are timed so and the faster is installed. Each lane kernel's step then adds a ninth
//! of the nine-block runs' mean excess over their fastest (runs over twice it left out as
//! interrupted, and the slowest quarter of the rest): a neighbour on the same core slows
//! lanes bound by a unit's throughput more than a kernel bound by its latency, and the
//! fastest runs alone would favour the lanes. A
//! fit far from the kernel's declared estimate (a preempted run, a clock gone wrong) keeps
//! the estimate. Each kernel runs once untimed before its shapes in every round (a
//! lane-full of one-block messages, the first shape timed), so none is timed cold after
//! another kernel; a first round warms up and is not kept; the rounds stop before `BUDGET`
//! (2 ms: no round starts that would end past it), and after 25; a slower machine still
//! measures 3. The clock's own time (tens of nanoseconds a reading on a virtual machine) is
//! subtracted from every run.
//!
//! One thread measures; others calling meanwhile plan with the estimates and never wait
//! (the slot's once-published cells). `MULTISHA_CALIBRATE=0` (or `off`, `false`, `no`) turns
//! measuring off (reproducible plans), and so does a build without the `std` feature (no clock).

use crate::dispatch;
#[cfg(feature = "std")]
use crate::dispatch::Ladder;
use crate::hash_function::Registered;
use core::sync::atomic::{AtomicUsize, Ordering};
use multisha_plan::Costs;
use multisha_plan::shape::Shape;

/// Measuring waits until the batch work planned on the estimates, predicted one by one, is
/// this many times the measurement's budget (or one batch is that large): measuring then costs
/// at most a fiftieth of the batch work the process has done.
pub(crate) const WORK_PER_MEASUREMENT: u32 = 50;

/// The costs the planner of `A` uses now, and whether they were measured: published once
/// measured (or, with measuring off, estimated); until then, the estimates. Never measures.
pub(crate) fn costs<A: Registered>() -> (Costs, bool) {
    let mut first = None;
    let (costs, measured) = costs_in::<A>(&mut first);
    (*costs, measured)
}

/// The costs the planner of `A` uses now and whether they were measured, without copying the
/// published table (before the estimates are kept, worked out into `first`). Never measures:
/// [`account`] does, once the work pays for it.
#[inline]
fn costs_in<A: Registered>(first: &mut Option<(Costs, bool)>) -> (&Costs, bool) {
    match dispatch::published_costs::<A>() {
        Some((costs, measured)) => (costs, *measured),
        None => unmeasured::<A>(first),
    }
}

/// Until the declared estimates are worked out, a batch whose predicted time one by one (by
/// the single-message kernel's declared cost) is under this many nanoseconds goes one by one
/// without them, unless the batch work so far reaches [`ESTIMATES_FOR_WORK_NS`]: working them
/// out reads the registry and fills the planner's tables, a few microseconds the first time
/// (every line of it cold), which a process's first batch of a few short messages would pay
/// several times over. A batch this large can gain more than that on the lanes.
pub(crate) const ESTIMATES_FOR_BATCH_NS: f32 = 20_000.0;

/// The batch work, predicted one by one, after which the estimates are worked out whatever
/// the batch: a hundredth of it pays for them.
pub(crate) const ESTIMATES_FOR_WORK_NS: usize = 200_000;

/// The costs a batch of `shape` plans with before measured ones are published: the declared
/// estimates, or `None` where the batch goes one by one because the estimates are not worked
/// out yet and the batch and the work so far are too small to pay for them
/// ([`ESTIMATES_FOR_BATCH_NS`]). With `count` (a batch that runs, not one described), the
/// batch's work is counted. Inlined into the batch functions, and reading only the slot: in a
/// fresh process every code page a first batch reaches costs up to microseconds the first time
/// (a separate function here was one more minor fault, 3-4 us on a VM, in some processes'
/// first batch).
#[inline(always)]
pub(crate) fn estimates_for<'a, A: Registered>(
    shape: &Shape,
    first: &'a mut Option<(Costs, bool)>,
    count: bool,
) -> Option<(&'a Costs, bool)> {
    if let Some(estimates) = dispatch::estimates::<A>().get_ref() {
        return Some((estimates, false));
    }
    estimates_due_for::<A>(shape.segments, shape.blocks, shape.count, count)
        .then(|| unmeasured::<A>(first))
}

/// Whether a batch of `messages` messages in `segments` segments of `blocks` blocks pays for
/// working out the estimates ([`estimates_due`], by the single-message kernel's declared
/// cost); with `count`, its work is counted.
#[inline(always)]
pub(crate) fn estimates_due_for<A: Registered>(
    segments: usize,
    blocks: usize,
    messages: usize,
    count: bool,
) -> bool {
    let mut single = dispatch::single_declared_cost::<A>();
    if single.step == 0.0 {
        // Not installed: another thread held the slot while this one chose for itself.
        single = dispatch::single_variant::<A>().estimated_cost();
    }
    let work = single.time(segments, blocks, messages, 0);
    estimates_due(work, dispatch::batch_work::<A>(), count)
}

/// Whether a batch of `work_ns` (predicted one by one) pays for working out the estimates:
/// it is large ([`ESTIMATES_FOR_BATCH_NS`]), or the batch work counted in `work`, this
/// batch's added (to the count too, with `count`), reaches [`ESTIMATES_FOR_WORK_NS`]. (The
/// count is the one [`account`] adds to towards measuring: batch work all the same.)
fn estimates_due(work_ns: f32, work: &AtomicUsize, count: bool) -> bool {
    if work_ns >= ESTIMATES_FOR_BATCH_NS {
        return true;
    }
    let work_ns = work_ns as usize;
    let before = if count {
        work.fetch_add(work_ns, Ordering::Relaxed)
    } else {
        work.load(Ordering::Relaxed)
    };
    before.saturating_add(work_ns) >= ESTIMATES_FOR_WORK_NS
}

/// The costs before measured ones are published: the declared estimates, kept once worked
/// out; with measuring off, published for good.
#[cold]
#[inline(never)]
fn unmeasured<A: Registered>(first: &mut Option<(Costs, bool)>) -> (&Costs, bool) {
    if let Some(estimates) = dispatch::estimates::<A>().get_ref() {
        return (estimates, false);
    }
    let estimated = dispatch::estimated_costs::<A>();
    if enabled() {
        if let Some(claim) = dispatch::estimates::<A>().claim() {
            claim.publish(estimated);
        }
    } else if let Some(claim) = dispatch::costs::<A>().claim() {
        claim.publish((estimated, false));
        // No measurement is due, nor the second ([`pending`]).
        if let Some(claim) = dispatch::costs_again::<A>().claim() {
            claim.publish((estimated, false));
        }
    }
    (&first.insert((estimated, false)).0, false)
}

/// Counts `work_ns` (a batch planned on the estimates, predicted one by one) towards `A`'s
/// first measurement, and measures once the work counted, this batch's included, reaches
/// [`WORK_PER_MEASUREMENT`] times the measurement's budget: the measured costs then, for this
/// batch to be planned again (`None` while the estimates serve, or while another thread
/// measures). Called only while the first measurement is due.
#[cold]
#[inline(never)]
pub(crate) fn account<A: Registered>(work_ns: f32) -> Option<&'static (Costs, bool)> {
    let due = BUDGET_NS * WORK_PER_MEASUREMENT as usize;
    let work = (work_ns as usize).min(due);
    let before = dispatch::batch_work::<A>().fetch_add(work, Ordering::Relaxed);
    if before.saturating_add(work) < due {
        return None;
    }
    measure_now::<A>()
}

/// Counts `blocks` (a batch planned on the first measurement, whose single-message kernel
/// takes `step` ns a block) towards `A`'s second measurement, and makes it once the blocks
/// counted take as long one by one as the work that was due for the first (and the first is
/// [`WINDOWS_APART_MS`] old; else the count starts again): then the costs that plan from now
/// on (`None` before, or while another thread measures). Every batch counts until then, so
/// this is a few instructions: blocks, not the predicted time (the call and the arithmetic
/// were 2% of 13 x 32 B SHA-1 on `avx512-x16`), with a load and a store, not an atomic add
/// (threads that count at once may lose each other's blocks, which only puts the measurement
/// off).
#[inline(always)]
pub(crate) fn account_blocks<A: Registered>(
    blocks: usize,
    step: f32,
) -> Option<&'static (Costs, bool)> {
    let counter = dispatch::blocks_since_measured::<A>();
    let after = counter.load(Ordering::Relaxed).saturating_add(blocks);
    counter.store(after, Ordering::Relaxed);
    if (after as f32) * step < (BUDGET_NS * WORK_PER_MEASUREMENT as usize) as f32 {
        return None;
    }
    measure_again::<A>()
}

/// Whether a measurement of `A`'s costs is still due: the first (nothing published yet; with
/// measuring off, the estimates are published at the first batch call), or the second.
#[inline]
pub(crate) fn pending<A: Registered>() -> bool {
    // (With measuring off, the estimates are published as the second costs too: one load.)
    dispatch::costs_again::<A>().get_ref().is_none()
}

/// What measuring takes at most, in nanoseconds ([`measure()`]'s `BUDGET`).
const BUDGET_NS: usize = 2_000_000;

/// Measures `A`'s costs now and publishes them, unless they are published already (then
/// those), measuring is off, or another thread is measuring (then `None`: nobody waits).
pub(crate) fn measure_now<A: Registered>() -> Option<&'static (Costs, bool)> {
    let cell = dispatch::costs::<A>();
    if cell.get_ref().is_some() {
        return dispatch::published_costs::<A>();
    }
    #[cfg(feature = "std")]
    if enabled() {
        let claim = cell.claim()?;
        let estimated = dispatch::estimated_costs::<A>();
        let measured = measure::<A::Main>(&dispatch::ladder::<A>(), estimated);
        // Before it is published: a thread that sees the costs sees when they were measured.
        dispatch::first_measured_at::<A>().store(clock_ms(), Ordering::Relaxed);
        claim.publish((measured, true));
        return cell.get_ref();
    }
    None
}

/// Measures `A`'s costs a second time, once the first measurement is published, and
/// publishes each kernel's cost from the quieter of the two windows ([`quieter`]): those then
/// plan every batch. `None` where another thread is measuring (nobody waits) or the first
/// measurement is not published (measuring is off: the estimates serve for good).
///
/// On a shared machine a neighbour on the same core comes and goes in phases of tens to
/// hundreds of milliseconds (on an Intel Xeon of 2 vCPUs, two SHA-256 SHA-NI lanes ran 2 x 4 KiB
/// at 0.76 of one by one's time in quiet phases and 0.85-1.05 in busy ones, from one 10 ms to
/// the next, quiet about half the time), and a 2 ms measurement made in a busy one plans the
/// process's every batch as if the lanes were always that slow: SHA-256 2-9 messages of 4 and
/// 16 KiB went one by one in most of a grid's processes in a busy hour, 1.08-1.34 times the
/// two lanes' time (`regret --processes 9`), and 0.996-1.025 with two windows. Two windows as
/// far apart as the process's batch work takes, and at least [`WINDOWS_APART_MS`], each
/// kernel's quieter one kept, leave a busy measurement only where the neighbour is busy most
/// of the time, when planning for it is right. Asked too soon after the first, it starts the
/// count of blocks again and returns `None`.
#[cold]
#[inline(never)]
pub(crate) fn measure_again<A: Registered>() -> Option<&'static (Costs, bool)> {
    let cell = dispatch::costs_again::<A>();
    if let Some(costs) = cell.get_ref() {
        return Some(costs);
    }
    #[cfg(feature = "std")]
    if let Some(&(first, true)) = dispatch::costs::<A>().get_ref() {
        // (Stored before the first costs were published, so read after them.)
        let at = dispatch::first_measured_at::<A>().load(Ordering::Relaxed);
        if clock_ms().saturating_sub(at) < WINDOWS_APART_MS {
            // Likely the same phase of the neighbour as the first: the work counted again.
            dispatch::blocks_since_measured::<A>().store(0, Ordering::Relaxed);
            return None;
        }
        let claim = cell.claim()?;
        let estimated = dispatch::estimated_costs::<A>();
        let second = measure::<A::Main>(&dispatch::ladder::<A>(), estimated);
        claim.publish((quieter(first, second), true));
        return cell.get_ref();
    }
    None
}

/// The second measurement waits at least this long after the first, in milliseconds, as
/// well as for the work: a process that batches without pause does the work in about 30 ms,
/// within one phase of a neighbour that comes and goes in phases of 10-200 ms (an Intel Xeon
/// of 2 vCPUs), and two windows in one busy phase are no better than one.
#[cfg(feature = "std")]
const WINDOWS_APART_MS: usize = 250;

/// Milliseconds since the calibration's clock started (its first reading in the process).
#[cfg(feature = "std")]
fn clock_ms() -> usize {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let ms = START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_millis();
    usize::try_from(ms).unwrap_or(usize::MAX)
}

/// Of two measurements of the same kernels, each kernel's cost from the window where its
/// step was the shorter (the first's on a tie): a neighbour on the same core that comes and
/// goes may have slowed either window, and one unit more than another (the SHA unit, the
/// vector units), so the quieter window is chosen per kernel, as each shape's fastest run is
/// within a window. (The window of the lesser sum of lane steps, chosen whole, put SHA-256's
/// batches of 20 messages of 0-1 KiB on a slower kernel than `shani-x2` in most of a grid's
/// processes: the sum is the wide vector kernels', which a neighbour on the SHA unit leaves
/// alone.) The planner's tables are worked out afresh.
#[cfg(feature = "std")]
pub(crate) fn quieter(first: Costs, second: Costs) -> Costs {
    let mut costs = first;
    let (lanes, others) = (first.lane_kernels(), second.lane_kernels());
    for (k, (&(_, mine), &(_, other))) in lanes.iter().zip(others).enumerate() {
        if other.step < mine.step {
            costs.set_lanes(k, other);
        }
    }
    let single = if second.single_cost().step < first.single_cost().step {
        second.single_cost()
    } else {
        first.single_cost()
    };
    // (Last: it works every table out whole, where a lane kernel's only lowers them.)
    costs.set_single_cost(single);
    costs
}

/// Whether measuring is on: unless `MULTISHA_CALIBRATE` turns it off
/// ([`calibrate_setting`](crate::registry::env::calibrate_setting)); always off without the
/// `std` feature (no clock). Read once.
pub(crate) fn enabled() -> bool {
    #[cfg(feature = "std")]
    return crate::registry::env::calibrate_setting().unwrap_or(true);
    #[cfg(not(feature = "std"))]
    false
}

#[cfg(feature = "std")]
pub(crate) use measure::measure;

#[cfg(feature = "std")]
mod measure {
    use super::*;
    use crate::batch::executor;
    use crate::hash_function::HashFunction;
    use multisha_contract::{BlockBytes, Compression, Cost, MAX_LANES};
    use multisha_plan::{MAX_KERNELS, Plan, Runner};
    use std::time::{Duration, Instant};

    /// Measuring one compression function's kernels ends by then: no round starts that the
    /// last round's time says would end later (once [`MIN_ROUNDS`] have run).
    pub(crate) const BUDGET: Duration = Duration::from_nanos(BUDGET_NS as u64);

    /// Rounds at most, each running every shape on every kernel once: each shape's fastest
    /// run is kept, and every nine-block run (for [`Runs::typical`]); also what [`Runs`]
    /// holds at most.
    const ROUNDS: usize = 25;

    /// Rounds even past [`BUDGET`] (a machine so slow or busy that these take longer than the
    /// budget measures that much less precisely, never not at all).
    const MIN_ROUNDS: usize = 3;

    /// Message bytes: nine blocks of the widest block, all zero.
    static ZEROS: [u8; 9 * 128] = [0; 9 * 128];

    /// `estimated` with every kernel of `ladder` and the single-message kernel measured, in
    /// rounds until [`BUDGET`] (at least [`MIN_ROUNDS`], at most [`ROUNDS`]).
    ///
    /// The kernels take turns, one run of each shape each, round after round: a neighbour
    /// that takes the CPU for a while slows one round of every kernel (which the minimum
    /// drops, and the nine-block runs' mean counts unless it took over twice the fastest or
    /// is among the slowest quarter), never every run of one kernel (which would skew the
    /// comparison between them).
    pub(crate) fn measure<H: HashFunction>(
        ladder: &Ladder<H::Compression>,
        estimated: Costs,
    ) -> Costs {
        let start = Instant::now();
        let single = executor::OneByOneKernel::<H::Compression>::installed();
        // The two shapes of the single kernel's one-block entry, where it declares two: each
        // timed as `padded`, the faster installed (which one wins depends on the core: four
        // SHA-256 SHA-NI streams pipelined beat two on a Zen 4 and lose on an Intel Xeon).
        let entries = dispatch::single_entries::<H::Compression>();
        let shapes = entries.one_block.zip(entries.one_block_alternative);
        // Kernel 0 is the single-message one, kernel k + 1 lane kernel k.
        let kernels = 1 + ladder.len();
        let clock = clock_overhead();
        // The time of `messages` of `blocks` blocks on `kernel` (the single-message one: a
        // lane is one message).
        let time = |kernel: usize, messages: Messages, blocks: usize| match kernel {
            0 => one_by_one::<H>(single, blocks, clock),
            k => {
                let lanes = estimated.lane_kernels()[k - 1].0;
                on_lanes::<H>(ladder, k - 1, messages, lanes, blocks, clock)
            }
        };
        // Every shape on every kernel once, each kernel's fastest runs and every nine-block
        // run kept in `timings`.
        let round = |timings: &mut [Timings]| {
            for (kernel, timed) in timings.iter_mut().enumerate() {
                // The last kernel's code and branch history are in the way: a first run after
                // it took 5-9% longer (16 x 32 B SHA-1 on `avx512-x16`), which the set-up took
                // for its own, tilting near-ties towards one by one; a batch loop meets the
                // kernel warm. Not kept.
                time(kernel, Messages::Full(1), 1);
                timed.one = timed.one.min(time(kernel, Messages::Full(1), 1));
                if kernel == 0 {
                    timed.two = timed.two.min(time(kernel, Messages::Full(1), 2));
                    // Code no other shape runs: warmed up first, as the lanes' constant entries
                    // are (a cold run charges the fetch of its code, on SHA-256 `shani` a
                    // pipeline of its own, to every node).
                    let warm_then_time = |kernel| {
                        one_block_messages::<H>(kernel, clock);
                        one_block_messages::<H>(kernel, clock)
                    };
                    if let Some((default, alternative)) = shapes {
                        let time = warm_then_time(single.with_one_block(default));
                        timed.padded = timed.padded.min(time);
                        let time = warm_then_time(single.with_one_block(alternative));
                        timed.alternative = timed.alternative.min(time);
                    } else if single.has_one_block() {
                        timed.padded = timed.padded.min(warm_then_time(single));
                    }
                } else {
                    timed.two = timed.two.min(time(kernel, Messages::Full(2), 1));
                    timed.two_blocks = timed.two_blocks.min(time(kernel, Messages::Full(1), 2));
                    timed.lone = timed.lone.min(time(kernel, Messages::Lone, 1));
                    timed.uneven = timed.uneven.min(time(kernel, Messages::Uneven, 1));
                    // Its lane changes are branches no other shape takes: warmed up first
                    // (timed cold, SHA-256 `shani-x2`'s part per refilled message fitted 23-28
                    // ns, warm 13-20, on an Intel Xeon; a batch loop meets them warm).
                    time(kernel, Messages::Refills, 1);
                    timed.refills = timed.refills.min(time(kernel, Messages::Refills, 1));
                    // Its constant entry is code no other shape runs: warmed up first, as
                    // the first shape is (measured cold, the padded groups of `shani-x4`
                    // took 32 ns a message in some processes and 40 in others).
                    time(kernel, Messages::OneBlock(PADDED_GROUPS), 1);
                    timed.padded =
                        timed
                            .padded
                            .min(time(kernel, Messages::OneBlock(PADDED_GROUPS), 1));
                    // One lane-full of them too: with the four of `padded`, the set-up and
                    // the time per message of their groups (no lane tails to set up).
                    timed.nodes_one = timed.nodes_one.min(time(kernel, Messages::OneBlock(1), 1));
                }
                let nine = time(kernel, Messages::Full(1), 9);
                timed.nine = timed.nine.min(nine);
                timed.nine_runs.push(nine);
            }
        };
        // A first round warms the code, the data (every shape's buffers) and the vector units
        // up; not kept.
        round(&mut [Timings::NONE; 1 + MAX_KERNELS][..kernels]);
        let mut timings = [Timings::NONE; 1 + MAX_KERNELS];
        let (mut rounds, mut last) = (0, start.elapsed());
        while rounds < ROUNDS && (rounds < MIN_ROUNDS || start.elapsed() + last <= BUDGET) {
            let begun = Instant::now();
            round(&mut timings[..kernels]);
            last = begun.elapsed();
            rounds += 1;
        }
        if let Some((default, alternative)) = shapes
            && timings[0].alternative < timings[0].padded
        {
            timings[0].padded = timings[0].alternative;
            dispatch::install_one_block_alternative::<H::Compression>(default, alternative);
        }
        let mut costs = estimated;
        let block_len = <<H::Compression as Compression>::Block as BlockBytes>::LEN;
        let length_bytes = <H::Compression as Compression>::LENGTH_BYTES;
        costs.set_single_cost(timings[0].fit(
            estimated.single_cost(),
            None,
            block_len,
            length_bytes,
        ));
        for k in 0..ladder.len() {
            let (lanes, estimate) = estimated.lane_kernels()[k];
            let fitted = timings[k + 1].fit(estimate, Some(lanes), block_len, length_bytes);
            costs.set_lanes(k, fitted);
        }
        costs
    }

    /// How many messages a measurement runs.
    /// The longest of [`Messages::Uneven`]'s lengths, in bytes: the widest kernel's lanes
    /// fit below it (lengths down to 1), and every one of them pads into one block.
    const UNEVEN_LONGEST: usize = 32;

    const _: () = assert!(MAX_LANES <= UNEVEN_LONGEST);

    #[derive(Clone, Copy)]
    enum Messages {
        /// This many lane-fulls.
        Full(usize),
        /// One message alone in the lanes (the executor runs it as a part-filled group, so
        /// its part per message comes out as a group's; what a message of a ragged batch adds
        /// in a slot of its own is in `refill`).
        Lone,
        /// A lane-full of different lengths (one-block messages of 32, 31, ... bytes): no two
        /// equal, so none runs in a group.
        Uneven,
        /// Two lane-fulls of 1, 2 and 3 blocks in turn, no two of one length
        /// ([`refill_len`]): lanes refilled as their messages end, as a ragged batch runs.
        Refills,
        /// This many lane-fulls of messages of one block exactly (64-byte Merkle nodes): each
        /// a block, then the padding block they share, through the constant entry, in groups
        /// of their own (the executor's `one_block_groups`).
        OneBlock(usize),
    }

    impl Messages {
        /// Messages on a kernel of `lanes` lanes.
        fn count(self, lanes: usize) -> usize {
            match self {
                Self::Full(groups) => groups * lanes,
                Self::Lone => 1,
                Self::Uneven => lanes,
                Self::Refills => 2 * lanes,
                Self::OneBlock(groups) => groups * lanes,
            }
        }
    }

    /// A kernel's timings, in nanoseconds: the fastest run of each shape, `one`, a
    /// lane-full (one group, one call, one step); `two`, two lane-fulls (two groups, two
    /// calls, two steps); `two_blocks`, a lane-full of two-block messages (one group, two
    /// calls, two steps); `lone`, one message alone and `uneven`, a lane-full of different
    /// lengths (one call, one step, each message padded for its own length); `nine`, a
    /// lane-full of nine-block messages (one group, two calls, nine steps). `two_blocks`,
    /// `lone` and `uneven` are measured on lane kernels only; on the
    /// single-message kernel (a lane-full is one message) `two` is one two-block message (two
    /// calls, two steps), which tells its part per message from its part per call, and
    /// `padded` (where it has an entry for one-block messages) the time per such message; on
    /// a lane kernel `padded` is four lane-fulls of one-block messages and `nodes_one` one;
    /// `alternative` is `padded` through the other shape of the single kernel's entry.
    /// `nine_runs` holds every run of `nine`, for its typical time next to the fastest.
    #[derive(Clone, Copy)]
    struct Timings {
        one: f32,
        two: f32,
        two_blocks: f32,
        lone: f32,
        uneven: f32,
        nine: f32,
        nine_runs: Runs,
        refills: f32,
        padded: f32,
        alternative: f32,
        nodes_one: f32,
    }

    impl Timings {
        const NONE: Self = Self {
            one: f32::MAX,
            two: f32::MAX,
            two_blocks: f32::MAX,
            lone: f32::MAX,
            uneven: f32::MAX,
            nine: f32::MAX,
            nine_runs: Runs::NONE,
            refills: f32::MAX,
            padded: f32::MAX,
            alternative: f32::MAX,
            nodes_one: f32::MAX,
        };

        /// The cost that explains the fastest times (`lanes`: a lane kernel's; else the
        /// single-message kernel's, whose set-up is zero and whose part per message is the
        /// same either way), its step raised by a ninth of the nine-block runs' typical
        /// excess; or `estimate` when the fit is implausible.
        fn fit(
            self,
            estimate: Cost,
            lanes: Option<usize>,
            block_len: usize,
            length_bytes: usize,
        ) -> Cost {
            let Self {
                one,
                two,
                two_blocks,
                lone,
                uneven,
                nine,
                nine_runs,
                refills,
                padded,
                alternative: _,
                nodes_one,
            } = self;
            let cost = if let Some(lanes) = lanes {
                // What a step typically takes beyond its fastest run: the typical `nine` run's
                // excess over the fastest, spread over its nine steps. A neighbour on the same
                // core that comes and goes slows throughput-bound kernels (lanes sharing a SHA
                // or vector unit with it) far more than latency-bound ones: on the Intel Xeon
                // this was measured on, `shani-x2` SHA-256 ran a step in 83 ns alone and
                // 117-124 ns beside a busy neighbour (half the runs), `shani` 55 ns either way.
                // The fastest runs alone would plan for a CPU that is never shared. (Lane
                // kernels only: see the single-message kernel's fit below.)
                let contended = (nine_runs.typical(nine) - nine).max(0.0) / 9.0;
                // With L lanes, g per group, m per message of a group and r per message of
                // its own length beside others: one = s + g + c + p + Lm,
                // two = s + 2g + 2c + 2p + 2Lm, lone = s + g + c + p + r,
                // uneven = s + g + c + p + Lr, two_blocks = s + g + 2c + 2p + Lm,
                // nine = s + g + 2c + 9p + Lm. Without `two_blocks` (one group, two calls) a
                // group's part is inseparable from a call's, and a group of messages with a
                // tail (two calls) was charged it twice: 64 x 300 B SHA-256 on `shani-x4`
                // predicted 6.7 us, run in 5.7 (AMD Zen 4), and planned on `avx512-x32`.
                let full = lanes as f32;
                let ragged = ((uneven - lone) / (full - 1.0)).max(0.0);
                let message = ((one - lone + ragged) / full).max(0.0);
                let step = (nine - two_blocks) / 7.0;
                let call = (two_blocks - one - step).max(0.0);
                let group = (two - one - call - step - full * message).max(0.0);
                let setup = (one - group - call - step - full * message).max(0.0);
                // The two checks below against the fastest runs, so without the contention.
                let cost = Cost::new(setup, call, step)
                    .per_group(group)
                    .per_message(message)
                    .per_ragged_message(ragged);
                // Lanes refilled as messages of 1-3 blocks end: what the model leaves
                // unexplained there (the executor's work as a lane changes message: 35-50 ns
                // a message of 0-200 bytes on `shani-x2`, measured on an AMD EPYC Zen 4, where
                // one lane-full of one-block messages showed 15), spread over the messages of
                // batches of differing lengths (not over a partly filled group's, which do not
                // refill).
                let count = 2 * lanes;
                let predicted = multisha_plan::all_on_lanes_time(
                    lanes,
                    cost,
                    count,
                    |j| refill_len(j, block_len),
                    block_len,
                    length_bytes,
                );
                let refill = ((refills - predicted) / count as f32).max(0.0);
                // One-block messages in groups of their own: one lane-full and four give the
                // time per message (a neighbour's slowing of its two steps shared by the
                // lanes) and the set-up of that path, far less than the lane buffers'. (Those
                // groups were the measure of a shared padding block's step, when they ran
                // through the lane buffers; a step of it is now taken as any step.)
                let groups = PADDED_GROUPS as f32;
                let one_block = ((padded - nodes_one) / ((groups - 1.0) * full)).max(0.0);
                let one_block_setup = (nodes_one - full * one_block).max(0.0);
                Cost::new(setup, call, step + contended)
                    .per_group(group)
                    .per_message(message)
                    .per_ragged_message(ragged)
                    .per_refill(refill)
                    .per_one_block_message(one_block + 2.0 * contended / full)
                    .with_one_block_setup(one_block_setup)
            } else {
                // With m per message: one = c + p + m, two = 2c + 2p + m, nine = 2c + 9p + m.
                let step = (nine - two) / 7.0;
                let call = (two - one - step).max(0.0);
                // Below zero where a short message takes less than a block of a long one: a
                // long message's blocks wait for each other, while one message's rounds overlap
                // the next one's (SHA-1 `shani` on a Zen 4: 33.3 ns a block of a nine-block
                // message, 30.6 a one-block message). Held at zero, one by one was
                // overpriced by a tenth on short messages, and lanes won near-ties they lose.
                let message = one - call - step;
                // One-block messages through the kernel's entry for them (`padded`, measured
                // where it has one).
                let one_block = if padded < f32::MAX { padded } else { 0.0 };
                // The fastest runs, without the typical excess the lanes take: a neighbour
                // leaves this latency-bound kernel as it is (above), and on an Intel Xeon
                // (AMX generation) its nine-block runs came in two speeds within one
                // calibration (SHA-1 `shani`: 246 and 448 ns a message, alternating with the
                // lane kernels' runs; 243-275 alone, before and after), whose mean put one by
                // one 25% over its time and 7-9 x 32 B SHA-1 on `avx512-x16`, 1.2-1.5 times
                // slower.
                Cost::new(0.0, call, step)
                    .per_message(message)
                    .per_one_block_message(one_block)
            };
            let plausible = cost.step > estimate.step / 8.0 && cost.step < estimate.step * 8.0;
            if plausible { cost } else { estimate }
        }
    }

    /// The times of up to [`ROUNDS`] runs of one shape, in nanoseconds.
    #[derive(Clone, Copy)]
    struct Runs {
        times: [f32; ROUNDS],
        count: usize,
    }

    impl Runs {
        const NONE: Self = Self {
            times: [0.0; ROUNDS],
            count: 0,
        };

        /// Keeps `time` (past [`ROUNDS`] runs, which no measurement reaches, drops it).
        fn push(&mut self, time: f32) {
            if let Some(slot) = self.times.get_mut(self.count) {
                *slot = time;
                self.count += 1;
            }
        }

        /// The mean of the runs within twice the fastest one (`fastest`), the slowest quarter
        /// of those left out; `fastest` without runs. Two threads on one core are taken to
        /// slow each other's share of a unit at most twofold: a slower run counts as
        /// interrupted (preempted, a page fault), not slowed by a neighbour. A mean, not a
        /// median: with a neighbour busy half the time the median leaps between its busy and
        /// idle times from one measurement to the next. The slowest quarter out: a few runs
        /// at 1.5-2 times the fastest (1 to 3 of 5 to 11, SHA-512 `avx512-x8` on an Intel
        /// Xeon, a quiet machine) put up to 70 ns on a 290 ns step in some processes and none
        /// in others, which took 3 SHA-512 messages of 0-8 KiB one by one in half of them,
        /// 1.10 times slower than the lanes every one of them ran faster.
        fn typical(&self, fastest: f32) -> f32 {
            let mut within = self.times;
            let mut count = 0;
            for k in 0..self.count {
                if self.times[k] <= 2.0 * fastest {
                    within[count] = self.times[k];
                    count += 1;
                }
            }
            let within = &mut within[..count];
            within.sort_unstable_by(f32::total_cmp);
            let kept = &within[..count - count / 4];
            if kept.is_empty() {
                fastest
            } else {
                kept.iter().sum::<f32>() / kept.len() as f32
            }
        }
    }

    /// What timing nothing takes: the clock's own part of every measurement (tens of
    /// nanoseconds on a virtual machine), subtracted from each.
    fn clock_overhead() -> Duration {
        (0..16)
            .map(|_| Instant::now().elapsed())
            .min()
            .unwrap_or(Duration::ZERO)
    }

    /// Lane-fulls of one-block messages in the larger of the two shapes that measure their
    /// groups ([`Messages::OneBlock`]; the smaller has one).
    const PADDED_GROUPS: usize = 4;

    /// The bytes of message `j` of [`Messages::Refills`]: 1, 2 or 3 blocks in turn, `j` bytes
    /// over each length's least (so no two are equal, and the padding still fits the last
    /// block: `j` < 32).
    pub(super) fn refill_len(j: usize, block_len: usize) -> usize {
        (j % 3) * block_len + 1 + j
    }

    /// A message of `blocks` blocks with its padding: whole blocks, then one byte.
    fn message<H: HashFunction>(blocks: usize) -> &'static [u8] {
        let len = <<H::Compression as Compression>::Block as BlockBytes>::LEN;
        &ZEROS[..(blocks - 1) * len + 1]
    }

    /// Nanoseconds per message of `blocks` blocks, one by one through `single`.
    fn one_by_one<H: HashFunction>(
        single: executor::OneByOneKernel<H::Compression>,
        blocks: usize,
        clock: Duration,
    ) -> f32 {
        serial_time::<H>(single, message::<H>(blocks), clock)
    }

    /// Nanoseconds per message exactly one block long, one by one through `single`'s entry for
    /// such messages (eight in a row, as `serial` sends a run of them).
    fn one_block_messages<H: HashFunction>(
        single: executor::OneByOneKernel<H::Compression>,
        clock: Duration,
    ) -> f32 {
        let len = <<H::Compression as Compression>::Block as BlockBytes>::LEN;
        serial_time::<H>(single, &ZEROS[..len], clock)
    }

    /// Nanoseconds per message of eight copies of `message`, one by one through `single`.
    fn serial_time<H: HashFunction>(
        single: executor::OneByOneKernel<H::Compression>,
        message: &[u8],
        clock: Duration,
    ) -> f32 {
        const COUNT: usize = 8;
        let messages = [message; COUNT];
        let mut digests = [H::ZERO; COUNT];
        let start = Instant::now();
        executor::serial::<H, _, _>(single, &messages[..], &mut digests[..]);
        let elapsed = start.elapsed().saturating_sub(clock);
        core::hint::black_box(&digests);
        elapsed.as_nanos() as f32 / COUNT as f32
    }

    /// Nanoseconds per batch of `shape` (of `blocks`-block messages, or uneven one-block ones)
    /// on lane kernel `k` of `lanes` lanes.
    fn on_lanes<H: HashFunction>(
        ladder: &Ladder<H::Compression>,
        k: usize,
        shape: Messages,
        lanes: usize,
        blocks: usize,
        clock: Duration,
    ) -> f32 {
        const CALLS: usize = 2;
        let count = shape.count(lanes);
        let mut messages = [message::<H>(blocks); PADDED_GROUPS * MAX_LANES];
        match shape {
            Messages::Uneven => {
                // Longest first, as the executor takes them (no reordering to pay for here).
                for (j, message) in messages[..count].iter_mut().enumerate() {
                    *message = &ZEROS[..UNEVEN_LONGEST - j];
                }
            }
            Messages::Refills => {
                let block_len = <<H::Compression as Compression>::Block as BlockBytes>::LEN;
                for (j, message) in messages[..count].iter_mut().enumerate() {
                    *message = &ZEROS[..refill_len(j, block_len)];
                }
            }
            Messages::OneBlock(_) => {
                let block_len = <<H::Compression as Compression>::Block as BlockBytes>::LEN;
                messages.fill(&ZEROS[..block_len]);
            }
            Messages::Full(_) | Messages::Lone => {}
        }
        let mut digests = [H::ZERO; PADDED_GROUPS * MAX_LANES];
        let plan = Plan::all_on(Runner::Lanes(k), count, 0.0);
        let single = executor::OneByOneKernel::<H::Compression>::installed();
        let start = Instant::now();
        for _ in 0..CALLS {
            // SAFETY: the ladder holds kernels the CPU runs (checked when it was made).
            unsafe {
                executor::execute::<H, _, _>(
                    &plan,
                    ladder,
                    single,
                    &messages[..count],
                    &mut digests[..count],
                )
            };
        }
        let elapsed = start.elapsed().saturating_sub(clock);
        core::hint::black_box(&digests);
        elapsed.as_nanos() as f32 / CALLS as f32
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The times the shapes take under `cost` on `lanes` lanes (equal lengths in groups of
        /// a lane-full; a lone message and uneven lengths each in a group of their own, at
        /// the part per message of their own lengths).
        fn times(cost: Cost, lanes: usize) -> Timings {
            // On one lane (the single-message kernel) `two` is one two-block message, and
            // there are no groups.
            let (two_messages, two_groups) = if lanes == 1 { (1, 1) } else { (2 * lanes, 2) };
            Timings {
                one: cost.grouped_time(1, 1, 1, lanes, 0),
                two: cost.grouped_time(two_groups, 2, 2, two_messages, 0),
                two_blocks: match lanes {
                    1 => f32::MAX,
                    _ => cost.grouped_time(1, 2, 2, lanes, 0),
                },
                lone: cost.grouped_time(1, 1, 1, 0, 1),
                uneven: cost.grouped_time(1, 1, 1, 0, lanes),
                nine: cost.grouped_time(1, 2, 9, lanes, 0),
                nine_runs: Runs::NONE,
                // What the model predicts for the refilling shape (the single-message kernel
                // runs none).
                refills: match lanes {
                    1 => f32::MAX,
                    _ => refills(cost, lanes),
                },
                padded: match lanes {
                    1 => f32::MAX,
                    _ => multisha_plan::all_on_lanes_time(
                        lanes,
                        cost,
                        PADDED_GROUPS * lanes,
                        |_| 64,
                        64,
                        8,
                    ),
                },
                alternative: f32::MAX,
                nodes_one: cost.one_block_setup + (lanes as f32) * cost.one_block,
            }
        }

        /// The model's time for [`Messages::Refills`] on `lanes` lanes of `cost` (64-byte
        /// blocks, an 8-byte length).
        fn refills(cost: Cost, lanes: usize) -> f32 {
            multisha_plan::all_on_lanes_time(lanes, cost, 2 * lanes, |j| refill_len(j, 64), 64, 8)
        }

        #[test]
        fn the_fit_recovers_each_part_of_a_cost() {
            let estimate = Cost::new(100.0, 100.0, 150.0);
            for lanes in [2, 4, 8, 16] {
                let cost = Cost::new(146.0, 9.0, 182.0)
                    .per_group(33.0)
                    .per_message(12.0)
                    .per_ragged_message(25.0)
                    .per_refill(30.0)
                    .per_one_block_message(31.0)
                    .with_one_block_setup(40.0);
                let fitted = times(cost, lanes).fit(estimate, Some(lanes), 64, 8);
                for (part, got, want) in [
                    ("set-up", fitted.setup, cost.setup),
                    ("group", fitted.group, cost.group),
                    ("call", fitted.call, cost.call),
                    ("step", fitted.step, cost.step),
                    ("message", fitted.message, cost.message),
                    ("ragged", fitted.ragged, cost.ragged),
                    ("refill", fitted.refill, cost.refill),
                    ("one-block message", fitted.one_block, cost.one_block),
                    (
                        "one-block set-up",
                        fitted.one_block_setup,
                        cost.one_block_setup,
                    ),
                ] {
                    assert!((got - want).abs() < 0.01, "{lanes} lanes: {part} {got}");
                }
            }
            // The single-message kernel: a call, a step and a message, nothing per use.
            let single = Cost::new(0.0, 15.0, 42.0).per_message(9.0);
            let fitted = times(single, 1).fit(estimate, None, 64, 8);
            for (part, got, want) in [
                ("call", fitted.call, 15.0),
                ("step", fitted.step, 42.0),
                ("message", fitted.message, 9.0),
                ("ragged", fitted.ragged, 9.0),
                ("set-up", fitted.setup, 0.0),
            ] {
                assert!((got - want).abs() < 0.01, "single: {part} {got}");
            }
        }

        /// A lane kernel's step takes a ninth of the typical nine-block run's excess; the
        /// single-message kernel's does not (latency-bound: see its fit).
        #[test]
        fn a_typical_run_slower_than_the_fastest_adds_a_ninth_of_its_excess_to_each_lane_step() {
            let estimate = Cost::new(100.0, 100.0, 150.0);
            let lane_cost = Cost::new(146.0, 9.0, 182.0)
                .per_message(12.0)
                .per_ragged_message(25.0);
            let single_cost = Cost::new(0.0, 15.0, 42.0).per_message(9.0);
            for (cost, lanes) in [(lane_cost, Some(4)), (single_cost, None)] {
                let fastest = times(cost, lanes.unwrap_or(1));
                let plain = fastest.fit(estimate, lanes, 64, 8);
                let mut busy = fastest;
                // Without their slowest quarter (the two at 540 ns), these runs take 90 ns more
                // than the fastest on average, 10 ns a step (their median, 0 ns, would add
                // nothing); the preempted one, more than twice the fastest, does not count.
                let excesses = [
                    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 270.0, 270.0, 270.0, 540.0, 540.0,
                ];
                for excess in excesses.into_iter().chain([3000.0]) {
                    busy.nine_runs.push(fastest.nine + excess);
                }
                let fitted = busy.fit(estimate, lanes, 64, 8);
                let added = if lanes.is_some() { 10.0 } else { 0.0 };
                assert!((fitted.step - plain.step - added).abs() < 0.01, "{lanes:?}");
                let others = |c: Cost| (c.setup, c.call, c.message, c.ragged);
                assert_eq!(others(fitted), others(plain), "{lanes:?}");
            }
        }

        /// Where the lanes refill slower than the model predicts, the excess is each
        /// refilled message's; where they refill faster, nothing changes.
        #[test]
        fn refills_slower_than_the_model_add_to_each_refilled_message() {
            let estimate = Cost::new(100.0, 100.0, 150.0);
            let cost = Cost::new(146.0, 9.0, 182.0)
                .per_message(12.0)
                .per_ragged_message(25.0);
            for lanes in [2, 4, 8, 16] {
                let mut slow = times(cost, lanes);
                slow.refills += 40.0 * (2 * lanes) as f32;
                let fitted = slow.fit(estimate, Some(lanes), 64, 8);
                assert!((fitted.refill - 40.0).abs() < 0.01, "{lanes}");
                assert!(
                    (fitted.ragged - 25.0).abs() < 0.01,
                    "{lanes}: ragged unchanged"
                );
                assert_eq!(fitted.message, 12.0, "{lanes}: grouped messages unchanged");
                let mut fast = times(cost, lanes);
                fast.refills -= 100.0;
                let fitted = fast.fit(estimate, Some(lanes), 64, 8);
                assert_eq!(fitted.refill, 0.0, "{lanes}");
            }
        }

        #[test]
        fn an_implausible_fit_keeps_the_estimate() {
            let estimate = Cost::new(100.0, 100.0, 150.0);
            let far = Cost::new(0.0, 0.0, 150.0 * 9.0);
            assert_eq!(times(far, 4).fit(estimate, Some(4), 64, 8), estimate);
            // Runs so disturbed that the step comes out negative (nine-block messages timed
            // faster than two-block ones): the estimate, and no panic on the way.
            for lanes in [2, 4, 8, 16] {
                let mut disturbed = times(estimate, lanes);
                disturbed.two_blocks = disturbed.nine * 3.0;
                assert_eq!(disturbed.fit(estimate, Some(lanes), 64, 8), estimate);
            }
        }
    }
}

#[cfg(test)]
mod estimates_tests {
    use super::*;

    /// A process's small batches wait for their work to add up before the estimates are
    /// worked out; a large batch has them at once.
    #[test]
    fn estimates_are_due_for_a_large_batch_or_once_the_work_adds_up() {
        let work = AtomicUsize::new(0);
        for _ in 1..ESTIMATES_FOR_WORK_NS / 1_000 {
            assert!(!estimates_due(1_000.0, &work, true));
        }
        assert!(
            estimates_due(1_000.0, &work, true),
            "the work reached the threshold"
        );
        let fresh = AtomicUsize::new(0);
        assert!(!estimates_due(ESTIMATES_FOR_BATCH_NS - 1.0, &fresh, true));
        assert!(estimates_due(ESTIMATES_FOR_BATCH_NS, &fresh, true));
    }

    /// Of two measurements, each kernel's cost comes from the window where its step was the
    /// shorter, the single-message kernel's too; the first's on a tie.
    #[test]
    #[cfg(feature = "std")]
    fn each_kernel_keeps_its_cost_from_the_quieter_window() {
        use multisha_contract::Cost;
        let table = |single_step: f32, lane_steps: [f32; 2]| {
            let mut costs = Costs::single_only(Cost::new(0.0, 5.0, single_step));
            costs.push(2, Cost::new(60.0, 0.0, lane_steps[0]));
            costs.push(16, Cost::new(100.0, 20.0, lane_steps[1]));
            costs
        };
        let steps = |costs: &Costs| -> std::vec::Vec<f32> {
            let lanes = costs.lane_kernels().iter().map(|&(_, cost)| cost.step);
            core::iter::once(costs.single_cost().step)
                .chain(lanes)
                .collect()
        };
        // A neighbour on the SHA unit slowed the first window's two-lane kernel; one on the
        // vector units the second's sixteen lanes.
        let first = table(42.0, [93.0, 320.0]);
        let second = table(43.0, [65.0, 350.0]);
        assert_eq!(steps(&quieter(first, second)), [42.0, 65.0, 320.0]);
        assert_eq!(steps(&quieter(second, first)), [42.0, 65.0, 320.0]);
        // The tables follow the costs kept: as if measured so.
        let kept = quieter(first, second);
        let fresh = table(42.0, [65.0, 320.0]);
        for count in 2..=16 {
            for blocks in [1, 2, 5, 40] {
                assert_eq!(
                    kept.few_blocks_in(count, count * blocks),
                    fresh.few_blocks_in(count, count * blocks),
                    "{count} x {blocks} blocks"
                );
            }
        }
        // A tie keeps the first's.
        let tie = table(42.0, [93.0, 320.0]);
        let other = Cost::new(1.0, 1.0, 93.0);
        let mut tied = tie;
        tied.set_lanes(0, other);
        assert_eq!(quieter(tie, tied).lane_kernels()[0].1.setup, 60.0);
    }
}

#[cfg(all(test, feature = "std"))]
mod one_block_shape_tests {
    use super::*;
    use multisha_contract::Sha256Compression;

    /// The installed one-block entry, as an address.
    fn installed() -> Option<usize> {
        dispatch::installed_one_block::<Sha256Compression>().map(|f| f as usize)
    }

    /// Measuring leaves the single kernel's one-block entry on one of the shapes its variant
    /// declares (the faster where it declares two), and the calibration's install replaces
    /// only the shape it timed against. In a child process: it measures and installs, which
    /// the other tests of this binary must not see mid-way.
    #[test]
    fn measuring_installs_one_of_the_declared_one_block_shapes() {
        let name = "measuring_installs_one_of_the_declared_one_block_shapes";
        if !crate::tests::in_child(module_path!(), name) {
            return;
        }
        let _ = measure_now::<Sha256Compression>();
        let entries = dispatch::single_entries::<Sha256Compression>();
        let declared = [entries.one_block, entries.one_block_alternative]
            .map(|entry| entry.map(|f| f as usize));
        assert!(
            declared.contains(&installed()),
            "installed {:?}, declared {declared:?}",
            installed()
        );
        if let Some((default, alternative)) = entries.one_block.zip(entries.one_block_alternative) {
            let [(from, to), (other, _)] = if installed() == Some(default as usize) {
                [(default, alternative), (alternative, default)]
            } else {
                [(alternative, default), (default, alternative)]
            };
            // Expecting the shape that is not installed: nothing changes.
            dispatch::install_one_block_alternative::<Sha256Compression>(other, from);
            assert_eq!(installed(), Some(from as usize));
            dispatch::install_one_block_alternative::<Sha256Compression>(from, to);
            assert_eq!(installed(), Some(to as usize));
            let mut digests = [[0u8; 32]; 9];
            let nodes: [[u8; 64]; 9] = core::array::from_fn(|i| [i as u8; 64]);
            crate::sha256_pairs(&nodes, &mut digests);
            for (node, digest) in nodes.iter().zip(&digests) {
                assert_eq!(*digest, crate::sha256(node), "through the other shape");
            }
        }
    }
}
