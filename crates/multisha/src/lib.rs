//! SHA-1, SHA-224 and SHA-256 with several implementations ("variants") of each compression
//! function, a CPU probe that runs once, and the best variant installed behind a function
//! pointer.
//!
//! * [`Sha1`], [`Sha224`], [`Sha256`]: drop-in RustCrypto `digest` 0.11 hashers (`Digest`,
//!   `Hmac<multisha::Sha256>`, HKDF, PBKDF2, OIDs, `Reset`, serializable state, zeroized on
//!   drop).
//! * [`sha1()`], [`sha224()`], [`sha256()`]: one-shot functions, the fastest path for short
//!   messages.
//! * [`engine`]: the algorithms, their variants (best first), what the dispatcher picked and
//!   why, overrides ([`engine::force`], the `MULTISHA_*` environment variables), pinned
//!   variants side by side ([`engine::Pinned`], `Sha256::with_variant`).
//!
//! ```
//! use multisha::{Digest, Sha256};
//! let digest = Sha256::digest(b"abc");
//! assert_eq!(digest[..], multisha::sha256(b"abc"));
//! println!("SHA-256 runs {}", Sha256::new().variant());
//! ```
//!
//! The variants, their requirements and their order are listed by
//! [`engine::Algorithm::variants`], `multisha variants` on the command line, and the README's
//! table (checked against the registry by a test); `cargo xtask report` measures them.
#![no_std]

#[cfg(feature = "std")]
extern crate std;

mod algorithms;
pub mod block_api;
pub mod engine;
mod hash_function;
mod many;
mod oneshot;
#[cfg(test)]
mod tests;

pub use algorithms::*;
pub use digest::{self, Digest};
pub use hash_function::HashFunction;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
