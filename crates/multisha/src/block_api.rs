//! Block-level hasher cores (digest 0.11 `UpdateCore` + `FixedOutputCore`, eager buffer).
//!
//! One generic core serves every hash function; the hash function `H` supplies the initial
//! value, the output size and the compression function. A core holds exactly what RustCrypto's
//! does, the chaining state and the block count: the variant it is pinned to, if any, rides in
//! the count's top byte. Both sit in 16-byte chunks each written by one store (the crate's
//! `core_storage`): `finalize` moves the hasher 16 bytes at a time, and a piece that
//! straddles values stored separately just before stalls on store forwarding.

use crate::core_storage::{Storage, Stored};
use crate::dispatch::Keyed;
use crate::dispatch::{current, single_choice};
use crate::hash_function::HashFunction;
use crate::registry::select::lookup_for;
use crate::registry::{Error, Interface, Variant};
use core::fmt;
use digest::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, FixedOutputCore,
    OutputSizeUser, Reset, UpdateCore,
};
use digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};
use digest::{HashMarker, Output};
use multisha_contract::{
    BlockBytes, BlockCounter, Compression, Kernel, KernelFn, Word, WorkspaceBuffer,
    compress_and_wipe, pad_chunks_into, pad_into, wipe_blocks, write_digest,
};
use zeroize::Zeroize;

type Algo<H> = <H as HashFunction>::Compression;

/// The chunks holding a core's state and count.
type Chunks<H> = <Algo<H> as Stored>::Storage;

type Counter<H> = <Algo<H> as Compression>::Counter;

/// Width of the pin in the top of the block count: 0 follows the dispatcher, `n` runs
/// `variants()[n - 1]`. No message reaches those bits: SHA-1 and SHA-256 count at most 2^55
/// blocks (a 2^64-bit length field), SHA-512 at most 2^118.
const PIN_BITS: u32 = 8;

/// The block-level core of hash function `H`: chaining state, and the block count with the
/// pinned variant in its top byte (below it, the blocks compressed so far).
pub struct HashCore<H: HashFunction> {
    chunks: Chunks<H>,
}

impl<H: HashFunction> HashCore<H> {
    /// Where the pin starts in the block count.
    const PIN_SHIFT: u32 = (Counter::<H>::BYTES * 8) as u32 - PIN_BITS;
    /// The block-count bits of the counter.
    const COUNT_MASK: u128 = (1 << Self::PIN_SHIFT) - 1;

    /// A core at the initial value that runs variant number `pin` (0: the dispatched one).
    fn pinned(pin: u8) -> Self {
        Self {
            chunks: Chunks::<H>::new(H::IV, u128::from(pin) << Self::PIN_SHIFT),
        }
    }

    /// A core that runs the named variant instead of the dispatched one.
    ///
    /// # Errors
    /// An unknown name, a many-message variant, or a variant this CPU cannot run.
    pub fn with_variant(name: &str) -> Result<Self, Error> {
        let features = crate::registry::cpu_features();
        let variant = lookup_for(H::algorithm(), Interface::Single, name, features)?;
        let index = H::algorithm()
            .variants()
            .iter()
            .position(|v| core::ptr::eq(v, variant))
            .expect("lookup returns variants of the algorithm asked for");
        let pin = u8::try_from(index + 1).expect("fewer than 255 variants per algorithm");
        Ok(Self::pinned(pin))
    }

    /// 0, or `n` when the core runs `variants()[n - 1]`.
    #[inline(always)]
    fn pin(&self) -> u8 {
        (self.chunks.count() >> Self::PIN_SHIFT) as u8
    }

    /// Blocks compressed so far.
    #[inline(always)]
    fn blocks(&self) -> u128 {
        self.chunks.count() & Self::COUNT_MASK
    }

    /// The count with `n` more blocks. It wraps below the pin: a carry into it would switch
    /// the core to another variant, perhaps one this CPU cannot run (a restored state may
    /// count up to the pin). Wrapping there is what the length field does anyway: 2^56 blocks
    /// are 2^65 bits, 0 modulo SHA-256's 64-bit field (2^120 blocks of SHA-512, 2^130 bits,
    /// 0 modulo its 128-bit field).
    #[inline(always)]
    fn counted(&self, n: usize) -> u128 {
        let len = self.chunks.count();
        let count = len.wrapping_add(n as u128) & Self::COUNT_MASK;
        (len & !Self::COUNT_MASK) | count
    }

