//! The batch functions take the containers a program has: `Vec<Vec<u8>>`, arrays of arrays,
//! strings, slices of slices, without building a `Vec<&[u8]>` first; each gives the one-shot
//! function's digests, in order.

use multisha::engine::PinnedMany;
use multisha::{HashFunction, Sha1, Sha256, Sha512};

/// Messages of 0-299 bytes, every length different, over a block boundary or two.
fn owned(count: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| (0..(i * 37) % 300).map(|j| (i * 7 + j) as u8).collect())
        .collect()
}

/// `H`'s one-shot digest of each message.
fn expected<H: HashFunction>(messages: &[Vec<u8>]) -> Vec<H::Digest> {
    messages.iter().map(|m| H::oneshot(m)).collect()
}

#[test]
fn a_vec_of_vecs_goes_in_as_it_is() {
    for count in [0, 1, 2, 5, 17, 40] {
        let messages = owned(count);
        let mut digests = vec![[0u8; 32]; count];
        multisha::sha256_many(&messages, &mut digests);
        assert_eq!(digests, expected::<Sha256>(&messages), "{count}");
        let mut digests = vec![[0u8; 20]; count];
        multisha::sha1_many(&messages, &mut digests);
        assert_eq!(digests, expected::<Sha1>(&messages), "{count}");
        let mut digests = vec![[0u8; 64]; count];
        multisha::sha512_many(&messages, &mut digests);
        assert_eq!(digests, expected::<Sha512>(&messages), "{count}");
    }
}

#[test]
fn arrays_strings_and_slices_go_in_too() {
    let nodes = [[1u8; 64], [2; 64], [3; 64]];
    let mut digests = [[0u8; 32]; 3];
    multisha::sha256_many(&nodes, &mut digests);
    for (node, digest) in nodes.iter().zip(&digests) {
        assert_eq!(*digest, multisha::sha256(node));
    }
    // The same nodes through the Merkle function.
    let mut pairs = [[0u8; 32]; 3];
    multisha::sha256_pairs(&nodes, &mut pairs);
    assert_eq!(pairs, digests);

    let words = ["abc", "", "the quick brown fox"];
    let strings: Vec<String> = words.iter().map(|w| w.repeat(5)).collect();
    let mut digests = [[0u8; 32]; 3];
    multisha::sha256_many(&words, &mut digests);
    for (word, digest) in words.iter().zip(&digests) {
        assert_eq!(*digest, multisha::sha256(word.as_bytes()));
    }
    multisha::sha256_many(&strings, &mut digests);
    for (string, digest) in strings.iter().zip(&digests) {
        assert_eq!(*digest, multisha::sha256(string.as_bytes()));
    }

    // The former signature's argument still fits.
    let slices: Vec<&[u8]> = strings.iter().map(|s| s.as_bytes()).collect();
    multisha::sha256_many(&slices, &mut digests);
    for (slice, digest) in slices.iter().zip(&digests) {
        assert_eq!(*digest, multisha::sha256(slice));
    }
}

#[test]
fn generic_code_and_pinned_variants_take_them_too() {
    fn batch<H: HashFunction>(messages: &[Vec<u8>]) -> Vec<H::Digest> {
        let mut digests = vec![H::ZERO; messages.len()];
        H::oneshot_many(messages, &mut digests);
        digests
    }
    let messages = owned(23);
    assert_eq!(batch::<Sha256>(&messages), expected::<Sha256>(&messages));
    assert_eq!(batch::<Sha512>(&messages), expected::<Sha512>(&messages));
    let serial = PinnedMany::<Sha256>::new("serial").expect("serial runs everywhere");
    let mut digests = vec![[0u8; 32]; messages.len()];
    serial.hash_many(&messages, &mut digests);
    assert_eq!(digests, expected::<Sha256>(&messages));
}

#[test]
fn merkle_nodes_of_every_count_up_to_three_runs() {
    // One by one, runs of one-block messages go to the single-message kernel's entry up to
    // eight at a time (on SHA-NI: pairs, an odd count's first three in three steps of two
    // streams, or a pipeline from four on; one node alone): every count to past two full
    // runs, planned and one by one, against RustCrypto's digests.
    use sha2::Digest as _;
    let nodes: Vec<[u8; 64]> = (0..70u8)
        .map(|n| core::array::from_fn(|i| n.wrapping_mul(31) ^ i as u8))
        .collect();
    let serial = PinnedMany::<Sha256>::new("serial").expect("serial runs everywhere");
    for count in 0..=nodes.len() {
        let mut planned = vec![[0u8; 32]; count];
        multisha::sha256_pairs(&nodes[..count], &mut planned);
        let mut one_by_one = vec![[0u8; 32]; count];
        serial.hash_many(&nodes[..count], &mut one_by_one);
        for (i, node) in nodes[..count].iter().enumerate() {
            let want: [u8; 32] = sha2::Sha256::digest(node).into();
            assert_eq!(planned[i], want, "node {i} of {count}, planned");
            assert_eq!(one_by_one[i], want, "node {i} of {count}, one by one");
            assert_eq!(multisha::sha256(node), want, "node {i}, one-shot");
        }
    }
}
