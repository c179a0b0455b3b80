//! The batch functions (`sha256_many`, `sha256_pairs`, ...): many messages per call, on the
//! CPU's multi-lane kernels where that pays.
//!
//! This file decides what a batch comes to ([`route`]: pinned, one by one, or a plan) for the
//! batch functions and for `engine::batch_plan` alike; the rest, each in its own file:
//! * [`calibrate`]: the kernels' costs (declared as estimates by each variant, kept in the
//!   dispatcher's slot with the lane kernels the CPU runs) measured on the running CPU once the
//!   batch work pays for it;
//! * the planner, the `multisha-plan` crate: a pure function of the costs and the message
//!   lengths that picks the plan of least predicted time;
//! * [`executor`]: runs the plan's stages on the lanes or one by one, reading the messages and
//!   writing the digests whatever their container ([`Messages`], [`Digests`]);
//! * [`audit`]: the costs and the plans as the engine's report values.
//!
//! A variant asked for by name (`engine::force`, `MULTISHA_SHA256_MANY`, `PinnedMany`) skips
//! the planner: it runs every message of every batch itself.

pub(crate) mod audit;
pub(crate) mod calibrate;
pub(crate) mod executor;
mod start;

pub(crate) use executor::{Digests, Flat, Messages, OneByOneKernel};
use multisha_plan::Remembered;
use multisha_plan::{Costs, FewRagged};
pub(crate) use start::{AfterBlocks, FromIv, Start};

use crate::dispatch::{self, Ladder};
use crate::hash_function::HashFunction;
use crate::hash_function::Registered;
use crate::registry::Variant;
use core::marker::PhantomData;
use multisha_contract::{BlockBytes, Compression, Kernel, NARROW_SLOTS};
use multisha_plan::shape::{message_blocks, totals};
use multisha_plan::{Plan, Runner};
use multisha_plan::{Shape, Tail};

#[cfg(test)]
type Block<H> = multisha_contract::Block<<H as HashFunction>::Compression>;

/// Bytes per block of `H`.
#[cfg(test)]
const fn block_len<H: HashFunction>() -> usize {
    <Block<H> as BlockBytes>::LEN
}

/// Bytes of `H`'s length field.
#[cfg(test)]
const fn length_bytes<H: HashFunction>() -> usize {
    <H::Compression as Compression>::LENGTH_BYTES
}

/// The digests of `messages` into `digests`, as hash function `H`: planned by cost, or on the
/// many-message variant named by `force` or the environment.
///
/// # Panics
/// If `messages` and `digests` differ in length.
#[inline(always)]
pub(crate) fn hash_many<H, M, D>(messages: &M, digests: &mut D)
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    hash_many_from::<H, M, D, _>(messages, digests, FromIv::<H>::NEW);
}

/// The digest of one message of one block (`sha256_pairs` of one node: a step of a Merkle
/// proof) written into `digest` straight from the single kernel's entry for one-block messages:
/// the route and the one-shot function around that entry (a check of the count, a call, a
/// stack frame, the digest copied twice) were 3 of 55 ns a node, calls back to back, on an
/// Intel Xeon. False, nothing written, where a many-message variant is pinned (it runs every
/// batch), the kernel has no such entry, `block` is not one block, or no kernel is installed
/// yet (a process's first call): [`hash_many`] then.
#[inline(always)]
pub(crate) fn one_block_alone<H: HashFunction>(block: &[u8], digest: &mut H::Digest) -> bool {
    if dispatch::pinned_many::<H::Compression>().is_some() {
        return false;
    }
    let one_block = dispatch::installed_one_block::<H::Compression>();
    // SAFETY: the slot holds an entry of a kernel the dispatcher checked the CPU runs.
    unsafe {
        multisha_contract::hash_one_block::<H::Compression>(
            one_block,
            H::IV,
            block,
            digest.as_mut(),
        )
    }
}

