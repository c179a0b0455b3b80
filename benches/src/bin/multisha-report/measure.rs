//! Hot-cache throughput: per cell (message size, update size), every contender is calibrated
//! to a sample length, then sampled in interleaved rounds (the order rotates each round) so
//! frequency drift and noise from neighbours hit all contenders alike; the median is kept.

use crate::counter;
use crate::progress::Progress;
use crate::verify::message;
use multisha_benches::{Contender, Output};
use std::hint::black_box;

/// One measurement: `len`-byte messages, streamed in `chunk`-byte updates or, for `None`,
/// through the one-shot function.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cell {
    pub(crate) len: usize,
    pub(crate) chunk: Option<usize>,
}

/// Counter ticks per message over the rounds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stat {
    pub(crate) median: f64,
    pub(crate) min: f64,
    pub(crate) max: f64,
}

impl Stat {
    pub(crate) fn of(mut samples: Vec<f64>) -> Stat {
        samples.sort_by(f64::total_cmp);
        let n = samples.len();
        let median = if n == 0 {
            f64::NAN
        } else if n % 2 == 1 {
            samples[n / 2]
        } else {
            (samples[n / 2 - 1] + samples[n / 2]) / 2.0
        };
        Stat {
            median,
            min: samples.first().copied().unwrap_or(f64::NAN),
            max: samples.last().copied().unwrap_or(f64::NAN),
        }
    }
}

/// How long and how often to sample.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    pub(crate) rounds: usize,
    /// Counter ticks per sample.
    pub(crate) sample_ticks: u64,
}

/// Counter ticks of `iterations` calls of `hash` on `data`.
#[inline(never)]
pub(crate) fn time(hash: &dyn Fn(&[u8]) -> Output, data: &[u8], iterations: u64) -> u64 {
    let start = counter::now();
    for _ in 0..iterations {
        black_box(hash(black_box(data)));
    }
    counter::now().wrapping_sub(start)
}

fn run(contender: &Contender, data: &[u8], chunk: Option<usize>, iterations: u64) -> u64 {
    match chunk {
        Some(chunk) => time(&|d| contender.stream(d, chunk), data, iterations),
        None => time(&|d| contender.oneshot(d), data, iterations),
    }
}

/// Iterations of `hash` on `data` that fill one sample of `target` ticks; the doubling doubles
/// as warm-up.
pub(crate) fn calibrate(hash: &dyn Fn(&[u8]) -> Output, data: &[u8], target: u64) -> u64 {
    let mut iterations = 1;
    loop {
        let ticks = time(hash, data, iterations);
        if ticks >= target || iterations >= 1 << 26 {
            return iterations;
        }
        // Jump close to the target once a measurable time has passed, else double.
        iterations = if ticks > target / 16 {
            (iterations as f64 * target as f64 / ticks as f64).ceil() as u64
        } else {
            iterations * 2
        };
    }
}

/// One `Stat` per contender per cell.
pub(crate) fn measure(
    label: &str,
    cells: &[Cell],
    contenders: &[Contender],
    plan: Plan,
    progress: &mut Progress,
) -> Vec<Vec<Stat>> {
    let n = contenders.len();
    cells
        .iter()
        .map(|cell| {
            let what = match cell.chunk {
                Some(chunk) => format!("{label} {} B in {chunk} B updates", cell.len),
                None => format!("{label} {} B one-shot", cell.len),
            };
            progress.step(&what);
            let data = message(cell.len);
            let iterations: Vec<u64> = contenders
                .iter()
                .map(|c| match cell.chunk {
                    Some(chunk) => calibrate(&|d| c.stream(d, chunk), &data, plan.sample_ticks),
                    None => calibrate(&|d| c.oneshot(d), &data, plan.sample_ticks),
                })
                .collect();
            let mut samples = vec![Vec::with_capacity(plan.rounds); n];
            for round in 0..plan.rounds {
                for k in 0..n {
                    let i = (k + round) % n;
                    let ticks = run(&contenders[i], &data, cell.chunk, iterations[i]);
                    samples[i].push(ticks as f64 / iterations[i] as f64);
                }
            }
            samples.into_iter().map(Stat::of).collect()
        })
        .collect()
}
