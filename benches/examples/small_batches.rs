//! The smallest batches against a loop of one-shot calls, where the batch functions' checks
//! ahead of the hashing show: SHA-256 batches of 2-9 messages of 32 bytes, and SHA-1 batches
//! of 4, 6 and 8 messages of 0-200 bytes (ragged). Each process measures its costs first
//! (`engine::calibrate`), then times the batch and the loop in turn, the fastest of 21 rounds;
//! the median over the processes is printed, since a small batch's time moves by up to a
//! tenth from one process to the next on a shared machine.
//!
//! `cargo run --release -p multisha-benches --example small_batches [-- --processes N]`

use multisha::HashFunction;
use multisha::engine::{Algorithm, calibrate};
use multisha_benches::processes::{child_rows, median, processes_arg};
use std::hint::black_box;
use std::time::Instant;

/// How one shape is timed: its messages and the calls per round, to (batch, loop) nanoseconds.
type Timing = fn(&[&[u8]], usize) -> (f64, f64);

/// The shapes: a name, how it is timed (its hash function), the message lengths.
fn shapes() -> Vec<(String, Timing, Vec<usize>)> {
    let equal = [2, 3, 5, 7, 9].map(|n| {
        (
            format!("SHA-256 {n} x 32 B"),
            batch_and_loop::<multisha::Sha256> as Timing,
            vec![32; n],
        )
    });
    let ragged = [
        &[64, 10, 150, 90][..],
        &[10, 50, 120, 180, 30, 200],
        &[5, 100, 33, 170, 60, 140, 20, 190],
    ]
    .map(|lens| {
        (
            format!("SHA-1 {} of 0-200 B", lens.len()),
            batch_and_loop::<multisha::Sha1> as Timing,
            lens.to_vec(),
        )
    });
    equal.into_iter().chain(ragged).collect()
}

/// `H`'s batch function (`sha256_many`, ...) on `messages` against a loop of its one-shot
/// function (`sha256`), `n` calls a round: the fastest of each, in nanoseconds.
fn batch_and_loop<H: HashFunction>(messages: &[&[u8]], n: usize) -> (f64, f64) {
    let mut out = vec![H::ZERO; messages.len()];
    let mut again = out.clone();
    fastest(
        n,
        || H::oneshot_many(black_box(messages), black_box(&mut out)),
        || {
            for (m, d) in black_box(messages).iter().zip(&mut again) {
                *d = H::oneshot(m);
            }
        },
    )
}

/// The fastest nanoseconds of `run` over 21 rounds of `n` calls, `run` and `reference`
/// alternating: (batch, loop).
fn fastest(n: usize, mut run: impl FnMut(), mut reference: impl FnMut()) -> (f64, f64) {
    let mut best = [f64::MAX; 2];
    for _ in 0..21 {
        for (k, f) in [&mut run as &mut dyn FnMut(), &mut reference]
            .into_iter()
            .enumerate()
        {
            let start = Instant::now();
            for _ in 0..n {
                f();
            }
            best[k] = best[k].min(start.elapsed().as_nanos() as f64 / n as f64);
        }
    }
    (best[0], best[1])
}

/// One process's line: batch and loop nanoseconds per shape.
fn measure() -> Vec<(f64, f64)> {
    calibrate(Algorithm::Sha1);
    calibrate(Algorithm::Sha256);
    let data = vec![0x5au8; 4096];
    shapes()
        .into_iter()
        .map(|(_, timing, lens)| {
            let messages: Vec<&[u8]> = lens
                .iter()
                .enumerate()
                .map(|(i, &len)| &data[i * 7..][..len])
                .collect();
            timing(&messages, 300_000 / lens.len())
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--child") {
        for (batch, looped) in measure() {
            println!("{batch} {looped}");
        }
        return;
    }
    let processes = processes_arg(&args, 9);
    let runs = child_rows(processes);
    let shapes = shapes();
    println!("median of {processes} processes, each the fastest of 21 rounds:");
    for (k, (name, _, _)) in shapes.iter().enumerate() {
        // Row `k` of each process: the batch's time, then the loop's.
        let batch = median(runs.iter().map(|run| run[k][0]).collect());
        let ratio = median(runs.iter().map(|run| run[k][0] / run[k][1]).collect());
        println!("  {name:<22} {batch:>7.0} ns   {ratio:.3}x the loop");
    }
}
