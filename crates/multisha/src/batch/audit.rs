//! The planner's costs and plans as the engine's audit types ([`BatchCosts`], [`BatchPlan`]).

use super::calibrate;
use crate::dispatch::{self, Ladder, Registered};
use crate::registry::{BatchCosts, BatchPlan, KernelCost, PlanStage, Reason};
use multisha_contract::{BlockBytes, Kernel};
use multisha_plan::{Plan, Runner};

/// The costs the planner of `A` uses now.
pub(crate) fn costs<A: Registered>() -> BatchCosts {
    let ladder = dispatch::ladder::<A>();
    let (costs, measured) = calibrate::costs::<A>();
    let mut kernels = [None; multisha_plan::MAX_KERNELS + 1];
    kernels[0] = Some(KernelCost {
        variant: dispatch::single_variant::<A>(),
        lanes: 1,
        cost: costs.single(),
    });
    for (k, &(lanes, cost)) in costs.lane_kernels().iter().enumerate() {
        kernels[k + 1] = Some(KernelCost {
            variant: ladder.variant(k),
            lanes,
            cost,
        });
    }
    BatchCosts {
        algorithm: A::ALGORITHM,
        measured,
        kernels,
    }
}

/// The plan the batch functions of `A` would run for messages of `lengths` bytes.
pub(crate) fn plan<A: Registered>(lengths: &[usize]) -> BatchPlan {
    let selection = dispatch::many::<A>();
    let single = dispatch::single_variant::<A>();
    let count = lengths.len();
    let pinned = matches!(selection.reason, Reason::Forced | Reason::Env);
    let (ladder, plan, measured) = if pinned {
        let runner = match selection.variant.declaration::<A>().map(|d| d.kernel) {
            Some(Kernel::Lanes(_)) => Runner::Lanes(0),
            _ => Runner::Single,
        };
        let plan = Plan::all_on(runner, count, 0.0);
        (Ladder::only(selection.variant), plan, false)
    } else {
        let ladder = dispatch::ladder::<A>();
        let (costs, measured) = calibrate::costs::<A>();
        let lens = |i| lengths[i];
        let plan = multisha_plan::plan_for(&costs, count, lens, A::Block::LEN, A::LENGTH_BYTES);
        (*ladder, plan, measured)
    };
    let mut stages = [None; multisha_plan::MAX_STAGES];
    let mut first = 0;
    for (slot, stage) in stages.iter_mut().zip(plan.stages()) {
        let (variant, lanes) = match stage.runner {
            Runner::Single => (single, 1),
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
        messages: count,
        predicted_ns: plan.predicted,
        measured,
        pinned,
        stages,
    }
}
