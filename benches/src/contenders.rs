//! The contenders: a name, what it is, and two hashing entry points (one-shot and streaming)
//! as boxed closures, so callers loop over them without knowing the concrete hasher.
//!
//! The multisha side is generic over the hash function ([`family`]); what is per algorithm is
//! only the list of peers ([`peers`]).

use multisha::engine::{Algorithm, Pinned, Variant};
use multisha::{Digest, HashFunction};
use std::fmt;

/// A digest of any algorithm, zero-padded to 64 bytes so hashing never allocates.
pub type Output = [u8; 64];

pub(crate) type OneShot = Box<dyn Fn(&[u8]) -> Output>;
type Stream = Box<dyn Fn(&[u8], usize) -> Output>;

/// What a contender is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One multisha variant, pinned.
    Variant,
    /// multisha's dispatched path (`multisha::sha256`, `multisha::Sha256::new()`).
    Dispatched,
    /// Another library.
    Peer,
}

impl Kind {
    /// A lower-case word for tables and JSON.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Variant => "variant",
            Kind::Dispatched => "dispatched",
            Kind::Peer => "peer",
        }
    }
}

/// One implementation of one algorithm that the benches measure.
pub struct Contender {
    name: String,
    kind: Kind,
    algorithm: Algorithm,
    variant: Option<&'static Variant>,
    digest_len: usize,
    description: String,
    oneshot: OneShot,
    stream: Stream,
}

impl fmt::Debug for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Contender")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("algorithm", &self.algorithm)
            .finish_non_exhaustive()
    }
}

impl Contender {
    /// The variant name, `dispatched`, or the peer's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What it is.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The algorithm it computes.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The multisha variant it runs: the pinned one, or the dispatched choice.
    pub fn variant(&self) -> Option<&'static Variant> {
        self.variant
    }

    /// Bytes of the digest it computes (the rest of an [`Output`] is zero).
    pub fn digest_len(&self) -> usize {
        self.digest_len
    }

    /// One line on what it is.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The digest of `data` through the library's one-shot function.
    #[inline]
    pub fn oneshot(&self, data: &[u8]) -> Output {
        (self.oneshot)(data)
    }

    /// The digest of `data` through a streaming hasher: new, `update` with pieces of `chunk`
    /// bytes (the last one shorter), finalize.
    #[inline]
    pub fn stream(&self, data: &[u8], chunk: usize) -> Output {
        (self.stream)(data, chunk)
    }
}

pub(crate) fn pad(digest: &[u8]) -> Output {
    let mut out = [0u8; 64];
    out[..digest.len()].copy_from_slice(digest);
    out
}

/// Streams `data` through a clone of `fresh` (cloning a fresh hasher is the cheapest "new" for
/// a pinned multisha hasher, whose constructor looks its variant up by name).
fn stream_clone<D: Digest + Clone>(fresh: &D, data: &[u8], chunk: usize) -> Output {
    let mut hasher = fresh.clone();
    // `chunks(0)` panics; a zero chunk means "all at once".
    for piece in data.chunks(chunk.max(1)) {
        hasher.update(piece);
    }
    pad(&hasher.finalize())
}

fn stream_new<D: Digest>(data: &[u8], chunk: usize) -> Output {
    let mut hasher = D::new();
    for piece in data.chunks(chunk.max(1)) {
        hasher.update(piece);
    }
    pad(&hasher.finalize())
}

/// The multisha contenders of hash function `H`: every variant this CPU runs, pinned (registry
/// order, best first), then the dispatched path.
fn family<H>() -> Vec<Contender>
where
    H: HashFunction + Digest + Clone + 'static,
{
    let algorithm = H::algorithm();
    let digest_len = <H as Digest>::output_size();
    let mut all: Vec<Contender> = algorithm
        .variants()
        .iter()
        .filter_map(|variant| {
            let pin = Pinned::<H>::from_variant(variant).ok()?;
            let fresh = <H as HashFunction>::with_variant(variant.name()).ok()?;
            Some(Contender {
                name: variant.name().to_string(),
                kind: Kind::Variant,
                algorithm,
                variant: Some(variant),
                digest_len,
                description: variant.description().to_string(),
                oneshot: Box::new(move |d| pad(pin.hash(d).as_ref())),
                stream: Box::new(move |d, c| stream_clone(&fresh, d, c)),
            })
        })
        .collect();
    let dispatched = algorithm.active().variant;
    all.push(Contender {
        name: "dispatched".into(),
        kind: Kind::Dispatched,
        algorithm,
        variant: Some(dispatched),
        digest_len,
        description: format!(
            "multisha::{}() one-shot, its hasher's new()/update()/finalize() streaming",
            H::id()
        ),
        oneshot: Box::new(|d| pad(H::oneshot(d).as_ref())),
        stream: Box::new(stream_new::<H>),
    });
    all
}

fn peer(
    name: &str,
    algorithm: Algorithm,
    digest_len: usize,
    description: &str,
    oneshot: OneShot,
    stream: Stream,
) -> Contender {
    Contender {
        name: name.to_string(),
        kind: Kind::Peer,
        algorithm,
        variant: None,
        digest_len,
        description: description.to_string(),
        oneshot,
        stream,
    }
}

