//! The PBKDF2 table on this CPU, printed as Markdown (for notes and issues): milliseconds per
//! derivation of multisha and every PBKDF2 peer, medians of interleaved rounds in one process,
//! multisha against the best peer and against RustCrypto, and its nanoseconds per iteration
//! next to two blocks of its kernel. The same measurement as the report's PBKDF2 section.
//!
//! `cargo run --release -p multisha-benches --features openssl --example pbkdf2_peers
//! [-- --quick] [--rounds N]` (without `--features openssl`: no OpenSSL, no fastpbkdf2).

use multisha::engine::CpuFeatures;
use multisha_benches::{DERIVATIONS, counter, measure_pbkdf2, missing_peers, pbkdf2_table};
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    // The report's PBKDF2 plans: quick 9 rounds of 1 ms samples, full 11 of 10 ms.
    let (mut rounds, sample_ms) = if quick { (9, 1.0) } else { (11, 10.0) };
    if let Some(i) = args.iter().position(|a| a == "--rounds") {
        match args.get(i + 1).and_then(|n| n.parse::<usize>().ok()) {
            Some(n) if n > 0 => rounds = n,
            _ => {
                eprintln!("pbkdf2_peers: --rounds needs a positive number");
                return ExitCode::from(2);
            }
        }
    }
    let hz = counter::frequency(Duration::from_millis(if quick { 50 } else { 300 }));
    let sample_ticks = (hz * sample_ms / 1e3) as u64;
    let rows = match measure_pbkdf2(&DERIVATIONS, rounds, sample_ticks, &mut |what| {
        eprintln!("measuring {what}")
    }) {
        Ok(rows) => rows,
        Err(message) => {
            eprintln!("pbkdf2_peers: {message}");
            return ExitCode::FAILURE;
        }
    };
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("model name"))?;
            Some(line.split_once(':')?.1.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    println!(
        "PBKDF2-HMAC on {cpu} ({}); ms per derivation, median of {rounds} interleaved rounds \
         of ~{sample_ms} ms samples, one process; ratios: median over the rounds of the other's \
         time / multisha's in the same round (> 1: multisha faster).\n",
        CpuFeatures::detect()
    );
    print!("{}", pbkdf2_table(&rows, hz));
    for (name, _, description) in &rows[0].entries {
        println!("- {name}: {description}");
    }
    for (peer, why) in missing_peers() {
        println!("- not measured: {peer} ({why})");
    }
    ExitCode::SUCCESS
}
