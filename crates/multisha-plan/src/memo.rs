//! The plans of recent equal-length batches, remembered per algorithm (FFTW's "wisdom", in
//! small): planning a batch that one by one does not settle outright costs 50-90 ns, as much as
//! hashing a couple of short messages, and programs that batch tend to send one shape again
//! and again (a Merkle level, fixed-size records). A batch of the shape of one remembered gets
//! its plan back for one atomic load.
//!
//! An entry packs the whole key and the plan into one `u64`, so readers never see a key with
//! another key's plan, and nothing needs a lock. Batches too large to pack are planned every
//! time: their hashing dwarfs the planning.

use crate::costs::MAX_KERNELS;
use crate::plan::{MAX_STAGES, Plan, Runner};
use crate::shape::Shape;
use core::sync::atomic::{AtomicU64, Ordering};

/// Entries per algorithm: a few shapes used in turn all stay remembered.
const ENTRIES: usize = 4;

/// Bits of a message count (in the key and in each stage).
const COUNT_BITS: u32 = 10;
/// Bits of one message's blocks.
const BLOCK_BITS: u32 = 16;
/// Bits of a stage's runner: a lane kernel's index, or [`SINGLE`].
const RUNNER_BITS: u32 = 4;
/// The runner code of the single-message kernel.
const SINGLE: u64 = MAX_KERNELS as u64;

/// Key: count, blocks per message, whether each message has two segments, whether the
/// costs were measured (a plan made with the estimates is not reused once they are), and
/// whether the messages share their padding block (a whole number of blocks long).
const KEY_BITS: u32 = COUNT_BITS + BLOCK_BITS + 3;
/// Plan: the stage count, each stage's runner, the first stages' counts (the last takes the
/// rest).
const PLAN_BITS: u32 = 2 + RUNNER_BITS * MAX_STAGES as u32 + COUNT_BITS * (MAX_STAGES as u32 - 1);
const _: () = assert!(KEY_BITS + PLAN_BITS <= 64);
const _: () = assert!(MAX_KERNELS as u64 <= SINGLE && SINGLE < 1 << RUNNER_BITS);

/// Remembered plans of one algorithm's equal-length batches.
#[derive(Debug)]
pub struct PlanMemo {
    entries: [AtomicU64; ENTRIES],
}

impl Default for PlanMemo {
    fn default() -> Self {
        Self::new()
    }
}

impl PlanMemo {
    /// Nothing remembered.
    pub const fn new() -> Self {
        Self {
            entries: [const { AtomicU64::new(0) }; ENTRIES],
        }
    }

    /// The plan remembered for the equal-length batch `shape` with costs `measured` or not.
    #[inline]
    pub fn get(&self, shape: &Shape, measured: bool) -> Option<Remembered> {
        let key = key(shape, measured)?;
        let entry = self.entries[slot(key)].load(Ordering::Relaxed);
        (entry & KEY_MASK == key).then_some(Remembered(entry >> KEY_BITS))
    }

    /// Remembers `plan` for the equal-length batch `shape` (in place of whatever shared its
    /// entry).
    pub fn put(&self, shape: &Shape, measured: bool, plan: &Plan) {
        let (Some(key), Some(packed)) = (key(shape, measured), pack(plan)) else {
            return;
        };
        self.entries[slot(key)].store(key | packed << KEY_BITS, Ordering::Relaxed);
    }
}

const KEY_MASK: u64 = (1 << KEY_BITS) - 1;

/// A remembered plan, packed.
#[derive(Debug, Clone, Copy)]
pub struct Remembered(u64);

impl Remembered {
    /// Whether the plan is every message one by one (the caller needs no [`Plan`] then).
    #[inline]
    pub fn one_by_one(self) -> bool {
        self.0 & 3 == 1 && (self.0 >> 2) & ((1 << RUNNER_BITS) - 1) == SINGLE
    }

    /// The plan, for the `count` messages of the batch it was remembered for.
    #[inline]
    pub fn plan(self, count: usize) -> Plan {
        unpack(self.0, count)
    }
}

/// The key of an equal-length batch of at least two messages that fits the bits; never 0, so
/// an empty entry matches nothing.
#[inline]
fn key(shape: &Shape, measured: bool) -> Option<u64> {
    let (blocks, segments) = shape.each()?;
    if shape.count < 2 || shape.count >> COUNT_BITS != 0 || blocks >> BLOCK_BITS != 0 {
        return None;
    }
    Some(
        shape.count as u64
            | (blocks as u64) << COUNT_BITS
            | u64::from(segments == 2) << (COUNT_BITS + BLOCK_BITS)
            | u64::from(measured) << (COUNT_BITS + BLOCK_BITS + 1)
            | u64::from(shape.shared_padding) << (COUNT_BITS + BLOCK_BITS + 2),
    )
}

/// The entry a key lives in: the low bits of count and blocks mixed.
#[inline]
fn slot(key: u64) -> usize {
    ((key ^ key >> COUNT_BITS) as usize) % ENTRIES
}

