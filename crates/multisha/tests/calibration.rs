//! The batch planner's costs: measured once per process at the first batch call, even when
//! sixteen threads make that call at once; never blocking a caller for long; the declared
//! estimates with `MULTISHA_CALIBRATE=0`. Each test runs in a process of its own (this binary
//! re-runs itself), since the costs are measured once per process.

mod common;

use multisha::engine::{Algorithm, batch_costs};
use std::sync::Barrier;
use std::time::{Duration, Instant};

/// Runs the ignored test `name` of this binary in a child process with `env` set.
fn child(name: &str, env: &[(&str, &str)]) {
    let mut command = common::rerun_self(name);
    command.env_remove("MULTISHA_CALIBRATE");
    command.envs(env.iter().copied());
    let output = command.output().expect("re-run the test binary");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "child {name} failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn sixteen_threads_calling_at_once_get_one_calibration() {
    child("first_batch_calls_from_sixteen_threads", &[]);
}

#[test]
fn measuring_can_be_turned_off() {
    child(
        "costs_are_the_declared_estimates",
        &[("MULTISHA_CALIBRATE", "0")],
    );
}

#[test]
#[ignore = "run by sixteen_threads_calling_at_once_get_one_calibration in a child process"]
fn first_batch_calls_from_sixteen_threads() {
    let data: Vec<u8> = (0..64 * 1024u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
        .collect();
    let messages: Vec<&[u8]> = (0..40)
        .map(|i| &data[i * 97..][..(i * 331) % 4000])
        .collect();
    let want: Vec<[u8; 32]> = messages.iter().map(|m| multisha::sha256(m)).collect();
    let barrier = Barrier::new(16);
    let slowest = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..16)
            .map(|_| {
                scope.spawn(|| {
                    let mut digests = vec![[0u8; 32]; messages.len()];
                    barrier.wait();
                    let start = Instant::now();
                    multisha::sha256_many(&messages, &mut digests);
                    let took = start.elapsed();
                    // Every plan gives the same digests: with the estimates (while another
                    // thread measures) or with the measured costs.
                    assert_eq!(digests, want);
                    took
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("no panic"))
            .max()
    });
    // One thread measures (2 ms at most) and hashes; the others plan with the estimates and
    // never wait for it. A generous bound: a shared machine may preempt any of them.
    let slowest = slowest.expect("sixteen threads");
    assert!(
        slowest < Duration::from_secs(2),
        "a first call took {slowest:?}"
    );
    let costs = batch_costs(Algorithm::Sha256);
    assert!(costs.measured, "{costs}");
    // Published once: later reads give the same table.
    let again = batch_costs(Algorithm::Sha256);
    for (a, b) in costs.kernels().zip(again.kernels()) {
        assert_eq!((a.variant.name(), a.cost), (b.variant.name(), b.cost));
    }
    // The other algorithms are measured at their own first batch call, not before.
    let mut digests = [[0u8; 20]; 3];
    multisha::sha1_many(&messages[..3], &mut digests);
    assert!(batch_costs(Algorithm::Sha1).measured);
}

#[test]
#[ignore = "run by measuring_can_be_turned_off in a child process"]
fn costs_are_the_declared_estimates() {
    for &algorithm in Algorithm::ALL {
        let costs = batch_costs(algorithm);
        assert!(!costs.measured, "{costs}");
        for kernel in costs.kernels() {
            assert_eq!(kernel.cost, kernel.variant.estimated_cost(), "{costs}");
        }
    }
    let data = [5u8; 3000];
    let messages: Vec<&[u8]> = (0..20).map(|i| &data[..i * 150]).collect();
    let mut digests = vec![[0u8; 32]; messages.len()];
    multisha::sha256_many(&messages, &mut digests);
    for (message, digest) in messages.iter().zip(&digests) {
        assert_eq!(*digest, multisha::sha256(message));
    }
    assert!(!batch_costs(Algorithm::Sha256).measured);
}
