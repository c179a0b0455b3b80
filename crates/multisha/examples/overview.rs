//! What the engine sees on this machine: the CPU's SHA-relevant features, every variant
//! (available or not), the dispatcher's choice and why, a cross-check that all available
//! variants of each hash function agree, and a quick MB/s line per variant at 64 B and 16 KiB.
//!
//! Run with `cargo run --release -p multisha --example overview`. The speeds are a quick look;
//! the benchmarks and the xtask report are the measurements to quote.

use multisha::engine::{Algorithm, CpuFeatures, Function, active};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// MB/s of `hash` on messages of `len` bytes, measured for about `budget`.
fn speed(hash: &dyn Fn(&[u8]) -> Vec<u8>, len: usize, budget: Duration) -> f64 {
    let data = vec![0x5a_u8; len];
    let mut bytes = 0usize;
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..64 {
            black_box(hash(black_box(&data)));
        }
        bytes += 64 * len;
    }
    bytes as f64 / start.elapsed().as_secs_f64() / 1e6
}

fn main() {
    println!("CPU features (SHA-relevant): {}", CpuFeatures::detect());
    let inputs: Vec<Vec<u8>> = [0, 3, 55, 56, 64, 111, 112, 119, 128, 1000, 16384]
        .iter()
        .map(|&n| (0..n).map(|i| (i * 7 + 1) as u8).collect())
        .collect();

    for &algorithm in Algorithm::ALL {
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
        // Every output of the algorithm, pinned to each variant, must agree with the others.
        let functions: Vec<Function> = Function::ALL
            .iter()
            .copied()
            .filter(|f| f.algorithm() == algorithm)
            .collect();
        for variant in algorithm.variants() {
            if !variant.is_available() {
                println!(
                    "  {:<10} {:<9} {:<26} {:>12} {:>12}",
                    variant.name(),
                    "no",
                    variant.requires(),
                    "-",
                    "-"
                );
                continue;
            }
            for function in &functions {
                for data in &inputs {
                    let mut want = vec![0; function.output_len()];
                    function.digest_into(data, &mut want);
                    let got = pinned_digest(*function, variant.name(), data);
                    assert_eq!(got, want, "{variant} disagrees on {function}");
                }
            }
            let first = functions[0];
            let name = variant.name();
            let hash = move |data: &[u8]| pinned_digest(first, name, data);
            let small = speed(&hash, 64, Duration::from_millis(150));
            let large = speed(&hash, 16384, Duration::from_millis(150));
            let marker = if variant.name() == selection.variant.name() {
                " <- active"
            } else {
                ""
            };
            println!(
                "  {:<10} {:<9} {:<26} {small:>12.1} {large:>12.1}{marker}",
                variant.name(),
                "yes",
                variant.requires().to_string()
            );
        }
        println!(
            "  cross-check: every available {algorithm} variant agrees on {} inputs for {}",
            inputs.len(),
            functions
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

/// The digest of `data` as `function`, streamed through a hasher pinned to variant `name`.
fn pinned_digest(function: Function, name: &str, data: &[u8]) -> Vec<u8> {
    let mut hasher = function
        .hasher_with_variant(name)
        .expect("an available variant");
    hasher.update(data);
    hasher.finalize().to_vec()
}