/// `plan` in [`PLAN_BITS`] bits (`None` if a stage count does not fit).
fn pack(plan: &Plan) -> Option<u64> {
    let mut packed = 0u64;
    let mut len = 0;
    for (i, stage) in plan.stages().enumerate() {
        let runner = match stage.runner {
            Runner::OneByOne => SINGLE,
            Runner::Lanes(k) => k as u64,
        };
        packed |= runner << (2 + RUNNER_BITS * i as u32);
        if i + 1 < MAX_STAGES {
            if stage.count >> COUNT_BITS != 0 {
                return None;
            }
            packed |= (stage.count as u64)
                << (2 + RUNNER_BITS * MAX_STAGES as u32)
                << (COUNT_BITS * i as u32);
        }
        len = i + 1;
    }
    Some(packed | len as u64)
}

/// The plan [`pack`] packed, for `count` messages in all; it carries no prediction (NaN).
#[inline]
fn unpack(packed: u64, count: usize) -> Plan {
    let len = (packed & 3) as usize;
    let mut stages = [Plan::EMPTY_STAGE; MAX_STAGES];
    let mut left = count;
    for (i, stage) in stages.iter_mut().enumerate().take(len) {
        stage.runner = match (packed >> (2 + RUNNER_BITS * i as u32)) & ((1 << RUNNER_BITS) - 1) {
            SINGLE => Runner::OneByOne,
            k => Runner::Lanes(k as usize),
        };
        stage.count = if i + 1 == len {
            left
        } else {
            ((packed >> (2 + RUNNER_BITS * MAX_STAGES as u32) >> (COUNT_BITS * i as u32))
                & ((1 << COUNT_BITS) - 1)) as usize
        };
        left -= stage.count;
    }
    Plan::of_stages(stages, len, f32::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Stage;

    fn equal(count: usize, len: usize) -> Shape {
        Shape::new(count, |_| len, 64, 8)
    }

    fn three_stages(count: usize) -> Plan {
        Plan::all_on(Runner::Lanes(2), count - 9, 1.0)
            .then(
                Stage {
                    runner: Runner::Lanes(0),
                    count: 8,
                },
                1.0,
            )
            .then(
                Stage {
                    runner: Runner::OneByOne,
                    count: 1,
                },
                1.0,
            )
    }

    fn same_stages(a: &Plan, b: &Plan) -> bool {
        a.stages().eq(b.stages())
    }

    #[test]
    fn a_remembered_plan_comes_back_with_its_stages() {
        let memo = PlanMemo::new();
        let shape = equal(29, 300);
        assert!(memo.get(&shape, true).is_none(), "nothing remembered yet");
        let plan = three_stages(29);
        memo.put(&shape, true, &plan);
        let back = memo.get(&shape, true).expect("remembered").plan(29);
        assert!(!memo.get(&shape, true).expect("remembered").one_by_one());
        assert!(same_stages(&back, &plan), "{back} is not {plan}");
        let single = Plan::all_on(Runner::OneByOne, 7, 1.0);
        let seven = equal(7, 64);
        memo.put(&seven, false, &single);
        let kept = memo.get(&seven, false).expect("kept");
        assert!(kept.one_by_one());
        assert!(same_stages(&kept.plan(7), &single));
    }

    #[test]
    fn another_shape_or_other_costs_find_nothing() {
        let memo = PlanMemo::new();
        memo.put(&equal(29, 300), true, &three_stages(29));
        // Measured and estimated costs plan apart.
        assert!(memo.get(&equal(29, 300), false).is_none());
        // Same blocks per message, other count; other blocks (300 B is 5 blocks, 400 B 7).
        assert!(memo.get(&equal(30, 300), true).is_none());
        assert!(memo.get(&equal(29, 400), true).is_none());
        // Same blocks, other segments: 40 B is one block of one segment, 64 B two blocks.
        memo.put(&equal(5, 40), true, &Plan::all_on(Runner::OneByOne, 5, 1.0));
        assert!(memo.get(&equal(5, 64), true).is_none());
        // Same blocks and segments, a padding block shared or not: 64 B and 60 B.
        memo.put(&equal(40, 64), true, &three_stages(40));
        assert!(memo.get(&equal(40, 64), true).is_some());
        assert!(memo.get(&equal(40, 60), true).is_none());
    }

    #[test]
    fn ragged_and_oversized_batches_are_not_remembered() {
        let memo = PlanMemo::new();
        let ragged = Shape::new(5, |i| 100 * i, 64, 8);
        memo.put(&ragged, true, &Plan::all_on(Runner::OneByOne, 5, 1.0));
        assert!(memo.get(&ragged, true).is_none());
        let many = equal(1 << COUNT_BITS, 64);
        memo.put(
            &many,
            true,
            &Plan::all_on(Runner::Lanes(0), 1 << COUNT_BITS, 1.0),
        );
        assert!(memo.get(&many, true).is_none());
        let long = equal(3, 64 << BLOCK_BITS);
        memo.put(&long, true, &Plan::all_on(Runner::Lanes(0), 3, 1.0));
        assert!(memo.get(&long, true).is_none());
    }

    #[test]
    fn each_stage_count_and_runner_round_trips() {
        for count in [2, 3, 17, 100, (1 << COUNT_BITS) - 1] {
            for k in 0..MAX_KERNELS {
                for head in 1..count.min(40) {
                    let plan = Plan::all_on(Runner::Lanes(k), head, 1.0).then(
                        Stage {
                            runner: Runner::OneByOne,
                            count: count - head,
                        },
                        1.0,
                    );
                    let packed = pack(&plan).expect("fits");
                    assert!(packed >> PLAN_BITS == 0);
                    assert!(same_stages(&unpack(packed, count), &plan), "{plan}");
                }
            }
        }
    }
}
