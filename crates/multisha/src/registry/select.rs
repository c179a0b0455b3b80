//! The choice of a variant, as a pure function of the CPU's features and the request, so it
//! can be tested (and asked about) for CPUs other than this one.

use super::{Algorithm, CpuMask, Error, Interface, Variant};
use core::fmt;
use multisha_contract::CpuFeatures;

/// Why a variant is the active one (or the one [`choose`] picked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The default priority: the best variant the CPU can run.
    Priority,
    /// Many messages: the batch planner chooses the kernels of each batch by their costs;
    /// the variant named is the one it runs the bulk of long batches on.
    Planned,
    /// Named by the environment variable ([`Algorithm::env_var`],
    /// [`Algorithm::env_var_many`]) at probe time.
    Env,
    /// Installed by [`force`](crate::engine::force).
    Forced,
    /// The environment variable named a variant that is unknown or cannot run here; it was
    /// ignored and the default priority applied.
    EnvRejected(Error),
    /// Named by the `requested` argument of [`choose`].
    Requested,
    /// The `requested` argument of [`choose`] named a variant that is unknown or cannot run on
    /// the given CPU; the default priority applied.
    RequestRejected(Error),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Priority => f.write_str("default priority (best variant the CPU runs)"),
            Reason::Planned => f.write_str(
                "planned per batch by kernel costs (this variant runs the bulk of long batches)",
            ),
            Reason::Env => f.write_str("environment override"),
            Reason::Forced => f.write_str("forced by multisha::engine::force"),
            Reason::EnvRejected(error) => write!(
                f,
                "default priority; {} ignored: {error}",
                error.algorithm().env_var_for(error.interface())
            ),
            Reason::Requested => f.write_str("requested"),
            Reason::RequestRejected(error) => {
                write!(f, "default priority; the request was refused: {error}")
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
    /// The CPU mask ([`CPU_MASK_VAR`](crate::engine::CPU_MASK_VAR)) in force when the
    /// dispatcher chose ([`active`](crate::engine::active)); `None` when no mask is set, and
    /// from [`choose`], which is given its features.
    pub cpu_mask: Option<&'static CpuMask>,
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}", self.variant, self.reason)?;
        if let Some(mask) = self.cpu_mask {
            write!(f, "; {mask}")?;
        }
        f.write_str(")")
    }
}

/// The variant of `algorithm` called `name`, if a CPU with `features` can run it.
///
/// # Errors
/// An unknown name (or a variant of another architecture), or a variant that needs a feature
/// missing from `features`; the error lists the variants that are available.
pub fn lookup(
    algorithm: Algorithm,
    name: &str,
    features: CpuFeatures,
) -> Result<&'static Variant, Error> {
    let variant = algorithm
        .variant(name)
        .ok_or_else(|| Error::unknown_any(algorithm, name, features))?;
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

/// The variant of `algorithm` called `name` for `interface`, if a CPU with `features` can run
/// it.
pub(crate) fn lookup_for(
    algorithm: Algorithm,
    interface: Interface,
    name: &str,
    features: CpuFeatures,
) -> Result<&'static Variant, Error> {
    let variant = algorithm
        .variant(name)
        .ok_or_else(|| Error::unknown(algorithm, interface, name, features))?;
    if variant.interface() != interface {
        return Err(Error::other_interface(variant, interface, features));
    }
    require_available(variant, features)
}

/// What the dispatcher picks for `algorithm`'s single-message interface (the hashers and the
/// one-shot functions) on a CPU with `features`, given the override `requested`: the
/// requested variant if it can run there ([`Reason::Requested`]), else the first available
/// variant in priority order ([`Reason::Priority`], or [`Reason::RequestRejected`] saying why
/// the request was refused).
pub fn choose(algorithm: Algorithm, features: CpuFeatures, requested: Option<&str>) -> Selection {
    choose_for(algorithm, Interface::Single, features, requested)
}

/// [`choose`] for the many-message interface (`sha256_many`, `sha256_pairs`).
pub fn choose_many(
    algorithm: Algorithm,
    features: CpuFeatures,
    requested: Option<&str>,
) -> Selection {
    choose_for(algorithm, Interface::Many, features, requested)
}

pub(crate) fn choose_for(
    algorithm: Algorithm,
    interface: Interface,
    features: CpuFeatures,
    requested: Option<&str>,
) -> Selection {
    let rejected = match requested {
        Some(name) => match lookup_for(algorithm, interface, name, features) {
            Ok(variant) => {
                return Selection {
                    variant,
                    reason: Reason::Requested,
                    cpu_mask: None,
                };
            }
            Err(error) => Some(error),
        },
        None => None,
    };
    let variant = match interface {
        Interface::Single => by_priority(algorithm, interface, features)
            .next()
            .expect("the portable variants run everywhere"),
        Interface::Many => fastest_many(algorithm, features),
    };
    let reason = match (rejected, interface) {
        (Some(error), _) => Reason::RequestRejected(error),
        (None, Interface::Single) => Reason::Priority,
        (None, Interface::Many) => Reason::Planned,
    };
    Selection {
        variant,
        reason,
        cpu_mask: None,
    }
}

/// The variants of `interface` a CPU with `features` runs, in the registry's order.
pub(crate) fn by_priority(
    algorithm: Algorithm,
    interface: Interface,
    features: CpuFeatures,
) -> impl Iterator<Item = &'static Variant> {
    algorithm
        .variants()
        .iter()
        .filter(move |v| v.interface() == interface && v.is_available_on(features))
}

/// The many-message variant a CPU with `features` runs long batches on by the declared cost
/// estimates: the least time per block with every lane busy (`serial` at the single-message
/// variant's). The batch planner chooses per batch, from measured costs once it has them.
pub(crate) fn fastest_many(algorithm: Algorithm, features: CpuFeatures) -> &'static Variant {
    let single = by_priority(algorithm, Interface::Single, features)
        .next()
        .expect("the portable variants run everywhere");
    let lanes_and_cost = |v: &&Variant| match v.lanes() {
        1 => (1, single.estimated_cost()),
        lanes => (lanes, v.estimated_cost()),
    };
    multisha_plan::cheapest_per_block(
        by_priority(algorithm, Interface::Many, features),
        lanes_and_cost,
    )
    .expect("serial runs everywhere")
}
