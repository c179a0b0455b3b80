//! The hashers are drop-in RustCrypto hashers: the traits and crates users combine them with.

use digest::common::hazmat::SerializableState;
use digest::const_oid::AssociatedOid;
use multisha::{Digest, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};

#[test]
fn digest_trait_matches_reference() {
    let data = b"The quick brown fox jumps over the lazy dog";
    assert_eq!(Sha1::digest(data)[..], sha1::Sha1::digest(data)[..]);
    assert_eq!(Sha224::digest(data)[..], sha2::Sha224::digest(data)[..]);
    assert_eq!(Sha256::digest(data)[..], sha2::Sha256::digest(data)[..]);
    assert_eq!(multisha::sha1(data), sha1::Sha1::digest(data)[..]);
    assert_eq!(multisha::sha224(data), sha2::Sha224::digest(data)[..]);
    assert_eq!(multisha::sha256(data), sha2::Sha256::digest(data)[..]);
    assert_eq!(Sha384::digest(data)[..], sha2::Sha384::digest(data)[..]);
    assert_eq!(Sha512::digest(data)[..], sha2::Sha512::digest(data)[..]);
    assert_eq!(
        Sha512_224::digest(data)[..],
        sha2::Sha512_224::digest(data)[..]
    );
    assert_eq!(
        Sha512_256::digest(data)[..],
        sha2::Sha512_256::digest(data)[..]
    );
    assert_eq!(multisha::sha384(data), sha2::Sha384::digest(data)[..]);
    assert_eq!(multisha::sha512(data), sha2::Sha512::digest(data)[..]);
    assert_eq!(
        multisha::sha512_224(data),
        sha2::Sha512_224::digest(data)[..]
    );
    assert_eq!(
        multisha::sha512_256(data),
        sha2::Sha512_256::digest(data)[..]
    );
}

#[test]
fn oids_and_names() {
    assert_eq!(Sha1::OID, sha1::Sha1::OID);
    assert_eq!(Sha224::OID, sha2::Sha224::OID);
    assert_eq!(Sha256::OID, sha2::Sha256::OID);
    assert_eq!(Sha384::OID, sha2::Sha384::OID);
    assert_eq!(Sha512::OID, sha2::Sha512::OID);
    assert_eq!(Sha512_224::OID, sha2::Sha512_224::OID);
    assert_eq!(Sha512_256::OID, sha2::Sha512_256::OID);
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

    let (mut a, mut b) = ([0u8; 100], [0u8; 100]);
    hkdf::Hkdf::<Sha512>::new(Some(b"salt"), b"ikm")
        .expand(b"info", &mut a)
        .expect("length ok");
    hkdf::Hkdf::<sha2::Sha512>::new(Some(b"salt"), b"ikm")
        .expand(b"info", &mut b)
        .expect("length ok");
    assert_eq!(a, b);

    let (mut a, mut b) = ([0u8; 48], [0u8; 48]);
    pbkdf2::pbkdf2_hmac::<Sha384>(b"password", b"salt", 100, &mut a);
    pbkdf2::pbkdf2_hmac::<sha2::Sha384>(b"password", b"salt", 100, &mut b);
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
    let pinned = multisha::engine::Pinned::<Sha1>::new("rolled").expect("portable");
    assert_eq!(pinned.hash(b"abc"), multisha::sha1(b"abc"));
    let sha256_variant = multisha::engine::Algorithm::Sha256
        .variant("unroll8")
        .expect("portable");
    let error = multisha::engine::Pinned::<Sha1>::from_variant(sha256_variant)
        .expect_err("a SHA-256 variant computes no SHA-1");
    assert!(error.is_unknown_variant(), "{error}");
}

