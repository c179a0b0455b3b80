//! The compression functions the engine carries variants of, as run-time values: each
//! [`Algorithm`] is a handle to one static description built from its descriptor
//! ([`multisha_contract::Compression`]) by the registry (`algorithms.rs`).

use super::{BatchCosts, BatchPlan, Interface, Reason, Selection, Variant};
use core::fmt;
use core::hash::{Hash, Hasher};

/// A compression function: SHA-1, SHA-256 (which also computes SHA-224) or SHA-512 (which also
/// computes SHA-384, SHA-512/224 and SHA-512/256).
///
/// A copyable handle to a static description; compare with `==`. Every value is one of the
/// associated constants (`Algorithm::Sha256`), listed in [`Algorithm::ALL`].
#[derive(Clone, Copy)]
pub struct Algorithm(pub(crate) &'static AlgorithmInfo);

/// One entry of the registry, of any architecture: what [`Algorithm::listing`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listing {
    /// The variant's name.
    pub name: &'static str,
    /// The architecture it is built for (`"x86_64"`, `"aarch64"`), `None` for portable ones.
    pub arch: Option<&'static str>,
    /// The interface it serves.
    pub interface: Interface,
}

/// What the run-time API knows of one algorithm.
pub(crate) struct AlgorithmInfo {
    pub(crate) id: &'static str,
    pub(crate) name: &'static str,
    pub(crate) env_var: &'static str,
    pub(crate) env_var_many: &'static str,
    pub(crate) block_len: usize,
    /// Every variant compiled for this target, best first.
    pub(crate) variants: &'static &'static [Variant],
    /// Every variant of every architecture in priority order, for clear errors about other
    /// architectures' variants and for the docs.
    pub(crate) names: &'static [Listing],
    /// The typed dispatcher of this algorithm, behind a non-generic interface.
    pub(crate) dispatch: &'static dyn Dispatch,
}

impl Algorithm {
    /// The lower-case name used in tables and on the command line (`sha1`, `sha256`).
    pub fn id(self) -> &'static str {
        self.0.id
    }

    /// The display name (`SHA-256`).
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The block size in bytes (64, or 128 for SHA-512).
    pub fn block_len(self) -> usize {
        self.0.block_len
    }

    /// The environment variable that overrides this algorithm's variant at probe time
    /// (`MULTISHA_SHA256`).
    pub fn env_var(self) -> &'static str {
        self.0.env_var
    }

    /// The environment variable that overrides the many-message variant at probe time
    /// (`MULTISHA_SHA256_MANY`).
    pub fn env_var_many(self) -> &'static str {
        self.0.env_var_many
    }

    /// The environment variable of `interface`'s override.
    pub fn env_var_for(self, interface: Interface) -> &'static str {
        match interface {
            Interface::Single => self.env_var(),
            Interface::Many => self.env_var_many(),
        }
    }

    /// Every variant of this algorithm compiled for this target, of both interfaces, best
    /// first within each interface: the order is the default priority.
    pub fn variants(self) -> &'static [Variant] {
        self.0.variants
    }

    /// The variant called `name`, available on this CPU or not.
    pub fn variant(self, name: &str) -> Option<&'static Variant> {
        self.variants().iter().find(|v| v.name() == name)
    }

    /// The architecture a variant called `name` exists for, if it is one of another
    /// architecture than this build's (`armv8` on x86-64 is `Some("aarch64")`).
    pub fn foreign_variant_arch(self, name: &str) -> Option<&'static str> {
        if self.variant(name).is_some() {
            return None;
        }
        self.0
            .names
            .iter()
            .find(|l| l.name == name)
            .and_then(|l| l.arch)
    }

    /// Every variant of every architecture, in priority order within each interface: its name,
    /// the architecture it is built for and its interface. [`Algorithm::variants`] has the
    /// details of those of this build.
    pub fn listing(self) -> &'static [Listing] {
        self.0.names
    }

    /// The single-message variant this algorithm runs now and why (probing the CPU first if
    /// nothing is installed yet).
    pub fn active(self) -> Selection {
        self.0.dispatch.active(Interface::Single)
    }

    /// The many-message variant this algorithm's batch functions run now and why.
    pub fn active_many(self) -> Selection {
        self.0.dispatch.active(Interface::Many)
    }

    pub(crate) fn index_of(self, variant: &Variant) -> usize {
        self.variants()
            .iter()
            .position(|v| core::ptr::eq(v, variant))
            .expect("variants come from their algorithm's registry")
    }
}

impl PartialEq for Algorithm {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.0, other.0)
    }
}

impl Eq for Algorithm {}

impl Hash for Algorithm {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.id.hash(state);
    }
}

impl fmt::Display for Algorithm {
    /// The display name (`SHA-256`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Algorithm({})", self.id())
    }
}

/// What the run-time API needs of an algorithm's dispatcher and planner, without their types:
/// the registry's interface to the layers above it, which implement it for each algorithm's
/// slot.
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
