//! The dispatch layer: each algorithm's [`Slot`] (the installed single-message kernel and the
//! choices of both interfaces), the caches the slot keeps for the layers above it (the lane
//! kernels the CPU runs, the batch costs, the plan memo, the PBKDF2 chains' choice), and the
//! once-published cell they are kept in. It reads the registry and the planner's types, and
//! nothing above it: the batch executor, the calibration and PBKDF2 reach it, never the
//! reverse.

mod caches;
mod ladder;
mod published;
mod slot;

pub(crate) use caches::{
    batch_work, chains, costs, estimated_costs, estimates, ladder, plan_memo, single_declared_cost,
};
pub(crate) use ladder::Ladder;
pub(crate) use slot::{
    Registered, Slot, current, installed, pinned_many, single_choice, single_entries,
    single_variant,
};
