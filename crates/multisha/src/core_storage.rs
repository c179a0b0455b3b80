//! A hasher core's chaining state and block count, kept in 16-byte chunks each written whole.
//!
//! `finalize(self)` moves the hasher, and the move copies it 16 bytes at a time. A piece that
//! straddles values stored separately just before (the kernel's store of SHA-1's `e` and the
//! block count's, a buffer's position byte and its data) waits for those stores to reach the
//! cache, and nothing after it runs until then: new/update/finalize of 16 bytes took 1.6 times
//! the one-shot function on an Intel Xeon. So every chunk is written whole: a new storage by
//! one store a chunk; after each compression the chunk the count shares with the state's last
//! words ([`Storage::seal`]: SHA-1's `e`, read as a word, within the kernel's store of it),
//! the state's whole chunks being the kernels' own 16-byte stores (SHA-NI; a kernel that
//! stores word by word leaves those chunks to stall the move, as before); the holder's number
//! in a chunk of its own.

use multisha_contract::{
    Chunk, Compression, Sha1Compression, Sha256Compression, Sha512Compression, State,
};

/// The core storage of a compression function.
///
/// `pub` but unnameable outside the crate (this module is private).
#[allow(unreachable_pub)]
pub trait Stored: Compression {
    /// The chunks holding the state and the block count.
    type Storage: Storage<Self>;
    /// A partial block, as chunks ([`multisha_contract::write_chunks`] writes them).
    type Tail: Copy + Send + Sync + AsRef<[[u64; 2]]> + AsMut<[[u64; 2]]> + zeroize::Zeroize;
    /// An empty partial block.
    const EMPTY_TAIL: Self::Tail;
}

/// The chunks of a core: the state's words from the first chunk on, then the block count.
#[allow(unreachable_pub)]
pub trait Storage<A: Compression>: Copy + Send + Sync + 'static {
    /// `state` and `count`, every chunk written whole.
    fn new(state: &State<A>, count: u128) -> Self;
    /// The state.
    fn state(&self) -> &State<A>;
    /// The state, for a kernel to update in place ([`Storage::seal`] after).
    fn state_mut(&mut self) -> &mut State<A>;
    /// The block count (with the pin in its top bits).
    fn count(&self) -> u128;
    /// Sets the count, rewriting whole every chunk it shares with the state's last words (the
    /// kernels write the state's whole chunks with 16-byte stores).
    fn seal(&mut self, count: u128);
    /// A number its holder keeps beside the state (a streaming hasher: its partial block's
    /// length), in the last chunk, alone; zero in a new storage. Read with one load of its
    /// first word: read as two 4-byte loads of a chunk written by a 16-byte store, the second
    /// was not forwarded (a message fed a byte a call took 1.15-1.2 times as long).
    fn aux(&self) -> u32;
    /// Sets [`Storage::aux`], its chunk rewritten whole.
    fn set_aux(&mut self, aux: u32);
    /// Adds `n` to [`Storage::aux`], its chunk read and rewritten whole ([`Chunk::add_low`]:
    /// the short chain from one call to the next); the sum stays below 2^32 (the holder's
    /// part).
    fn add_aux(&mut self, n: u32);
    /// Zeroes every chunk in a way the optimiser keeps.
    fn wipe(&mut self);
}

/// A state word as chunk halves.
trait Packed: Copy {
    /// The words of one chunk as its two little-endian halves.
    fn halves(words: &[Self]) -> (u64, u64);
    /// The count as two words, low first.
    fn split(count: u128) -> [Self; 2];
    /// The count from its two words, low first.
    fn join(words: [Self; 2]) -> u128;
}

impl Packed for u32 {
    #[inline(always)]
    fn halves(w: &[u32]) -> (u64, u64) {
        (
            u64::from(w[0]) | u64::from(w[1]) << 32,
            u64::from(w[2]) | u64::from(w[3]) << 32,
        )
    }
    #[inline(always)]
    fn split(count: u128) -> [u32; 2] {
        [count as u32, (count >> 32) as u32]
    }
    #[inline(always)]
    fn join([lo, hi]: [u32; 2]) -> u128 {
        u128::from(lo) | u128::from(hi) << 32
    }
}

impl Packed for u64 {
    #[inline(always)]
    fn halves(w: &[u64]) -> (u64, u64) {
        (w[0], w[1])
    }
    #[inline(always)]
    fn split(count: u128) -> [u64; 2] {
        [count as u64, (count >> 64) as u64]
    }
    #[inline(always)]
    fn join([lo, hi]: [u64; 2]) -> u128 {
        u128::from(lo) | u128::from(hi) << 64
    }
}

