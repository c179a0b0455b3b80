//! The batch planner: a pure function of the kernels' costs and the batch's message lengths
//! that picks the plan of least predicted time.
//!
//! A plan is at most three stages run one after the other. Each stage takes the next messages
//! in the order the executor starts them (longest first within each window) and runs them to
//! the end on one kernel: a lane kernel (refilling a lane as soon as its message ends), or the
//! single-message kernel, one message after the other. The candidates are: everything one by
//! one; everything on one lane kernel; and one lane kernel for the bulk with the last messages
//! (those that would leave its lanes partly idle) on another lane kernel, on one by one, or on
//! another lane kernel and then one by one. Each candidate's time is predicted from the costs
//! ([`Cost`]: per use, group, call, step, and per message in a group or in a slot of its own)
//! and the messages' blocks; the least wins, where of plans on lane kernels of different
//! widths a wider one must be predicted faster by [`WIDER_MARGIN`] ([`WIDEST_MARGIN`] on more
//! than 16 lanes), and the chosen one faster than one by one by [`LANES_MARGIN`].
//!
//! The prediction, for `m` messages of `T` blocks in all (padding included) on `w` lanes:
//! equal lengths run in groups of `w` (the last one partly filled), each one call per segment
//! (whole blocks, padded tail) and as many steps as one message has blocks; ragged lengths
//! (all in slots) take the steps the executor's lanes take, simulated where the planner sees
//! every message and there are at most two a lane or 16 in all ([`ragged_steps`]), else
//! bounded: `T / w` steps, plus the last message's blocks as the lanes drain
//! (longest-first list scheduling), and never fewer than the longest message's; with about
//! one call per segment (a call ends when any lane's segment does). One by one, every message
//! costs one call per segment and one step per block.
//!
//! The planning budget: the search (the last window read and sorted, every split predicted,
//! the lanes simulated) runs only where it costs at most [`PLANNING_SHARE`] of the batch's
//! predicted time; a smaller ragged batch takes the [`estimate`] from its totals, a few
//! nanoseconds a lane kernel, and the smallest go one by one on a sum of their blocks
//! ([`Costs::few_blocks`]) or, of differing lengths, on a table of their floors, the floors
//! or the estimate made once ([`Costs::few_ragged`]). Equal batches need no reading; their
//! plans are remembered.

use crate::costs::{Costs, lanes_hopeless};
use crate::plan::{Plan, Runner, Stage};
use crate::shape::{ROTATION_SLOTS, Shape, Tail, rotates};
use multisha_contract::{Cost, MAX_LANES};

/// A plan with lane kernels must be predicted to take at most this share of one by one's
/// time, or the batch goes one by one: the costs are measured on a shared machine and the
/// model is an approximation, so a predicted gain of a few percent can be a loss, while one
/// by one, the plan with nothing to set up, is what a caller would otherwise write. The
/// margin also forgoes gains up to its size, so it splits the model's error between the two
/// ways of being wrong: with a margin `m` and predictions off by `e`, lanes chosen end at
/// most `m (1 + 2e)` of one by one's time, and one by one kept at most `(1 + 2e) / m` of the
/// lanes'. At 0.975, lanes stay within 3% of one by one for `e` up to 2.8%, and one by one
/// within 5% of the lanes for `e` up to 1.2% (at 0.96: 3.6% and 0.4%).
pub const LANES_MARGIN: f32 = 0.975;

/// Between plans on lane kernels, one whose widest kernel has more lanes (up to 16) must be
/// predicted to take at most this share of the other's time to be chosen. Wider
/// kernels read more messages at once and refill more lanes as messages end, which the model
/// prices from small batches in the L1 cache: on an Intel Xeon (AMX generation), SHA-1 and
/// SHA-256 batches of 64-300 messages of 0-1 KiB and 0-8 KiB were predicted within 4% either
/// way on `avx512-x32` and `avx512-x16`, a near-tie that flipped between processes, and ran
/// 7-23% slower on `avx512-x32`. Where the wider kernel does gain (on an AMD Zen 4 and Zen 5,
/// 1.01-1.18 times the narrower's speed), only a gain predicted under the margin is forgone.
/// Against one by one, [`LANES_MARGIN`] alone applies; on more than 16 lanes,
/// [`WIDEST_MARGIN`] instead.
pub const WIDER_MARGIN: f32 = 0.975;

/// [`WIDER_MARGIN`] for a plan on more than 16 lanes against a narrower one (SHA-1 and
/// SHA-256 `avx512-x32`, two groups of sixteen): their model is the least sure of all. The
/// calibration's batches lie in the L1 cache, where 32 lanes read no more lines than 16; real
/// batches stream 32 messages at once. On an Intel Xeon (AMX generation) `avx512-x32` ran
/// SHA-1 at 0.95-0.99 times `avx512-x16`'s speed from 1 KiB messages on and 1.06 times at
/// 64-100 bytes, while measured costs predicted it 4% faster per block; SHA-1 batches of 300
/// messages of 0-1 KiB and 0-8 KiB went to it in half the processes and ran 10-15% slower
/// there (once the calibration left its runs' slowest quarter out). Where it gains more than
/// this margin (on an AMD Zen 4, 1.09-1.18 times on 64-byte nodes) it is still chosen; smaller
/// gains (Zen 4's 1.01-1.06 on long messages) are forgone.
pub const WIDEST_MARGIN: f32 = 0.95;

/// The widest lanes [`WIDER_MARGIN`] applies to; beyond, [`WIDEST_MARGIN`].
const ONE_GROUP_LANES: usize = 16;

/// The lanes of the widest lane kernel `plan` runs on (1: one by one only).
fn widest(costs: &Costs, plan: &Plan) -> usize {
    plan.stages()
        .map(|stage| match stage.runner {
            Runner::Lanes(k) => costs.lane_kernels()[k].0,
            Runner::OneByOne => 1,
        })
        .max()
        .unwrap_or(1)
}

/// Classes of plans on lane kernels by the lanes of their widest kernel: one per power of
/// two up to [`MAX_LANES`] (class `k`: `2^k` lanes).
const WIDTHS: usize = MAX_LANES.trailing_zeros() as usize + 1;

/// Whether plans of width class `class` run more than 16 lanes.
#[inline(always)]
fn two_groups(class: usize) -> bool {
    1 << class > ONE_GROUP_LANES
}

/// The least predicted times of the plans wider than the one at hand, of at most 16 lanes and
/// of more: the one rule for being beaten by a wider plan by its margin, which [`ByWidth`] and
/// the [`estimate`] both apply.
#[derive(Clone, Copy)]
struct Wider {
    one_group: f32,
    two_groups: f32,
}

impl Wider {
    const NONE: Self = Self {
        one_group: f32::INFINITY,
        two_groups: f32::INFINITY,
    };

    /// Whether a plan predicted at `time` stays chosen against these: none beats it by its
    /// margin ([`WIDER_MARGIN`], [`WIDEST_MARGIN`] on more than 16 lanes).
    #[inline(always)]
    fn unbeaten(&self, time: f32) -> bool {
        time * WIDER_MARGIN <= self.one_group && time * WIDEST_MARGIN <= self.two_groups
    }

    /// Adds a plan of width class `class` predicted at `time`.
    #[inline(always)]
    fn add(&mut self, class: usize, time: f32) {
        if two_groups(class) {
            self.two_groups = self.two_groups.min(time);
        } else {
            self.one_group = self.one_group.min(time);
        }
    }
}

/// Per width class, the least predicted time of the candidates on lane kernels kept, and the
/// choice among the classes: the narrowest that no wider one beats by its margin
/// ([`WIDER_MARGIN`], [`WIDEST_MARGIN`] on more than 16 lanes). So the choice takes at most a
/// narrower class's time and at most `1 / margin` times a wider one's, however many doublings
/// apart (a margin compounded per doubling, 2 lanes against 16 took 7.9%: SHA-1 5 x 4 KiB and
/// 5 x 16 KiB stayed on `shani-x2`, predicted 2-4% slower than on `avx512-x16` and measured
/// 5-7% slower, Intel Xeon). The search's choice; the [`estimate`] makes the same one in a
/// single pass over the kernels, widest first.
#[derive(Clone, Copy)]
struct ByWidth {
    /// Infinite where the class has no candidate.
    times: [f32; WIDTHS],
    /// The least of `times`.
    fastest: f32,
}

impl ByWidth {
    const NONE: Self = Self {
        times: [f32::INFINITY; WIDTHS],
        fastest: f32::INFINITY,
    };

    /// The width class of a plan whose widest kernel has `lanes` lanes.
    #[inline(always)]
    fn class(lanes: usize) -> usize {
        (lanes.trailing_zeros() as usize).min(WIDTHS - 1)
    }

    /// Keeps `predicted` as its class's time where it is the least so far (then true).
    #[inline(always)]
    fn keep(&mut self, class: usize, predicted: f32) -> bool {
        let kept = predicted < self.times[class];
        if kept {
            self.times[class] = predicted;
            self.fastest = self.fastest.min(predicted);
        }
        kept
    }

    /// The predicted time a candidate must be under to be chosen or to change the choice: the
    /// fastest over the smallest margin (a candidate that slow loses to the fastest if
    /// narrower, and if wider, beats no narrower class that the fastest does not).
    #[inline(always)]
    fn bound(&self) -> f32 {
        // A multiply: a division is some 11 cycles on the search's path.
        const SLACK: f32 = 1.0 / WIDEST_MARGIN;
        self.fastest * SLACK
    }

    /// The chosen class (the fastest's class at the latest), or none without candidates.
    #[inline(always)]
    fn chosen(&self) -> Option<usize> {
        let mut chosen = None;
        let mut wider = Wider::NONE;
        for class in (0..WIDTHS).rev() {
            let time = self.times[class];
            if time < f32::INFINITY && wider.unbeaten(time) {
                chosen = Some(class);
            }
            wider.add(class, time);
        }
        chosen
    }
}

