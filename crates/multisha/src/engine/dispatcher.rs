//! The run-time API's way to an algorithm's typed dispatcher: the [`Dispatch`] interface,
//! implemented for each algorithm's slot (it reaches the batch planner's reports and PBKDF2's
//! chains, above the slot); the registry's entries hand it out for an [`Algorithm`](crate::engine::Algorithm) value
//! ([`dispatcher`](crate::algorithms::dispatcher)).

use crate::dispatch::Slot;
use crate::hash_function::Registered;
use crate::registry::{BatchCosts, BatchPlan, Interface, Reason, Selection, Variant};

/// What the run-time API needs of an algorithm's dispatcher and planner, without their types:
/// implemented for each algorithm's slot, reached from an [`Algorithm`](crate::engine::Algorithm) value through
/// [`dispatcher`](crate::algorithms::dispatcher).
pub(crate) trait Dispatch: Sync {
    /// The selection of `interface`, probing first if nothing is installed yet.
    fn active(&self, interface: Interface) -> Selection;
    /// Installs `variant` (already checked to run on this CPU) for its interface, for the
    /// whole process.
    fn install(&self, variant: &'static Variant, reason: Reason);
    /// The batch planner's costs now.
    fn batch_costs(&self) -> BatchCosts;
    /// The batch planner's costs, measured now if they are not yet (and measuring is on).
    fn calibrate(&self) -> BatchCosts;
    /// The batch plan for messages of `lengths` bytes.
    fn batch_plan(&self, lengths: &[usize]) -> BatchPlan;
    /// The lane variant that runs a multi-block PBKDF2 derivation's chains side by side.
    fn pbkdf2_chains(&self) -> Option<&'static Variant>;
}

impl<A: Registered> Dispatch for Slot<A> {
    fn active(&self, interface: Interface) -> Selection {
        let selection = self.selection(interface);
        if selection.reason == Reason::Planned {
            // What the planner runs long batches on, by the costs it uses now.
            let costs = crate::batch::audit::costs::<A>();
            let bulk = multisha_plan::cheapest_per_block(costs.kernels(), |k| (k.lanes, k.cost))
                .expect("the single-message kernel at least");
            let variant = if bulk.lanes == 1 {
                A::ALGORITHM
                    .variant("serial")
                    .expect("every algorithm has serial")
            } else {
                bulk.variant
            };
            return Selection {
                variant,
                ..selection
            };
        }
        selection
    }

    fn batch_costs(&self) -> BatchCosts {
        crate::batch::audit::costs::<A>()
    }

    fn calibrate(&self) -> BatchCosts {
        crate::batch::calibrate::measure_now::<A>();
        crate::batch::audit::costs::<A>()
    }

    fn batch_plan(&self, lengths: &[usize]) -> BatchPlan {
        crate::batch::audit::plan::<A>(lengths)
    }

    fn pbkdf2_chains(&self) -> Option<&'static Variant> {
        crate::kdf::chains::chains_variant::<A>()
    }

    fn install(&self, variant: &'static Variant, reason: Reason) {
        Slot::install(self, variant, reason);
    }
}
