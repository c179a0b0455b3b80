//! The registry: what the engine knows before anything runs. The CPU's features and the mask
//! on them, the algorithms and their variants in priority order, the rules that choose a
//! variant, the errors, and the values the reports hand out. The lowest layer: it imports from
//! no other module of the crate.

mod algorithm;
mod cpu;
pub(crate) mod env;
mod error;
mod name_buf;
mod reports;
pub(crate) mod select;

pub(crate) use algorithm::AlgorithmInfo;
pub use algorithm::{Algorithm, Interface, Listing, Variant};
pub use cpu::{CpuMask, cpu_features, cpu_mask};
pub use env::CPU_MASK_VAR;
pub use error::Error;
pub use multisha_contract::{CpuFeatures, Feature, MaskError, Schedule};
pub use reports::{BatchCosts, BatchPlan, KernelCost, PlanStage};
pub use select::{Reason, Selection, choose, choose_many, lookup};
