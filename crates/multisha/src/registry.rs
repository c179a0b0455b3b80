//! Every variant compiled for this target, per algorithm, in priority order (best first).
//!
//! The order of each table *is* the default priority: the dispatcher installs the first
//! variant whose required features the CPU has. Portable variants come last and require
//! nothing, so every CPU gets one. The order follows measurements (see the crate docs).

use crate::{Algorithm, CpuFeatures, Feature};
use core::fmt;
use multisha_contract::{Sha1Kernel, Sha256Kernel};

/// A kernel of either family.
#[derive(Clone, Copy)]
pub(crate) enum Kernel {
    Sha1(Sha1Kernel),
    Sha256(Sha256Kernel),
}

/// Where a variant keeps its message schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// In the caller's workspace, wiped once per update call.
    Workspace,
    /// In vector registers only; the workspace is untouched.
    Registers,
    /// In a buffer on the kernel's own stack, which the kernel wipes once per call.
    KernelStack,
}

/// One implementation of a compression function.
pub struct Variant {
    name: &'static str,
    algorithm: Algorithm,
    requires: &'static [Feature],
    description: &'static str,
    schedule: Schedule,
    pub(crate) kernel: Kernel,
}

impl Variant {
    /// The public name, used by the overrides (`MULTISHA_SHA256=unroll8`, [`crate::force`]).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The compression function it implements.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The CPU features it needs (empty for portable variants).
    pub fn requires(&self) -> &'static [Feature] {
        self.requires
    }

    /// One line on how it works.
    pub fn description(&self) -> &'static str {
        self.description
    }

    /// Where it keeps the message schedule.
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// Whether the CPU this process runs on can run it.
    pub fn is_available(&self) -> bool {
        self.is_available_on(CpuFeatures::detect())
    }

    /// Whether a CPU with `features` could run it.
    pub fn is_available_on(&self, features: CpuFeatures) -> bool {
        features.has_all(self.requires)
    }

    /// The address of its compression function, to find the kernel in a symbol table.
    pub fn kernel_address(&self) -> usize {
        match self.kernel {
            Kernel::Sha1(k) => k as usize,
            Kernel::Sha256(k) => k as usize,
        }
    }

    pub(crate) fn sha1_kernel(&self) -> Option<Sha1Kernel> {
        match self.kernel {
            Kernel::Sha1(k) => Some(k),
            Kernel::Sha256(_) => None,
        }
    }

    pub(crate) fn sha256_kernel(&self) -> Option<Sha256Kernel> {
        match self.kernel {
            Kernel::Sha256(k) => Some(k),
            Kernel::Sha1(_) => None,
        }
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Variant")
            .field("name", &self.name)
            .field("algorithm", &self.algorithm)
            .field("requires", &self.requires)
            .field("schedule", &self.schedule)
            .finish()
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.algorithm.id(), self.name)
    }
}

const fn portable(
    algorithm: Algorithm,
    name: &'static str,
    description: &'static str,
    kernel: Kernel,
) -> Variant {
    Variant {
        name,
        algorithm,
        requires: &[],
        description,
        schedule: Schedule::Workspace,
        kernel,
    }
}

#[cfg(target_arch = "x86_64")]
const SHANI: &[Feature] = &[Feature::Sha, Feature::Sse2, Feature::Ssse3, Feature::Sse41];

/// A variant for one architecture.
const fn hardware(
    algorithm: Algorithm,
    name: &'static str,
    requires: &'static [Feature],
    description: &'static str,
    schedule: Schedule,
    kernel: Kernel,
) -> Variant {
    Variant {
        name,
        algorithm,
        requires,
        description,
        schedule,
        kernel,
    }
}

