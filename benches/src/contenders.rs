//! The contenders: a name, what it is, and two hashing entry points (one-shot and streaming)
//! as boxed closures, so callers loop over them without knowing the concrete hasher.

use multisha::{Algorithm, Digest, Pinned, Variant};
use std::fmt;

/// A digest of either algorithm, zero-padded to 32 bytes so hashing never allocates.
pub type Output = [u8; 32];

type OneShot = Box<dyn Fn(&[u8]) -> Output>;
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

fn pad(digest: &[u8]) -> Output {
    let mut out = [0u8; 32];
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

fn stream_ring(algorithm: &'static ring::digest::Algorithm, data: &[u8], chunk: usize) -> Output {
    let mut context = ring::digest::Context::new(algorithm);
    for piece in data.chunks(chunk.max(1)) {
        context.update(piece);
    }
    pad(context.finish().as_ref())
}

macro_rules! stream_openssl {
    ($hasher:ty, $data:expr, $chunk:expr) => {{
        let mut hasher = <$hasher>::new();
        for piece in $data.chunks($chunk.max(1)) {
            hasher.update(piece);
        }
        pad(&hasher.finish())
    }};
}

fn contender(
    name: &str,
    kind: Kind,
    variant: Option<&'static Variant>,
    algorithm: Algorithm,
    oneshot: OneShot,
    stream: Stream,
) -> Contender {
    Contender {
        name: name.to_string(),
        kind,
        algorithm,
        variant,
        oneshot,
        stream,
    }
}

fn pinned(variant: &'static Variant) -> Option<Contender> {
    let pin = Pinned::from_variant(variant).ok()?;
    let name = variant.name();
    let algorithm = variant.algorithm();
    let (oneshot, stream): (OneShot, Stream) = match algorithm {
        Algorithm::Sha1 => {
            let fresh = multisha::Sha1::with_variant(name).ok()?;
            (
                Box::new(move |d| pad(&pin.sha1(d).unwrap_or_default())),
                Box::new(move |d, c| stream_clone(&fresh, d, c)),
            )
        }
        Algorithm::Sha256 => {
            let fresh = multisha::Sha256::with_variant(name).ok()?;
            (
                Box::new(move |d| pin.sha256(d).unwrap_or_default()),
                Box::new(move |d, c| stream_clone(&fresh, d, c)),
            )
        }
    };
    Some(contender(
        name,
        Kind::Variant,
        Some(variant),
        algorithm,
        oneshot,
        stream,
    ))
}

/// Every contender for `algorithm`: the variants this CPU runs (registry order, best first),
/// then the dispatched path, then the peers `rustcrypto`, `ring` and `openssl`.
pub fn contenders(algorithm: Algorithm) -> Vec<Contender> {
    let mut all: Vec<Contender> = multisha::variants(algorithm)
        .iter()
        .filter_map(pinned)
        .collect();
    let dispatched = Some(multisha::active(algorithm).variant);
    let peer =
        |name, oneshot, stream| contender(name, Kind::Peer, None, algorithm, oneshot, stream);
    match algorithm {
        Algorithm::Sha1 => {
            all.push(contender(
                "dispatched",
                Kind::Dispatched,
                dispatched,
                algorithm,
                Box::new(|d| pad(&multisha::sha1(d))),
                Box::new(stream_new::<multisha::Sha1>),
            ));
            all.push(peer(
                "rustcrypto",
                Box::new(|d| pad(&sha1::Sha1::digest(d))),
                Box::new(stream_new::<sha1::Sha1>),
            ));
            all.push(peer(
                "ring",
                Box::new(|d| {
                    pad(ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, d).as_ref())
                }),
                Box::new(|d, c| stream_ring(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, d, c)),
            ));
            all.push(peer(
                "openssl",
                // The low-level context, not `openssl::sha::sha1`: OpenSSL 3's one-shot SHA1()
                // fetches an EVP implementation per call, which would measure the fetch.
                Box::new(|d| stream_openssl!(openssl::sha::Sha1, d, d.len())),
                Box::new(|d, c| stream_openssl!(openssl::sha::Sha1, d, c)),
            ));
        }
        Algorithm::Sha256 => {
            all.push(contender(
                "dispatched",
                Kind::Dispatched,
                dispatched,
                algorithm,
                Box::new(multisha::sha256),
                Box::new(stream_new::<multisha::Sha256>),
            ));
            all.push(peer(
                "rustcrypto",
                Box::new(|d| pad(&sha2::Sha256::digest(d))),
                Box::new(stream_new::<sha2::Sha256>),
            ));
            all.push(peer(
                "ring",
                Box::new(|d| pad(ring::digest::digest(&ring::digest::SHA256, d).as_ref())),
                Box::new(|d, c| stream_ring(&ring::digest::SHA256, d, c)),
            ));
            all.push(peer(
                "openssl",
                // As for SHA-1: the low-level context avoids OpenSSL 3's per-call EVP fetch.
                Box::new(|d| stream_openssl!(openssl::sha::Sha256, d, d.len())),
                Box::new(|d, c| stream_openssl!(openssl::sha::Sha256, d, c)),
            ));
        }
    }
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
        ];
        for (algorithm, expected) in answers {
            let all = contenders(algorithm);
            assert!(all.iter().any(|c| c.kind() == Kind::Dispatched));
            for contender in &all {
                let len = expected.len() / 2;
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
}
