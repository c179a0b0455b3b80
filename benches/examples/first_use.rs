//! What a process's first calls cost: each measured as the first call of a fresh process,
//! the processes of the different calls alternating, and the median of each printed.
//!
//! `cargo run --release -p multisha-benches --example first_use [-- --processes N]`
//!
//! - `multisha::sha256(b"abc")` against RustCrypto's `Sha256::digest(b"abc")`: the probe of
//!   the CPU and the dispatcher's choice;
//! - `engine::cpu_features()` alone;
//! - the first `sha256_many` of 5 messages of 40-80 B against a loop of one-shot calls on the
//!   same messages (as a process's first batch: the loop after one `sha256` call, so both
//!   start with the CPU probed);
//! - the first `sha256_many` of 1,000 messages of 1 KiB (where measuring the kernels' costs
//!   may pay), against the same loop.

use multisha::engine::cpu_features;
use sha2::Digest as _;
use std::process::Command;
use std::time::Instant;

/// The calls, each timed as the first of its own process: (name, what it runs).
const CALLS: &[&str] = &[
    "sha256",
    "rustcrypto",
    "cpu_features",
    "many5",
    "loop5",
    "many1000",
    "loop1000",
];

/// Nanoseconds of `call` as this process's first.
fn first(call: &str) -> u128 {
    // The batches' messages only where a batch is timed: allocating them first (a megabyte)
    // would weigh on the other calls' first steps.
    let batch = call.ends_with("5") || call.ends_with("1000");
    let count = if call.ends_with("1000") { 1000 } else { 5 };
    let owned: Vec<Vec<u8>> = (0..if batch { count } else { 0 })
        .map(|i| match count {
            5 => vec![i as u8; 40 + 10 * i],
            _ => vec![i as u8; 1024],
        })
        .collect();
    let messages: Vec<&[u8]> = owned.iter().map(Vec::as_slice).collect();
    let mut out = vec![[0u8; 32]; messages.len()];
    // The clock's own first reading costs 0.1-0.3 us (its code and data cold), which would
    // weigh on whichever call is timed: read it once first.
    std::hint::black_box(Instant::now().elapsed());
    let start;
    match call {
        "sha256" => {
            start = Instant::now();
            std::hint::black_box(multisha::sha256(std::hint::black_box(b"abc")));
        }
        "rustcrypto" => {
            start = Instant::now();
            std::hint::black_box(sha2::Sha256::digest(std::hint::black_box(b"abc")));
        }
        "cpu_features" => {
            start = Instant::now();
            std::hint::black_box(cpu_features());
        }
        "many5" | "many1000" => {
            std::hint::black_box(multisha::sha256(b"abc"));
            start = Instant::now();
            multisha::sha256_many(&messages, &mut out);
        }
        "loop5" | "loop1000" => {
            std::hint::black_box(multisha::sha256(b"abc"));
            start = Instant::now();
            for (message, digest) in messages.iter().zip(&mut out) {
                *digest = multisha::sha256(message);
            }
        }
        other => panic!("unknown call {other}"),
    }
    let elapsed = start.elapsed().as_nanos();
    std::hint::black_box(&out);
    elapsed
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(call) = args
        .iter()
        .position(|a| a == "--call")
        .map(|i| &args[i + 1])
    {
        println!("{}", first(call));
        return;
    }
    let processes = args
        .iter()
        .position(|a| a == "--processes")
        .map_or(31, |i| {
            args[i + 1].parse().expect("--processes takes a number")
        });
    let exe = std::env::current_exe().expect("this program's path");
    let mut times = vec![Vec::new(); CALLS.len()];
    for _ in 0..processes {
        for (k, call) in CALLS.iter().enumerate() {
            let output = Command::new(&exe)
                .args(["--call", call])
                .output()
                .expect("a child process");
            let text = String::from_utf8_lossy(&output.stdout);
            times[k].push(text.trim().parse::<u128>().expect("nanoseconds"));
        }
    }
    let median = |k: usize| {
        let mut t = times[k].clone();
        t.sort_unstable();
        t[t.len() / 2] as f64
    };
    println!("first calls, median of {processes} fresh processes each:");
    for (k, call) in CALLS.iter().enumerate() {
        println!("  {call:<14} {:>10.2} us", median(k) / 1000.0);
    }
    println!(
        "  first one-shot: {:.2}x RustCrypto's speed; first sha256_many of 5: {:.2}x the \
         loop's time; of 1,000 x 1 KiB: {:.2}x",
        median(1) / median(0),
        median(3) / median(4),
        median(5) / median(6),
    );
}
