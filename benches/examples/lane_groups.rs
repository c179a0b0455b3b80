//! The two-group AVX-512 lane kernels against the one-group ones they interleave, pinned, in
//! one process: SHA-1 and SHA-256 `avx512-x32` against `avx512-x16`, SHA-512 `avx512-x16`
//! against `avx512-x8`, beside the dispatched batch function (and, for SHA-256, tape-sha256's
//! `hash_many`), on equal batches of long, middling and one-block messages. Each cell is the
//! median over 21 rounds in which every contender runs in turn (the fastest of 3 calls each);
//! the ratio is the median of the rounds' own ratios, two groups' speed over one group's.
//!
//! `cargo run --release -p multisha-benches --example lane_groups`
//!
//! The messages of a batch lie one after the other in one buffer, or (`skewed`) 64 or 192
//! bytes further apart: messages a multiple of 4 KiB from each other fall in the same sets of
//! the L1 cache, where thirty-two lanes ran slower than sixteen; the batch functions leave the
//! kernels of more than sixteen lanes out for such batches (`dispatched`).

use multisha::HashFunction;
use multisha::engine::PinnedMany;
use multisha_benches::processes::median;
use std::hint::black_box;
use std::time::Instant;

/// Batches: label, messages, bytes each, distance between message starts.
const SHAPES: [(&str, usize, usize, usize); 8] = [
    ("64 x 16 KiB", 64, 16384, 16384),
    ("64 x 16 KiB skewed", 64, 16384, 16384 + 192),
    ("256 x 4 KiB", 256, 4096, 4096),
    ("256 x 4 KiB skewed", 256, 4096, 4096 + 64),
    ("256 x 1 KiB", 256, 1024, 1024),
    ("300 x 300 B", 300, 300, 300),
    ("1024 x 100 B", 1024, 100, 100),
    ("1024 x 64 B", 1024, 64, 64),
];

/// Rounds per cell.
const ROUNDS: usize = 21;

/// One algorithm's table: `one` and `two` are the one-group and two-group variants' names.
fn table<H: HashFunction>(name: &str, one: &str, two: &str, tape: bool) {
    let (Ok(narrow), Ok(wide)) = (PinnedMany::<H>::new(one), PinnedMany::<H>::new(two)) else {
        println!("{name}: {one} or {two} does not run on this CPU (AVX-512F and AVX-512BW)");
        return;
    };
    let buffer = vec![0x5au8; 256 * (4096 + 64)];
    println!("{name}: MB/s, median of {ROUNDS} rounds; {two} / {one} speed");
    for (label, count, len, stride) in SHAPES {
        let messages: Vec<&[u8]> = (0..count)
            .map(|i| &buffer[i * stride..i * stride + len])
            .collect();
        let mut digests = vec![H::ZERO; count];
        let mut tape_digests = vec![[0u8; 32]; count];
        type Run<'a, D> = Box<dyn FnMut(&mut [D]) + 'a>;
        let mut contenders: Vec<(&str, Run<H::Digest>)> = vec![
            (one, Box::new(|d| narrow.hash_many(black_box(&messages), d))),
            (two, Box::new(|d| wide.hash_many(black_box(&messages), d))),
            (
                "dispatched",
                Box::new(|d| H::oneshot_many(black_box(&messages), d)),
            ),
        ];
        if tape {
            contenders.push((
                "tape-sha256",
                Box::new(|_| tape_sha256::hash_many(black_box(&messages), &mut tape_digests)),
            ));
        }
        let mut times = vec![Vec::new(); contenders.len()];
        for _ in 0..ROUNDS {
            for (k, (_, run)) in contenders.iter_mut().enumerate() {
                let mut best = f64::MAX;
                for _ in 0..3 {
                    let start = Instant::now();
                    run(&mut digests);
                    best = best.min(start.elapsed().as_nanos() as f64);
                }
                times[k].push(best);
            }
        }
        let bytes = (count * len) as f64;
        let ratio = median(times[0].iter().zip(&times[1]).map(|(a, b)| a / b).collect());
        print!("  {label:<20}");
        for (k, (contender, _)) in contenders.iter().enumerate() {
            let mb_s = bytes / median(times[k].clone()) * 1e3;
            print!(" {contender} {mb_s:>6.0}");
        }
        println!("   {ratio:.3}x");
    }
}

fn main() {
    // Costs measured first, as in a program that has hashed for a while.
    for algorithm in multisha::engine::Algorithm::ALL {
        multisha::engine::calibrate(*algorithm);
    }
    table::<multisha::Sha1>("SHA-1", "avx512-x16", "avx512-x32", false);
    table::<multisha::Sha256>("SHA-256", "avx512-x16", "avx512-x32", true);
    table::<multisha::Sha512>("SHA-512", "avx512-x8", "avx512-x16", false);
}
