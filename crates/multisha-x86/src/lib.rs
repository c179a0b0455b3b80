//! x86-64 compression kernels for multisha.
//!
//! | module            | needs                      | schedule                          |
//! |-------------------|----------------------------|-----------------------------------|
//! | [`sha1_asm`]      | baseline x86-64            | 16-word window in the workspace   |
//! | [`sha1_shani`]    | `sha`, `sse2..sse4.1`      | registers (ignores the workspace) |
//! | [`sha256_shani`]  | `sha`, `sse2..sse4.1`      | registers (ignores the workspace) |
//! | [`sha256_avx2`]   | `avx2`, `bmi2`             | two blocks' W+K in the workspace  |
//!
//! No kernel detects CPU features: the dispatcher does, and every hardware kernel states in
//! its `# Safety` section what the caller must have checked. On other architectures the crate
//! is empty.
#![no_std]

#[cfg(test)]
extern crate std;

#[cfg(target_arch = "x86_64")]
pub mod sha1_asm;
#[cfg(target_arch = "x86_64")]
pub mod sha1_shani;
#[cfg(target_arch = "x86_64")]
pub mod sha256_avx2;
#[cfg(target_arch = "x86_64")]
pub mod sha256_shani;

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    /// Whether the CPU runs the SHA-NI kernels.
    pub(crate) fn has_shani() -> bool {
        std::is_x86_feature_detected!("sha")
            && std::is_x86_feature_detected!("sse2")
            && std::is_x86_feature_detected!("ssse3")
            && std::is_x86_feature_detected!("sse4.1")
    }
}
