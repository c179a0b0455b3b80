//! `MULTISHA_CPU`: the library run as a smaller CPU. The mask is read once per process, so
//! each case runs this test binary again with the mask set, executing only `mask_child`, which
//! checks the dispatcher, the refusals and the digests against what it is told to expect.

mod common;

use multisha::engine::{
    Algorithm, CPU_MASK_VAR, CpuFeatures, Feature, Interface, Pinned, PinnedMany, Reason, active,
    active_many, choose, choose_many, cpu_features, cpu_mask, force, lookup,
};
use multisha::{
    Digest, HashFunction, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256,
};

/// In the child: the features the mask must remove, space-separated (empty: no mask in force).
const EXPECT_REMOVED: &str = "MULTISHA_TEST_MASK_REMOVED";
/// In the child: set when the mask must be refused, to a part of the expected error message.
const EXPECT_REFUSED: &str = "MULTISHA_TEST_MASK_REFUSED";
/// What the child prints last, so a child that ran no test is not taken for a pass.
const DONE: &str = "MASK CHILD DONE";

/// Runs `mask_child` in a child process with `MULTISHA_CPU=mask` and the other variables in
/// `env`; returns its standard output.
fn child(mask: &str, env: &[(&str, &str)]) -> String {
    let mut command = common::rerun_self("mask_child");
    for &algorithm in Algorithm::ALL {
        command.env_remove(algorithm.env_var());
        command.env_remove(algorithm.env_var_many());
    }
    command.env_remove(EXPECT_REFUSED);
    command.env(CPU_MASK_VAR, mask);
    command.envs(env.iter().copied());
    let output = command.output().expect("re-run the test binary");
    let stdout = String::from_utf8(output.stdout).expect("utf-8 output");
    assert!(
        output.status.success(),
        "child with {CPU_MASK_VAR}={mask} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains(DONE), "the child ran no check:\n{stdout}");
    stdout
}

/// Runs the child under `mask`, which must remove exactly `removed`.
fn child_removing(mask: &str, removed: &[Feature]) -> String {
    let names: Vec<&str> = removed.iter().map(|f| f.name()).collect();
    child(mask, &[(EXPECT_REMOVED, &names.join(" "))])
}

/// The x86-64 masks that stand for real classes of machine, with the features each removes.
#[cfg(target_arch = "x86_64")]
const CLASSES: &[(&str, &str, &[Feature])] = {
    use Feature::*;
    &[
        ("no SHA-NI (AVX-512 and AVX2 servers)", "-sha", &[Sha]),
        // Every feature that implies a removed one goes too: no AVX-512 without AVX2.
        (
            "no AVX2, so no AVX-512",
            "-avx2",
            &[Avx2, Avx512f, Avx512bw, Avx512vl],
        ),
        (
            "AVX2 only",
            "-sha,-avx512f,-avx512bw,-avx512vl",
            &[Sha, Avx512f, Avx512bw, Avx512vl],
        ),
        (
            "no SIMD (portable kernels only)",
            "-sse2,-ssse3,-sse4.1,-sha,-avx2,-bmi1,-bmi2,-avx512f,-avx512bw,-avx512vl",
            &[
                Sse2, Ssse3, Sse41, Sha, Avx2, Bmi1, Bmi2, Avx512f, Avx512bw, Avx512vl,
            ],
        ),
    ]
};

/// The AArch64 masks: no SHA-512 instructions, no crypto extensions at all.
#[cfg(target_arch = "aarch64")]
const CLASSES: &[(&str, &str, &[Feature])] = &[
    ("no SHA-512 instructions", "-sha3", &[Feature::Sha3]),
    (
        "no crypto extensions",
        " -sha2 , -sha3 ",
        &[Feature::Sha2, Feature::Sha3],
    ),
];

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const CLASSES: &[(&str, &str, &[Feature])] = &[];

#[test]
fn each_class_of_cpu_runs_as_that_cpu_would() {
    for &(class, mask, removed) in CLASSES {
        let out = child_removing(mask, removed);
        eprintln!("{class} ({mask}):\n{out}");
    }
}

/// The portable class is what a CPU without any SIMD feature picks: the batch functions one
/// message after another, the single-message interface on a portable kernel (or SHA-1's
/// assembly, which needs no feature).
#[cfg(target_arch = "x86_64")]
#[test]
fn without_simd_only_kernels_needing_no_feature_run() {
    let &(_, mask, removed) = CLASSES.last().expect("the no-SIMD class");
    let out = child_removing(mask, removed);
    for &algorithm in Algorithm::ALL {
        let single = choose(algorithm, CpuFeatures::none(), None).variant.name();
        assert!(
            out.contains(&format!("ACTIVE {} {single} serial", algorithm.id())),
            "{out}"
        );
    }
}

/// An override that names a masked variant is refused as on a CPU without the feature.
#[cfg(target_arch = "x86_64")]
#[test]
fn an_override_of_a_masked_variant_is_refused() {
    let out = child(
        "-sha",
        &[
            (EXPECT_REMOVED, "sha"),
            ("MULTISHA_SHA256", "shani"),
            ("MULTISHA_SHA1_MANY", "shani-x2"),
            ("MULTISHA_SHA512", "rolled"),
        ],
    );
    assert!(out.contains("OVERRIDE sha256 single EnvRejected"), "{out}");
    assert!(out.contains("OVERRIDE sha1 many EnvRejected"), "{out}");
    assert!(out.contains("OVERRIDE sha512 single Env"), "{out}");
}

#[test]
fn a_bad_mask_fails_closed_and_is_reported() {
    let native = Feature::ALL
        .iter()
        .find(|f| f.is_native_arch())
        .map(|f| f.name());
    // An addition is refused even next to a valid removal.
    if let Some(name) = native {
        child(
            &format!("-{name},+{name}"),
            &[(EXPECT_REFUSED, "a mask can only remove features")],
        );
    }
    child(
        "-no-such-feature",
        &[(EXPECT_REFUSED, "unknown CPU feature \"no-such-feature\"")],
    );
}

#[test]
fn an_empty_mask_is_no_mask() {
    child(" ", &[(EXPECT_REMOVED, "")]);
}

/// In the process the tests run in: a mask from the environment (CI's runs per mask) must be
/// valid, since a refused one would test the full CPU instead; without one, nothing is masked.
#[test]
fn the_mask_of_this_process_is_valid() {
    match cpu_mask() {
        Some(mask) => {
            assert_eq!(mask.error(), None, "{mask}");
            let mut expected = CpuFeatures::detect();
            for feature in mask.removed().iter() {
                expected = expected.without(feature);
            }
            assert_eq!(cpu_features(), expected, "{mask}");
        }
        None => assert_eq!(cpu_features(), CpuFeatures::detect()),
    }
}

/// Not a test on its own: the checks `child` runs under a mask.
#[test]
#[ignore = "helper run by the mask tests in a child process"]
fn mask_child() {
    let detected = CpuFeatures::detect();
    let mask_text = std::env::var(CPU_MASK_VAR).unwrap_or_default();
    let reduced = if let Ok(refused) = std::env::var(EXPECT_REFUSED) {
        let mask = cpu_mask().expect("a mask is set");
        let error = mask.error().expect("the mask is refused");
        assert!(error.to_string().contains(&refused), "{error}");
        // Fails closed: it cannot say what it meant to remove, so it removes everything.
        assert_eq!(mask.removed(), CpuFeatures::native());
        assert_eq!(
            cpu_features(),
            CpuFeatures::none(),
            "a refused mask removes all"
        );
        let shown = active(Algorithm::Sha256).to_string();
        let note = format!(
            "{CPU_MASK_VAR}={} refused, every feature removed (portable variants only): {error}",
            mask_text.trim()
        );
        assert!(shown.contains(&note), "{shown}");
        CpuFeatures::none()
    } else {
        let names = std::env::var(EXPECT_REMOVED).expect("the expected removals");
        let mut removed = CpuFeatures::none();
        for name in names.split_whitespace() {
            removed = removed.with(Feature::from_name(name).expect("a feature name"));
        }
        let mut reduced = detected;
        for feature in removed.iter() {
            reduced = reduced.without(feature);
        }
        match cpu_mask() {
            None => assert!(mask_text.trim().is_empty(), "{mask_text:?} was not read"),
            Some(mask) => {
                assert_eq!(mask.error(), None, "{mask}");
                assert_eq!(mask.removed(), removed, "{mask}");
                assert_eq!(mask.text(), mask_text.trim());
                let shown = active_many(Algorithm::Sha256).to_string();
                assert!(shown.contains(&format!("{mask}")), "{shown}");
            }
        }
        assert_eq!(cpu_features(), reduced);
        reduced
    };
    println!("CPU {reduced}");
    choices_follow(reduced);
    masked_variants_are_refused(detected, reduced);
    digests_agree::<Sha1, sha1::Sha1>();
    digests_agree::<Sha224, sha2::Sha224>();
    digests_agree::<Sha256, sha2::Sha256>();
    digests_agree::<Sha384, sha2::Sha384>();
    digests_agree::<Sha512, sha2::Sha512>();
    digests_agree::<Sha512_224, sha2::Sha512_224>();
    digests_agree::<Sha512_256, sha2::Sha512_256>();
    // The hashers run the dispatched variant, which the reduced CPU has.
    assert!(Sha1::new().variant().is_available_on(reduced));
    assert!(Sha256::new().variant().is_available_on(reduced));
    assert!(Sha512::new().variant().is_available_on(reduced));
    println!("{DONE}");
}

/// `active` and `active_many` are what `choose` and `choose_many` pick for the reduced CPU,
/// given the override in the environment if any.
fn choices_follow(reduced: CpuFeatures) {
    for &algorithm in Algorithm::ALL {
        for interface in [Interface::Single, Interface::Many] {
            let var = algorithm.env_var_for(interface);
            let requested = std::env::var(var).ok();
            let (selection, expected) = match interface {
                Interface::Single => (
                    active(algorithm),
                    choose(algorithm, reduced, requested.as_deref()),
                ),
                Interface::Many => (
                    active_many(algorithm),
                    choose_many(algorithm, reduced, requested.as_deref()),
                ),
            };
            // A planned many-message choice names what the planner runs long batches on by the
            // costs measured here, which `choose_many` (estimates only) cannot know.
            if expected.reason != Reason::Planned {
                assert_eq!(selection.variant.name(), expected.variant.name(), "{var}");
            }
            assert_eq!(selection.variant.interface(), interface, "{var}");
            assert!(selection.variant.is_available_on(reduced), "{selection}");
            let reason = match expected.reason {
                Reason::Requested => Reason::Env,
                Reason::RequestRejected(error) => Reason::EnvRejected(error),
                other => other,
            };
            assert_eq!(selection.reason, reason, "{var}");
            if requested.is_some() {
                println!(
                    "OVERRIDE {} {} {:?}",
                    algorithm.id(),
                    interface.label(),
                    selection.reason
                );
            }
        }
        println!(
            "ACTIVE {} {} {}",
            algorithm.id(),
            active(algorithm).variant.name(),
            active_many(algorithm).variant.name()
        );
    }
}

/// Every variant the mask takes away is unavailable, and `force`, `lookup`, `Pinned`,
/// `PinnedMany` and `with_variant` refuse it with the error of a CPU that lacks the feature.
fn masked_variants_are_refused(detected: CpuFeatures, reduced: CpuFeatures) {
    let mut masked = 0;
    for &algorithm in Algorithm::ALL {
        for variant in algorithm.variants() {
            assert_eq!(variant.is_available(), variant.is_available_on(reduced));
            if variant.is_available() {
                continue;
            }
            let name = variant.name();
            let expected = lookup(algorithm, name, reduced).expect_err("unavailable");
            let missing = expected.missing_features().expect("a missing feature");
            assert!(!missing.is_empty());
            let message = expected.to_string();
            assert!(
                message.contains(&format!("cannot run on this CPU (missing: {missing})")),
                "{message}"
            );
            assert_eq!(force(algorithm, name).expect_err("refused"), expected);
            let pinned = match (algorithm.id(), variant.interface()) {
                ("sha1", Interface::Single) => refuse_single::<Sha1>(name),
                ("sha256", Interface::Single) => refuse_single::<Sha256>(name),
                ("sha512", Interface::Single) => refuse_single::<Sha512>(name),
                ("sha1", Interface::Many) => PinnedMany::<Sha1>::new(name).err(),
                ("sha256", Interface::Many) => PinnedMany::<Sha256>::new(name).err(),
                ("sha512", Interface::Many) => PinnedMany::<Sha512>::new(name).err(),
                (other, _) => panic!("no hasher listed here for {other}"),
            };
            assert_eq!(pinned, Some(expected), "{variant}");
            if variant.is_available_on(detected) {
                masked += 1;
            }
        }
    }
    println!("MASKED {masked} variants this CPU runs");
}

/// The error `Pinned::new` and `with_variant` give for `name`; they must agree.
fn refuse_single<H: HashFunction>(name: &str) -> Option<multisha::engine::Error> {
    let pinned = Pinned::<H>::new(name).err();
    assert_eq!(H::with_variant(name).err(), pinned, "{name}");
    pinned
}

/// One-shot, streaming and batch digests of `H` agree with RustCrypto's `R`.
fn digests_agree<H, R>()
where
    H: HashFunction + Digest,
    R: Digest,
{
    let data: Vec<u8> = (0..20_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
    let reference = |m: &[u8]| R::digest(m).to_vec();
    for len in (0..300).chain([1000, 4095, 4096, 4097, 20_000]) {
        let m = &data[..len];
        assert_eq!(
            H::oneshot(m).as_ref(),
            reference(m),
            "{} one-shot {len}",
            H::id()
        );
        let mut hasher = H::new();
        for piece in m.chunks(1 + len % 97) {
            hasher.update(piece);
        }
        assert_eq!(
            hasher.finalize().to_vec(),
            reference(m),
            "{} {len}",
            H::id()
        );
    }
    for count in [1, 2, 3, 5, 8, 15, 16, 17, 33, 100] {
        let messages: Vec<&[u8]> = (0..count)
            .map(|i| &data[i * 13..i * 13 + (i * 131) % 3000])
            .collect();
        let mut digests = vec![H::ZERO; count];
        H::oneshot_many(&messages, &mut digests);
        for (i, (m, d)) in messages.iter().zip(&digests).enumerate() {
            assert_eq!(
                d.as_ref(),
                reference(m),
                "{} batch of {count}, #{i}",
                H::id()
            );
        }
        let equal: Vec<&[u8]> = vec![&data[..64]; count];
        H::oneshot_many(&equal, &mut digests);
        assert!(digests.iter().all(|d| d.as_ref() == reference(&data[..64])));
    }
}
