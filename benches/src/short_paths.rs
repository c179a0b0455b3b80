//! The short-message paths of the RustCrypto API (`new`/`update`/`finalize`, the same fed a
//! few bytes a call, HMAC) through multisha and through the RustCrypto hasher it replaces, for
//! the report's short-path section.

use crate::contenders::{OneShot, Output, pad};
use multisha::engine::Algorithm;
use multisha::{Digest, HashFunction};
use std::fmt;

/// One short-message path measured against the RustCrypto crate multisha replaces: the same
/// operation through both, for the report's short-path section.
pub struct ShortPath {
    /// The hash function (`SHA-256`).
    pub function: &'static str,
    /// Its compression function.
    pub algorithm: Algorithm,
    /// The operation (`new/update/finalize`, `HMAC, 32-byte key`).
    pub path: &'static str,
    /// Through multisha.
    pub ours: OneShot,
    /// Through RustCrypto.
    pub theirs: OneShot,
}

impl fmt::Debug for ShortPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ShortPath({} {})", self.function, self.path)
    }
}

/// The key of the HMAC short path: 32 bytes, as for HMAC-SHA256 keys in practice.
const HMAC_KEY: [u8; 32] = [0x4b; 32];

fn digest_path<D: Digest + 'static>(data: &[u8]) -> Output {
    let mut hasher = D::new();
    hasher.update(data);
    pad(&hasher.finalize())
}

/// The message fed a few bytes a call (a parser, a writer of small pieces): the partial-block
/// bookkeeping of every call, which a single update of a short message hardly shows.
fn pieces_path<D: Digest + 'static>(data: &[u8]) -> Output {
    let mut hasher = D::new();
    for piece in data.chunks(PIECE) {
        hasher.update(piece);
    }
    pad(&hasher.finalize())
}

/// The piece of [`pieces_path`]: prime to the block sizes, so that pieces start at every
/// offset of a block.
const PIECE: usize = 7;

fn hmac_path<D>(data: &[u8]) -> Output
where
    D: multisha::digest::block_api::EagerHash + 'static,
{
    use hmac::{KeyInit, Mac};
    let mut mac = <hmac::Hmac<D> as KeyInit>::new_from_slice(&HMAC_KEY).expect("any key length");
    mac.update(data);
    pad(&mac.finalize().into_bytes())
}

macro_rules! short_paths {
    ($($name:literal: $ours:ty, $theirs:ty;)*) => {
        vec![$(
            short_paths!(@path $name, $ours, $theirs, "new/update/finalize", digest_path),
            short_paths!(@path $name, $ours, $theirs, "update 7 bytes a call", pieces_path),
            short_paths!(@path $name, $ours, $theirs, "HMAC, 32-byte key", hmac_path),
        )*]
    };
    (@path $name:literal, $ours:ty, $theirs:ty, $path:literal, $run:ident) => {
        ShortPath {
            function: $name,
            algorithm: <$ours as HashFunction>::algorithm(),
            path: $path,
            ours: Box::new($run::<$ours>),
            theirs: Box::new($run::<$theirs>),
        }
    };
}

/// Every hash function's short paths (`digest` API and HMAC) through multisha and through the
/// RustCrypto hasher it replaces.
pub fn short_paths() -> Vec<ShortPath> {
    short_paths! {
        "SHA-1": multisha::Sha1, sha1::Sha1;
        "SHA-224": multisha::Sha224, sha2::Sha224;
        "SHA-256": multisha::Sha256, sha2::Sha256;
        "SHA-384": multisha::Sha384, sha2::Sha384;
        "SHA-512": multisha::Sha512, sha2::Sha512;
        "SHA-512/224": multisha::Sha512_224, sha2::Sha512_224;
        "SHA-512/256": multisha::Sha512_256, sha2::Sha512_256;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_of_every_short_path_agree() {
        let paths = short_paths();
        assert_eq!(paths.len(), 3 * multisha::engine::Function::ALL.len());
        for path in &paths {
            for len in [0, 16, 64, 200] {
                let data = vec![7u8; len];
                assert_eq!(
                    (path.ours)(&data),
                    (path.theirs)(&data),
                    "{path:?} at {len} bytes"
                );
            }
        }
    }
}
