//! Each public introspection call as the first call of a fresh process of another crate,
//! optimised (issue 21: `HashCore::variant()` panicked there, in release builds only): it
//! succeeds and names the variant the dispatcher chose, as `active` in this process does.
//!
//! `active_many` names the kernel the batch planner runs long batches on, by its costs, which
//! are measured per process: two processes may rank two kernels of nearly equal cost apart.
//! So the test runs with measuring off (`MULTISHA_CALIBRATE=0`, the declared estimates), in a
//! re-run of this binary whose children inherit it.

use multisha::engine::{Algorithm, active, active_many};
use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_multisha-first-call");

/// The algorithm a call is about: `active:sha1` names it; `Sha224::variant` and
/// `HashCore<Sha512_256>::variant` by their hasher.
fn algorithm_of(call: &str) -> Algorithm {
    let id = ["active:", "active_many:"]
        .iter()
        .find_map(|api| call.strip_prefix(api));
    if let Some(id) = id {
        return *Algorithm::ALL
            .iter()
            .find(|a| a.id() == id)
            .unwrap_or_else(|| panic!("{call}: no algorithm {id}"));
    }
    if call.contains("Sha1") {
        Algorithm::Sha1
    } else if call.contains("Sha224") || call.contains("Sha256") {
        Algorithm::Sha256
    } else {
        assert!(call.contains("Sha384") || call.contains("Sha512"), "{call}");
        Algorithm::Sha512
    }
}

#[test]
fn every_introspection_call_works_as_the_first_call_of_a_process() {
    let exe = std::env::current_exe().expect("test binary path");
    let name = "first_calls_with_measuring_off";
    let out = Command::new(exe)
        .args(["--exact", name, "--ignored", "--nocapture"])
        .env("MULTISHA_CALIBRATE", "0")
        .output()
        .expect("re-run the test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{name} failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "run by every_introspection_call_works_as_the_first_call_of_a_process, measuring off"]
fn first_calls_with_measuring_off() {
    assert_eq!(
        std::env::var("MULTISHA_CALIBRATE").as_deref(),
        Ok("0"),
        "run by every_introspection_call_works_as_the_first_call_of_a_process"
    );
    let list = Command::new(EXE).arg("--list").output().expect("runs");
    assert!(list.status.success(), "--list: {list:?}");
    let calls: Vec<String> = String::from_utf8(list.stdout)
        .expect("UTF-8")
        .lines()
        .map(String::from)
        .collect();
    // Seven hashers and their cores, `active` and `active_many` of each algorithm.
    assert_eq!(calls.len(), 2 * 7 + 2 * Algorithm::ALL.len(), "{calls:?}");
    let mut failed = Vec::new();
    for call in &calls {
        let out = Command::new(EXE)
            .arg(call)
            .env("RUST_BACKTRACE", "0")
            .output()
            .expect("runs");
        let algorithm = algorithm_of(call);
        let want = if call.starts_with("active_many:") {
            active_many(algorithm).variant
        } else {
            active(algorithm).variant
        };
        let printed = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || printed.trim() != want.to_string() {
            failed.push(format!(
                "{call}: {}, printed {:?} (want {want}), stderr {:?}",
                out.status,
                printed.trim(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "first calls failed:\n{}",
        failed.join("\n")
    );
}
