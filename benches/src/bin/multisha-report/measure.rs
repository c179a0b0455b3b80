//! Hot-cache throughput: per cell (message size, update size), every contender is calibrated
//! to a sample length, then sampled in interleaved rounds (the order rotates each round) so
//! frequency drift and noise from neighbours hit all contenders alike; the median is kept.

use crate::progress::Progress;
use crate::verify::message;
use multisha_benches::Contender;
// The primitives live in the library, shared with the examples; the report's modules take them
// from here.
pub(crate) use multisha_benches::timing::{Stat, calibrate, time};

/// One measurement: `len`-byte messages, streamed in `chunk`-byte updates or, for `None`,
/// through the one-shot function.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cell {
    pub(crate) len: usize,
    pub(crate) chunk: Option<usize>,
}

/// How long and how often to sample.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    pub(crate) rounds: usize,
    /// Counter ticks per sample.
    pub(crate) sample_ticks: u64,
}

fn run(contender: &Contender, data: &[u8], chunk: Option<usize>, iterations: u64) -> u64 {
    match chunk {
        Some(chunk) => time(&|d| contender.stream(d, chunk), data, iterations),
        None => time(&|d| contender.oneshot(d), data, iterations),
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

/// One `Stat` per way of `n`: `way(i)` (a timing closure over no data) calibrated to a
/// sample, then sampled in interleaved rounds, the order rotating each round; the median
/// kept. What the batch and Merkle sections measure with.
pub(crate) fn interleaved<F: Fn(&[u8]) -> multisha_benches::Output>(
    n: usize,
    plan: Plan,
    way: impl Fn(usize) -> F,
) -> Vec<Stat> {
    let iterations: Vec<u64> = (0..n)
        .map(|i| calibrate(&way(i), &[], plan.sample_ticks))
        .collect();
    let mut samples = vec![Vec::with_capacity(plan.rounds); n];
    for round in 0..plan.rounds {
        for k in 0..n {
            let i = (k + round) % n;
            let ticks = time(&way(i), &[], iterations[i]);
            samples[i].push(ticks as f64 / iterations[i] as f64);
        }
    }
    samples.into_iter().map(Stat::of).collect()
}
