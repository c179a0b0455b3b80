//! The hashers are drop-in RustCrypto hashers: the traits and crates users combine them with.

use digest::common::hazmat::SerializableState;
use digest::const_oid::AssociatedOid;
use multisha::{Digest, Sha1, Sha224, Sha256};

#[test]
fn digest_trait_matches_reference() {
    let data = b"The quick brown fox jumps over the lazy dog";
    assert_eq!(Sha1::digest(data)[..], sha1::Sha1::digest(data)[..]);
    assert_eq!(Sha224::digest(data)[..], sha2::Sha224::digest(data)[..]);
    assert_eq!(Sha256::digest(data)[..], sha2::Sha256::digest(data)[..]);
    assert_eq!(multisha::sha1(data), sha1::Sha1::digest(data)[..]);
    assert_eq!(multisha::sha224(data), sha2::Sha224::digest(data)[..]);
    assert_eq!(multisha::sha256(data), sha2::Sha256::digest(data)[..]);
}

#[test]
fn oids_and_names() {
    assert_eq!(Sha1::OID, sha1::Sha1::OID);
    assert_eq!(Sha224::OID, sha2::Sha224::OID);
    assert_eq!(Sha256::OID, sha2::Sha256::OID);
    assert_eq!(format!("{:?}", Sha256::new()), "Sha256 { ... }");
}

#[test]
fn hmac_hkdf_pbkdf2_work_unchanged() {
    use hmac::{Hmac, KeyInit, Mac};
    let mut ours = <Hmac<Sha256> as KeyInit>::new_from_slice(b"key").expect("any key length");
    let mut theirs =
        <Hmac<sha2::Sha256> as KeyInit>::new_from_slice(b"key").expect("any key length");
    ours.update(b"message");
    theirs.update(b"message");
    assert_eq!(ours.finalize().into_bytes(), theirs.finalize().into_bytes());

    let (mut a, mut b) = ([0u8; 42], [0u8; 42]);
    hkdf::Hkdf::<Sha256>::new(Some(b"salt"), b"ikm")
        .expand(b"info", &mut a)
        .expect("length ok");
    hkdf::Hkdf::<sha2::Sha256>::new(Some(b"salt"), b"ikm")
        .expand(b"info", &mut b)
        .expect("length ok");
    assert_eq!(a, b);

    let (mut a, mut b) = ([0u8; 20], [0u8; 20]);
    pbkdf2::pbkdf2_hmac::<Sha1>(b"password", b"salt", 4096, &mut a);
    pbkdf2::pbkdf2_hmac::<sha1::Sha1>(b"password", b"salt", 4096, &mut b);
    assert_eq!(a, b);
    // RFC 6070 test vector.
    assert_eq!(hex::encode(a), "4b007901b765489abead49d926f721d065a429c1");
}

#[test]
fn reset_and_clone() {
    let mut hasher = Sha256::new();
    hasher.update(b"garbage");
    Digest::reset(&mut hasher);
    hasher.update(b"abc");
    let copy = hasher.clone();
    assert_eq!(hasher.finalize()[..], sha2::Sha256::digest(b"abc")[..]);
    assert_eq!(copy.finalize()[..], sha2::Sha256::digest(b"abc")[..]);
}

#[test]
fn serialized_state_round_trips() {
    let data: Vec<u8> = (0..300u32).map(|i| i as u8).collect();
    let mut hasher = Sha224::new();
    hasher.update(&data[..150]);
    let saved = hasher.serialize();
    let mut restored = Sha224::deserialize(&saved).expect("valid state");
    restored.update(&data[150..]);
    assert_eq!(restored.finalize()[..], sha2::Sha224::digest(&data)[..]);

    let mut hasher = Sha1::new();
    hasher.update(&data[..77]);
    let mut restored = Sha1::deserialize(&hasher.serialize()).expect("valid state");
    restored.update(&data[77..]);
    assert_eq!(restored.finalize()[..], sha1::Sha1::digest(&data)[..]);
}

#[test]
fn pinned_hashers_reject_bad_names_with_a_clear_error() {
    let error = Sha256::with_variant("turbo").expect_err("unknown");
    assert!(
        error
            .to_string()
            .starts_with("unknown SHA-256 variant \"turbo\"; available: "),
        "{error}"
    );
    assert!(
        Sha1::with_variant("unroll8").is_err(),
        "unroll8 is a SHA-256 variant"
    );
    let pinned = multisha::Pinned::new(multisha::Algorithm::Sha1, "rolled").expect("portable");
    assert_eq!(pinned.sha1(b"abc"), Some(multisha::sha1(b"abc")));
    assert_eq!(
        pinned.sha256(b"abc"),
        None,
        "a SHA-1 variant computes no SHA-256"
    );
}

#[test]
fn zeroize_on_drop_is_implemented() {
    fn assert_zeroize_on_drop<T: zeroize::ZeroizeOnDrop>() {}
    assert_zeroize_on_drop::<Sha1>();
    assert_zeroize_on_drop::<Sha224>();
    assert_zeroize_on_drop::<Sha256>();
}
