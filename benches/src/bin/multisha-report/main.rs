//! `multisha-report` (run by `cargo xtask report`): cross-checks every multisha variant this
//! CPU runs and every peer, then measures them (tcrypt matrix, one-shot size sweep, cold
//! cache), reads each kernel's code size from this binary, and writes report.md, report.json
//! and SVG plots. It lives in the benches crate so it runs optimized with the peers linked in.

mod batch;
mod cli;
mod codesize;
mod cold;
mod icache;
mod machine;
mod measure;
mod merkle;
mod output_json;
mod output_md;
mod plot;
mod progress;
mod results;
mod short;
mod summary;
mod verify;

use cli::{CliError, Options};
use measure::{Cell, Plan};
use multisha::engine::{Algorithm, CpuFeatures};
use multisha_benches::counter;
use multisha_benches::{Contender, DERIVATIONS, Derivation, Kind, contenders};
use progress::Progress;
use results::{AlgoReport, Entry, MaskNote, RegretReport, Report};
use std::process::ExitCode;
use std::time::Duration;

/// The tcrypt speed-test cells (bytes per message, bytes per update), as in Linux's tcrypt.
const TCRYPT: [(usize, usize); 22] = [
    (16, 16),
    (64, 16),
    (64, 64),
    (256, 16),
    (256, 64),
    (256, 256),
    (1024, 16),
    (1024, 256),
    (1024, 1024),
    (2048, 16),
    (2048, 256),
    (2048, 1024),
    (2048, 2048),
    (4096, 16),
    (4096, 256),
    (4096, 1024),
    (4096, 4096),
    (8192, 16),
    (8192, 256),
    (8192, 1024),
    (8192, 4096),
    (8192, 8192),
];
/// One-shot sizes for the plot and the summary (the criterion sizes).
const SWEEP: [usize; 7] = [16, 64, 256, 1024, 8192, 16384, 1 << 20];
/// Rounds of the PBKDF2 section at least (quick mode too).
const PBKDF2_MIN_ROUNDS: usize = 9;
/// Sizes of the cold-cache figures.
const COLD: [usize; 2] = [64, 1024];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match cli::parse(&args) {
        Err(CliError::Help) => {
            println!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Err(CliError::Usage(message)) => {
            eprintln!("multisha-report: {message}\n\n{}", cli::USAGE);
            ExitCode::from(2)
        }
        Ok(options) => match run(&options) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("multisha-report: error: {message}");
                ExitCode::FAILURE
            }
        },
    }
}

fn entry(contender: &Contender, symbols: Option<&codesize::Symbols>) -> Entry {
    let variant = contender.variant();
    let code = variant.and_then(|v| {
        let (size, name) = symbols?.containing(v.kernel_address())?;
        Some((size, name.to_string()))
    });
    let requires = match (contender.kind(), variant) {
        (Kind::Variant, Some(v)) if v.requires().is_empty() => "-".into(),
        (Kind::Variant, Some(v)) => v.requires().to_string(),
        (Kind::Dispatched, Some(v)) => format!("runs {}", v.name()),
        _ => "-".into(),
    };
    Entry {
        name: contender.name().to_string(),
        kind: contender.kind(),
        requires,
        description: contender.description().to_string(),
        code,
    }
}