/// [`hash_many`] with every message starting from `start` (a keyed state: the HMAC batch
/// functions). Planned as the same messages from the IV: the prefix is whole blocks hashed
/// once, before the batch.
///
/// # Panics
/// If `messages` and `digests` differ in length.
#[inline(always)]
pub(crate) fn hash_many_from<H, M, D, S>(messages: &M, digests: &mut D, start: S)
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    check_lengths::<H>(messages.count(), digests.count());
    // One by one here, after the decision, each digest written into its slot in place: run as
    // the decision's destination (inside [`route`]'s code) and copied into the slot, the one-shot
    // path ran a batch of one short message 10-15 ns behind a loop of one-shot calls on an AMD
    // Zen 4 (`regret --processes 3 --only "1 x"`, times that loop: 1 x 32 / 64 / 300 B SHA-1
    // 1.24 / 1.28 / 1.12, in place there 1.24 / 1.28 / 1.12 still, here 1.13-1.14 / 0.96 / 0.99;
    // SHA-256 1.08 / 1.01 / 1.10 -> 1.01 / 0.97 / 1.00-1.01). Planned batches are unchanged:
    // the planner out of line instead cost 2 x 64 B SHA-256 8 ns a call.
    // A batch of one message (or none) as [`route`] sends it, without reading anything else.
    let before_costs =
        if messages.count() <= 1 && dispatch::pinned_many::<H::Compression>().is_none() {
            true
        } else {
            match route_run::<H, M, D, S>(messages, digests, start) {
                Settled::Ran => return,
                Settled::OneByOne { before_costs } => before_costs,
            }
        };
    one_by_one::<H, M, D, S>(messages, digests, start, before_costs);
}

/// [`hash_many`] of Merkle nodes, 64-byte messages (`sha256_pairs`), which takes a lone node
/// to [`one_block_alone`] first (it comes here only where that declines: a variant pinned, a
/// kernel without an entry for one block, none installed yet): without [`hash_many_from`]'s
/// check for one message first, which cost two nodes 4 ns a call (`merkle_nodes --processes
/// 9`, AMD Zen 4: 37.0 -> 38.9 ns a node, 0.89x -> 0.85x hashtree). [`route`] sends one
/// message one by one all the same.
#[inline(always)]
pub(crate) fn hash_nodes<H, M, D>(messages: &M, digests: &mut D)
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    check_lengths::<H>(messages.count(), digests.count());
    let start = FromIv::<H>::NEW;
    if let Settled::OneByOne { before_costs } = route_run::<H, M, D, _>(messages, digests, start) {
        one_by_one::<H, M, D, _>(messages, digests, start, before_costs);
    }
}

/// [`route`] of a batch run: runs it where it is pinned or planned, or says that it goes one
/// by one.
#[inline(always)]
fn route_run<H, M, D, S>(messages: &M, digests: &mut D, start: S) -> Settled
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    let run = Run::<H, M, D, S> {
        messages,
        digests,
        start,
        hash: PhantomData,
    };
    route::<H::Compression, _>(
        messages.count(),
        |i| messages.get(i).len(),
        || messages.equal_len(),
        || page_aliased(messages),
        run,
    )
}

/// `messages` one after the other on the single-message kernel into `digests`.
#[inline(always)]
fn one_by_one<H, M, D, S>(messages: &M, digests: &mut D, start: S, before_costs: bool)
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    // Before the estimates (a process's first small batches, a batch of one message): the
    // one-shot path ([`crate::oneshot::dispatched_into`]) rather than the executor's loop,
    // whose every line would be cold. Batches from a keyed state take the executor's loop.
    if before_costs && S::FROM_IV {
        for i in 0..messages.count() {
            let message = messages.get(i);
            // Into the slot in place ([`HashFunction::digest_in`] says why).
            if let Some(slot) = H::digest_in(digests.slot(i)) {
                crate::oneshot::dispatched_into::<H>(message, slot);
            } else {
                digests.put(i, &crate::oneshot::dispatched::<H>(message));
            }
        }
        return;
    }
    let single = OneByOneKernel::installed();
    executor::serial_from::<H, M, D, S>(single, start, messages, digests);
}

