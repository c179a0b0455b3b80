//! The cost model: what each kernel costs per use, group, call, step and message, and the
//! thresholds worked out from those costs once, so that the smallest batches are planned
//! from their totals in one compare.

use crate::plan::Runner;
use crate::shape::Shape;
use multisha_contract::{Cost, MAX_LANES};

/// The most one-block messages [`Costs::few_one_block_in`] answers for: the few that the
/// batch functions settle before the planner.
pub const FEW_ONE_BLOCK: usize = 3;

/// What a small ragged batch comes to ([`Costs::few_ragged`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FewRagged {
    /// The search pays, or the batch is equal: the planner plans it.
    Search,
    /// One by one.
    OneByOne,
    /// All on lane kernel `kernel`, predicted to take `predicted` nanoseconds: the batch's
    /// estimate ([`Plan::all_on`](crate::Plan::all_on) that kernel).
    Lanes {
        /// Which lane kernel of the costs.
        kernel: usize,
        /// Its predicted time.
        predicted: f32,
    },
}

/// At most this many lane kernels per algorithm take part in a plan.
pub const MAX_KERNELS: usize = 8;

/// Ragged batches of up to this many messages are settled one by one from a table where they
/// can be ([`Costs::few_ragged`]).
pub const FEW_RAGGED: usize = 16;

/// The table of [`FEW_RAGGED`] has a column per longest message of up to this many blocks; a
/// batch with a longer one is looked up in the last.
const RAGGED_LONGEST: usize = 8;

/// The costs the planner chooses by: the single-message kernel's and each lane kernel's with
/// its lane count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Costs {
    /// The single-message kernel (one message after the other).
    pub(crate) single: Cost,
    /// `(lanes, cost)` of the lane kernels, `len` of them.
    pub(crate) lanes: [(usize, Cost); MAX_KERNELS],
    /// How many lane kernels.
    pub(crate) len: usize,
    /// The lane kernels' indices, widest first (of equal lanes, the first added first): the
    /// estimate chooses among them in one pass in this order.
    widest_first: [u8; MAX_KERNELS],
    /// Per lane kernel, the most it can save against one by one per block and per segment
    /// with all its lanes filled ([`savings`]), kept with the costs so a large batch pays no
    /// division for it.
    pub(crate) savings: [(f32, f32); MAX_KERNELS],
    /// Batches of `n` messages and at most `one_by_one_blocks[n.min(MAX_LANES)]` blocks go one
    /// by one: no lane kernel can win back its set-up on them, with at most `n` of its lanes
    /// filled ([`Costs::few_blocks`]).
    pub(crate) one_by_one_blocks: [usize; MAX_LANES + 1],
    /// Batches of `n` messages (up to `MAX_LANES`) of one length, of at most
    /// `one_by_one_each[n]` blocks each, go one by one: no lane kernel wins its set-up back on
    /// any of them, counting what each message costs it more than one by one
    /// ([`Costs::few_equal_in`]).
    one_by_one_each: [usize; MAX_LANES + 1],
    /// Bit `n` (for `n` up to [`FEW_ONE_BLOCK`]): `n` messages of exactly one block each go
    /// one by one, no lane kernel's groups of them winning ([`Costs::few_one_block_in`]).
    pub(crate) one_block_one_by_one: u8,
    /// Per lane kernel, the terms of a lower bound on its estimate for a ragged batch
    /// ([`RaggedFloor`]).
    floor: RaggedFloor,
    /// Ragged batches of `n` messages (up to [`FEW_RAGGED`]) whose longest has `l` blocks (up
    /// to [`RAGGED_LONGEST`]; longer in the last column) and at most `ragged_one_by_one[n][l]`
    /// blocks in all go one by one: every lane kernel's floor is above one by one's bar, and
    /// the search does not pay ([`Costs::few_ragged`]), with every segment count they can have.
    ragged_one_by_one: [[u16; RAGGED_LONGEST + 1]; FEW_RAGGED + 1],
}

