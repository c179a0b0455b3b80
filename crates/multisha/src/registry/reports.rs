//! What the batch planner decides, as values an auditor can read: the costs it uses
//! ([`BatchCosts`]) and the plan it makes for given message lengths ([`BatchPlan`]).

use super::{Algorithm, Variant};
use core::fmt;
use multisha_contract::Cost;

/// At most this many kernels in a cost table: the single-message kernel and the lane kernels.
const MAX_ENTRIES: usize = multisha_plan::MAX_KERNELS + 1;

/// The cost of one kernel as the batch planner uses it.
#[derive(Debug, Clone, Copy)]
pub struct KernelCost {
    /// The variant (a single-message variant for one by one, lanes 1).
    pub variant: &'static Variant,
    /// How many messages it runs at once.
    pub lanes: usize,
    /// Nanoseconds per use, group, call, step and message.
    pub cost: Cost,
}

impl fmt::Display for KernelCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<11} {:>2} lane{} {} ({:.1} ns per block, lanes full)",
            self.variant.name(),
            self.lanes,
            if self.lanes == 1 { " " } else { "s" },
            self.cost,
            self.cost.per_block(self.lanes)
        )
    }
}

/// The costs an algorithm's batch planner uses now: measured on this CPU (once the process's
/// batch work pays for measuring, or on request by [`calibrate`](crate::engine::calibrate)),
/// or the kernels' declared estimates (before that, while another thread measures, with
/// `MULTISHA_CALIBRATE=0`, or without the `std` feature).
#[derive(Debug, Clone, Copy)]
pub struct BatchCosts {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Whether they were measured on this CPU (else estimated).
    pub measured: bool,
    /// In how many windows they were measured: 0 (the estimates), 1, or 2 (a second
    /// measurement once the batch work doubled, each kernel's cost from the window where it ran
    /// faster: a busy neighbour on the same core slows lane kernels in phases).
    pub measurements: u8,
    pub(crate) kernels: [Option<KernelCost>; MAX_ENTRIES],
}

impl BatchCosts {
    /// The single-message kernel first (one by one), then the lane kernels the CPU runs.
    pub fn kernels(&self) -> impl Iterator<Item = &KernelCost> {
        self.kernels.iter().flatten()
    }
}

impl fmt::Display for BatchCosts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let source = match (self.measured, self.measurements) {
            (false, _) => "declared estimates",
            (true, 2) => "measured on this CPU, the quieter of two windows",
            (true, _) => "measured on this CPU",
        };
        write!(f, "{} batch costs ({source}):", self.algorithm)?;
        for kernel in self.kernels() {
            write!(f, "\n  {kernel}")?;
        }
        Ok(())
    }
}

/// One stage of a batch plan: `count` messages, the next ones in start order, on `variant`.
#[derive(Debug, Clone, Copy)]
pub struct PlanStage {
    /// The variant: a lane kernel, or the single-message variant for one by one.
    pub variant: &'static Variant,
    /// Its lanes (1: one message after the other).
    pub lanes: usize,
    /// Where its messages start in start order (0: the first message to start).
    pub first: usize,
    /// How many messages it runs.
    pub count: usize,
}

/// The plan of a batch: its stages in order and the predicted time. Messages start longest
/// first within windows of 64 (the last window ends at the batch's end), so the first stage
/// gets the longest messages and the last stage the shortest of the last window.
#[derive(Debug, Clone, Copy)]
pub struct BatchPlan {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// How many messages.
    pub messages: usize,
    /// Predicted nanoseconds (0 for a pinned variant, which is not planned).
    pub predicted_ns: f32,
    /// Whether the costs were measured on this CPU (else the declared estimates).
    pub measured: bool,
    /// Whether a variant was named (`force`, the environment): it runs the whole batch.
    pub pinned: bool,
    pub(crate) stages: [Option<PlanStage>; multisha_plan::MAX_STAGES],
}

impl BatchPlan {
    /// The stages, in order.
    pub fn stages(&self) -> impl Iterator<Item = &PlanStage> {
        self.stages.iter().flatten()
    }
}

impl fmt::Display for BatchPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} batch of {} messages:", self.algorithm, self.messages)?;
        for stage in self.stages() {
            let end = stage.first + stage.count;
            let which = match (stage.first, end) {
                (0, end) if end == self.messages => "all",
                (0, _) => "the longest",
                (_, end) if end == self.messages => "the last (shortest)",
                _ => "the next",
            };
            if stage.lanes == 1 {
                write!(
                    f,
                    " {which} {} one by one on {};",
                    stage.count,
                    stage.variant.name()
                )?;
            } else {
                write!(
                    f,
                    " {which} {} on {} ({} lanes);",
                    stage.count,
                    stage.variant.name(),
                    stage.lanes
                )?;
            }
        }
        if self.pinned {
            f.write_str(" pinned by name")
        } else {
            write!(
                f,
                " predicted {:.0} ns from {}",
                self.predicted_ns,
                if self.measured {
                    "measured costs"
                } else {
                    "estimated costs"
                }
            )
        }
    }
}