fn run(options: &Options) -> Result<(), String> {
    let plan = if options.quick {
        (
            Plan {
                rounds: 5,
                sample_ticks: 0,
            },
            1.0,
            7,
            Duration::from_millis(50),
        )
    } else {
        (
            Plan {
                rounds: 11,
                sample_ticks: 0,
            },
            10.0,
            31,
            Duration::from_millis(300),
        )
    };
    let (mut plan, sample_ms, cold_samples, calibration) = plan;
    if let Some(mask) = MaskNote::current() {
        eprintln!("multisha-report: {}", mask.line());
    }
    let keep = |size: &usize| options.sizes.as_ref().is_none_or(|s| s.contains(size));
    let cells: Vec<Cell> = TCRYPT
        .iter()
        .filter(|c| keep(&c.0))
        .map(|&(len, chunk)| Cell {
            len,
            chunk: Some(chunk),
        })
        .collect();
    let mut sweep: Vec<usize> = options.sizes.clone().unwrap_or_else(|| SWEEP.to_vec());
    sweep.sort_unstable();
    sweep.dedup();
    let cold_sizes: Vec<usize> = COLD.into_iter().filter(keep).collect();

    // Cross-check everything first: no numbers for a contender that computes the wrong hash.
    let mut sets = Vec::new();
    for &algorithm in &options.algorithms {
        let all = contenders(algorithm);
        let checked = verify::cross_check(&all)?;
        let chosen: Vec<Contender> = all
            .into_iter()
            .filter(|c| {
                c.kind() != Kind::Variant
                    || options
                        .variants
                        .as_ref()
                        .is_none_or(|names| names.iter().any(|n| n == c.name()))
            })
            .collect();
        eprintln!(
            "{algorithm}: {checked} digests agree across {} contenders",
            chosen.len()
        );
        sets.push((algorithm, checked, chosen));
    }

    let symbols = codesize::Symbols::load()
        .inspect_err(|e| eprintln!("multisha-report: warning: no kernel code sizes: {e}"))
        .ok();
    let hz = counter::frequency(calibration);
    plan.sample_ticks = (hz * sample_ms / 1e3) as u64;
    let evictor = cold::Evictor::new(machine::last_level_cache());
    let short_paths: Vec<_> = multisha_benches::short_paths()
        .into_iter()
        .filter(|p| options.algorithms.contains(&p.algorithm))
        .collect();
    let short_sizes: Vec<usize> = short::SIZES.into_iter().filter(keep).collect();
    let short_steps = if short_sizes.is_empty() {
        0
    } else {
        short_paths.len()
    };
    let shapes = multisha_benches::batch_shapes(options.sizes.as_deref());
    let batch_functions: Vec<_> = options
        .algorithms
        .iter()
        .flat_map(|&a| multisha_benches::batch_functions(a))
        .collect();
    // PBKDF2 of the chosen algorithms; message sizes and variants do not apply to it.
    let derivations: Vec<Derivation> = DERIVATIONS
        .into_iter()
        .filter(|d| options.algorithms.contains(&d.hash.algorithm()))
        .collect();
    // Merkle nodes (64-byte SHA-256 messages) with SHA-256: every node count and the chain.
    let merkle_steps = if options.algorithms.contains(&Algorithm::Sha256) {
        multisha_benches::NODE_COUNTS.len() + 1
    } else {
        0
    };
    let mut progress = Progress::new(
        sets.len() * (cells.len() + sweep.len() + cold_sizes.len() + 1)
            + batch_functions.len() * shapes.len()
            + merkle_steps
            + short_steps
            + derivations.len(),
    );

    let mut algos = Vec::new();
    for (algorithm, checked, set) in &sets {
        let label = algorithm.id();
        let sweep_cells: Vec<Cell> = sweep.iter().map(|&len| Cell { len, chunk: None }).collect();
        let tcrypt = measure::measure(label, &cells, set, plan, &mut progress);
        let swept = measure::measure(label, &sweep_cells, set, plan, &mut progress);
        let cold = cold::measure(
            label,
            &cold_sizes,
            set,
            cold_samples,
            &evictor,
            &mut progress,
        );
        let selection = algorithm.active();
        algos.push(AlgoReport {
            algorithm: *algorithm,
            dispatched: selection.variant.name().to_string(),
            reason: selection.reason.to_string(),
            checked: *checked,
            entries: set.iter().map(|c| entry(c, symbols.as_ref())).collect(),
            tcrypt: cells.iter().copied().zip(tcrypt).collect(),
            sweep: sweep.iter().copied().zip(swept).collect(),
            cold: cold_sizes.iter().copied().zip(cold).collect(),
        });
    }
    let mut batches = Vec::new();
    for &function in &batch_functions {
        let contenders = multisha_benches::batch_contenders(function);
        batches.push(batch::measure(
            function,
            &contenders,
            &shapes,
            plan,
            &mut progress,
        )?);
    }
    let merkle = if merkle_steps > 0 {
        Some(merkle::measure(plan, &mut progress)?)
    } else {
        None
    };
    let regret_shapes = multisha_benches::regret_shapes(options.quick);
    let mut regret = Vec::new();
    for &algorithm in &options.algorithms {
        progress.step(&format!("{} batch planner regret", algorithm.id()));
        // Measured first, as in a program that has batched for a while.
        multisha::engine::calibrate(algorithm);
        let rows = multisha_benches::measure_regret(
            algorithm,
            &regret_shapes,
            // Short samples, many rounds, ratios paired by round (see `measure_regret`).
            3 * plan.rounds,
            50_000.0,
        );
        // The costs the rounds ran on (the second measurement is made before them).
        let costs = multisha::engine::batch_costs(algorithm).to_string();
        regret.push(RegretReport {
            algorithm,
            costs,
            rows,
        });
    }
    let short = if short_sizes.is_empty() {
        Vec::new()
    } else {
        short::measure(&short_paths, &short_sizes, plan, &mut progress)
    };
    // Each derivation takes milliseconds, so the plan's samples hold one or a few of them;
    // at least nine rounds (a few seconds in all) so one noisy neighbour moves no median.
    let pbkdf2_rounds = plan.rounds.max(PBKDF2_MIN_ROUNDS);
    let pbkdf2 = multisha_benches::measure_pbkdf2(
        &derivations,
        pbkdf2_rounds,
        plan.sample_ticks,
        &mut |what| progress.step(what),
    )?;
    progress.finish();

    let report = Report {
        cpu: machine::cpu_model(),
        features: CpuFeatures::detect().to_string(),
        cpu_mask: MaskNote::current(),
        counter: counter::LABEL,
        unit: counter::UNIT,
        hz,
        quick: options.quick,
        rounds: plan.rounds,
        sample_ms,
        cold_samples,
        evict_bytes: evictor.len(),
        icache_bytes: symbols.as_ref().and_then(|s| s.span(icache::addresses())),
        missing_peers: multisha_benches::missing_peers(),
        short,
        batches,
        merkle,
        regret,
        pbkdf2,
        pbkdf2_rounds,
        algos,
    };
    write(options, &report)?;
    print!("{}", summary::render(&report));
    for (peer, why) in &report.missing_peers {
        eprintln!("multisha-report: note: peer `{peer}` not measured: {why}");
    }
    Ok(())
}

