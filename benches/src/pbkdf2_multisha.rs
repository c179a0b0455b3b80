//! multisha's PBKDF2 as the benchmarks call it: the one place that names it.

use std::num::NonZeroU32;

/// What the `multisha` PBKDF2 contender runs, for the tables.
pub const DESCRIPTION: &str = "multisha::pbkdf2_hmac_* (keyed states once, the loop inside the \
                               dispatched kernel, output blocks' chains side by side on lanes \
                               where faster)";

/// PBKDF2-HMAC-SHA1 through multisha.
pub fn multisha_pbkdf2_sha1(password: &[u8], salt: &[u8], iterations: NonZeroU32, out: &mut [u8]) {
    multisha::pbkdf2_hmac_sha1(password, salt, iterations, out)
        .expect("output length within PBKDF2's limit");
}

/// PBKDF2-HMAC-SHA256 through multisha.
pub fn multisha_pbkdf2_sha256(
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    out: &mut [u8],
) {
    multisha::pbkdf2_hmac_sha256(password, salt, iterations, out)
        .expect("output length within PBKDF2's limit");
}

/// PBKDF2-HMAC-SHA512 through multisha.
pub fn multisha_pbkdf2_sha512(
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    out: &mut [u8],
) {
    multisha::pbkdf2_hmac_sha512(password, salt, iterations, out)
        .expect("output length within PBKDF2's limit");
}
