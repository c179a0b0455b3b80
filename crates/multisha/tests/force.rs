//! `force` changes the whole process, so it has a test binary of its own and one test.

use multisha::Digest;
use multisha::engine::{Algorithm, Interface, Reason, active, active_many, force};

#[test]
fn force_installs_available_variants_and_refuses_the_rest() {
    let reference = multisha_contract::harness::reference_sha256(b"force");
    for variant in Algorithm::Sha256.variants() {
        match force(Algorithm::Sha256, variant.name()) {
            Ok(installed) => {
                assert!(variant.is_available());
                assert_eq!(installed.name(), variant.name());
                let selection = match variant.interface() {
                    Interface::Single => active(Algorithm::Sha256),
                    Interface::Many => active_many(Algorithm::Sha256),
                };
                assert_eq!(selection.variant.name(), variant.name());
                assert_eq!(selection.reason, Reason::Forced);
                assert_eq!(multisha::sha256(b"force").to_vec(), reference);
                assert_eq!(multisha::Sha256::digest(b"force").to_vec(), reference);
                let mut digests = [[0u8; 32]; 3];
                multisha::sha256_many(&[b"force", b"force", b"force"], &mut digests);
                assert!(digests.iter().all(|d| d.to_vec() == reference));
            }
            Err(error) => {
                assert!(
                    !variant.is_available(),
                    "{variant} runs here but force said {error}"
                );
                assert!(error.to_string().contains("cannot run on this CPU"));
            }
        }
    }

    let before = active(Algorithm::Sha1).variant.name();
    let error = force(Algorithm::Sha1, "sha1-but-faster").expect_err("unknown name");
    assert!(error.is_unknown_variant());
    assert_eq!(error.requested(), "sha1-but-faster");
    let message = error.to_string();
    assert!(
        message.starts_with("unknown SHA-1 variant \"sha1-but-faster\"; available: "),
        "{message}"
    );
    // An unknown name is taken for a single-message one: the single-message variants are listed.
    for variant in Algorithm::Sha1
        .variants()
        .iter()
        .filter(|v| v.is_available() && v.interface() == Interface::Single)
    {
        assert!(
            message.contains(variant.name()),
            "{message} lists {variant}"
        );
    }
    assert_eq!(
        active(Algorithm::Sha1).variant.name(),
        before,
        "a refused force changes nothing"
    );

    // A SHA-256 name is not a SHA-1 variant, even where one exists.
    assert!(force(Algorithm::Sha1, "unroll64").is_err());

    // A restored hasher whose block count wraps keeps following the dispatcher: the count
    // wraps below the bits that pin a variant (a carry there ran the first variant instead).
    use multisha::digest::common::hazmat::SerializableState;
    force(Algorithm::Sha256, "rolled").expect("portable");
    let mut state = multisha::Sha256::new().serialize();
    state[32..40].copy_from_slice(&((1u64 << 56) - 1).to_le_bytes());
    let mut hasher = multisha::Sha256::deserialize(&state).expect("a count below the pin");
    hasher.update([0u8; 64]);
    assert_eq!(hasher.variant().name(), "rolled");
}