/// Whether the first two messages (of two or more), the first at least 4 KiB long, start a
/// multiple of 4 KiB apart: records of 4 KiB, 16 KiB, ... one after the other. Every lane's
/// block then falls in the same sets of the L1 cache, and thirty-two lanes' lines evict each
/// other (on a Zen 4, 256 x 4 KiB in one buffer: SHA-1 `avx512-x32` 0.87-0.89 times
/// `avx512-x16`'s speed, and 1.01-1.04 times with the records 64 bytes further apart; the
/// `lane_groups` example), which the costs, measured on messages in cache, do not show: such
/// batches leave the kernels of more than sixteen lanes out, and are planned afresh rather
/// than from the memo (a few hundred nanoseconds beside at least two pages' hashing). A
/// length and two addresses read per batch that is planned.
fn page_aliased<M: Messages + ?Sized>(messages: &M) -> bool {
    const PAGE: usize = 4096;
    let first = messages.get(0);
    let second = messages.get(1).as_ptr().addr();
    first.len() >= PAGE
        && first.as_ptr().addr() != second
        && first.as_ptr().addr().abs_diff(second).is_multiple_of(PAGE)
}

/// Where [`route`] sends a batch: the batch functions run it ([`Run`]), `engine::batch_plan`
/// describes it (`audit`). One decision, so that what an auditor is shown is what runs.
pub(crate) trait Destination<A: Compression> {
    /// What the batch comes to.
    type Out;
    /// Whether deciding acts on the process: counts the batch's work towards measuring the
    /// costs (measuring when due) and remembers an equal shape's plan. The audit only asks.
    const ACTS: bool;
    /// All on the many-message variant named by `force` or the environment.
    fn pinned(self, variant: &'static Variant) -> Self::Out;
    /// One message after the other on the single-message kernel, with the costs the decision
    /// had (`None`: a batch of at most one message, or a process's first batches, before the
    /// estimates are worked out).
    fn one_by_one(self, costs: Option<(&Costs, bool)>) -> Self::Out;
    /// As `plan` says, made from costs `measured` (else estimated).
    fn plan(self, plan: &Plan, measured: bool) -> Self::Out;
}

/// What a batch run came to: run (pinned or planned), or one by one, which the caller runs
/// ([`hash_many_from`] says why).
enum Settled {
    Ran,
    /// `before_costs`: decided before the costs were worked out (a process's first batches).
    OneByOne {
        before_costs: bool,
    },
}

/// A batch run: the [`Destination`] of the batch functions. The single-message kernel is read
/// from the slot where a batch goes one by one or to a plan, not before: carried through the
/// decision, it cost 15 ns on 8 SHA-1 messages of 0-200 bytes (`small_batches`).
struct Run<'a, H: HashFunction, M: ?Sized, D: ?Sized, S> {
    messages: &'a M,
    digests: &'a mut D,
    /// Where every message starts.
    start: S,
    hash: PhantomData<H>,
}

impl<H, M, D, S> Destination<H::Compression> for Run<'_, H, M, D, S>
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    type Out = Settled;
    const ACTS: bool = true;

    #[inline(always)]
    fn pinned(self, variant: &'static Variant) -> Settled {
        run_pinned_from::<H, M, D, S>(variant, self.start, self.messages, self.digests);
        Settled::Ran
    }

    #[inline(always)]
    fn one_by_one(self, costs: Option<(&Costs, bool)>) -> Settled {
        Settled::OneByOne {
            before_costs: costs.is_none(),
        }
    }

    #[inline(always)]
    fn plan(self, plan: &Plan, _: bool) -> Settled {
        let single = OneByOneKernel::installed();
        // The lane kernels by reference: a `LadderRef` moved by value was a copy of the whole
        // ladder on every batch (8 ns of 8 x 32 B SHA-1 on `avx512-x16`, 3%).
        dispatch::with_ladder::<H::Compression, _>(|ladder| {
            // SAFETY: the ladder's kernels and the single-message kernel come from the
            // dispatcher, which checked that the CPU runs them.
            unsafe {
                executor::execute_from::<H, M, D, S>(
                    plan,
                    ladder,
                    single,
                    self.start,
                    self.messages,
                    self.digests,
                )
            }
        });
        Settled::Ran
    }
}

