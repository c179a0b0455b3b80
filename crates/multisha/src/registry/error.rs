//! The error type of the override API.

use super::name_buf::NameBuf;
use super::{Algorithm, Interface, Variant, cpu_features};
use core::fmt;
use multisha_contract::CpuFeatures;

/// Why a variant could not be selected.
///
/// The message names the algorithm, the requested variant, what is wrong with it, and every
/// variant that can run, so a user who mistyped a name or picked one for another CPU knows
/// what to use.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Error {
    algorithm: Algorithm,
    requested: NameBuf,
    problem: Problem,
    /// The CPU the request was checked against.
    features: CpuFeatures,
    /// Whether `features` are those of the CPU this process runs on (as masked).
    this_cpu: bool,
    /// The interface the request was for (that of the named variant, when it exists).
    interface: Interface,
    /// Whether the request named no interface (`lookup` of an unknown name): the message then
    /// lists the variants of both.
    any_interface: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Problem {
    Unknown,
    OtherArch(&'static str),
    Unsupported {
        missing: CpuFeatures,
    },
    /// The variant exists but serves the other interface.
    OtherInterface {
        wanted: Interface,
    },
}

impl Error {
    pub(crate) fn unknown(
        algorithm: Algorithm,
        interface: Interface,
        requested: &str,
        features: CpuFeatures,
    ) -> Self {
        let problem = match algorithm.foreign_variant_arch(requested) {
            Some(arch) => Problem::OtherArch(arch),
            None => Problem::Unknown,
        };
        Self {
            algorithm,
            requested: NameBuf::new(requested),
            problem,
            features,
            this_cpu: features == cpu_features(),
            interface,
            any_interface: false,
        }
    }

    /// An unknown name asked for without an interface ([`lookup`](super::lookup)).
    pub(crate) fn unknown_any(
        algorithm: Algorithm,
        requested: &str,
        features: CpuFeatures,
    ) -> Self {
        Self {
            any_interface: true,
            ..Self::unknown(algorithm, Interface::Single, requested, features)
        }
    }

    pub(crate) fn unsupported(variant: &Variant, features: CpuFeatures) -> Self {
        Self {
            algorithm: variant.algorithm(),
            requested: NameBuf::new(variant.name()),
            problem: Problem::Unsupported {
                missing: features.missing(variant.requires()),
            },
            features,
            this_cpu: features == cpu_features(),
            interface: variant.interface(),
            any_interface: false,
        }
    }

    pub(crate) fn other_interface(
        variant: &Variant,
        wanted: Interface,
        features: CpuFeatures,
    ) -> Self {
        Self {
            problem: Problem::OtherInterface { wanted },
            interface: wanted,
            ..Self::unsupported(variant, features)
        }
    }

    /// The algorithm the variant was requested for.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The requested name (cut to 32 bytes).
    pub fn requested(&self) -> &str {
        self.requested.as_str()
    }

    /// Whether no variant of this build has the requested name (it may exist for another
    /// architecture: [`Error::other_arch`]).
    pub fn is_unknown_variant(&self) -> bool {
        matches!(self.problem, Problem::Unknown | Problem::OtherArch(_))
    }

    /// The interface the request was for: the one asked for, or, when the call did not say
    /// (`lookup`), that of the variant named.
    pub fn interface(&self) -> Interface {
        self.interface
    }

    /// Whether the variant exists but serves the other interface (a many-message variant
    /// named for the hashers, or the reverse).
    pub fn is_other_interface(&self) -> bool {
        matches!(self.problem, Problem::OtherInterface { .. })
    }

    /// The architecture the requested variant exists for, if it is a variant of another
    /// architecture than this build's.
    pub fn other_arch(&self) -> Option<&'static str> {
        match self.problem {
            Problem::OtherArch(arch) => Some(arch),
            _ => None,
        }
    }

    /// The CPU features the requested variant needs and the CPU lacks, if it exists.
    pub fn missing_features(&self) -> Option<CpuFeatures> {
        match self.problem {
            Problem::Unsupported { missing } => Some(missing),
            _ => None,
        }
    }

    /// The variants of the interface asked for (of both, when the request named none) that a
    /// CPU with the checked features runs, in the registry's order.
    pub fn available(&self) -> impl Iterator<Item = &'static Variant> + use<> {
        let features = self.features;
        let (interface, any) = (self.interface, self.any_interface);
        self.algorithm
            .variants()
            .iter()
            .filter(move |v| v.is_available_on(features) && (any || v.interface() == interface))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let algorithm = self.algorithm;
        let requested = &self.requested;
        match self.problem {
            Problem::Unknown => write!(f, "unknown {algorithm} variant \"{requested}\"")?,
            Problem::OtherArch(arch) => write!(
                f,
                "{algorithm} variant \"{requested}\" exists for {arch} only, not in this {} build",
                BUILD_ARCH
            )?,
            Problem::Unsupported { missing } if self.this_cpu => write!(
                f,
                "{algorithm} variant \"{requested}\" cannot run on this CPU (missing: {missing})"
            )?,
            Problem::Unsupported { missing } => write!(
                f,
                "{algorithm} variant \"{requested}\" cannot run on a CPU with features {} \
                 (missing: {missing})",
                self.features
            )?,
            Problem::OtherInterface { wanted } => {
                let (is, not) = match wanted {
                    Interface::Single => ("many-message", "single-message"),
                    Interface::Many => ("single-message", "many-message"),
                };
                write!(
                    f,
                    "{algorithm} variant \"{requested}\" is a {is} variant, not a {not} one"
                )?;
            }
        }
        f.write_str(if self.this_cpu {
            "; available: "
        } else {
            "; available there: "
        })?;
        for (i, variant) in self.available().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(variant.name())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self})")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// The architecture of this build, in the words of `target_arch`.
const BUILD_ARCH: &str = if cfg!(target_arch = "x86_64") {
    "x86_64"
} else if cfg!(target_arch = "aarch64") {
    "aarch64"
} else {
    "portable"
};