#[test]
fn zeroize_on_drop_is_implemented() {
    fn assert_zeroize_on_drop<T: zeroize::ZeroizeOnDrop>() {}
    assert_zeroize_on_drop::<Sha1>();
    assert_zeroize_on_drop::<Sha224>();
    assert_zeroize_on_drop::<Sha256>();
    assert_zeroize_on_drop::<Sha384>();
    assert_zeroize_on_drop::<Sha512>();
    assert_zeroize_on_drop::<Sha512_224>();
    assert_zeroize_on_drop::<Sha512_256>();
}

/// What `zeroize_on_drop_is_implemented` cannot see: that dropping a hasher zeroes its state
/// at run time. A SHA-256 hasher restored from marker state words and a marker block count,
/// with marker bytes buffered, is dropped in place; its memory then holds none of them.
#[test]
fn a_dropped_hasher_leaves_no_state_in_its_memory() {
    use std::mem::MaybeUninit;
    let mut state = Sha256::new().serialize();
    // Eight state words, then a block count below 2^56 (the bits above pin a variant); the
    // buffer's bytes and position follow, left empty.
    for (i, byte) in state.iter_mut().enumerate().take(40) {
        *byte = 0x81 ^ (i as u8).wrapping_mul(0x1d);
    }
    state[39] = 0;
    let mut hasher = Sha256::deserialize(&state).expect("a count below the pin");
    let tail = [0x5au8, 0xc3, 0x99, 0x17, 0xe8, 0x2f, 0x64, 0xb1, 0x0d, 0x7e];
    hasher.update(tail);
    let mut slot = Box::new(MaybeUninit::<Sha256>::zeroed());
    let ptr = slot.write(hasher) as *mut Sha256;
    let memory = || -> Vec<u8> {
        (0..size_of::<Sha256>())
            // SAFETY: `ptr` points into the live box, `size_of::<Sha256>()` bytes, zeroed
            // before the hasher was written there (padding holds zeros or the hasher's
            // bytes); a dropped value's bytes stay readable as bytes.
            .map(|i| unsafe { ptr.cast::<u8>().add(i).read_volatile() })
            .collect()
    };
    let markers: Vec<&[u8]> = state[..32]
        .chunks(4)
        .chain([&state[32..39], &tail[..]])
        .collect();
    let before = memory();
    for marker in &markers {
        let found = before.windows(marker.len()).any(|w| w == *marker);
        assert!(found, "the control: the live hasher holds {marker:02x?}");
    }
    // SAFETY: the box holds an initialised hasher, dropped once here and never used again
    // (only its bytes are read).
    unsafe { ptr.drop_in_place() };
    let after = memory();
    for marker in &markers {
        let found = after.windows(marker.len()).any(|w| w == *marker);
        assert!(!found, "{marker:02x?} left in a dropped hasher's memory");
    }
}

/// `AlgorithmName` says what the RustCrypto hasher it replaces says (`Hmac`'s name and debug
/// output build on it).
#[test]
fn algorithm_names_match_rustcrypto() {
    use digest::common::AlgorithmName;
    use std::fmt;
    use std::marker::PhantomData;

    struct Name<T>(PhantomData<T>);
    impl<T: AlgorithmName> fmt::Display for Name<T> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            T::write_alg_name(f)
        }
    }
    fn name<T: AlgorithmName>() -> String {
        Name::<T>(PhantomData).to_string()
    }
    assert_eq!(name::<Sha1>(), name::<sha1::Sha1>());
    assert_eq!(name::<Sha224>(), name::<sha2::Sha224>());
    assert_eq!(name::<Sha256>(), name::<sha2::Sha256>());
    assert_eq!(name::<Sha384>(), name::<sha2::Sha384>());
    assert_eq!(name::<Sha512>(), name::<sha2::Sha512>());
    assert_eq!(name::<Sha512_224>(), name::<sha2::Sha512_224>());
    assert_eq!(name::<Sha512_256>(), name::<sha2::Sha512_256>());
    assert_eq!(
        format!("{:?}", Sha512_256::new()),
        format!("{:?}", sha2::Sha512_256::new())
    );
    assert_eq!(
        format!("{:?}", Sha224::new()),
        format!("{:?}", sha2::Sha224::new())
    );
}

