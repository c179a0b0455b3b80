//! The timing primitives every measurement here shares (the report's tables, the PBKDF2
//! section and its example): a calibrated sample of repeated calls, read on the cycle counter,
//! and the median over rounds.

use crate::Output;
use crate::counter;
use std::hint::black_box;

/// Counter ticks per call over the rounds.
#[derive(Debug, Clone, Copy)]
pub struct Stat {
    /// The median sample.
    pub median: f64,
    /// The fastest sample.
    pub min: f64,
    /// The slowest sample.
    pub max: f64,
}

impl Stat {
    /// The median, minimum and maximum of `samples` (NaN for none).
    pub fn of(mut samples: Vec<f64>) -> Stat {
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

/// Counter ticks of `iterations` calls of `hash` on `data`.
#[inline(never)]
pub fn time(hash: &dyn Fn(&[u8]) -> Output, data: &[u8], iterations: u64) -> u64 {
    let start = counter::now();
    for _ in 0..iterations {
        black_box(hash(black_box(data)));
    }
    counter::now().wrapping_sub(start)
}

/// Iterations of `hash` on `data` that fill one sample of `target` ticks; the doubling doubles
/// as warm-up.
pub fn calibrate(hash: &dyn Fn(&[u8]) -> Output, data: &[u8], target: u64) -> u64 {
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