/// Batches of at most this many messages are read straight away (their lengths compared with
/// the first; where they differ, summed in one pass) and settled from their totals where they
/// go one by one ([`route`] says why). Measured on an Intel Xeon (`regret --processes 5`,
/// against a loop of one-shot calls): settled from their blocks up to 3 messages only, 4-8 x
/// 32 B SHA-256 ran 1.05-1.07 times the loop, 1.02-1.03 up to 8 (SHA-1 1.03-1.05 and 1.01); 2
/// and 3 x 32 B 1.04 and 1.03 before, 1.05 and 1.04 after. (On a Zen 4, settling up to 8
/// without the equal messages' own threshold had run 5 and 7 x 32 B 3-5% slower than up to
/// 3.) Up to 16, not 8: 9 SHA-1 messages of 0-200 B 1.038-1.041 -> 1.027-1.028 times the loop
/// (a pass for whether they are equal, then another for their totals; `regret --processes 9`,
/// the same Intel Xeon).
const READ_AT_ONCE: usize = 16;

// The blocks of a few messages are summed with plain adds ([`route`]).
const _: () = assert!(READ_AT_ONCE < multisha_plan::shape::PLAIN_SUM);

/// Decides what a batch of `count` messages of lengths `lens` (all of one length: what
/// `equal_len` says, asked past a few messages) comes to, and sends it to `to`: the
/// many-message variant pinned by name, one by one, or a plan of least predicted time.
///
/// Whether the batch goes one by one is settled here, from the totals, in a few adds: the
/// smallest batches hash in about a hundred nanoseconds, where every check ahead of them
/// shows. One by one: too few blocks in all for any lane kernel to win its set-up back, an
/// equal shape remembered as one by one, or (in a process's first batches) a batch too small
/// to pay for working out the estimates. An equal batch's totals need no pass over the
/// messages (the lengths compared, four at a time without a branch); a ragged one's take one.
/// A few messages are compared with the first (ragged ones stop at the second) and, where
/// ragged, take that one pass straight away; and where it settles one by one, nothing else is
/// read (the costs and the pass again, the aliasing check, each lane kernel's estimate in
/// turn: 7-24 ns of what 4 x 32 B and 3 messages of 0-200 B SHA-256 added to the loop, on an
/// Intel Xeon).
#[inline(always)]
pub(crate) fn route<A, T>(
    count: usize,
    lens: impl Fn(usize) -> usize + Copy,
    equal_len: impl FnOnce() -> Option<usize>,
    aliased: impl FnOnce() -> bool,
    to: T,
) -> T::Out
where
    A: Registered,
    T: Destination<A>,
{
    if let Some(variant) = dispatch::pinned_many::<A>() {
        return to.pinned(variant);
    }
    if count <= 1 {
        return to.one_by_one(None);
    }
    let (block_len, length_bytes) = (<A::Block as BlockBytes>::LEN, A::LENGTH_BYTES);
    // A few messages, on costs already worked out: the commonest answer, one by one, settled
    // from their blocks (one message's times the count where all are of one length, else
    // summed in one pass: a shift, an add and a compare a message): too few blocks for any
    // lane kernel to win its set-up back, or, all of one length, too few for any to win it
    // back on what each message costs the lanes more; then (ragged) the other totals, and
    // every lane kernel's floor above one by one's time. Decided with every lane kernel,
    // aliased messages or not: without some, one by one only wins more (the planner finds it).
    // Whether the totals were checked against those costs (not again, then), and the plan
    // that check made (a small ragged batch's estimate on lanes) with the costs it was made on.
    let mut checked = false;
    let mut estimated = None;
    // Whether this batch's work was counted towards working out the estimates (not again).
    let mut counted = false;
    let shape = if count <= READ_AT_ONCE {
        'small: {
            let first = lens(0);
            // Plain adds and products (no saturating chain of compares and moves: 2% of 8 x 32 B
            // SHA-1 on the lanes): a few messages cannot overflow the sum (`shape::PLAIN_SUM`).
            // Inlined, the block size a constant: a fold the compiler unrolled eight times out
            // of line, reloading the size each message, was nine cold lines of code on another
            // page in a process's first batch.
            let sum = |a, b| a + b;
            let published = match dispatch::published_costs::<A>() {
                Some((costs, measured)) => Some((costs, *measured)),
                None => dispatch::estimates::<A>()
                    .get_ref()
                    .map(|costs| (costs, false)),
            };
            let Some((costs, measured)) = published else {
                // A process's first batches: one by one from their totals, until the batch work
                // pays for working out the estimates. Nothing else is read: every line a first
                // batch reaches is cold (so not the equality check below either: the first
                // `sha256_many` of 5 short messages took 1.44-1.45 times a loop of one-shot
                // calls with it first, 1.36-1.37 this way; Intel Xeon, `first_use`).
                let sums = totals(count, lens, block_len, length_bytes, sum);
                let (blocks, segments, _, _, _) = sums;
                if !calibrate::estimates_due_for::<A>(segments, blocks, count, T::ACTS) {
                    return to.one_by_one(None);
                }
                counted = true;
                break 'small Shape::from_totals(count, sums, block_len, length_bytes);
            };
            // Equal lengths first, with no more than that needs: the differences or-ed, and
            // one message's totals times the count. The pass below for them too, with its
            // longest, shortest and equality a message, ran 7 and 8 x 32 B SHA-256 at 1.040 and
            // 1.038 times a loop of one-shot calls, 1.013 and 1.011 this way (SHA-1 8 x 32 B
            // 1.032 and 1.023; Intel Xeon, `regret`). Lengths that differ mostly differ at the
            // second message, which ends the check there.
            let equal = lens(1) == first && {
                let differ = (2..count).fold(0, |differ, i| differ | (lens(i) ^ first));
                differ == 0
            };
            let sums = if equal {
                let (each, segments) = message_blocks(first, block_len, length_bytes);
                (count * each, count * segments, first, first, true)
            } else {
                totals(count, lens, block_len, length_bytes, sum)
            };
            let (blocks, _, _, _, equal) = sums;
            checked = true;
            if equal {
                // Messages of one block each run on the lanes in groups of their own, whose
                // set-up the block threshold does not know: their own answer.
                let settled = if first == block_len {
                    costs.few_one_block_in(count)
                } else {
                    costs.few_blocks_in(count, blocks)
                        || costs
                            .few_equal_in(count, message_blocks(first, block_len, length_bytes).0)
                };
                if settled {
                    return to.one_by_one(published);
                }
                // (No second pass: on 3-8 x 32 B SHA-256 planned onto the lanes, it cost 5%.)
                break 'small Shape::from_totals(count, sums, block_len, length_bytes);
            }
            if costs.few_blocks_in(count, blocks) {
                return to.one_by_one(published);
            }
            // From the sums above: no second pass.
            let shape = Shape::from_totals(count, sums, block_len, length_bytes);
            match costs.few_ragged(&shape) {
                FewRagged::OneByOne => {
                    // The estimate's answer: counts towards measuring, as below.
                    let _ = count_if_due::<A, T>(costs, measured, &shape);
                    return to.one_by_one(published);
                }
                FewRagged::Lanes { kernel, predicted } => {
                    estimated = Some((kernel, predicted, costs as *const Costs));
                }
                FewRagged::Search => {}
            }
            shape
        }
    } else {
        match equal_len() {
            Some(len) => Shape::equal(count, len, block_len, length_bytes),
            None => Shape::new(count, lens, block_len, length_bytes),
        }
    };
    // The costs: measured (the steady state, read from the slot), else the estimates, once a
    // process's batch work pays for working them out ([`calibrate::estimates_for`]).
    let mut first = None;
    let costs = match dispatch::published_costs::<A>() {
        Some((costs, measured)) => Some((costs, *measured)),
        None => calibrate::estimates_for::<A>(&shape, &mut first, T::ACTS && !counted),
    };
    let Some((costs, measured)) = costs else {
        return to.one_by_one(None);
    };
    // (A constant where no kernel is wider than the narrow slots: no check, no copy.)
    let narrow = A::WIDEST_LANES > NARROW_SLOTS && aliased();
    let narrowed;
    let costs = if narrow {
        narrowed = costs.without_lanes_over(NARROW_SLOTS);
        &narrowed
    } else {
        costs
    };
    // Messages of one block each run on the lanes in groups of their own, whose set-up the
    // threshold does not know: planned (their shape is remembered). A few messages were
    // checked above, with every lane kernel (without some, one by one only wins more: the
    // planner finds it).
    if !checked && costs.few_blocks(&shape) && !shape.one_block_each() {
        // Counts as the other answers do: where the first measurement put every lane kernel
        // out of reach (a busy phase; under qemu, `armv8-x2` at 19 us a call), batches of any
        // size end here, and without this the second measurement never came.
        let _ = count_if_due::<A, T>(costs, measured, &shape);
        return to.one_by_one(Some((costs, measured)));
    }
    // The audit plans afresh (the search the memo remembered, on the same costs) for the
    // prediction, which a remembered plan does not keep.
    let known = if shape.equal && T::ACTS && !narrow {
        dispatch::plan_memo::<A>(costs).get(&shape, measured)
    } else {
        None
    };
    // An equal shape remembered as one by one, and a small ragged batch that its estimate
    // puts one by one (the estimate's answer, without making its plans), go straight there:
    // planning the latter through `plan_and_send` cost it 5-8% (6 SHA-1 messages of 0-200
    // bytes). Both count towards measuring, as every batch planned on the estimates does:
    // estimates that put a process's every batch one by one are what measuring may correct
    // (two SHA-256 SHA-NI lanes here).
    // The estimate made above is the plan where it was made on these costs (not others
    // published since, nor the narrowed ones).
    let mut estimated = estimated
        .filter(|&(_, _, on)| core::ptr::eq(on, costs))
        .map(|(kernel, predicted, _)| (kernel, predicted));
    // (`few_ragged` leaves every equal batch to the search: not asked.)
    let answer = if checked || shape.equal {
        FewRagged::Search
    } else {
        costs.few_ragged(&shape)
    };
    if let FewRagged::Lanes { kernel, predicted } = answer {
        estimated = Some((kernel, predicted));
    }
    if known.is_some_and(Remembered::one_by_one) || answer == FewRagged::OneByOne {
        // Measured now if due: the next batches plan on the measured costs.
        let _ = count_if_due::<A, T>(costs, measured, &shape);
        return to.one_by_one(Some((costs, measured)));
    }
    plan_and_send::<A, T>(lens, to, costs, measured, narrow, &shape, known, estimated)
}