/// Per lane kernel (`MAX_KERNELS` of them, side by side so that one pass over all is a few
/// vector instructions), the terms of a lower bound on its estimate for a ragged batch
/// (`search::estimated_on_lanes`) from the batch's count, blocks and longest message:
/// `fixed + per_message * count + step * max(longest, blocks / lanes)`. A kernel makes at
/// least the longest message's steps and an even share of all, in one call or more; the
/// estimate's other terms are these. An unused kernel's floor is infinite; a kernel whose
/// call or step cost is below zero (more work could cost less) has none (minus infinity).
#[derive(Debug, Clone, Copy, PartialEq)]
struct RaggedFloor {
    fixed: [f32; MAX_KERNELS],
    per_message: [f32; MAX_KERNELS],
    step: [f32; MAX_KERNELS],
    /// `1 / lanes` (exact: a power of two).
    per_lane: [f32; MAX_KERNELS],
}

impl RaggedFloor {
    const NONE: Self = Self {
        fixed: [f32::INFINITY; MAX_KERNELS],
        per_message: [0.0; MAX_KERNELS],
        step: [0.0; MAX_KERNELS],
        per_lane: [1.0; MAX_KERNELS],
    };

    /// Sets kernel `k`'s terms from its `cost` and `lanes`.
    fn set(&mut self, k: usize, lanes: usize, cost: Cost) {
        let sound = cost.call >= 0.0 && cost.step >= 0.0;
        self.fixed[k] = if sound {
            cost.setup + cost.call
        } else {
            f32::NEG_INFINITY
        };
        self.per_message[k] = cost.ragged + cost.refill;
        self.step[k] = cost.step;
        self.per_lane[k] = 1.0 / lanes as f32;
    }

    /// Below how many blocks in all kernel `k`'s floor for `count` messages whose longest has
    /// `longest` blocks stays above a bar of `bar_fixed` plus `bar_step` a block (`bar_step`
    /// above zero): infinite for an unused kernel, minus infinity for one without a floor.
    /// The floor is flat up to `longest` steps' worth of blocks and then rises by a step per
    /// lanes' worth, the bar rises all along: from no blocks up, the floor stays above the bar
    /// until they first meet, which this finds on the flat part or the rising one.
    fn blocks_above(
        &self,
        k: usize,
        count: f32,
        longest: f32,
        bar_fixed: f32,
        bar_step: f32,
    ) -> f32 {
        let fixed = self.fixed[k];
        if fixed.is_infinite() {
            return fixed;
        }
        let base = fixed + self.per_message[k] * count;
        let (step, per_lane) = (self.step[k], self.per_lane[k]);
        let flat = (base + step * longest - bar_fixed) / bar_step;
        if flat < longest / per_lane {
            return flat;
        }
        let slope = bar_step - step * per_lane;
        if slope <= 0.0 {
            return f32::INFINITY;
        }
        (base - bar_fixed) / slope
    }

    /// Whether every kernel's floor for a batch of `shape` is above `bar`.
    #[inline(always)]
    fn all_above(&self, shape: &Shape, bar: f32) -> bool {
        // (Rounded to `f32` downwards or to the nearest: a floor all the same, give or take
        // the rounding of numbers of blocks past 2^24, where a batch is searched anyway.)
        let (count, blocks, longest) = (
            shape.count as f32,
            shape.blocks as f32,
            shape.longest as f32,
        );
        // Compares side by side, not a chain of minima: 8 ns against 3 here.
        let mut above = true;
        for k in 0..MAX_KERNELS {
            let steps = (blocks * self.per_lane[k]).max(longest);
            let floor = self.fixed[k] + self.per_message[k] * count + self.step[k] * steps;
            above &= floor > bar;
        }
        above
    }
}

