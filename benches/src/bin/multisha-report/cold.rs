//! Cold-cache latency of one call: before each sample the instruction cache is flushed by
//! running a lot of other code, then the data caches by reading a buffer larger than the
//! last-level cache. The same single-call timing without the flush gives the hot figure.

use crate::icache;
use crate::measure::Stat;
use crate::progress::Progress;
use crate::verify::message;
use multisha_benches::Contender;
use multisha_benches::counter;
use std::hint::black_box;

/// Memory read to evict the data caches.
#[derive(Debug)]
pub(crate) struct Evictor {
    buffer: Vec<u8>,
}

impl Evictor {
    /// A buffer of 1.5 times the last-level cache (caches are not perfect LRU), between
    /// 8 MiB and 512 MiB so a huge reported LLC cannot exhaust memory.
    pub(crate) fn new(last_level_cache: usize) -> Self {
        let len = (last_level_cache / 2 * 3).clamp(8 << 20, 512 << 20);
        // Non-zero contents so the pages are really backed, not the shared zero page.
        Evictor {
            buffer: vec![1u8; len],
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.buffer.len()
    }

    fn evict(&self) {
        icache::flush();
        let mut sum = 0u8;
        for i in (0..self.buffer.len()).step_by(64) {
            sum = sum.wrapping_add(self.buffer[i]);
        }
        black_box(sum);
    }
}

fn single(contender: &Contender, data: &[u8], overhead: u64) -> f64 {
    let start = counter::fenced();
    black_box(contender.oneshot(black_box(data)));
    let end = counter::fenced();
    end.wrapping_sub(start).saturating_sub(overhead) as f64
}

/// Per size, per contender: (cold, hot) ticks for one one-shot call.
pub(crate) fn measure(
    label: &str,
    sizes: &[usize],
    contenders: &[Contender],
    samples: usize,
    evictor: &Evictor,
    progress: &mut Progress,
) -> Vec<Vec<(Stat, Stat)>> {
    let overhead = counter::overhead();
    let n = contenders.len();
    sizes
        .iter()
        .map(|&size| {
            progress.step(&format!("{label} cold cache, {size} B"));
            let data = message(size);
            let mut cold = vec![Vec::with_capacity(samples); n];
            let mut hot = vec![Vec::with_capacity(samples); n];
            for round in 0..samples {
                for k in 0..n {
                    let i = (k + round) % n;
                    evictor.evict();
                    cold[i].push(single(&contenders[i], &data, overhead));
                    // Two warm-up calls, then the hot sample of the same call.
                    black_box(contenders[i].oneshot(&data));
                    black_box(contenders[i].oneshot(&data));
                    hot[i].push(single(&contenders[i], &data, overhead));
                }
            }
            cold.into_iter()
                .zip(hot)
                .map(|(c, h)| (Stat::of(c), Stat::of(h)))
                .collect()
        })
        .collect()
}