/// Where a batch function (not the audit) decided a batch of totals `shape` on `costs` while
/// a measurement is due ([`calibrate::pending`]): [`count_towards_measuring`] on the estimates
/// (the first), [`calibrate::account_blocks`] on the first measurement (the second). A load
/// otherwise. Nothing without lane kernels: nothing to choose, so nothing to measure (a CPU
/// without them measured its single kernel alone, for its first large batch or for its
/// Merkle nodes).
#[inline(always)]
fn count_if_due<A: Registered, T: Destination<A>>(
    costs: &Costs,
    measured: bool,
    shape: &Shape,
) -> Option<&'static (Costs, bool)> {
    if T::ACTS && calibrate::pending::<A>() && !costs.lane_kernels().is_empty() {
        if measured {
            // Towards the second measurement.
            return calibrate::account_blocks::<A>(shape.blocks, costs.single_cost().step);
        }
        count_towards_measuring::<A>(costs, shape)
    } else {
        None
    }
}

/// Counts a batch of totals `shape`, planned on the estimates `costs`, towards measuring the
/// costs (its predicted time one by one), and measures now if that is due: then the measured
/// costs. Out of line: a process's batches reach it only before measuring.
#[inline(never)]
fn count_towards_measuring<A: Registered>(
    costs: &Costs,
    shape: &Shape,
) -> Option<&'static (Costs, bool)> {
    let work = costs
        .single_cost()
        .time(shape.segments, shape.blocks, shape.count, 0);
    calibrate::account::<A>(work)
}

