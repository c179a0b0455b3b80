//! One implementation of a compression function, as the registry lists it.

use super::Algorithm;
use core::any::Any;
use core::fmt;
use multisha_contract::{Compression, Cost, CpuFeatures, Declaration, Schedule};

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
