//! Compression kernels on the AArch64 cryptographic extension (`SHA1*` and `SHA256*`
//! instructions, Rust target feature `sha2`).
//!
//! Both kernels keep the chaining state, the round constants and the whole message schedule in
//! vector registers, so they ignore the caller's workspace. They are `unsafe` to call: the
//! caller (the dispatcher) must have checked `is_aarch64_feature_detected!("sha2")` or an
//! equivalent probe.
//!
//! On every other architecture this crate is empty.
#![no_std]

#[cfg(target_arch = "aarch64")]
pub mod sha1_armv8;
#[cfg(target_arch = "aarch64")]
pub mod sha256_armv8;
