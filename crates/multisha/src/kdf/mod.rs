//! PBKDF2-HMAC (RFC 8018 §5.2 with HMAC of RFC 2104) for every hash function of the engine,
//! with a constant-time verification next to each.
//!
//! The keyed HMAC states are computed once per password, and every iteration runs in the
//! dispatched single-message variant's own loop ([`IterateFn`](multisha_contract::IterateFn)):
//! for SHA-NI the state stays in its registers in the instructions' order and the next
//! message is built from it there. The output blocks of a longer output are independent
//! chains: where a lane kernel has a PBKDF2 entry that is faster per chain (measured once per
//! process, [`chains`]), they run side by side on it. A variant pinned with
//! [`Pinned::pbkdf2_hmac`](crate::engine::Pinned::pbkdf2_hmac) runs its own loop alone;
//! [`PinnedMany::pbkdf2_hmac`](crate::engine::PinnedMany::pbkdf2_hmac) runs the chains on
//! one lane kernel.

pub(crate) mod chains;
mod derive;
mod error;

pub(crate) use derive::{derive as derive_with, verify as verify_with};
pub use error::Pbkdf2Error;

use crate::hash_function::HashFunction;
use core::num::NonZeroU32;

/// PBKDF2-HMAC with hash function `H` on the dispatched variant: the public functions'
/// (`pbkdf2_hmac_sha256`, ...) body.
pub(crate) fn dispatched_derive<H: HashFunction>(
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    out: &mut [u8],
) -> Result<(), Pbkdf2Error> {
    let kernel = crate::dispatch::single_entries::<H::Compression>();
    let chains = chains_for::<H>(out.len());
    // SAFETY: the dispatcher only ever chooses variants the CPU runs.
    unsafe { derive_with::<H>(kernel, chains, password, salt, iterations, out) }
}

/// Constant-time PBKDF2-HMAC verification with hash function `H` on the dispatched variant.
pub(crate) fn dispatched_verify<H: HashFunction>(
    password: &[u8],
    salt: &[u8],
    iterations: NonZeroU32,
    expected: &[u8],
) -> Result<(), Pbkdf2Error> {
    let kernel = crate::dispatch::single_entries::<H::Compression>();
    let chains = chains_for::<H>(expected.len());
    // SAFETY: the dispatcher only ever chooses variants the CPU runs.
    unsafe { verify_with::<H>(kernel, chains, password, salt, iterations, expected) }
}

/// Where the output blocks of an output of `len` bytes run side by side: asked (and measured,
/// the first time) only for outputs of more than one digest.
fn chains_for<H: HashFunction>(len: usize) -> Option<derive::Chains<H::Compression>> {
    if len > H::OUTPUT.len {
        chains::pbkdf2_chain_entry::<H::Compression>()
    } else {
        None
    }
}
