//! The dispatch layer: each algorithm's [`Slot`] (the installed single-message kernel and the
//! choices of both interfaces), the caches the slot keeps for the layers above it (the lane
//! kernels the CPU runs, the batch costs, the plan memo, the PBKDF2 chains' choice), and the
//! once-published cell they are kept in. It reads the registry and the planner's types, and
//! nothing above it: the batch executor, the calibration and PBKDF2 reach it, never the
//! reverse.

mod ladder;
mod slot;

pub(crate) use ladder::Ladder;
pub(crate) use slot::{
    Keyed, Slot, batch_work, blocks_since_measured, chains, costs, costs_again, current,
    estimated_costs, estimates, installed, installed_one_block, ladder, pinned_many, plan_memo,
    published_costs, single_choice, single_declared_cost, single_entries, single_variant,
    with_ladder,
};
#[cfg(feature = "std")]
pub(crate) use slot::{first_measured_at, install_one_block_alternative};
