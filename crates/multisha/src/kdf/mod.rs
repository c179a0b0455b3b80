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
//!
//! # The loops
//! Every variant has a loop: the portable variants a loop over their compression function
//! ([`iterate_with`](multisha_contract::iterate_with)); the SHA-NI and ARMv8 variants keep
//! `U`, `T` and both keyed states in registers in the instructions' order and build each next
//! message from the state registers, so an iteration costs two compressions and nothing else.
//! The x86 SHA-512 kernels run every iteration in one assembly block: each block's first
//! words go from the last digest's registers to the rounds, its first round is mostly worked
//! out once from the keyed state (the keyed states do not change), and the schedule is wiped
//! once per output block, not per compression (with a store and a load between the
//! compressions and each compression's own entry and exit, a PBKDF2 block took 7% longer
//! than a block of a long message; now the same, Intel Xeon). The SHA-1 SHA-NI loops compute most of
//! each block's schedule with vector XORs and shifts, off the SHA unit that the rounds wait
//! on, which took 9-10% off an iteration (Intel). On x86, `shani-x2` runs two chains side by
//! side for SHA-1 and SHA-256, filling the time one chain waits on its own last digest, unless
//! one after the other measured clearly faster per output block (over 5%; a core whose SHA
//! unit a neighbour keeps busy gains nothing from the second chain): a few microseconds of
//! each at the first multi-block derivation of the process ([`chains`]). Whatever a loop
//! spills of `U`, `T`, the keyed states and its schedules lies in its dead frame, which the
//! derivation overwrites once at its end (`multisha_contract::scrub_stack`); the buffers of
//! key material the derivation itself holds are wiped by name (`wipe_secret`), which the
//! tests observe.
//!
//! # What it costs
//! Per 100,000 iterations of one output block, on an Intel Xeon (Sapphire Rapids class,
//! SHA-NI, AVX-512; a shared two-vCPU VM whose speed drifts by a fifth with its neighbours):
//! PBKDF2-HMAC-SHA256 10-12 ms, PBKDF2-HMAC-SHA1 11-13 ms, PBKDF2-HMAC-SHA512 29-33 ms, each
//! 4-12% (SHA-512: 0-1%) above two compressions' latency per iteration as long messages
//! measure it, and 1.2-1.4x (SHA-512: 1.09-1.11x; WPA2's two SHA-1 chains: 1.39-1.72x) faster
//! than `fastpbkdf2` in the same process (`cargo run --release -p multisha-benches --features
//! openssl --example pbkdf2_peers`).

pub(crate) mod chains;
mod derive;
mod error;

pub(crate) use derive::{derive as derive_with, hmac_keys, verify as verify_with};
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