/// The serialized state is byte for byte the RustCrypto one, so states move between the two.
#[test]
fn serialized_state_is_byte_compatible_with_rustcrypto() {
    let data: Vec<u8> = (0..200u32).map(|i| (i * 7) as u8).collect();
    let mut ours = Sha256::new();
    let mut theirs = sha2::Sha256::new();
    ours.update(&data[..150]);
    theirs.update(&data[..150]);
    assert_eq!(ours.serialize()[..], theirs.serialize()[..]);
    let mut moved = sha2::Sha256::deserialize(&ours.serialize()).expect("same layout");
    moved.update(&data[150..]);
    assert_eq!(moved.finalize()[..], sha2::Sha256::digest(&data)[..]);

    let mut ours = Sha1::new();
    let mut theirs = sha1::Sha1::new();
    ours.update(&data[..99]);
    theirs.update(&data[..99]);
    assert_eq!(ours.serialize()[..], theirs.serialize()[..]);

    let data: Vec<u8> = (0..400u32).map(|i| (i * 13) as u8).collect();
    let mut ours = Sha384::new();
    let mut theirs = sha2::Sha384::new();
    ours.update(&data[..300]);
    theirs.update(&data[..300]);
    assert_eq!(ours.serialize()[..], theirs.serialize()[..]);
    let mut moved = Sha384::deserialize(&theirs.serialize()).expect("same layout");
    moved.update(&data[300..]);
    assert_eq!(moved.finalize()[..], sha2::Sha384::digest(&data)[..]);
}

/// A serialized state with the block count `blocks` and `pending` buffered bytes: the chaining
/// value of the IV, the count as wide as the algorithm's field, then the buffer (its length,
/// then the block size less one bytes), as `sha1`/`sha2` 0.11 lay it out.
fn state_with_count(
    initial: &[u8],
    count_bytes: usize,
    blocks: u128,
    pending: &[u8],
    block: usize,
) -> Vec<u8> {
    let mut state = initial[..initial.len() - count_bytes - block].to_vec();
    state.extend_from_slice(&blocks.to_le_bytes()[..count_bytes]);
    state.push(pending.len() as u8);
    let mut buffer = vec![0u8; block - 1];
    buffer[..pending.len()].copy_from_slice(pending);
    state.extend_from_slice(&buffer);
    state
}

/// SHA-512's length field is 128 bits: a message past 2^64 bits pads to the same digest as
/// RustCrypto's; SHA-256's is 64 bits, so the length wraps modulo 2^64 as there.
#[test]
fn length_fields_beyond_two_to_the_64_bits() {
    // 2^58 blocks of 128 bytes = 2^68 bits.
    let fresh = Sha512::new().serialize();
    let state = state_with_count(&fresh, 16, 1 << 58, b"tail", 128);
    let ours = Sha512::deserialize(state.as_slice().try_into().unwrap()).expect("valid");
    let theirs = sha2::Sha512::deserialize(state.as_slice().try_into().unwrap()).expect("valid");
    assert_eq!(ours.finalize()[..], theirs.finalize()[..]);

    // 2^55 + 3 blocks of 64 bytes: 2^64 + 1536 bits, which is 1536 modulo 2^64, so the digest
    // is that of a count of 3 blocks (RustCrypto's overflow checks refuse the large count).
    let fresh = Sha256::new().serialize();
    let wrapped = state_with_count(&fresh, 8, (1 << 55) + 3, b"tail", 64);
    let small = state_with_count(&fresh, 8, 3, b"tail", 64);
    let ours = Sha256::deserialize(wrapped.as_slice().try_into().unwrap()).expect("valid");
    let theirs = sha2::Sha256::deserialize(small.as_slice().try_into().unwrap()).expect("valid");
    assert_eq!(ours.finalize()[..], theirs.finalize()[..]);
}

