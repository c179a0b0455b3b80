//! The smallest batches against a loop of one-shot calls, where the batch functions' checks
//! ahead of the hashing show: SHA-256 batches of 2-9 messages of 32 bytes, and SHA-1 batches
//! of 4, 6 and 8 messages of 0-200 bytes (ragged). Each process measures its costs first
//! (`engine::calibrate`), then times the batch and the loop in turn, the fastest of 21 rounds;
//! the median over the processes is printed, since a small batch's time moves by up to a
//! tenth from one process to the next on a shared machine.
//!
//! `cargo run --release -p multisha-benches --example small_batches [-- --processes N]`

use multisha::engine::{Algorithm, calibrate};
use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

/// The shapes: a name, the algorithm, the message lengths.
fn shapes() -> Vec<(String, Algorithm, Vec<usize>)> {
    let equal = [2, 3, 5, 7, 9].map(|n| {
        (
            format!("SHA-256 {n} x 32 B"),
            Algorithm::Sha256,
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
            Algorithm::Sha1,
            lens.to_vec(),
        )
    });
    equal.into_iter().chain(ragged).collect()
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
        .map(|(_, algorithm, lens)| {
            let messages: Vec<&[u8]> = lens
                .iter()
                .enumerate()
                .map(|(i, &len)| &data[i * 7..][..len])
                .collect();
            let n = 300_000 / lens.len();
            match algorithm.id() {
                "sha1" => {
                    let mut out = vec![[0u8; 20]; lens.len()];
                    let mut again = out.clone();
                    fastest(
                        n,
                        || multisha::sha1_many(black_box(&messages), black_box(&mut out)),
                        || {
                            for (m, d) in black_box(&messages).iter().zip(&mut again) {
                                *d = multisha::sha1(m);
                            }
                        },
                    )
                }
                _ => {
                    let mut out = vec![[0u8; 32]; lens.len()];
                    let mut again = out.clone();
                    fastest(
                        n,
                        || multisha::sha256_many(black_box(&messages), black_box(&mut out)),
                        || {
                            for (m, d) in black_box(&messages).iter().zip(&mut again) {
                                *d = multisha::sha256(m);
                            }
                        },
                    )
                }
            }
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
    let processes = args.iter().position(|a| a == "--processes").map_or(9, |i| {
        args[i + 1].parse().expect("--processes takes a number")
    });
    let exe = std::env::current_exe().expect("this program's path");
    let shapes = shapes();
    let mut times = vec![Vec::new(); shapes.len()];
    for _ in 0..processes {
        let output = Command::new(&exe)
            .arg("--child")
            .output()
            .expect("a child process");
        let text = String::from_utf8_lossy(&output.stdout);
        for (k, line) in text.lines().enumerate() {
            let mut parts = line
                .split(' ')
                .map(|p| p.parse::<f64>().expect("nanoseconds"));
            let (batch, looped) = (parts.next().expect("batch"), parts.next().expect("loop"));
            times[k].push((batch, looped));
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!("median of {processes} processes, each the fastest of 21 rounds:");
    for ((name, _, _), t) in shapes.iter().zip(times) {
        let batch = median(t.iter().map(|x| x.0).collect());
        let ratio = median(t.iter().map(|x| x.0 / x.1).collect());
        println!("  {name:<22} {batch:>7.0} ns   {ratio:.3}x the loop");
    }
}
