//! Every variant of the registry that this CPU runs goes through the shared harness, at the
//! kernel level and through the streaming hashers pinned to it.

use crate::{Algorithm, Sha1, Sha224, Sha256, variants};
use multisha_contract::harness;
use std::format;

fn run_all(algorithm: Algorithm) -> (usize, usize) {
    let mut ran = 0;
    let mut skipped = 0;
    for variant in variants(algorithm) {
        if !variant.is_available() {
            std::eprintln!(
                "skipping {variant}: this CPU lacks {:?}",
                variant.requires()
            );
            skipped += 1;
            continue;
        }
        let label = format!("{variant}");
        let checks = match algorithm {
            Algorithm::Sha1 => {
                let kernel = variant
                    .sha1_kernel()
                    .expect("SHA-1 table holds SHA-1 kernels");
                // SAFETY: `is_available` checked the CPU has every feature the variant needs.
                let kernel_checks = unsafe { harness::sha1_kernel_suite(&label, kernel) };
                kernel_checks
                    + harness::streaming_suite(
                        &label,
                        || Sha1::with_variant(variant.name()).expect("available"),
                        harness::reference_sha1,
                    )
            }
            Algorithm::Sha256 => {
                let kernel = variant
                    .sha256_kernel()
                    .expect("SHA-256 table holds SHA-256 kernels");
                // SAFETY: `is_available` checked the CPU has every feature the variant needs.
                let kernel_checks = unsafe { harness::sha256_kernel_suite(&label, kernel) };
                kernel_checks
                    + harness::streaming_suite(
                        &label,
                        || Sha256::with_variant(variant.name()).expect("available"),
                        harness::reference_sha256,
                    )
                    + harness::streaming_suite(
                        &label,
                        || Sha224::with_variant(variant.name()).expect("available"),
                        harness::reference_sha224,
                    )
            }
        };
        assert!(checks > 1000, "{label}: only {checks} checks ran");
        ran += 1;
    }
    (ran, skipped)
}

/// How many variants this CPU must be able to run (the portable ones at least).
fn portable_count(algorithm: Algorithm) -> usize {
    variants(algorithm)
        .iter()
        .filter(|v| v.requires().is_empty())
        .count()
}

#[test]
fn every_sha1_variant_passes_the_harness() {
    let (ran, skipped) = run_all(Algorithm::Sha1);
    assert_eq!(ran + skipped, variants(Algorithm::Sha1).len());
    assert!(
        ran >= portable_count(Algorithm::Sha1),
        "ran {ran} SHA-1 variants"
    );
    assert_eq!(
        ran,
        variants(Algorithm::Sha1)
            .iter()
            .filter(|v| v.is_available())
            .count()
    );
}

#[test]
fn every_sha256_variant_passes_the_harness() {
    let (ran, skipped) = run_all(Algorithm::Sha256);
    assert_eq!(ran + skipped, variants(Algorithm::Sha256).len());
    assert!(
        ran >= portable_count(Algorithm::Sha256),
        "ran {ran} SHA-256 variants"
    );
    assert_eq!(
        ran,
        variants(Algorithm::Sha256)
            .iter()
            .filter(|v| v.is_available())
            .count()
    );
}

#[test]
fn dispatched_hashers_pass_the_streaming_suite() {
    assert!(
        harness::streaming_suite("dispatched sha1", Sha1::default, harness::reference_sha1) > 0
    );
    assert!(
        harness::streaming_suite(
            "dispatched sha224",
            Sha224::default,
            harness::reference_sha224
        ) > 0
    );
    assert!(
        harness::streaming_suite(
            "dispatched sha256",
            Sha256::default,
            harness::reference_sha256
        ) > 0
    );
}
