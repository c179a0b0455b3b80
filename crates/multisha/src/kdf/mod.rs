//! PBKDF2-HMAC (RFC 8018 §5.2 with HMAC of RFC 2104) for every hash function of the engine,
//! with a constant-time verification next to each.
//!
//! The keyed HMAC states are computed once per password, and every iteration runs in the
//! dispatched single-message variant's own loop ([`IterateFn`](multisha_contract::IterateFn)):
//! for SHA-NI the state stays in its registers in the instructions' order and the next
//! message is built from it there. The output blocks of a longer output are independent
//! chains: where a lane kernel has a PBKDF2 entry that is faster per chain (measured once per
//! process, [`chains`]), they run side by side on it. A variant pinned with
//! [`Pinned::pbkdf2_hmac`](crate::engine::Pinned::pbkdf2_hmac) runs its own loop alone;
//! [`PinnedMany::pbkdf2_hmac`](crate::engine::PinnedMany::pbkdf2_hmac) runs the chains on
//! one lane kernel.

pub(crate) mod chains;
mod derive;
mod error;

pub(crate) use derive::{derive as derive_with, verify as verify_with};
pub use error::Pbkdf2Error;

use crate::hash_function::HashFunction;
use core::num::NonZeroU32;

/// PBKDF2-HMAC with hash function `H` on the dispatched variant.
fn dispatched_derive<H: HashFunction>(
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    out: &mut [u8],
) -> Result<(), Pbkdf2Error> {
    let kernel = crate::engine::dispatch::current_single::<H::Compression>();
    let chains = chains_for::<H>(out.len());
    // SAFETY: the dispatcher only ever chooses variants the CPU runs.
    unsafe { derive_with::<H>(kernel, chains, password, salt, iterations, out) }
}

/// Constant-time PBKDF2-HMAC verification with hash function `H` on the dispatched variant.
fn dispatched_verify<H: HashFunction>(
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    expected: &[u8],
) -> Result<(), Pbkdf2Error> {
    let kernel = crate::engine::dispatch::current_single::<H::Compression>();
    let chains = chains_for::<H>(expected.len());
    // SAFETY: the dispatcher only ever chooses variants the CPU runs.
    unsafe { verify_with::<H>(kernel, chains, password, salt, iterations, expected) }
}

/// Where the output blocks of an output of `len` bytes run side by side: asked (and measured,
/// the first time) only for outputs of more than one digest.
fn chains_for<H: HashFunction>(len: usize) -> Option<derive::Chains<H::Compression>> {
    if len > H::OUTPUT.len {
        crate::engine::dispatch::pbkdf2_chain_entry::<H::Compression>()
    } else {
        None
    }
}

macro_rules! pbkdf2_functions {
    ($($hasher:ident, $derive:ident, $verify:ident, $name:literal;)*) => {$(
        #[doc = concat!("PBKDF2-HMAC-", $name, " (RFC 8018 §5.2): derives `out.len()` bytes from")]
        /// `password` and `salt` with `iterations` iterations, on the dispatched variant.
        ///
        /// Passwords longer than a block are hashed first (HMAC); empty passwords and salts
        /// are fine. Every key, keyed state and intermediate value is wiped.
        ///
        /// ```
        /// use core::num::NonZeroU32;
        /// let mut key = [0u8; 32];
        #[doc = concat!("multisha::", stringify!($derive), "(b\"password\", b\"salt\", NonZeroU32::new(4096).unwrap(), &mut key)?;")]
        /// # Ok::<(), multisha::Pbkdf2Error>(())
        /// ```
        ///
        /// # Errors
        /// [`Pbkdf2Error::EmptyOutput`] for an empty `out`, [`Pbkdf2Error::OutputTooLong`] for
        /// more than (2^32 - 1) digests.
        pub fn $derive(
            password: &[u8],
            salt: &[u8],
            iterations: NonZeroU32,
            out: &mut [u8],
        ) -> Result<(), Pbkdf2Error> {
            dispatched_derive::<crate::$hasher>(password, salt, iterations, out)
        }

        #[doc = concat!("Checks that PBKDF2-HMAC-", $name, " of `password`, `salt` and `iterations` is")]
        /// `expected` (a stored key), comparing in constant time: the time depends on the
        /// lengths, never on where the keys differ.
        ///
        /// # Errors
        /// [`Pbkdf2Error::Mismatch`] when the derived key differs; as
        #[doc = concat!("[`", stringify!($derive), "`] for an empty or too long `expected`.")]
        pub fn $verify(
            password: &[u8],
            salt: &[u8],
            iterations: NonZeroU32,
            expected: &[u8],
        ) -> Result<(), Pbkdf2Error> {
            dispatched_verify::<crate::$hasher>(password, salt, iterations, expected)
        }
    )*};
}

pbkdf2_functions! {
    Sha1, pbkdf2_hmac_sha1, pbkdf2_hmac_sha1_verify, "SHA1";
    Sha224, pbkdf2_hmac_sha224, pbkdf2_hmac_sha224_verify, "SHA224";
    Sha256, pbkdf2_hmac_sha256, pbkdf2_hmac_sha256_verify, "SHA256";
    Sha384, pbkdf2_hmac_sha384, pbkdf2_hmac_sha384_verify, "SHA384";
    Sha512, pbkdf2_hmac_sha512, pbkdf2_hmac_sha512_verify, "SHA512";
    Sha512_224, pbkdf2_hmac_sha512_224, pbkdf2_hmac_sha512_224_verify, "SHA512/224";
    Sha512_256, pbkdf2_hmac_sha512_256, pbkdf2_hmac_sha512_256_verify, "SHA512/256";
}
