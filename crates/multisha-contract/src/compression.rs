//! The descriptor of a compression function: everything that makes SHA-1, SHA-256 and SHA-512
//! differ, in one trait, so padding, wiping, dispatch, the hashers and the test harness are
//! written once for all of them.

use core::fmt::Debug;
use core::ops::{BitAnd, BitOr, BitXor, Not, Shr};

/// A word of the state and the schedule: `u32` (SHA-1, SHA-256) or `u64` (SHA-512).
pub trait Word:
    Copy
    + Default
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shr<u32, Output = Self>
    + zeroize::DefaultIsZeroes
{
    /// Size in bytes.
    const BYTES: usize;
    /// The word in `bytes` (exactly [`Self::BYTES`] long), big-endian.
    fn from_be_slice(bytes: &[u8]) -> Self;
    /// The word in `bytes` (exactly [`Self::BYTES`] long), little-endian.
    fn from_le_slice(bytes: &[u8]) -> Self;
    /// Writes the first `out.len()` (at most [`Self::BYTES`]) big-endian bytes.
    fn write_be(self, out: &mut [u8]);
    /// Writes the [`Self::BYTES`] little-endian bytes into `out`.
    fn write_le(self, out: &mut [u8]);
    /// Addition modulo 2^bits.
    fn wrapping_add(self, other: Self) -> Self;
    /// Rotation right by `n` bits.
    fn rotate_right(self, n: u32) -> Self;
}

macro_rules! impl_word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const BYTES: usize = core::mem::size_of::<$t>();
            #[inline(always)]
            fn from_be_slice(bytes: &[u8]) -> Self {
                <$t>::from_be_bytes(bytes.try_into().expect("one word of bytes"))
            }
            #[inline(always)]
            fn from_le_slice(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("one word of bytes"))
            }
            #[inline(always)]
            fn write_be(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_be_bytes()[..out.len()]);
            }
            #[inline(always)]
            fn write_le(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn rotate_right(self, n: u32) -> Self {
                <$t>::rotate_right(self, n)
            }
        }
    )*};
}
impl_word!(u32, u64);

/// The count of compressed blocks a streaming hasher keeps: `u64` for SHA-1 and SHA-256,
/// `u128` for SHA-512 (as wide as the length field, so it never wraps before the field does,
/// and serialized as `sha1`/`sha2` 0.11 serialize it).
pub trait BlockCounter:
    Copy + Default + Eq + Debug + Send + Sync + 'static + zeroize::DefaultIsZeroes
{
    /// Size in bytes.
    const BYTES: usize;
    /// As a `u128`.
    fn to_u128(self) -> u128;
    /// From the low bytes of a `u128`.
    fn from_u128(value: u128) -> Self;
}

macro_rules! impl_counter {
    ($($t:ty),*) => {$(
        impl BlockCounter for $t {
            const BYTES: usize = core::mem::size_of::<$t>();
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(value: u128) -> Self {
                value as $t
            }
        }
    )*};
}
impl_counter!(u64, u128);

/// A message block: `[u8; 64]` or `[u8; 128]`.
pub trait BlockBytes: Copy + Debug + Send + Sync + 'static + AsRef<[u8]> + AsMut<[u8]> {
    /// Size in bytes.
    const LEN: usize;
    /// An all-zero block.
    const ZERO: Self;
    /// `data` as whole blocks and the rest (shorter than a block), without copying.
    fn split(data: &[u8]) -> (&[Self], &[u8]);
}

macro_rules! impl_block {
    ($($n:literal),*) => {$(
        impl BlockBytes for [u8; $n] {
            const LEN: usize = $n;
            const ZERO: Self = [0; $n];
            #[inline(always)]
            fn split(data: &[u8]) -> (&[Self], &[u8]) {
                data.as_chunks::<$n>()
            }
        }
    )*};
}
impl_block!(64, 128);

/// One output of a compression function: its own initial value and digest length (SHA-224 is
/// SHA-256 with another IV, cut to 28 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputSpec<S: 'static> {
    /// Lower-case id (`"sha224"`), as in file names and on the command line.
    pub id: &'static str,
    /// Display name (`"SHA-224"`).
    pub name: &'static str,
    /// The initial chaining value.
    pub iv: S,
    /// Digest length in bytes.
    pub len: usize,
}

