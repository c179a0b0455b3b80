//! The dispatcher: default choice, environment override, refusals (never a SIGILL).

use multisha::{Algorithm, CpuFeatures, Feature, Reason, active, choose, lookup, variants};
use std::process::Command;

/// Runs this test binary again with `env` set, executing only the `report_active` helper test,
/// and returns its standard output (the probe runs once per process, so overrides need one).
fn child_report(env: &[(&str, &str)]) -> String {
    let exe = std::env::current_exe().expect("test binary path");
    // Under an emulator (`cargo xtask cross-test` sets the runner) the child runs through it too.
    let mut command = match std::env::var("MULTISHA_TEST_RUNNER") {
        Ok(runner) if !runner.trim().is_empty() => {
            let mut words = runner.split_whitespace();
            let mut command = Command::new(words.next().expect("a runner program"));
            command.args(words).arg(exe);
            command
        }
        _ => Command::new(exe),
    };
    command.args([
        "--exact",
        "report_active",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ]);
    for algorithm in Algorithm::ALL {
        command.env_remove(algorithm.env_var());
    }
    command.envs(env.iter().copied());
    let output = command.output().expect("re-run the test binary");
    assert!(
        output.status.success(),
        "child failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// Not a test on its own: prints what the dispatcher chose, for `child_report`.
#[test]
#[ignore = "helper run by the override tests in a child process"]
fn report_active() {
    for algorithm in Algorithm::ALL {
        let selection = active(algorithm);
        println!(
            "ACTIVE {} {} {:?}",
            algorithm.id(),
            selection.variant.name(),
            selection.reason
        );
        println!("REASON {} {}", algorithm.id(), selection.reason);
    }
    // Hashing must work whatever was chosen.
    assert_eq!(multisha::sha256(b"abc")[0], 0xba);
}

#[test]
fn default_choice_is_available_and_follows_the_override_rules() {
    for algorithm in Algorithm::ALL {
        let selection = active(algorithm);
        assert!(selection.variant.is_available(), "{selection}");
        assert_eq!(selection.variant.algorithm(), algorithm);
        match std::env::var(algorithm.env_var()) {
            Ok(name) if !name.trim().is_empty() => {
                match lookup(algorithm, name.trim(), CpuFeatures::detect()) {
                    Ok(variant) => {
                        assert_eq!(selection.reason, Reason::Env);
                        assert_eq!(selection.variant.name(), variant.name());
                    }
                    Err(error) => assert_eq!(selection.reason, Reason::EnvRejected(error)),
                }
            }
            _ => {
                assert_eq!(selection.reason, Reason::Priority);
                let best = variants(algorithm)
                    .iter()
                    .find(|v| v.is_available())
                    .expect("a portable variant");
                assert_eq!(selection.variant.name(), best.name());
            }
        }
    }
}

/// `MULTISHA_EXPECT_SHA1` / `MULTISHA_EXPECT_SHA256` let CI and the cross-test assert which
/// variant the dispatcher picked on the machine at hand.
#[test]
fn dispatched_variant_matches_the_expectation_if_one_is_set() {
    for (algorithm, var) in [
        (Algorithm::Sha1, "MULTISHA_EXPECT_SHA1"),
        (Algorithm::Sha256, "MULTISHA_EXPECT_SHA256"),
    ] {
        if let Ok(expected) = std::env::var(var) {
            assert_eq!(active(algorithm).variant.name(), expected, "{var}");
        }
    }
}

#[test]
fn env_override_is_honoured() {
    let out = child_report(&[("MULTISHA_SHA1", "rolled"), ("MULTISHA_SHA256", "unroll64")]);
    assert!(out.contains("ACTIVE sha1 rolled Env"), "{out}");
    assert!(out.contains("ACTIVE sha256 unroll64 Env"), "{out}");
}

#[test]
fn unknown_env_value_is_ignored_and_reported() {
    let out = child_report(&[("MULTISHA_SHA256", "no-such-variant")]);
    let best = variants(Algorithm::Sha256)
        .iter()
        .find(|v| v.is_available())
        .expect("a portable variant");
    assert!(
        out.contains(&format!("ACTIVE sha256 {} EnvRejected", best.name())),
        "{out}"
    );
    assert!(
        out.contains("unknown SHA-256 variant \"no-such-variant\"; available: "),
        "{out}"
    );
    assert!(out.contains("MULTISHA_SHA256 ignored"), "{out}");
}

#[test]
fn unrunnable_env_value_is_ignored_and_reported() {
    let Some(unrunnable) = variants(Algorithm::Sha256)
        .iter()
        .find(|v| !v.is_available())
    else {
        eprintln!("every SHA-256 variant runs on this CPU: nothing to refuse here");
        return;
    };
    let out = child_report(&[("MULTISHA_SHA256", unrunnable.name())]);
    assert!(out.contains("EnvRejected"), "{out}");
    assert!(out.contains("cannot run on this CPU"), "{out}");
}

#[test]
fn choice_on_a_cpu_without_any_feature_is_the_best_portable_variant() {
    for algorithm in Algorithm::ALL {
        let selection = choose(algorithm, CpuFeatures::none(), None);
        assert!(selection.variant.requires().is_empty());
        let best_portable = variants(algorithm)
            .iter()
            .find(|v| v.requires().is_empty())
            .expect("portable");
        assert_eq!(selection.variant.name(), best_portable.name());
        assert_eq!(selection.reason, Reason::Priority);
    }
}

#[test]
fn variants_needing_a_missing_feature_are_refused_not_run() {
    for algorithm in Algorithm::ALL {
        for variant in variants(algorithm) {
            for &feature in variant.requires() {
                let cpu = CpuFeatures::detect().without(feature);
                let error = lookup(algorithm, variant.name(), cpu).expect_err("feature missing");
                assert_eq!(error.missing_features().map(|m| m.has(feature)), Some(true));
                assert!(
                    error.to_string().contains("cannot run on this CPU"),
                    "{error}"
                );
                let selection = choose(algorithm, cpu, Some(variant.name()));
                assert!(matches!(selection.reason, Reason::EnvRejected(_)));
                assert!(selection.variant.is_available_on(cpu));
            }
        }
    }
}

#[test]
fn every_variant_is_listed_with_its_metadata() {
    for algorithm in Algorithm::ALL {
        let list = variants(algorithm);
        assert!(!list.is_empty());
        for variant in list {
            assert_eq!(variant.algorithm(), algorithm);
            assert!(!variant.description().is_empty());
            assert!(
                variant.requires().iter().all(|f| f.is_native_arch()),
                "{variant}"
            );
            assert!(variant.kernel_address() != 0);
        }
        let mut names: Vec<_> = list.iter().map(|v| v.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), list.len(), "variant names are unique");
    }
    let portable = ["rolled", "unroll5"];
    for name in portable {
        assert!(
            multisha::find_variant(Algorithm::Sha1, name).is_some(),
            "sha1/{name}"
        );
    }
    for name in ["rolled", "unroll8", "unroll64"] {
        assert!(
            multisha::find_variant(Algorithm::Sha256, name).is_some(),
            "sha256/{name}"
        );
    }
}

#[test]
fn cpu_feature_sets_compose() {
    let set = CpuFeatures::none().with(Feature::Sha).with(Feature::Sse2);
    assert!(set.has(Feature::Sha) && set.has(Feature::Sse2) && !set.has(Feature::Avx2));
    assert_eq!(set.to_string(), "sse2 sha");
    assert_eq!(set.without(Feature::Sha).to_string(), "sse2");
    assert_eq!(CpuFeatures::none().to_string(), "(none)");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn x86_priority_without_sha_ni_falls_to_the_best_remaining_variant() {
    let all = CpuFeatures::none()
        .with(Feature::Sse2)
        .with(Feature::Ssse3)
        .with(Feature::Sse41)
        .with(Feature::Sha)
        .with(Feature::Avx2)
        .with(Feature::Bmi2);
    let pick = |algorithm, cpu| choose(algorithm, cpu, None).variant.name();
    assert_eq!(pick(Algorithm::Sha1, all), "shani");
    assert_eq!(pick(Algorithm::Sha256, all), "shani");
    let no_sha_ni = all.without(Feature::Sha);
    assert_eq!(pick(Algorithm::Sha1, no_sha_ni), "asm");
    assert_eq!(pick(Algorithm::Sha256, no_sha_ni), "avx2");
    let baseline = CpuFeatures::none().with(Feature::Sse2);
    assert_eq!(pick(Algorithm::Sha1, baseline), "asm");
    assert_eq!(pick(Algorithm::Sha256, baseline), "unroll8");
    assert_eq!(
        pick(Algorithm::Sha256, baseline.with(Feature::Avx2)),
        "unroll8",
        "avx2 also needs bmi2"
    );
}

#[cfg(target_arch = "aarch64")]
#[test]
fn aarch64_priority_prefers_the_crypto_extensions() {
    let pick = |algorithm, cpu| choose(algorithm, cpu, None).variant.name();
    let with_sha2 = CpuFeatures::none().with(Feature::Sha2);
    assert_eq!(pick(Algorithm::Sha1, with_sha2), "armv8");
    assert_eq!(pick(Algorithm::Sha256, with_sha2), "armv8");
    assert_eq!(pick(Algorithm::Sha1, CpuFeatures::none()), "unroll5");
    assert_eq!(pick(Algorithm::Sha256, CpuFeatures::none()), "unroll8");
}
