//! x86-64 compression kernels for multisha: SHA-1 in inline assembly, SHA-1 and SHA-256 with
//! the SHA extensions (SHA-256 also in VEX encodings), SHA-256 and SHA-512 with an AVX2
//! schedule and BMI2 rounds, SHA-512 also with an AVX-512VL schedule; and the many-message
//! kernels: SHA-1 and SHA-256 with two and four interleaved SHA-NI streams, on eight AVX2
//! lanes, on sixteen AVX-512 lanes and on thirty-two (two interleaved groups of sixteen),
//! SHA-512 on four AVX2 lanes and on eight and sixteen AVX-512 lanes.
//!
//! Each module declares its variant (`VARIANT`): required features, description, where the
//! schedule lives. No kernel detects CPU features: the dispatcher does. On other
//! architectures the crate is empty.
//!
//! Engine internals of `multisha` (no stability promise): depend on `multisha` instead.
#![no_std]

#[cfg(test)]
extern crate std;

#[cfg(target_arch = "x86_64")]
#[macro_use]
mod sha256_shani_expand;
#[cfg(target_arch = "x86_64")]
mod avx2_lanes;
#[cfg(target_arch = "x86_64")]
mod avx512_groups;
#[cfg(target_arch = "x86_64")]
pub mod sha1_asm;
#[cfg(target_arch = "x86_64")]
pub mod sha1_avx2_x8;
#[cfg(target_arch = "x86_64")]
pub mod sha1_avx512_x16;
#[cfg(target_arch = "x86_64")]
pub mod sha1_avx512_x32;
#[cfg(target_arch = "x86_64")]
pub mod sha1_shani;
#[cfg(target_arch = "x86_64")]
pub mod sha1_shani_x2;
#[cfg(target_arch = "x86_64")]
pub mod sha1_shani_x4;
#[cfg(target_arch = "x86_64")]
pub mod sha256_avx2;
#[cfg(target_arch = "x86_64")]
pub mod sha256_avx2_x8;
#[cfg(target_arch = "x86_64")]
pub mod sha256_avx512_x16;
#[cfg(target_arch = "x86_64")]
pub mod sha256_avx512_x32;
#[cfg(target_arch = "x86_64")]
pub mod sha256_shani;
#[cfg(target_arch = "x86_64")]
mod sha256_shani_nodes;
#[cfg(target_arch = "x86_64")]
pub mod sha256_shani_x2;
#[cfg(target_arch = "x86_64")]
pub mod sha256_shani_x4;
#[cfg(target_arch = "x86_64")]
pub mod sha512_avx2;
#[cfg(target_arch = "x86_64")]
pub mod sha512_avx2_x4;
#[cfg(target_arch = "x86_64")]
pub mod sha512_avx512;
#[cfg(target_arch = "x86_64")]
pub mod sha512_avx512_x16;
#[cfg(target_arch = "x86_64")]
pub mod sha512_avx512_x8;
#[cfg(target_arch = "x86_64")]
mod sha512_pair;

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    multisha_contract::harness_tests!(
        sha1_asm,
        sha1_avx2_x8,
        sha1_avx512_x16,
        sha1_avx512_x32,
        sha1_shani,
        sha1_shani_x2,
        sha1_shani_x4,
        sha256_avx2,
        sha256_avx2_x8,
        sha256_avx512_x16,
        sha256_avx512_x32,
        sha256_shani,
        sha256_shani_x2,
        sha256_shani_x4,
        sha512_avx2,
        sha512_avx2_x4,
        sha512_avx512,
        sha512_avx512_x16,
        sha512_avx512_x8,
    );
    multisha_contract::harness_tests!(named sha256_shani_vex => sha256_shani::vex);
}
