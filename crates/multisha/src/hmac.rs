//! HMAC (RFC 2104) of many messages under one key (`hmac_sha256_many`, ...): the key's two
//! keyed states computed once, then the inner hashes of the messages and the outer hashes of
//! their inner digests each as a batch on the lanes, from those states.
//!
//! A batch is taken [`ROUND`] messages at a time: each round's inner digests wait on the stack
//! for their outer hashes and are wiped after the last round, as the keyed states are. The
//! many-message variant pinned by name (`engine::force`, `MULTISHA_SHA256_MANY`) runs both
//! hashes, as it runs the plain batches.

use crate::batch::{self, AfterBlocks};
use crate::dispatch;
use crate::hash_function::HashFunction;
use crate::kdf;
use crate::registry::Variant;
use multisha_contract::wipe_secret;

/// Bytes of dead stack each scrub overwrites: more than the frames of the kernels and the
/// executor below the scrubbing frame (the stack scan found the deepest residue about 2 KiB
/// below).
const SCRUB_BYTES: usize = 4096;

/// Messages per round: 16 KiB of inner digests at most (SHA-512), and enough messages to fill
/// the widest lanes many times over.
const ROUND: usize = 256;

/// HMAC (RFC 2104) with hash function `H`, named by its hasher, of every message of
/// `messages` under `key`, into the tag at the same index of `digests`:
/// `hmac_many::<multisha::Sha256>` is [`hmac_sha256_many`], for generic code. The same tags
/// as `hmac::Hmac<H>` of each message; the key is prepared once for the batch and its keyed
/// states wiped after it.
///
/// ```
/// let messages = ["alice@example.com", "bob@example.com"];
/// let mut tags = [[0u8; 64]; 2];
/// multisha::hmac_many::<multisha::Sha512>(b"key", &messages, &mut tags);
/// ```
///
/// # Panics
/// If `messages` and `digests` differ in length (as `copy_from_slice` does).
pub fn hmac_many<H: HashFunction>(
    key: &[u8],
    messages: &[impl AsRef<[u8]>],
    digests: &mut [H::Digest],
) {
    keyed::<H>(None, key, messages, digests);
}

/// [`hmac_many`] with both hashes of every message on the many-message variant `pinned`
/// (`PinnedMany::hmac_many`), else planned.
pub(crate) fn keyed<H: HashFunction>(
    pinned: Option<&'static Variant>,
    key: &[u8],
    messages: &[impl AsRef<[u8]>],
    digests: &mut [H::Digest],
) {
    assert_eq!(
        messages.len(),
        digests.len(),
        "HMAC-{} of {} messages into {} digests: the lengths must be equal",
        H::OUTPUT.name,
        messages.len(),
        digests.len(),
    );
    if messages.is_empty() {
        return;
    }
    hash_rounds::<H>(pinned, key, messages, digests);
    // The kernels' dead frames may hold spills of the keyed states.
    multisha_contract::scrub_stack::<SCRUB_BYTES>();
}

/// [`hmac_many`]'s work, in a frame of its own: the keyed states and the inner digests wipe
/// as they drop, in place, at its end (on unwind too: a caller's `AsRef` may panic).
#[inline(never)]
fn hash_rounds<H: HashFunction>(
    pinned: Option<&'static Variant>,
    key: &[u8],
    messages: &[impl AsRef<[u8]>],
    digests: &mut [H::Digest],
) {
    let compress = dispatch::current::<H::Compression>();
    // SAFETY: the dispatcher's kernel runs on this CPU.
    let keys = unsafe { kdf::hmac_keys::<H::Compression>(compress, *H::IV, key, H::OUTPUT.len) };
    let (inner_start, outer_start) = (
        AfterBlocks::new(&keys.inner, 1),
        AfterBlocks::new(&keys.outer, 1),
    );
    let mut inner = InnerDigests::<H> {
        digests: [H::ZERO; ROUND],
        used: messages.len().min(ROUND),
    };
    for (messages, digests) in messages.chunks(ROUND).zip(digests.chunks_mut(ROUND)) {
        let inner = &mut inner.digests[..messages.len()];
        match pinned {
            None => {
                batch::hash_many_from::<H, _, _, _>(messages, inner, inner_start);
                batch::hash_many_from::<H, _, _, _>(&*inner, digests, outer_start);
            }
            Some(variant) => {
                batch::run_pinned_from::<H, _, _, _>(variant, inner_start, messages, inner);
                batch::run_pinned_from::<H, _, _, _>(variant, outer_start, &*inner, digests);
            }
        }
    }
    // The frames of everything called above (the keyed states' making, the executor, the
    // kernels): what they spilled of the keyed states and inner digests lies below this
    // frame, which holds the inner digests (8 KiB for SHA-256) and so puts them out of reach
    // of the caller's scrub.
    multisha_contract::scrub_stack::<SCRUB_BYTES>();
}

