//! What each algorithm runs and why, and forcing a variant: the public face of the
//! dispatcher.

use crate::algorithms::dispatcher;
use crate::registry::{
    Algorithm, Error, Interface, Reason, Selection, Variant, cpu_features, lookup,
};
use multisha_contract::CpuFeatures;

impl Algorithm {
    /// The single-message variant this algorithm runs now and why (probing the CPU first if
    /// nothing is installed yet).
    pub fn active(self) -> Selection {
        dispatcher(self).active(Interface::Single)
    }

    /// The many-message variant this algorithm's batch functions run now and why.
    pub fn active_many(self) -> Selection {
        dispatcher(self).active(Interface::Many)
    }
}

/// The single-message variant `algorithm` uses now and why (probing first if nothing is
/// installed yet).
pub fn active(algorithm: Algorithm) -> Selection {
    algorithm.active()
}

/// The many-message variant `algorithm`'s batch functions use now and why.
pub fn active_many(algorithm: Algorithm) -> Selection {
    algorithm.active_many()
}

/// The many-message variant whose PBKDF2 entry runs the output blocks of a multi-block
/// derivation (`pbkdf2_hmac_sha1` of 32 bytes, ...) side by side, one per lane, or `None`
/// where they run one after the other on [`active`]'s variant: the variant forced for the
/// batch functions if any (`None` if it has no PBKDF2 entry), else the one measured faster
/// per output block than one after the other, once per process (measuring now if no
/// derivation has yet; with `MULTISHA_CALIBRATE=0` or without `std`, and for other threads
/// while one measures, the lane kernel with an entry of least estimated cost).
pub fn pbkdf2_chains(algorithm: Algorithm) -> Option<&'static Variant> {
    dispatcher(algorithm).pbkdf2_chains()
}

/// Installs the variant called `name` for `algorithm`, for the whole process: a
/// single-message variant for the hashers and one-shot functions, a many-message variant for
/// the batch functions (where it then runs every message of every batch itself: batches are
/// no longer planned).
///
/// Every hasher and one-shot call uses it from its next call on, hashers already part-way
/// through a message too (every variant gives the same digests); hashers pinned with
/// `with_variant` keep their variant. Meant for start-up and for tests.
///
/// # Errors
/// An unknown name, or a variant this CPU cannot run (then nothing changes); the message
/// lists the available variants. "This CPU" is [`cpu_features`]: a feature the mask in
/// `MULTISHA_CPU` removes counts as missing.
pub fn force(algorithm: Algorithm, name: &str) -> Result<&'static Variant, Error> {
    force_on(algorithm, name, cpu_features())
}

/// [`force`] with the CPU's features given: tests pass a set that lacks a feature to prove the
/// refusal. Private, since a set that claims more than the CPU has would install a kernel it
/// cannot run.
fn force_on(
    algorithm: Algorithm,
    name: &str,
    features: CpuFeatures,
) -> Result<&'static Variant, Error> {
    let variant = lookup(algorithm, name, features)?;
    dispatcher(algorithm).install(variant, Reason::Forced);
    Ok(variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn force_refuses_each_variant_whose_feature_is_missing_and_changes_nothing() {
        let _turn = crate::tests::SERIAL
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        for &algorithm in Algorithm::ALL {
            for variant in algorithm.variants() {
                for feature in variant.requires().iter() {
                    let choice = |a: Algorithm| match variant.interface() {
                        Interface::Single => active(a).variant.name(),
                        Interface::Many => active_many(a).variant.name(),
                    };
                    let before = choice(algorithm);
                    let cpu = cpu_features().without(feature);
                    let error = force_on(algorithm, variant.name(), cpu).expect_err("refused");
                    assert_eq!(error.missing_features().map(|m| m.has(feature)), Some(true));
                    assert_eq!(choice(algorithm), before, "{variant}: nothing changed");
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn shani_and_avx2_are_refused_without_their_features() {
        use multisha_contract::Feature;
        let all = cpu_features();
        for (algorithm, name, missing) in [
            (Algorithm::Sha1, "shani", Feature::Sha),
            (Algorithm::Sha256, "shani", Feature::Sha),
            (Algorithm::Sha256, "shani", Feature::Sse41),
            (Algorithm::Sha256, "shani-vex", Feature::Avx2),
            (Algorithm::Sha256, "avx2", Feature::Avx2),
            (Algorithm::Sha256, "avx2", Feature::Bmi2),
        ] {
            let error = force_on(algorithm, name, all.without(missing)).expect_err("refused");
            let message = std::format!("{error}");
            // "this CPU" when the reduced set is what the CPU has (as under valgrind, whose
            // CPUID has no SHA), "a CPU with features ..." otherwise.
            assert!(message.contains("cannot run on "), "{message}");
            assert!(message.contains(missing.name()), "{message}");
        }
    }
}