impl Costs {
    /// Costs with no lane kernel: every batch goes one by one.
    pub const fn single_only(single: Cost) -> Self {
        Self {
            single,
            lanes: [(0, Cost::new(0.0, 0.0, 0.0)); MAX_KERNELS],
            len: 0,
            widest_first: [0; MAX_KERNELS],
            savings: [(0.0, 0.0); MAX_KERNELS],
            one_by_one_blocks: [usize::MAX; MAX_LANES + 1],
            one_by_one_each: [usize::MAX; MAX_LANES + 1],
            one_block_one_by_one: u8::MAX,
            floor: RaggedFloor::NONE,
            // (Worked out when the first lane kernel is added: without any, the floors settle
            // every batch the search does not take.)
            ragged_one_by_one: [[0; RAGGED_LONGEST + 1]; FEW_RAGGED + 1],
        }
    }

    /// The single-message kernel's cost.
    #[inline]
    pub fn single_cost(&self) -> Cost {
        self.single
    }

    /// Replaces the single-message kernel's cost.
    pub fn set_single_cost(&mut self, cost: Cost) {
        self.single = cost;
        for k in 0..self.len {
            let (width, cost) = self.lanes[k];
            self.savings[k] = savings(self.single, cost, width);
        }
        self.count_one_by_one_blocks();
        self.count_ragged_one_by_one();
    }

    /// Replaces lane kernel `k`'s cost.
    pub fn set_lanes(&mut self, k: usize, cost: Cost) {
        let width = self.lanes[k].0;
        self.lanes[k].1 = cost;
        self.floor.set(k, width, cost);
        self.savings[k] = savings(self.single, cost, width);
        self.count_one_by_one_blocks();
        // Lowered by the new floor only, the old one's limit kept: still below every floor.
        // (Where this runs per batch, the costs without the widest kernels made for pages of
        // records, `without_lanes_over`, their set-up made infinite: nothing to lower.)
        self.lower_ragged_one_by_one(k);
    }

    /// Works out the table of [`few_ragged`](Self::few_ragged) afresh: where the search does
    /// not pay, lowered by every lane kernel's floor.
    fn count_ragged_one_by_one(&mut self) {
        self.ragged_one_by_one = [[0; RAGGED_LONGEST + 1]; FEW_RAGGED + 1];
        if self.len == 0 {
            return;
        }
        for count in 2..=FEW_RAGGED {
            let (fixed, step) = self.one_by_one_at_most(count);
            // One by one's time at its most stays below the search's cost over the share.
            let unsearched =
                (crate::search::search_ns_of(count) / crate::PLANNING_SHARE - fixed) / step;
            let most = blocks_below(unsearched);
            self.ragged_one_by_one[count] = [most; RAGGED_LONGEST + 1];
        }
        for k in 0..self.len {
            self.lower_ragged_one_by_one(k);
        }
    }

    /// One by one's time for `count` messages at its most, whatever their segments (one or two
    /// a message), as a fixed part and a part per block.
    fn one_by_one_at_most(&self, count: usize) -> (f32, f32) {
        let single = self.single;
        let count = count as f32;
        let segments = if single.call >= 0.0 {
            2.0 * count
        } else {
            count
        };
        (
            single.setup + single.call * segments + single.message * count,
            single.step,
        )
    }

    /// Lowers the table of [`few_ragged`](Self::few_ragged) to where lane kernel `k`'s floor
    /// is above one by one's bar ([`RaggedFloor::blocks_above`]), at one by one's time at its
    /// most.
    fn lower_ragged_one_by_one(&mut self, k: usize) {
        if self.floor.fixed[k] == f32::INFINITY {
            return;
        }
        for count in 2..=FEW_RAGGED {
            let (fixed, step) = self.one_by_one_at_most(count);
            let (bar_fixed, bar_step) = (crate::LANES_MARGIN * fixed, crate::LANES_MARGIN * step);
            for longest in 1..=RAGGED_LONGEST {
                // (No table where a block costs one by one nothing.)
                let above = if bar_step > 0.0 {
                    self.floor
                        .blocks_above(k, count as f32, longest as f32, bar_fixed, bar_step)
                } else {
                    f32::NEG_INFINITY
                };
                let most = &mut self.ragged_one_by_one[count][longest];
                *most = (*most).min(blocks_below(above));
            }
        }
    }

