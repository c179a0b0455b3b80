//! The batch planner of multisha: which kernels run which messages of a batch, as a pure
//! function of the kernels' costs and the messages' lengths. No statics, no CPU, no kernels:
//! the engine crate measures the costs, keeps them and runs the plans.
//!
//! * [`costs`]: the cost model, each kernel's cost per use, call, step and message, and the
//!   thresholds that settle the smallest batches from their totals;
//! * [`shape`]: a batch's lengths as the planner needs them, read in one pass, and the order
//!   in which the executor starts the messages;
//! * [`plan`]: a plan, its stages and its predicted time;
//! * [`search`]: the predictions and the search for the plan of least predicted time;
//! * [`memo`]: the plans of recent equal-length batches, remembered by their shape.
//!
//! An engine internal with no stability promise: use `multisha` itself.
#![no_std]

#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod costs;
pub mod memo;
pub mod plan;
pub mod search;
pub mod shape;

pub use costs::{Costs, MAX_KERNELS};
pub use memo::{PlanMemo, Remembered};
pub use plan::{MAX_STAGES, Plan, Runner, Stage};
#[cfg(feature = "std")]
pub use search::every_plan_shape;
pub use search::{
    LANES_MARGIN, PLANNING_SHARE, all_on_lanes_time, estimate, one_by_one_wins, plan, plan_for,
    plan_ragged, ragged_steps, unsearched,
};
pub use shape::{Shape, Tail};