/// The best of the candidate plans of some messages: plans on lane kernels, each kept only
/// where predicted under `limit` (one by one's time, with the margin the caller applies),
/// chosen among by [`ByWidth`]; one by one where none is kept.
struct Best {
    one_by_one: Plan,
    limit: f32,
    by_width: ByWidth,
    /// Each width class's fastest plan.
    plans: [Option<Plan>; WIDTHS],
}

impl Best {
    /// One by one's plan, and the share of its time a plan on lane kernels must stay under.
    #[inline(always)]
    fn new(one_by_one: Plan, margin: f32) -> Self {
        Self {
            one_by_one,
            limit: margin * one_by_one.predicted,
            by_width: ByWidth::NONE,
            plans: [None; WIDTHS],
        }
    }

    /// The predicted time a plan on lane kernels must be under to be chosen or to change
    /// the choice: the limit, and [`ByWidth::bound`].
    #[inline(always)]
    fn bound(&self) -> f32 {
        self.by_width.bound().min(self.limit)
    }

    /// `plan`, on lane kernels of at most `lanes` lanes.
    #[inline(always)]
    fn offer(&mut self, plan: Plan, lanes: usize) {
        let class = ByWidth::class(lanes);
        if plan.predicted < self.limit && self.by_width.keep(class, plan.predicted) {
            self.plans[class] = Some(plan);
        }
    }

    #[inline(always)]
    fn chosen(self) -> Plan {
        self.by_width
            .chosen()
            .and_then(|class| self.plans[class])
            .unwrap_or(self.one_by_one)
    }
}

/// Messages as the cost model counts them: how many, their blocks and segments in all, the
/// longest's blocks, the last one's (the shortest, in start order), and whether all have one
/// length (then `longest` and `last` are each one's blocks).
#[derive(Debug, Clone, Copy)]
struct Part {
    count: usize,
    blocks: usize,
    segments: usize,
    longest: usize,
    last: usize,
    equal: bool,
    /// Equal messages a whole number of blocks long: one padding block for all
    /// ([`Shape::shared_padding`]).
    shared_padding: bool,
    /// Where the messages are in the tail (`from..to`), when every one of them is there and
    /// lengths differ: their lanes are then simulated ([`ragged_steps`]), not bounded.
    known: Option<(usize, usize)>,
}

/// `n` divided by `lanes` (a power of two), rounded up (saturating: block sums of lengths no
/// slice can have are saturated already).
#[inline(always)]
fn per_lane(n: usize, lanes: usize) -> usize {
    n.saturating_add(lanes - 1) >> lanes.trailing_zeros()
}

impl Part {
    /// Whether its messages are of one length, exactly one block each (that block, then the
    /// padding block: two blocks): [`Shape::one_block_each`] of a part.
    fn one_block_each(&self) -> bool {
        self.equal && self.shared_padding && self.last == 2
    }

    /// Every message of `shape` (whose last messages are `tail`).
    fn all(shape: &Shape, tail: &Tail) -> Self {
        Part {
            count: shape.count,
            blocks: shape.blocks,
            segments: shape.segments,
            longest: shape.longest,
            last: shape.last_blocks(tail),
            equal: shape.equal,
            shared_padding: shape.equal && shape.shared_padding,
            known: (!shape.equal && shape.count == shape.tail_len()).then_some((0, shape.count)),
        }
    }

    /// Tail messages `from..to` of `shape`.
    #[inline]
    fn of_tail(shape: &Shape, tail: &Tail, from: usize, to: usize) -> Self {
        let (blocks, segments, longest, last, equal) = shape.tail_part(tail, from, to);
        Part {
            count: to - from,
            blocks,
            segments,
            longest,
            last,
            equal,
            shared_padding: shape.equal && shape.shared_padding,
            known: (!shape.equal).then_some((from, to)),
        }
    }
}

/// Predicted nanoseconds of `part` one by one.
#[inline]
fn single_time(cost: Cost, part: &Part) -> f32 {
    cost.one_by_one_time(
        part.segments,
        part.blocks,
        part.count,
        part.one_block_each(),
    )
}

/// Predicted nanoseconds of `part` (whose messages `tail` may hold: [`Part::known`]) on a
/// lane kernel of `lanes` lanes, to the end.
#[inline]
fn lanes_time(lanes: usize, cost: Cost, part: &Part, tail: &Tail) -> f32 {
    if part.count == 0 {
        return 0.0;
    }
    if part.equal {
        // A group of calls per `lanes` messages, one call per segment (all messages have 1,
        // or all 2), each message `last` blocks, the last group partly filled where the
        // lanes do not divide the count.
        let (each, segments) = (part.last, 1 + usize::from(part.segments > part.count));
        // Messages of one block each run in groups of their own (the executor's
        // `one_block_groups`), at the set-up and the time per message measured for that path:
        // the same measure as one by one's (`Cost::one_by_one_time`), so the two compare at
        // the rates each was measured at.
        if let (true, Some(time)) = (
            part.one_block_each(),
            cost.one_block_lanes_time(lanes, part.count),
        ) {
            return time;
        }
        // A shared padding block runs through the constant entry where enough messages wait
        // for its schedule's expansion to pay (the executor's `constant_pays`: three lanes'
        // worth besides the first group); then each group's last step is such a block.
        let padding = if part.shared_padding && part.count >= 4 * lanes {
            cost.step - cost.padding
        } else {
            0.0
        };
        if !rotates(each) || part.count <= lanes {
            let groups = per_lane(part.count, lanes);
            return cost.grouped_time(
                groups,
                groups * segments,
                groups.saturating_mul(each),
                part.count,
                0,
            ) - padding * groups as f32;
        }
        // Long messages: groups while two lanes' worth or exactly one is left, then the last
        // (between one and two lanes' worth) share the lanes by rotation and end together.
        let shift = lanes.trailing_zeros();
        let groups = (part.count >> shift).saturating_sub(1);
        let rest = part.count - (groups << shift);
        let (last_groups, calls, steps, alone) = if rest == lanes {
            (1, segments, each, 0)
        } else if rest > ROTATION_SLOTS {
            // More than the slots rotation can hold: two passes.
            (0, 2 * segments, each.saturating_mul(2), rest)
        } else {
            // The rotation re-decides every few blocks: about a call per message and segment.
            (
                0,
                rest * segments,
                per_lane(rest.saturating_mul(each), lanes).max(each),
                rest,
            )
        };
        return cost.grouped_time(
            groups + last_groups,
            groups * segments + calls,
            groups.saturating_mul(each).saturating_add(steps),
            part.count - alone,
            alone,
        ) - padding * groups as f32;
    }
    let steps = match part.known {
        // Few messages a lane, or few in all: where the bound overshoots most and simulating
        // costs least.
        Some((from, to)) if to - from <= (2 * lanes).max(SIMULATED) => {
            ragged_steps(tail, from, to, lanes)
        }
        _ => ragged_bound(part.count, part.blocks, part.last, part.longest, lanes),
    };
    cost.refilled_time(part.segments.min(steps), steps, part.count)
}

/// Ragged parts of at most this many messages (all seen) are simulated on the narrow kernels
/// too, not bounded: 7 SHA-256 messages of 0-8 KiB on two SHA-NI lanes take 310 steps, where
/// the bound said 336, and the planner split them into two stages on the same kernel (4, then
/// 3, each simulated), which ran 1.06 times all seven on it (an Intel Xeon).
const SIMULATED: usize = 16;

/// The predicted time of `count` messages of lengths `lens` (equal, or at most
/// [`Shape::TAIL`]: every one seen, the lanes simulated where the planner simulates them) all
/// on a lane kernel of `lanes` lanes and `cost`: the calibration's check of the model against
/// batches that refill the lanes or share a padding block.
pub fn all_on_lanes_time(
    lanes: usize,
    cost: Cost,
    count: usize,
    lens: impl Fn(usize) -> usize,
    block_len: usize,
    length_bytes: usize,
) -> f32 {
    let shape = Shape::new(count, &lens, block_len, length_bytes);
    debug_assert!(shape.equal || count <= Shape::TAIL);
    shape.with_tail(&lens, block_len, length_bytes, |tail| {
        lanes_time(lanes, cost, &Part::all(&shape, tail), tail)
    })
}

/// The steps of `count` ragged messages of `blocks` blocks in all, the last to start (the
/// shortest) of `last` and the longest of `longest`, on `lanes` lanes, bounded where the
/// planner does not see every message: an even share of all but the last, plus the last's
/// blocks as the lanes drain (longest-first list scheduling), never fewer than the longest's.
/// Exact where fewer than two lanes' worth all rotate ([`ragged_steps`]: the shortest is long
/// enough, so every one is, and the rotation holds them all): an even share of all, never
/// fewer than the longest's. (The bound there said 101 steps for 75, 47 and 40 blocks on 2
/// lanes, which take 81: on an Intel Xeon `shani-x2` took 4.35 us and one by one 5.58, and
/// the estimate called it a near-tie.)
#[inline]
fn ragged_bound(count: usize, blocks: usize, last: usize, longest: usize, lanes: usize) -> usize {
    if count < 2 * lanes && count <= ROTATION_SLOTS && rotates(last) {
        return per_lane(blocks, lanes).max(longest);
    }
    per_lane(blocks - last, lanes)
        .saturating_add(last)
        .max(longest)
}

