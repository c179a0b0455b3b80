//! The SHA-512 family's batch functions and every SHA-512 many-message variant this CPU runs
//! (pinned), against RustCrypto `sha2` one message at a time: every count 0..=20, equal and
//! mixed lengths on both sides of the padding boundaries (111/112 bytes: the length field
//! fits in the last block or not; 127/128, 239/240: one block more).

use multisha::HashFunction;
use multisha::engine::{Algorithm, Interface, PinnedMany};
use sha2::Digest as _;

/// Lengths around every boundary of the first two blocks, and a few longer ones.
const LENGTHS: &[usize] = &[
    0, 1, 17, 110, 111, 112, 113, 126, 127, 128, 129, 238, 239, 240, 241, 255, 256, 257, 1000,
];

/// Deterministic bytes (xorshift64).
fn bytes(len: usize) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// The batches: for every count 0..=20, one of each equal length, and one of mixed lengths
/// (message `i` cut at offset `i`, so equal lengths differ in content).
fn batches(data: &[u8]) -> Vec<Vec<&[u8]>> {
    let mut all = Vec::new();
    for count in 0..=20 {
        for &len in LENGTHS {
            all.push((0..count).map(|i| &data[i..i + len]).collect());
        }
        all.push(
            (0..count)
                .map(|i| &data[i..i + LENGTHS[(i * 7 + count) % LENGTHS.len()]])
                .collect(),
        );
    }
    all
}

/// A way to hash a batch (a pinned variant, or the dispatched batch function).
type BatchFn<'a, H> = &'a dyn Fn(&[&[u8]], &mut [<H as HashFunction>::Digest]);

/// Checks `run` on every batch against `reference`; returns how many digests agreed.
fn check<H: HashFunction>(
    label: &str,
    data: &[u8],
    run: BatchFn<'_, H>,
    reference: fn(&[u8]) -> Vec<u8>,
) -> usize {
    let mut checks = 0;
    for messages in batches(data) {
        let mut digests = vec![H::ZERO; messages.len()];
        run(&messages, &mut digests);
        for (i, (message, digest)) in messages.iter().zip(&digests).enumerate() {
            assert_eq!(
                digest.as_ref(),
                reference(message),
                "{label}: message {i} of {} ({} bytes)",
                messages.len(),
                message.len()
            );
            checks += 1;
        }
    }
    checks
}

/// The dispatched batch function and every many-message variant this CPU runs; returns the
/// names of the variants that ran.
fn check_function<H: HashFunction>(
    many: fn(&[&[u8]], &mut [H::Digest]),
    reference: fn(&[u8]) -> Vec<u8>,
) -> Vec<&'static str> {
    let data = bytes(1100);
    let name = H::OUTPUT.name;
    assert!(check::<H>(&format!("{name} batch"), &data, &many, reference) > 0);
    let mut ran = Vec::new();
    for variant in Algorithm::Sha512
        .variants()
        .iter()
        .filter(|v| v.interface() == Interface::Many && v.is_available())
    {
        let pinned = PinnedMany::<H>::new(variant.name()).expect("available");
        let run = |m: &[&[u8]], d: &mut [H::Digest]| pinned.hash_many(m, d);
        let label = format!("{name} on {variant}");
        assert!(check::<H>(&label, &data, &run, reference) > 0);
        ran.push(variant.name());
    }
    ran
}

/// The lane kernels this CPU must run: a listed one that is missing here fails the test.
/// Derived apart from the engine's availability (the loops' filter): from the features CI
/// names (`MULTISHA_EXPECT_FEATURES`) or else the contract's own CPU probe; under a CPU mask
/// (`MULTISHA_CPU`, tested by `cpu_mask.rs`) only those the masked engine still has.
fn expected_lane_variants() -> Vec<&'static str> {
    let cpu = multisha_contract::harness::expected_features()
        .unwrap_or_else(multisha_contract::CpuFeatures::detect);
    let masked = std::env::var_os("MULTISHA_CPU").is_some_and(|m| !m.is_empty());
    Algorithm::Sha512
        .variants()
        .iter()
        .filter(|v| v.lanes() > 1 && v.requires().is_native_arch() && cpu.contains(v.requires()))
        .filter(|v| !masked || multisha::engine::cpu_features().contains(v.requires()))
        .map(|v| v.name())
        .collect()
}

#[test]
fn sha512_family_batches_agree_with_rustcrypto() {
    let runs = [
        check_function::<multisha::Sha384>(
            |m, d| multisha::sha384_many(m, d),
            |m| sha2::Sha384::digest(m).to_vec(),
        ),
        check_function::<multisha::Sha512>(
            |m, d| multisha::sha512_many(m, d),
            |m| sha2::Sha512::digest(m).to_vec(),
        ),
        check_function::<multisha::Sha512_224>(
            |m, d| multisha::sha512_224_many(m, d),
            |m| sha2::Sha512_224::digest(m).to_vec(),
        ),
        check_function::<multisha::Sha512_256>(
            |m, d| multisha::sha512_256_many(m, d),
            |m| sha2::Sha512_256::digest(m).to_vec(),
        ),
    ];
    for ran in &runs {
        assert!(ran.contains(&"serial"), "{ran:?}");
        for want in expected_lane_variants() {
            assert!(ran.contains(&want), "{want} did not run: {ran:?}");
        }
    }
    eprintln!("SHA-512 many-message variants checked: {:?}", runs[0]);
}