    /// Works out the thresholds of [`few_blocks`](Self::few_blocks),
    /// [`few_equal_in`](Self::few_equal_in) and [`few_one_block_in`](Self::few_one_block_in)
    /// from the costs, every lane kernel's.
    fn count_one_by_one_blocks(&mut self) {
        self.one_by_one_blocks = [usize::MAX; MAX_LANES + 1];
        self.one_by_one_each = [usize::MAX; MAX_LANES + 1];
        self.one_block_one_by_one = u8::MAX;
        for k in 0..self.len {
            self.lower_one_by_one_blocks(k);
        }
    }

    /// Lowers those thresholds to where lane kernel `k`, with as many lanes filled as there
    /// are messages, could win its set-up back. A process's first batch runs this cold, once
    /// per lane kernel (66 thresholds, a few instructions each, and two one-block answers).
    fn lower_one_by_one_blocks(&mut self, k: usize) {
        let (width, cost) = self.lanes[k];
        // Messages of one block each, up to `FEW_ONE_BLOCK` of them (two blocks and two
        // segments a message), as `one_by_one_wins` decides them.
        for count in 2..=FEW_ONE_BLOCK {
            let single = self
                .single
                .one_by_one_time(2 * count, 2 * count, count, true);
            let two_each = (2 * count) as f32;
            let full = self.savings[k];
            if !lanes_hopeless(
                self.single,
                single,
                (width, cost),
                full,
                count,
                two_each,
                two_each,
                true,
            ) {
                self.one_block_one_by_one &= !(1 << count);
            }
        }
        for (count, blocks) in self.one_by_one_blocks.iter_mut().enumerate() {
            let filled = count.clamp(1, width);
            let below = blocks_below_setup(cost.setup, savings(self.single, cost, filled));
            *blocks = (*blocks).min(below);
        }
        // Equal messages: any `m` of the `count` on the lanes save at most `m` times one
        // message's blocks and two segments (at `count`'s lanes filled, the most) less what a
        // message costs the lanes more than one by one, which the threshold above cannot
        // count (it may leave some messages out): that share of the set-up must stay unpaid.
        // (A part below zero that a fit gave is counted at its most: shared by one lane, and
        // per message, whatever runs it: grouped, alone in a slot, refilling the lanes.)
        let lane_message =
            cost.message.min(cost.ragged + cost.refill.min(0.0)) + cost.group.min(0.0);
        for (count, each) in self.one_by_one_each.iter_mut().enumerate().skip(1) {
            let filled = count.min(width) as f32;
            let shared = |part: f32| if part < 0.0 { part } else { part / filled };
            let per_block = (self.single.step - shared(cost.step)).max(0.0);
            let per_call = (self.single.call - shared(cost.call)).max(0.0);
            let per_message = self.single.message - lane_message;
            let room = cost.setup / count as f32 - 2.0 * per_call - per_message;
            let below = if room < 0.0 {
                0
            } else {
                blocks_below_setup(room, (per_block, 0.0))
            };
            *each = (*each).min(below);
        }
    }

    /// Whether a batch of `shape` has so few blocks in all that one by one wins, which
    /// [`one_by_one_wins`](crate::one_by_one_wins) would find too: the smallest batches' plan
    /// from their totals, one compare (with no lane kernel the threshold is `usize::MAX`:
    /// every batch).
    #[inline]
    pub fn few_blocks(&self, shape: &Shape) -> bool {
        self.few_blocks_in(shape.count, shape.blocks)
    }

    /// [`few_blocks`](Self::few_blocks) of `count` messages of `blocks` blocks in all
    /// (padding included, as [`Shape::new`] counts them), for a caller that has no shape.
    #[inline]
    pub fn few_blocks_in(&self, count: usize, blocks: usize) -> bool {
        blocks <= self.one_by_one_blocks[count.min(MAX_LANES)]
    }