/// A round's inner digests, wiped when dropped (the slots a round used).
struct InnerDigests<H: HashFunction> {
    digests: [H::Digest; ROUND],
    used: usize,
}

impl<H: HashFunction> Drop for InnerDigests<H> {
    fn drop(&mut self) {
        for digest in &mut self.digests[..self.used] {
            wipe_secret("HMAC inner digest", digest.as_mut());
        }
    }
}

macro_rules! hmac_functions {
    ($($hasher:ident, $many:ident, $name:literal, $len:literal;)*) => {$(
        #[doc = concat!("HMAC-", $name, " (RFC 2104) of every message of `messages` under `key`, into the tag")]
        /// at the same index of `digests`: the same tags as `hmac::Hmac` of each message, with
        /// the key prepared once and the messages hashed several at a time on the CPU's
        /// multi-lane kernels where it has them. Keys of any length (longer than a block are
        /// hashed first); the key's keyed states and the inner digests are wiped after the
        /// batch.
        ///
        /// ```
        /// let emails = ["alice@example.com", "bob@example.com"];
        #[doc = concat!("let mut tags = [[0u8; ", stringify!($len), "]; 2];")]
        #[doc = concat!("multisha::", stringify!($many), "(b\"pseudonymisation key\", &emails, &mut tags);")]
        /// ```
        ///
        /// # Panics
        /// If `messages` and `digests` differ in length (as `copy_from_slice` does).
        pub fn $many<M: AsRef<[u8]>>(key: &[u8], messages: &[M], digests: &mut [[u8; $len]]) {
            hmac_many::<crate::$hasher>(key, messages, digests);
        }
    )*};
}

