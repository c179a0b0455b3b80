//! SHA-1 and the SHA-2 family (SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224,
//! SHA-512/256) with several implementations ("variants") of each compression function, a CPU
//! probe that runs once, and the best variant installed behind a function pointer.
//!
//! * [`Sha1`], [`Sha224`], [`Sha256`], [`Sha384`], [`Sha512`], [`Sha512_224`],
//!   [`Sha512_256`]: drop-in RustCrypto `digest` 0.11 hashers (`Digest`,
//!   `Hmac<multisha::Sha256>`, HKDF, PBKDF2, OIDs, `Reset`, serializable state, zeroized on
//!   drop).
//! * [`sha1()`], [`sha256()`], [`sha512()`], ...: one-shot functions, the fastest path for
//!   one short message.
//! * [`sha256_many`], [`sha1_many`], ... and [`sha256_pairs`]: many messages per call, on
//!   multi-lane kernels (AVX-512 16 lanes, AVX2 8, SHA-NI 2 and 4 streams, ARMv8 2 streams)
//!   that hash several messages at once; any number of messages of any lengths. Each batch
//!   is planned: which kernels run which messages is the plan of least predicted time by
//!   the kernels' costs, declared and then measured on the running CPU once the batch work
//!   pays for it ([`engine::batch_costs`], [`engine::batch_plan`], [`engine::calibrate`]).
//! * [`pbkdf2_hmac_sha256`], [`pbkdf2_hmac_sha1`], ... and a constant-time
//!   [`pbkdf2_hmac_sha256_verify`] next to each: PBKDF2-HMAC with the keyed states computed
//!   once and every iteration in the kernel's own loop, the state kept in its registers.
//! * [`engine`]: the algorithms, their variants (best first), what the dispatcher picked and
//!   why, overrides ([`engine::force`], the `MULTISHA_*` environment variables), pinned
//!   variants side by side ([`engine::Pinned`], [`engine::PinnedMany`],
//!   `Sha256::with_variant`), hash functions by name ([`engine::Function`]).
//!
//! ```
//! use multisha::{Digest, Sha256};
//! let digest = Sha256::digest(b"abc");
//! assert_eq!(digest[..], multisha::sha256(b"abc"));
//! println!("SHA-256 runs {}", Sha256::new().variant());
//!
//! let messages: [&[u8]; 3] = [b"a", b"bc", b""];
//! let mut digests = [[0u8; 32]; 3];
//! multisha::sha256_many(&messages, &mut digests);
//! assert_eq!(digests[1], multisha::sha256(b"bc"));
//! ```
//!
//! The variants, their requirements and their order are listed by
//! [`engine::Algorithm::variants`], `multisha variants` on the command line, and the README's
//! table (checked against the registry by a test); `cargo xtask report` measures them.
#![no_std]

// The tests use std (collections, formatting, threads) with the library's features off too.
#[cfg(any(test, feature = "std"))]
extern crate std;

mod algorithms;
mod batch;
pub mod block_api;
mod dispatch;
pub mod engine;
mod hash_function;
mod kdf;
mod oneshot;
mod pbkdf2;
mod registry;
#[cfg(test)]
mod tests;

pub use algorithms::*;
pub use digest::{self, Digest};
pub use hash_function::HashFunction;
pub use kdf::Pbkdf2Error;
pub use pbkdf2::{
    pbkdf2_hmac_sha1, pbkdf2_hmac_sha1_verify, pbkdf2_hmac_sha224, pbkdf2_hmac_sha224_verify,
    pbkdf2_hmac_sha256, pbkdf2_hmac_sha256_verify, pbkdf2_hmac_sha384, pbkdf2_hmac_sha384_verify,
    pbkdf2_hmac_sha512, pbkdf2_hmac_sha512_224, pbkdf2_hmac_sha512_224_verify,
    pbkdf2_hmac_sha512_256, pbkdf2_hmac_sha512_256_verify, pbkdf2_hmac_sha512_verify,
};

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
