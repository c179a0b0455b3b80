//! The contract between the multisha engine and its compression variants.
//!
//! Every variant of a compression function has the same shape:
//!
//! ```text
//! unsafe fn(state: &mut State, blocks: &[[u8; 64]], w: &mut Workspace)
//! ```
//!
//! * It compresses a **slice** of 64-byte blocks, so constants and state are loaded once per
//!   call, not once per block.
//! * It keeps its message schedule in the caller-owned [`Workspace`]. The caller wipes the
//!   workspace once, after the last block of the call ([`compress_and_wipe`]), never once per
//!   block. A kernel that keeps its schedule in registers ignores `w`.
//! * It is `unsafe` because a hardware kernel may only run on a CPU that has its instructions;
//!   portable kernels are plain safe functions that coerce to the same pointer type.
//!
//! The crate also holds the padding logic shared by every hasher ([`oneshot`], [`pad_tail`])
//! and, behind the `harness` feature, the one test harness every variant runs through.
#![no_std]

#[cfg(feature = "std")]
extern crate std;

mod consts;
mod family;
pub mod ops;
mod padding;
mod workspace;

#[cfg(feature = "harness")]
pub mod harness;
#[cfg(feature = "wipe-observer")]
pub mod wipe_observer;

pub use consts::{SHA1_IV, SHA1_K, SHA224_IV, SHA256_IV, SHA256_K};
pub use family::{Family, Sha1, Sha256};
pub use padding::{oneshot, pad_tail, write_digest};
pub use workspace::{Sha1Workspace, Sha256Workspace, Workspace, compress_and_wipe};

/// One 64-byte message block, the unit both SHA-1 and SHA-256 compress.
pub type Block = [u8; 64];

/// The SHA-1 chaining state `h0..h4`.
pub type Sha1State = [u32; 5];

/// The SHA-256 (and SHA-224) chaining state `h0..h7`.
pub type Sha256State = [u32; 8];

/// Signature of every SHA-1 compression variant.
///
/// # Safety
/// The caller must make sure the CPU supports every feature the variant requires.
pub type Sha1Kernel = unsafe fn(&mut Sha1State, &[Block], &mut Sha1Workspace);

/// Signature of every SHA-256 compression variant (SHA-224 uses the same kernels).
///
/// # Safety
/// The caller must make sure the CPU supports every feature the variant requires.
pub type Sha256Kernel = unsafe fn(&mut Sha256State, &[Block], &mut Sha256Workspace);