hmac_functions! {
    Sha1, hmac_sha1_many, "SHA1", 20;
    Sha224, hmac_sha224_many, "SHA224", 28;
    Sha256, hmac_sha256_many, "SHA256", 32;
    Sha384, hmac_sha384_many, "SHA384", 48;
    Sha512, hmac_sha512_many, "SHA512", 64;
    Sha512_224, hmac_sha512_224_many, "SHA512/224", 28;
    Sha512_256, hmac_sha512_256_many, "SHA512/256", 32;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::Visitor;
    use multisha_contract::harness::Reference;
    use std::vec::Vec;

    /// `len` pseudo-random bytes from `seed`, the same on every run.
    fn bytes(seed: u64, len: usize) -> Vec<u8> {
        multisha_contract::harness::TestRng::new(seed).bytes(len)
    }

    /// HMAC of `message` under `key` from the reference hash (RFC 2104 written out).
    fn reference<H: HashFunction>(key: &[u8], message: &[u8]) -> Vec<u8>
    where
        H::Compression: Reference,
    {
        let id = H::OUTPUT.id;
        let block = H::algorithm().block_len();
        let mut k = if key.len() > block {
            H::Compression::digest(id, key)
        } else {
            key.to_vec()
        };
        k.resize(block, 0);
        let pad = |byte: u8, rest: &[u8]| {
            let mut m: Vec<u8> = k.iter().map(|b| b ^ byte).collect();
            m.extend_from_slice(rest);
            m
        };
        let inner = H::Compression::digest(id, &pad(0x36, message));
        H::Compression::digest(id, &pad(0x5c, &inner))
    }

    struct Tags;

    impl Visitor for Tags {
        fn algorithm<A: crate::hash_function::Registered + Reference>(&mut self) {}

        fn function<H>(&mut self)
        where
            H: HashFunction + digest::Digest + digest::FixedOutputReset + Clone,
            H::Compression: Reference,
        {
            let block = H::algorithm().block_len();
            // Keys: empty, short, exactly a block, longer than a block (hashed first).
            for key_len in [0, 1, 20, block - 1, block, block + 1, 3 * block] {
                let key = bytes(key_len as u64 + 7, key_len);
                // Counts across the lanes' widths and past a round; lengths across the block
                // and padding boundaries, ragged and equal.
                for count in [1, 2, 3, 5, 16, 17, 40, ROUND + 3] {
                    for equal in [false, true] {
                        let messages: Vec<Vec<u8>> = (0..count)
                            .map(|i| {
                                let len = if equal {
                                    32
                                } else {
                                    (i * 37) % (3 * block + 2)
                                };
                                bytes((count * 1000 + i) as u64, len)
                            })
                            .collect();
                        let mut tags = std::vec![H::ZERO; count];
                        hmac_many::<H>(&key, &messages, &mut tags);
                        for (i, (message, tag)) in messages.iter().zip(&tags).enumerate() {
                            assert_eq!(
                                tag.as_ref(),
                                reference::<H>(&key, message).as_slice(),
                                "HMAC-{}, key of {key_len} bytes, message {i} of {count} ({} bytes)",
                                H::OUTPUT.name,
                                message.len()
                            );
                        }
                    }
                }
            }
            let mut none: [H::Digest; 0] = [];
            hmac_many::<H>(b"key", &[] as &[&[u8]], &mut none);
        }
    }

    /// The inner hash alone (messages after a keyed block) on every many-message variant and
    /// every plan shape: the executor's paths from a state other than the IV (equal lengths
    /// that are whole blocks, whose padding block is no longer the one-block constant; ragged
    /// lengths; one-block messages, whose entries are for the IV only).
    struct Inner;

    impl Visitor for Inner {
        fn algorithm<A: crate::hash_function::Registered + Reference>(&mut self) {}

        fn function<H>(&mut self)
        where
            H: HashFunction + digest::Digest + digest::FixedOutputReset + Clone,
            H::Compression: Reference,
        {
            let block = H::algorithm().block_len();
            let key = bytes(3, 10);
            let compress = dispatch::current::<H::Compression>();
            // SAFETY: the dispatcher's kernel runs on this CPU.
            let keys =
                unsafe { kdf::hmac_keys::<H::Compression>(compress, *H::IV, &key, H::OUTPUT.len) };
            let mut ipad = key.clone();
            ipad.resize(block, 0);
            for b in &mut ipad {
                *b ^= 0x36;
            }
            // The length of message `i` given the block length.
            type Length = fn(usize, usize) -> usize;
            let shapes: [(&str, Length); 4] = [
                ("one block each", |_, block| block),
                ("two blocks each", |_, block| 2 * block),
                ("empty", |_, _| 0),
                ("ragged", |i, block| (i * 29) % (3 * block)),
            ];
            for (label, len) in shapes {
                for count in [1, 2, 3, 4, 7, 8, 9, 16, 17, 33] {
                    let owned: Vec<Vec<u8>> =
                        (0..count).map(|i| bytes(i as u64, len(i, block))).collect();
                    let messages: Vec<&[u8]> = owned.iter().map(Vec::as_slice).collect();
                    let check = |how: &str, digests: &[H::Digest]| {
                        for (i, (message, digest)) in messages.iter().zip(digests).enumerate() {
                            let mut whole = ipad.clone();
                            whole.extend_from_slice(message);
                            assert_eq!(
                                digest.as_ref(),
                                H::Compression::digest(H::OUTPUT.id, &whole).as_slice(),
                                "{} {how}, {label}: message {i} of {count}",
                                H::OUTPUT.name,
                            );
                        }
                    };
                    let start = AfterBlocks::new(&keys.inner, 1);
                    batch::for_every_variant_from::<H, _>(&messages, start, check);
                    batch::for_every_plan_from::<H, _>(&messages, start, check);
                }
            }
        }
    }

    #[test]
    fn inner_hashes_from_a_keyed_state_on_every_variant_and_plan() {
        crate::algorithms::visit(&mut Inner);
    }

    #[test]
    fn every_function_matches_hmac_of_each_message() {
        crate::algorithms::visit(&mut Tags);
    }

    #[test]
    fn matches_rustcrypto_hmac() {
        use hmac::{KeyInit, Mac};
        let messages: Vec<Vec<u8>> = (0..50).map(|i| bytes(i, i as usize * 5)).collect();
        let mut tags = std::vec![[0u8; 32]; messages.len()];
        hmac_sha256_many(b"a key", &messages, &mut tags);
        for (message, tag) in messages.iter().zip(&tags) {
            let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(b"a key").unwrap();
            mac.update(message);
            assert_eq!(tag[..], mac.finalize().into_bytes()[..]);
        }
    }

    #[test]
    #[should_panic(expected = "HMAC-SHA-256 of 2 messages into 1 digests")]
    fn counts_that_differ_panic_with_both() {
        hmac_sha256_many(b"k", &[b"a", b"b"], &mut [[0u8; 32]; 1]);
    }
}