    /// Whether `count` messages of one length, `each` blocks each (padding included, not of
    /// exactly one block: [`few_one_block_in`](Self::few_one_block_in) answers those), go one
    /// by one, which the planner would find too: no lane kernel wins its set-up back on any of
    /// them. Where [`few_blocks_in`](Self::few_blocks_in) counts only what a block and a segment
    /// save, this counts what a message costs the lanes more (8 x 32 B SHA-256 on an Intel
    /// Xeon: settled here, planned past the block threshold of `shani-x2`).
    #[inline]
    pub fn few_equal_in(&self, count: usize, each: usize) -> bool {
        count <= MAX_LANES && each <= self.one_by_one_each[count]
    }

    /// Whether `count` messages of exactly one block each go one by one, which
    /// [`one_by_one_wins`](crate::one_by_one_wins) would find too: no lane kernel's group of
    /// one-block messages is predicted faster (`false` past [`FEW_ONE_BLOCK`] messages: the
    /// planner decides). Their set-up is far less than the lanes' for other batches, so
    /// [`few_blocks_in`](Self::few_blocks_in) does not tell (2 x 64 B SHA-256 with `avx2` the
    /// single kernel, on an Intel Xeon: 597 ns one by one, 543 on `avx512-x16`).
    #[inline]
    pub fn few_one_block_in(&self, count: usize) -> bool {
        count <= 1 || (count <= FEW_ONE_BLOCK && self.one_block_one_by_one & (1 << count) != 0)
    }

    /// What a batch of `shape`, its messages of differing lengths, comes to where its plan is
    /// the [`estimate`](crate::estimate), a batch too small for the search to pay
    /// ([`unsearched`](crate::unsearched)): one by one, settled by a table worked out from
    /// every lane kernel's floor when the costs are made (up to [`FEW_RAGGED`] messages, by
    /// their count, blocks and longest message), else by the floors themselves where they can
    /// (no estimate made), else the estimate itself, made once (the batch
    /// functions run it as it is, rather than planning the batch again: 9 ns of 20 SHA-1
    /// messages of 0-200 bytes on `avx512-x16`); [`FewRagged::Search`] for an equal batch and
    /// where the search pays. Where [`few_blocks`](Self::few_blocks) counts every block as
    /// one a lane kernel could save, a few messages take at least the longest's steps: 3 SHA-1
    /// messages of 1, 139 and 170 bytes took 30 ns of their 250 to be planned one by one
    /// through the estimate and its plans.
    #[inline(always)]
    pub fn few_ragged(&self, shape: &Shape) -> FewRagged {
        // Most small ragged batches are settled by the table, in a compare: the floors below
        // are float arithmetic, a few dozen instructions in a chain (3 SHA-256 messages of
        // 0-200 bytes ran 1.031 times a loop of one-shot calls with only the floors, 1.000
        // with the table first; Intel Xeon, `regret`).
        if self.ragged_table_settles(shape) {
            return FewRagged::OneByOne;
        }
        self.few_ragged_computed(shape)
    }

    /// Whether the table of [`few_ragged`](Self::few_ragged) puts a batch of `shape` one by
    /// one.
    #[inline(always)]
    pub(crate) fn ragged_table_settles(&self, shape: &Shape) -> bool {
        !shape.equal
            && shape.count <= FEW_RAGGED
            && shape.blocks
                <= usize::from(
                    self.ragged_one_by_one[shape.count][shape.longest.min(RAGGED_LONGEST)],
                )
    }

    /// [`few_ragged`](Self::few_ragged) where the table does not settle the batch.
    #[inline(never)]
    fn few_ragged_computed(&self, shape: &Shape) -> FewRagged {
        let Some(bar) = self.ragged_bar(shape) else {
            return FewRagged::Search;
        };
        // Most small ragged batches are settled by every kernel's floor, side by side (3 SHA-256
        // messages of 1, 139 and 170 bytes: 5 ns with their totals, against 12.6 for the
        // estimates one kernel after the other, on an Intel Xeon); the estimate only where a
        // floor comes close.
        if self.floor.all_above(shape, bar) {
            return FewRagged::OneByOne;
        }
        match crate::search::estimated_runner(self, shape) {
            (Runner::Lanes(kernel), predicted) => FewRagged::Lanes { kernel, predicted },
            (Runner::OneByOne, _) => FewRagged::OneByOne,
        }
    }

