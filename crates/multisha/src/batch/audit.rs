//! The planner's costs and plans as the engine's audit types ([`BatchCosts`], [`BatchPlan`]).

use super::{Destination, calibrate};
use crate::dispatch::{self, Ladder};
use crate::hash_function::Registered;
use crate::registry::{BatchCosts, BatchPlan, KernelCost, PlanStage, Variant};
use multisha_contract::{BlockBytes, Kernel};
use multisha_plan::{Costs, Plan, Runner, Shape};

/// The costs the planner of `A` uses now.
pub(crate) fn costs<A: Registered>() -> BatchCosts {
    let ladder = dispatch::ladder::<A>();
    let (costs, measured) = calibrate::costs::<A>();
    let mut kernels = [None; multisha_plan::MAX_KERNELS + 1];
    kernels[0] = Some(KernelCost {
        variant: dispatch::single_variant::<A>(),
        lanes: 1,
        cost: costs.single_cost(),
    });
    for (k, &(lanes, cost)) in costs.lane_kernels().iter().enumerate() {
        kernels[k + 1] = Some(KernelCost {
            variant: ladder.variant(k),
            lanes,
            cost,
        });
    }
    let measurements = if !measured {
        0
    } else if dispatch::costs_again::<A>().get_ref().is_some() {
        2
    } else {
        1
    };
    BatchCosts {
        algorithm: A::ALGORITHM,
        measured,
        measurements,
        kernels,
    }
}

/// The plan the batch functions of `A` would run for messages of `lengths` bytes now: the
/// decision of [`route`](super::route), the batch functions' own, asked without acting (no
/// work counted towards measuring, no plan remembered).
pub(crate) fn plan<A: Registered>(lengths: &[usize]) -> BatchPlan {
    let lens = |i: usize| lengths[i];
    let equal_len = || {
        let first = *lengths.first()?;
        lengths.iter().all(|&len| len == first).then_some(first)
    };
    // (Lengths only: described as messages whose addresses leave every kernel in.)
    super::route::<A, _>(
        lengths.len(),
        lens,
        equal_len,
        || false,
        Describe { lengths },
    )
}

/// The [`Destination`] of [`plan`]: the decision in words.
struct Describe<'a> {
    lengths: &'a [usize],
}

impl<A: Registered> Destination<A> for Describe<'_> {
    type Out = BatchPlan;
    const ACTS: bool = false;

    fn pinned(self, variant: &'static Variant) -> BatchPlan {
        let runner = match variant.declaration::<A>().map(|d| d.kernel) {
            Some(Kernel::Lanes(_)) => Runner::Lanes(0),
            _ => Runner::OneByOne,
        };
        let plan = Plan::all_on(runner, self.lengths.len(), 0.0);
        described::<A>(&plan, &Ladder::only(variant), false, true)
    }

    fn one_by_one(self, costs: Option<(&Costs, bool)>) -> BatchPlan {
        let (single, measured) = match costs {
            Some((costs, measured)) => (costs.single_cost(), measured),
            // A first batch too small to work the estimates out for: the kernel's own.
            None => (dispatch::single_variant::<A>().estimated_cost(), false),
        };
        let shape = Shape::new(
            self.lengths.len(),
            |i| self.lengths[i],
            A::Block::LEN,
            A::LENGTH_BYTES,
        );
        let predicted = single.one_by_one_time(
            shape.segments,
            shape.blocks,
            shape.count,
            shape.one_block_each(),
        );
        let plan = Plan::all_on(Runner::OneByOne, shape.count, predicted);
        described::<A>(&plan, &Ladder::EMPTY, measured, false)
    }

    fn plan(self, plan: &Plan, measured: bool) -> BatchPlan {
        described::<A>(plan, &dispatch::ladder::<A>(), measured, false)
    }
}

/// `plan` as the audit type, its lane kernels those of `ladder`.
fn described<A: Registered>(
    plan: &Plan,
    ladder: &Ladder<A>,
    measured: bool,
    pinned: bool,
) -> BatchPlan {
    let single = dispatch::single_variant::<A>();
    let mut stages = [None; multisha_plan::MAX_STAGES];
    let mut first = 0;
    for (slot, stage) in stages.iter_mut().zip(plan.stages()) {
        let (variant, lanes) = match stage.runner {
            Runner::OneByOne => (single, 1),
            Runner::Lanes(k) => (ladder.variant(k), ladder.kernel(k).lanes),
        };
        *slot = Some(PlanStage {
            variant,
            lanes,
            first,
            count: stage.count,
        });
        first += stage.count;
    }
    BatchPlan {
        algorithm: A::ALGORITHM,
        messages: plan.stages().map(|s| s.count).sum(),
        predicted_ns: plan.predicted,
        measured,
        pinned,
        stages,
    }
}
