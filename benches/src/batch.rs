//! The batch contenders: ways to hash many messages at once (every many-message variant this
//! CPU runs, pinned; the dispatched `*_many` function; `tape-sha256`; RustCrypto and ring one
//! message after the other), behind one interface, and the batch shapes the report measures.

use crate::contenders::Kind;
use multisha::engine::{Algorithm, Function, Interface, PinnedMany};
use multisha::{Digest, HashFunction};
use std::fmt;

/// Hashes a batch: every message's digest, end to end, into the output buffer.
type Run = Box<dyn Fn(&[&[u8]], &mut [u8])>;

/// One way to hash a batch of messages of one hash function (SHA-1, SHA-256, SHA-384,
/// SHA-512).
pub struct BatchContender {
    name: String,
    kind: Kind,
    digest_len: usize,
    description: String,
    run: Run,
}

impl fmt::Debug for BatchContender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BatchContender({})", self.name)
    }
}

impl BatchContender {
    /// A contender that hashes a batch with `run` (every message's `digest_len`-byte digest,
    /// end to end, into the output buffer).
    pub fn new(
        name: &str,
        kind: Kind,
        digest_len: usize,
        description: &str,
        run: impl Fn(&[&[u8]], &mut [u8]) + 'static,
    ) -> Self {
        Self {
            name: name.into(),
            kind,
            digest_len,
            description: description.into(),
            run: Box::new(run),
        }
    }

    /// The variant name, `dispatched`, or the peer's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What it is.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Bytes per digest.
    pub fn digest_len(&self) -> usize {
        self.digest_len
    }

    /// One line on what it is.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Hashes `messages` into `out` (`digest_len()` bytes per message, end to end).
    ///
    /// # Panics
    /// If `out` is not `messages.len() * digest_len()` bytes long.
    #[inline]
    pub fn run(&self, messages: &[&[u8]], out: &mut [u8]) {
        assert_eq!(out.len(), messages.len() * self.digest_len);
        (self.run)(messages, out);
    }
}

/// The multisha batch contenders of `H`: every many-message variant this CPU runs, pinned
/// (each alone), then the dispatched `*_many` function.
fn family<H: HashFunction>() -> Vec<BatchContender> {
    let len = H::OUTPUT.len;
    let mut all: Vec<BatchContender> = H::algorithm()
        .variants()
        .iter()
        .filter(|v| v.interface() == Interface::Many)
        .filter_map(|variant| {
            let pinned = PinnedMany::<H>::new(variant.name()).ok()?;
            Some(BatchContender {
                name: variant.name().to_string(),
                kind: Kind::Variant,
                digest_len: len,
                description: format!(
                    "{} lane{}: {}",
                    variant.lanes(),
                    if variant.lanes() == 1 { "" } else { "s" },
                    variant.description()
                ),
                run: Box::new(move |messages, out| {
                    let mut digests = vec![H::ZERO; messages.len()];
                    pinned.hash_many(messages, &mut digests);
                    for (chunk, digest) in out.chunks_exact_mut(len).zip(&digests) {
                        chunk.copy_from_slice(digest.as_ref());
                    }
                }),
            })
        })
        .collect();
    let function = Function::from_id(H::id()).expect("a hash function");
    all.push(BatchContender {
        name: "dispatched".into(),
        kind: Kind::Dispatched,
        digest_len: len,
        description: format!(
            "multisha::{}_many (planned per batch by kernel costs; long batches on {})",
            H::id(),
            H::algorithm().active_many().variant.name()
        ),
        run: Box::new(move |messages, out| function.digest_many_into(messages, out)),
    });
    all
}

/// A peer hashing one message after the other.
fn serial_peer(
    name: &str,
    digest_len: usize,
    description: &str,
    digest: impl Fn(&[u8], &mut [u8]) + 'static,
) -> BatchContender {
    BatchContender::new(
        name,
        Kind::Peer,
        digest_len,
        description,
        move |messages, out| {
            for (message, chunk) in messages.iter().zip(out.chunks_exact_mut(digest_len)) {
                digest(message, chunk);
            }
        },
    )
}

fn rustcrypto<D: Digest + 'static>(crate_name: &str) -> BatchContender {
    let len = <D as Digest>::output_size();
    serial_peer(
        "rustcrypto",
        len,
        &format!("RustCrypto {crate_name} 0.11, one message after the other"),
        |message, out| out.copy_from_slice(&D::digest(message)),
    )
}

fn ring(algorithm: &'static ring::digest::Algorithm) -> BatchContender {
    serial_peer(
        "ring",
        algorithm.output_len(),
        "ring 0.17, one message after the other",
        move |message, out| out.copy_from_slice(ring::digest::digest(algorithm, message).as_ref()),
    )
}

fn tape() -> BatchContender {
    BatchContender {
        name: "tape-sha256".into(),
        kind: Kind::Peer,
        digest_len: 32,
        description: format!(
            "tape-sha256 0.2 hash_many (backend {}, {} lanes)",
            tape_sha256::backend(),
            tape_sha256::lane_width()
        ),
        run: Box::new(|messages, out| {
            let mut digests = vec![[0u8; 32]; messages.len()];
            tape_sha256::hash_many(messages, &mut digests);
            for (chunk, digest) in out.chunks_exact_mut(32).zip(&digests) {
                chunk.copy_from_slice(digest);
            }
        }),
    }
}

