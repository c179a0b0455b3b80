//! Rolled kernels: one round per loop iteration.
//!
//! The smallest code of all variants (a few hundred bytes each), which matters when the
//! instruction cache is cold and messages are short.
//!
//! Engine internals of `multisha` (no stability promise): depend on `multisha` instead.
#![no_std]

pub mod sha1_rolled;
pub mod sha256_rolled;
mod sha2_rolled;
pub mod sha512_rolled;

#[cfg(test)]
mod tests {
    multisha_contract::harness_tests!(sha1_rolled, sha256_rolled, sha512_rolled);
}
