//! The engine's override and introspection API: the algorithms and their variants, the CPU's
//! features, what the dispatcher picked and why, forcing a variant, and hashing with a pinned
//! one. (The hashers and the one-shot functions live at the crate root.)
//!
//! ```
//! use multisha::engine::{Algorithm, Pinned, active, force};
//! for &algorithm in Algorithm::ALL {
//!     println!("{algorithm} runs {}", active(algorithm));
//! }
//! let rolled = Pinned::<multisha::Sha1>::new("rolled")?;
//! assert_eq!(rolled.hash(b"abc"), multisha::sha1(b"abc"));
//! assert!(force(Algorithm::Sha256, "no-such-variant").is_err());
//! # Ok::<(), multisha::engine::Error>(())
//! ```
//!
//! # Dispatch
//! The first hash of an algorithm probes the CPU ([`cpu_features`]: [`CpuFeatures::detect`]
//! minus the mask in [`CPU_MASK_VAR`], `MULTISHA_CPU=-sha,-avx512f`), reads the override
//! ([`Algorithm::env_var`], `MULTISHA_SHA256=unroll8`; both with the `std` feature) and
//! installs the first variant of [`Algorithm::variants`] the CPU runs (they are listed best
//! first) unless the override names one that can run. A bad override or mask is ignored and
//! reported by [`active`]. Later calls cost one relaxed atomic load and one indirect call.

mod choice;
pub(crate) mod dispatcher;
mod function;
mod pinned;
mod plan;

pub use crate::registry::{
    Algorithm, BatchCosts, BatchPlan, CPU_MASK_VAR, CpuFeatures, CpuMask, Error, Feature,
    Interface, KernelCost, Listing, MaskError, PlanStage, Reason, Schedule, Selection, Variant,
    choose, choose_many, cpu_features, cpu_mask, lookup,
};
pub use choice::{active, active_many, force, pbkdf2_chains};
pub use function::Function;
pub(crate) use function::FunctionInfo;
pub use pinned::{Pinned, PinnedMany};
pub use plan::{batch_costs, batch_plan, calibrate, calibrate_var_error};
