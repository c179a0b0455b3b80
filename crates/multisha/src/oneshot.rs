//! One-shot hashing: whole blocks straight from the input, the padded tail built in place in
//! one stack buffer, one workspace wiped once. The fastest path for small messages.

use crate::dispatch;
use crate::hash_function::HashFunction;
use multisha_contract::{KernelFn, OneShot};

/// The digest of `data` as hash function `H` with the dispatched kernel: the one-shot
/// functions (`multisha::sha256`, ...).
#[inline(always)]
pub(crate) fn dispatched<H: HashFunction>(data: &[u8]) -> H::Digest {
    // SAFETY: the slot holds the probe or a kernel the CPU runs.
    unsafe { hash::<H>(dispatch::installed::<H::Compression>(), data) }
}

/// The digest of `data` as hash function `H` with `kernel`.
///
/// # Safety
/// The CPU must support every feature `kernel` requires (it comes from the dispatcher or from
/// a `Pinned`, which check).
#[inline(always)]
pub(crate) unsafe fn hash<H: HashFunction>(
    kernel: KernelFn<H::Compression>,
    data: &[u8],
) -> H::Digest {
    // SAFETY: forwarded from the caller.
    unsafe { hash_in::<H>(&mut OneShot::new(), kernel, data) }
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
    data: &[u8],
) -> H::Digest {
    let mut out = H::ZERO;
    // SAFETY: forwarded from the caller.
    unsafe { buffers.hash(kernel, H::OUTPUT.iv, data, out.as_mut()) };
    out
}
