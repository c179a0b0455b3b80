//! The SHA-512 family's batch figures of issue 19, quickly, on a shared machine: the batch
//! contenders of SHA-512 and SHA-384 (every many-message variant pinned, the dispatched
//! `*_many`, RustCrypto and ring one message after the other) and the single-message `avx512`
//! kernel one by one, on 64 x 1 KiB, 256 x 128 B, 256 mixed 0-8 KiB and 64 x 16 KiB; rounds
//! interleaved (the order rotating), the median kept. Prints MB/s, the ratio to RustCrypto and
//! nanoseconds per byte of all lanes together.
//! `cargo bench -p multisha-benches --bench batches`; `cargo xtask report --algo sha512` is the
//! fuller audit.

use multisha::engine::{Algorithm, Function, Pinned};
use multisha_benches::{BatchContender, Kind, batch_contenders, batch_functions};
use std::hint::black_box;
use std::time::Instant;

/// Interleaved rounds per shape.
const ROUNDS: usize = 15;
/// Bytes hashed per sample (about a millisecond).
const SAMPLE_BYTES: usize = 2 << 20;

/// Deterministic bytes (xorshift64).
fn bytes(seed: &mut u64, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed as u8
        })
        .collect()
}

fn shapes() -> Vec<(String, Vec<Vec<u8>>)> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut all = Vec::new();
    for (count, len) in [(64usize, 1024usize), (256, 128), (64, 16384)] {
        let messages = (0..count).map(|_| bytes(&mut seed, len)).collect();
        all.push((format!("{count} x {len} B"), messages));
    }
    let mixed = (0..256)
        .map(|_| {
            let len = (seed as usize >> 17) % 8193;
            bytes(&mut seed, len)
        })
        .collect();
    all.push(("256 mixed 0-8 KiB".into(), mixed));
    all
}

/// The single-message `avx512` kernel one message after the other, if this CPU runs it.
fn single_avx512() -> Option<BatchContender> {
    let pinned = Pinned::<multisha::Sha512>::new("avx512").ok()?;
    Some(BatchContender::new(
        "avx512 (single)",
        Kind::Variant,
        64,
        "the single-message avx512 kernel, one message after the other",
        move |messages: &[&[u8]], out: &mut [u8]| {
            for (message, chunk) in messages.iter().zip(out.chunks_exact_mut(64)) {
                chunk.copy_from_slice(&pinned.hash(message));
            }
        },
    ))
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument picks the hash functions by id.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for function in batch_functions(Algorithm::Sha512) {
        if !filter.is_empty() && !filter.iter().any(|f| f == function.id()) {
            continue;
        }
        let mut contenders = batch_contenders(function);
        if function == Function::from_id("sha512").expect("sha512") {
            contenders.extend(single_avx512());
        }
        for (label, messages) in shapes() {
            measure(function, &contenders, &label, &messages);
        }
    }
}

fn measure(function: Function, contenders: &[BatchContender], label: &str, data: &[Vec<u8>]) {
    let messages: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
    let total: usize = messages.iter().map(|m| m.len()).sum();
    let iterations = (SAMPLE_BYTES / total.max(1)).max(1);
    let mut outputs: Vec<Vec<u8>> = contenders
        .iter()
        .map(|c| vec![0u8; messages.len() * c.digest_len()])
        .collect();
    let mut samples = vec![Vec::with_capacity(ROUNDS); contenders.len()];
    for round in 0..ROUNDS {
        for k in 0..contenders.len() {
            let i = (k + round) % contenders.len();
            let start = Instant::now();
            for _ in 0..iterations {
                contenders[i].run(black_box(&messages), &mut outputs[i]);
            }
            let ns = start.elapsed().as_nanos() as f64 / iterations as f64;
            samples[i].push(ns);
        }
    }
    let medians: Vec<f64> = samples
        .iter_mut()
        .map(|s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect();
    let rustcrypto = contenders
        .iter()
        .position(|c| c.name() == "rustcrypto")
        .map(|i| medians[i]);
    println!("{function} {label} ({total} bytes):");
    for (contender, ns) in contenders.iter().zip(&medians) {
        let ratio = rustcrypto.map_or(String::new(), |r| format!("{:>6.2}x rustcrypto", r / ns));
        println!(
            "  {:<18} {:>8.0} MB/s  {:>7.3} ns/B  {ratio}",
            contender.name(),
            total as f64 * 1e3 / ns,
            ns / total as f64
        );
    }
}
