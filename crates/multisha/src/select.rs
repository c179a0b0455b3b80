//! The choice of a variant, as a pure function of the CPU's features and the override, so it
//! can be tested (and asked about) for CPUs other than this one.

use crate::{Algorithm, CpuFeatures, Error, Variant, registry};
use core::fmt;

/// Why a variant is the active one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The default priority: the best variant this CPU can run.
    Priority,
    /// Named by the environment variable ([`Algorithm::env_var`]) at probe time.
    Env,
    /// Installed by [`crate::force`].
    Forced,
    /// The environment variable named a variant that is unknown or cannot run here; it was
    /// ignored and the default priority applied.
    EnvRejected(Error),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Priority => f.write_str("default priority (best variant this CPU runs)"),
            Reason::Env => f.write_str("environment override"),
            Reason::Forced => f.write_str("forced by multisha::force"),
            Reason::EnvRejected(error) => {
                write!(
                    f,
                    "default priority; {} ignored: {error}",
                    error.algorithm().env_var()
                )
            }
        }
    }
}

/// A chosen variant and why.
#[derive(Debug, Clone, Copy)]
pub struct Selection {
    /// The variant.
    pub variant: &'static Variant,
    /// Why it was chosen.
    pub reason: Reason,
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.variant, self.reason)
    }
}

/// The variant of `algorithm` called `name`, if a CPU with `features` can run it.
///
/// # Errors
/// An unknown name, or a variant that needs a feature missing from `features`; the error
/// lists the variants that are available.
pub fn lookup(
    algorithm: Algorithm,
    name: &str,
    features: CpuFeatures,
) -> Result<&'static Variant, Error> {
    let variant = registry::find_variant(algorithm, name)
        .ok_or_else(|| Error::unknown(algorithm, name, features))?;
    require_available(variant, features)
}

/// `variant` itself, if a CPU with `features` can run it: the one check that stands between a
/// kernel and a SIGILL.
pub(crate) fn require_available(
    variant: &'static Variant,
    features: CpuFeatures,
) -> Result<&'static Variant, Error> {
    if variant.is_available_on(features) {
        Ok(variant)
    } else {
        Err(Error::unsupported(variant, features))
    }
}

/// What the dispatcher picks for `algorithm` on a CPU with `features`, given the override
/// `requested` (the environment variable's value, if set): the requested variant if it can
/// run, else the first available variant in priority order.
pub fn choose(algorithm: Algorithm, features: CpuFeatures, requested: Option<&str>) -> Selection {
    let rejected = match requested {
        Some(name) => match lookup(algorithm, name, features) {
            Ok(variant) => {
                return Selection {
                    variant,
                    reason: Reason::Env,
                };
            }
            Err(error) => Some(error),
        },
        None => None,
    };
    let variant = registry::variants(algorithm)
        .iter()
        .find(|v| v.is_available_on(features))
        .expect("the portable variants run everywhere");
    let reason = rejected.map_or(Reason::Priority, Reason::EnvRejected);
    Selection { variant, reason }
}
