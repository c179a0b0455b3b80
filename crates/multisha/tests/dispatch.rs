//! The dispatcher: default choice, environment override, refusals (never a SIGILL).

mod common;

use multisha::engine::{
    Algorithm, CpuFeatures, Feature, Interface, Reason, active, active_many, choose, choose_many,
    cpu_features, lookup,
};

/// Runs this test binary again with `env` set, executing only the `report_active` helper test,
/// and returns its standard output (the probe runs once per process, so overrides need one).
fn child_report(env: &[(&str, &str)]) -> String {
    let mut command = common::rerun_self("report_active");
    for &algorithm in Algorithm::ALL {
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
    for &algorithm in Algorithm::ALL {
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
    for &algorithm in Algorithm::ALL {
        let selection = active(algorithm);
        assert!(selection.variant.is_available(), "{selection}");
        assert_eq!(selection.variant.algorithm(), algorithm);
        match std::env::var(algorithm.env_var()) {
            Ok(name) if !name.trim().is_empty() => {
                match lookup(algorithm, name.trim(), cpu_features()) {
                    Ok(variant) => {
                        assert_eq!(selection.reason, Reason::Env);
                        assert_eq!(selection.variant.name(), variant.name());
                    }
                    Err(error) => assert_eq!(selection.reason, Reason::EnvRejected(error)),
                }
            }
            _ => {
                assert_eq!(selection.reason, Reason::Priority);
                let best = algorithm
                    .variants()
                    .iter()
                    .find(|v| v.is_available())
                    .expect("a portable variant");
                assert_eq!(selection.variant.name(), best.name());
            }
        }
    }
}

/// `MULTISHA_EXPECT_<ID>` (`MULTISHA_EXPECT_SHA256=shani`) and `MULTISHA_EXPECT_<ID>_MANY` let
/// CI and the cross-test assert which variant the dispatcher picked on the machine at hand;
/// `MULTISHA_EXPECT_ALL` sets the single-message expectation of every algorithm that has no
/// expectation of its own.
#[test]
fn dispatched_variant_matches_the_expectation_if_one_is_set() {
    for &algorithm in Algorithm::ALL {
        let var = format!("MULTISHA_EXPECT_{}", algorithm.id().to_uppercase());
        let expected = std::env::var(&var).or_else(|_| std::env::var("MULTISHA_EXPECT_ALL"));
        if let Ok(expected) = expected {
            assert_eq!(active(algorithm).variant.name(), expected, "{var}");
        }
        let var = format!("{var}_MANY");
        if let Ok(expected) = std::env::var(&var) {
            assert_eq!(active_many(algorithm).variant.name(), expected, "{var}");
        }
        let many = active_many(algorithm);
        assert!(many.variant.is_available(), "{many}");
        assert_eq!(many.variant.interface(), Interface::Many, "{many}");
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
    let best = Algorithm::Sha256
        .variants()
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

/// On a CPU without one of its features (a synthetic one, `MULTISHA_CPU=-FEATURE`, so the test
/// runs on every machine, the largest included), a variant named in the environment is refused.
#[test]
fn unrunnable_env_value_is_ignored_and_reported() {
    let needy = Algorithm::Sha256
        .variants()
        .iter()
        .find(|v| v.interface() == Interface::Single && !v.requires().is_empty())
        .expect("a SHA-256 variant that needs a CPU feature, on every architecture");
    let feature = needy.requires().iter().last().expect("a feature");
    let mask = format!("-{feature}");
    let out = child_report(&[("MULTISHA_SHA256", needy.name()), ("MULTISHA_CPU", &mask)]);
    assert!(out.contains("EnvRejected"), "{out}");
    assert!(out.contains("cannot run on this CPU"), "{out}");
    assert!(out.contains(&format!("missing: {feature}")), "{out}");
}

#[test]
fn choice_on_a_cpu_without_any_feature_is_the_best_portable_variant() {
    for &algorithm in Algorithm::ALL {
        let selection = choose(algorithm, CpuFeatures::none(), None);
        assert!(selection.variant.requires().is_empty());
        let best_portable = algorithm
            .variants()
            .iter()
            .find(|v| v.requires().is_empty() && v.interface() == Interface::Single)
            .expect("portable");
        assert_eq!(selection.variant.name(), best_portable.name());
        assert_eq!(selection.reason, Reason::Priority);
        let many = choose_many(algorithm, CpuFeatures::none(), None);
        assert_eq!(many.variant.name(), "serial");
    }
}

/// A many-message variant named where a single-message one is wanted (or the reverse) is
/// refused with a message that says so.
#[test]
fn a_variant_of_the_other_interface_is_refused() {
    let selection = choose(Algorithm::Sha256, cpu_features(), Some("serial"));
    let Reason::RequestRejected(error) = selection.reason else {
        panic!("refused: {selection}");
    };
    assert!(error.is_other_interface());
    assert!(
        error.to_string().starts_with(
            "SHA-256 variant \"serial\" is a many-message variant, not a single-message one"
        ),
        "{error}"
    );
    let selection = choose_many(Algorithm::Sha256, cpu_features(), Some("rolled"));
    assert!(matches!(selection.reason, Reason::RequestRejected(e) if e.is_other_interface()));
    assert!(multisha::engine::Pinned::<multisha::Sha256>::new("serial").is_err());
    assert!(multisha::engine::PinnedMany::<multisha::Sha256>::new("rolled").is_err());
}

#[test]
fn variants_needing_a_missing_feature_are_refused_not_run() {
    for &algorithm in Algorithm::ALL {
        for variant in algorithm.variants() {
            for feature in variant.requires().iter() {
                let cpu = cpu_features().without(feature);
                let error = lookup(algorithm, variant.name(), cpu).expect_err("feature missing");
                assert_eq!(error.missing_features().map(|m| m.has(feature)), Some(true));
                // "this CPU" where the feature is missing already (masked, or absent).
                let wording = if cpu == cpu_features() {
                    "cannot run on this CPU"
                } else {
                    "cannot run on a CPU with features"
                };
                assert!(error.to_string().contains(wording), "{error}");
                let selection = match variant.interface() {
                    Interface::Single => choose(algorithm, cpu, Some(variant.name())),
                    Interface::Many => choose_many(algorithm, cpu, Some(variant.name())),
                };
                assert!(matches!(selection.reason, Reason::RequestRejected(_)));
                assert!(selection.variant.is_available_on(cpu));
            }
        }
    }
}

#[test]
fn every_variant_is_listed_with_its_metadata() {
    for &algorithm in Algorithm::ALL {
        let list = algorithm.variants();
        assert!(!list.is_empty());
        for variant in list {
            assert_eq!(variant.algorithm(), algorithm);
            assert!(!variant.description().is_empty());
            assert!(variant.requires().is_native_arch(), "{variant}");
            // Only the serial many-message variant has no kernel of its own.
            assert_eq!(
                variant.kernel_address() == 0,
                variant.name() == "serial",
                "{variant}"
            );
            assert_eq!(
                variant.lanes() > 1,
                variant.name().contains("-x"),
                "{variant}"
            );
        }
        assert!(
            list.iter()
                .any(|v| v.name() == "serial" && v.interface() == Interface::Many),
            "{algorithm}: a portable many-message variant"
        );
        let mut names: Vec<_> = list.iter().map(|v| v.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), list.len(), "variant names are unique");
    }
    let portable = ["rolled", "unroll5"];
    for name in portable {
        assert!(Algorithm::Sha1.variant(name).is_some(), "sha1/{name}");
    }
    for name in ["rolled", "unroll8", "unroll64"] {
        assert!(Algorithm::Sha256.variant(name).is_some(), "sha256/{name}");
    }
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
    assert_eq!(pick(Algorithm::Sha256, all), "shani-vex");
    assert_eq!(pick(Algorithm::Sha256, all.without(Feature::Avx2)), "shani");
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

/// A request checked against given features is worded for what was asked: no environment
/// variable, no "this CPU".
#[test]
fn a_refused_request_is_worded_for_the_request() {
    let Some(needy) = Algorithm::Sha256
        .variants()
        .iter()
        .find(|v| !v.requires().is_empty())
    else {
        eprintln!("no SHA-256 variant needs a feature on this architecture");
        return;
    };
    let selection = choose(Algorithm::Sha256, CpuFeatures::none(), Some(needy.name()));
    let Reason::RequestRejected(error) = selection.reason else {
        panic!("refused: {selection}");
    };
    let text = selection.reason.to_string();
    assert!(!text.contains("MULTISHA_SHA256"), "{text}");
    // Worded for the features given, unless they are this (masked) CPU's: no SIMD at all.
    let (cpu, available) = if cpu_features() == CpuFeatures::none() {
        ("this CPU".to_string(), "; available: ")
    } else {
        (
            "a CPU with features (none)".to_string(),
            "; available there: ",
        )
    };
    assert!(
        text.contains(&format!(
            "\"{}\" cannot run on {cpu} (missing: {})",
            needy.name(),
            needy.requires()
        )),
        "{text}"
    );
    assert!(error.to_string().contains(available), "{error}");
}

/// A variant of another architecture is named as such, not as unknown.
#[test]
fn a_variant_of_another_architecture_says_where_it_exists() {
    let (name, arch) = if cfg!(target_arch = "aarch64") {
        ("shani", "x86_64")
    } else {
        ("armv8", "aarch64")
    };
    let error = lookup(Algorithm::Sha256, name, CpuFeatures::detect()).expect_err("foreign");
    assert_eq!(error.other_arch(), Some(arch));
    assert!(
        error.to_string().starts_with(&format!(
            "SHA-256 variant \"{name}\" exists for {arch} only"
        )),
        "{error}"
    );
    assert!(error.is_unknown_variant());
    let error = lookup(Algorithm::Sha256, "turbo", CpuFeatures::detect()).expect_err("unknown");
    assert_eq!(error.other_arch(), None);
}

/// `CpuFeatures` prints feature names, in `Display` and `Debug`.
#[test]
fn cpu_features_print_their_names() {
    let set = CpuFeatures::none().with(Feature::Sha).with(Feature::Sse2);
    assert_eq!(format!("{set:?}"), "CpuFeatures(sse2 sha)");
    assert_eq!(set.to_string(), "sse2 sha");
}