    /// The time a lane kernel's estimate must exceed for one by one to win, for a ragged batch
    /// of `shape` whose plan is the estimate; `None` for an equal batch and where the search
    /// pays (as [`few_ragged_one_by_one`](Self::few_ragged_one_by_one) answers).
    #[inline(always)]
    fn ragged_bar(&self, shape: &Shape) -> Option<f32> {
        if shape.equal {
            return None;
        }
        let one_by_one = self
            .single
            .time(shape.segments, shape.blocks, shape.count, 0);
        if crate::search::search_ns_of(shape.count) <= crate::PLANNING_SHARE * one_by_one {
            // The search pays: the plan is its, which may split the batch.
            return None;
        }
        Some(crate::LANES_MARGIN * one_by_one)
    }

    /// For a batch of `shape` that [`few_ragged`](Self::few_ragged) decides: whether every
    /// floor is above the bar, and whether every lane kernel's estimate is (tests).
    #[cfg(test)]
    pub(crate) fn ragged_floors_settle(&self, shape: &Shape) -> Option<(bool, bool)> {
        let bar = self.ragged_bar(shape)?;
        Some((
            self.floor.all_above(shape, bar),
            self.lane_kernels()
                .iter()
                .all(|&(width, cost)| crate::search::estimated_on_lanes(shape, width, cost) > bar),
        ))
    }

    /// Adds a lane kernel of `lanes` lanes (a power of two, 2 or more), returning its index.
    ///
    /// # Panics
    /// With more than [`MAX_KERNELS`] lane kernels, or another lane count.
    pub fn push(&mut self, lanes: usize, cost: Cost) -> usize {
        // Powers of two: the planner divides by the lanes with shifts (it evaluates dozens of
        // candidates per batch; a division costs as much as the rest of one).
        assert!(
            lanes >= 2 && lanes.is_power_of_two(),
            "a lane kernel has 2, 4, 8, 16 or 32 lanes"
        );
        let k = self.len;
        self.lanes[k] = (lanes, cost);
        let at = self.widest_first[..k]
            .iter()
            .position(|&other| self.lanes[usize::from(other)].0 < lanes)
            .unwrap_or(k);
        self.widest_first.copy_within(at..k, at + 1);
        self.widest_first[at] = k as u8;
        self.floor.set(k, lanes, cost);
        self.len += 1;
        self.savings[k] = savings(self.single, cost, lanes);
        self.lower_one_by_one_blocks(k);
        if k == 0 {
            self.count_ragged_one_by_one();
        } else {
            self.lower_ragged_one_by_one(k);
        }
        k
    }

    /// Per lane kernel, the most it saves against one by one per block and per segment with
    /// all its lanes filled.
    #[inline]
    pub(crate) fn full_savings(&self) -> &[(f32, f32)] {
        &self.savings[..self.len]
    }

    /// The lane kernels' `(lanes, cost)`.
    #[inline]
    pub fn lane_kernels(&self) -> &[(usize, Cost)] {
        &self.lanes[..self.len]
    }

    /// The lane kernels' indices (into [`lane_kernels`](Self::lane_kernels)), widest first.
    #[inline(always)]
    pub(crate) fn widest_first(&self) -> &[u8] {
        &self.widest_first[..self.len]
    }

    /// These costs with every lane kernel of more than `lanes` lanes left out (its set-ups made
    /// infinite, so that no plan has it; the indices of the others stay as they are).
    pub fn without_lanes_over(&self, lanes: usize) -> Costs {
        let mut costs = *self;
        for (k, &(width, cost)) in self.lane_kernels().iter().enumerate() {
            if width > lanes {
                let mut cost = cost;
                cost.setup = f32::INFINITY;
                cost.one_block_setup = f32::INFINITY;
                costs.set_lanes(k, cost);
            }
        }
        costs
    }
}

