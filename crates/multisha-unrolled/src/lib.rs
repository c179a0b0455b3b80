//! Partially unrolled kernels with rotating register roles.
//!
//! Writing out one "cycle" of rounds (5 for SHA-1, 8 for SHA-2) lets every round name its
//! working variables in a rotated order, so the compiler never emits the register moves of
//! `e = d; d = c; ...`, while the code stays a fraction of a full unroll.
//!
//! Engine internals of `multisha` (no stability promise): depend on `multisha` instead.
#![no_std]

pub mod sha1_unroll5;
pub mod sha256_unroll8;
mod sha2_unroll8;
pub mod sha512_unroll8;

#[cfg(test)]
mod tests {
    multisha_contract::harness_tests!(sha1_unroll5, sha256_unroll8, sha512_unroll8);
}
