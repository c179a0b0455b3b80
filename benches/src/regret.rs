//! The batch planner's regret: for a grid of batch shapes, the dispatched batch function's
//! time against the best single choice (every many-message variant pinned alone, and one
//! message after the other through the one-shot function), all in one process, interleaved
//! rounds (a new order each round). The ratios are paired: each round's dispatched
//! time over the other way's in the same round, the median over the rounds. On a shared
//! machine a neighbour does not slow every way alike (one busy on the SHA unit slows the SHA
//! instructions, not the vector lanes), so each way's fastest round could come from a
//! different moment; rounds side by side compare the ways under the same conditions. Each
//! sample follows an untimed call of its own way, so no way is timed cold after another.
//!
//! A round takes one sample of every way of every shape, so each shape's rounds are spread
//! over the whole grid. Timed shape after shape, a shape's rounds all fell within some tens of
//! milliseconds, inside one phase of a neighbour that came and went in phases of 10-200 ms:
//! on an Intel Xeon (Emerald Rapids) 9 SHA-1 messages of 0-1 KiB read the plan on lanes
//! 0.92 of one by one in quiet phases and 1.07 in busy ones, and the median of nine processes
//! was whichever phase most of them met.

use crate::timing::Stat;
use multisha::HashFunction;
use multisha::engine::{Algorithm, Interface, PinnedMany};
use std::time::{Duration, Instant};

/// How long each way runs untimed before each of its samples, at least (and one call). On an
/// Intel Xeon (AMX generation) AVX-512 lanes after milliseconds of SHA-NI one by one ran
/// slower for some tens of microseconds: 300 SHA-256 messages of 0-1 KiB, dispatched onto
/// `avx512-x16` right after the loop of one-shot calls, measured 1.049-1.051 times the same
/// kernel pinned (which a fixed rotation put after the dispatched way) with one call (52 us) run
/// first, 1.025 with 50 us, 1.017 with 100 us.
const WARM_UP: Duration = Duration::from_micros(100);

/// The warm-up where the dispatched call takes [`LONG_CALL_NS`] or more: each way timed
/// after milliseconds of its own calls, past the shadow of the way before. On an Intel Xeon
/// (Emerald Rapids) the core ran a scalar chain 0.5-0.9% slower for about 1.5 ms after 3 ms of
/// SHA-1 `avx512-x32`. With [`WARM_UP`], 24 SHA-1 messages of 16 KiB read `avx512-x32` 1-6%
/// faster than `avx512-x16` (regret 1.04-1.06 at 24 and 64 x 4 and 16 KiB); with 5 ms, 1%
/// slower, as each alone in its own process was (83.7-84.4 us against 82.8-83.3); with this,
/// those cells read 1.000-1.001. Only on long calls, where it was seen: on every shape it
/// would make a nine-process grid take about 7 minutes (3 with this, 1 without).
const WARM_UP_LONG: Duration = Duration::from_millis(2);

/// The dispatched call's time from which a shape's ways warm up for [`WARM_UP_LONG`].
const LONG_CALL_NS: f64 = 10_000.0;

/// How long the grid waits at most for the planner's second measurement before its rounds.
const SETTLE_AT_MOST: Duration = Duration::from_secs(2);

/// One batch shape of the grid: its label and its message lengths.
#[derive(Debug, Clone)]
pub struct RegretShape {
    /// `7 x 4 KiB`, `13 mixed 0-8 KiB`.
    pub label: String,
    /// The message lengths in bytes.
    pub lengths: Vec<usize>,
}

