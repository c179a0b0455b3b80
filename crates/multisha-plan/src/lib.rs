//! The batch planner of multisha: which kernels run which messages of a batch, as a pure
//! function of the kernels' costs and the messages' lengths. No statics, no CPU, no kernels:
//! the engine crate measures the costs, keeps them and runs the plans.
//!
//! * [`costs`]: the cost model, each kernel's cost per use, group, call, step and message, and the
//!   thresholds that settle the smallest batches from their totals;
//! * [`shape`]: a batch's lengths as the planner needs them, read in one pass, and the order
//!   in which the executor starts the messages;
//! * [`plan`](mod@plan): a plan, its stages and its predicted time;
//! * [`search`]: the predictions and the search for the plan of least predicted time;
//! * [`memo`]: the plans of recent equal-length batches, remembered by their shape.
//!
//! # The model
//! Every lane kernel declares a cost estimate ([`multisha_contract::Cost`]): nanoseconds per
//! use in a batch, per group of messages run side by side, per call, per step (a step
//! advances every lane by one block) and per message it takes, so sixteen lanes with five
//! filled cost less than with sixteen; a message costs more, up to about twice as much, in a
//! slot of its own (lengths whose blocks differ) than in a group of one block shape (full, or
//! the last messages of a stage); a padding block that equal messages a whole number of
//! blocks long share (64-byte Merkle nodes) costs less than a step; the
//! single-message kernel has parts per call, per block and per message. The engine measures
//! these parts on the running CPU twice per process (`multisha`'s `batch/calibrate.rs`: the
//! fastest of up to 25 interleaved rounds, each lane kernel's step raised by a ninth of the
//! nine-block runs' typical excess over their fastest, since a neighbour on the same core
//! slows lanes bound by a unit's throughput more than a kernel bound by its latency).
//!
//! Costs measured in a window or two cannot follow a busy neighbour from one moment to the
//! next (the second window, each kernel's faster of the two kept, only makes a process that
//! measured in a busy phase rarer): on a shared Intel Xeon, two interleaved SHA-NI streams
//! took 0.7 to 1.05 times one by one's time from one 2 ms interval to the next; on a shared
//! AMD Zen 4 VM, four interleaved SHA-1 SHA-NI streams ran a step in 45-50 ns in quiet phases
//! and 75-105 ns in busy ones that lasted seconds (two streams slowed by 5-10%), so a process
//! that measured in a busy phase plans its SHA-1 batches on two streams. Where two plans are
//! that close, either can be the slower a moment later; [`LANES_MARGIN`] keeps lanes from
//! winning on a predicted gain smaller than the model's error, and [`WIDER_MARGIN`] keeps a
//! wider lane kernel from winning so over a narrower one ([`WIDEST_MARGIN`] on more than 16
//! lanes).
//!
//! # The search
//! See [`search`] for the candidates and the predictions, and [`PLANNING_SHARE`] for the
//! planning budget: the search runs only where it costs at most 1% of the batch's predicted
//! time.
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

pub use costs::{Costs, FEW_ONE_BLOCK, FEW_RAGGED, FewRagged, MAX_KERNELS, cheapest_per_block};
pub use memo::{PlanMemo, Remembered};
pub use plan::{MAX_STAGES, Plan, Runner, Stage};
#[cfg(feature = "std")]
pub use search::every_plan_shape;
pub use search::{
    LANES_MARGIN, PLANNING_SHARE, WIDER_MARGIN, WIDEST_MARGIN, all_on_lanes_time, estimate,
    one_by_one_wins, plan, plan_for, plan_ragged, ragged_steps, unsearched,
};
pub use shape::{Shape, Tail};
