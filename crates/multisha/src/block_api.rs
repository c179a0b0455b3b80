//! Block-level hasher cores (digest 0.11 `UpdateCore` + `FixedOutputCore`, eager buffer).
//!
//! One generic core serves SHA-1, SHA-224 and SHA-256; a [`Spec`] supplies the initial value,
//! the output size and the kernel family. The core stores its kernel pointer, taken from the
//! dispatcher when it is created (or pinned to one variant), so an update costs one indirect
//! call and nothing else.

use crate::dispatch::{self, Dispatched};
use crate::{Algorithm, Error};
use core::fmt;
use digest::array::{Array, ArraySize};
use digest::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, FixedOutputCore,
    OutputSizeUser, Reset, UpdateCore,
};
use digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};
use digest::typenum::{U20, U28, U32, U40, U64};
use digest::{HashMarker, Output};
use multisha_contract::{Family, SHA1_IV, SHA224_IV, SHA256_IV, compress_and_wipe, write_digest};
use zeroize::Zeroize;

mod sealed {
    #[allow(unreachable_pub)]
    pub trait Sealed {}
}

/// What distinguishes SHA-1, SHA-224 and SHA-256 at the block level. Sealed.
#[allow(private_bounds)]
pub trait Spec: sealed::Sealed + 'static {
    /// The compression family (and the dispatcher slot) it uses.
    #[doc(hidden)]
    type Family: Dispatched;
    /// Digest size in bytes.
    type OutputSize: ArraySize;
    /// Serialized state size: the state words plus the 64-bit block count.
    type SerializedStateSize: ArraySize;
    /// The compression function.
    const ALGORITHM: Algorithm;
    /// The initial chaining value.
    #[doc(hidden)]
    const IV: <Self::Family as Family>::State;
    /// The name `AlgorithmName` reports.
    const NAME: &'static str;
}

/// SHA-1 parameters.
#[derive(Debug, Clone, Copy)]
pub enum Sha1Spec {}
/// SHA-224 parameters.
#[derive(Debug, Clone, Copy)]
pub enum Sha224Spec {}
/// SHA-256 parameters.
#[derive(Debug, Clone, Copy)]
pub enum Sha256Spec {}

impl sealed::Sealed for Sha1Spec {}
impl sealed::Sealed for Sha224Spec {}
impl sealed::Sealed for Sha256Spec {}

impl Spec for Sha1Spec {
    type Family = multisha_contract::Sha1;
    type OutputSize = U20;
    type SerializedStateSize = U28;
    const ALGORITHM: Algorithm = Algorithm::Sha1;
    const IV: [u32; 5] = SHA1_IV;
    const NAME: &'static str = "Sha1";
}

impl Spec for Sha224Spec {
    type Family = multisha_contract::Sha256;
    type OutputSize = U28;
    type SerializedStateSize = U40;
    const ALGORITHM: Algorithm = Algorithm::Sha256;
    const IV: [u32; 8] = SHA224_IV;
    const NAME: &'static str = "Sha224";
}

impl Spec for Sha256Spec {
    type Family = multisha_contract::Sha256;
    type OutputSize = U32;
    type SerializedStateSize = U40;
    const ALGORITHM: Algorithm = Algorithm::Sha256;
    const IV: [u32; 8] = SHA256_IV;
    const NAME: &'static str = "Sha256";
}

/// Block-level SHA-1 core.
pub type Sha1Core = HashCore<Sha1Spec>;
/// Block-level SHA-224 core.
pub type Sha224Core = HashCore<Sha224Spec>;
/// Block-level SHA-256 core.
pub type Sha256Core = HashCore<Sha256Spec>;

type State<S> = <<S as Spec>::Family as Family>::State;
type Kernel<S> = <<S as Spec>::Family as Family>::Kernel;

/// The block-level core of a hasher: chaining state, block count and the kernel it runs.
pub struct HashCore<S: Spec> {
    state: State<S>,
    block_len: u64,
    kernel: Kernel<S>,
}

impl<S: Spec> HashCore<S> {
    /// A core that runs the named variant instead of the dispatched one.
    ///
    /// # Errors
    /// An unknown name or a variant this CPU cannot run.
    pub fn with_variant(name: &str) -> Result<Self, Error> {
        let variant = crate::select::lookup(S::ALGORITHM, name, crate::CpuFeatures::detect())?;
        Ok(Self {
            state: S::IV,
            block_len: 0,
            kernel: S::Family::kernel_of(variant),
        })
    }

