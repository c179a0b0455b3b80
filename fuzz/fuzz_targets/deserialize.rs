//! `SerializableState::deserialize` of arbitrary bytes never panics, accepts exactly what
//! RustCrypto's hasher of the same layout accepts except block counts no message reaches (the
//! top byte of the count set: multisha refuses them), round-trips, and a restored hasher
//! hashes on as the RustCrypto one does.
#![no_main]

use digest::Digest;
use digest::common::hazmat::SerializableState;
use digest::typenum::Unsigned;
use libfuzzer_sys::fuzz_target;

/// `bytes` as the serialized state of `Ours`/`Theirs`, whose chaining state takes `words`
/// bytes and block count `count` bytes.
fn check<Ours, Theirs>(bytes: &[u8], words: usize, count: usize)
where
    Ours: SerializableState + Digest,
    Theirs: SerializableState + Digest,
{
    let len = <Ours as SerializableState>::SerializedStateSize::USIZE;
    assert_eq!(
        len,
        <Theirs as SerializableState>::SerializedStateSize::USIZE
    );
    let Some(state) = bytes.get(..len) else {
        return;
    };
    let mut counter = [0u8; 16];
    counter[..count].copy_from_slice(&state[words..words + count]);
    let blocks = u128::from_le_bytes(counter);
    let unreachable = state[words + count - 1] != 0;
    let ours = Ours::deserialize(state.try_into().expect("length"));
    let theirs = Theirs::deserialize(state.try_into().expect("length"));
    assert_eq!(
        ours.is_ok(),
        theirs.is_ok() && !unreachable,
        "accepts what RustCrypto accepts, below the count's top byte"
    );
    let (Ok(ours), Ok(theirs)) = (ours, theirs) else {
        return;
    };
    assert_eq!(ours.serialize()[..], theirs.serialize()[..], "same state");
    let again = Ours::deserialize(&ours.serialize()).expect("its own serialization");
    assert_eq!(again.serialize()[..], ours.serialize()[..], "round trip");
    // RustCrypto's finalisation overflows (a panic with overflow checks) on block counts near
    // the top of its counter; multisha wraps modulo the length field. Compared below 2^50.
    if blocks >= 1 << 50 {
        return;
    }
    let tail = &bytes[len..];
    let (mut ours, mut theirs) = (ours, theirs);
    Digest::update(&mut ours, tail);
    Digest::update(&mut theirs, tail);
    assert_eq!(ours.finalize()[..], theirs.finalize()[..], "hashing on");
}

fuzz_target!(|input: &[u8]| {
    let [f, bytes @ ..] = input else { return };
    match f % 7 {
        0 => check::<multisha::Sha1, sha1::Sha1>(bytes, 20, 8),
        1 => check::<multisha::Sha224, sha2::Sha224>(bytes, 32, 8),
        2 => check::<multisha::Sha256, sha2::Sha256>(bytes, 32, 8),
        3 => check::<multisha::Sha384, sha2::Sha384>(bytes, 64, 16),
        4 => check::<multisha::Sha512, sha2::Sha512>(bytes, 64, 16),
        5 => check::<multisha::Sha512_224, sha2::Sha512_224>(bytes, 64, 16),
        _ => check::<multisha::Sha512_256, sha2::Sha512_256>(bytes, 64, 16),
    }
});