/// The grid: counts 1-300 by lengths 32 B-16 KiB, and mixed lengths 0-200 B, 0-1 KiB and
/// 0-8 KiB; `quick` keeps a third of it (the counts and lengths where plans change most).
pub fn regret_shapes(quick: bool) -> Vec<RegretShape> {
    let counts: &[usize] = if quick {
        &[2, 3, 5, 7, 9, 17, 24, 100]
    } else {
        &[1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 24, 33, 64, 100, 300]
    };
    let lengths: &[usize] = if quick {
        &[32, 300, 4096]
    } else {
        &[32, 64, 300, 1024, 4096, 16384]
    };
    let mut shapes = Vec::new();
    for &len in lengths {
        for &count in counts {
            if count * len > 8 << 20 {
                continue;
            }
            shapes.push(RegretShape {
                label: format!("{count} x {}", crate::size_label(len)),
                lengths: vec![len; count],
            });
        }
    }
    // Ragged batches: what users send most (short strings, records, small files) is small
    // and of differing lengths, where planning weighs most against the hashing.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mixed: &[(usize, &[usize])] = if quick {
        &[(200, &[6, 20]), (1024, &[3, 9]), (8192, &[13, 64])]
    } else {
        &[
            (200, &[2, 3, 6, 9, 20, 100, 300]),
            (1024, &[2, 3, 6, 9, 20, 100, 300]),
            (8192, &[3, 7, 13, 64, 300]),
        ]
    };
    for &(most, counts) in mixed {
        for &count in counts {
            shapes.push(RegretShape {
                label: format!("{count} mixed 0-{}", crate::size_label(most)),
                lengths: (0..count)
                    .map(|_| (next(&mut seed) % (most as u64 + 1)) as usize)
                    .collect(),
            });
        }
    }
    shapes
}

/// xorshift64*.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed >> 12;
    *seed ^= *seed << 25;
    *seed ^= *seed >> 27;
    seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// One row of the regret table: nanoseconds per batch call, each way's median round, and
/// the paired ratios.
#[derive(Debug, Clone)]
pub struct RegretRow {
    /// The shape's label.
    pub label: String,
    /// How many messages, and their bytes in all.
    pub count: usize,
    /// Bytes in all.
    pub bytes: usize,
    /// The dispatched batch function.
    pub dispatched: f64,
    /// The fastest single choice (of least median time): its name and time.
    pub best: (String, f64),
    /// One message after the other through the one-shot function.
    pub one_by_one: f64,
    /// The plan the dispatched function ran, in words.
    pub plan: String,
    /// The paired ratios: against the best single choice, against one by one.
    ratios: (f64, f64),
    /// The paired ratio against the same plan pinned, where the plan runs on one kernel.
    against_pinned: Option<f64>,
}

impl RegretRow {
    /// Dispatched time / the best single choice's, the median of the rounds' ratios (1.0:
    /// the planner chose as well as the best choice made knowing the answer).
    pub fn regret(&self) -> f64 {
        self.ratios.0
    }

    /// Dispatched time / one by one's, the median of the rounds' ratios.
    pub fn against_one_by_one(&self) -> f64 {
        self.ratios.1
    }

    /// Dispatched time / the time of the same plan pinned (`PinnedMany` of its one variant,
    /// `serial` for one by one), the median of the rounds' ratios: what planning and dispatch
    /// cost the call. `None` where the plan has more than one stage, which no pinned variant
    /// runs.
    pub fn against_pinned(&self) -> Option<f64> {
        self.against_pinned
    }
}

/// Measures every shape of `shapes` for `algorithm`'s main hash function (SHA-1, SHA-256,
/// SHA-512): `rounds` rounds, each sample at least `sample_ns` long.
pub fn measure_regret(
    algorithm: Algorithm,
    shapes: &[RegretShape],
    rounds: usize,
    sample_ns: f64,
) -> Vec<RegretRow> {
    if algorithm == Algorithm::Sha1 {
        measure::<multisha::Sha1>(shapes, rounds, sample_ns)
    } else if algorithm == Algorithm::Sha256 {
        measure::<multisha::Sha256>(shapes, rounds, sample_ns)
    } else {
        measure::<multisha::Sha512>(shapes, rounds, sample_ns)
    }
}

/// A way to hash a batch into typed digests: every contender writes into a buffer made once,
/// so none pays for an allocation the others do not.
type Way<H> = Box<dyn Fn(&[&[u8]], &mut [<H as HashFunction>::Digest])>;

