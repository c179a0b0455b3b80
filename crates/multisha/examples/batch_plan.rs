//! The batch planner's view of this CPU: the costs it measured for every kernel, and the plan
//! it makes for a few batch shapes (or for the lengths given as arguments).
//!
//! `cargo run --release -p multisha --example batch_plan [-- LENGTH...]`

use multisha::engine::{Algorithm, batch_plan, calibrate};

fn main() {
    let given: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("lengths in bytes"))
        .collect();
    let shapes: Vec<(String, Vec<usize>)> = if given.is_empty() {
        [
            (1, 64),
            (2, 64),
            (4, 256),
            (7, 4096),
            (9, 64),
            (24, 300),
            (100, 32),
            (3, 4096),
        ]
        .into_iter()
        .map(|(count, len)| (format!("{count} x {len} B"), vec![len; count]))
        .chain([(
            "13 mixed".to_string(),
            (0..13).map(|i| (i * 2731) % 8192).collect(),
        )])
        .collect()
    } else {
        vec![("given".to_string(), given)]
    };
    for &algorithm in Algorithm::ALL {
        // Measured now, as a program's batch work would have them measured.
        println!("{}", calibrate(algorithm));
        for (label, lengths) in &shapes {
            println!("  {label}: {}", batch_plan(algorithm, lengths));
        }
        for count in [2, 9, 16, 24, 10_000] {
            println!(
                "  planning {count} messages of mixed lengths: {:.0} ns",
                planning_ns(algorithm, count)
            );
        }
    }
}

/// Nanoseconds `batch_plan` takes for `count` messages of mixed lengths (planning alone: the
/// shape, the costs, the planner).
fn planning_ns(algorithm: Algorithm, count: usize) -> f64 {
    let lengths: Vec<usize> = (0..count).map(|i| (i * 2731) % 8192).collect();
    let runs = (200_000 / count).max(10);
    let start = std::time::Instant::now();
    for _ in 0..runs {
        std::hint::black_box(batch_plan(algorithm, std::hint::black_box(&lengths)));
    }
    start.elapsed().as_nanos() as f64 / runs as f64
}
