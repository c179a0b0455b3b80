//! The batch functions (`sha256_many`, `sha256_pairs`, ...): many messages per call, on the
//! CPU's multi-lane kernels where that pays.
//!
//! Three parts, each in its own file:
//! * the cost model ([`kernels`], [`calibrate`]): every lane kernel the CPU runs and the
//!   single-message kernel, each with a cost per use, call, step and message, declared as an
//!   estimate and measured on the running CPU once the batch work pays for it;
//! * the planner ([`planner`], over the batch's [`shape`]): a pure function of the costs and
//!   the message lengths that picks the plan of least predicted time;
//! * the executor ([`executor`]): runs the plan's stages on the lanes or one by one.
//!
//! A variant asked for by name (`engine::force`, `MULTISHA_SHA256_MANY`, `PinnedMany`) skips
//! the planner: it runs every message of every batch itself.

pub(crate) mod audit;
pub(crate) mod calibrate;
pub(crate) mod executor;
mod io;

pub(crate) use io::{Digests, Flat, Messages};
use multisha_plan::Costs;
use multisha_plan::Remembered;

use crate::dispatch::{self, Ladder};
use crate::hash_function::HashFunction;
use crate::registry::Variant;
use multisha_contract::{BlockBytes, Compression, Kernel, KernelFn};
use multisha_plan::{Plan, Runner};
use multisha_plan::{Shape, Tail};

type Block<H> = multisha_contract::Block<<H as HashFunction>::Compression>;

/// Bytes per block of `H`.
const fn block_len<H: HashFunction>() -> usize {
    <Block<H> as BlockBytes>::LEN
}

/// Bytes of `H`'s length field.
const fn length_bytes<H: HashFunction>() -> usize {
    <H::Compression as Compression>::LENGTH_BYTES
}

/// The digests of `messages` into `digests`, as hash function `H`: planned by cost, or on the
/// many-message variant named by `force` or the environment.
///
/// # Panics
/// If `messages` and `digests` differ in length.
pub(crate) fn hash_many<H, M, D>(messages: &M, digests: &mut D)
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    if let Some(variant) = dispatch::pinned_many::<H::Compression>() {
        return run_pinned::<H, M, D>(variant, messages, digests);
    }
    check_lengths::<H>(messages.count(), digests.count());
    let single = dispatch::current::<H::Compression>();
    let count = messages.count();
    if count <= 1 {
        return executor::serial::<H, M, D>(single, messages, digests);
    }
    let (block_len, length_bytes) = (block_len::<H>(), length_bytes::<H>());
    // Whether the batch goes one by one is settled here, from the totals, in a few adds: the
    // smallest batches hash in about a hundred nanoseconds, where every check ahead of them
    // shows. One by one: too few blocks in all for any lane kernel to win its set-up back,
    // an equal shape remembered as one by one, or (in a process's first batches) a batch too
    // small to pay for working out the estimates. An equal batch's totals need no pass over
    // the messages (the lengths compared, four at a time without a branch); a ragged one's
    // take one. A few messages take that one pass straight away (it finds whether they are
    // equal too): comparing them first was a tenth of what 3 short SHA-1 messages add to a
    // loop of one-shot calls.
    let lens = |i| messages.get(i).len();
    let shape = match count {
        ..=8 => Shape::new(count, lens, block_len, length_bytes),
        _ => match messages.equal_len() {
            Some(len) => Shape::equal(count, len, block_len, length_bytes),
            None => Shape::new(count, lens, block_len, length_bytes),
        },
    };
    let mut first = None;
    let Some((costs, measured)) = calibrate::costs_for::<H::Compression>(&shape, &mut first) else {
        return executor::serial::<H, M, D>(single, messages, digests);
    };
    if costs.few_blocks(&shape) {
        return executor::serial::<H, M, D>(single, messages, digests);
    }
    let known = if shape.equal {
        dispatch::plan_memo::<H::Compression>().get(&shape, measured)
    } else {
        None
    };
    if known.is_some_and(Remembered::one_by_one) {
        return executor::serial::<H, M, D>(single, messages, digests);
    }
    // A small ragged batch that its estimate puts one by one goes straight there (counted
    // towards measuring, as every batch planned on the estimates is): planning it through
    // `plan_and_run` cost it 5-8% (6 SHA-1 messages of 0-200 bytes).
    if !shape.equal
        && multisha_plan::unsearched(costs, &shape).is_some_and(|plan| plan.is_one_by_one())
    {
        if !measured && calibrate::pending::<H::Compression>() {
            let work = costs
                .single()
                .time(shape.segments, shape.blocks, shape.count, 0);
            // Measured now if due: the next batches plan on the measured costs.
            let _ = calibrate::account::<H::Compression>(work);
        }
        return executor::serial::<H, M, D>(single, messages, digests);
    }
    plan_and_run::<H, M, D>(single, messages, digests, costs, measured, &shape, known);
}

