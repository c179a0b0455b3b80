//! The batch planner's regret grid on this CPU, printed: per shape, the dispatched batch
//! function against the best single choice and against one message after the other.
//!
//! `cargo run --release -p multisha-benches --example regret [-- --quick] [--rounds N]
//! [--processes P] [--only LABEL] [sha1|sha256|sha512]`: `--quick` keeps a part of the grid and
//! 15 rounds (else 25); `--only "1 x"` keeps the shapes whose label starts so (`1 x 32 B`,
//! ...); each ratio is the median of the rounds' paired ratios, so more rounds steady it on a
//! busy machine. `--processes P` runs the grid in `P` processes one after the other and
//! prints, per shape, the median and the worst of their ratios: each process measures the
//! kernels' costs anew before its grid (`engine::calibrate`), as every program that batches
//! for a while does, so the median is what a program meets typically, the worst what it
//! meets in an unlucky one. Each algorithm's summary line gives the worst regret and the
//! worst against a loop of one-shot calls, the cells over each goal (1.05 and 1.03) and the
//! geometric means, and the worst against the same plan pinned (what planning and dispatch
//! cost, on the cells whose plan runs on one kernel; goal 1.03).

use multisha::engine::{Algorithm, batch_costs, calibrate};
use multisha_benches::timing::Stat;
use multisha_benches::{measure_regret, regret_shapes};
use std::collections::BTreeMap;
use std::process::Command;

/// The value after flag `name`, a positive number, if the flag is given.
fn count_after(args: &[String], name: &str) -> Option<usize> {
    let i = args.iter().position(|a| a == name)?;
    match args.get(i + 1).and_then(|n| n.parse::<usize>().ok()) {
        Some(n) if n > 0 => Some(n),
        _ => {
            eprintln!("{name} takes a positive number");
            std::process::exit(2);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(processes) = count_after(&args, "--processes") {
        return across_processes(&args, processes);
    }
    let quick = args.iter().any(|a| a == "--quick");
    // One line per cell, for `--processes`:
    // `algorithm \t shape \t regret \t vs 1x1 \t vs the plan pinned (or -) \t plan`.
    let cells = args.iter().any(|a| a == "--cells");
    let rounds = count_after(&args, "--rounds").unwrap_or(if quick { 15 } else { 25 });
    let only = args
        .iter()
        .position(|a| a == "--only")
        .map(|i| match args.get(i + 1) {
            Some(prefix) => (i + 1, prefix.as_str()),
            None => {
                eprintln!("--only takes the start of a shape's label (`1 x`, `6 mixed`)");
                std::process::exit(2);
            }
        });
    let named: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|&(i, a)| {
            !a.starts_with("--") && a.parse::<usize>().is_err() && only.is_none_or(|o| o.0 != i)
        })
        .map(|(_, a)| a)
        .collect();
    if let Some(unknown) = named
        .iter()
        .find(|n| !Algorithm::ALL.iter().any(|a| a.id() == n.as_str()))
    {
        let ids: Vec<&str> = Algorithm::ALL.iter().map(|a| a.id()).collect();
        eprintln!("unknown algorithm {unknown:?}: one of {}", ids.join(", "));
        std::process::exit(2);
    }
    let algorithms = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| named.is_empty() || named.iter().any(|n| *n == a.id()));
    let shapes: Vec<_> = regret_shapes(quick)
        .into_iter()
        .filter(|shape| only.is_none_or(|(_, prefix)| shape.label.starts_with(prefix)))
        .collect();
    if shapes.is_empty() {
        eprintln!(
            "no shape of the grid starts with {:?}",
            only.map_or("", |o| o.1)
        );
        std::process::exit(2);
    }
    for algorithm in algorithms {
        // Measured before the grid, as in a program that has batched for a while (a
        // process's first 100 ms of batch work plan on the declared estimates).
        calibrate(algorithm);
        let rows = measure_regret(algorithm, &shapes, rounds, 50_000.0);
        // The costs the rounds ran on (the second measurement is made before them).
        let costs = batch_costs(algorithm);
        if cells {
            for row in &rows {
                println!(
                    "{}\t{}\t{}\t{}\t{}\t{}",
                    algorithm,
                    row.label,
                    row.regret(),
                    row.against_one_by_one(),
                    row.against_pinned()
                        .map_or("-".to_string(), |r| r.to_string()),
                    row.plan
                );
            }
            continue;
        }
        println!("{costs}");
        println!(
            "{:<20} {:>11} {:>11} {:<12} {:>7} {:>7} {:>7}  plan",
            "shape", "dispatched", "best", "(which)", "regret", "vs loop", "vs pin"
        );
        for row in &rows {
            println!(
                "{:<20} {:>9.0}ns {:>9.0}ns {:<12} {:>7.3} {:>7.3} {:>7}  {}",
                row.label,
                row.dispatched,
                row.best.1,
                row.best.0,
                row.regret(),
                row.against_one_by_one(),
                row.against_pinned()
                    .map_or("-".to_string(), |r| format!("{r:.3}")),
                row.plan
            );
        }
        let cells: Vec<Ratios> = rows
            .iter()
            .map(|r| Ratios {
                label: &r.label,
                regret: r.regret(),
                against_loop: r.against_one_by_one(),
                against_pinned: r.against_pinned(),
            })
            .collect();
        println!("{}\n", summary(&algorithm.to_string(), &cells));
    }
}