/// The hash functions whose batches the report measures for `algorithm`: its main output,
/// and SHA-384 beside SHA-512 (certificate and file fingerprints hash in bulk with both).
pub fn batch_functions(algorithm: Algorithm) -> Vec<Function> {
    let ids: &[&str] = if algorithm == Algorithm::Sha512 {
        &["sha512", "sha384"]
    } else {
        &[algorithm.id()]
    };
    ids.iter()
        .map(|id| Function::from_id(id).expect("a hash function"))
        .filter(|f| f.algorithm() == algorithm)
        .collect()
}

/// Every batch contender of `function` (one of [`batch_functions`]); none for another.
pub fn batch_contenders(function: Function) -> Vec<BatchContender> {
    match function.id() {
        "sha1" => {
            let mut all = family::<multisha::Sha1>();
            all.push(rustcrypto::<sha1::Sha1>("sha1"));
            all.push(ring(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY));
            all
        }
        "sha256" => {
            let mut all = family::<multisha::Sha256>();
            all.push(tape());
            all.push(rustcrypto::<sha2::Sha256>("sha2"));
            all.push(ring(&ring::digest::SHA256));
            all
        }
        "sha384" => {
            let mut all = family::<multisha::Sha384>();
            all.push(rustcrypto::<sha2::Sha384>("sha2"));
            all.push(ring(&ring::digest::SHA384));
            all
        }
        "sha512" => {
            let mut all = family::<multisha::Sha512>();
            all.push(rustcrypto::<sha2::Sha512>("sha2"));
            all.push(ring(&ring::digest::SHA512));
            all
        }
        _ => Vec::new(),
    }
}

/// One batch the report measures: its label and its messages.
#[derive(Debug)]
pub struct BatchShape {
    /// What it is (`256 x 4 KiB`, `mixed 0-8 KiB`, ...).
    pub label: String,
    /// The message length if all are equal (for the plot).
    pub equal_len: Option<usize>,
    /// The messages.
    pub messages: Vec<Vec<u8>>,
}

impl BatchShape {
    /// The messages as slices.
    pub fn slices(&self) -> Vec<&[u8]> {
        self.messages.iter().map(Vec::as_slice).collect()
    }

    /// Total bytes.
    pub fn bytes(&self) -> usize {
        self.messages.iter().map(Vec::len).sum()
    }
}

/// Deterministic message bytes (xorshift), so every run measures the same batches.
fn bytes(seed: &mut u64, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed as u8
        })
        .collect()
}

/// The batches: equal lengths of 32 B to 16 KiB (enough messages to fill every lane many
/// times), mixed lengths of 0 to 8 KiB, and small batches: 3, 5 and 8 messages of 4 KiB, 4 of
/// 64 B and 8 of 128 B.
/// `sizes` (if given) keeps the equal-length batches of those lengths only.
pub fn batch_shapes(sizes: Option<&[usize]>) -> Vec<BatchShape> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut shapes = Vec::new();
    for len in [32usize, 64, 1024, 4096, 16384] {
        if sizes.is_some_and(|s| !s.contains(&len)) {
            continue;
        }
        let count = if len >= 16384 { 64 } else { 256 };
        shapes.push(BatchShape {
            label: format!("{count} x {}", crate::size_label(len)),
            equal_len: Some(len),
            messages: (0..count).map(|_| bytes(&mut seed, len)).collect(),
        });
    }
    if sizes.is_none() {
        let lens: Vec<usize> = (0..256)
            .map(|_| {
                (bytes(&mut seed, 2)
                    .iter()
                    .fold(0usize, |a, &b| a << 8 | b as usize))
                    % 8193
            })
            .collect();
        shapes.push(BatchShape {
            label: "256 mixed 0-8 KiB".into(),
            equal_len: None,
            messages: lens.iter().map(|&len| bytes(&mut seed, len)).collect(),
        });
        // Few messages: long ones (the last share the lanes by rotation), short ones on both
        // sides of the size where the planner starts using the lanes, and short ones a few
        // more than the lanes (no rotation).
        for (count, len) in [
            (3usize, 4096usize),
            (5, 4096),
            (8, 4096),
            (4, 64),
            (8, 128),
            (6, 256),
        ] {
            shapes.push(BatchShape {
                label: format!("{count} x {}", crate::size_label(len)),
                equal_len: None,
                messages: (0..count).map(|_| bytes(&mut seed, len)).collect(),
            });
        }
    }
    shapes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every batch contender gives every message's one-shot digest, on every shape.
    #[test]
    fn every_batch_contender_agrees_with_the_one_shot_functions() {
        let shapes = batch_shapes(Some(&[32, 1024]));
        let functions: Vec<Function> = Algorithm::ALL
            .iter()
            .flat_map(|&a| batch_functions(a))
            .collect();
        let ids: Vec<&str> = functions.iter().map(|f| f.id()).collect();
        assert_eq!(ids, ["sha1", "sha256", "sha512", "sha384"]);
        for function in functions {
            let all = batch_contenders(function);
            assert!(
                all.iter().any(|c| c.kind() == Kind::Dispatched),
                "{function:?}"
            );
            let reference = all.iter().find(|c| c.name() == "rustcrypto").expect("peer");
            for shape in &shapes {
                let messages = shape.slices();
                let mut want = vec![0u8; messages.len() * reference.digest_len()];
                reference.run(&messages, &mut want);
                for contender in &all {
                    let mut got = vec![0u8; messages.len() * contender.digest_len()];
                    contender.run(&messages, &mut got);
                    assert_eq!(got, want, "{function:?} {contender:?} on {}", shape.label);
                }
            }
        }
    }
}
