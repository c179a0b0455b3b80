//! Every variant of the registry that this CPU runs goes through the shared harness, at the
//! kernel level and through every hasher of its algorithm pinned to it; the dispatched
//! hashers through the streaming suite. Generic over the registry: an algorithm added there
//! is tested here without an edit.

use crate::hash_function::{HashFunction, Registered};
use multisha_contract::harness::{self, Reference};
use std::format;
use std::sync::Mutex;

/// Held by the unit tests that change or assert the process-wide choice.
pub(crate) static SERIAL: Mutex<()> = Mutex::new(());

/// What a test does per algorithm and per hash function of the registry.
pub(crate) trait Visitor {
    fn algorithm<A: Registered + Reference>(&mut self);
    fn function<H>(&mut self)
    where
        H: HashFunction + digest::Digest + digest::FixedOutputReset + Clone,
        H::Compression: Reference;
}

/// Counts what ran and what this CPU could not run.
#[derive(Default)]
struct Harness {
    ran: usize,
    skipped: usize,
    algorithms: usize,
}

impl Visitor for Harness {
    fn algorithm<A: Registered + Reference>(&mut self) {
        self.algorithms += 1;
        let variants = A::ALGORITHM.variants();
        assert!(
            variants.iter().any(|v| v.requires().is_empty()),
            "{}: a portable variant",
            A::NAME
        );
        for variant in variants {
            let declaration = variant.declaration::<A>().expect("a variant of A");
            match harness::declaration_suite(declaration) {
                Some(checks) => {
                    assert!(checks > 1000, "{variant}: only {checks} checks");
                    assert!(variant.is_available());
                    self.ran += 1;
                }
                None => {
                    assert!(
                        !variant.is_available(),
                        "{variant} runs here but was skipped"
                    );
                    self.skipped += 1;
                }
            }
        }
    }

    fn function<H>(&mut self)
    where
        H: HashFunction + digest::Digest + digest::FixedOutputReset + Clone,
        H::Compression: Reference,
    {
        let reference = |data: &[u8]| H::Compression::digest(H::OUTPUT.id, data);
        for variant in H::algorithm()
            .variants()
            .iter()
            .filter(|v| v.is_available())
        {
            let label = format!("{} pinned to {variant}", H::OUTPUT.name);
            let checks = harness::streaming_suite(
                &label,
                || H::with_variant(variant.name()).expect("available"),
                reference,
            );
            assert!(checks > 0);
        }
        let label = format!("dispatched {}", H::OUTPUT.name);
        assert!(harness::streaming_suite(&label, H::new, reference) > 0);
    }
}

#[test]
fn every_variant_and_hasher_passes_the_harness() {
    let mut run = Harness::default();
    crate::algorithms::visit(&mut run);
    assert_eq!(run.algorithms, crate::engine::Algorithm::ALL.len());
    let total: usize = crate::engine::Algorithm::ALL
        .iter()
        .map(|a| a.variants().len())
        .sum();
    assert_eq!(run.ran + run.skipped, total);
    std::eprintln!(
        "{} variants ran, {} skipped on this CPU",
        run.ran,
        run.skipped
    );
}
