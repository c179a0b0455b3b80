//! The two compression families (SHA-1 and SHA-256) as types, so padding, wiping and the test
//! harness are written once for both.

use crate::{
    Block, Sha1Kernel, Sha1State, Sha1Workspace, Sha256Kernel, Sha256State, Sha256Workspace,
};

/// A compression-function family: its state, workspace and kernel signature.
pub trait Family: 'static {
    /// Human-readable name ("SHA-1", "SHA-256").
    const NAME: &'static str;
    /// The chaining state (`[u32; 5]` or `[u32; 8]`).
    type State: Copy + AsRef<[u32]> + AsMut<[u32]> + core::fmt::Debug + PartialEq;
    /// The schedule workspace the caller owns and wipes.
    type Workspace: Default + AsMut<[u32]>;
    /// The kernel function-pointer type.
    type Kernel: Copy;

    /// Runs `kernel` on `blocks`.
    ///
    /// # Safety
    /// The CPU must support every feature `kernel` requires.
    unsafe fn call(
        kernel: Self::Kernel,
        state: &mut Self::State,
        blocks: &[Block],
        w: &mut Self::Workspace,
    );

    /// Wipes the workspace (once per update call, after the last block).
    fn wipe(w: &mut Self::Workspace);
}

/// The SHA-1 family.
#[derive(Debug, Clone, Copy)]
pub enum Sha1 {}

/// The SHA-256 family (SHA-224 shares it, with another IV and a truncated output).
#[derive(Debug, Clone, Copy)]
pub enum Sha256 {}

impl Family for Sha1 {
    const NAME: &'static str = "SHA-1";
    type State = Sha1State;
    type Workspace = Sha1Workspace;
    type Kernel = Sha1Kernel;

    #[inline(always)]
    unsafe fn call(
        kernel: Sha1Kernel,
        state: &mut Sha1State,
        blocks: &[Block],
        w: &mut Sha1Workspace,
    ) {
        // SAFETY: forwarded from the caller, who guarantees the CPU runs `kernel`.
        unsafe { kernel(state, blocks, w) }
    }

    #[inline(always)]
    fn wipe(w: &mut Sha1Workspace) {
        w.wipe();
    }
}

impl Family for Sha256 {
    const NAME: &'static str = "SHA-256";
    type State = Sha256State;
    type Workspace = Sha256Workspace;
    type Kernel = Sha256Kernel;

    #[inline(always)]
    unsafe fn call(
        kernel: Sha256Kernel,
        state: &mut Sha256State,
        blocks: &[Block],
        w: &mut Sha256Workspace,
    ) {
        // SAFETY: forwarded from the caller, who guarantees the CPU runs `kernel`.
        unsafe { kernel(state, blocks, w) }
    }

    #[inline(always)]
    fn wipe(w: &mut Sha256Workspace) {
        w.wipe();
    }
}
