//! Test-only record of workspace wipes (feature `wipe-observer`).
//!
//! Each wipe appends one [`WipeRecord`] to a thread-local log, so a test can prove that an
//! update wiped its workspace exactly once and left only zeros behind.

use std::cell::RefCell;
use std::vec::Vec;

/// What one wipe of a workspace saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WipeRecord {
    /// Size of the wiped buffer in bytes.
    pub bytes: usize,
    /// Whether a kernel asked for the workspace's words (kernels that keep their schedule in
    /// registers or on their own stack never do, and then there is nothing to wipe).
    pub touched: bool,
    /// Whether the workspace held any non-zero word before the wipe (the kernel used it).
    pub had_data: bool,
    /// Whether every word was zero right after the wipe.
    pub zero_after: bool,
}

std::thread_local! {
    static LOG: RefCell<Vec<WipeRecord>> = const { RefCell::new(Vec::new()) };
    /// Wipes of padded tails ([`wipe_blocks`](crate::wipe_blocks)), kept apart from the
    /// workspaces' so that the counts per update call stay as they were.
    static PADDING: RefCell<Vec<WipeRecord>> = const { RefCell::new(Vec::new()) };
    /// Wipes of key material ([`wipe_secret`](crate::wipe_secret)), by name.
    static SECRETS: RefCell<Vec<SecretWipe>> = const { RefCell::new(Vec::new()) };
}

/// What one wipe of a buffer that held key material saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecretWipe {
    /// The buffer's name, as the code that wiped it gave it.
    pub what: &'static str,
    /// Size of the wiped buffer in bytes.
    pub bytes: usize,
    /// Whether any byte was set before the wipe.
    pub had_data: bool,
    /// Whether every byte was zero right after the wipe.
    pub zero_after: bool,
}

pub(crate) fn record(bytes: usize, touched: bool, had_data: bool, zero_after: bool) {
    LOG.with(|log| {
        log.borrow_mut().push(WipeRecord {
            bytes,
            touched,
            had_data,
            zero_after,
        })
    });
}

/// Whether any byte of `blocks` is set. Out of line, and reading through the reference: the
/// check inlined into a PBKDF2 loop put copies of the padded digest (`U`) on the stack, which
/// the PBKDF2 stack-residue scan found.
#[inline(never)]
pub(crate) fn any_nonzero<B: crate::BlockBytes>(blocks: &[B]) -> bool {
    blocks.iter().any(|b| b.as_ref().iter().any(|&x| x != 0))
}

/// Whether any value differs from zero: out of line and through the reference, as
/// [`any_nonzero`], so that the check leaves no copy of the secret on the stack.
#[inline(never)]
pub(crate) fn any_set<Z: zeroize::DefaultIsZeroes + PartialEq>(values: &[Z]) -> bool {
    values.iter().any(|v| *v != Z::default())
}

#[inline(never)]
pub(crate) fn record_secret(what: &'static str, bytes: usize, had_data: bool, zero_after: bool) {
    SECRETS.with(|log| {
        log.borrow_mut().push(SecretWipe {
            what,
            bytes,
            had_data,
            zero_after,
        })
    });
}

/// Returns and clears this thread's log of key-material wipes.
pub fn take_secrets() -> Vec<SecretWipe> {
    SECRETS.with(|log| core::mem::take(&mut *log.borrow_mut()))
}

#[inline(never)]
pub(crate) fn record_padding(bytes: usize, had_data: bool, zero_after: bool) {
    PADDING.with(|log| {
        log.borrow_mut().push(WipeRecord {
            bytes,
            touched: true,
            had_data,
            zero_after,
        })
    });
}

/// Returns and clears this thread's log of padded-tail wipes (`touched` is always true).
pub fn take_padding() -> Vec<WipeRecord> {
    PADDING.with(|log| core::mem::take(&mut *log.borrow_mut()))
}

/// Returns and clears this thread's wipe log.
pub fn take() -> Vec<WipeRecord> {
    LOG.with(|log| core::mem::take(&mut *log.borrow_mut()))
}
