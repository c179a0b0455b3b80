//! The registry: what the engine knows before anything runs. The CPU's features and the mask
//! on them, the algorithms and their variants in priority order, the rules that choose a
//! variant, the errors, and the values the reports hand out. The lowest layer: it imports from
//! no other module of the crate (the dispatcher implements its [`Dispatch`] interface).

mod algorithm;
mod cpu;
#[cfg(feature = "std")]
pub(crate) mod env;
mod error;
mod name_buf;
mod reports;
pub(crate) mod select;
mod variant;

pub use algorithm::{Algorithm, Listing};
pub(crate) use algorithm::{AlgorithmInfo, Dispatch};
pub use cpu::{CPU_MASK_VAR, CpuMask, cpu_features, cpu_mask};
pub use error::Error;
pub use multisha_contract::{CpuFeatures, Feature, MaskError, Schedule};
pub use reports::{BatchCosts, BatchPlan, KernelCost, PlanStage};
pub use select::{Reason, Selection, choose, choose_many, lookup};
pub use variant::{Interface, Variant};