/// A block count no message reaches (2^56 blocks and up for SHA-1 and SHA-256, 2^120 for the
/// SHA-512 family: the hasher keeps its pinned variant in those bits) is refused with an
/// error; the largest one below is restored and serialized back unchanged.
#[test]
fn unreachable_block_counts_are_refused() {
    let fresh = Sha256::new().serialize();
    for (blocks, ok) in [
        ((1 << 56) - 1, true),
        (1 << 56, false),
        (u128::from(u64::MAX), false),
    ] {
        let state = state_with_count(&fresh, 8, blocks, b"", 64);
        let restored = Sha256::deserialize(state.as_slice().try_into().unwrap());
        assert_eq!(restored.is_ok(), ok, "SHA-256, {blocks} blocks");
        if let Ok(restored) = restored {
            assert_eq!(restored.serialize()[..], state[..]);
        }
    }
    let fresh = Sha1::new().serialize();
    let state = state_with_count(&fresh, 8, 1 << 60, b"", 64);
    assert!(Sha1::deserialize(state.as_slice().try_into().unwrap()).is_err());
    let fresh = Sha512::new().serialize();
    for (blocks, ok) in [
        ((1 << 120) - 1, true),
        (1 << 120, false),
        (u128::MAX, false),
    ] {
        let state = state_with_count(&fresh, 16, blocks, b"", 128);
        let restored = Sha512::deserialize(state.as_slice().try_into().unwrap());
        assert_eq!(restored.is_ok(), ok, "SHA-512, {blocks} blocks");
        if let Ok(restored) = restored {
            assert_eq!(restored.serialize()[..], state[..]);
        }
    }
}

/// A restored count just below the pin wraps to 0 below it, as the length field does (2^56
/// blocks are 2^65 bits, 0 modulo 2^64), and hashes as one whose count is 0 (that it keeps
/// its variant is checked in `force.rs`).
#[test]
fn counts_wrap_below_the_pinned_variant() {
    let block = [0x5a_u8; 64];
    let fresh = Sha256::new().serialize();
    let top = state_with_count(&fresh, 8, (1 << 56) - 1, b"", 64);
    let mut wrapped = Sha256::deserialize(top.as_slice().try_into().unwrap()).expect("valid");
    wrapped.update(block);

    let mut one_block = Sha256::new();
    one_block.update(block);
    let chaining = one_block.serialize();
    let zero = state_with_count(&chaining, 8, 0, b"", 64);
    let mut zero = Sha256::deserialize(zero.as_slice().try_into().unwrap()).expect("valid");
    assert_eq!(wrapped.serialize()[..], zero.serialize()[..]);
    wrapped.update(b"tail");
    zero.update(b"tail");
    assert_eq!(wrapped.finalize()[..], zero.finalize()[..]);
}

/// A hasher pinned with `with_variant` keeps its variant across updates, `clone` and `reset`
/// (the pin shares the block count's word); a dispatched one reports the dispatcher's.
#[test]
fn pinned_hashers_stay_pinned() {
    for variant in multisha::engine::Algorithm::Sha256
        .variants()
        .iter()
        .filter(|v| v.is_available() && v.interface() == multisha::engine::Interface::Single)
    {
        let mut hasher = Sha256::with_variant(variant.name()).expect("available");
        assert_eq!(hasher.variant().name(), variant.name());
        hasher.update([7u8; 1000]);
        assert_eq!(hasher.variant().name(), variant.name());
        let clone = hasher.clone();
        assert_eq!(clone.variant().name(), variant.name());
        hasher.reset();
        assert_eq!(hasher.variant().name(), variant.name());
        assert_eq!(hasher.finalize()[..], multisha::sha256(b"")[..]);
        assert_eq!(clone.finalize()[..], multisha::sha256(&[7u8; 1000])[..]);
    }
    let dispatched = multisha::engine::active(multisha::engine::Algorithm::Sha256);
    assert_eq!(Sha256::new().variant().name(), dispatched.variant.name());
}
