//! One-shot hashing: whole blocks straight from the input, the padded tail built in place in
//! one stack buffer, one workspace wiped once. The fastest path for small messages.

use crate::dispatch;
use crate::hash_function::HashFunction;
use multisha_contract::{KernelFn, OneShot, SingleConstantFn};

/// The digest of `data` as hash function `H` with the dispatched kernel: the one-shot
/// functions (`multisha::sha256`, ...).
#[inline(always)]
pub(crate) fn dispatched<H: HashFunction>(data: &[u8]) -> H::Digest {
    let (kernel, constant) = (
        dispatch::installed::<H::Compression>(),
        dispatch::installed_constant::<H::Compression>(),
    );
    // SAFETY: the slot holds the probe or a kernel the CPU runs, and that kernel's entry.
    unsafe { hash::<H>(kernel, constant, data) }
}

/// The digest of `data` as hash function `H` with `kernel` and its entry on a given schedule,
/// `constant`, if it has one.
///
/// # Safety
/// The CPU must support every feature `kernel` and `constant` require (they come from the
/// dispatcher or from a `Pinned`, which check).
#[inline(always)]
pub(crate) unsafe fn hash<H: HashFunction>(
    kernel: KernelFn<H::Compression>,
    constant: Option<SingleConstantFn<H::Compression>>,
    data: &[u8],
) -> H::Digest {
    // SAFETY: forwarded from the caller.
    unsafe { hash_in::<H>(&mut OneShot::new(), kernel, constant, data) }
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
    constant: Option<SingleConstantFn<H::Compression>>,
    data: &[u8],
) -> H::Digest {
    let mut out = H::ZERO;
    // SAFETY: forwarded from the caller.
    unsafe { buffers.hash_entries(kernel, constant, H::OUTPUT.iv, data, out.as_mut()) };
    out
}
