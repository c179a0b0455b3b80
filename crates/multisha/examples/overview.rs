//! What the engine sees on this machine: the CPU's SHA-relevant features, every variant
//! (available or not), the dispatcher's choice and why, a cross-check that all available
//! variants agree, and a quick MB/s line per variant at 64 B and 16 KiB.
//!
//! Run with `cargo run --release -p multisha --example overview`. The speeds are a quick look;
//! the benchmarks and the xtask report are the measurements to quote.

use multisha::{Algorithm, CpuFeatures, Pinned, active, variants};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn hash(pinned: &Pinned, data: &[u8]) -> Vec<u8> {
    match pinned.variant().algorithm() {
        Algorithm::Sha1 => pinned.sha1(data).map(|d| d.to_vec()),
        Algorithm::Sha256 => pinned.sha256(data).map(|d| d.to_vec()),
    }
    .expect("the variant's own algorithm")
}

/// MB/s of `pinned` on messages of `len` bytes, measured for about `budget`.
fn speed(pinned: &Pinned, len: usize, budget: Duration) -> f64 {
    let data = vec![0x5a_u8; len];
    let mut bytes = 0usize;
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..64 {
            black_box(hash(pinned, black_box(&data)));
        }
        bytes += 64 * len;
    }
    bytes as f64 / start.elapsed().as_secs_f64() / 1e6
}

fn main() {
    println!("CPU features (SHA-relevant): {}", CpuFeatures::detect());
    let inputs: Vec<Vec<u8>> = [0, 3, 55, 56, 64, 119, 1000, 16384]
        .iter()
        .map(|&n| (0..n).map(|i| (i * 7 + 1) as u8).collect())
        .collect();

    for algorithm in Algorithm::ALL {
        let selection = active(algorithm);
        println!();
        println!(
            "{algorithm}: dispatched to {} — {}",
            selection.variant.name(),
            selection.reason
        );
        println!(
            "  {:<10} {:<9} {:<26} {:>12} {:>12}",
            "variant", "available", "requires", "64 B MB/s", "16 KiB MB/s"
        );
        let mut expected: Option<Vec<Vec<u8>>> = None;
        for variant in variants(algorithm) {
            let requires = if variant.requires().is_empty() {
                "-".to_string()
            } else {
                variant
                    .requires()
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let Ok(pinned) = Pinned::from_variant(variant) else {
                println!(
                    "  {:<10} {:<9} {:<26} {:>12} {:>12}",
                    variant.name(),
                    "no",
                    requires,
                    "-",
                    "-"
                );
                continue;
            };
            let digests: Vec<Vec<u8>> = inputs.iter().map(|data| hash(&pinned, data)).collect();
            match &expected {
                None => expected = Some(digests),
                Some(first) => assert_eq!(
                    first, &digests,
                    "{variant} disagrees with the other variants"
                ),
            }
            let small = speed(&pinned, 64, Duration::from_millis(150));
            let large = speed(&pinned, 16384, Duration::from_millis(150));
            let marker = if variant.name() == selection.variant.name() {
                " <- active"
            } else {
                ""
            };
            println!(
                "  {:<10} {:<9} {:<26} {small:>12.1} {large:>12.1}{marker}",
                variant.name(),
                "yes",
                requires
            );
        }
        println!(
            "  cross-check: every available {algorithm} variant agrees on {} inputs",
            inputs.len()
        );
    }
}
