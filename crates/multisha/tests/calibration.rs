//! The batch planner's costs: planned on the declared estimates until the process's batch work
//! makes measuring cheap beside it, then measured (and once more when the work has doubled,
//! each kernel's quieter window kept), once per process even when sixteen threads
//! ask at once; never blocking a caller for long; the declared estimates for good with
//! `MULTISHA_CALIBRATE=0` (or `off`, ...). Each test runs in a process of its own (this binary
//! re-runs itself), since the costs are measured once per process.

mod common;

use multisha::engine::{
    Algorithm, Reason, active_many, batch_costs, calibrate, calibrate_var_error,
};
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
    for off in ["0", "off", "FALSE", " no "] {
        child(
            "costs_are_the_declared_estimates",
            &[("MULTISHA_CALIBRATE", off)],
        );
    }
}

#[test]
fn a_refused_setting_is_reported_and_measuring_stays_on() {
    child(
        "a_bad_setting_leaves_measuring_on",
        &[("MULTISHA_CALIBRATE", "of")],
    );
}

#[test]
fn small_batches_plan_on_the_estimates_until_the_work_pays() {
    child("measured_once_the_batch_work_pays", &[]);
}

#[test]
#[ignore = "run by a_refused_setting_is_reported_and_measuring_stays_on in a child process"]
fn a_bad_setting_leaves_measuring_on() {
    let error = calibrate_var_error().expect("refused");
    assert!(error.contains("MULTISHA_CALIBRATE=\"of\""), "{error}");
    assert!(calibrate(Algorithm::Sha256).measured);
}

#[test]
#[ignore = "run by small_batches_plan_on_the_estimates_until_the_work_pays in a child process"]
fn measured_once_the_batch_work_pays() {
    assert_eq!(calibrate_var_error(), None);
    // Small batches: microseconds of work, far below a measurement's worth.
    let data = vec![7u8; 2 << 20];
    let small: Vec<&[u8]> = (0..40).map(|i| &data[..i * 100]).collect();
    let mut digests = vec![[0u8; 32]; 64];
    for _ in 0..10 {
        multisha::sha256_many(&small, &mut digests[..small.len()]);
    }
    assert!(
        !batch_costs(Algorithm::Sha256).measured,
        "measured too soon"
    );
    for (message, digest) in small.iter().zip(&digests) {
        assert_eq!(*digest, multisha::sha256(message));
    }
    // Batches of 64 MiB (64 messages of 1 MiB, aliased): measured once their predicted work
    // reaches fifty times the measurement's budget (100 ms), within a few of them. Where
    // nothing is planned, nothing is measured: a many-message variant named by the
    // environment runs every batch itself, and without lane kernels every batch goes one by
    // one.
    let planned = active_many(Algorithm::Sha256).reason == Reason::Planned
        && batch_costs(Algorithm::Sha256).kernels().count() > 1;
    let large: Vec<&[u8]> = (0..64).map(|i| &data[i..][..1 << 20]).collect();
    let mut batches = 0;
    // When the batch that measured began: before the first measurement.
    let mut measuring_batch = Instant::now();
    while batches < 8 && !batch_costs(Algorithm::Sha256).measured {
        measuring_batch = Instant::now();
        multisha::sha256_many(&large, &mut digests);
        batches += 1;
    }
    assert_eq!(
        batch_costs(Algorithm::Sha256).measured,
        planned,
        "after {batches}"
    );
    for (message, digest) in large.iter().zip(&digests).step_by(9) {
        assert_eq!(*digest, multisha::sha256(message));
    }
    if !planned {
        // Nor for Merkle nodes (messages of one block each, which take a path of their own):
        // about twice the work that makes a measurement due where there are lane kernels
        // (a CPU without them measured after some 650,000 blocks of nodes).
        let nodes = vec![[3u8; 64]; 4096];
        let mut node_digests = vec![[0u8; 32]; nodes.len()];
        let mut batches = 0;
        while batches < 160 && !batch_costs(Algorithm::Sha256).measured {
            multisha::sha256_pairs(&nodes, &mut node_digests);
            batches += 1;
        }
        assert!(
            !batch_costs(Algorithm::Sha256).measured,
            "measured after {batches} batches of nodes"
        );
        assert_eq!(node_digests[9], multisha::sha256(&nodes[9]));
    }
    // Once the batch work doubles, and a quarter of a second after the first, measured again,
    // each kernel's cost from its quieter window kept: the batch that measured first does not
    // count towards the second, and the work counted too soon is counted again.
    if planned {
        assert_eq!(batch_costs(Algorithm::Sha256).measurements, 1);
        let mut more = 0;
        while more < 64 && batch_costs(Algorithm::Sha256).measurements < 2 {
            multisha::sha256_many(&large, &mut digests);
            more += 1;
        }
        let costs = batch_costs(Algorithm::Sha256);
        assert!(
            costs.measured && costs.measurements == 2,
            "after {more} more: {costs}"
        );
        assert!(
            measuring_batch.elapsed() >= Duration::from_millis(250),
            "the two windows {:?} apart at most",
            measuring_batch.elapsed()
        );
        assert!(costs.to_string().contains("the quieter of two windows"));
        for (message, digest) in large.iter().zip(&digests).step_by(9) {
            assert_eq!(*digest, multisha::sha256(message));
        }
    }
    // The other algorithms are measured on their own work, not before.
    assert!(!batch_costs(Algorithm::Sha1).measured);
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
                    // All ask for the measurement at once, and hash.
                    calibrate(Algorithm::Sha256);
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
    // The other algorithms are measured on request of their own, not before.
    assert!(!batch_costs(Algorithm::Sha1).measured);
    assert!(calibrate(Algorithm::Sha1).measured);
}

#[test]
#[ignore = "run by measuring_can_be_turned_off in a child process"]
fn costs_are_the_declared_estimates() {
    assert_eq!(calibrate_var_error(), None);
    for &algorithm in Algorithm::ALL {
        assert!(
            !calibrate(algorithm).measured,
            "measured on request, though off"
        );
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