/// The regret goal: the dispatched call at most this many times the best single choice's.
const REGRET_GOAL: f64 = 1.05;
/// The loop goal: the dispatched call at most this many times a loop of one-shot calls.
const LOOP_GOAL: f64 = 1.03;
/// The planning goal: the dispatched call at most this many times the same plan pinned
/// (planning and dispatch at most 3% of the call).
const PINNED_GOAL: f64 = 1.03;

/// One cell's ratios.
struct Ratios<'a> {
    label: &'a str,
    regret: f64,
    against_loop: f64,
    /// Against the same plan pinned, where the plan runs on one kernel.
    against_pinned: Option<f64>,
}

/// One algorithm's grid in a line: the worst regret, the worst against the loop of one-shot
/// calls and the worst against the same plan pinned, with their shapes, how many cells miss
/// each goal, and the geometric means.
fn summary(algorithm: &str, cells: &[Ratios]) -> String {
    type Pick = fn(&Ratios) -> Option<f64>;
    let worst = |pick: Pick| {
        cells
            .iter()
            .filter_map(|c| Some((c.label, pick(c)?)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or(("-", 0.0))
    };
    let over = |pick: Pick, goal: f64| cells.iter().filter(|c| pick(c) > Some(goal)).count();
    let geomean = |pick: Pick| {
        let logs: Vec<f64> = cells.iter().filter_map(|c| Some(pick(c)?.ln())).collect();
        (logs.iter().sum::<f64>() / logs.len().max(1) as f64).exp()
    };
    let (regret, loop_, pinned): (Pick, Pick, Pick) = (
        |c| Some(c.regret),
        |c| Some(c.against_loop),
        |c| c.against_pinned,
    );
    let (worst_regret, worst_loop, worst_pinned) = (worst(regret), worst(loop_), worst(pinned));
    format!(
        "{algorithm}: {} cells; worst regret {:.3} ({}), worst against the loop {:.3} ({}), \
         worst against the same plan pinned {:.3} ({}; {} cells on one kernel); cells over \
         {REGRET_GOAL} regret: {}, over {LOOP_GOAL} against the loop: {}, over {PINNED_GOAL} \
         against the plan pinned: {}; geometric mean regret {:.3}, against the loop {:.3}, \
         against the plan pinned {:.3}",
        cells.len(),
        worst_regret.1,
        worst_regret.0,
        worst_loop.1,
        worst_loop.0,
        worst_pinned.1,
        worst_pinned.0,
        cells.iter().filter(|c| c.against_pinned.is_some()).count(),
        over(regret, REGRET_GOAL),
        over(loop_, LOOP_GOAL),
        over(pinned, PINNED_GOAL),
        geomean(regret),
        geomean(loop_),
        geomean(pinned),
    )
}

/// One cell's ratios from every process, and the plans they ran.
#[derive(Default)]
struct Cell {
    regret: Vec<f64>,
    against_one_by_one: Vec<f64>,
    /// From the processes whose plan ran on one kernel.
    against_pinned: Vec<f64>,
    plans: Vec<String>,
}

/// Runs the grid in `processes` child processes, one after the other (side by side they
/// would slow each other), and prints the median and worst of each cell.
fn across_processes(args: &[String], processes: usize) {
    let mut child_args: Vec<String> = Vec::new();
    let mut skip = false;
    for arg in args {
        if std::mem::take(&mut skip) {
            continue;
        }
        if arg == "--processes" {
            skip = true;
            continue;
        }
        child_args.push(arg.clone());
    }
    child_args.push("--cells".to_string());
    let exe = std::env::current_exe().expect("the path of this program");
    // Cells in the grid's order, per algorithm.
    let mut grid: BTreeMap<String, Vec<(String, Cell)>> = BTreeMap::new();
    for p in 0..processes {
        eprintln!("process {} of {processes}", p + 1);
        let output = Command::new(&exe)
            .args(&child_args)
            .output()
            .expect("run the grid in a child process");
        if !output.status.success() {
            eprintln!("{}", String::from_utf8_lossy(&output.stderr));
            std::process::exit(1);
        }
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            let [algorithm, label, regret, against, pinned, plan] = fields[..] else {
                continue;
            };
            let (Ok(regret), Ok(against)) = (regret.parse::<f64>(), against.parse::<f64>()) else {
                continue;
            };
            let cells = grid.entry(algorithm.to_string()).or_default();
            let at = match cells.iter().position(|(l, _)| l == label) {
                Some(at) => at,
                None => {
                    cells.push((label.to_string(), Cell::default()));
                    cells.len() - 1
                }
            };
            let cell = &mut cells[at].1;
            cell.regret.push(regret);
            cell.against_one_by_one.push(against);
            // `-` where this process's plan had more than one stage.
            cell.against_pinned.extend(pinned.parse::<f64>().ok());
            // The plan in words, without its predicted time (which differs per process).
            let plan = plan.split("; predicted").next().unwrap_or(plan);
            cell.plans.push(plan.to_string());
        }
    }
    for (algorithm, cells) in &grid {
        println!("{algorithm}: {processes} processes, each its own measured costs");
        println!(
            "{:<20} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}  plans",
            "shape", "regret", "(worst)", "vs loop", "(worst)", "vs pin", "(worst)"
        );
        let mut medians = Vec::new();
        for (label, cell) in cells {
            let regret = Stat::of(cell.regret.clone());
            let against = Stat::of(cell.against_one_by_one.clone());
            let (regret, regret_max, against, against_max) =
                (regret.median, regret.max, against.median, against.max);
            let pinned =
                (!cell.against_pinned.is_empty()).then(|| Stat::of(cell.against_pinned.clone()));
            let [pinned_median, pinned_max] = [
                pinned.as_ref().map(|p| p.median),
                pinned.as_ref().map(|p| p.max),
            ]
            .map(|r| r.map_or("-".to_string(), |r| format!("{r:.3}")));
            let mut plans = cell.plans.clone();
            plans.sort();
            plans.dedup();
            println!(
                "{label:<20} {regret:>8.3} {regret_max:>8.3} {against:>8.3} {against_max:>8.3} \
                 {pinned_median:>8} {pinned_max:>8}  {} different",
                plans.len()
            );
            medians.push(Ratios {
                label,
                regret,
                against_loop: against,
                against_pinned: pinned.map(|p| p.median),
            });
        }
        println!("{} (medians)\n", summary(algorithm, &medians));
    }
}