/// [`route`] past the smallest batches (of totals `shape`): plans the messages of lengths
/// `lens` with `costs` (`measured` or estimated), or takes the plan `known` for an equal
/// shape or the estimate `estimated` (a lane kernel and its predicted time, made on `costs`)
/// for a small ragged one, and sends the plan to `to`. With `narrow` ([`page_aliased`]
/// messages), the costs are without the kernels of more than sixteen lanes, and the plan is
/// not remembered.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn plan_and_send<A, T>(
    lens: impl Fn(usize) -> usize,
    to: T,
    costs: &Costs,
    measured: bool,
    narrow: bool,
    shape: &Shape,
    known: Option<Remembered>,
    estimated: Option<(usize, f32)>,
) -> T::Out
where
    A: Registered,
    T: Destination<A>,
{
    // (The plan is sent from here rather than returned: copied out through the stack, it cost
    // a store-forwarding stall per batch.)
    let (block_len, length_bytes) = (<A::Block as BlockBytes>::LEN, A::LENGTH_BYTES);
    let plan_with = |costs: &Costs, measured: bool, known: Option<Remembered>| match known {
        // Equal-length batches of a shape planned before (a Merkle level, fixed-size
        // records) take the remembered plan.
        Some(known) => known.plan(shape.count),
        None if shape.equal => {
            let plan = multisha_plan::plan(costs, shape, &Tail::EQUAL);
            if T::ACTS && !narrow {
                dispatch::plan_memo::<A>(costs).put(shape, measured, &plan);
            }
            plan
        }
        None => multisha_plan::plan_ragged(costs, shape, &lens, block_len, length_bytes),
    };
    let plan = match estimated {
        Some((kernel, predicted)) => Plan::all_on(Runner::Lanes(kernel), shape.count, predicted),
        None => plan_with(costs, measured, known),
    };
    // Planned while a measurement is due: the batch's work counts towards it; where it is made
    // now, the batch is planned again on the costs published (not from the memo, whose plan
    // was made on the others).
    if let Some(&(ref costs, measured)) = count_if_due::<A, T>(costs, measured, shape) {
        let plan = if narrow {
            plan_with(&costs.without_lanes_over(NARROW_SLOTS), measured, None)
        } else {
            plan_with(costs, measured, None)
        };
        return to.plan(&plan, measured);
    }
    to.plan(&plan, measured)
}

