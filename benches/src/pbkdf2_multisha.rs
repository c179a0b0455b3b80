//! multisha's PBKDF2 as the benchmarks call it: the one place that names it, so switching to
//! the library's own functions touches only this file.
//!
//! TODO(lead): switch to multisha::pbkdf2_hmac_* once branch pbkdf2 merges: the three bodies
//! become `multisha::pbkdf2_hmac_sha1(password, salt, iterations, out)
//! .expect("output length within PBKDF2's limit")` (and `_sha256`, `_sha512`), and
//! [`DESCRIPTION`] says `multisha::pbkdf2_hmac_*`. Until then they run RustCrypto `pbkdf2` over
//! multisha's hashers, the same code as the `rustcrypto+multisha` peer.

use std::num::NonZeroU32;

/// What the `multisha` PBKDF2 contender runs, for the tables.
pub const DESCRIPTION: &str = "multisha (shim until branch pbkdf2 merges: RustCrypto pbkdf2 \
                               over multisha's hashers)";

/// PBKDF2-HMAC-SHA1 through multisha.
pub fn multisha_pbkdf2_sha1(password: &[u8], salt: &[u8], iterations: NonZeroU32, out: &mut [u8]) {
    // TODO(lead): switch to multisha::pbkdf2_hmac_* once branch pbkdf2 merges
    pbkdf2::pbkdf2_hmac::<multisha::Sha1>(password, salt, iterations.get(), out);
}

/// PBKDF2-HMAC-SHA256 through multisha.
pub fn multisha_pbkdf2_sha256(
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    out: &mut [u8],
) {
    // TODO(lead): switch to multisha::pbkdf2_hmac_* once branch pbkdf2 merges
    pbkdf2::pbkdf2_hmac::<multisha::Sha256>(password, salt, iterations.get(), out);
}

/// PBKDF2-HMAC-SHA512 through multisha.
pub fn multisha_pbkdf2_sha512(
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    out: &mut [u8],
) {
    // TODO(lead): switch to multisha::pbkdf2_hmac_* once branch pbkdf2 merges
    pbkdf2::pbkdf2_hmac::<multisha::Sha512>(password, salt, iterations.get(), out);
}
