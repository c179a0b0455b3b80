//! The type-level side of the registry: what the hashers, the one-shot functions and
//! [`Pinned`](crate::engine::Pinned) need of an algorithm and of each of its outputs. Both
//! traits are implemented by the registry (`algorithms.rs`) only.

use crate::engine::Algorithm;
use crate::engine::dispatch::Slot;
use digest::array::{Array, ArraySize};
use digest::block_buffer::BlockSizes;
use multisha_contract::{Compression, OutputSpec, State};

/// A compression function the registry carries: its run-time handle, its dispatcher slot and
/// its block size as `digest` spells it.
///
/// `pub` but unnameable outside the crate (this module is private): the hashers' block size
/// comes from it, so it appears in their public trait impls.
#[allow(unreachable_pub)]
pub trait Registered: Compression {
    /// The block size (`U64`, `U128`), whose array type is the descriptor's block.
    type BlockSize: ArraySize<ArrayType<u8> = Self::Block> + BlockSizes;
    /// The run-time handle.
    const ALGORITHM: Algorithm;
    /// A hash function of this compression function (its first output), for what is measured
    /// per compression function: the batch planner's costs.
    #[doc(hidden)]
    type Main: HashFunction<Compression = Self>;
    /// The dispatcher state.
    #[doc(hidden)]
    fn slot() -> &'static Slot<Self>;
    /// `digest`'s blocks as the descriptor's, without copying.
    fn core_blocks(blocks: &[Array<u8, Self::BlockSize>]) -> &[Self::Block];
}

mod sealed {
    pub trait Sealed {}
}
pub(crate) use sealed::Sealed;

/// One hash function of the engine: the hasher types ([`Sha256`](crate::Sha256), ...)
/// implement it, so [`Pinned`](crate::engine::Pinned) and generic code can name a hash
/// function by its hasher. Sealed.
#[allow(private_bounds)]
pub trait HashFunction: Sealed + Sized + 'static {
    /// The digest as an array (`[u8; 32]` for SHA-256).
    type Digest: Copy + AsRef<[u8]> + AsMut<[u8]> + core::fmt::Debug + PartialEq + Eq;
    /// The digest size as `digest` spells it.
    type OutputSize: ArraySize;
    /// Serialized state size: the state words plus the block count, as `sha1`/`sha2` 0.11.
    type SerializedStateSize: ArraySize;
    #[doc(hidden)]
    type Compression: Registered;
    /// An all-zero digest, to write into.
    const ZERO: Self::Digest;
    /// The output's id, name, initial value and length.
    #[doc(hidden)]
    const OUTPUT: OutputSpec<State<Self::Compression>>;
    /// The name `digest`'s `AlgorithmName` reports (as RustCrypto's hashers do).
    const ALGORITHM_NAME: &'static str;

    /// A hasher that runs the named variant instead of the dispatched one (the hashers'
    /// inherent `with_variant`, for generic code).
    ///
    /// # Errors
    /// An unknown name or a variant this CPU cannot run.
    fn with_variant(name: &str) -> Result<Self, crate::engine::Error>;

    /// The digest of `data` with the dispatched variant: the one-shot function of this hash
    /// function (`multisha::sha256` for [`Sha256`](crate::Sha256)), for generic code.
    #[inline]
    fn oneshot(data: &[u8]) -> Self::Digest {
        // SAFETY: the slot holds the probe or a kernel the CPU runs.
        unsafe {
            crate::oneshot::hash::<Self>(
                crate::engine::dispatch::installed::<Self::Compression>(),
                data,
            )
        }
    }

    /// The digest of every message of `messages` into the digest at the same index of
    /// `digests`, with the dispatched many-message variant: the batch function of this hash
    /// function (`multisha::sha256_many` for [`Sha256`](crate::Sha256)), for generic code.
    ///
    /// # Panics
    /// If `messages` and `digests` differ in length.
    fn oneshot_many(messages: &[&[u8]], digests: &mut [Self::Digest]) {
        crate::batch::hash_many::<Self, _, _>(messages, digests);
    }

    /// The compression function it runs.
    fn algorithm() -> Algorithm {
        <Self::Compression as Registered>::ALGORITHM
    }

    /// The lower-case id (`"sha256"`).
    fn id() -> &'static str {
        Self::OUTPUT.id
    }
}
