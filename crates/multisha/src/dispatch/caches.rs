//! The caches the slot keeps for the layers above it, filled once per process: the lane
//! kernels the CPU runs, the batch costs (declared and measured), the work planned on the
//! declared ones, the plan memo and the PBKDF2 chains' choice. Each is typed by the layer
//! below that defines it (the planner's `Costs` and `PlanMemo`), never by the one that fills
//! it.

use super::ladder::Ladder;
use super::published::Published;
use super::slot::{Registered, single_variant};
use crate::registry::cpu_features;
use core::sync::atomic::AtomicUsize;
use multisha_contract::{Compression, Cost};
use multisha_plan::{Costs, PlanMemo};

/// The lane kernels of `A` the CPU runs, found once per process and kept in the slot.
#[inline]
pub(crate) fn ladder<A: Registered>() -> LadderRef<A> {
    match A::slot().ladder.get_ref() {
        Some(ladder) => LadderRef::Kept(ladder),
        None => first_ladder::<A>(),
    }
}

/// [`ladder`] at the first batch call: the registry read once and kept. A thread that finds
/// another keeping it reads the registry for itself rather than wait (the other may have
/// been preempted).
#[cold]
#[inline(never)]
fn first_ladder<A: Registered>() -> LadderRef<A> {
    keep_ladder(&A::slot().ladder)
}

/// [`first_ladder`] with the ladder kept in `cell`.
pub(crate) fn keep_ladder<A: Registered>(cell: &'static Published<Ladder<A>>) -> LadderRef<A> {
    let ladder = Ladder::of(A::ALGORITHM, cpu_features());
    match cell.claim() {
        Some(claim) => {
            claim.publish(ladder);
            cell.get_ref()
                .map_or(LadderRef::Own(ladder), LadderRef::Kept)
        }
        None => LadderRef::Own(ladder),
    }
}

/// A [`Ladder`]: the one kept in the slot, or one read from the registry by a thread that
/// found another keeping it ([`first_ladder`]).
#[expect(
    clippy::large_enum_variant,
    reason = "an owned ladder is on one call's stack, and only while another thread keeps one; \
              the usual case writes a pointer"
)]
pub(crate) enum LadderRef<A: Compression> {
    Kept(&'static Ladder<A>),
    Own(Ladder<A>),
}

impl<A: Compression> core::ops::Deref for LadderRef<A> {
    type Target = Ladder<A>;

    fn deref(&self) -> &Ladder<A> {
        match self {
            LadderRef::Kept(ladder) => ladder,
            LadderRef::Own(ladder) => ladder,
        }
    }
}

/// The batch planner's costs of `A` as declared: the lane kernels' estimates and the
/// single-message variant's in use.
pub(crate) fn estimated_costs<A: Registered>() -> Costs {
    ladder::<A>().estimated(single_variant::<A>().estimated_cost())
}

/// The declared cost of `A`'s installed single-message kernel (zero before one is installed),
/// read without the registry: a process's first batches weigh their work with it
/// ([`calibrate::costs_for`](crate::batch::calibrate::costs_for)), and reading it through the
/// selection and the variant's declaration touched three more code pages, which in a fresh
/// process each cost up to microseconds the first time (the first `sha256_many` of 5 short
/// messages: median 1.3-3.3 us against 0.7-1.1 us, AMD Zen 4 VM).
#[inline]
pub(crate) fn single_declared_cost<A: Registered>() -> Cost {
    A::slot().estimate.get()
}

/// Where the batch planner's costs of `A` are published once measured.
pub(crate) fn costs<A: Registered>() -> &'static Published<(Costs, bool)> {
    &A::slot().costs
}

/// Where the declared estimates of `A`'s batch costs are kept once worked out.
pub(crate) fn estimates<A: Registered>() -> &'static Published<Costs> {
    &A::slot().estimates
}

/// The predicted nanoseconds of batch work `A` has planned on the estimates so far.
pub(crate) fn batch_work<A: Registered>() -> &'static AtomicUsize {
    &A::slot().work
}

/// The plans of `A`'s recent equal-length batches.
#[inline]
pub(crate) fn plan_memo<A: Registered>() -> &'static PlanMemo {
    &A::slot().plans
}

/// Where the choice of what runs `A`'s PBKDF2 chains is published once made
/// ([`kdf::chains`](crate::kdf::chains)): 0 one after the other, `k + 1` lane kernel `k`.
pub(crate) fn chains<A: Registered>() -> &'static Published<u8> {
    &A::slot().chains
}