/// The steps the executor takes for tail messages `from..to` (start order: longest first, not
/// all of one length) on `lanes` idle lanes: each lane takes the next message as soon as its
/// own ends, and once all lanes are busy with fewer than their number left to start, the
/// next of which is long enough ([`Tail::rotates`]), the rest start too and the lanes rotate
/// among them, ending all together after the longest's blocks or an even share of all,
/// whichever is more. The bound the planner uses where it does not see every message (an
/// even share plus the last message's blocks) overshoots most where there are few messages a
/// lane: 3 messages of 115, 85 and 23 blocks take 115 steps on 2 lanes, not 123.
pub fn ragged_steps(tail: &Tail, from: usize, to: usize, lanes: usize) -> usize {
    if to - from <= lanes {
        // All at once: the first is the longest.
        return tail.blocks(from);
    }
    let mut ends = [0usize; MAX_LANES];
    let ends = &mut ends[..lanes];
    for (end, i) in ends.iter_mut().zip(from..) {
        *end = tail.blocks(i);
    }
    let (mut next, mut now) = (from + lanes, 0);
    while next < to {
        let (lane, end) = ends
            .iter()
            .enumerate()
            .fold(
                (0, usize::MAX),
                |min, (lane, &end)| if end < min.1 { (lane, end) } else { min },
            );
        if end > now {
            // Every lane busy: where the executor decides whether the rest rotate.
            let waiting = to - next;
            if waiting < lanes && lanes + waiting <= ROTATION_SLOTS && tail.rotates(next) {
                let (mut total, mut longest) = (0, 0);
                let left = ends.iter().map(|&end| end - now);
                for blocks in left.chain((next..to).map(|i| tail.blocks(i))) {
                    total += blocks;
                    longest = longest.max(blocks);
                }
                return now + per_lane(total, lanes).max(longest);
            }
            now = end;
        }
        ends[lane] = now + tail.blocks(next);
        next += 1;
    }
    ends.iter().copied().max().unwrap_or(0)
}

/// One by one, when no lane kernel can win back its set-up: what it can save per block and
/// per segment (`savings`, with as many lanes filled as there are messages, at most all)
/// over the batch's blocks and segments is no more than the set-up. Needs only the batch's
/// totals, so most small batches are planned before their last messages are read; `None`
/// when the lanes may win ([`plan`] decides).
pub fn one_by_one_wins(costs: &Costs, shape: &Shape) -> Option<Plan> {
    let single = costs.single_cost().one_by_one_time(
        shape.segments,
        shape.blocks,
        shape.count,
        shape.one_block_each(),
    );
    let one_by_one = Plan::all_on(Runner::OneByOne, shape.count, single);
    if shape.count <= 1 {
        return Some(one_by_one);
    }
    // A lane kernel saves at most, per block, what a step of it costs less than as many
    // single steps as it has lanes filled (all, or one per message of a smaller batch), and
    // per segment what a single call costs more than its share of a call; it pays its set-up
    // once per use. Where that cannot win back the set-up, no plan with it can beat one by
    // one.
    let (blocks, segments) = (shape.blocks as f32, shape.segments as f32);
    // Messages of one block each run on the lanes in groups of their own, whose time was
    // measured: compared as it is.
    let kernels = costs.lane_kernels().iter().zip(costs.full_savings());
    let hopeless = kernels.into_iter().all(|(&kernel, &full)| {
        lanes_hopeless(
            costs.single_cost(),
            single,
            kernel,
            full,
            shape.count,
            blocks,
            segments,
            shape.one_block_each(),
        )
    });
    hopeless.then_some(one_by_one)
}

/// The plan of least predicted time for `count` messages of `lens` bytes (blocks of
/// `block_len` bytes, length fields of `length_bytes`) given `costs`: the totals first, the
/// last messages only when one by one does not win outright.
#[inline]
pub fn plan_for(
    costs: &Costs,
    count: usize,
    lens: impl Fn(usize) -> usize,
    block_len: usize,
    length_bytes: usize,
) -> Plan {
    let shape = Shape::new(count, &lens, block_len, length_bytes);
    plan_ragged(costs, &shape, lens, block_len, length_bytes)
}

/// [`plan_for`] once the totals are in `shape`: the plan of least predicted time, reading the
/// last messages (`lens`) only when one by one does not win outright, lengths differ, and the
/// search pays ([`PLANNING_SHARE`]); else the [`estimate`] from the totals.
#[inline]
pub fn plan_ragged(
    costs: &Costs,
    shape: &Shape,
    lens: impl Fn(usize) -> usize,
    block_len: usize,
    length_bytes: usize,
) -> Plan {
    if shape.equal {
        return plan(costs, shape, &Tail::EQUAL);
    }
    if let Some(estimate) = unsearched(costs, shape) {
        return estimate;
    }
    if let Some(plan) = one_by_one_wins(costs, shape) {
        return plan;
    }
    shape.with_tail(&lens, block_len, length_bytes, |tail| {
        search(costs, shape, tail)
    })
}

/// The [`estimate`] of a ragged batch of `shape` whose search would cost more than
/// [`PLANNING_SHARE`] of its predicted time, which is then its plan; `None` where the search
/// pays.
#[inline]
pub fn unsearched(costs: &Costs, shape: &Shape) -> Option<Plan> {
    let estimate = estimate(costs, shape);
    (search_ns(shape) > PLANNING_SHARE * estimate.predicted).then_some(estimate)
}

/// The planning budget: a ragged batch is searched (its last window read and sorted, the
/// splits of its last messages predicted, its lanes simulated) only where the search costs at
/// most this share of the batch's predicted time; smaller ones take the [`estimate`], which
/// costs a few nanoseconds a lane kernel. Equal batches need no reading and are remembered.
///
/// A hundredth, not a fiftieth: at 2% the search ran on 300 SHA-256 messages of 0-1 KiB (61 us
/// on `avx512-x16`) and on 64 of 0-8 KiB (94 us), cost them 1.0-1.4 us (with the pass over
/// the lengths) and chose what the estimate chooses, all on `avx512-x16`: 1.038-1.041 and
/// 1.021-1.023 times that plan pinned, 1.006-1.008 and 1.001-1.002 with the estimate (Intel
/// Xeon, `regret --processes 9`, with and without `-sha`). On ragged batches the last
/// messages fill the lanes the long ones free, which leaves a split of them little to gain
/// (40 SHA-256 messages of 1-4 KiB: the search's split 32 on `avx512-x16` and 8 one by one
/// took 39.7-46.6 us, all on `avx512-x16` 37.8-38.0).
pub const PLANNING_SHARE: f32 = 0.01;

/// What [`search`] costs on a ragged batch of `shape`, in nanoseconds: the last window's
/// lengths read and sorted, and a simulation per candidate of up to twice a kernel's lanes
/// (or [`SIMULATED`] messages). Measured on an AMD EPYC (Zen 4) with `cargo run --release -p
/// multisha --example batch_plan`: about 120 ns for 2 messages, 330 for 9, 500 for 24; a
/// slower core also hashes slower, so the share holds roughly. (On an Intel Xeon, 9 messages
/// where the search ran: 179-187 ns, 204-242 with the simulation up to 16 messages.)
#[inline]
fn search_ns(shape: &Shape) -> f32 {
    search_ns_of(shape.count)
}

/// [`search_ns`] of `count` messages.
#[inline]
pub(crate) fn search_ns_of(count: usize) -> f32 {
    let read = count.min(super::shape::WINDOW);
    100.0 + 16.0 * read as f32
}

/// The plan of least predicted time among one by one and all on one lane kernel, from the
/// batch's totals alone (count, blocks, segments, the longest and the shortest message): a
/// few nanoseconds a lane kernel. Ragged messages are bounded as `lanes_time` bounds them
/// where it does not see every message (an even share plus the shortest message's blocks, at
/// least the longest's), which can only overshoot: where it errs, it errs towards one by one.
#[inline]
pub fn estimate(costs: &Costs, shape: &Shape) -> Plan {
    let (runner, predicted) = estimated_runner(costs, shape);
    Plan::all_on(runner, shape.count, predicted)
}

/// [`estimate`]'s choice, what runs all of the batch and its predicted time: no [`Plan`] made
/// (one returned through memory, its fields stored one by one and then copied whole, cost a
/// store-forwarding stall: a quarter of the route's own time on 6 SHA-1 messages of 0-200
/// bytes, Intel Xeon).
#[inline(always)]
pub(crate) fn estimated_runner(costs: &Costs, shape: &Shape) -> (Runner, f32) {
    let Shape {
        count,
        blocks,
        segments,
        ..
    } = *shape;
    let one_by_one = costs.single_cost().time(segments, blocks, count, 0);
    let limit = LANES_MARGIN * one_by_one;
    // [`ByWidth`]'s choice in one pass, widest first: a kernel is kept where no wider one
    // beats it by the margin and it is narrower than the one kept, or as wide and faster.
    // (Each kernel's time stored by width and chosen among after, as the search does, the
    // estimate took 4-20 ns more, Intel Xeon; this way 3 ns less to 5 ns more than with the
    // margin compounded per doubling, one weight per kernel.)
    let mut chosen = (Runner::OneByOne, one_by_one);
    let mut chosen_width = usize::MAX;
    let mut wider = Wider::NONE;
    for &k in costs.widest_first() {
        let k = usize::from(k);
        let (width, cost) = costs.lane_kernels()[k];
        let whole = estimated_on_lanes(shape, width, cost);
        if whole < limit && wider.unbeaten(whole) && (width < chosen_width || whole < chosen.1) {
            (chosen, chosen_width) = ((Runner::Lanes(k), whole), width);
        }
        wider.add(ByWidth::class(width), whole);
    }
    chosen
}

/// The [`estimate`] of a ragged batch of `shape` all on a lane kernel of `width` lanes and
/// `cost`: all at once (the longest's steps) where the lanes hold them all, else bounded as
/// `lanes_time` bounds ragged messages it does not see.
#[inline(always)]
pub(crate) fn estimated_on_lanes(shape: &Shape, width: usize, cost: Cost) -> f32 {
    let steps = if shape.count <= width {
        shape.longest
    } else {
        ragged_bound(
            shape.count,
            shape.blocks,
            shape.shortest,
            shape.longest,
            width,
        )
    };
    cost.refilled_time(shape.segments.min(steps), steps, shape.count)
}

/// The plan of least predicted time for the batch `shape` with its last messages `tail`
/// ([`Shape::with_tail`]; [`Tail::EQUAL`] for an equal batch) given `costs`.
pub fn plan(costs: &Costs, shape: &Shape, tail: &Tail) -> Plan {
    if let Some(plan) = one_by_one_wins(costs, shape) {
        return plan;
    }
    search(costs, shape, tail)
}

