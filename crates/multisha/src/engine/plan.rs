//! What the batch planner decides, in words an auditor can read: the costs it uses
//! ([`batch_costs`]) and the plan it makes for given message lengths ([`batch_plan`]).

use crate::algorithms::dispatcher;
use crate::registry::{Algorithm, BatchCosts, BatchPlan};

/// The costs `algorithm`'s batch planner uses now: the declared estimates until they are
/// measured (once the process's batch work makes measuring cheap beside it, or on request by
/// [`calibrate`]), or for good with measuring off. Never measures.
pub fn batch_costs(algorithm: Algorithm) -> BatchCosts {
    dispatcher(algorithm).batch_costs()
}

/// Measures `algorithm`'s batch costs now, if they are not measured yet, and returns the costs
/// the planner uses from now on (FFTW's "measure on request"): for a program that batches
/// from its start, or an auditor. Takes up to 2 ms, once per process (once the batch work
/// planned on these costs takes as long again as the work that makes a measurement due, and
/// at least 250 ms later, a second measurement in another window refines them: each kernel's
/// cost from the window where it ran faster). Returns the estimates where measuring is off
/// (`MULTISHA_CALIBRATE=0`, a build without `std`) or while another thread is measuring
/// (nobody waits for it).
pub fn calibrate(algorithm: Algorithm) -> BatchCosts {
    dispatcher(algorithm).calibrate()
}

/// Why the value of `MULTISHA_CALIBRATE` was refused, if it was (then measuring stays on): it
/// takes `0`, `off`, `false` or `no` to turn measuring off, `1`, `on`, `true` or `yes` (or
/// nothing) to leave it on, in any case. Always `None` without the `std` feature.
pub fn calibrate_var_error() -> Option<&'static str> {
    #[cfg(feature = "std")]
    return crate::registry::env::calibrate_setting().err();
    #[cfg(not(feature = "std"))]
    None
}

/// The plan the batch functions of `algorithm` (`sha256_many`, ...) would run for messages of
/// `lengths` bytes, now.
pub fn batch_plan(algorithm: Algorithm, lengths: &[usize]) -> BatchPlan {
    dispatcher(algorithm).batch_plan(lengths)
}