/// A compression function and everything tied to it. Implemented by one marker type per
/// algorithm ([`crate::Sha1Compression`], [`crate::Sha256Compression`], ...).
pub trait Compression: Copy + Debug + Send + Sync + 'static {
    /// Lower-case id (`"sha256"`).
    const ID: &'static str;
    /// Display name (`"SHA-256"`).
    const NAME: &'static str;
    /// The environment variable that overrides the single-message variant at probe time.
    const ENV_VAR: &'static str;
    /// The environment variable that overrides the many-message variant at probe time.
    const ENV_VAR_MANY: &'static str;
    /// The word of state and schedule.
    type Word: Word;
    /// The chaining state.
    type State: Copy
        + Default
        + Debug
        + PartialEq
        + Send
        + Sync
        + 'static
        + AsRef<[Self::Word]>
        + AsMut<[Self::Word]>;
    /// The message block.
    type Block: BlockBytes;
    /// The schedule workspace the caller owns and wipes once per call.
    type Workspace: crate::WorkspaceBuffer<Self::Word>;
    /// The schedule workspace of multi-lane kernels (transposed words of every lane), which
    /// the batch path owns and wipes once per batch call.
    type LaneWorkspace: crate::WorkspaceBuffer<Self::Word>;
    /// Width of the message-length field at the end of the padding, in bytes (8 or 16).
    const LENGTH_BYTES: usize;
    /// The block count of a streaming hasher (as wide as the length field).
    type Counter: BlockCounter;
    /// The outputs computed with this compression function (each with its IV).
    const OUTPUTS: &'static [OutputSpec<Self::State>];
    /// Rounds per block (the length of the expanded schedule).
    const ROUNDS: usize;
    /// The most lanes of any lane kernel of this compression function, at most
    /// [`MAX_LANES`](crate::MAX_LANES) (a lane kernel declared wider does not compile): a batch
    /// makes room for more than [`NARROW_SLOTS`](crate::NARROW_SLOTS) lanes only where this
    /// allows it.
    const WIDEST_LANES: usize;
    /// The expanded schedule ([`Compression::schedule`]) of the padding block of a message
    /// exactly one block long (a 64-byte Merkle node): the same for every such message, so a
    /// constant, which the lane kernels' constant entry takes without expanding it per batch.
    const ONE_BLOCK_PADDING: &'static [Self::Word];

    /// The expanded message schedule `w[0..ROUNDS]` of `block` (FIPS 180-4 §6.1.2, §6.2.2,
    /// §6.4.2): what a multi-lane kernel's constant entry takes.
    fn schedule(block: &Self::Block, w: &mut [Self::Word]);
}

/// The chaining state of `A`.
pub type State<A> = <A as Compression>::State;
/// The message block of `A`.
pub type Block<A> = <A as Compression>::Block;

/// Signature of every single-message compression variant of `A`: compresses a slice of blocks
/// into the state, keeping the schedule in the workspace (or in registers, ignoring it).
///
/// # Safety
/// The caller must make sure the CPU supports every feature the variant requires.
pub type KernelFn<A> = unsafe fn(&mut State<A>, &[Block<A>], &mut <A as Compression>::Workspace);

/// Signature of a single-message kernel's optional entry for messages of exactly one block
/// (64-byte Merkle nodes): hashes each `blocks[i]` from `iv` as a whole message (the block,
/// then the padding block, whose expanded schedule is the constant
/// [`Compression::ONE_BLOCK_PADDING`]) and writes its digest into `digests[i]`: the first
/// `digests[i].len()` bytes of the final state's big-endian words, one of the lengths of
/// [`Compression::OUTPUTS`]. No padding block is built, loaded or wiped, the state stays in
/// registers from the IV to the digest (nothing of it is left in memory to wipe), and the
/// kernel may run several messages side by side. `blocks` and `digests` have the same length.
///
/// # Safety
/// As [`KernelFn`].
pub type OneBlockFn<A> = unsafe fn(&State<A>, &[&Block<A>], &mut [&mut [u8]]);

/// Signature of every multi-lane kernel of `A`: compresses `blocks[i]` into `states[i]` for
/// every lane `i` at once. `states` and `blocks` have exactly the kernel's lane count, and
/// every lane has the same number of blocks (zero or more: on zero the kernel returns with the
/// states unchanged); a kernel may keep a transposed schedule in `w`, which the caller wipes
/// once per batch.
///
/// # Safety
/// The caller must make sure the CPU supports every feature the variant requires.
pub type LanesFn<A> =
    unsafe fn(&mut [State<A>], &[&[Block<A>]], &mut <A as Compression>::LaneWorkspace);

/// Signature of the second entry of every multi-lane kernel: one compression on every lane of
/// a block whose expanded schedule `w[0..rounds]` is given (the same for every lane): the
/// padding block of messages whose length is a multiple of the block size is constant, so its
/// schedule is computed once, not per message.
///
/// # Safety
/// As [`LanesFn`].
pub type ConstantFn<A> =
    unsafe fn(&mut [State<A>], &[<A as Compression>::Word], &mut <A as Compression>::LaneWorkspace);