fn measure<H: HashFunction>(
    shapes: &[RegretShape],
    rounds: usize,
    sample_ns: f64,
) -> Vec<RegretRow> {
    let mut ways: Vec<(String, Way<H>)> = vec![(
        "dispatched".to_string(),
        Box::new(|m: &[&[u8]], d: &mut [H::Digest]| H::oneshot_many(m, d)),
    )];
    for variant in H::algorithm().variants() {
        if variant.interface() != Interface::Many {
            continue;
        }
        if let Ok(pinned) = PinnedMany::<H>::new(variant.name()) {
            ways.push((
                variant.name().to_string(),
                Box::new(move |m: &[&[u8]], d: &mut [H::Digest]| pinned.hash_many(m, d)),
            ));
        }
    }
    ways.push((
        "one-by-one".to_string(),
        Box::new(|m: &[&[u8]], d: &mut [H::Digest]| {
            for (message, digest) in m.iter().zip(d.iter_mut()) {
                *digest = H::oneshot(message);
            }
        }),
    ));
    let data: Vec<u8> = {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        (0..(16 << 10) + 4096)
            .map(|_| next(&mut seed) as u8)
            .collect()
    };
    // Every shape made ready first (its messages checked against the dispatched function, its
    // calls per sample and its warm-up), then timed in rounds over the whole grid.
    let mut cells: Vec<Cell<'_, H>> = shapes
        .iter()
        .map(|shape| Cell::new(shape, &data, &ways, rounds, sample_ns))
        .collect();
    // The planner's second measurement (due once the batch work planned on the first takes
    // as long again) made before the rounds, so that every round runs the plans the grid
    // reports, as in a program that has batched for a while; the largest shape's calls make
    // it due soonest. Skipped where measuring is off (no measurement) or done.
    if let Some(largest) = cells
        .iter()
        .max_by(|a, b| a.dispatched_ns.total_cmp(&b.dispatched_ns))
    {
        let settling = Instant::now();
        let mut out = vec![H::ZERO; largest.messages.len()];
        while multisha::engine::batch_costs(H::algorithm()).measurements == 1
            && settling.elapsed() < SETTLE_AT_MOST
        {
            (ways[0].1)(&largest.messages, &mut out);
        }
    }
    for _ in 0..rounds {
        for cell in &mut cells {
            cell.round(&ways);
        }
    }
    let mut rows = Vec::new();
    for (shape, cell) in shapes.iter().zip(&cells) {
        let samples = &cell.samples;
        let typical: Vec<f64> = samples.iter().map(|s| Stat::of(s.clone()).median).collect();
        let (best, &best_ns) = typical
            .iter()
            .enumerate()
            .skip(1)
            .min_by(|a, b| a.1.total_cmp(b.1))
            .expect("single choices");
        let paired = |other: usize| {
            Stat::of(
                samples[0]
                    .iter()
                    .zip(&samples[other])
                    .map(|(dispatched, other)| dispatched / other)
                    .collect(),
            )
            .median
        };
        let plan = multisha::engine::batch_plan(H::algorithm(), &shape.lengths);
        let mut stages = plan.stages();
        let same_plan = match (stages.next(), stages.next()) {
            (Some(stage), None) => {
                let name = if stage.lanes == 1 {
                    "serial"
                } else {
                    stage.variant.name()
                };
                ways.iter().position(|(way, _)| way == name)
            }
            _ => None,
        };
        rows.push(RegretRow {
            label: shape.label.clone(),
            count: shape.lengths.len(),
            bytes: shape.lengths.iter().sum(),
            dispatched: typical[0],
            best: (ways[best].0.clone(), best_ns),
            one_by_one: *typical.last().expect("one by one"),
            plan: plan.to_string(),
            ratios: (paired(best), paired(ways.len() - 1)),
            against_pinned: same_plan.map(paired),
        });
    }
    rows
}

/// One shape of the grid as it is timed: its messages, each way's calls per sample, its
/// warm-up, and the samples so far.
struct Cell<'a, H: HashFunction> {
    messages: Vec<&'a [u8]>,
    out: Vec<H::Digest>,
    /// Per way: calls per sample.
    iterations: Vec<usize>,
    /// The dispatched way's time of one call, from the run that set its `iterations`.
    dispatched_ns: f64,
    warm_up: Duration,
    /// The order of the ways, shuffled every round, and the shuffle's state.
    order: Vec<usize>,
    shuffle: u64,
    /// Per way: one sample per round.
    samples: Vec<Vec<f64>>,
}

