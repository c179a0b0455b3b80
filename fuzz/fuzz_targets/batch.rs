//! The batch API against RustCrypto (not the crate's one-shot functions, which share its
//! kernels): any number of messages of any lengths, some of them the same slice, through the
//! dispatched `*_many` path and through every many-message variant this CPU runs (pinned,
//! alone), and `sha256_pairs`.
//!
//! Input: a byte choosing the hash function, then messages: each starts with a length byte
//! (scaled so some messages span many blocks), a byte 0 repeats the previous message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use multisha::HashFunction;
use multisha::engine::{Interface, PinnedMany};

/// RustCrypto's digest of `message` for the hash function `id`.
fn reference(id: &str, message: &[u8]) -> Vec<u8> {
    use sha2::Digest;
    match id {
        "sha1" => sha1::Sha1::digest(message).to_vec(),
        "sha224" => sha2::Sha224::digest(message).to_vec(),
        "sha256" => sha2::Sha256::digest(message).to_vec(),
        "sha384" => sha2::Sha384::digest(message).to_vec(),
        "sha512" => sha2::Sha512::digest(message).to_vec(),
        "sha512_224" => sha2::Sha512_224::digest(message).to_vec(),
        "sha512_256" => sha2::Sha512_256::digest(message).to_vec(),
        _ => panic!("no reference for {id}"),
    }
}

/// `messages` through `H`'s dispatched batch path and each pinned many-message variant,
/// against RustCrypto.
fn check<H: HashFunction>(messages: &[&[u8]]) {
    let want: Vec<Vec<u8>> = messages.iter().map(|m| reference(H::id(), m)).collect();
    let got = |digests: &[H::Digest]| -> Vec<Vec<u8>> {
        digests.iter().map(|d| d.as_ref().to_vec()).collect()
    };
    let mut digests = vec![H::ZERO; messages.len()];
    H::oneshot_many(messages, &mut digests);
    assert_eq!(got(&digests), want, "{}_many", H::id());
    for variant in H::algorithm()
        .variants()
        .iter()
        .filter(|v| v.is_available() && v.interface() == Interface::Many)
    {
        let mut digests = vec![H::ZERO; messages.len()];
        PinnedMany::<H>::new(variant.name())
            .expect("available")
            .hash_many(messages, &mut digests);
        assert_eq!(got(&digests), want, "{} on {variant}", H::id());
    }
}

fuzz_target!(|input: &[u8]| {
    let [f, data @ ..] = input else { return };
    let mut messages: Vec<&[u8]> = Vec::new();
    let mut rest = data;
    while let [len, tail @ ..] = rest {
        if *len == 0 && !messages.is_empty() {
            messages.push(messages[messages.len() - 1]);
            rest = tail;
            continue;
        }
        let n = (usize::from(*len) * usize::from(*len) / 8).min(tail.len());
        messages.push(&tail[..n]);
        rest = &tail[n..];
    }
    match f % 8 {
        0 => check::<multisha::Sha1>(&messages),
        1 => check::<multisha::Sha224>(&messages),
        2 => check::<multisha::Sha256>(&messages),
        3 => check::<multisha::Sha384>(&messages),
        4 => check::<multisha::Sha512>(&messages),
        5 => check::<multisha::Sha512_224>(&messages),
        6 => check::<multisha::Sha512_256>(&messages),
        _ => {
            let nodes: Vec<[u8; 64]> = data
                .chunks_exact(64)
                .map(|c| c.try_into().expect("64 bytes"))
                .collect();
            let mut got = vec![[0u8; 32]; nodes.len()];
            multisha::sha256_pairs(&nodes, &mut got);
            for (node, digest) in nodes.iter().zip(&got) {
                assert_eq!(digest.to_vec(), reference("sha256", node), "sha256_pairs");
            }
        }
    }
});
