//! Block-level hasher cores (digest 0.11 `UpdateCore` + `FixedOutputCore`, eager buffer).
//!
//! One generic core serves every hash function; the hash function `H` supplies the initial
//! value, the output size and the compression function. The core stores its kernel pointer,
//! taken from the dispatcher when it is created (or pinned to one variant), so an update costs
//! one indirect call and nothing else.

use crate::engine::dispatch::current;
use crate::engine::select::lookup_for;
use crate::engine::{Error, Interface, Variant};
use crate::hash_function::{HashFunction, Registered};
use core::fmt;
use digest::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, FixedOutputCore,
    OutputSizeUser, Reset, UpdateCore,
};
use digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};
use digest::{HashMarker, Output};
use multisha_contract::{
    BlockBytes, BlockCounter, Compression, CpuFeatures, Kernel, KernelFn, State, Word,
    WorkspaceBuffer, compress_and_wipe, write_digest,
};
use zeroize::Zeroize;

type Algo<H> = <H as HashFunction>::Compression;

/// The block-level core of hash function `H`: chaining state, block count and the kernel it
/// runs.
pub struct HashCore<H: HashFunction> {
    state: State<Algo<H>>,
    /// Blocks compressed so far.
    block_len: <Algo<H> as Compression>::Counter,
    kernel: KernelFn<Algo<H>>,
}

impl<H: HashFunction> HashCore<H> {
    /// A core that runs the named variant instead of the dispatched one.
    ///
    /// # Errors
    /// An unknown name, a many-message variant, or a variant this CPU cannot run.
    pub fn with_variant(name: &str) -> Result<Self, Error> {
        let features = CpuFeatures::detect();
        let variant = lookup_for(H::algorithm(), Interface::Single, name, features)?;
        let declaration = variant
            .declaration::<Algo<H>>()
            .expect("lookup returns variants of the algorithm asked for");
        let Kernel::Single(kernel) = declaration.kernel else {
            unreachable!("lookup_for returns single-message variants")
        };
        Ok(Self {
            state: H::OUTPUT.iv,
            block_len: Default::default(),
            kernel,
        })
    }

    /// The variant this core runs.
    pub fn variant(&self) -> &'static Variant {
        let address = self.kernel as usize;
        H::algorithm()
            .variants()
            .iter()
            .find(|v| v.kernel_address() == address)
            .expect("a core's kernel is a variant of its algorithm")
    }

    /// Pads in place in the buffer and compresses the one or two final blocks with one
    /// workspace, wiped once; the state becomes the digest's (the caller drops or resets the
    /// core next).
    fn finish(&mut self, buffer: &mut Buffer<Self>, out: &mut [u8]) {
        let block = <Algo<H> as Compression>::Block::LEN as u128;
        let bit_len = self
            .block_len
            .to_u128()
            .wrapping_mul(block)
            .wrapping_add(buffer.get_pos() as u128)
            .wrapping_mul(8);
        let mut w = <Algo<H> as Compression>::Workspace::default();
        let (kernel, state) = (self.kernel, &mut self.state);
        let compress = |block: &Block<Self>| {
            let block = Algo::<H>::core_blocks(core::slice::from_ref(block));
            // SAFETY: `kernel` came from the dispatcher or `lookup`, which check the CPU first.
            unsafe { kernel(state, block, &mut w) };
        };
        if <Algo<H> as Compression>::LENGTH_BYTES == 8 {
            buffer.len64_padding_be(bit_len as u64, compress);
        } else {
            buffer.len128_padding_be(bit_len, compress);
        }
        w.wipe();
        write_digest(self.state.as_ref(), out);
    }
}

impl<H: HashFunction> Default for HashCore<H> {
    #[inline]
    fn default() -> Self {
        Self {
            state: H::OUTPUT.iv,
            block_len: Default::default(),
            kernel: current::<Algo<H>>(),
        }
    }
}

impl<H: HashFunction> Clone for HashCore<H> {
    fn clone(&self) -> Self {
        Self {
            state: self.state,
            block_len: self.block_len,
            kernel: self.kernel,
        }
    }
}

impl<H: HashFunction> HashMarker for HashCore<H> {}

impl<H: HashFunction> BlockSizeUser for HashCore<H> {
    type BlockSize = <Algo<H> as Registered>::BlockSize;
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
        self.block_len = self.block_len.plus(blocks.len());
        let blocks = Algo::<H>::core_blocks(blocks);
        // SAFETY: `kernel` came from the dispatcher or `lookup`, which check the CPU first.
        unsafe { compress_and_wipe::<Algo<H>>(self.kernel, &mut self.state, blocks) };
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
        self.state = H::OUTPUT.iv;
        self.block_len = Default::default();
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
        self.state.as_mut().zeroize();
        self.block_len.zeroize();
    }
}

impl<H: HashFunction> zeroize::ZeroizeOnDrop for HashCore<H> {}

impl<H: HashFunction> SerializableState for HashCore<H> {
    type SerializedStateSize = H::SerializedStateSize;

    /// The state words (little-endian) followed by the block count (little-endian, as wide as
    /// the algorithm's length field): the layout of `sha1`/`sha2` 0.11.
    fn serialize(&self) -> SerializedState<Self> {
        let mut out = SerializedState::<Self>::default();
        let words = self.state.as_ref();
        let word = <Algo<H> as Compression>::Word::BYTES;
        let (state_bytes, len_bytes) = out.split_at_mut(word * words.len());
        for (chunk, w) in state_bytes.chunks_exact_mut(word).zip(words) {
            w.write_le(chunk);
        }
        len_bytes.copy_from_slice(&self.block_len.to_u128().to_le_bytes()[..len_bytes.len()]);
        out
    }

    /// Restores a serialized state; the core runs the currently dispatched kernel (a
    /// serialized state carries no variant).
    fn deserialize(serialized: &SerializedState<Self>) -> Result<Self, DeserializeStateError> {
        let mut core = Self::default();
        let word = <Algo<H> as Compression>::Word::BYTES;
        let words = core.state.as_mut();
        let (state_bytes, len_bytes) = serialized.split_at(word * words.len());
        if len_bytes.len() > 16 || state_bytes.len() != word * words.len() {
            return Err(DeserializeStateError);
        }
        for (w, chunk) in words.iter_mut().zip(state_bytes.chunks_exact(word)) {
            *w = Word::from_le_slice(chunk);
        }
        let mut count = [0u8; 16];
        count[..len_bytes.len()].copy_from_slice(len_bytes);
        core.block_len = BlockCounter::from_u128(u128::from_le_bytes(count));
        Ok(core)
    }
}
