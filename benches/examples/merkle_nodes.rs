//! SHA-256 Merkle nodes across processes: `sha256_pairs` against hashtree per node count and
//! on a dependent chain of single nodes, the median over fresh processes.
//!
//! `cargo run --release -p multisha-benches --example merkle_nodes -- --processes 9`
//!
//! Why processes: on the AMD Zen 4 this was written on, the time of one node moves by a third
//! between processes of one binary (62 or 90 ns), and with address randomisation off
//! (`setarch -R`) every process of that binary takes the same one of the two: where the code
//! and data land sets it, not the plan. One process shows one draw of that; the median over
//! several shows what a program meets typically. Each process measures the planner's costs
//! first (`engine::calibrate`): the steady state of a program that has hashed for a while.

use multisha_benches::processes::{child_rows, median, processes_arg};
use multisha_benches::{CHAIN_STEPS, NODE_COUNTS, node_contenders, nodes};
use std::hint::black_box;
use std::time::Instant;

/// The counts measured here: the report's, up to 4,096 nodes.
fn counts() -> Vec<usize> {
    NODE_COUNTS.into_iter().filter(|&c| c <= 4096).collect()
}

/// Nanoseconds per node of each contender (in `node_contenders` order), per count, then on
/// the chain: the fastest of 15 rounds, the contenders taking turns.
fn measure() -> Vec<Vec<f64>> {
    // Costs measured first, as in a program that has hashed for a while (otherwise the first
    // counts plan on the declared estimates and the larger ones on measured costs, whenever
    // the process's work reaches the measurement).
    multisha::engine::calibrate(multisha::engine::Algorithm::Sha256);
    let contenders = node_contenders();
    let mut rows = Vec::new();
    for count in counts() {
        let nodes = nodes(count, count as u64);
        let mut out = vec![[0u8; 32]; count];
        let reps = (20_000 / count).max(2);
        let mut best = vec![f64::MAX; contenders.len()];
        for _ in 0..15 {
            for (k, c) in contenders.iter().enumerate() {
                let start = Instant::now();
                for _ in 0..reps {
                    c.run(black_box(&nodes), black_box(&mut out));
                }
                let ns = start.elapsed().as_nanos() as f64 / (reps * count) as f64;
                best[k] = best[k].min(ns);
            }
        }
        rows.push(best);
    }
    let start_node = nodes(1, 99)[0];
    let mut best = vec![f64::MAX; contenders.len()];
    for _ in 0..15 {
        for (k, c) in contenders.iter().enumerate() {
            let start = Instant::now();
            for _ in 0..100 {
                black_box(c.chain(black_box(&start_node), CHAIN_STEPS));
            }
            best[k] = best[k].min(start.elapsed().as_nanos() as f64 / (100 * CHAIN_STEPS) as f64);
        }
    }
    rows.push(best);
    rows
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--child") {
        for row in measure() {
            let cells: Vec<String> = row.iter().map(|ns| ns.to_string()).collect();
            println!("{}", cells.join(" "));
        }
        return;
    }
    let processes = processes_arg(&args, 9);
    let runs = child_rows(processes);
    let names: Vec<&str> = node_contenders().iter().map(|c| c.name).collect();
    println!(
        "ns per node, median of {processes} processes (each the fastest of 15 rounds); ratio: {} / {} speed",
        names[0], names[1]
    );
    let labels = counts()
        .into_iter()
        .map(|c| format!("{c} nodes"))
        .chain([format!("chain of {CHAIN_STEPS}")]);
    for (r, label) in labels.enumerate() {
        let cell = |k: usize| median(runs.iter().map(|run| run[r][k]).collect());
        let ratio = median(runs.iter().map(|run| run[r][1] / run[r][0]).collect());
        println!(
            "  {label:<14} {} {:>6.1}   {} {:>6.1}   {ratio:.2}x",
            names[0],
            cell(0),
            names[1],
            cell(1)
        );
    }
}
