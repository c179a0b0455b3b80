//! Short messages through the `digest` API and HMAC, against the RustCrypto hasher multisha
//! replaces: the paths RustCrypto users take most (tokens, keys, headers). Each cell is the
//! median over interleaved rounds of the time ratio RustCrypto / multisha, so > 1 means
//! multisha is faster and machine noise cancels out within a round.

use crate::measure::{Plan, Stat, calibrate, time};
use crate::progress::Progress;
use crate::verify::message;
use multisha_benches::ShortPath;

/// Message sizes of the short-path table.
pub(crate) const SIZES: [usize; 3] = [16, 64, 256];

/// One row: a hash function's path at each size.
#[derive(Debug)]
pub(crate) struct ShortRow {
    pub(crate) function: &'static str,
    pub(crate) path: &'static str,
    /// Per size: the ratio RustCrypto time / multisha time over the rounds.
    pub(crate) ratios: Vec<(usize, Stat)>,
}

pub(crate) fn measure(
    paths: &[ShortPath],
    sizes: &[usize],
    plan: Plan,
    progress: &mut Progress,
) -> Vec<ShortRow> {
    paths
        .iter()
        .map(|path| {
            progress.step(&format!("{} {} short paths", path.function, path.path));
            let ratios = sizes
                .iter()
                .map(|&size| {
                    let data = message(size);
                    let ours = calibrate(&path.ours, &data, plan.sample_ticks);
                    let theirs = calibrate(&path.theirs, &data, plan.sample_ticks);
                    let samples = (0..plan.rounds)
                        .map(|round| {
                            // Alternate which side runs first, so drift favours neither.
                            let (a, b) = if round % 2 == 0 {
                                let a = time(&path.ours, &data, ours);
                                (a, time(&path.theirs, &data, theirs))
                            } else {
                                let b = time(&path.theirs, &data, theirs);
                                (time(&path.ours, &data, ours), b)
                            };
                            (b as f64 / theirs as f64) / (a as f64 / ours as f64)
                        })
                        .collect();
                    (size, Stat::of(samples))
                })
                .collect();
            ShortRow {
                function: path.function,
                path: path.path,
                ratios,
            }
        })
        .collect()
}