/// The digests of `messages` into `digests` on the many-message `variant` alone (a lane
/// kernel runs every message to the end; `serial` runs them one by one).
///
/// # Panics
/// If `messages` and `digests` differ in length, or `variant` is not a many-message variant
/// of `H`'s algorithm.
#[inline(never)]
pub(crate) fn run_pinned<H, M, D>(variant: &'static Variant, messages: &M, digests: &mut D)
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    run_pinned_from::<H, M, D, _>(variant, FromIv::<H>::NEW, messages, digests);
}

/// [`run_pinned`] with every message starting from `start`.
///
/// # Panics
/// As [`run_pinned`].
#[inline(never)]
pub(crate) fn run_pinned_from<H, M, D, S>(
    variant: &'static Variant,
    start: S,
    messages: &M,
    digests: &mut D,
) where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    check_lengths::<H>(messages.count(), digests.count());
    let declaration = variant
        .declaration::<H::Compression>()
        .expect("a variant of this algorithm");
    let single = OneByOneKernel::<H::Compression>::installed();
    match declaration.kernel {
        Kernel::Lanes(_) => {
            let plan = Plan::all_on(Runner::Lanes(0), messages.count(), 0.0);
            // SAFETY: a pinned variant was checked to run on this CPU when it was chosen; the
            // single-message kernel comes from the dispatcher.
            unsafe {
                executor::execute_from::<H, M, D, S>(
                    &plan,
                    &Ladder::only(variant),
                    single,
                    start,
                    messages,
                    digests,
                )
            };
        }
        Kernel::Serial => executor::serial_from::<H, M, D, S>(single, start, messages, digests),
        Kernel::Single(_) => panic!("{variant} is not a many-message variant"),
    }
}