/// One storage type: `$k` chunks of `$m` words `$w`, the state's `$s` words first, the count's
/// two words at word `$c`, the holder's number's two at `$a` (the words between are zero).
macro_rules! storage {
    ($(#[$doc:meta])* $name:ident for $alg:ty: [[$w:ty; $m:literal]; $k:literal],
        state $s:literal, count at $c:literal, aux at $a:literal, tail $tail:literal chunks) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        #[allow(unreachable_pub)]
        pub struct $name([[$w; $m]; $k]);

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!(stringify!($name), " { ... }"))
            }
        }

        impl Stored for $alg {
            type Storage = $name;
            type Tail = [[u64; 2]; $tail];
            const EMPTY_TAIL: Self::Tail = [[0; 2]; $tail];
        }

        impl Storage<$alg> for $name {
            #[inline(always)]
            fn new(state: &[$w; $s], count: u128) -> Self {
                // Every word in registers (the holder's number zero), then each chunk by one
                // store.
                let mut words = [0 as $w; $m * $k];
                words[..$s].copy_from_slice(state);
                words[$c..$c + 2].copy_from_slice(&<$w>::split(count));
                let mut storage = Self([[0; $m]; $k]);
                for (chunk, words) in storage.0.iter_mut().zip(words.chunks_exact($m)) {
                    let (lo, hi) = <$w>::halves(words);
                    chunk.store(lo, hi);
                }
                storage
            }

            #[inline(always)]
            fn state(&self) -> &[$w; $s] {
                self.0.as_flattened().first_chunk().expect("the state fits")
            }

            #[inline(always)]
            fn state_mut(&mut self) -> &mut [$w; $s] {
                self.0.as_flattened_mut().first_chunk_mut().expect("the state fits")
            }

            #[inline(always)]
            fn count(&self) -> u128 {
                let words = self.0.as_flattened();
                <$w>::join([words[$c], words[$c + 1]])
            }

            #[inline(always)]
            fn seal(&mut self, count: u128) {
                // Only the chunks from the state's last partial one to the count's: the
                // kernels write the state's whole chunks 16 bytes at a time themselves
                // (SHA-NI), and reading those back here lengthened the chain from one
                // compression to the next (a message fed 7 bytes at a time: 5 ns a block).
                const FIRST: usize = $s / $m;
                // The count's two words share a chunk.
                const { assert!($c % $m + 2 <= $m, "the count in one chunk") };
                const LAST: usize = $c / $m;
                let mut words = [0 as $w; $m * (LAST + 1 - FIRST)];
                let state = self.state();
                for (word, value) in words.iter_mut().zip(&state[FIRST * $m..]) {
                    *word = *value;
                }
                let at = $c - FIRST * $m;
                words[at..at + 2].copy_from_slice(&<$w>::split(count));
                for (chunk, words) in self.0[FIRST..=LAST].iter_mut().zip(words.chunks_exact($m)) {
                    let (lo, hi) = <$w>::halves(words);
                    chunk.store(lo, hi);
                }
            }

            #[inline(always)]
            fn aux(&self) -> u32 {
                // (A 64-bit word: its low half, little-endian or not.)
                self.0.as_flattened()[$a] as u32
            }

            #[inline(always)]
            fn set_aux(&mut self, aux: u32) {
                // Its chunk holds nothing else: one store, nothing read.
                const { assert!($a % $m == 0 && $a / $m == $k - 1, "aux has the last chunk") };
                self.0[$k - 1].store(u64::from(aux), 0);
            }

            #[inline(always)]
            fn add_aux(&mut self, n: u32) {
                self.0[$k - 1].add_low(u64::from(n));
            }

            #[inline]
            fn wipe(&mut self) {
                for chunk in &mut self.0 {
                    chunk.wipe();
                }
            }
        }
    };
}

storage!(
    /// SHA-1: `abcd`, then `e` and the count, then the holder's number.
    Sha1Storage for Sha1Compression: [[u32; 4]; 3], state 5, count at 6, aux at 8, tail 4 chunks
);
storage!(
    /// SHA-256: `abcd`, `efgh`, then the count, then the holder's number.
    Sha256Storage for Sha256Compression: [[u32; 4]; 4], state 8, count at 8, aux at 12, tail 4 chunks
);
storage!(
    /// SHA-512: the state in four chunks, then the count, then the holder's number.
    Sha512Storage for Sha512Compression: [[u64; 2]; 6], state 8, count at 8, aux at 10, tail 8 chunks
);

#[cfg(test)]
mod tests {
    use super::*;
    use multisha_contract::BlockCounter;

    fn round_trip<A: Stored>(state: State<A>) {
        for count in [
            0,
            1,
            0xff << 56,
            u128::from(u64::MAX),
            0x1234_5678_9abc_def0_1122,
        ] {
            let count = count & (u128::MAX >> (128 - A::Counter::BYTES * 8));
            let mut storage = A::Storage::new(&state, count);
            assert_eq!(storage.state(), &state);
            assert_eq!(storage.count(), count);
            assert_eq!(storage.aux(), 0);
            storage.set_aux(63);
            storage.seal(count ^ 1);
            assert_eq!(storage.state(), &state);
            assert_eq!(storage.count(), count ^ 1);
            assert_eq!(storage.aux(), 63);
            storage.set_aux(5);
            assert_eq!(
                (storage.state(), storage.count(), storage.aux()),
                (&state, count ^ 1, 5)
            );
            storage.add_aux(58);
            assert_eq!(
                (storage.state(), storage.count(), storage.aux()),
                (&state, count ^ 1, 63)
            );
            storage.wipe();
            assert_eq!(storage.count(), 0);
            assert!(
                storage
                    .state()
                    .as_ref()
                    .iter()
                    .all(|w| *w == Default::default())
            );
        }
    }

    #[test]
    fn state_and_count_round_trip() {
        round_trip::<Sha1Compression>(multisha_contract::SHA1_IV);
        round_trip::<Sha256Compression>(multisha_contract::SHA256_IV);
        round_trip::<Sha512Compression>(multisha_contract::SHA512_IV);
    }
}
