//! The PBKDF2-HMAC functions of every hash function of the engine (`pbkdf2_hmac_sha256`, ...),
//! each with a constant-time verification: the public face of [`kdf`].

use crate::hash_function::HashFunction;
use crate::kdf::{self, Pbkdf2Error};
use core::num::NonZeroU32;

/// PBKDF2-HMAC (RFC 8018 §5.2) with hash function `H`, named by its hasher:
/// `pbkdf2_hmac::<multisha::Sha256>` is [`pbkdf2_hmac_sha256`], for generic code. Derives
/// `out.len()` bytes from `password` and `salt` with `iterations` iterations, on the
/// dispatched variant; every key, keyed state and intermediate value is wiped.
///
/// ```
/// use core::num::NonZeroU32;
/// let mut key = [0u8; 64];
/// multisha::pbkdf2_hmac::<multisha::Sha512>(b"password", b"salt", NonZeroU32::new(4096).unwrap(), &mut key)?;
/// # Ok::<(), multisha::Pbkdf2Error>(())
/// ```
///
/// # Errors
/// [`Pbkdf2Error::EmptyOutput`] for an empty `out`, [`Pbkdf2Error::OutputTooLong`] for more
/// than (2^32 - 1) digests.
pub fn pbkdf2_hmac<H: HashFunction>(
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    out: &mut [u8],
) -> Result<(), Pbkdf2Error> {
    kdf::dispatched_derive::<H>(password, salt, iterations, out)
}

/// Checks that PBKDF2-HMAC with hash function `H` of `password`, `salt` and `iterations` is
/// `expected`, in constant time: `pbkdf2_hmac_verify::<multisha::Sha256>` is
/// [`pbkdf2_hmac_sha256_verify`]. A wrong password is the usual `Err`: check with `is_ok()`.
///
/// # Errors
/// [`Pbkdf2Error::Mismatch`] when the derived key differs (a wrong password); as
/// [`pbkdf2_hmac`] for an empty or too long `expected`.
pub fn pbkdf2_hmac_verify<H: HashFunction>(
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    expected: &[u8],
) -> Result<(), Pbkdf2Error> {
    kdf::dispatched_verify::<H>(password, salt, iterations, expected)
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
            pbkdf2_hmac::<crate::$hasher>(password, salt, iterations, out)
        }

        #[doc = concat!("Checks that PBKDF2-HMAC-", $name, " of `password`, `salt` and `iterations` is")]
        /// `expected` (a stored key), comparing in constant time: the time depends on the
        /// lengths, never on where the keys differ. A wrong password is the usual `Err`:
        /// check the result with `is_ok()` rather than passing it up with `?`.
        ///
        /// ```
        /// use core::num::NonZeroU32;
        /// let iterations = NonZeroU32::new(4096).unwrap();
        /// let mut stored = [0u8; 32];
        #[doc = concat!("multisha::", stringify!($derive), "(b\"hunter2\", b\"salt\", iterations, &mut stored)?;")]
        #[doc = concat!("assert!(multisha::", stringify!($verify), "(b\"hunter2\", b\"salt\", iterations, &stored).is_ok());")]
        #[doc = concat!("assert!(multisha::", stringify!($verify), "(b\"wrong\", b\"salt\", iterations, &stored).is_err());")]
        /// # Ok::<(), multisha::Pbkdf2Error>(())
        /// ```
        ///
        /// # Errors
        /// [`Pbkdf2Error::Mismatch`] when the derived key differs (a wrong password); as
        #[doc = concat!("[`", stringify!($derive), "`] for an empty or too long `expected`.")]
        pub fn $verify(
            password: &[u8],
            salt: &[u8],
            iterations: NonZeroU32,
            expected: &[u8],
        ) -> Result<(), Pbkdf2Error> {
            pbkdf2_hmac_verify::<crate::$hasher>(password, salt, iterations, expected)
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
