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

#[cfg(all(test, target_arch = "aarch64"))]
mod tests {
    extern crate std;

    /// Whether the CPU has the SHA instructions; with `MULTISHA_EXPECT_ARMV8=1` (the
    /// cross-test under qemu) their absence fails the test instead of skipping it.
    pub(crate) fn has_sha2(label: &str) -> bool {
        let detected = std::arch::is_aarch64_feature_detected!("sha2");
        if std::env::var_os("MULTISHA_EXPECT_ARMV8").is_some_and(|v| v == "1") {
            assert!(
                detected,
                "MULTISHA_EXPECT_ARMV8=1 but the CPU has no SHA instructions"
            );
        }
        if !detected {
            std::eprintln!("{label}: skipped, the CPU has no SHA instructions");
        }
        detected
    }
}
