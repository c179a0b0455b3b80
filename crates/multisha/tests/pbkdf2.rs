//! PBKDF2-HMAC: the Wycheproof vectors, RFC 6070 (SHA-1) and RFC 7914 §11 (SHA-256), and
//! RustCrypto's `pbkdf2` on random passwords, salts, iteration counts and output lengths, on
//! the dispatched functions and on every single-message variant this CPU runs (pinned by
//! name, each with its own iteration loop); verification and every error.

use core::num::NonZeroU32;
use multisha::engine::{Interface, Pinned, PinnedMany};
use multisha::{HashFunction, Pbkdf2Error};
use multisha_contract::harness::TestRng;
use serde_json::Value;

type DeriveFn = fn(&[u8], &[u8], NonZeroU32, &mut [u8]) -> Result<(), Pbkdf2Error>;
type VerifyFn = fn(&[u8], &[u8], NonZeroU32, &[u8]) -> Result<(), Pbkdf2Error>;
type ReferenceFn = fn(&[u8], &[u8], u32, &mut [u8]);
/// A labelled derivation: password, salt, iterations, output.
type Labelled = (String, Box<dyn Fn(&[u8], &[u8], u32, &mut [u8])>);

/// One hash function's PBKDF2: the dispatched functions and RustCrypto's.
struct Kdf {
    derive: DeriveFn,
    verify: VerifyFn,
    reference: ReferenceFn,
}

/// The single-message variants of `H`'s algorithm this CPU runs, pinned.
fn pinned<H: HashFunction>() -> Vec<Pinned<H>> {
    let pins: Vec<Pinned<H>> = H::algorithm()
        .variants()
        .iter()
        .filter(|v| v.interface() == Interface::Single && v.is_available())
        .map(|v| Pinned::<H>::from_variant(v).expect("available"))
        .collect();
    assert!(!pins.is_empty(), "every CPU runs the portable variants");
    pins
}

fn iterations(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).expect("a positive count")
}

/// Which derivations a test runs: the dispatched function (every run, forced variants and CPU
/// masks included), or each variant pinned by name (tests named `every_variant_...`, which
/// the runs per forced variant and per mask skip: they would test the same again).
#[derive(Clone, Copy)]
enum Ways {
    Dispatched,
    EveryVariant,
}

/// The ways to derive with `H` that `ways` names, by label.
fn derivations<H: HashFunction>(kdf: &Kdf, ways: Ways) -> Vec<Labelled> {
    let derive = kdf.derive;
    if let Ways::Dispatched = ways {
        return vec![(
            format!("{} dispatched", H::id()),
            Box::new(move |p: &[u8], s: &[u8], c: u32, out: &mut [u8]| {
                derive(p, s, iterations(c), out).expect("a valid length")
            }),
        )];
    }
    let mut all: Vec<Labelled> = Vec::new();
    for pin in pinned::<H>() {
        all.push((
            format!("{} on {}", H::id(), pin.variant()),
            Box::new(move |p: &[u8], s: &[u8], c: u32, out: &mut [u8]| {
                pin.pbkdf2_hmac(p, s, iterations(c), out)
                    .expect("a valid length")
            }),
        ));
    }
    all
}

