//! The streaming hashers (`Sha256` and the others): a core and the message's partial block,
//! laid out for `finalize(self)`.
//!
//! `finalize` moves the hasher, and the move copies it 16 bytes at a time: a piece holding
//! bytes of several stores made just before (the partial block's position byte and its data,
//! SHA-1's `e` and the block count) waits until they reach the cache, and nothing after it
//! runs until then. `digest`'s buffer keeps its position in its last byte, so every
//! new/update/finalize paid that wait: 1.5-1.7 times the one-shot function's time for 16
//! bytes on an Intel Xeon. Here every 16-byte chunk of the hasher is written whole: the
//! partial block by [`write_chunks`], its length in a chunk of its own, the core by
//! [`crate::core_storage`]; the move then forwards from those stores.
//!
//! On an AMD Zen 4 a store whose address waits on the partial block's length (read from the
//! hasher) held back the loads after it, which may alias it: `finalize` pads from the partial
//! block by stores at fixed places ([`multisha_contract::pad_chunks_into`]), and the first
//! piece of a block is written at fixed places too. The drop wipes each chunk by one 16-byte
//! store ([`Chunk::wipe`]). Together: new/update/finalize of 16 bytes 0.70-0.86 times
//! RustCrypto's speed before, 0.98-1.24 after (SHA-1, SHA-224, SHA-256; the report's short
//! paths, Zen 4).

use crate::block_api::HashCore;
use crate::core_storage::Stored;
use crate::hash_function::HashFunction;
use digest::block_api::Buffer;
use multisha_contract::{BlockBytes, Chunk, Compression, chunk_bytes, write_chunks};

type Algo<H> = <H as HashFunction>::Compression;

/// A streaming hasher's value: the message's partial block, and the core, which keeps the
/// partial block's length beside the state. 112 and 128 bytes for SHA-1 and SHA-256: a larger
/// value was moved into `finalize` by a call to `memcpy`, whose 32-byte loads span two chunks.
#[repr(C, align(16))]
pub(crate) struct Streaming<H: HashFunction> {
    /// The partial block: its first `core.tail_len()` bytes.
    tail: <Algo<H> as Stored>::Tail,
    core: HashCore<H>,
}

impl<H: HashFunction> Streaming<H> {
    /// A hasher around `core`, its partial block `tail` (shorter than a block).
    #[inline]
    pub(crate) fn new(core: HashCore<H>, tail: &[u8]) -> Self {
        let mut hasher = Self {
            tail: <Algo<H> as Stored>::EMPTY_TAIL,
            core,
        };
        write_chunks(hasher.tail.as_mut(), 0, tail);
        hasher.core.set_tail_len(tail.len());
        hasher
    }

    /// The core.
    #[inline]
    pub(crate) fn core(&self) -> &HashCore<H> {
        &self.core
    }

    /// The partial block.
    #[inline]
    fn tail(&self) -> &[u8] {
        &chunk_bytes(self.tail.as_ref())[..self.core.tail_len()]
    }

    /// Hashes `data` after what came before: whole blocks straight from `data`, the rest kept.
    /// What stays in the partial block is written here, nothing kept across a call; a block
    /// filled goes out of line ([`Streaming::fill`]). Where the caller's compiler does not
    /// inline `update` (a program with several call sites), the call then saves two registers,
    /// not six: a message fed 7 bytes a call hashed 1.15 times as fast there.
    #[inline(always)]
    pub(crate) fn update(&mut self, data: &[u8]) {
        let block = <Algo<H> as Compression>::Block::LEN;
        let pos = self.core.tail_len();
        if data.len() < block - pos {
            // The length first: nothing is left to do after the copy.
            self.core.grow_tail(data.len());
            // A first piece (the usual new/update/finalize) at addresses fixed in the code:
            // `pos` comes from memory, and stores whose address waits on it held back the
            // loads of the hasher after them (its move into `finalize`), which may alias
            // them: 16 bytes took 1.3 times as long on an AMD Zen 4.
            if pos == 0 {
                write_chunks(self.tail.as_mut(), 0, data);
            } else {
                write_chunks(self.tail.as_mut(), pos, data);
            }
            return;
        }
        self.fill(pos, data);
    }

    /// [`Streaming::update`] of `data` that fills the partial block of `pos` bytes: that block
    /// compressed, then the whole blocks of `data`, the rest kept.
    #[inline(never)]
    fn fill(&mut self, pos: usize, mut data: &[u8]) {
        let block = <Algo<H> as Compression>::Block::LEN;
        if pos != 0 {
            let (head, rest) = data.split_at(block - pos);
            write_chunks(self.tail.as_mut(), pos, head);
            let (whole, _) =
                <Algo<H> as Compression>::Block::split(chunk_bytes(self.tail.as_ref()));
            self.core.compress(whole);
            data = rest;
        }
        let (blocks, rest) = <Algo<H> as Compression>::Block::split(data);
        if !blocks.is_empty() {
            self.core.compress(blocks);
        }
        write_chunks(self.tail.as_mut(), 0, rest);
        self.core.set_tail_len(rest.len());
    }

    /// Writes the digest into `out`; the hasher is dropped or reset next.
    #[inline]
    pub(crate) fn finalize_into(&mut self, out: &mut [u8]) {
        let len = self.core.tail_len();
        self.core.finish_chunks(self.tail.as_ref(), len, out);
    }

