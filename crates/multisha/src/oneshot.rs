//! One-shot hashing: whole blocks straight from the input, the padded tail built in place in
//! one stack buffer, one workspace wiped once. The fastest path for small messages.

use crate::batch::Start;
use crate::dispatch;
use crate::hash_function::HashFunction;
use multisha_contract::{BlockBytes, Compression, KernelFn, OneBlockFn, OneShot, hash_one_block};

type Block<H> = <<H as HashFunction>::Compression as Compression>::Block;

/// The digest of `data` as hash function `H` with the dispatched kernel: the one-shot
/// functions (`multisha::sha256`, ...).
///
/// Out of line, one copy per hash function: a call site of a one-shot function is a call, not
/// the whole padding path again. The call costs 0-3% of a one-shot call in a hot loop
/// (SHA-256 100-256 B and SHA-512 up to 256 B 2-3%, SHA-1 none). Its own function, not
/// [`dispatched_into`] with a digest of the caller's: that digest, written word by word
/// there and read back whole here, cost one-shot SHA-1 of 64 and 256 B 20% and 14% on an AMD
/// Zen 4 (the report's one-shot ratios to RustCrypto 1.32-1.35 -> 1.06-1.08 and 1.14-1.16 ->
/// 1.01-1.02).
#[inline(never)]
pub(crate) fn dispatched<H: HashFunction>(data: &[u8]) -> H::Digest {
    let (kernel, one_block) = (
        dispatch::installed::<H::Compression>(),
        dispatch::installed_one_block::<H::Compression>(),
    );
    // SAFETY: the slot holds the probe or a kernel the CPU runs, and that kernel's entry.
    unsafe { hash::<H>(kernel, one_block, data) }
}

/// [`dispatched`] written into `out`: a process's first batches and batches of one message,
/// one by one, each digest into its slot in place ([`HashFunction::digest_in`] says why).
///
/// Out of line, one copy per hash function: a process's first batch runs the same few lines
/// as a one-shot call rather than the batch's own inlined loop, whose every line would be cold
/// (5 x 40-80 B SHA-256 as a process's first batch 1.06-1.6 us through that loop, 0.82-0.84 us
/// through the one-shot function, against a loop of one-shot calls' 0.55-0.58, Intel Xeon,
/// `first_use`).
#[inline(never)]
pub(crate) fn dispatched_into<H: HashFunction>(data: &[u8], out: &mut H::Digest) {
    let (kernel, one_block) = (
        dispatch::installed::<H::Compression>(),
        dispatch::installed_one_block::<H::Compression>(),
    );
    // SAFETY: the slot holds the probe or a kernel the CPU runs, and that kernel's entry.
    *out = unsafe { hash::<H>(kernel, one_block, data) };
}

/// The digest of `data` as hash function `H` with `kernel` and its entry for one-block
/// messages, `one_block`, if it has one.
///
/// # Safety
/// The CPU must support every feature `kernel` and `one_block` require (they come from the
/// dispatcher or from a `Pinned`, which check).
#[inline(always)]
pub(crate) unsafe fn hash<H: HashFunction>(
    kernel: KernelFn<H::Compression>,
    one_block: Option<OneBlockFn<H::Compression>>,
    data: &[u8],
) -> H::Digest {
    // A message of one block first, on the kernel's entry for it: the buffers made (zeroed)
    // and checked at their drop for nothing were 10 stores and two branches of a 64-byte call.
    // SAFETY: forwarded from the caller.
    if let Some(digest) = unsafe { one_block_digest::<H>(one_block, data) } {
        return digest;
    }
    // (Not the entry again: checked above.)
    // SAFETY: forwarded from the caller.
    unsafe { hash_in::<H>(&mut OneShot::new(), kernel, None, data) }
}

/// The digest of `data` through the entry for one-block messages `one_block`, where `data` is
/// one block and there is such an entry.
///
/// # Safety
/// As [`hash`].
#[inline(always)]
unsafe fn one_block_digest<H: HashFunction>(
    one_block: Option<OneBlockFn<H::Compression>>,
    data: &[u8],
) -> Option<H::Digest> {
    // The length and the entry first, the entry's digest of its own made only then (what
    // `hash_one_block` checks again folds away).
    if data.len() == <Block<H> as BlockBytes>::LEN && one_block.is_some() {
        let mut digest = H::ZERO;
        // SAFETY: forwarded from the caller.
        unsafe { hash_one_block::<H::Compression>(one_block, H::IV, data, digest.as_mut()) };
        return Some(digest);
    }
    None
}

/// The digest of `data` as hash function `H` with `kernel`, in `buffers` kept for message
/// after message (zeroed once, the workspace wiped once, when they are dropped).
///
/// # Safety
/// As [`hash`].
#[inline(always)]
pub(crate) unsafe fn hash_in<H: HashFunction>(
    buffers: &mut OneShot<H::Compression>,
    kernel: KernelFn<H::Compression>,
    one_block: Option<OneBlockFn<H::Compression>>,
    data: &[u8],
) -> H::Digest {
    // SAFETY: forwarded from the caller.
    if let Some(digest) = unsafe { one_block_digest::<H>(one_block, data) } {
        return digest;
    }
    let mut out = H::ZERO;
    // SAFETY: forwarded from the caller.
    unsafe { buffers.hash(kernel, H::IV, data, out.as_mut()) };
    out
}

/// [`hash_in`] of `data` after `start`'s prefix (HMAC: a keyed block), from its state; the
/// one-block entry, whose padding is that of a whole message of one block, from the IV only.
///
/// # Safety
/// As [`hash`].
#[inline(always)]
pub(crate) unsafe fn hash_in_from<H: HashFunction, S: Start<H::Compression>>(
    buffers: &mut OneShot<H::Compression>,
    kernel: KernelFn<H::Compression>,
    one_block: Option<OneBlockFn<H::Compression>>,
    start: S,
    data: &[u8],
) -> H::Digest {
    if S::FROM_IV {
        // SAFETY: forwarded from the caller.
        return unsafe { hash_in::<H>(buffers, kernel, one_block, data) };
    }
    let mut out = H::ZERO;
    // SAFETY: forwarded from the caller.
    unsafe {
        buffers.hash_from(
            kernel,
            start.state(),
            start.prefix_bits(),
            data,
            out.as_mut(),
        )
    };
    out
}