/// [`plan`] without its shortcut: every candidate predicted and compared.
fn search(costs: &Costs, shape: &Shape, tail: &Tail) -> Plan {
    let all = Part::all(shape, tail);
    let one_by_one = Plan::all_on(
        Runner::OneByOne,
        all.count,
        single_time(costs.single_cost(), &all),
    );
    // Lanes within the model's error of one by one, which has no set-up to misjudge, are
    // not kept.
    let mut best = Best::new(one_by_one, LANES_MARGIN);
    for (k, &(width, cost)) in costs.lane_kernels().iter().enumerate() {
        let whole = lanes_time(width, cost, &all, tail);
        best.offer(Plan::all_on(Runner::Lanes(k), all.count, whole), width);
    }
    let mut tails = TailPlans::new(costs, shape, tail);
    let end = shape.tail_len();
    for (k, &(width, cost)) in costs.lane_kernels().iter().enumerate() {
        // Hand the last `rest` messages, which would leave lanes idle, to another plan: the
        // remainder of full groups, or (ragged lengths, where groups do not end together)
        // one more group's worth.
        let remainder = all.count & (width - 1);
        let candidates = [remainder, if all.equal { 0 } else { remainder + width }];
        for rest in candidates {
            if rest == 0 || rest >= all.count || rest > end {
                continue;
            }
            // No head on this kernel can win: its set-up and its share of the blocks.
            let floor = cost.setup + cost.step * per_lane(all.blocks - rest, width) as f32;
            if floor >= best.bound() {
                continue;
            }
            let last = Part::of_tail(shape, tail, end - rest, end);
            let head = Part {
                count: all.count - rest,
                blocks: all.blocks - last.blocks,
                segments: all.segments - last.segments,
                longest: all.longest,
                // The head's last message, or (when the tail is all the planner sees) one at
                // least as long as the tail's longest.
                last: if end > rest {
                    Part::of_tail(shape, tail, end - rest - 1, end - rest).last
                } else {
                    Part::of_tail(shape, tail, 0, 1).longest
                },
                equal: all.equal,
                shared_padding: all.shared_padding,
                known: all.known.map(|_| (0, end - rest)),
            };
            let first = lanes_time(width, cost, &head, tail);
            if first >= best.bound() {
                continue;
            }
            let rest_plan = tails.best(rest, best.bound() - first);
            if first + rest_plan.predicted < best.bound() {
                let mut plan = Plan::all_on(Runner::Lanes(k), head.count, first);
                for stage in rest_plan.stages() {
                    plan = plan.then(stage, 0.0);
                }
                plan.predicted += rest_plan.predicted;
                best.offer(plan, width.max(widest(costs, &rest_plan)));
            }
        }
    }
    best.chosen()
}

/// The best plans of the last messages, each found once.
struct TailPlans<'a> {
    costs: &'a Costs,
    shape: &'a Shape,
    tail: &'a Tail,
    found: [(usize, Plan); 8],
    len: usize,
}

impl<'a> TailPlans<'a> {
    fn new(costs: &'a Costs, shape: &'a Shape, tail: &'a Tail) -> Self {
        Self {
            costs,
            shape,
            tail,
            found: [(0, Plan::all_on(Runner::OneByOne, 0, 0.0)); 8],
            len: 0,
        }
    }

    /// The best plan of the last `rest` messages: one by one, on one lane kernel, or on one
    /// lane kernel and then its remainder one by one. Lane kernels whose set-up alone costs
    /// `bound` or more are not tried: the caller has a better plan already.
    fn best(&mut self, rest: usize, bound: f32) -> Plan {
        if let Some(&(_, plan)) = self.found[..self.len].iter().find(|f| f.0 == rest) {
            return plan;
        }
        let end = self.shape.tail_len();
        let (shape, tail) = (self.shape, self.tail);
        let part = Part::of_tail(shape, tail, end - rest, end);
        let costs = self.costs;
        let mut best = Best::new(
            Plan::all_on(
                Runner::OneByOne,
                rest,
                single_time(costs.single_cost(), &part),
            ),
            1.0,
        );
        for (k, &(width, cost)) in costs.lane_kernels().iter().enumerate() {
            if cost.setup >= bound.min(best.bound()) {
                continue;
            }
            let whole = lanes_time(width, cost, &part, tail);
            best.offer(Plan::all_on(Runner::Lanes(k), rest, whole), width);
            let last = rest & (width - 1);
            if last > 0 && last < rest {
                let head = Part::of_tail(shape, tail, end - rest, end - last);
                let on_lanes = lanes_time(width, cost, &head, tail);
                let alone = single_time(
                    costs.single_cost(),
                    &Part::of_tail(shape, tail, end - last, end),
                );
                let stage = Stage {
                    runner: Runner::OneByOne,
                    count: last,
                };
                best.offer(
                    Plan::all_on(Runner::Lanes(k), rest - last, on_lanes).then(stage, alone),
                    width,
                );
            }
        }
        let best = best.chosen();
        if self.len < self.found.len() {
            self.found[self.len] = (rest, best);
            self.len += 1;
        }
        best
    }
}