/// A RustCrypto hasher as a peer.
fn rustcrypto<D: Digest + 'static>(algorithm: Algorithm, crate_name: &str) -> Contender {
    peer(
        "rustcrypto",
        algorithm,
        <D as Digest>::output_size(),
        &format!("RustCrypto {crate_name} 0.11 (own CPU dispatch, SHA-NI/ARMv8 when present)"),
        Box::new(|d| pad(&D::digest(d))),
        Box::new(stream_new::<D>),
    )
}

/// A ring algorithm as a peer.
fn ring(algorithm: Algorithm, digest: &'static ring::digest::Algorithm) -> Contender {
    peer(
        "ring",
        algorithm,
        digest.output_len(),
        "ring 0.17 (BoringSSL-derived assembly)",
        Box::new(move |d| pad(ring::digest::digest(digest, d).as_ref())),
        Box::new(move |d, c| {
            let mut context = ring::digest::Context::new(digest);
            for piece in d.chunks(c.max(1)) {
                context.update(piece);
            }
            pad(context.finish().as_ref())
        }),
    )
}

/// An OpenSSL low-level hasher as a peer (not the one-shot `openssl::sha::sha256`: OpenSSL 3's
/// one-shot functions fetch an EVP implementation per call, which would measure the fetch).
#[cfg(feature = "openssl")]
macro_rules! openssl {
    ($algorithm:expr, $hasher:ty, $len:expr) => {{
        fn run(data: &[u8], chunk: usize) -> Output {
            let mut hasher = <$hasher>::new();
            for piece in data.chunks(chunk.max(1)) {
                hasher.update(piece);
            }
            pad(&hasher.finish())
        }
        peer(
            "openssl",
            $algorithm,
            $len,
            "system OpenSSL through the openssl crate (low-level SHA API)",
            Box::new(|d| run(d, d.len())),
            Box::new(run),
        )
    }};
}

/// The peers that could not be built into this binary, with why (the report says so).
pub fn missing_peers() -> Vec<(&'static str, &'static str)> {
    let mut missing = Vec::new();
    if cfg!(not(feature = "openssl")) {
        missing.push((
            "openssl",
            "built without the `openssl` feature (the OpenSSL headers, libssl-dev and \
             pkg-config, were not found)",
        ));
        missing.push((
            "fastpbkdf2",
            "the PBKDF2 peer in C, which links OpenSSL's libcrypto, comes with the `openssl` \
             feature",
        ));
    }
    missing
}

/// The peers of `algorithm`: RustCrypto, ring and (with the `openssl` feature) OpenSSL.
fn peers(algorithm: Algorithm) -> Vec<Contender> {
    let mut all = Vec::new();
    if algorithm == Algorithm::Sha1 {
        all.push(rustcrypto::<sha1::Sha1>(algorithm, "sha1"));
        all.push(ring(algorithm, &ring::digest::SHA1_FOR_LEGACY_USE_ONLY));
        #[cfg(feature = "openssl")]
        all.push(openssl!(algorithm, openssl::sha::Sha1, 20));
    } else if algorithm == Algorithm::Sha256 {
        all.push(rustcrypto::<sha2::Sha256>(algorithm, "sha2"));
        all.push(ring(algorithm, &ring::digest::SHA256));
        #[cfg(feature = "openssl")]
        all.push(openssl!(algorithm, openssl::sha::Sha256, 32));
    } else if algorithm == Algorithm::Sha512 {
        all.push(rustcrypto::<sha2::Sha512>(algorithm, "sha2"));
        all.push(ring(algorithm, &ring::digest::SHA512));
        #[cfg(feature = "openssl")]
        all.push(openssl!(algorithm, openssl::sha::Sha512, 64));
    }
    all
}

/// Every contender for `algorithm` (its main output: SHA-1, SHA-256, SHA-512): the variants
/// this CPU runs (registry order, best first), then the dispatched path, then the peers.
pub fn contenders(algorithm: Algorithm) -> Vec<Contender> {
    let mut all = if algorithm == Algorithm::Sha1 {
        family::<multisha::Sha1>()
    } else if algorithm == Algorithm::Sha256 {
        family::<multisha::Sha256>()
    } else if algorithm == Algorithm::Sha512 {
        family::<multisha::Sha512>()
    } else {
        Vec::new()
    };
    all.extend(peers(algorithm));
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// FIPS 180 "abc" answers, one-shot and streamed, so a miswired contender fails in CI
    /// and not only when someone runs the report.
    #[test]
    fn every_contender_gives_the_known_answer() {
        let answers = [
            (Algorithm::Sha1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
            (
                Algorithm::Sha256,
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            ),
            (
                Algorithm::Sha512,
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            ),
        ];
        for (algorithm, expected) in answers {
            let all = contenders(algorithm);
            assert!(all.iter().any(|c| c.kind() == Kind::Dispatched));
            assert!(all.iter().filter(|c| c.kind() == Kind::Peer).count() >= 2);
            for contender in &all {
                let len = expected.len() / 2;
                assert_eq!(contender.digest_len(), len, "{contender:?}");
                assert_eq!(
                    hex(&contender.oneshot(b"abc")[..len]),
                    expected,
                    "{contender:?} one-shot"
                );
                assert_eq!(
                    hex(&contender.stream(b"abc", 1)[..len]),
                    expected,
                    "{contender:?} streamed"
                );
            }
        }
    }

    #[test]
    fn every_algorithm_has_contenders() {
        for &algorithm in Algorithm::ALL {
            let all = contenders(algorithm);
            assert!(
                all.iter().any(|c| c.kind() == Kind::Dispatched),
                "{algorithm}"
            );
        }
    }
}
