//! The contract between the multisha engine and its compression variants.
//!
//! **Engine internals**: this crate and the kernel crates (`multisha-rolled`,
//! `multisha-unrolled`, `multisha-full-unroll`, `multisha-x86`, `multisha-armv8`) exist for the
//! `multisha` crate and its auditors; they carry no stability promise. Depend on `multisha`.
//!
//! * An algorithm is one descriptor: a marker type implementing [`Compression`] (word, block,
//!   state, workspace, length-field width, outputs with their initial values and lengths, id,
//!   names, environment variables): [`Sha1Compression`], [`Sha256Compression`],
//!   [`Sha512Compression`].
//! * Every single-message variant has the shape [`KernelFn`]:
//!
//!   ```text
//!   unsafe fn(state: &mut State, blocks: &[Block], w: &mut Workspace)
//!   ```
//!
//!   It compresses a **slice** of blocks, so constants and state are loaded once per call. It
//!   keeps its message schedule in the caller-owned workspace, which the caller wipes once,
//!   after the last block of the call ([`compress_and_wipe`]); a kernel that keeps its
//!   schedule in registers ignores it.
//! * A kernel declares its variant where it is defined, with [`declare_variant!`]: one list of
//!   CPU features becomes both its `#[target_feature]` attributes and its declared
//!   requirements.
//!
//! # Where kernels live
//! One file per variant, named `<algorithm>_<variant>.rs` (`sha256_unroll8.rs`), holding the
//! kernel and its declaration (`pub static VARIANT`). A body shared by SHA-256 and SHA-512 is
//! written once against [`Sha2`] in `sha2_<variant>.rs` of the same crate; each algorithm's
//! file instantiates it.
//!
//! The crate also holds the padding shared by every hasher ([`oneshot`], [`pad_into`]) and,
//! behind the `harness` feature, the one test harness every variant runs through.
#![no_std]

#[cfg(any(feature = "std", test))]
extern crate std;

mod chunk;
mod compression;
mod cost;
mod cpu;
mod declaration;
mod iterate;
mod lanes;
pub mod ops;
mod padding;
mod secret;
mod sha1;
mod sha2;
mod sha256;
mod sha512;
mod workspace;

#[cfg(feature = "harness")]
pub mod harness;
#[cfg(feature = "wipe-observer")]
pub mod wipe_observer;

pub use chunk::{Chunk, chunk_bytes, le_halves, write_chunks};
pub use compression::{
    Block, BlockBytes, BlockCounter, Compression, ConstantFn, KernelFn, LanesFn, OneBlockFn,
    OutputSpec, State, Word,
};
pub use cost::Cost;
pub use cpu::{CpuFeatures, Feature, MaskError, parse_mask, str_eq};
pub use declaration::{Declaration, Kernel, LaneKernel, Schedule, SingleKernel};
pub use iterate::{
    HmacKeys, HmacTemplate, IterateFn, LanesIterateFn, hmac_block, hmac_template, iterate_with,
    scrub_stack,
};
pub use lanes::{
    LaneBuffers, MAX_LANES, NARROW_SLOTS, aligned_words, equal_lanes, wipe_lane_states,
};
pub use padding::{
    OneShot, hash_one_block, oneshot, pad_chunks_into, pad_into, wipe_blocks, write_digest,
};
pub use secret::wipe_secret;
pub use sha1::{SHA1_IV, SHA1_K, Sha1Compression};
pub use sha2::Sha2;
pub use sha256::{SHA224_IV, SHA256_IV, SHA256_K, Sha256Compression};
pub use sha512::{
    SHA384_IV, SHA512_224_IV, SHA512_256_IV, SHA512_IV, SHA512_K, Sha512Compression,
    Sha512Workspace,
};
pub use workspace::{
    LaneWorkspace, Sha1Workspace, Sha256Workspace, Workspace, WorkspaceBuffer, compress_and_wipe,
};

/// A 64-byte message block (SHA-1, SHA-256).
pub type Block64 = [u8; 64];

/// A 128-byte message block (SHA-512).
pub type Block128 = [u8; 128];