    /// Back to the initial value, the partial block wiped; a pinned hasher stays pinned.
    #[inline]
    pub(crate) fn reset(&mut self) {
        digest::Reset::reset(&mut self.core);
        self.wipe_tail();
    }

    /// Zeroes the partial block, each chunk by one store ([`Chunk::wipe`]).
    #[inline]
    fn wipe_tail(&mut self) {
        for chunk in self.tail.as_mut() {
            chunk.wipe();
        }
    }

    /// The core and the partial block as `digest`'s buffer.
    #[inline]
    pub(crate) fn decompose(&self) -> (HashCore<H>, Buffer<HashCore<H>>) {
        (self.core.clone(), Buffer::<HashCore<H>>::new(self.tail()))
    }
}

impl<H: HashFunction> Default for Streaming<H> {
    #[inline]
    fn default() -> Self {
        Self::new(HashCore::default(), &[])
    }
}

impl<H: HashFunction> Clone for Streaming<H> {
    #[inline]
    fn clone(&self) -> Self {
        Self {
            tail: self.tail,
            core: self.core.clone(),
        }
    }
}

impl<H: HashFunction> Drop for Streaming<H> {
    fn drop(&mut self) {
        self.wipe_tail();
    }
}

/// A streaming hasher type `$hasher` around [`Streaming`]: every `digest` trait its
/// RustCrypto counterpart has (`buffer_fixed!`'s), each forwarded to the generic code.
macro_rules! hasher {
    ($(#[$attr:meta])* $hasher:ident, oid $oid:literal) => {
        $(#[$attr])*
        pub struct $hasher(crate::streaming::Streaming<$hasher>);

        impl core::fmt::Debug for $hasher {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!(stringify!($hasher), " { ... }"))
            }
        }

        impl digest::common::AlgorithmName for $hasher {
            fn write_alg_name(f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                <crate::block_api::HashCore<$hasher> as digest::common::AlgorithmName>::write_alg_name(f)
            }
        }

        impl digest::block_api::BlockSizeUser for $hasher {
            type BlockSize = <crate::block_api::HashCore<$hasher> as digest::block_api::BlockSizeUser>::BlockSize;
        }

        impl digest::OutputSizeUser for $hasher {
            type OutputSize = <$hasher as crate::hash_function::HashFunction>::OutputSize;
        }

        impl digest::block_api::CoreProxy for $hasher {
            type Core = crate::block_api::HashCore<$hasher>;
            fn compose(core: Self::Core, buffer: digest::block_api::Buffer<Self::Core>) -> Self {
                Self(crate::streaming::Streaming::new(core, buffer.get_data()))
            }
            fn decompose(self) -> (Self::Core, digest::block_api::Buffer<Self::Core>) {
                self.0.decompose()
            }
        }

        impl digest::Update for $hasher {
            #[inline]
            fn update(&mut self, data: &[u8]) {
                self.0.update(data);
            }
        }

        impl digest::FixedOutput for $hasher {
            #[inline]
            fn finalize_into(mut self, out: &mut digest::Output<Self>) {
                self.0.finalize_into(out);
            }
        }

        impl digest::FixedOutputReset for $hasher {
            #[inline]
            fn finalize_into_reset(&mut self, out: &mut digest::Output<Self>) {
                self.0.finalize_into(out);
                self.0.reset();
            }
        }

        impl digest::Reset for $hasher {
            #[inline]
            fn reset(&mut self) {
                self.0.reset();
            }
        }

        impl Default for $hasher {
            #[inline]
            fn default() -> Self {
                Self(Default::default())
            }
        }

        impl Clone for $hasher {
            #[inline]
            fn clone(&self) -> Self {
                Self(self.0.clone())
            }
        }

        impl digest::HashMarker for $hasher {}

        impl digest::common::hazmat::SerializableState for $hasher {
            type SerializedStateSize = digest::typenum::Sum<
                <$hasher as crate::hash_function::HashFunction>::SerializedStateSize,
                digest::block_buffer::SerializedBufferSize<
                    <Self as digest::block_api::BlockSizeUser>::BlockSize,
                    digest::block_api::Eager,
                >,
            >;

            /// The core's state, then the partial block as `digest`'s buffer serializes it:
            /// the layout of `sha1`/`sha2` 0.11.
            fn serialize(&self) -> digest::common::hazmat::SerializedState<Self> {
                let (core, buffer) = self.0.decompose();
                core.serialize().concat(buffer.serialize())
            }

            fn deserialize(
                serialized: &digest::common::hazmat::SerializedState<Self>,
            ) -> Result<Self, digest::common::hazmat::DeserializeStateError> {
                use digest::common::hazmat::{DeserializeStateError, SerializableState};
                let (core, buffer) = serialized
                    .split_ref::<<$hasher as crate::hash_function::HashFunction>::SerializedStateSize>();
                let core = SerializableState::deserialize(core)?;
                let buffer = digest::block_buffer::BlockBuffer::deserialize(buffer)
                    .map_err(|_| DeserializeStateError)?;
                Ok(<Self as digest::block_api::CoreProxy>::compose(core, buffer))
            }
        }

        #[cfg(feature = "zeroize")]
        impl digest::zeroize::ZeroizeOnDrop for $hasher {}

        #[cfg(feature = "oid")]
        impl digest::const_oid::AssociatedOid for $hasher {
            const OID: digest::const_oid::ObjectIdentifier =
                digest::const_oid::ObjectIdentifier::new_unwrap($oid);
        }
    };
}

pub(crate) use hasher;
