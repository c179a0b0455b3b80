//! The compression functions the engine carries variants of, and their variants, as run-time
//! values: each [`Algorithm`] is a handle to one static description built from its descriptor
//! ([`multisha_contract::Compression`]) by the registry (`algorithms.rs`), listing its
//! [`Variant`]s, each of which names its algorithm back (so both live here).

use core::any::Any;
use core::fmt;
use core::hash::{Hash, Hasher};
use multisha_contract::{Compression, Cost, CpuFeatures, Declaration, Kernel, Schedule};

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

/// Which of the engine's interfaces a variant serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Interface {
    /// One message at a time: the hashers and the one-shot functions (`sha256`).
    Single,
    /// Many messages per call: the batch functions (`sha256_many`, `sha256_pairs`).
    Many,
}

impl Interface {
    /// A few words for tables (`single`, `many`).
    pub fn label(self) -> &'static str {
        match self {
            Interface::Single => "single",
            Interface::Many => "many",
        }
    }
}

/// A kernel declaration of any algorithm, seen without its type.
pub(crate) trait Declared: Any + Sync {
    fn name(&self) -> &'static str;
    fn requires(&self) -> CpuFeatures;
    fn description(&self) -> &'static str;
    fn schedule(&self) -> Schedule;
    fn kernel_address(&self) -> usize;
    fn lanes(&self) -> usize;
    fn is_many(&self) -> bool;
    fn has_one_block_entry(&self) -> bool;
    fn cost(&self) -> Cost;
    fn as_any(&self) -> &dyn Any;
}

impl<A: Compression> Declared for Declaration<A> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn requires(&self) -> CpuFeatures {
        self.requires
    }
    fn description(&self) -> &'static str {
        self.description
    }
    fn schedule(&self) -> Schedule {
        self.schedule
    }
    fn kernel_address(&self) -> usize {
        self.kernel.address()
    }
    fn lanes(&self) -> usize {
        self.kernel.lanes()
    }
    fn is_many(&self) -> bool {
        self.kernel.is_many()
    }
    fn has_one_block_entry(&self) -> bool {
        matches!(&self.kernel, Kernel::Single(kernel) if kernel.one_block.is_some())
    }
    fn cost(&self) -> Cost {
        self.cost
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One implementation of a compression function.
pub struct Variant {
    algorithm: Algorithm,
    declaration: &'static dyn Declared,
}

impl Variant {
    pub(crate) const fn new(algorithm: Algorithm, declaration: &'static dyn Declared) -> Self {
        Self {
            algorithm,
            declaration,
        }
    }

    /// Its declared cost estimate, which the batch planner uses until it has measured the
    /// kernel on the running CPU (zero for `serial`, which runs the single-message kernel).
    pub fn estimated_cost(&self) -> Cost {
        self.declaration.cost()
    }

    /// The public name, used by the overrides (`MULTISHA_SHA256=unroll8`,
    /// [`force`](crate::engine::force)).
    pub fn name(&self) -> &'static str {
        self.declaration.name()
    }

    /// The compression function it implements.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The CPU features it needs (empty for portable variants).
    pub fn requires(&self) -> CpuFeatures {
        self.declaration.requires()
    }

    /// One line on how it works.
    pub fn description(&self) -> &'static str {
        self.declaration.description()
    }

    /// Where it keeps the message schedule.
    pub fn schedule(&self) -> Schedule {
        self.declaration.schedule()
    }

    /// The interface it serves: single messages or many at once.
    pub fn interface(&self) -> Interface {
        if self.declaration.is_many() {
            Interface::Many
        } else {
            Interface::Single
        }
    }

    /// Whether it has an entry of its own for messages of exactly one block (64-byte Merkle
    /// nodes), which runs their padding block on a constant schedule and builds no padded
    /// tail (the one-shot functions, `sha256_pairs` and one-by-one batches use it).
    pub fn has_one_block_entry(&self) -> bool {
        self.declaration.has_one_block_entry()
    }

    /// How many messages it compresses at once (1 for single-message variants and the serial
    /// many-message variant).
    pub fn lanes(&self) -> usize {
        self.declaration.lanes()
    }

    /// Whether the CPU this process runs on can run it, as masked by `MULTISHA_CPU`
    /// ([`cpu_features`](crate::engine::cpu_features)).
    pub fn is_available(&self) -> bool {
        self.is_available_on(super::cpu_features())
    }

    /// Whether a CPU with `features` could run it.
    pub fn is_available_on(&self, features: CpuFeatures) -> bool {
        features.contains(self.requires())
    }

    /// The address of its kernel function, to find the kernel in a symbol table (0 for the
    /// serial many-message variant, which has no kernel of its own).
    pub fn kernel_address(&self) -> usize {
        self.declaration.kernel_address()
    }

    /// The typed declaration, if this is a variant of `A`.
    pub(crate) fn declaration<A: Compression>(&self) -> Option<&'static Declaration<A>> {
        let declaration: &'static dyn Declared = self.declaration;
        declaration.as_any().downcast_ref()
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Variant")
            .field("algorithm", &self.algorithm)
            .field("name", &self.name())
            .field("requires", &self.requires())
            .field("schedule", &self.schedule())
            .field("interface", &self.interface())
            .field("lanes", &self.lanes())
            .finish()
    }
}

impl fmt::Display for Variant {
    /// `sha256/shani`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.algorithm.id(), self.name())
    }
}
