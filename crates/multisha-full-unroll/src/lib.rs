//! Fully unrolled kernels: all rounds, loads and schedule steps written out.
//!
//! Kept to measure what full unrolling buys over `unroll8` (four times the code for the same
//! work) on a given CPU, hot and cold.
//!
//! Engine internals of `multisha` (no stability promise): depend on `multisha` instead.
#![no_std]

pub mod sha256_unroll64;

#[cfg(test)]
mod tests {
    multisha_contract::harness_tests!(sha256_unroll64);
}
