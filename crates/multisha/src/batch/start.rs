//! Where every message of a batch starts: the hash function's IV (the batch functions), or a
//! state after a prefix of whole blocks that every message shares (the HMAC batch functions:
//! the keyed states, computed once per key).

use crate::hash_function::HashFunction;
use core::marker::PhantomData;
use multisha_contract::{Compression, State};

/// The state each message of a batch starts from, and the bits hashed before it, which its
/// length field counts. A type per kind, so that the IV's batches compile to what they were
/// before the keyed ones existed (the one-block entries, whose padding assumes a message of
/// one block in all, are for [`FromIv`] only).
pub(crate) trait Start<A: Compression>: Copy {
    /// Whether the messages start at the IV with nothing before them.
    const FROM_IV: bool;
    /// The state before each message.
    fn state(&self) -> &State<A>;
    /// Bits before each message (a whole number of blocks).
    fn prefix_bits(&self) -> u128;
    /// The length field's bits for a message of `len` bytes.
    #[inline(always)]
    fn bit_len(&self, len: usize) -> u128 {
        self.prefix_bits() + len as u128 * 8
    }
}

/// The hash function's IV: every message from its start.
pub(crate) struct FromIv<H>(PhantomData<H>);

impl<H> FromIv<H> {
    pub(crate) const NEW: Self = Self(PhantomData);
}

impl<H> Clone for FromIv<H> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<H> Copy for FromIv<H> {}

impl<H: HashFunction> Start<H::Compression> for FromIv<H> {
    const FROM_IV: bool = true;
    #[inline(always)]
    fn state(&self) -> &State<H::Compression> {
        H::IV
    }
    #[inline(always)]
    fn prefix_bits(&self) -> u128 {
        0
    }
}

/// A state after `blocks` whole blocks that every message follows (HMAC: one keyed block).
pub(crate) struct AfterBlocks<'a, A: Compression> {
    state: &'a State<A>,
    prefix_bits: u128,
}

impl<'a, A: Compression> AfterBlocks<'a, A> {
    /// `state`, after `blocks` blocks.
    pub(crate) fn new(state: &'a State<A>, blocks: u64) -> Self {
        let block_bits = <A::Block as multisha_contract::BlockBytes>::LEN as u128 * 8;
        Self {
            state,
            prefix_bits: u128::from(blocks) * block_bits,
        }
    }
}

impl<A: Compression> Clone for AfterBlocks<'_, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: Compression> Copy for AfterBlocks<'_, A> {}

impl<A: Compression> Start<A> for AfterBlocks<'_, A> {
    const FROM_IV: bool = false;
    #[inline(always)]
    fn state(&self) -> &State<A> {
        self.state
    }
    #[inline(always)]
    fn prefix_bits(&self) -> u128 {
        self.prefix_bits
    }
}
