//! The error type of the override API.

use crate::name_buf::NameBuf;
use crate::{Algorithm, CpuFeatures, Variant, registry};
use core::fmt;

/// Why a variant could not be selected.
///
/// The message names the algorithm, the requested variant and every variant this CPU can
/// run, so a user who mistyped a name or picked one for another CPU knows what to use.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Error {
    algorithm: Algorithm,
    requested: NameBuf,
    problem: Problem,
    /// The variants available when the error was made, as a bitmask over the registry.
    available: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Problem {
    Unknown,
    Unsupported { missing: CpuFeatures },
}

impl Error {
    pub(crate) fn unknown(algorithm: Algorithm, requested: &str, features: CpuFeatures) -> Self {
        Self {
            algorithm,
            requested: NameBuf::new(requested),
            problem: Problem::Unknown,
            available: registry::available_mask(algorithm, features),
        }
    }

    pub(crate) fn unsupported(variant: &Variant, features: CpuFeatures) -> Self {
        Self {
            algorithm: variant.algorithm(),
            requested: NameBuf::new(variant.name()),
            problem: Problem::Unsupported {
                missing: features.missing(variant.requires()),
            },
            available: registry::available_mask(variant.algorithm(), features),
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

    /// Whether no variant has the requested name.
    pub fn is_unknown_variant(&self) -> bool {
        self.problem == Problem::Unknown
    }

    /// The CPU features the requested variant needs and the CPU lacks, if it exists.
    pub fn missing_features(&self) -> Option<CpuFeatures> {
        match self.problem {
            Problem::Unknown => None,
            Problem::Unsupported { missing } => Some(missing),
        }
    }

    /// The variants that were available when the error was made, best first.
    pub fn available(&self) -> impl Iterator<Item = &'static Variant> + use<> {
        let mask = self.available;
        registry::variants(self.algorithm)
            .iter()
            .enumerate()
            .filter(move |(i, _)| mask & (1 << i) != 0)
            .map(|(_, v)| v)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problem {
            Problem::Unknown => {
                write!(
                    f,
                    "unknown {} variant \"{}\"",
                    self.algorithm, self.requested
                )?;
            }
            Problem::Unsupported { missing } => write!(
                f,
                "{} variant \"{}\" cannot run on this CPU (missing: {missing})",
                self.algorithm, self.requested
            )?,
        }
        f.write_str("; available: ")?;
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
