//! SHA-1, SHA-224 and SHA-256 with several implementations ("variants") of each compression
//! function, a CPU probe that runs once, and the best variant installed behind a function
//! pointer.
//!
//! * [`Sha1`], [`Sha224`], [`Sha256`]: drop-in RustCrypto `digest` 0.11 hashers
//!   (`Digest`, `Hmac<multisha::Sha256>`, HKDF, PBKDF2, OIDs, `Reset`, serializable state,
//!   zeroized on drop).
//! * [`sha1()`], [`sha224()`], [`sha256()`]: one-shot functions, the fastest path for short
//!   messages.
//! * [`variants`], [`active`], [`force`], [`choose`], [`Pinned`], `Sha256::with_variant`: the
//!   registry and the override API for auditors who compare variants.
//!
//! ```
//! use multisha::{Digest, Sha256};
//! let digest = Sha256::digest(b"abc");
//! assert_eq!(digest[..], multisha::sha256(b"abc"));
//! println!("SHA-256 runs {}", multisha::active(multisha::Algorithm::Sha256));
//! ```
//!
//! # Dispatch
//! The first hash of an algorithm probes the CPU ([`CpuFeatures::detect`]), reads the
//! override `MULTISHA_SHA1` / `MULTISHA_SHA256` (with the `std` feature) and installs the
//! first available variant of [`variants`] (they are listed best first) unless the override
//! names one that can run. A bad override is ignored and reported by [`active`]. Later calls
//! cost one relaxed atomic load and one indirect call.
//!
//! # Default priority (the order of [`variants`])
//!
//! | target | SHA-1 | SHA-256 |
//! |---|---|---|
//! | x86-64 | `shani` > `asm` > `unroll5` > `rolled` | `shani` > `avx2` > `unroll8` > `unroll64` > `rolled` |
//! | AArch64 | `armv8` > `unroll5` > `rolled` | `armv8` > `unroll8` > `unroll64` > `rolled` |
//! | other | `unroll5` > `rolled` | `unroll8` > `unroll64` > `rolled` |
//!
//! Measured on the x86-64 development machine (a virtualised Intel Xeon, family 6 model 207,
//! with SHA-NI, AVX2, BMI2; `cargo run --release -p multisha-x86 --example x86_speed`, median
//! of 60 interleaved rounds of the ratio to the reference kernel, 16 KiB messages):
//! SHA-1 `shani` 2.37x `unroll5`, `asm` 1.09x, `rolled` 0.67x; SHA-256 `shani` 5.0x
//! `unroll64`, `avx2` 1.29-1.42x, `unroll8` 1.01x, `rolled` 0.82x. `unroll8` matches `unroll64`
//! with a sixth of the code (1.9 KiB vs 10.7 KiB), so it ranks first of the portable ones;
//! `asm` is both faster and smaller than `unroll5` (4.0 vs 4.8 KiB). `cargo xtask report`
//! measures the same on any machine, hot and cold.
#![no_std]

#[cfg(feature = "std")]
extern crate std;

mod algorithm;
pub mod block_api;
mod cpu;
mod dispatch;
mod error;
mod name_buf;
mod oneshot;
mod registry;
mod select;
#[cfg(test)]
mod tests;

pub use algorithm::Algorithm;
pub use cpu::{CpuFeatures, Feature};
pub use digest::{self, Digest};
pub use dispatch::{active, force};
pub use error::Error;
pub use oneshot::{Pinned, sha1, sha224, sha256};
pub use registry::{Schedule, Variant, find_variant, variants};
pub use select::{Reason, Selection, choose, lookup};

digest::buffer_fixed!(
    /// SHA-1 hasher running the dispatched (or a pinned) SHA-1 variant.
    pub struct Sha1(block_api::Sha1Core);
    oid: "1.3.14.3.2.26";
    impl: FixedHashTraits;
);

digest::buffer_fixed!(
    /// SHA-224 hasher running the dispatched (or a pinned) SHA-256 variant.
    pub struct Sha224(block_api::Sha224Core);
    oid: "2.16.840.1.101.3.4.2.4";
    impl: FixedHashTraits;
);

digest::buffer_fixed!(
    /// SHA-256 hasher running the dispatched (or a pinned) SHA-256 variant.
    pub struct Sha256(block_api::Sha256Core);
    oid: "2.16.840.1.101.3.4.2.1";
    impl: FixedHashTraits;
);

macro_rules! with_variant {
    ($($hasher:ident),*) => {$(
        impl $hasher {
            /// A hasher that runs the named variant instead of the dispatched one, leaving the
            /// global choice alone. It stays pinned across `reset`.
            ///
            /// # Errors
            /// An unknown name or a variant this CPU cannot run; the message lists the
            /// available variants.
            pub fn with_variant(name: &str) -> Result<Self, Error> {
                let core = block_api::HashCore::with_variant(name)?;
                Ok(<Self as digest::block_api::CoreProxy>::compose(core, Default::default()))
            }
        }
    )*};
}
with_variant!(Sha1, Sha224, Sha256);

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