/// The Wycheproof vectors of `file` (all "valid") on every derivation, the iteration counts up
/// to `max_iterations`; returns how many ran per derivation.
fn wycheproof<H: HashFunction>(kdf: &Kdf, ways: Ways, file: &str, max_iterations: u64) -> usize {
    let path = format!(
        "{}/tests/data/wycheproof/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: Value = serde_json::from_str(&text).expect("valid JSON");
    let mut cases = 0;
    let derivations = derivations::<H>(kdf, ways);
    for group in json["testGroups"].as_array().expect("testGroups") {
        for test in group["tests"].as_array().expect("tests") {
            let id = &test["tcId"];
            let field = |name: &str| hex::decode(test[name].as_str().expect(name)).expect("hex");
            let (password, salt, dk) = (field("password"), field("salt"), field("dk"));
            let count = test["iterationCount"].as_u64().expect("iterationCount");
            assert_eq!(test["result"], "valid", "{file} tcId {id}: only valid keys");
            assert_eq!(test["dkLen"].as_u64(), Some(dk.len() as u64));
            if count > max_iterations {
                continue;
            }
            for (label, derive) in &derivations {
                let mut out = vec![0; dk.len()];
                derive(&password, &salt, count as u32, &mut out);
                assert_eq!(
                    hex::encode(&out),
                    hex::encode(&dk),
                    "{file} tcId {id}: {label}"
                );
            }
            (kdf.verify)(&password, &salt, iterations(count as u32), &dk)
                .unwrap_or_else(|e| panic!("{file} tcId {id}: verify: {e}"));
            cases += 1;
        }
    }
    cases
}

const SHA1: Kdf = Kdf {
    derive: multisha::pbkdf2_hmac_sha1,
    verify: multisha::pbkdf2_hmac_sha1_verify,
    reference: pbkdf2::pbkdf2_hmac::<sha1::Sha1>,
};
const SHA224: Kdf = Kdf {
    derive: multisha::pbkdf2_hmac_sha224,
    verify: multisha::pbkdf2_hmac_sha224_verify,
    reference: pbkdf2::pbkdf2_hmac::<sha2::Sha224>,
};
const SHA256: Kdf = Kdf {
    derive: multisha::pbkdf2_hmac_sha256,
    verify: multisha::pbkdf2_hmac_sha256_verify,
    reference: pbkdf2::pbkdf2_hmac::<sha2::Sha256>,
};
const SHA384: Kdf = Kdf {
    derive: multisha::pbkdf2_hmac_sha384,
    verify: multisha::pbkdf2_hmac_sha384_verify,
    reference: pbkdf2::pbkdf2_hmac::<sha2::Sha384>,
};
const SHA512: Kdf = Kdf {
    derive: multisha::pbkdf2_hmac_sha512,
    verify: multisha::pbkdf2_hmac_sha512_verify,
    reference: pbkdf2::pbkdf2_hmac::<sha2::Sha512>,
};
const SHA512_224: Kdf = Kdf {
    derive: multisha::pbkdf2_hmac_sha512_224,
    verify: multisha::pbkdf2_hmac_sha512_224_verify,
    reference: pbkdf2::pbkdf2_hmac::<sha2::Sha512_224>,
};
const SHA512_256: Kdf = Kdf {
    derive: multisha::pbkdf2_hmac_sha512_256,
    verify: multisha::pbkdf2_hmac_sha512_256_verify,
    reference: pbkdf2::pbkdf2_hmac::<sha2::Sha512_256>,
};

#[test]
fn wycheproof_sha1() {
    // The 16,777,216-iteration case runs in `wycheproof_sha1_large_iteration_counts`.
    let file = "pbkdf2_hmacsha1_test.json";
    assert!(wycheproof::<multisha::Sha1>(&SHA1, Ways::Dispatched, file, 4096) >= 60);
}

#[test]
fn every_variant_wycheproof_sha1() {
    let file = "pbkdf2_hmacsha1_test.json";
    assert!(wycheproof::<multisha::Sha1>(&SHA1, Ways::EveryVariant, file, 4096) >= 60);
}

/// The SHA-1 vectors with 16,777,216 iterations: seconds in a release build, minutes in a
/// debug one (`cargo test --release -p multisha --test pbkdf2 -- --ignored`).
#[test]
#[ignore = "16,777,216 iterations: run in release mode"]
fn wycheproof_sha1_large_iteration_counts() {
    assert_eq!(
        wycheproof::<multisha::Sha1>(
            &SHA1,
            Ways::EveryVariant,
            "pbkdf2_hmacsha1_test.json",
            u64::MAX
        ),
        64
    );
}

#[test]
fn wycheproof_sha224() {
    assert_eq!(
        wycheproof::<multisha::Sha224>(
            &SHA224,
            Ways::Dispatched,
            "pbkdf2_hmacsha224_test.json",
            4096
        ),
        58
    );
}

#[test]
fn every_variant_wycheproof_sha224() {
    assert_eq!(
        wycheproof::<multisha::Sha224>(
            &SHA224,
            Ways::EveryVariant,
            "pbkdf2_hmacsha224_test.json",
            4096
        ),
        58
    );
}

#[test]
fn wycheproof_sha256() {
    assert_eq!(
        wycheproof::<multisha::Sha256>(
            &SHA256,
            Ways::Dispatched,
            "pbkdf2_hmacsha256_test.json",
            80_000
        ),
        60
    );
}

#[test]
fn every_variant_wycheproof_sha256() {
    assert_eq!(
        wycheproof::<multisha::Sha256>(
            &SHA256,
            Ways::EveryVariant,
            "pbkdf2_hmacsha256_test.json",
            80_000
        ),
        60
    );
}

#[test]
fn wycheproof_sha384() {
    assert_eq!(
        wycheproof::<multisha::Sha384>(
            &SHA384,
            Ways::Dispatched,
            "pbkdf2_hmacsha384_test.json",
            4096
        ),
        58
    );
}

#[test]
fn every_variant_wycheproof_sha384() {
    assert_eq!(
        wycheproof::<multisha::Sha384>(
            &SHA384,
            Ways::EveryVariant,
            "pbkdf2_hmacsha384_test.json",
            4096
        ),
        58
    );
}

#[test]
fn wycheproof_sha512() {
    assert_eq!(
        wycheproof::<multisha::Sha512>(
            &SHA512,
            Ways::Dispatched,
            "pbkdf2_hmacsha512_test.json",
            4096
        ),
        58
    );
}

#[test]
fn every_variant_wycheproof_sha512() {
    assert_eq!(
        wycheproof::<multisha::Sha512>(
            &SHA512,
            Ways::EveryVariant,
            "pbkdf2_hmacsha512_test.json",
            4096
        ),
        58
    );
}

/// An iteration count past 2^17 (the 2^24 vectors above run in release only), against
/// RustCrypto: a count cut to fewer bits gives another key. One output block (the
/// single-message loop) and two (the chains side by side where a lane kernel has them), and
/// the verification of each. About 0.15 s in the dev profile.
#[test]
fn iteration_counts_past_2_pow_17_are_counted_in_full() {
    let count = (1 << 17) + 1;
    for len in [20, 40] {
        let mut want = vec![0; len];
        (SHA1.reference)(b"password", b"salt", count, &mut want);
        let mut got = vec![0; len];
        (SHA1.derive)(b"password", b"salt", iterations(count), &mut got).expect("a valid length");
        assert_eq!(hex::encode(&got), hex::encode(&want), "{len} bytes");
        (SHA1.verify)(b"password", b"salt", iterations(count), &want).expect("the same key");
    }
}

/// RFC 6070 §2 (PBKDF2-HMAC-SHA1), but its 16,777,216-iteration case (in the Wycheproof file,
/// the ignored test above).
#[test]
fn rfc6070() {
    rfc6070_on(Ways::Dispatched);
}

#[test]
fn every_variant_rfc6070() {
    rfc6070_on(Ways::EveryVariant);
}

fn rfc6070_on(ways: Ways) {
    let cases: [(&[u8], &[u8], u32, &str); 5] = [
        (
            b"password",
            b"salt",
            1,
            "0c60c80f961f0e71f3a9b524af6012062fe037a6",
        ),
        (
            b"password",
            b"salt",
            2,
            "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957",
        ),
        (
            b"password",
            b"salt",
            4096,
            "4b007901b765489abead49d926f721d065a429c1",
        ),
        (
            b"passwordPASSWORDpassword",
            b"saltSALTsaltSALTsaltSALTsaltSALTsalt",
            4096,
            "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038",
        ),
        (
            b"pass\0word",
            b"sa\0lt",
            4096,
            "56fa6aa75548099dcc37d7f03425e0c3",
        ),
    ];
    for (password, salt, count, want) in cases {
        for (label, derive) in derivations::<multisha::Sha1>(&SHA1, ways) {
            let mut out = vec![0; want.len() / 2];
            derive(password, salt, count, &mut out);
            assert_eq!(hex::encode(&out), want, "{label}: {count} iterations");
        }
    }
}

/// RFC 7914 §11 (PBKDF2-HMAC-SHA256, 64-byte outputs).
#[test]
fn rfc7914() {
    rfc7914_on(Ways::Dispatched);
}

#[test]
fn every_variant_rfc7914() {
    rfc7914_on(Ways::EveryVariant);
}

fn rfc7914_on(ways: Ways) {
    let cases: [(&[u8], &[u8], u32, &str); 2] = [
        (
            b"passwd",
            b"salt",
            1,
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc\
             49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783",
        ),
        (
            b"Password",
            b"NaCl",
            80_000,
            "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56\
             a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d",
        ),
    ];
    for (password, salt, count, want) in cases {
        for (label, derive) in derivations::<multisha::Sha256>(&SHA256, ways) {
            let mut out = [0; 64];
            derive(password, salt, count, &mut out);
            assert_eq!(hex::encode(out), want, "{label}: {count} iterations");
        }
    }
}

/// RustCrypto's `pbkdf2` on random inputs: passwords of 0 to 300 bytes (past one and two
/// blocks), salts of 0 to 300, 1 to 40 iterations, outputs of 1 byte to three digests and a
/// bit; and every edge listed.
fn differential<H: HashFunction>(kdf: &Kdf, ways: Ways, seed: u64) -> usize {
    let digest = H::OUTPUT.len;
    let block = H::algorithm().block_len();
    let mut rng = TestRng::new(seed);
    let mut cases: Vec<(Vec<u8>, Vec<u8>, u32, usize)> = Vec::new();
    for _ in 0..40 {
        let (password_len, salt_len) = (rng.below(301), rng.below(301));
        let (password, salt) = (rng.bytes(password_len), rng.bytes(salt_len));
        let count = 1 + rng.below(40) as u32;
        let len = 1 + rng.below(3 * digest + 10);
        cases.push((password, salt, count, len));
    }
    // Edges: empty password and salt; passwords of a block (kept) and a block and one byte
    // (hashed first); salts whose index spills into another block; outputs around the
    // multiples of the digest.
    for password_len in [0, 1, block - 1, block, block + 1, 2 * block + 1] {
        for salt_len in [
            0,
            1,
            block - 9,
            block - 5,
            block - 4,
            block - 3,
            block,
            block + 60,
        ] {
            cases.push((rng.bytes(password_len), rng.bytes(salt_len), 3, digest));
        }
    }
    for len in [
        1,
        digest - 1,
        digest,
        digest + 1,
        2 * digest - 1,
        2 * digest,
        2 * digest + 1,
        4 * digest + 3,
    ] {
        for count in [1, 2, 5] {
            cases.push((b"password".to_vec(), b"salt".to_vec(), count, len));
        }
    }
    let derivations = derivations::<H>(kdf, ways);
    for (password, salt, count, len) in &cases {
        let mut want = vec![0; *len];
        (kdf.reference)(password, salt, *count, &mut want);
        for (label, derive) in &derivations {
            let mut got = vec![0; *len];
            derive(password, salt, *count, &mut got);
            assert_eq!(
                hex::encode(&got),
                hex::encode(&want),
                "{label}: password of {} bytes, salt of {}, {count} iterations, {len} bytes out",
                password.len(),
                salt.len()
            );
        }
        (kdf.verify)(password, salt, iterations(*count), &want).expect("the right key verifies");
    }
    cases.len()
}

#[test]
fn matches_rustcrypto_sha1() {
    assert!(differential::<multisha::Sha1>(&SHA1, Ways::Dispatched, 1) > 100);
}

#[test]
fn every_variant_matches_rustcrypto_sha1() {
    assert!(differential::<multisha::Sha1>(&SHA1, Ways::EveryVariant, 1) > 100);
}

#[test]
fn matches_rustcrypto_sha224() {
    assert!(differential::<multisha::Sha224>(&SHA224, Ways::Dispatched, 2) > 100);
}

#[test]
fn every_variant_matches_rustcrypto_sha224() {
    assert!(differential::<multisha::Sha224>(&SHA224, Ways::EveryVariant, 2) > 100);
}

#[test]
fn matches_rustcrypto_sha256() {
    assert!(differential::<multisha::Sha256>(&SHA256, Ways::Dispatched, 3) > 100);
}

#[test]
fn every_variant_matches_rustcrypto_sha256() {
    assert!(differential::<multisha::Sha256>(&SHA256, Ways::EveryVariant, 3) > 100);
}

#[test]
fn matches_rustcrypto_sha384() {
    assert!(differential::<multisha::Sha384>(&SHA384, Ways::Dispatched, 4) > 100);
}

#[test]
fn every_variant_matches_rustcrypto_sha384() {
    assert!(differential::<multisha::Sha384>(&SHA384, Ways::EveryVariant, 4) > 100);
}

#[test]
fn matches_rustcrypto_sha512() {
    assert!(differential::<multisha::Sha512>(&SHA512, Ways::Dispatched, 5) > 100);
}

#[test]
fn every_variant_matches_rustcrypto_sha512() {
    assert!(differential::<multisha::Sha512>(&SHA512, Ways::EveryVariant, 5) > 100);
}

#[test]
fn matches_rustcrypto_sha512_224() {
    assert!(differential::<multisha::Sha512_224>(&SHA512_224, Ways::Dispatched, 6) > 100);
}

#[test]
fn every_variant_matches_rustcrypto_sha512_224() {
    assert!(differential::<multisha::Sha512_224>(&SHA512_224, Ways::EveryVariant, 6) > 100);
}

#[test]
fn matches_rustcrypto_sha512_256() {
    assert!(differential::<multisha::Sha512_256>(&SHA512_256, Ways::Dispatched, 7) > 100);
}

#[test]
fn every_variant_matches_rustcrypto_sha512_256() {
    assert!(differential::<multisha::Sha512_256>(&SHA512_256, Ways::EveryVariant, 7) > 100);
}

/// Multi-block outputs with the chains side by side on each many-message variant this CPU
/// runs (pinned), against RustCrypto: output block counts below, at and past the lane counts,
/// so chains run together and the rest one by one. Returns how many variants ran chains.
fn chains<H: HashFunction>(kdf: &Kdf) -> usize {
    let digest = H::OUTPUT.len;
    let mut with_chains = 0;
    for variant in H::algorithm().variants() {
        if variant.interface() != Interface::Many || !variant.is_available() {
            continue;
        }
        let pin = PinnedMany::<H>::new(variant.name()).expect("available");
        with_chains += usize::from(pin.has_pbkdf2_chains());
        for blocks in [1, 2, 3, 4, 5, 9] {
            for (len, count) in [
                (blocks * digest, 7),
                (blocks * digest - 3, 1),
                (blocks * digest, 40),
            ] {
                let mut want = vec![0; len];
                (kdf.reference)(b"pass", b"NaCl", count, &mut want);
                let mut got = vec![0; len];
                pin.pbkdf2_hmac(b"pass", b"NaCl", iterations(count), &mut got)
                    .expect("a valid length");
                assert_eq!(
                    hex::encode(got),
                    hex::encode(want),
                    "{variant}: {len} bytes, {count} iterations"
                );
            }
        }
    }
    with_chains
}

#[test]
fn chains_side_by_side_match_rustcrypto() {
    let sha256 = chains::<multisha::Sha256>(&SHA256);
    chains::<multisha::Sha224>(&SHA224);
    let sha1 = chains::<multisha::Sha1>(&SHA1);
    let sha512 = chains::<multisha::Sha512>(&SHA512);
    // Expected from the CPU's features (masked as the run asks), not from the loop's filter.
    #[cfg(target_arch = "x86_64")]
    {
        use multisha::engine::{Algorithm, cpu_features};
        for (algorithm, ran) in [(Algorithm::Sha1, sha1), (Algorithm::Sha256, sha256)] {
            let requires = algorithm
                .variant("shani-x2")
                .expect("registered")
                .requires();
            if cpu_features().contains(requires) {
                assert!(ran >= 1, "shani-x2 runs {algorithm:?} chains side by side");
            }
        }
        // No SHA-512 lane kernel has a PBKDF2 entry on x86-64 (yet): one that gains one
        // must be counted here.
        assert_eq!(sha512, 0, "SHA-512 variants with chains");
    }
    let _ = (sha1, sha256, sha512);
}

/// A wrong password, salt, count or key byte anywhere is a mismatch; the right key verifies
/// on every variant.
#[test]
fn verify_accepts_the_key_and_refuses_everything_else() {
    let c = iterations(100);
    let mut key = [0u8; 40];
    multisha::pbkdf2_hmac_sha256(b"password", b"salt", c, &mut key).expect("valid length");
    assert_eq!(
        multisha::pbkdf2_hmac_sha256_verify(b"password", b"salt", c, &key),
        Ok(())
    );
    for pin in pinned::<multisha::Sha256>() {
        assert_eq!(
            pin.pbkdf2_hmac_verify(b"password", b"salt", c, &key),
            Ok(()),
            "{pin:?}"
        );
        assert_eq!(
            pin.pbkdf2_hmac_verify(b"passwore", b"salt", c, &key),
            Err(Pbkdf2Error::Mismatch),
            "{pin:?}"
        );
    }
    let mismatch = Err(Pbkdf2Error::Mismatch);
    assert_eq!(
        multisha::pbkdf2_hmac_sha256_verify(b"Password", b"salt", c, &key),
        mismatch
    );
    assert_eq!(
        multisha::pbkdf2_hmac_sha256_verify(b"password", b"salt.", c, &key),
        mismatch
    );
    assert_eq!(
        multisha::pbkdf2_hmac_sha256_verify(b"password", b"salt", iterations(99), &key),
        mismatch
    );
    for position in [0, 1, 31, 32, 39] {
        let mut wrong = key;
        wrong[position] ^= 0x01;
        assert_eq!(
            multisha::pbkdf2_hmac_sha256_verify(b"password", b"salt", c, &wrong),
            mismatch,
            "key byte {position} flipped"
        );
    }
    // A prefix of the key is the key of that length (PBKDF2's outputs nest), so it verifies.
    assert_eq!(
        multisha::pbkdf2_hmac_sha256_verify(b"password", b"salt", c, &key[..33]),
        Ok(())
    );
    for verify in [
        SHA1.verify,
        SHA224.verify,
        SHA384.verify,
        SHA512.verify,
        SHA512_224.verify,
        SHA512_256.verify,
    ] {
        assert_eq!(verify(b"password", b"salt", c, &key), mismatch);
    }
}

#[test]
fn an_empty_output_is_refused() {
    for kdf in [
        &SHA1,
        &SHA224,
        &SHA256,
        &SHA384,
        &SHA512,
        &SHA512_224,
        &SHA512_256,
    ] {
        assert_eq!(
            (kdf.derive)(b"password", b"salt", iterations(1), &mut []),
            Err(Pbkdf2Error::EmptyOutput)
        );
        assert_eq!(
            (kdf.verify)(b"password", b"salt", iterations(1), &[]),
            Err(Pbkdf2Error::EmptyOutput),
            "an empty key would match every password"
        );
    }
    let pin = Pinned::<multisha::Sha256>::new("rolled").expect("portable");
    assert_eq!(
        pin.pbkdf2_hmac(b"p", b"s", iterations(1), &mut []),
        Err(Pbkdf2Error::EmptyOutput)
    );
}

/// The error values' messages, and that they are `Error`s. (An output past (2^32 - 1) digests
/// needs 80 GiB of memory to ask for: the length check itself is a unit test of the crate.)
#[test]
fn errors_say_what_is_wrong() {
    let errors: [(Pbkdf2Error, &str); 3] = [
        (
            Pbkdf2Error::OutputTooLong {
                len: 137_438_953_441,
                digest_len: 32,
            },
            "PBKDF2 output of 137438953441 bytes is too long: at most (2^32 - 1) blocks of 32 \
             bytes (137438953440 bytes)",
        ),
        (
            Pbkdf2Error::EmptyOutput,
            "PBKDF2 output of 0 bytes: ask for at least one",
        ),
        (
            Pbkdf2Error::Mismatch,
            "PBKDF2 derived key does not match the expected key",
        ),
    ];
    for (error, message) in errors {
        let error: &dyn std::error::Error = &error;
        assert_eq!(error.to_string(), message);
    }
}

/// `engine::pbkdf2_chains` names a many-message variant of the algorithm that this CPU runs
/// and that has a PBKDF2 entry, or none; a batch variant forced through the environment is the
/// one named when it has an entry. Every run (forced, masked) checks its own case.
#[test]
fn the_chains_choice_names_a_variant_with_a_pbkdf2_entry() {
    use multisha::engine::{Algorithm, pbkdf2_chains};
    for &algorithm in Algorithm::ALL {
        let has_entry = |name: &str| match algorithm.id() {
            "sha1" => PinnedMany::<multisha::Sha1>::new(name).map(|p| p.has_pbkdf2_chains()),
            "sha256" => PinnedMany::<multisha::Sha256>::new(name).map(|p| p.has_pbkdf2_chains()),
            _ => PinnedMany::<multisha::Sha512>::new(name).map(|p| p.has_pbkdf2_chains()),
        };
        let chosen = pbkdf2_chains(algorithm);
        if let Some(variant) = chosen {
            assert_eq!(variant.interface(), Interface::Many, "{variant}");
            assert!(variant.is_available(), "{variant}");
            assert_eq!(has_entry(variant.name()), Ok(true), "{variant}");
        }
        if let Ok(forced) = std::env::var(algorithm.env_var_for(Interface::Many)) {
            let want = (has_entry(&forced) == Ok(true)).then_some(forced.as_str());
            assert_eq!(chosen.map(|v| v.name()), want, "forced {forced}");
        }
    }
}