fn write(options: &Options, report: &Report) -> Result<(), String> {
    let out = &options.out;
    std::fs::create_dir_all(out).map_err(|e| format!("creating {}: {e}", out.display()))?;
    let out = out
        .canonicalize()
        .map_err(|e| format!("resolving {}: {e}", out.display()))?;
    let mut plots = Vec::new();
    for algo in &report.algos {
        let name = format!("{}-throughput.svg", algo.algorithm.id());
        plot::draw(report, algo, &out.join(&name))?;
        plots.push(name);
    }
    let mut batch_plots = Vec::new();
    for batch in &report.batches {
        let name = format!("{}-batch.svg", batch.function.id());
        let series: Vec<(String, Vec<(f64, f64)>)> = batch
            .entries
            .iter()
            .enumerate()
            .map(|(i, entry)| {
                let points = batch
                    .rows
                    .iter()
                    .filter_map(|(_, bytes, len, stats)| {
                        Some(((*len)? as f64, report.mbps(*bytes, stats[i].median)))
                    })
                    .collect();
                (entry.0.clone(), points)
            })
            .collect();
        let title = format!(
            "{} batches: aggregate throughput vs message size ({})",
            batch.function, report.cpu
        );
        plot::draw_series(
            &title,
            "message size (bytes), equal-length batches",
            &series,
            &out.join(&name),
        )?;
        batch_plots.push(name);
    }
    let save = |name: &str, text: String| {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|e| format!("writing {}: {e}", path.display()))
    };
    save("report.md", output_md::render(report, &plots, &batch_plots))?;
    save("report.json", output_json::render(report)?)?;
    println!(
        "report written to {}/ (report.md, report.json, {}, {})",
        out.display(),
        plots.join(", "),
        batch_plots.join(", ")
    );
    Ok(())
}