    /// The kernel this core runs: the dispatched one (read at each call, as RustCrypto reads
    /// its CPU flags), or the pinned variant's.
    #[inline(always)]
    fn kernel(&self) -> KernelFn<Algo<H>> {
        match self.pin() {
            0 => current::<Algo<H>>(),
            pin => pinned_kernel::<H>(pin),
        }
    }

    /// The variant this core runs: the pinned one, or the one the dispatcher has installed.
    pub fn variant(&self) -> &'static Variant {
        match self.pin() {
            // The selection, not the installed kernel's address: before the first hash that is
            // the probe, whose address differs from crate to crate (issue 21).
            0 => single_choice::<Algo<H>>().variant,
            pin => &H::algorithm().variants()[usize::from(pin) - 1],
        }
    }

    /// Pads the buffered tail into a local pair of blocks and compresses them
    /// ([`HashCore::finish_tail`]); the hasher wipes the buffer when it drops or resets.
    fn finish(&mut self, buffer: &mut Buffer<Self>, out: &mut [u8]) {
        self.finish_tail(buffer.get_data(), out);
        buffer.reset();
    }

    /// Pads `tail` (the message's last partial block) into a local pair of blocks (fixed-size
    /// moves, no `memcpy` or `memset` calls) and compresses the one or two used with one
    /// workspace, wiped once, as are the blocks. The state becomes the digest's, written to
    /// `out` (the caller drops or resets the core next).
    pub(crate) fn finish_tail(&mut self, tail: &[u8], out: &mut [u8]) {
        let mut padded = [<Algo<H> as Compression>::Block::ZERO; 2];
        let used = pad_into::<Algo<H>>(&mut padded, tail, self.bit_len(tail.len()));
        self.finish_padded(&mut padded, used, out);
    }

    /// [`HashCore::finish_tail`] of the partial block `tail[..len]` held in whole chunks (a
    /// streaming hasher's), padded by stores at fixed places ([`pad_chunks_into`]).
    pub(crate) fn finish_chunks(&mut self, tail: &[[u64; 2]], len: usize, out: &mut [u8]) {
        // (Zeroed only to be initialised: `pad_chunks_into` writes every byte again.)
        let mut padded = [<Algo<H> as Compression>::Block::ZERO; 2];
        let used = pad_chunks_into::<Algo<H>>(&mut padded, tail, len, self.bit_len(len));
        self.finish_padded(&mut padded, used, out);
    }

    /// The message's length in bits with a partial block of `tail` bytes after the blocks.
    #[inline(always)]
    fn bit_len(&self, tail: usize) -> u128 {
        let block = <Algo<H> as Compression>::Block::LEN as u128;
        self.blocks()
            .wrapping_mul(block)
            .wrapping_add(tail as u128)
            .wrapping_mul(8)
    }

    /// Compresses the first `used` of the padded blocks, wipes them and the workspace, and
    /// writes the digest.
    #[inline(always)]
    fn finish_padded(
        &mut self,
        padded: &mut [<Algo<H> as Compression>::Block; 2],
        used: usize,
        out: &mut [u8],
    ) {
        let mut w = <Algo<H> as Compression>::Workspace::default();
        let kernel = self.kernel();
        // SAFETY: `kernel` came from the dispatcher or `lookup`, which check the CPU first.
        unsafe { kernel(self.chunks.state_mut(), &padded[..used], &mut w) };
        w.wipe();
        wipe_blocks(&mut padded[..used]);
        write_digest(self.chunks.state().as_ref(), out);
    }

    /// The number a streaming hasher keeps beside the state: its partial block's length.
    #[inline(always)]
    pub(crate) fn tail_len(&self) -> usize {
        self.chunks.aux() as usize
    }

    /// Sets [`HashCore::tail_len`].
    #[inline(always)]
    pub(crate) fn set_tail_len(&mut self, len: usize) {
        self.chunks.set_aux(len as u32);
    }

    /// Adds `n` to [`HashCore::tail_len`] (bytes appended to a partial block that stays
    /// partial): the length's chunk loaded, added to and stored as one, so that a message fed
    /// a few bytes a call waits on one forwarded load and an add per call.
    #[inline(always)]
    pub(crate) fn grow_tail(&mut self, n: usize) {
        self.chunks.add_aux(n as u32);
    }

    /// Compresses whole blocks into the state and counts them ([`Storage::seal`] rewrites the
    /// count's chunk whole).
    #[inline]
    pub(crate) fn compress(&mut self, blocks: &[<Algo<H> as Compression>::Block]) {
        let count = self.counted(blocks.len());
        let kernel = self.kernel();
        // SAFETY: `kernel` came from the dispatcher or `lookup`, which check the CPU first.
        unsafe { compress_and_wipe::<Algo<H>>(kernel, self.chunks.state_mut(), blocks) };
        self.chunks.seal(count);
    }
}