static SHA1_VARIANTS: &[Variant] = &[
    #[cfg(target_arch = "x86_64")]
    hardware(
        Algorithm::Sha1,
        "shani",
        SHANI,
        "x86 SHA extensions (sha1rnds4, sha1nexte, sha1msg1/2), state in registers across blocks",
        Schedule::Registers,
        Kernel::Sha1(multisha_x86::sha1_shani::compress),
    ),
    #[cfg(target_arch = "aarch64")]
    hardware(
        Algorithm::Sha1,
        "armv8",
        &[Feature::Sha2],
        "ARMv8 crypto extensions (SHA1C/P/M, SHA1H, SHA1SU0/1), state and constants in registers",
        Schedule::Registers,
        Kernel::Sha1(multisha_armv8::sha1_armv8::compress),
    ),
    #[cfg(target_arch = "x86_64")]
    hardware(
        Algorithm::Sha1,
        "asm",
        &[],
        "fully unrolled x86-64 assembly, registers allocated by hand, roles rotating, K as immediates",
        Schedule::Workspace,
        Kernel::Sha1(multisha_x86::sha1_asm::compress),
    ),
    portable(
        Algorithm::Sha1,
        "unroll5",
        "five rounds written out with rotating roles, majority as two adds, 16-word circular schedule",
        Kernel::Sha1(multisha_unrolled::sha1_unroll5::compress),
    ),
    portable(
        Algorithm::Sha1,
        "rolled",
        "one round per loop iteration, f and K chosen per 20-round group (smallest code)",
        Kernel::Sha1(multisha_rolled::sha1::compress),
    ),
];

static SHA256_VARIANTS: &[Variant] = &[
    #[cfg(target_arch = "x86_64")]
    hardware(
        Algorithm::Sha256,
        "shani",
        SHANI,
        "x86 SHA extensions (sha256rnds2, sha256msg1/2), state in registers across blocks",
        Schedule::Registers,
        Kernel::Sha256(multisha_x86::sha256_shani::compress),
    ),
    #[cfg(target_arch = "aarch64")]
    hardware(
        Algorithm::Sha256,
        "armv8",
        &[Feature::Sha2],
        "ARMv8 crypto extensions (SHA256H/H2, SHA256SU0/1), state and constants in registers",
        Schedule::Registers,
        Kernel::Sha256(multisha_armv8::sha256_armv8::compress),
    ),
    #[cfg(target_arch = "x86_64")]
    hardware(
        Algorithm::Sha256,
        "avx2",
        &[Feature::Avx2, Feature::Bmi2],
        "AVX2 message schedule for two blocks at a time, scalar rounds with BMI2 rorx",
        Schedule::KernelStack,
        Kernel::Sha256(multisha_x86::sha256_avx2::compress),
    ),
    portable(
        Algorithm::Sha256,
        "unroll8",
        "eight rounds written out with rotating roles, K from a table, LOAD and BLEND unrolled 8x",
        Kernel::Sha256(multisha_unrolled::sha256_unroll8::compress),
    ),
    portable(
        Algorithm::Sha256,
        "unroll64",
        "all 64 rounds, loads and schedule steps written out (largest code)",
        Kernel::Sha256(multisha_full_unroll::compress),
    ),
    portable(
        Algorithm::Sha256,
        "rolled",
        "one round per loop iteration over a 64-word schedule (smallest code)",
        Kernel::Sha256(multisha_rolled::sha256::compress),
    ),
];

/// Every variant of `algorithm` compiled for this target, best first (the default priority).
pub fn variants(algorithm: Algorithm) -> &'static [Variant] {
    match algorithm {
        Algorithm::Sha1 => SHA1_VARIANTS,
        Algorithm::Sha256 => SHA256_VARIANTS,
    }
}

/// The variant of `algorithm` called `name`, available or not.
pub fn find_variant(algorithm: Algorithm, name: &str) -> Option<&'static Variant> {
    variants(algorithm).iter().find(|v| v.name == name)
}

pub(crate) fn index_of(variant: &Variant) -> usize {
    variants(variant.algorithm)
        .iter()
        .position(|v| core::ptr::eq(v, variant))
        .expect("variants come from the registry")
}

pub(crate) fn available_mask(algorithm: Algorithm, features: CpuFeatures) -> u32 {
    variants(algorithm)
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_available_on(features))
        .fold(0, |mask, (i, _)| mask | 1 << i)
}
