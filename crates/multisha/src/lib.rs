//! SHA-1 and the SHA-2 family (SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224,
//! SHA-512/256) with several implementations ("variants") of each compression function, a CPU
//! probe that runs once, and the best variant installed behind a function pointer.
//!
//! ```toml
//! [dependencies]
//! multisha = "0.1"
//! # RustCrypto's, only for what uses them (the example below uses all three):
//! hmac = "0.13"
//! hkdf = "0.13"
//! pbkdf2 = "0.13"
//! ```
//!
//! For a RustCrypto user, `multisha::Sha256` replaces `sha2::Sha256` (and so on for every
//! function): the same `digest` 0.11 traits, so `hmac`, `hkdf` and `pbkdf2` take it as they
//! take `sha2`'s hashers, with the same serialized state.
//!
//! ```
//! use hkdf::Hkdf;
//! use hmac::{Hmac, KeyInit, Mac};
//! use multisha::{Digest, Sha256};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let digest = Sha256::digest(b"abc");
//!     assert_eq!(digest[..], multisha::sha256(b"abc"));
//!
//!     let mut mac = Hmac::<Sha256>::new_from_slice(b"key")?;
//!     mac.update(b"message");
//!     let _tag = mac.finalize().into_bytes();
//!
//!     let mut okm = [0u8; 42];
//!     Hkdf::<Sha256>::new(Some(b"salt"), b"input key material")
//!         .expand(b"info", &mut okm)
//!         .map_err(|e| e.to_string())?;
//!
//!     let mut key = [0u8; 32];
//!     pbkdf2::pbkdf2_hmac::<Sha256>(b"password", b"salt", 4096, &mut key);
//!     let ours = core::num::NonZeroU32::new(4096).unwrap();
//!     let mut same = [0u8; 32];
//!     multisha::pbkdf2_hmac_sha256(b"password", b"salt", ours, &mut same)?;
//!     assert_eq!(key, same);
//!
//!     // Many messages per call, from whatever holds them.
//!     let records: Vec<Vec<u8>> = vec![b"a".to_vec(), b"bc".to_vec(), Vec::new()];
//!     let mut digests = vec![[0u8; 32]; records.len()];
//!     multisha::sha256_many(&records, &mut digests);
//!     assert_eq!(digests[1], multisha::sha256(b"bc"));
//!     Ok(())
//! }
//! ```
//!
//! * [`Sha1`], [`Sha224`], [`Sha256`], [`Sha384`], [`Sha512`], [`Sha512_224`],
//!   [`Sha512_256`]: the hashers (`Digest`, `Hmac<multisha::Sha256>`, HKDF, PBKDF2, OIDs,
//!   `Reset`, serializable state, zeroized on drop).
//! * [`sha1()`], [`sha256()`], [`sha512()`], ...: one-shot functions, the fastest path for
//!   one short message.
//! * [`sha256_many`], [`sha1_many`], ... and [`sha256_pairs`]: many messages per call, on
//!   multi-lane kernels (AVX-512 16 and 32 lanes, for SHA-512 8 and 16; AVX2 8; SHA-NI 2 and
//!   4 streams; ARMv8 2 streams)
//!   that hash several messages at once; any number of messages of any lengths, in any
//!   container of byte containers. Each batch is planned by the kernels' costs, declared and
//!   then measured on the running CPU ([`engine::batch_costs`], [`engine::batch_plan`],
//!   [`engine::calibrate`]).
//! * [`hmac_sha256_many`], [`hmac_sha1_many`], ..., [`hmac_many`] for generic code: HMAC of
//!   many messages under one key (pseudonyms, per-record tags), the key's keyed states computed
//!   once and the messages' inner and outer hashes run as batches, on the lanes.
//! * [`pbkdf2_hmac_sha256`], [`pbkdf2_hmac_sha1`], ..., [`pbkdf2_hmac`] for generic code, and
//!   a constant-time [`pbkdf2_hmac_sha256_verify`] next to each: PBKDF2-HMAC with the keyed
//!   states computed once and every iteration in the kernel's own loop.
//! * [`engine`]: the algorithms, their variants (best first), what the dispatcher picked and
//!   why, overrides ([`engine::force`], the `MULTISHA_*` environment variables), pinned
//!   variants side by side ([`engine::Pinned`], [`engine::PinnedMany`],
//!   `Sha256::with_variant`), hash functions by name ([`engine::Function`]).
//!
//! # Features and CPUs
//! Rust 1.89 or newer; `#![no_std]`. The default features: `std` (the `MULTISHA_*`
//! environment overrides and CPU mask, measuring the batch costs on the running CPU,
//! `std::error::Error`, boxed hashers), `oid` (`AssociatedOid`), `zeroize` (`ZeroizeOnDrop`).
//! Without them the CPU is still probed and the best variant chosen, and batches are planned
//! from the declared costs.
//!
//! Every CPU runs the portable variants (same digests, slower). On x86-64, SHA-1 and SHA-256
//! use SHA-NI where the CPU has it, else AVX2 (SHA-256) or hand-written assembly (SHA-1);
//! SHA-512 uses AVX-512 or AVX2; on AArch64 all use the ARMv8 crypto extensions where
//! present. [`engine::active`] says what runs and why; [`engine::Algorithm::variants`] lists
//! every variant with its requirements, best first (`multisha variants` on the command line).
//!
//! SHA-1 is broken for collision resistance: it is here for compatibility (HMAC-SHA1,
//! PBKDF2-HMAC-SHA1, Git object names).
#![no_std]

// The tests use std (collections, formatting, threads) with the library's features off too.
#[cfg(any(test, feature = "std"))]
extern crate std;

mod algorithms;
mod batch;
pub mod block_api;
mod core_storage;
mod dispatch;
pub mod engine;
mod hash_function;
mod hmac;
mod kdf;
mod oneshot;
mod pbkdf2;
mod registry;
mod streaming;
#[cfg(test)]
mod tests;

pub use algorithms::*;
pub use digest::{self, Digest};
pub use hash_function::HashFunction;
pub use hmac::{
    hmac_many, hmac_sha1_many, hmac_sha224_many, hmac_sha256_many, hmac_sha384_many,
    hmac_sha512_224_many, hmac_sha512_256_many, hmac_sha512_many,
};
pub use kdf::Pbkdf2Error;
pub use pbkdf2::{
    pbkdf2_hmac, pbkdf2_hmac_sha1, pbkdf2_hmac_sha1_verify, pbkdf2_hmac_sha224,
    pbkdf2_hmac_sha224_verify, pbkdf2_hmac_sha256, pbkdf2_hmac_sha256_verify, pbkdf2_hmac_sha384,
    pbkdf2_hmac_sha384_verify, pbkdf2_hmac_sha512, pbkdf2_hmac_sha512_224,
    pbkdf2_hmac_sha512_224_verify, pbkdf2_hmac_sha512_256, pbkdf2_hmac_sha512_256_verify,
    pbkdf2_hmac_sha512_verify, pbkdf2_hmac_verify,
};

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
