//! The batch planner's regret grid on this CPU, printed: per shape, the dispatched batch
//! function against the best single choice and against one message after the other.
//!
//! `cargo run --release -p multisha-benches --example regret [-- --quick] [--rounds N]
//! [sha1|sha256|sha512]`: `--quick` keeps a part of the grid and 15 rounds (else 25); each
//! ratio is the median of the rounds' paired ratios, so more rounds steady it on a busy
//! machine.

use multisha::engine::{Algorithm, batch_costs};
use multisha_benches::{measure_regret, regret_shapes};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let rounds = match args.iter().position(|a| a == "--rounds") {
        Some(i) => match args.get(i + 1).and_then(|n| n.parse::<usize>().ok()) {
            Some(n) if n > 0 => n,
            _ => {
                eprintln!("--rounds takes a positive number");
                std::process::exit(2);
            }
        },
        None if quick => 15,
        None => 25,
    };
    let algorithms: Vec<Algorithm> = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| {
            let named: Vec<&String> = args
                .iter()
                .filter(|a| !a.starts_with("--") && a.parse::<usize>().is_err())
                .collect();
            named.is_empty() || named.iter().any(|n| *n == a.id())
        })
        .collect();
    let shapes = regret_shapes(quick);
    for algorithm in algorithms {
        println!("{}", batch_costs(algorithm));
        let rows = measure_regret(algorithm, &shapes, rounds, 50_000.0);
        println!(
            "{:<20} {:>11} {:>11} {:<12} {:>7} {:>7}  plan",
            "shape", "dispatched", "best", "(which)", "regret", "vs 1x1"
        );
        for row in &rows {
            println!(
                "{:<20} {:>9.0}ns {:>9.0}ns {:<12} {:>7.3} {:>7.3}  {}",
                row.label,
                row.dispatched,
                row.best.1,
                row.best.0,
                row.regret(),
                row.against_one_by_one(),
                row.plan
            );
        }
        let worst = rows
            .iter()
            .max_by(|a, b| a.regret().total_cmp(&b.regret()))
            .expect("rows");
        let worst_one = rows
            .iter()
            .max_by(|a, b| a.against_one_by_one().total_cmp(&b.against_one_by_one()))
            .expect("rows");
        println!(
            "{algorithm}: worst regret {:.3} ({}), worst against one by one {:.3} ({})\n",
            worst.regret(),
            worst.label,
            worst_one.against_one_by_one(),
            worst_one.label
        );
    }
}
