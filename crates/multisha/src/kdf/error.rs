//! What a PBKDF2 derivation or verification can refuse.

use core::fmt;

/// Why a PBKDF2 derivation or verification failed.
///
/// Zero iterations cannot be asked for: the count is a `NonZeroU32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pbkdf2Error {
    /// The output is longer than (2^32 - 1) digests (RFC 8018 §5.2, step 1).
    OutputTooLong {
        /// The length asked for, in bytes.
        len: usize,
        /// The digest length of the hash function, in bytes.
        digest_len: usize,
    },
    /// The output (or the key to verify) is empty: RFC 8018 derives keys of at least one
    /// byte, and an empty expected key would match every password.
    EmptyOutput,
    /// The derived key differs from the expected one (the password or a parameter is wrong).
    Mismatch,
}

impl fmt::Display for Pbkdf2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Pbkdf2Error::OutputTooLong { len, digest_len } => write!(
                f,
                "PBKDF2 output of {len} bytes is too long: at most (2^32 - 1) blocks of \
                 {digest_len} bytes ({} bytes)",
                u64::from(u32::MAX) * digest_len as u64
            ),
            Pbkdf2Error::EmptyOutput => {
                f.write_str("PBKDF2 output of 0 bytes: ask for at least one")
            }
            Pbkdf2Error::Mismatch => {
                f.write_str("PBKDF2 derived key does not match the expected key")
            }
        }
    }
}

impl core::error::Error for Pbkdf2Error {}