impl<H: HashFunction> Default for HashCore<H> {
    #[inline]
    fn default() -> Self {
        Self::pinned(0)
    }
}

impl<H: HashFunction> Clone for HashCore<H> {
    #[inline]
    fn clone(&self) -> Self {
        Self {
            chunks: self.chunks,
        }
    }
}

impl<H: HashFunction> HashMarker for HashCore<H> {}

impl<H: HashFunction> BlockSizeUser for HashCore<H> {
    type BlockSize = <Algo<H> as Keyed>::BlockSize;
}

impl<H: HashFunction> BufferKindUser for HashCore<H> {
    type BufferKind = Eager;
}

impl<H: HashFunction> OutputSizeUser for HashCore<H> {
    type OutputSize = H::OutputSize;
}

impl<H: HashFunction> UpdateCore for HashCore<H> {
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        self.compress(Algo::<H>::core_blocks(blocks));
    }
}

impl<H: HashFunction> FixedOutputCore for HashCore<H> {
    #[inline]
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        self.finish(buffer, out);
    }
}

impl<H: HashFunction> Reset for HashCore<H> {
    /// Back to the initial value; a pinned core stays pinned.
    #[inline]
    fn reset(&mut self) {
        *self = Self::pinned(self.pin());
    }
}

impl<H: HashFunction> AlgorithmName for HashCore<H> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(H::ALGORITHM_NAME)
    }
}

impl<H: HashFunction> fmt::Debug for HashCore<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}Core {{ ... }}", H::ALGORITHM_NAME)
    }
}

impl<H: HashFunction> Drop for HashCore<H> {
    fn drop(&mut self) {
        self.chunks.wipe();
    }
}

impl<H: HashFunction> zeroize::ZeroizeOnDrop for HashCore<H> {}

impl<H: HashFunction> SerializableState for HashCore<H> {
    type SerializedStateSize = H::SerializedStateSize;

    /// The state words (little-endian) followed by the block count (little-endian, as wide as
    /// the algorithm's length field): the layout of `sha1`/`sha2` 0.11.
    fn serialize(&self) -> SerializedState<Self> {
        let mut out = SerializedState::<Self>::default();
        let words = self.chunks.state().as_ref();
        let word = <Algo<H> as Compression>::Word::BYTES;
        let (state_bytes, len_bytes) = out.split_at_mut(word * words.len());
        for (chunk, w) in state_bytes.chunks_exact_mut(word).zip(words) {
            w.write_le(chunk);
        }
        len_bytes.copy_from_slice(&self.blocks().to_le_bytes()[..len_bytes.len()]);
        out
    }

    /// Restores a serialized state; the core runs the dispatched variant (a serialized state
    /// carries no variant). A block count no message can reach (2^56 blocks and more for
    /// SHA-1 and SHA-256, 2^120 for SHA-512: beyond the length field) is refused.
    fn deserialize(serialized: &SerializedState<Self>) -> Result<Self, DeserializeStateError> {
        let mut state = *H::IV;
        let word = <Algo<H> as Compression>::Word::BYTES;
        let words = state.as_mut();
        let (state_bytes, len_bytes) = serialized.split_at(word * words.len());
        if len_bytes.len() > 16 || state_bytes.len() != word * words.len() {
            return Err(DeserializeStateError);
        }
        for (w, chunk) in words.iter_mut().zip(state_bytes.chunks_exact(word)) {
            *w = Word::from_le_slice(chunk);
        }
        let mut count = [0u8; 16];
        count[..len_bytes.len()].copy_from_slice(len_bytes);
        let blocks = u128::from_le_bytes(count);
        if blocks & !Self::COUNT_MASK != 0 {
            return Err(DeserializeStateError);
        }
        let core = Self {
            chunks: Chunks::<H>::new(&state, blocks),
        };
        state.as_mut().zeroize();
        Ok(core)
    }
}

/// The kernel of variant number `pin` of `H` (`variants()[pin - 1]`), which
/// [`HashCore::with_variant`] checked this CPU runs.
#[inline(never)]
fn pinned_kernel<H: HashFunction>(pin: u8) -> KernelFn<Algo<H>> {
    let declaration = H::algorithm().variants()[usize::from(pin) - 1]
        .declaration::<Algo<H>>()
        .expect("a core's pin is a variant of its algorithm");
    match declaration.kernel {
        Kernel::Single(kernel) => kernel.compress,
        _ => unreachable!("a core is pinned to single-message variants only"),
    }
}