/// Every plan shape the executor must run right for `count` messages with `kernels` lane
/// kernels: all one by one; all on each kernel; each kernel for the first messages and, for
/// the last one, a few or half of them, another kernel or one by one; and three stages.
/// The planner picks among these; the tests run them all.
#[cfg(feature = "std")]
pub fn every_plan_shape(kernels: usize, count: usize) -> std::vec::Vec<Plan> {
    let runners = || (0..kernels).map(Runner::Lanes).chain([Runner::OneByOne]);
    let mut plans = std::vec::Vec::new();
    for first in runners() {
        plans.push(Plan::all_on(first, count, 0.0));
        let mut rests = [1, count / 2];
        rests.sort_unstable();
        for (i, &rest) in rests.iter().enumerate() {
            if rest == 0 || rest >= count || rests[..i].contains(&rest) {
                continue;
            }
            for second in runners() {
                let head = Plan::all_on(first, count - rest, 0.0);
                plans.push(head.then(
                    Stage {
                        runner: second,
                        count: rest,
                    },
                    0.0,
                ));
                if rest >= 2 && i == 1 {
                    let two = head.then(
                        Stage {
                            runner: second,
                            count: rest - 1,
                        },
                        0.0,
                    );
                    plans.push(two.then(
                        Stage {
                            runner: Runner::OneByOne,
                            count: 1,
                        },
                        0.0,
                    ));
                }
            }
        }
    }
    plans
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::costs::{FewRagged, blocks_below_setup};
    use crate::shape::{ROTATION_BLOCKS, message_blocks};

    /// The one-by-one threshold never claims a block on which the exact test says the set-up
    /// is won back, and falls short of the most it could claim by a block at most (the
    /// quotient rounded down; such a batch is planned in full instead), for savings from
    /// tiny to large.
    #[test]
    fn the_threshold_is_exactly_where_the_set_up_is_won_back() {
        let mut rng = TestRng::new(0x7e57);
        let over = |setup: f32, per_block: f32, per_segment: f32, blocks: usize| {
            per_block * blocks as f32 + per_segment * blocks as f32 > setup
        };
        for _ in 0..100_000 {
            let setup = rng.below(2_000) as f32 + rng.below(1_000) as f32 / 997.0;
            let scale = [1e-3, 1e-2, 1.0, 100.0][rng.below(4)];
            let per_block = rng.below(1_000) as f32 * scale / 1_000.0;
            let per_segment = rng.below(1_000) as f32 * scale / 1_000.0;
            let blocks = blocks_below_setup(setup, (per_block, per_segment));
            if per_block + per_segment <= 0.0 {
                assert_eq!(blocks, usize::MAX);
                continue;
            }
            assert!(
                blocks == 0 || !over(setup, per_block, per_segment, blocks),
                "{blocks} blocks claimed: {setup} {per_block} {per_segment}"
            );
            assert!(
                blocks == 1 << 20 || over(setup, per_block, per_segment, blocks + 2),
                "{blocks} + 2 not won: {setup} {per_block} {per_segment}"
            );
        }
    }
    use multisha_contract::harness::TestRng;
    use std::string::String;
    use std::vec::Vec;

    /// Synthetic cost tables of CPU classes, SHA-1 or SHA-256 shaped (64-byte blocks):
    /// `(name, costs, names of the lane kernels)`.
    fn tables() -> [(&'static str, Costs, &'static [&'static str]); 4] {
        // As measured: a call costs little next to the message's set-up, padding and digest.
        let single = Cost::new(0.0, 2.0, 31.0).per_message(14.0);
        // One SHA-NI unit and full-width AVX-512: four SHA-NI streams cost four times one.
        let mut intel = Costs::single_only(single);
        let intel_lanes = |setup, call, step, message, ragged| {
            Cost::new(setup, call, step)
                .per_message(message)
                .per_ragged_message(ragged)
        };
        intel.push(16, intel_lanes(200.0, 0.0, 160.0, 12.0, 22.0));
        intel.push(4, intel_lanes(250.0, 20.0, 124.0, 8.0, 15.0));
        intel.push(8, intel_lanes(300.0, 0.0, 240.0, 10.0, 20.0));
        intel.push(2, Cost::new(150.0, 20.0, 62.0));
        // SHA-NI on several units, AVX-512 as two halves: four streams cost little more than
        // one, sixteen AVX-512 lanes twice what they cost on Intel.
        let mut zen = Costs::single_only(single);
        zen.push(16, Cost::new(200.0, 150.0, 320.0));
        zen.push(4, Cost::new(250.0, 50.0, 40.0));
        zen.push(8, Cost::new(300.0, 80.0, 240.0));
        zen.push(2, Cost::new(150.0, 20.0, 34.0));
        let mut avx2 = Costs::single_only(Cost::new(0.0, 12.0, 60.0));
        avx2.push(8, Cost::new(300.0, 80.0, 240.0));
        let portable = Costs::single_only(Cost::new(0.0, 10.0, 100.0));
        [
            (
                "intel-like",
                intel,
                &["avx512-x16", "shani-x4", "avx2-x8", "shani-x2"],
            ),
            (
                "zen-like",
                zen,
                &["avx512-x16", "shani-x4", "avx2-x8", "shani-x2"],
            ),
            ("avx2 only", avx2, &["avx2-x8"]),
            ("no simd", portable, &[]),
        ]
    }

    fn shape(lens: &[usize]) -> (Shape, Tail) {
        let shape = Shape::new(lens.len(), |i| lens[i], 64, 8);
        let tail = shape.with_tail(|i| lens[i], 64, 8, Tail::clone);
        (shape, tail)
    }

    /// A ragged batch of at most [`SIMULATED`] messages (every one seen) is predicted on each
    /// lane kernel from its simulated steps, not the bound: with the bound on two and four
    /// lanes, the planner split such batches into two stages on the same kernel (99 of 8,000
    /// random batches of 5-16 messages on these tables, 1 with the simulation), which drain
    /// the lanes between them.
    #[test]
    fn few_ragged_messages_are_simulated_on_every_kernel() {
        let mut rng = TestRng::new(0x5151);
        for (_, costs, _) in tables() {
            for _ in 0..500 {
                let count = 2 + rng.below(SIMULATED - 1);
                let mut lens: Vec<usize> = (0..count).map(|_| rng.below(8193)).collect();
                lens[count - 1] = lens[0] + 1;
                let (shape, tail) = shape(&lens);
                for &(lanes, cost) in costs.lane_kernels() {
                    let steps = ragged_steps(&tail, 0, count, lanes);
                    let simulated = cost.refilled_time(shape.segments.min(steps), steps, count);
                    let predicted = all_on_lanes_time(lanes, cost, count, |i| lens[i], 64, 8);
                    assert_eq!(predicted, simulated, "{lens:?} on {lanes} lanes");
                }
            }
        }
    }

    fn plan_of(costs: &Costs, lens: &[usize]) -> Plan {
        let (shape, tail) = shape(lens);
        plan(costs, &shape, &tail)
    }

    /// The plan in kernel names: `[(name, count)]`.
    fn named(plan: &Plan, names: &[&str]) -> Vec<(String, usize)> {
        plan.stages()
            .map(|s| {
                let name = match s.runner {
                    Runner::OneByOne => "one by one".into(),
                    Runner::Lanes(k) => names[k].into(),
                };
                (name, s.count)
            })
            .collect()
    }

    fn the(table: &str) -> (Costs, &'static [&'static str]) {
        let (_, costs, names) = tables()
            .into_iter()
            .find(|t| t.0 == table)
            .expect("a table");
        (costs, names)
    }

    #[test]
    fn the_cpu_class_decides_the_kernel() {
        let seven = [4096; 7];
        let (intel, names) = the("intel-like");
        assert_eq!(
            named(&plan_of(&intel, &seven), names),
            [("avx512-x16".into(), 7)]
        );
        let (zen, names) = the("zen-like");
        let zen_plan = named(&plan_of(&zen, &seven), names);
        assert!(
            zen_plan.iter().all(|(name, _)| name.starts_with("shani")),
            "{zen_plan:?}"
        );
        let (avx2, names) = the("avx2 only");
        assert_eq!(
            named(&plan_of(&avx2, &seven), names),
            [("avx2-x8".into(), 7)]
        );
        let (portable, names) = the("no simd");
        assert_eq!(
            named(&plan_of(&portable, &seven), names),
            [("one by one".into(), 7)]
        );
    }

    #[test]
    fn small_batches_go_one_by_one_and_large_ones_on_the_lanes() {
        for (table, costs, names) in tables() {
            for lens in [&[64usize][..], &[0], &[32, 32], &[100, 10]] {
                let plan = plan_of(&costs, lens);
                assert_eq!(
                    named(&plan, names),
                    [("one by one".into(), lens.len())],
                    "{table}: {lens:?}"
                );
            }
            let many = plan_of(&costs, &[1024; 256]);
            let first = many.stages().next().expect("a stage");
            assert_eq!(
                first.runner == Runner::OneByOne,
                costs.len == 0,
                "{table}: lanes for 256 x 1 KiB when there are any"
            );
        }
    }

    #[test]
    fn thirty_two_lanes_run_where_their_measured_step_is_cheaper() {
        // Sixteen AVX-512 lanes, and two interleaved groups of sixteen at the step a CPU
        // measured for them.
        let with_x32 = |step: f32| {
            let mut costs = Costs::single_only(Cost::new(0.0, 2.0, 31.0).per_message(14.0));
            costs.push(16, Cost::new(200.0, 0.0, 300.0).per_message(12.0));
            costs.push(32, Cost::new(300.0, 0.0, step).per_message(12.0));
            costs
        };
        let names = &["avx512-x16", "avx512-x32"][..];
        let long = [16384; 64];
        // Full width on four pipes (Zen 5): 16.3 ns a block against 18.8.
        let wide = with_x32(520.0);
        assert_eq!(
            named(&plan_of(&wide, &long), names),
            [("avx512-x32".into(), 64)]
        );
        // Double-pumped or port-bound (Zen 4, Intel): no faster than sixteen lanes.
        assert_eq!(
            named(&plan_of(&with_x32(640.0), &long), names),
            [("avx512-x16".into(), 64)]
        );
        // Too few to fill thirty-two lanes: sixteen, and the rest elsewhere.
        let twenty = named(&plan_of(&wide, &[16384; 20]), names);
        assert!(
            twenty.iter().all(|(name, _)| name != "avx512-x32"),
            "{twenty:?}"
        );
        // Left out (messages whose addresses alias in the cache): sixteen lanes, whatever
        // the thirty-two cost.
        let narrowed = wide.without_lanes_over(16);
        assert_eq!(
            named(&plan_of(&narrowed, &long), names),
            [("avx512-x16".into(), 64)]
        );
        assert_eq!(
            narrowed.lane_kernels()[0],
            wide.lane_kernels()[0],
            "the others kept"
        );
    }

    #[test]
    fn the_rest_that_would_leave_lanes_idle_moves_on() {
        // 17 messages on 16 lanes: the 17th alone would take a second pass of the 16 lanes.
        let (intel, names) = the("intel-like");
        let plan = plan_of(&intel, &[2048; 17]);
        let stages = named(&plan, names);
        assert_eq!(stages[0], ("avx512-x16".into(), 16), "{stages:?}");
        assert_eq!(stages.iter().map(|s| s.1).sum::<usize>(), 17);
    }

    /// `head` messages of `short` bytes, then `tail` longer ones of differing lengths (4 KiB
    /// up, 640 bytes apart): the ragged shapes the search's candidates are tested on.
    fn short_then_long(short: usize, head: usize, tail: usize) -> Vec<usize> {
        (0..head)
            .map(|_| short)
            .chain((0..tail).map(|i| 4096 + 640 * i))
            .collect()
    }

    /// A shape found by [`one_more_group_handed_over`]: its table, its lengths, its plan.
    type Found = (&'static str, Vec<usize>, Vec<(String, usize)>);

    /// The ragged shapes (short messages, then longer ones of differing lengths) whose plan
    /// starts on a lane kernel and hands it the last `remainder + width` messages: one more
    /// group than the remainder of full groups, as `(table, lens, plan)`.
    fn one_more_group_handed_over() -> Vec<Found> {
        let mut found = Vec::new();
        for (table, costs, names) in tables() {
            for short in [64, 1024] {
                for head in 1..40 {
                    for tail in 1..20 {
                        let lens = short_then_long(short, head, tail);
                        let plan = plan_of(&costs, &lens);
                        let first = plan.stages().next().expect("a stage");
                        let Runner::Lanes(k) = first.runner else {
                            continue;
                        };
                        let width = costs.lanes[k].0;
                        let rest = lens.len() - first.count;
                        if rest == (lens.len() & (width - 1)) + width {
                            found.push((table, lens, named(&plan, names)));
                        }
                    }
                }
            }
        }
        found
    }

    #[test]
    fn ragged_batches_may_hand_over_one_more_group() {
        // The search's second candidate for ragged lengths: without it none of these shapes
        // finds such a plan.
        let found = one_more_group_handed_over();
        assert!(
            !found.is_empty(),
            "no ragged shape hands over one more group"
        );
        // One found: four short then four long messages on zen-like costs, the long ones one
        // by one instead of a second round of shani-x4 in which the short lanes idle.
        assert!(found.iter().any(|(table, lens, plan)| *table == "zen-like"
            && lens.len() == 8
            && *plan == [("shani-x4".into(), 4), ("one by one".into(), 4)]));
    }

    #[test]
    fn the_last_messages_may_split_into_lanes_and_one_by_one() {
        // Three stages come only from the tail's best plan splitting its own remainder off
        // (lanes, then the rest one by one): some ragged shape must find one.
        let three = tables().into_iter().any(|(_, costs, _)| {
            (1..40).any(|head| {
                (1..20).any(|tail| {
                    let plan = plan_of(&costs, &short_then_long(1024, head, tail));
                    let runners: Vec<Runner> = plan.stages().map(|s| s.runner).collect();
                    matches!(
                        runners[..],
                        [Runner::Lanes(_), Runner::Lanes(_), Runner::OneByOne]
                    )
                })
            })
        });
        assert!(three, "no shape plans lanes, lanes, then one by one");
    }

    /// The predicted time of every message on one runner.
    fn alone(costs: &Costs, (shape, tail): &(Shape, Tail), runner: Runner) -> f32 {
        let all = Part::all(shape, tail);
        match runner {
            Runner::OneByOne => single_time(costs.single_cost(), &all),
            Runner::Lanes(k) => lanes_time(costs.lanes[k].0, costs.lanes[k].1, &all, tail),
        }
    }

    #[test]
    fn the_plan_is_never_predicted_slower_than_any_kernel_alone() {
        let mut rng = TestRng::new(0x91a4);
        for (table, costs, _) in tables() {
            for round in 0..2000 {
                let count = 1 + rng.below(if round % 2 == 0 { 40 } else { 400 });
                let most = [64, 300, 4096, 16384][rng.below(4)];
                let equal = rng.below(3) == 0;
                let first = rng.below(most);
                let lens: Vec<usize> = (0..count)
                    .map(|_| if equal { first } else { rng.below(most + 1) })
                    .collect();
                let shape = shape(&lens);
                let chosen = plan(&costs, &shape.0, &shape.1);
                assert_eq!(chosen.stages().map(|s| s.count).sum::<usize>(), count);
                let runners = (0..costs.len).map(Runner::Lanes).chain([Runner::OneByOne]);
                // One by one may be kept against a kernel predicted faster by the margin, and
                // narrower lanes against wider ones by the wider one's width margin (the
                // chosen plan's widest kernel against the other's), never more.
                let one_by_one = chosen.stages().all(|s| s.runner == Runner::OneByOne);
                let chosen_lanes = widest(&costs, &chosen);
                for runner in runners {
                    let other = alone(&costs, &shape, runner);
                    let slack = match runner {
                        Runner::Lanes(_) if one_by_one => 1.0 / LANES_MARGIN,
                        Runner::Lanes(k) if costs.lanes[k].0 > chosen_lanes => {
                            if two_groups(ByWidth::class(costs.lanes[k].0)) {
                                1.0 / WIDEST_MARGIN
                            } else {
                                1.0 / WIDER_MARGIN
                            }
                        }
                        _ => 1.0,
                    };
                    assert!(
                        chosen.predicted <= other * slack * 1.0001,
                        "{table}: {count} messages: {chosen} against {runner:?} {other}"
                    );
                }
                // The shortcuts must never skip a plan the search would choose; the one for
                // callers without a shape (blocks summed message by message) is the same.
                let surely = costs.few_blocks(&shape.0);
                let blocks = lens.iter().map(|&len| message_blocks(len, 64, 8).0).sum();
                assert_eq!(
                    costs.few_blocks_in(count, blocks),
                    surely,
                    "{table}: {lens:?}"
                );
                if surely || one_by_one_wins(&costs, &shape.0).is_some() {
                    let searched = search(&costs, &shape.0, &shape.1);
                    assert!(
                        searched.stages().all(|s| s.runner == Runner::OneByOne),
                        "{table}: {count} messages of {} blocks: the bound says one by one, \
                         the search {searched}",
                        shape.0.blocks
                    );
                }
            }
        }
    }

    /// [`Costs::few_one_block_in`], what the batch functions ask of a few one-block messages
    /// before any shape, answers as [`one_by_one_wins`] does for them, on random costs with and
    /// without one-block entries (single kernel and lanes), both answers occurring; past
    /// [`FEW_ONE_BLOCK`] messages it leaves the batch to the planner.
    #[test]
    fn the_one_by_one_answer_for_few_one_block_messages_is_the_bounds() {
        use crate::costs::FEW_ONE_BLOCK;
        let mut rng = TestRng::new(0x0b10c);
        let mut part = |most: usize| rng.below(most) as f32 + rng.below(100) as f32 / 97.0;
        let (mut settled, mut open) = (0, 0);
        for round in 0..400 {
            let single = Cost::new(0.0, part(20), 20.0 + part(60))
                .per_message(part(30) - 5.0)
                .per_one_block_message(if round % 2 == 0 { 0.0 } else { 20.0 + part(80) });
            let mut costs = Costs::single_only(single);
            for lanes in [2, 4, 8, 16, 32] {
                let one_block = if round % 3 == 0 { 0.0 } else { 5.0 + part(60) };
                let cost = Cost::new(part(400), part(100), lanes as f32 * (5.0 + part(40)))
                    .per_one_block_message(one_block)
                    .with_one_block_setup(part(150));
                costs.push(lanes, cost);
            }
            for count in 0..=FEW_ONE_BLOCK + 2 {
                let (shape, _) = shape(&std::vec![64; count]);
                let bound = one_by_one_wins(&costs, &shape).is_some();
                let answer = costs.few_one_block_in(count);
                if count <= FEW_ONE_BLOCK {
                    assert_eq!(answer, bound, "{count} one-block messages, {costs:?}");
                    if count > 1 {
                        if answer { settled += 1 } else { open += 1 }
                    }
                } else {
                    assert!(!answer, "{count} one-block messages are the planner's");
                }
            }
        }
        assert!(
            settled > 50 && open > 50,
            "{settled} settled, {open} left to the planner"
        );
    }

    /// 40 cost tables with every part of every cost drawn (from `seed`), a call cost below
    /// zero in every fourth (a fit can give one).
    fn random_tables(seed: u64) -> Vec<Costs> {
        let mut rng = TestRng::new(seed);
        let mut part = |most: usize| rng.below(most) as f32 + rng.below(100) as f32 / 97.0;
        (0..40)
            .map(|table| {
                let single = Cost::new(0.0, part(20), 20.0 + part(60)).per_message(part(30) - 5.0);
                let mut costs = Costs::single_only(single);
                for lanes in [2, 4, 8, 16, 32] {
                    let call = part(100) - if table % 4 == 3 { 60.0 } else { 0.0 };
                    let cost = Cost::new(part(400), call, lanes as f32 * (5.0 + part(40)))
                        .per_group(part(120))
                        .per_message(part(15))
                        .per_ragged_message(part(30))
                        .per_refill(part(40));
                    costs.push(lanes, cost);
                }
                costs
            })
            .collect()
    }

    /// [`Costs::few_equal_in`], what the batch functions ask of a few messages of one length,
    /// says one by one only where the search finds it, on the synthetic tables and on random
    /// ones; both answers occur, and it settles batches the block threshold does not.
    #[test]
    fn the_one_by_one_answer_for_few_equal_messages_is_the_searchs() {
        let all = tables()
            .into_iter()
            .map(|(_, costs, _)| costs)
            .chain(random_tables(0xe9a1));
        let mut rng = TestRng::new(0xe9a1_5eed);
        let (mut settled, mut beyond_blocks, mut open) = (0, 0, 0);
        for costs in all {
            for _ in 0..200 {
                let count = 2 + rng.below(31);
                let len = match rng.below(3) {
                    0 => rng.below(56),
                    1 => 65 + rng.below(300),
                    _ => rng.below(4096),
                };
                let (shape, tail) = shape(&std::vec![len; count]);
                if shape.one_block_each() {
                    continue;
                }
                if !costs.few_equal_in(count, message_blocks(len, 64, 8).0) {
                    open += 1;
                    continue;
                }
                let searched = search(&costs, &shape, &tail);
                assert!(
                    searched.is_one_by_one(),
                    "{count} x {len} B: the bound says one by one, the search {searched} \
                     ({costs:?})"
                );
                settled += 1;
                beyond_blocks += usize::from(!costs.few_blocks(&shape));
            }
        }
        assert!(
            settled > 100 && open > 100 && beyond_blocks > 20,
            "{settled} settled ({beyond_blocks} past the block threshold), {open} left"
        );
    }

    /// [`Costs::few_ragged`], what the batch functions ask of a small ragged batch (and run as
    /// it answers), answers as its plan would: one by one exactly where the [`estimate`] is,
    /// and the estimate itself where it is on lanes, for batches whose plan the estimate is
    /// ([`unsearched`]), and [`FewRagged::Search`] where the search pays; on the synthetic
    /// tables and on random ones (every part of a cost drawn).
    #[test]
    fn the_one_by_one_answer_for_few_ragged_messages_is_the_plans() {
        let random = random_tables(0x10e5);
        let all = tables()
            .into_iter()
            .map(|(_, costs, _)| costs)
            .chain(random);
        let mut rng = TestRng::new(0x5e771e);
        let (mut one_by_one, mut lanes, mut searched, mut by_floors) = (0, 0, 0, 0);
        let mut estimated = 0;
        for costs in all {
            for round in 0..300 {
                let count = 2 + rng.below(if round % 3 == 0 { 40 } else { 8 });
                let most = [64, 300, 1024, 8192][round % 4];
                let mut lens: Vec<usize> = (0..count).map(|_| rng.below(most + 1)).collect();
                lens[count - 1] = lens[0] + 1;
                let (shape, _) = shape(&lens);
                let answer = costs.few_ragged(&shape);
                // The kernels' floors settle a batch only where their estimates would.
                if let Some((floors, estimates)) = costs.ragged_floors_settle(&shape) {
                    assert!(
                        !floors || estimates,
                        "{lens:?}: every floor above the bar, not every estimate ({costs:?})"
                    );
                    by_floors += usize::from(floors);
                }
                match unsearched(&costs, &shape) {
                    Some(plan) if plan.is_one_by_one() => {
                        assert_eq!(answer, FewRagged::OneByOne, "{lens:?}: {plan} ({costs:?})");
                        one_by_one += 1;
                    }
                    // (Or left to the planner, where one by one's time, not the estimate's,
                    // would pay for the search: `plan_ragged` makes the same estimate.)
                    Some(plan) => {
                        assert!(
                            matches!(answer, FewRagged::Lanes { .. } | FewRagged::Search),
                            "{lens:?}: {answer:?}, not {plan} ({costs:?})"
                        );
                        lanes += 1;
                    }
                    None => {
                        assert_eq!(answer, FewRagged::Search, "{lens:?}: the search pays");
                        searched += 1;
                    }
                }
                // What the batch functions run is what the planner plans.
                if let FewRagged::Lanes { kernel, predicted } = answer {
                    estimated += 1;
                    let planned = plan_ragged(&costs, &shape, |i| lens[i], 64, 8);
                    let plan = Plan::all_on(Runner::Lanes(kernel), count, predicted);
                    assert_eq!(plan, planned, "{lens:?} ({costs:?})");
                }
            }
        }
        assert!(
            one_by_one > 100 && lanes > 100 && searched > 100 && estimated > 100,
            "cases: {one_by_one} one by one, {lanes} on lanes ({estimated} answered with the \
             estimate), {searched} searched"
        );
        // Both ways of settling one by one occur: the floors, and the estimates where a floor
        // came close.
        assert!(
            by_floors > 100 && one_by_one > by_floors,
            "{by_floors} of {one_by_one} one by one settled by the floors"
        );
    }

    /// The table that settles small ragged batches one by one ([`Costs::few_ragged`]) does so
    /// only where every lane kernel's floor is above one by one's bar and the search does not
    /// pay, on the synthetic tables and on random ones (with a call cost below zero in some),
    /// whatever the batch's segments; and it settles most of what the floors settle on the
    /// synthetic tables, modelled on measured ones.
    #[test]
    fn the_ragged_table_settles_only_what_the_floors_settle() {
        // (Without lane kernels the block threshold settles every batch first: no table.)
        let synthetic: Vec<Costs> = tables()
            .into_iter()
            .map(|(_, costs, _)| costs)
            .filter(|costs| !costs.lane_kernels().is_empty())
            .collect();
        let synthetic_len = synthetic.len();
        let all = synthetic.into_iter().chain(random_tables(0x7ab1));
        let mut rng = TestRng::new(0x7ab1_e5ee);
        let (mut by_table, mut by_floors, mut synthetic_floors, mut synthetic_table) = (0, 0, 0, 0);
        for (table, costs) in all.enumerate() {
            for round in 0..400 {
                let count = 2 + rng.below(if round % 4 == 0 { 24 } else { 15 });
                let most = [64, 200, 300, 1024, 8192][round % 5];
                let mut lens: Vec<usize> = (0..count).map(|_| rng.below(most + 1)).collect();
                lens[count - 1] = lens[0] + 1;
                let (shape, _) = shape(&lens);
                let floors = costs.ragged_floors_settle(&shape);
                let floors_settle = matches!(floors, Some((true, _)));
                if costs.ragged_table_settles(&shape) {
                    assert!(
                        floors_settle,
                        "{lens:?}: the table settles it, the floors do not ({floors:?}, \
                         {costs:?})"
                    );
                    by_table += 1;
                    synthetic_table += usize::from(table < synthetic_len);
                }
                by_floors += usize::from(floors_settle);
                synthetic_floors += usize::from(floors_settle && table < synthetic_len);
            }
        }
        assert!(
            by_table > 500 && 2 * synthetic_table > synthetic_floors,
            "{by_table} of {by_floors} settled by the table ({synthetic_table} of \
             {synthetic_floors} on the synthetic tables)"
        );
    }

    #[test]
    fn a_wide_kernel_with_few_lanes_filled_pays_for_its_messages_only() {
        // Five one-block messages without SHA-NI: 16 lanes of AVX-512 cost their set-up, one
        // step and 5 * 12 ns of messages (390 ns), 8 lanes of AVX2 200 + 200 + 5 * 10
        // (450 ns). A model without the part per message, fitted with the lanes full, puts
        // 16 * 12 ns into each call of the 16-lane kernel (522 ns) and picks the 8 lanes.
        let single = Cost::new(0.0, 25.0, 100.0);
        let (wide, narrow) = (Cost::new(150.0, 0.0, 180.0), Cost::new(200.0, 0.0, 200.0));
        let mut costs = Costs::single_only(single);
        costs.push(16, wide.per_message(12.0));
        costs.push(8, narrow.per_message(10.0));
        let names = &["avx512-x16", "avx2-x8"][..];
        let five = [32; 5];
        assert_eq!(
            named(&plan_of(&costs, &five), names),
            [("avx512-x16".into(), 5)]
        );
        let mut full_lanes_fit = Costs::single_only(single);
        full_lanes_fit.push(16, Cost::new(150.0, 16.0 * 12.0, 180.0));
        full_lanes_fit.push(8, Cost::new(200.0, 8.0 * 10.0, 200.0));
        assert_eq!(
            named(&plan_of(&full_lanes_fit, &five), names),
            [("avx2-x8".into(), 5)]
        );
    }

    #[test]
    fn few_ragged_messages_are_predicted_at_the_steps_their_lanes_take() {
        // 7327, 5415 and 1428 bytes: 115, 85 and 23 blocks. On 2 lanes the first two start,
        // the third takes the lane freed at step 85 and ends at 108, the first at 115 (the
        // bound for unseen messages, an even share plus the last's blocks, says 123). With
        // SHA-NI streams slowed by a neighbour (95 ns a step against 54 one by one) the lanes
        // win by 9%, which the bound puts within the margin of one by one.
        let lens = [7327, 5415, 1428];
        let single = Cost::new(0.0, 0.0, 54.0);
        let x2 = Cost::new(80.0, 0.0, 95.0);
        let mut costs = Costs::single_only(single);
        costs.push(2, x2);
        let (shape, tail) = shape(&lens);
        let on_lanes = lanes_time(2, x2, &Part::all(&shape, &tail), &tail);
        assert_eq!(on_lanes, x2.time(0, 115, 0, 3));
        let plan = plan(&costs, &shape, &tail);
        assert_eq!(named(&plan, &["shani-x2"]), [("shani-x2".into(), 3)]);
        assert_eq!(plan.predicted, on_lanes);
        // Beyond the 64 messages the planner sees (`Shape::TAIL`), the bound: 40 of 65 blocks
        // and 40 of 66 take half of all but the last (65) blocks, then the last.
        let many: Vec<usize> = (0..80).map(|i| 4096 + 64 * (i % 2)).collect();
        let (shape, tail) = self::shape(&many);
        let all = Part::all(&shape, &tail);
        assert_eq!(all.known, None);
        let steps = (40 * 65 + 40 * 66 - 65usize).div_ceil(2) + 65;
        assert_eq!(
            lanes_time(2, x2, &all, &tail),
            x2.time(all.segments.min(steps), steps, 0, 80)
        );
    }

    #[test]
    fn the_bound_is_the_simulation_where_fewer_than_two_lanes_worth_all_rotate() {
        // 4744, 2998 and 2519 bytes: 75, 47 and 40 blocks. On 2 lanes the third waits with
        // the first two running, and all three rotate from the start: 81 steps, which the
        // estimate's bound (unseen messages) must say too, not 101.
        let (shape, tail) = shape(&[4744, 2998, 2519]);
        assert_eq!(ragged_steps(&tail, 0, 3, 2), 81);
        let x2 = Cost::new(40.0, 0.0, 48.0);
        assert_eq!(
            estimated_on_lanes(&shape, 2, x2),
            x2.refilled_time(3, 81, 3)
        );
        // Every count below two lanes' worth of messages that all rotate, on every width
        // rotation serves: the bound is the simulation.
        let mut seed = 0x1234_5678_9abc_def1u64;
        for lanes in [2, 4, 8] {
            for count in lanes + 1..2 * lanes {
                for _ in 0..50 {
                    let lens: Vec<usize> = (0..count)
                        .map(|_| {
                            seed ^= seed << 13;
                            seed ^= seed >> 7;
                            seed ^= seed << 17;
                            64 * ROTATION_BLOCKS + (seed % 20_000) as usize
                        })
                        .collect();
                    let (shape, tail) = self::shape(&lens);
                    if shape.equal {
                        continue;
                    }
                    assert_eq!(
                        ragged_bound(count, shape.blocks, shape.shortest, shape.longest, lanes),
                        ragged_steps(&tail, 0, count, lanes),
                        "{lens:?} on {lanes} lanes"
                    );
                }
            }
        }
    }

    /// The estimate's one pass over the kernels, widest first, chooses as [`ByWidth`] does
    /// from the same times: on random kernels (widths repeated, in any order) and batches,
    /// near-ties included.
    #[test]
    fn the_estimate_chooses_as_the_width_classes_do() {
        let mut rng = TestRng::new(0xb1d7);
        let mut near_ties = 0;
        for round in 0..4000 {
            let single = Cost::new(0.0, 10.0, 30.0 + rng.below(40) as f32);
            let mut costs = Costs::single_only(single);
            for _ in 0..1 + rng.below(crate::MAX_KERNELS) {
                let lanes = 2 << rng.below(5);
                // Steps near one by one's per lane, so that kernels come within the margins
                // of each other.
                let step = single.step * lanes as f32 * (0.6 + rng.below(400) as f32 / 1000.0);
                costs.push(lanes, Cost::new(rng.below(300) as f32, 10.0, step));
            }
            let count = 2 + rng.below(if round % 2 == 0 { 30 } else { 300 });
            let most = [200, 1024, 8192][rng.below(3)];
            let lens: Vec<usize> = (0..count).map(|_| rng.below(most + 1)).collect();
            let shape = shape(&lens).0;
            let one_by_one = single.time(shape.segments, shape.blocks, shape.count, 0);
            let mut by_width = ByWidth::NONE;
            let mut kernels = [usize::MAX; WIDTHS];
            for (k, &(width, cost)) in costs.lane_kernels().iter().enumerate() {
                let whole = estimated_on_lanes(&shape, width, cost);
                let class = ByWidth::class(width);
                if whole < LANES_MARGIN * one_by_one && by_width.keep(class, whole) {
                    kernels[class] = k;
                }
            }
            let times: Vec<f32> = by_width
                .times
                .into_iter()
                .filter(|t| t.is_finite())
                .collect();
            near_ties += usize::from(
                times
                    .iter()
                    .any(|&a| times.iter().any(|&b| a < b && a > WIDEST_MARGIN * b)),
            );
            let expected = by_width
                .chosen()
                .map_or(Runner::OneByOne, |class| Runner::Lanes(kernels[class]));
            let (runner, _) = estimated_runner(&costs, &shape);
            assert_eq!(runner, expected, "{costs:?} {lens:?}");
        }
        assert!(
            near_ties > 400,
            "only {near_ties} rounds with classes near each other"
        );
    }

    /// Of two lane kernels, the one with more lanes is chosen only where predicted to take at
    /// most [`WIDER_MARGIN`] of the other's time ([`WIDEST_MARGIN`] on more than 16 lanes),
    /// however many doublings apart (the margin not compounded): by the search (equal and
    /// ragged batches) and by the estimate.
    #[test]
    fn a_wider_kernel_must_be_predicted_faster_by_the_width_margin() {
        let single = Cost::new(0.0, 12.0, 48.0);
        let mut rng = TestRng::new(0x3232);
        let ragged: Vec<usize> = (0..300).map(|_| rng.below(1025)).collect();
        for (narrow, wider, margin) in [
            (8, 16, WIDER_MARGIN),
            (2, 16, WIDER_MARGIN),
            (16, 32, WIDEST_MARGIN),
            (4, 32, WIDEST_MARGIN),
        ] {
            for (share, wide) in [
                (0.99, false),
                (margin + 0.005, false),
                (margin - 0.02, true),
            ] {
                let mut costs = Costs::single_only(single);
                let step = 10.0 * narrow as f32;
                costs.push(narrow, Cost::new(100.0, 0.0, step));
                let times = (wider / narrow) as f32;
                costs.push(wider, Cost::new(100.0, 0.0, times * step * share));
                let expected = if wide { wider } else { narrow };
                for lens in [&[4096; 64][..], &ragged[..]] {
                    let searched = plan_of(&costs, lens);
                    assert_eq!(widest(&costs, &searched), expected, "{share}: {searched}");
                }
                let estimated = estimate(&costs, &shape(&ragged).0);
                assert_eq!(widest(&costs, &estimated), expected, "{share}: {estimated}");
            }
        }
    }

    #[test]
    fn the_readme_states_the_margins_and_the_planning_budget() {
        let readme = include_str!("../../../README.md");
        let stated = std::format!(
            "at least {}% faster than one by one",
            ((1.0 - LANES_MARGIN) * 1000.0).round() / 10.0
        );
        assert!(readme.contains(&stated), "README must say \"{stated}\"");
        let wider = std::format!(
            "more lanes {}% faster",
            ((1.0 - WIDER_MARGIN) * 1000.0).round() / 10.0
        );
        assert!(readme.contains(&wider), "README must say \"{wider}\"");
        let widest = std::format!(
            "{}% for more than 16 lanes",
            ((1.0 - WIDEST_MARGIN) * 1000.0).round() / 10.0
        );
        assert!(readme.contains(&widest), "README must say \"{widest}\"");
        let budget = std::format!(
            "costs at most {}% of a batch's predicted time",
            (PLANNING_SHARE * 1000.0).round() / 10.0
        );
        assert!(readme.contains(&budget), "README must say \"{budget}\"");
    }

    #[test]
    fn messages_of_a_partly_filled_group_run_as_one_group() {
        // One-block messages at 60 ns each one by one; 16 lanes at 150 + 160 ns a call. Nine
        // messages of one length run as one part-filled group (the executor's `run_group`,
        // idle lanes repeating the last message), each at a group's part per message, whatever
        // a message alone in a slot costs: 10 ns a message, 400 ns against 540 one by one;
        // 25 ns, 535 ns, within the margin of one by one.
        let single = Cost::new(0.0, 12.0, 48.0);
        let names = &["avx512-x16"][..];
        let lanes = |message: f32| {
            let mut costs = Costs::single_only(single);
            costs.push(
                16,
                Cost::new(150.0, 0.0, 160.0)
                    .per_message(message)
                    .per_ragged_message(40.0),
            );
            costs
        };
        let nine = [32; 9];
        assert_eq!(
            named(&plan_of(&lanes(10.0), &nine), names),
            [("avx512-x16".into(), 9)]
        );
        assert_eq!(
            named(&plan_of(&lanes(25.0), &nine), names),
            [("one by one".into(), 9)]
        );
        // Sixteen fill the group: 150 + 160 + 16 * 25 against 960 one by one.
        assert_eq!(
            named(&plan_of(&lanes(25.0), &[32; 16]), names),
            [("avx512-x16".into(), 16)]
        );
    }

    #[test]
    fn lanes_must_win_by_more_than_the_margin() {
        // Two messages of 4 blocks in 2 segments: one by one 2 * (2 * 12 + 4 * 31) = 296 ns;
        // both on a 2-lane kernel of no set-up, 2 * 12 + 4 * step.
        for (step, on_lanes) in [(62.0, true), (66.0, true), (67.0, false), (75.0, false)] {
            let mut costs = Costs::single_only(Cost::new(0.0, 12.0, 31.0));
            costs.push(2, Cost::new(0.0, 12.0, step));
            let plan = plan_of(&costs, &[200, 200]);
            // 272 / 296 = 0.92 and 288 / 296 = 0.973 win; 292 / 296 = 0.986 is within the
            // margin; 324 loses.
            assert_eq!(
                plan.stages().any(|s| s.runner != Runner::OneByOne),
                on_lanes,
                "lane step {step} ns: {plan}"
            );
        }
    }

    #[test]
    fn the_block_bound_is_the_exact_test_on_totals() {
        // A 2-lane kernel that saves 31 - 40 / 2 = 11 ns a block and 12 - 12 / 2 = 6 ns a
        // segment, with a set-up of 100 ns: one by one for up to 100 / 17 = 5 blocks.
        let mut costs = Costs::single_only(Cost::new(0.0, 12.0, 31.0));
        costs.push(2, Cost::new(100.0, 12.0, 40.0));
        assert_eq!(costs.one_by_one_blocks[MAX_LANES], 5);
        let blocks = |lens: &[usize]| costs.few_blocks(&Shape::new(lens.len(), |i| lens[i], 64, 8));
        assert!(blocks(&[0; 5]));
        assert!(!blocks(&[0; 6]));
        // 64 B: two blocks each.
        assert!(blocks(&[64, 64, 0]));
        assert!(!blocks(&[64, 64, 64]));
        // No lane kernel: every batch.
        let alone = Costs::single_only(Cost::new(0.0, 12.0, 31.0));
        assert!(alone.few_blocks(&Shape::new(3, |_| 1 << 20, 64, 8)));
    }

    #[test]
    fn a_batch_smaller_than_the_lanes_saves_only_on_its_messages() {
        // 16 lanes at 160 ns a step save 31 - 10 ns a block with every lane filled, and 12 ns
        // a segment (one by one's call): set-up 100 ns is won back past 100 / 33, 3 blocks.
        // Two messages fill two lanes, each step costs more than two single steps: only the
        // calls save, 100 / 12, 8 blocks.
        let mut costs = Costs::single_only(Cost::new(0.0, 12.0, 31.0));
        costs.push(16, Cost::new(100.0, 0.0, 160.0));
        assert_eq!(costs.one_by_one_blocks[MAX_LANES], 3);
        assert_eq!(costs.one_by_one_blocks[2], 8);
        let two = [200, 200];
        assert!(costs.few_blocks(&Shape::new(2, |i| two[i], 64, 8)));
        let shape = Shape::new(2, |i| two[i], 64, 8);
        assert!(one_by_one_wins(&costs, &shape).is_some());
        // Four such messages (16 blocks) may pay; sixteen of one block may too.
        assert!(!costs.few_blocks(&Shape::new(4, |_| 200, 64, 8)));
        assert!(!costs.few_blocks(&Shape::new(16, |_| 0, 64, 8)));
    }

    #[test]
    fn what_a_message_saves_on_the_lanes_counts_in_the_bound() {
        // A step and a call save nothing on 2 lanes here, a message 40 - 5 ns: four one-block
        // messages cost 4 * 71 = 284 ns one by one, 100 + 2 * 62 + 4 * 5 = 244 on the lanes.
        // A bound blind to the messages would send every batch one by one.
        let mut costs = Costs::single_only(Cost::new(0.0, 0.0, 31.0).per_message(40.0));
        costs.push(2, Cost::new(100.0, 0.0, 62.0).per_message(5.0));
        assert_eq!(costs.one_by_one_blocks[MAX_LANES], 2);
        let four = [0; 4];
        assert!(!costs.few_blocks(&Shape::new(4, |i| four[i], 64, 8)));
        let plan = plan_of(&costs, &four);
        assert!(
            plan.stages().all(|s| s.runner == Runner::Lanes(0)),
            "{plan}"
        );
        // Two such messages: 142 one by one, 100 + 62 + 10 on the lanes.
        assert!(costs.few_blocks(&Shape::new(2, |_| 0, 64, 8)));
    }

    #[test]
    fn an_equal_shape_is_counted_as_its_messages_are() {
        for (block, length) in [(64, 8), (128, 16)] {
            for len in [
                0, 1, 55, 56, 63, 64, 111, 112, 119, 120, 127, 128, 300, 4096,
            ] {
                for count in [1, 2, 17, 33, 100] {
                    assert_eq!(
                        Shape::equal(count, len, block, length),
                        Shape::new(count, |_| len, block, length),
                        "{count} x {len} B in {block}-byte blocks"
                    );
                }
            }
        }
    }

    #[test]
    fn shapes_count_blocks_and_segments_with_the_padding() {
        // 0..=55 bytes: one block; 56..=63: two, one segment; 64: two blocks, two segments.
        let (s, tail) = shape(&[0, 55, 56, 63, 64, 119, 120, 128]);
        assert_eq!(s.blocks, 1 + 1 + 2 + 2 + 2 + 2 + 3 + 3);
        assert_eq!(s.segments, 1 + 1 + 1 + 1 + 2 + 2 + 2 + 2);
        assert_eq!(s.longest, 3);
        assert!(!s.equal);
        // The last messages in start order: the last window, longest first.
        assert_eq!(s.tail_len(), 8);
        assert_eq!(s.tail_part(&tail, 0, 1), (3, 2, 3, 3, true));
        assert_eq!(s.tail_part(&tail, 7, 8), (1, 1, 1, 1, true));
        assert_eq!(
            s.tail_part(&tail, 2, 6),
            (2 + 2 + 2 + 2, 2 + 2 + 1 + 1, 2, 2, false)
        );
        // SHA-512: 111 bytes fit one block, 112 need two.
        let wide = Shape::new(2, |i| [111, 112][i], 128, 16);
        assert_eq!(wide.blocks, 3);
        let (equal, tail) = shape(&[200; 100]);
        assert!(equal.equal);
        assert_eq!((equal.blocks, equal.tail_len()), (400, Shape::TAIL));
        assert_eq!(equal.tail_part(&tail, 30, 32), (8, 4, 4, 4, true));
    }
}