impl<'a, H: HashFunction> Cell<'a, H> {
    /// `shape`'s messages (bytes of `data`), checked through every way against the dispatched
    /// function, and each way's calls per sample of at least `sample_ns`.
    fn new(
        shape: &RegretShape,
        data: &'a [u8],
        ways: &[(String, Way<H>)],
        rounds: usize,
        sample_ns: f64,
    ) -> Self {
        // Each message its own bytes: offsets that differ.
        let messages: Vec<&[u8]> = shape
            .lengths
            .iter()
            .enumerate()
            .map(|(i, &len)| &data[(i * 61) % 4096..][..len])
            .collect();
        let mut want = vec![H::ZERO; messages.len()];
        let mut out = vec![H::ZERO; messages.len()];
        for (i, (name, way)) in ways.iter().enumerate() {
            way(&messages, &mut out);
            if i == 0 {
                want.clone_from(&out);
            }
            assert!(
                out == want,
                "{name} disagrees with the dispatched function on {}",
                shape.label
            );
        }
        // Calls per sample from a run of a tenth of a sample at least: timed from one call,
        // a way whose first call met a cold cache or vector unit got a short sample, in which
        // that start weighed on every round.
        let (iterations, each): (Vec<usize>, Vec<f64>) = ways
            .iter()
            .map(|(_, way)| {
                let mut calls = 1;
                loop {
                    let each = time::<H>(way, &messages, &mut out, calls).max(1.0);
                    if each * calls as f64 >= sample_ns / 10.0 || calls >= 1 << 20 {
                        break (((sample_ns / each).ceil() as usize).clamp(1, 1 << 20), each);
                    }
                    calls *= 2;
                }
            })
            .unzip();
        // (The ways are listed dispatched first.)
        let dispatched_ns = each[0];
        let warm_up = if dispatched_ns >= LONG_CALL_NS {
            WARM_UP_LONG
        } else {
            WARM_UP
        };
        Cell {
            messages,
            out,
            iterations,
            dispatched_ns,
            warm_up,
            order: (0..ways.len()).collect(),
            shuffle: 0x2545_f491_4f6c_dd1du64 ^ shape.lengths.len() as u64,
            samples: vec![Vec::with_capacity(rounds); ways.len()],
        }
    }

    /// One sample of every way, in a new order.
    fn round(&mut self, ways: &[(String, Way<H>)]) {
        // A new order every round (Fisher-Yates), so no way follows the same way in most
        // rounds. A fixed rotation put the dispatched way after one by one in every round,
        // the only way on the AVX-512 lanes that followed one without them: on an Intel
        // Xeon, 64 SHA-256 messages of 32 B under `MULTISHA_CPU=-sha` then took 1.05-1.07
        // times the same plan pinned in some processes, a regret that planning did not cause.
        for k in (1..self.order.len()).rev() {
            self.order
                .swap(k, (next(&mut self.shuffle) % (k as u64 + 1)) as usize);
        }
        for &i in &self.order {
            // Untimed, so no sample starts cold: a way may follow one by one, which on a
            // large batch runs for milliseconds without the vector units. On an Intel Xeon
            // a 16-message AVX-512 batch took 2.5-4.5 us after 3 ms without AVX-512, 1 us
            // warm; without this call, under `MULTISHA_CPU=-sha` the dispatched way's
            // regret was about 1% higher on the grid's average cell, and the 64 and 300
            // mixed batches (all on the pinned kernel's lanes) 1.03-1.07 for 1.02-1.05.
            // One call was not enough where a call is short beside the vector units'
            // warm-up ([`WARM_UP`]), or where the way before cast a longer shadow
            // ([`WARM_UP_LONG`]).
            let way = &ways[i].1;
            let warming = Instant::now();
            way(&self.messages, &mut self.out);
            while warming.elapsed() < self.warm_up {
                way(&self.messages, &mut self.out);
            }
            let sample = time::<H>(way, &self.messages, &mut self.out, self.iterations[i]);
            self.samples[i].push(sample);
        }
    }
}

/// Nanoseconds per call of `way` on `messages`, over `iterations` calls.
fn time<H: HashFunction>(
    way: &Way<H>,
    messages: &[&[u8]],
    out: &mut [H::Digest],
    iterations: usize,
) -> f64 {
    let start = Instant::now();
    for _ in 0..iterations {
        way(messages, out);
    }
    start.elapsed().as_nanos() as f64 / iterations as f64
}
