//! Criterion benchmarks: one-shot SHA-1 and SHA-256 of every variant this CPU runs, the
//! dispatched path and the peers, at sizes from one short message to 1 MiB.
//! `cargo bench -p multisha-benches`; `cargo xtask report` is the fuller audit.

// `criterion_group!` defines an undocumented `pub fn`; nothing here is API.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use multisha::engine::Algorithm;
use multisha_benches::contenders;
use std::hint::black_box;

const SIZES: [usize; 7] = [16, 64, 256, 1024, 8192, 16384, 1 << 20];

fn bench(c: &mut Criterion) {
    for &algorithm in Algorithm::ALL {
        let contenders = contenders(algorithm);
        let mut group = c.benchmark_group(algorithm.id());
        for size in SIZES {
            let data: Vec<u8> = (0..size).map(|i| (i * 31 + 7) as u8).collect();
            group.throughput(Throughput::Bytes(size as u64));
            for contender in &contenders {
                group.bench_with_input(
                    BenchmarkId::new(contender.name(), size),
                    &data,
                    |b, data| b.iter(|| contender.oneshot(black_box(data))),
                );
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