    /// Pads in place in the buffer and compresses the one or two final blocks with one
    /// workspace, wiped once.
    fn finish(&self, buffer: &mut Buffer<Self>, out: &mut [u8]) {
        let message_len = self
            .block_len
            .wrapping_mul(64)
            .wrapping_add(buffer.get_pos() as u64);
        let mut state = self.state;
        let mut w = <S::Family as Family>::Workspace::default();
        buffer.len64_padding_be(message_len.wrapping_mul(8), |block| {
            // SAFETY: `kernel` came from the dispatcher or `lookup`, which check the CPU first.
            unsafe {
                S::Family::call(
                    self.kernel,
                    &mut state,
                    core::slice::from_ref(&block.0),
                    &mut w,
                )
            };
        });
        S::Family::wipe(&mut w);
        write_digest(state.as_ref(), out);
        state.as_mut().zeroize();
    }
}

impl<S: Spec> Default for HashCore<S> {
    #[inline]
    fn default() -> Self {
        Self {
            state: S::IV,
            block_len: 0,
            kernel: dispatch::current::<S::Family>(),
        }
    }
}

impl<S: Spec> Clone for HashCore<S> {
    fn clone(&self) -> Self {
        Self {
            state: self.state,
            block_len: self.block_len,
            kernel: self.kernel,
        }
    }
}

impl<S: Spec> HashMarker for HashCore<S> {}

impl<S: Spec> BlockSizeUser for HashCore<S> {
    type BlockSize = U64;
}

impl<S: Spec> BufferKindUser for HashCore<S> {
    type BufferKind = Eager;
}

impl<S: Spec> OutputSizeUser for HashCore<S> {
    type OutputSize = S::OutputSize;
}

impl<S: Spec> UpdateCore for HashCore<S> {
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        self.block_len = self.block_len.wrapping_add(blocks.len() as u64);
        let blocks = Array::cast_slice_to_core(blocks);
        // SAFETY: `kernel` came from the dispatcher or `lookup`, which check the CPU first.
        unsafe { compress_and_wipe::<S::Family>(self.kernel, &mut self.state, blocks) };
    }
}

impl<S: Spec> FixedOutputCore for HashCore<S> {
    #[inline]
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        self.finish(buffer, out);
    }
}

impl<S: Spec> Reset for HashCore<S> {
    /// Back to the initial value; a pinned core stays pinned.
    #[inline]
    fn reset(&mut self) {
        self.state = S::IV;
        self.block_len = 0;
    }
}

impl<S: Spec> AlgorithmName for HashCore<S> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(S::NAME)
    }
}

impl<S: Spec> fmt::Debug for HashCore<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}Core {{ ... }}", S::NAME)
    }
}

impl<S: Spec> Drop for HashCore<S> {
    fn drop(&mut self) {
        self.state.as_mut().zeroize();
        self.block_len.zeroize();
    }
}

impl<S: Spec> zeroize::ZeroizeOnDrop for HashCore<S> {}

impl<S: Spec> SerializableState for HashCore<S> {
    type SerializedStateSize = S::SerializedStateSize;

    /// The state words (little-endian) followed by the block count (little-endian).
    fn serialize(&self) -> SerializedState<Self> {
        let mut out = SerializedState::<Self>::default();
        let words = self.state.as_ref();
        let (state_bytes, len_bytes) = out.split_at_mut(4 * words.len());
        for (chunk, word) in state_bytes.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        len_bytes.copy_from_slice(&self.block_len.to_le_bytes());
        out
    }

    /// Restores a serialized state; the core runs the currently dispatched kernel.
    fn deserialize(serialized: &SerializedState<Self>) -> Result<Self, DeserializeStateError> {
        let mut core = Self::default();
        let words = core.state.as_mut();
        let (state_bytes, len_bytes) = serialized.split_at(4 * words.len());
        for (word, chunk) in words.iter_mut().zip(state_bytes.chunks_exact(4)) {
            *word = u32::from_le_bytes(chunk.try_into().map_err(|_| DeserializeStateError)?);
        }
        core.block_len =
            u64::from_le_bytes(len_bytes.try_into().map_err(|_| DeserializeStateError)?);
        Ok(core)
    }
}
