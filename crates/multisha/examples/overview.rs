//! What the engine sees on this machine: the CPU's SHA-relevant features, every variant
//! (available or not), the dispatchers' choices and why, a cross-check that all available
//! variants of each hash function agree, and a quick MB/s line per variant at 64 B and 16 KiB
//! (for many-message variants: batches of 64 such messages, all messages counted).
//!
//! Run with `cargo run --release -p multisha --example overview`. The speeds are a quick look;
//! the benchmarks and the xtask report are the measurements to quote.

use multisha::HashFunction;
use multisha::engine::{
    Algorithm, CpuFeatures, Function, Interface, PinnedMany, active, active_many, calibrate,
    cpu_mask,
};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// MB/s of `hash` on messages of `len` bytes, measured for about `budget`.
fn speed(hash: &mut dyn FnMut(&[u8]) -> Vec<u8>, len: usize, budget: Duration) -> f64 {
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
    if let Some(mask) = cpu_mask() {
        println!("CPU mask: {mask}");
    }
    let inputs: Vec<Vec<u8>> = [0, 3, 55, 56, 64, 111, 112, 119, 128, 1000, 16384]
        .iter()
        .map(|&n| (0..n).map(|i| (i * 7 + 1) as u8).collect())
        .collect();

    for &algorithm in Algorithm::ALL {
        let selection = active(algorithm);
        let selection_many = active_many(algorithm);
        println!();
        println!(
            "{algorithm}: dispatched to {} — {}; batches to {} — {}",
            selection.variant.name(),
            selection.reason,
            selection_many.variant.name(),
            selection_many.reason
        );
        // The costs the batch planner chooses by (measured here on request; a program
        // measures them once its batch work pays for it).
        for line in calibrate(algorithm).to_string().lines() {
            println!("  {line}");
        }
        println!(
            "  {:<10} {:<9} {:<32} {:>12} {:>12}",
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
                    "  {:<10} {:<9} {:<32} {:>12} {:>12}",
                    variant.name(),
                    "no",
                    variant.requires(),
                    "-",
                    "-"
                );
                continue;
            }
            let name = variant.name();
            let (small, large) = if variant.interface() == Interface::Many {
                many_row(algorithm, name, &inputs)
            } else {
                for function in &functions {
                    for data in &inputs {
                        let mut want = vec![0; function.output_len()];
                        function.digest_into(data, &mut want);
                        let got = pinned_digest(*function, name, data);
                        assert_eq!(got, want, "{variant} disagrees on {function}");
                    }
                }
                let first = functions[0];
                let mut hasher = first.hasher_with_variant(name).expect("available");
                let mut hash = move |data: &[u8]| {
                    hasher.update(data);
                    hasher.finalize_reset().to_vec()
                };
                (
                    speed(&mut hash, 64, Duration::from_millis(150)),
                    speed(&mut hash, 16384, Duration::from_millis(150)),
                )
            };
            let active_name = match variant.interface() {
                Interface::Single => selection.variant.name(),
                Interface::Many => selection_many.variant.name(),
            };
            let marker = if name == active_name {
                " <- active"
            } else {
                ""
            };
            println!(
                "  {:<10} {:<9} {:<32} {small:>12.1} {large:>12.1}{marker}",
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

/// Cross-checks many-message variant `name` of `algorithm` against the one-shot function on
/// batches of the inputs, then measures it on batches of 64 messages of 64 B and of 16 KiB.
fn many_row(algorithm: Algorithm, name: &str, inputs: &[Vec<u8>]) -> (f64, f64) {
    fn typed<H: HashFunction>(name: &str, inputs: &[Vec<u8>]) -> (f64, f64) {
        let pinned = PinnedMany::<H>::new(name).expect("an available variant");
        let messages: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let mut digests = vec![H::ZERO; messages.len()];
        pinned.hash_many(&messages, &mut digests);
        for (message, digest) in messages.iter().zip(&digests) {
            assert_eq!(
                *digest,
                H::oneshot(message),
                "{name} disagrees on {}",
                H::id()
            );
        }
        let rate = |len: usize| {
            let data = vec![0x5a_u8; len];
            let batch: Vec<&[u8]> = vec![&data; 64];
            let mut out = vec![H::ZERO; batch.len()];
            let mut hash = |_: &[u8]| {
                pinned.hash_many(black_box(&batch), &mut out);
                Vec::new()
            };
            speed(&mut hash, len, Duration::from_millis(150)) * batch.len() as f64
        };
        (rate(64), rate(16384))
    }
    match algorithm.name() {
        "SHA-1" => typed::<multisha::Sha1>(name, inputs),
        "SHA-256" => typed::<multisha::Sha256>(name, inputs),
        _ => typed::<multisha::Sha512>(name, inputs),
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
