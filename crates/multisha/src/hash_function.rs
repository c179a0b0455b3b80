//! The type-level side of the registry: what the hashers, the one-shot functions and
//! [`Pinned`](crate::engine::Pinned) need of each hash function (its compression function's
//! side, [`Registered`], sits beside the slot it keys). Implemented by the registry
//! (`algorithms.rs`) only.

use crate::dispatch::Keyed;
use crate::registry::{Algorithm, Error};
use digest::array::ArraySize;
use multisha_contract::{OutputSpec, State};

/// A compression function the registry carries ([`Keyed`]: its handle, slot and block size),
/// with a hash function of its own: what is measured per compression function (the batch
/// planner's costs) runs as that function. Implemented by the registry (`algorithms.rs`) only.
///
/// `pub` but unnameable outside the crate (this module is private).
#[allow(unreachable_pub)]
pub trait Registered: Keyed + crate::core_storage::Stored {
    /// A hash function of this compression function (its first output).
    #[doc(hidden)]
    type Main: HashFunction<Compression = Self>;
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
    /// The initial value where the compression function's outputs keep it (read-only data):
    /// `&Self::OUTPUT.iv` in generic code made a copy of the whole output on the stack per
    /// call.
    #[doc(hidden)]
    const IV: &'static State<Self::Compression>;
    /// The name `digest`'s `AlgorithmName` reports (as RustCrypto's hashers do).
    const ALGORITHM_NAME: &'static str;

    /// A hasher that runs the named variant instead of the dispatched one (the hashers'
    /// inherent `with_variant`, for generic code).
    ///
    /// # Errors
    /// An unknown name or a variant this CPU cannot run.
    fn with_variant(name: &str) -> Result<Self, Error>;

    /// The digest of `data` with the dispatched variant: the one-shot function of this hash
    /// function (`multisha::sha256` for [`Sha256`](crate::Sha256)), for generic code.
    fn oneshot(data: &[u8]) -> Self::Digest;

    /// The digest of every message of `messages` into the digest at the same index of
    /// `digests`, with the dispatched many-message variant: the batch function of this hash
    /// function (`multisha::sha256_many` for [`Sha256`](crate::Sha256)), for generic code.
    ///
    /// # Panics
    /// If `messages` and `digests` differ in length.
    fn oneshot_many<M: AsRef<[u8]>>(messages: &[M], digests: &mut [Self::Digest]);

    /// `slot` as this function's digest, where it is a digest's length: a batch writes a
    /// one-shot digest into its slot in place, not through a copy whose wide loads wait for
    /// the narrow stores of the words just written (a store that cannot forward; the batch
    /// functions' `hash_many_from` has the figures).
    #[doc(hidden)]
    fn digest_in(slot: &mut [u8]) -> Option<&mut Self::Digest>;

    /// The compression function it runs.
    fn algorithm() -> Algorithm {
        <Self::Compression as Keyed>::ALGORITHM
    }

    /// The lower-case id (`"sha256"`).
    fn id() -> &'static str {
        Self::OUTPUT.id
    }
}