/// Runs `messages` on every many-message variant alone, handing each result to `check` with a
/// label (tests).
#[cfg(test)]
pub(crate) fn for_every_variant<H: HashFunction>(
    messages: &[&[u8]],
    check: impl FnMut(&str, &[H::Digest]),
) {
    for_every_variant_from::<H, _>(messages, FromIv::<H>::NEW, check);
}

/// [`for_every_variant`] with every message starting from `start`.
#[cfg(test)]
pub(crate) fn for_every_variant_from<H: HashFunction, S: Start<H::Compression>>(
    messages: &[&[u8]],
    start: S,
    mut check: impl FnMut(&str, &[H::Digest]),
) {
    use crate::registry::Interface;
    let mut digests = std::vec![H::ZERO; messages.len()];
    for variant in H::algorithm()
        .variants()
        .iter()
        .filter(|v| v.is_available() && v.interface() == Interface::Many)
    {
        // Cleared per variant: one that skips a slot must not inherit the previous one's digest.
        digests.fill(H::ZERO);
        run_pinned_from::<H, _, _, S>(variant, start, messages, &mut digests[..]);
        check(&std::format!("{variant} alone"), &digests);
    }
}

/// Runs `messages` on every plan shape the CPU's kernels allow
/// ([`multisha_plan::every_plan_shape`]), handing each result to `check` with a label (tests: every
/// plan gives the same digests).
#[cfg(test)]
pub(crate) fn for_every_plan<H: HashFunction>(
    messages: &[&[u8]],
    check: impl FnMut(&str, &[H::Digest]),
) {
    for_every_plan_from::<H, _>(messages, FromIv::<H>::NEW, check);
}

/// [`for_every_plan`] with every message starting from `start`.
#[cfg(test)]
pub(crate) fn for_every_plan_from<H: HashFunction, S: Start<H::Compression>>(
    messages: &[&[u8]],
    start: S,
    mut check: impl FnMut(&str, &[H::Digest]),
) {
    let mut digests = std::vec![H::ZERO; messages.len()];
    let ladder = dispatch::ladder::<H::Compression>();
    let single = OneByOneKernel::<H::Compression>::installed();
    for plan in multisha_plan::every_plan_shape(ladder.len(), messages.len()) {
        digests.fill(H::ZERO);
        // SAFETY: the ladder's kernels and the single-message kernel come from the dispatcher.
        unsafe {
            executor::execute_from::<H, _, _, S>(
                &plan,
                &ladder,
                single,
                start,
                messages,
                &mut digests[..],
            )
        };
        check(&std::format!("plan {plan}"), &digests);
    }
}

/// # Panics
/// If the counts differ.
#[track_caller]
fn check_lengths<H: HashFunction>(messages: usize, digests: usize) {
    assert_eq!(
        messages,
        digests,
        "{} of {messages} messages into {digests} digests: the lengths must be equal",
        H::OUTPUT.name,
    );
}

#[cfg(test)]
mod page_tests {
    use super::page_aliased;
    use std::{vec, vec::Vec};

    #[test]
    fn messages_a_multiple_of_4_kib_apart_are_page_aliased() {
        let buffer = vec![0u8; 5 * 4096 + 64];
        let at = |starts: &[usize], len: usize| -> Vec<&[u8]> {
            starts.iter().map(|&s| &buffer[s..s + len]).collect()
        };
        assert!(page_aliased(&at(&[0, 4096], 4096)[..]));
        assert!(page_aliased(&at(&[64, 64 + 16384], 4096)[..]));
        // Another distance, the same message twice (the same lines), or short messages: not
        // aliased.
        assert!(!page_aliased(&at(&[0, 4096 + 64], 4096)[..]));
        assert!(!page_aliased(&at(&[0, 1024], 1024)[..]));
        assert!(!page_aliased(&at(&[128, 128], 4096)[..]));
        assert!(!page_aliased(&at(&[0, 4096], 4095)[..]));
    }
}