/// Blocks strictly below `limit`, with one to spare for the rounding of the floats the
/// batch's own check would compute: 0 below 2 (and for NaN), `u16::MAX` at most.
fn blocks_below(limit: f32) -> u16 {
    // (`as` saturates, and takes NaN to 0.)
    (limit - 2.0).max(0.0) as u16
}

/// The most a lane kernel of `cost` with `filled` lanes busy saves against one by one (of
/// `single`) per block and per segment: a step advances every lane, busy or not, so it costs
/// `filled` single steps less one step of the kernel, shared by the `filled` blocks; a call
/// likewise. What a message costs less on the lanes than one by one (either way it runs there)
/// counts per segment too: a batch has at least as many segments as messages.
pub(crate) fn savings(single: Cost, cost: Cost, filled: usize) -> (f32, f32) {
    let per_message = (single.message - cost.message.min(cost.ragged)).max(0.0);
    (
        (single.step - cost.step / filled as f32).max(0.0),
        (single.call - cost.call / filled as f32).max(0.0) + per_message,
    )
}

/// Whether lane kernel `(width, cost)`, saving `full` with every lane filled, cannot beat one
/// by one (of `single_cost`, `single` its predicted time) on `count` messages of `blocks`
/// blocks and `segments` segments: what it saves per block and segment (with as many lanes
/// filled as there are messages, at most all) wins no more than its set-up back; messages of
/// one block each (`one_block_each`) are compared at the time its groups of them were measured,
/// where it has such groups.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn lanes_hopeless(
    single_cost: Cost,
    single: f32,
    (width, cost): (usize, Cost),
    full: (f32, f32),
    count: usize,
    blocks: f32,
    segments: f32,
    one_block_each: bool,
) -> bool {
    if let (true, Some(time)) = (one_block_each, cost.one_block_lanes_time(width, count)) {
        return time >= single;
    }
    let (per_block, per_segment) = if count < width {
        savings(single_cost, cost, count)
    } else {
        full
    };
    per_block * blocks + per_segment * segments <= cost.setup
}

/// The most blocks on which a lane kernel of `setup` that saves at most `per_block` and
/// `per_segment` cannot win its set-up back: a batch has at most as many segments as blocks.
pub(crate) fn blocks_below_setup(setup: f32, (per_block, per_segment): (f32, f32)) -> usize {
    let per = per_block + per_segment;
    if per <= 0.0 {
        return usize::MAX;
    }
    // Up to 2^20 blocks, where f32's rounding (a few parts in 2^24) is worth under a block
    // in the quotient and in the test each, the quotient is at most two blocks past the exact
    // test's answer, so it is undone in two steps: no loop, a few instructions, as a
    // process's first batch runs this cold. (A larger threshold would only send a batch to
    // the full planner, which finds the same plan.)
    let mut blocks = (setup / per).min(1_048_576.0) as u32;
    // Rounding must not claim a block the exact test would not.
    let over = |blocks: u32| per_block * blocks as f32 + per_segment * blocks as f32 > setup;
    for _ in 0..2 {
        if blocks > 0 && over(blocks) {
            blocks -= 1;
        }
    }
    debug_assert!(
        blocks == 0 || !over(blocks),
        "the threshold still claims a block"
    );
    blocks as usize
}

/// Of `kernels`, the one of least time per block with every lane busy (the first of equals):
/// what long batches run on. `lanes_and_cost` gives each kernel's lane count (1: the
/// single-message kernel) and cost. The one rule for "the cheapest kernel": the default
/// many-message variant, what `engine::active_many` names, and PBKDF2's chains without
/// measuring all ask it.
pub fn cheapest_per_block<T>(
    kernels: impl IntoIterator<Item = T>,
    lanes_and_cost: impl Fn(&T) -> (usize, Cost),
) -> Option<T> {
    let per_block = |kernel: &T| {
        let (lanes, cost) = lanes_and_cost(kernel);
        cost.per_block(lanes)
    };
    kernels
        .into_iter()
        .min_by(|a, b| per_block(a).total_cmp(&per_block(b)))
}
