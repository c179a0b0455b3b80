//! Compression kernels on the AArch64 cryptographic extension: `SHA1*` and `SHA256*`
//! instructions (Rust target feature `sha2`), `SHA512*` instructions (target feature `sha3`).
//!
//! The kernels keep the chaining state, the round constants and the whole message schedule in
//! vector registers, so they ignore the caller's workspace. Each module declares its variant
//! (`VARIANT`), and the dispatcher checks the declared features before installing it.
//!
//! On every other architecture this crate is empty.
//!
//! Engine internals of `multisha` (no stability promise): depend on `multisha` instead.
#![no_std]

#[cfg(target_arch = "aarch64")]
mod neon_words;
#[cfg(target_arch = "aarch64")]
pub mod sha1_armv8;
#[cfg(target_arch = "aarch64")]
pub mod sha1_armv8_x2;
#[cfg(target_arch = "aarch64")]
pub mod sha256_armv8;
#[cfg(target_arch = "aarch64")]
pub mod sha256_armv8_x2;
#[cfg(target_arch = "aarch64")]
pub mod sha512_armv8;
#[cfg(target_arch = "aarch64")]
pub mod sha512_armv8_x2;

#[cfg(all(test, target_arch = "aarch64"))]
mod tests {
    multisha_contract::harness_tests!(
        sha1_armv8,
        sha1_armv8_x2,
        sha256_armv8,
        sha256_armv8_x2,
        sha512_armv8,
        sha512_armv8_x2,
    );
}