/// [`hash_many`] past the smallest batches (of totals `shape`): plans `messages` with `costs`
/// (`measured` or estimated), or takes the plan `known` for an equal shape, and runs the plan.
#[inline(never)]
fn plan_and_run<H, M, D>(
    single: KernelFn<H::Compression>,
    messages: &M,
    digests: &mut D,
    costs: &Costs,
    measured: bool,
    shape: &Shape,
    known: Option<Remembered>,
) where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    // (The plan runs here rather than being returned: copied out through the stack, it cost
    // a store-forwarding stall per batch.)
    let (block_len, length_bytes) = (block_len::<H>(), length_bytes::<H>());
    let plan_with = |costs: &Costs, measured: bool, known: Option<Remembered>| match known {
        // Equal-length batches of a shape planned before (a Merkle level, fixed-size
        // records) take the remembered plan.
        Some(known) => known.plan(shape.count),
        None if shape.equal => {
            let plan = multisha_plan::plan(costs, shape, &Tail::EQUAL);
            dispatch::plan_memo::<H::Compression>().put(shape, measured, &plan);
            plan
        }
        None => {
            let lens = |i| messages.get(i).len();
            multisha_plan::plan_ragged(costs, shape, lens, block_len, length_bytes)
        }
    };
    let mut plan = plan_with(costs, measured, known);
    if !measured && calibrate::pending::<H::Compression>() {
        // Planned on the estimates: the batch's work counts towards measuring the costs; where
        // that is due now, the batch is planned again on the measured costs (not from the
        // memo, whose plan was made on the estimates).
        let work = costs
            .single()
            .time(shape.segments, shape.blocks, shape.count, 0);
        if let Some(&(ref costs, measured)) = calibrate::account::<H::Compression>(work) {
            plan = plan_with(costs, measured, None);
        }
    }
    let ladder = dispatch::ladder::<H::Compression>();
    // SAFETY: the ladder's kernels and the single-message kernel come from the dispatcher,
    // which checked that the CPU runs them.
    unsafe { executor::execute::<H, M, D>(&plan, &ladder, single, messages, digests) }
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
    check_lengths::<H>(messages.count(), digests.count());
    let declaration = variant
        .declaration::<H::Compression>()
        .expect("a variant of this algorithm");
    let single = dispatch::current::<H::Compression>();
    match declaration.kernel {
        Kernel::Lanes(_) => {
            let plan = Plan::all_on(Runner::Lanes(0), messages.count(), 0.0);
            // SAFETY: a pinned variant was checked to run on this CPU when it was chosen; the
            // single-message kernel comes from the dispatcher.
            unsafe {
                executor::execute::<H, M, D>(
                    &plan,
                    &Ladder::only(variant),
                    single,
                    messages,
                    digests,
                )
            };
        }
        Kernel::Serial => executor::serial::<H, M, D>(single, messages, digests),
        Kernel::Single(_) => panic!("{variant} is not a many-message variant"),
    }
}

/// Runs `messages` on every many-message variant alone, handing each result to `check` with a
/// label (tests).
#[cfg(test)]
pub(crate) fn for_every_variant<H: HashFunction>(
    messages: &[&[u8]],
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
        run_pinned::<H, _, _>(variant, messages, &mut digests[..]);
        check(&std::format!("{variant} alone"), &digests);
    }
}

/// Runs `messages` on every plan shape the CPU's kernels allow
/// ([`multisha_plan::every_plan_shape`]), handing each result to `check` with a label (tests: every
/// plan gives the same digests).
#[cfg(test)]
pub(crate) fn for_every_plan<H: HashFunction>(
    messages: &[&[u8]],
    mut check: impl FnMut(&str, &[H::Digest]),
) {
    let mut digests = std::vec![H::ZERO; messages.len()];
    let ladder = dispatch::ladder::<H::Compression>();
    let single = dispatch::current::<H::Compression>();
    for plan in multisha_plan::every_plan_shape(ladder.len(), messages.len()) {
        digests.fill(H::ZERO);
        // SAFETY: the ladder's kernels and the single-message kernel come from the dispatcher.
        unsafe { executor::execute::<H, _, _>(&plan, &ladder, single, messages, &mut digests[..]) };
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
