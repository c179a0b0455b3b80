//! Release-mode throughput of the x86-64 kernels next to the portable ones.
//!
//! `cargo run --release -p multisha-x86 --example x86_speed`
//!
//! Each kernel compresses a 16 KiB buffer (256 blocks per call) and a 64-byte one (one block
//! per call) for about 0.3 s per size, in 60 slices of 5 ms interleaved across kernels so that
//! frequency drift and noise hit all of them alike. MB/s and cycles/byte are those of the
//! fastest slice; "x ref" is the median, over the 60 rounds, of the speed ratio to the best
//! portable kernel of the family (`sha1/unroll5`, `sha256/unroll64`) in the same round.
//! Cycles are TSC ticks (`rdtsc`), which count at the nominal frequency, not core clock cycles.
//! Optional arguments filter the kernels by name substring (`-- sha256/`).

#[cfg(target_arch = "x86_64")]
fn main() {
    x86::main();
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("x86_speed: not an x86-64 machine, nothing to measure");
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::_rdtsc;
    use multisha_contract::{
        Block, SHA1_IV, SHA256_IV, Sha1Kernel, Sha1Workspace, Sha256Kernel, Sha256Workspace,
    };
    use std::hint::black_box;
    use std::time::{Duration, Instant};

    /// A kernel of either family, bound to its own state and workspace.
    #[derive(Clone, Copy)]
    enum Kernel {
        Sha1(Sha1Kernel),
        Sha256(Sha256Kernel),
    }

    struct Entry {
        name: &'static str,
        kernel: Kernel,
        /// Per buffer size, per slice: (bytes, seconds, TSC ticks).
        slices: [Vec<(u64, f64, u64)>; 2],
    }

    const SIZES: [usize; 2] = [16 * 1024, 64];
    const SLICES: u32 = 60;
    const PER_SIZE: Duration = Duration::from_millis(300);

    fn run_slice(kernel: Kernel, blocks: &[Block], budget: Duration) -> (u64, f64, u64) {
        let mut s1 = SHA1_IV;
        let mut s256 = SHA256_IV;
        let mut w1 = Sha1Workspace::new();
        let mut w256 = Sha256Workspace::new();
        let mut calls = 0u64;
        let start = Instant::now();
        // SAFETY: rdtsc exists on every x86-64 CPU.
        let t0 = unsafe { _rdtsc() };
        while start.elapsed() < budget {
            for _ in 0..16 {
                // SAFETY: `main` only lists kernels whose CPU features were detected.
                unsafe {
                    match kernel {
                        Kernel::Sha1(k) => k(&mut s1, black_box(blocks), &mut w1),
                        Kernel::Sha256(k) => k(&mut s256, black_box(blocks), &mut w256),
                    }
                }
            }
            calls += 16;
        }
        // SAFETY: as above.
        let t1 = unsafe { _rdtsc() };
        let secs = start.elapsed().as_secs_f64();
        black_box((s1, s256));
        (calls * (blocks.len() as u64) * 64, secs, t1 - t0)
    }

    pub(super) fn main() {
        let has = |f: bool, name: &str| {
            if !f {
                println!("skipping {name}: CPU lacks its features");
            }
            f
        };
        let shani = std::is_x86_feature_detected!("sha")
            && std::is_x86_feature_detected!("sse2")
            && std::is_x86_feature_detected!("ssse3")
            && std::is_x86_feature_detected!("sse4.1");
        let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi2");

        // Optional substring filters on the kernel names, e.g. `-- sha256/`.
        let filters: Vec<String> = std::env::args().skip(1).collect();
        let mut entries: Vec<Entry> = Vec::new();
        let mut add = |name: &'static str, kernel| {
            if filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str())) {
                entries.push(Entry {
                    name,
                    kernel,
                    slices: [Vec::new(), Vec::new()],
                });
            }
        };
        add("sha1/rolled", Kernel::Sha1(multisha_rolled::sha1::compress));
        add(
            "sha1/unroll5",
            Kernel::Sha1(multisha_unrolled::sha1_unroll5::compress),
        );
        add("sha1/asm", Kernel::Sha1(multisha_x86::sha1_asm::compress));
        if has(shani, "sha1/shani") {
            add(
                "sha1/shani",
                Kernel::Sha1(multisha_x86::sha1_shani::compress),
            );
        }
        add(
            "sha256/rolled",
            Kernel::Sha256(multisha_rolled::sha256::compress),
        );
        add(
            "sha256/unroll8",
            Kernel::Sha256(multisha_unrolled::sha256_unroll8::compress),
        );
        add(
            "sha256/unroll64",
            Kernel::Sha256(multisha_full_unroll::compress),
        );
        if has(avx2, "sha256/avx2") {
            add(
                "sha256/avx2",
                Kernel::Sha256(multisha_x86::sha256_avx2::compress),
            );
        }
        if has(shani, "sha256/shani") {
            add(
                "sha256/shani",
                Kernel::Sha256(multisha_x86::sha256_shani::compress),
            );
        }

        let buffers: Vec<Vec<Block>> = SIZES
            .iter()
            .map(|&n| (0..n / 64).map(|i| [i as u8; 64]).collect())
            .collect();
        let slice = PER_SIZE / SLICES;
        for _ in 0..SLICES {
            for entry in &mut entries {
                for (slices, blocks) in entry.slices.iter_mut().zip(&buffers) {
                    slices.push(run_slice(entry.kernel, blocks, slice));
                }
            }
        }

        println!(
            "{:<16} {:>10} {:>8} {:>7} {:>10} {:>8} {:>7}",
            "kernel", "16KiB MB/s", "TSC c/B", "x ref", "64B MB/s", "TSC c/B", "x ref"
        );
        let rate = |x: &(u64, f64, u64)| x.0 as f64 / x.1;
        for entry in &entries {
            // The reference of each family: the fastest portable kernel.
            let family = entry.name.split('/').next().unwrap_or("");
            let reference_name = if family == "sha1" {
                "sha1/unroll5"
            } else {
                "sha256/unroll64"
            };
            let reference = entries.iter().find(|e| e.name == reference_name);
            let mut line = format!("{:<16}", entry.name);
            for (size, slices) in entry.slices.iter().enumerate() {
                // The fastest slice: other processes on a busy machine only ever slow a slice
                // down (preemption, shared caches), never speed it up.
                let &(bytes, secs, ticks) = slices
                    .iter()
                    .max_by(|x, y| rate(x).total_cmp(&rate(y)))
                    .unwrap();
                // Speed-up over the reference: the median over rounds of the ratio between
                // slices run back to back, so slow phases of the machine cancel out.
                let ratio = reference.map_or(f64::NAN, |r| {
                    let mut ratios: Vec<f64> = slices
                        .iter()
                        .zip(&r.slices[size])
                        .map(|(x, y)| rate(x) / rate(y))
                        .collect();
                    ratios.sort_by(f64::total_cmp);
                    ratios[ratios.len() / 2]
                });
                line += &format!(
                    " {:>10.0} {:>8.2} {:>7.2}",
                    bytes as f64 / secs / 1e6,
                    ticks as f64 / bytes as f64,
                    ratio
                );
            }
            println!("{line}");
        }
    }
}
