//! The lane executor: runs a batch as a [`Plan`] says, stage after stage, one lane scheduler
//! shared by every multi-lane kernel.
//!
//! * Each lane compresses one message: its whole blocks straight from the input, then its
//!   padded tail (one or two blocks) built in a buffer of the lane's slot when a kernel call
//!   first needs it. A kernel call runs the same number of blocks on every lane, the fewest any
//!   busy lane has left in its current segment (data or tail); a lane that finishes is refilled
//!   with the next message at once (as Intel's ISA-L lane managers do), so ragged lengths cost
//!   no more than their blocks.
//! * Messages are taken longest first within windows of [`WINDOW`] (the last window ends at
//!   the batch's end), so the lanes run similar lengths side by side and the batch ends with
//!   short messages. A window whose messages are already in that order is not sorted; one of
//!   equal lengths runs on over the next windows of its length, as one.
//! * Each stage of the plan takes the next messages in that order and runs them to the end:
//!   on a lane kernel, or one by one through the single-message kernel.
//! * Equal lengths (the common batch: 32-byte keys, 64-byte Merkle nodes, fixed-size chunks)
//!   skip the per-lane bookkeeping: when no lane is busy and the next messages of the window
//!   are of one length, a whole group of them runs side by side, data in one call, tails in
//!   another ([`Batch::run_group`]). At 32 bytes the bookkeeping cost as much as the kernel.
//! * When every busy lane is at the tail of a message whose length is a multiple of the block
//!   size, all of them the same length, the tail is the same padding block on every lane: the
//!   kernel's constant entry runs the rounds alone, on a schedule that is a constant for
//!   messages of one block (Merkle nodes) and otherwise expanded once, when enough messages are
//!   left to pay for the expansion.
//! * Idle lanes (no message left) repeat a busy lane's input; their results are dropped.
//! * The last messages of a stage (fewer than twice the lanes), when they are long (2 KiB and
//!   up: [`rotates`]), are all started at once, those beyond the lanes parked in
//!   the next slots, and the lanes rotate among them longest remaining first, so they end
//!   together: 5 messages of 4 KiB on 4 lanes take 1.25 times one message's blocks instead of
//!   2 ([`Batch::rotate`]). Shorter ones run on the lanes as they come.
//! * Every message starts from the hash function's IV or, for the HMAC batches, from a keyed
//!   state after a block that every message shares ([`Start`]): the lanes' states begin there
//!   and each length field counts that block; the one-block paths, whose padding is that of a
//!   message of one block in all, run from the IV only.
//! * The lanes' states and tails ([`LaneBuffers`]) and the kernels' transposed schedule are
//!   message data: each is wiped once per batch call (a tail buffer is overwritten, not wiped,
//!   between messages), the lane buffers only in the slots the batch used.
//! * A batch has sixteen slots ([`NARROW_SLOTS`]), or thirty-two where its plan runs a kernel
//!   wider than sixteen lanes (`avx512-x32`): the slots' arrays are set up for every batch.

use super::start::{FromIv, Start};
use crate::dispatch::{self, Keyed, Ladder};
use crate::hash_function::HashFunction;
use multisha_contract::{
    BlockBytes, Compression, KernelFn, LaneBuffers, LaneKernel, MAX_LANES, NARROW_SLOTS,
    OneBlockFn, OneShot, WorkspaceBuffer, pad_into, write_digest,
};
use multisha_plan::shape::{ROTATION_SLOTS, WINDOW, message_blocks, rotates, window_of};
use multisha_plan::{Plan, Runner};

/// Bits of a window offset in a sort key ([`window_key`]).
const WINDOW_BITS: u32 = {
    assert!(
        WINDOW.is_power_of_two(),
        "offsets in a window fill whole bits"
    );
    WINDOW.trailing_zeros()
};

/// Lengths up to this sort exactly in a key; longer ones (no real message) sort as this.
const KEY_LEN_MAX: u64 = (1 << (u64::BITS - WINDOW_BITS)) - 1;

/// The sort key of a message of `len` bytes at `offset` in its window: keys in ascending order
/// are the messages longest first, ties in index order. The length's complement fills the
/// high bits, the offset the low [`WINDOW_BITS`].
fn window_key(len: usize, offset: usize) -> u64 {
    debug_assert!(offset < WINDOW);
    let len = (len as u64).min(KEY_LEN_MAX);
    (!len << WINDOW_BITS) | offset as u64
}

/// The window offset a [`window_key`] holds.
fn window_offset(key: u64) -> usize {
    (key & ((1 << WINDOW_BITS) - 1)) as usize
}

/// Hashes `messages` into `digests` as `plan` says: its lane stages on `ladder`'s kernels
/// (indexed as the plan's [`Runner::Lanes`]), its one-by-one stages on `single`.
///
/// # Safety
/// Every kernel must run on this CPU (they come from the dispatcher or a pinned variant, which
/// check).
#[cfg(any(test, feature = "std"))]
#[inline(always)]
pub(crate) unsafe fn execute<H, M, D>(
    plan: &Plan,
    ladder: &Ladder<H::Compression>,
    single: OneByOneKernel<H::Compression>,
    messages: &M,
    digests: &mut D,
) where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    // SAFETY: forwarded from the caller.
    unsafe { execute_from::<H, M, D, _>(plan, ladder, single, FromIv::<H>::NEW, messages, digests) }
}

/// [`execute`] with every message starting from `start` (a keyed state: HMAC).
///
/// # Safety
/// As [`execute`].
pub(crate) unsafe fn execute_from<H, M, D, S>(
    plan: &Plan,
    ladder: &Ladder<H::Compression>,
    single: OneByOneKernel<H::Compression>,
    start: S,
    messages: &M,
    digests: &mut D,
) where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    debug_assert_eq!(
        plan.stages().map(|s| s.count).sum::<usize>(),
        messages.count()
    );
    if plan.is_one_by_one() {
        // No lane buffers to set up or wipe.
        return serial_in::<H, M, D, S>(single, start, messages, 0..messages.count(), digests);
    }
    // Room for more than the narrow slots only where a kernel of the plan needs it (the
    // condition on the compression function is a constant: no code for wide slots where no
    // kernel is wide).
    let wide = <H::Compression as Compression>::WIDEST_LANES > NARROW_SLOTS
        && plan.stages().any(|stage| match stage.runner {
            Runner::Lanes(k) => ladder.kernel(k).lanes > NARROW_SLOTS,
            Runner::OneByOne => false,
        });
    // (The one-block paths' padding is a whole message of one block: from the IV only.)
    if S::FROM_IV && one_block_each::<H, M>(messages) {
        // SAFETY: forwarded from the caller.
        return unsafe {
            if wide {
                one_block_stages::<H, M, D, MAX_LANES>(plan, ladder, single, messages, digests)
            } else {
                one_block_stages::<H, M, D, NARROW_SLOTS>(plan, ladder, single, messages, digests)
            }
        };
    }
    // SAFETY: forwarded from the caller.
    unsafe {
        if wide {
            run_stages::<H, M, D, S, MAX_LANES>(plan, ladder, single, start, messages, digests);
        } else {
            run_stages::<H, M, D, S, NARROW_SLOTS>(plan, ladder, single, start, messages, digests);
        }
    }
}

/// [`execute_from`] past the one-by-one and one-block paths, in a batch of `SLOTS` slots (at
/// least the plan's widest kernel's lanes).
///
/// # Safety
/// As [`execute`].
unsafe fn run_stages<H, M, D, S, const SLOTS: usize>(
    plan: &Plan,
    ladder: &Ladder<H::Compression>,
    single: OneByOneKernel<H::Compression>,
    start: S,
    messages: &M,
    digests: &mut D,
) where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    let mut batch = Batch::<H, M, D, S, SLOTS>::new(messages, digests, start);
    for stage in plan.stages() {
        batch.limit += stage.count;
        match stage.runner {
            Runner::Lanes(k) => {
                #[cfg(test)]
                LANE_STAGES.with(|n| n.set(n.get() + 1));
                batch.run_level(ladder.kernel(k))
            }
            Runner::OneByOne => {
                let mut buffers = OneShot::<H::Compression>::new();
                let OneByOneKernel { kernel, one_block } = single;
                while let Some(index) = batch.next_job() {
                    // SAFETY: the single-message kernel comes from the dispatcher, which checks
                    // the CPU.
                    let digest = unsafe {
                        crate::oneshot::hash_in_from::<H, S>(
                            &mut buffers,
                            kernel,
                            one_block,
                            start,
                            messages.get(index),
                        )
                    };
                    batch.digests.put(index, &digest);
                }
            }
        }
    }
    // `batch` is wiped by its `Drop` as it goes out of scope here, or on the way out of a
    // panic (a caller's `Messages` or `Digests`). Dropped in place: `drop(batch)` would move
    // it, leaving an unwiped copy of the lanes' states in this frame.
}

/// Whether every message is exactly one block long (64-byte Merkle nodes). The first length
/// first: most batches are settled by it; for arrays (`[[u8; 64]]`) the rest folds away.
#[inline(always)]
fn one_block_each<H: HashFunction, M: Messages + ?Sized>(messages: &M) -> bool {
    let len = <Block<H> as BlockBytes>::LEN;
    messages.count() > 0 && messages.get(0).len() == len && messages.equal_len() == Some(len)
}

/// [`execute`] for messages of one block each: each stage over its messages in index order
/// (every length is the same, so no window needs sorting), a lane stage in groups of the
/// kernel's lanes ([`one_block_groups`]), a one-by-one stage in pairs ([`serial_in`]). No
/// lane tails, jobs or windows: at 16 nodes on `shani-x4` they were a fifth of the batch. The
/// lanes' states and workspace are wiped once, as the batch ends.
///
/// # Safety
/// As [`execute`].
unsafe fn one_block_stages<H, M, D, const SLOTS: usize>(
    plan: &Plan,
    ladder: &Ladder<H::Compression>,
    single: OneByOneKernel<H::Compression>,
    messages: &M,
    digests: &mut D,
) where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    let mut buffers = GroupBuffers::<H::Compression, SLOTS>::new();
    let mut start = 0;
    for stage in plan.stages() {
        let range = start..start + stage.count;
        match stage.runner {
            // SAFETY: forwarded from the caller.
            Runner::Lanes(k) => unsafe {
                one_block_groups::<H, M, D, SLOTS>(
                    ladder.kernel(k),
                    messages,
                    range,
                    digests,
                    &mut buffers,
                )
            },
            Runner::OneByOne => {
                serial_in::<H, M, D, _>(single, FromIv::<H>::NEW, messages, range, digests)
            }
        }
        start += stage.count;
    }
}

/// The lanes' states and workspace of [`one_block_groups`], wiped when dropped (on return and
/// on unwind alike: a caller's `Messages` or `Digests` may panic): the states of the widest
/// kernel's lanes, the workspace's words in use.
struct GroupBuffers<A: Compression, const SLOTS: usize> {
    states: [A::State; SLOTS],
    workspace: A::LaneWorkspace,
    /// Lanes of the widest kernel that ran.
    used: usize,
}

impl<A: Compression, const SLOTS: usize> GroupBuffers<A, SLOTS> {
    fn new() -> Self {
        Self {
            states: [A::State::default(); SLOTS],
            workspace: Default::default(),
            used: 0,
        }
    }
}

impl<A: Compression, const SLOTS: usize> Drop for GroupBuffers<A, SLOTS> {
    fn drop(&mut self) {
        multisha_contract::wipe_lane_states::<A>(&mut self.states[..self.used]);
        self.workspace.wipe();
    }
}

/// Messages `range` of one block each on lane kernel `kernel`, a group of its lanes at a time,
/// in `buffers`: the blocks compressed from the IV in one call, the padding block (the same
/// for all) in one call of its constant entry on [`Compression::ONE_BLOCK_PADDING`], the
/// digests written. The last group's idle lanes repeat its last message; their results are
/// dropped.
///
/// # Safety
/// `kernel` must run on this CPU.
unsafe fn one_block_groups<H, M, D, const SLOTS: usize>(
    kernel: LaneKernel<H::Compression>,
    messages: &M,
    range: core::ops::Range<usize>,
    digests: &mut D,
    buffers: &mut GroupBuffers<H::Compression, SLOTS>,
) where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    // SAFETY: forwarded from the caller; each width is the kernel's own.
    unsafe {
        match kernel.lanes {
            2 => {
                one_block_groups_of::<H, M, D, 2, SLOTS>(kernel, messages, range, digests, buffers)
            }
            4 => {
                one_block_groups_of::<H, M, D, 4, SLOTS>(kernel, messages, range, digests, buffers)
            }
            8 => {
                one_block_groups_of::<H, M, D, 8, SLOTS>(kernel, messages, range, digests, buffers)
            }
            16 => {
                one_block_groups_of::<H, M, D, 16, SLOTS>(kernel, messages, range, digests, buffers)
            }
            _ => {
                one_block_groups_of::<H, M, D, 32, SLOTS>(kernel, messages, range, digests, buffers)
            }
        }
    }
}

/// [`one_block_groups`] on a kernel of `W` lanes: the group's inputs of exactly its width (a
/// `MAX_LANES` array of inputs, set up per group, cost 1.3 ns a message at 4,096 nodes on
/// `shani-x4`).
///
/// # Safety
/// As [`one_block_groups`]; `kernel.lanes` is `W`.
unsafe fn one_block_groups_of<H, M, D, const W: usize, const SLOTS: usize>(
    kernel: LaneKernel<H::Compression>,
    messages: &M,
    range: core::ops::Range<usize>,
    digests: &mut D,
    buffers: &mut GroupBuffers<H::Compression, SLOTS>,
) where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    debug_assert_eq!(kernel.lanes, W);
    buffers.used = buffers.used.max(W);
    let GroupBuffers {
        states, workspace, ..
    } = buffers;
    let states = &mut states[..W];
    let mut first = range.start;
    while first < range.end {
        let filled = (range.end - first).min(W);
        let inputs: [&[Block<H>]; W] =
            core::array::from_fn(|l| Block::<H>::split(messages.get(first + l.min(filled - 1))).0);
        states.fill(*H::IV);
        // SAFETY: the caller guarantees the CPU runs `kernel`; `W` lanes (the kernel's) of one
        // block each, then one block of the given schedule on every lane.
        unsafe {
            (kernel.compress)(states, &inputs, workspace);
            (kernel.constant)(
                states,
                <H::Compression as Compression>::ONE_BLOCK_PADDING,
                workspace,
            );
        }
        for (l, state) in states[..filled].iter().enumerate() {
            put_state::<H, D>(digests, first + l, state);
        }
        first += filled;
    }
}

/// Writes the digest of a message's final `state` into slot `index` of `digests` (through a
/// digest of fixed size: see [`Digests::put`]).
#[inline(always)]
fn put_state<H: HashFunction, D: Digests + ?Sized>(
    digests: &mut D,
    index: usize,
    state: &<H::Compression as Compression>::State,
) {
    let mut digest = H::ZERO;
    write_digest(state.as_ref(), digest.as_mut());
    digests.put(index, &digest);
}

/// The single-message kernel a batch runs its one-by-one messages on, with its entry for
/// one-block messages: both read from the slot once per batch, by the batch's caller, so that
/// the executor reads no dispatcher state of its own.
#[derive(Clone, Copy)]
pub(crate) struct OneByOneKernel<A: Compression> {
    kernel: KernelFn<A>,
    one_block: Option<OneBlockFn<A>>,
}

impl<A: Compression> OneByOneKernel<A> {
    /// Whether the kernel has an entry for one-block messages.
    #[cfg(feature = "std")]
    pub(crate) fn has_one_block(&self) -> bool {
        self.one_block.is_some()
    }

    /// The same kernel with `one_block` as its entry for one-block messages (the calibration
    /// times each shape of that entry).
    #[cfg(feature = "std")]
    pub(crate) fn with_one_block(self, one_block: OneBlockFn<A>) -> Self {
        Self {
            one_block: Some(one_block),
            ..self
        }
    }
}

impl<A: Keyed> OneByOneKernel<A> {
    /// The installed kernel (resolving the choice on first use) and its entry.
    #[inline(always)]
    pub(crate) fn installed() -> Self {
        Self {
            kernel: dispatch::current::<A>(),
            one_block: dispatch::installed_one_block::<A>(),
        }
    }
}

#[cfg(test)]
std::thread_local! {
    /// Lane stages this thread's batches ran (tests: whether a batch reached the lanes).
    pub(crate) static LANE_STAGES: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// One message after the other through the single-message kernel `single`. Inlined: on the smallest
/// batches, which go one by one straight from `hash_many`, a call more was 28 of the 91
/// instructions a batch of two executes beyond a loop of one-shot calls.
#[cfg(any(test, feature = "std"))]
#[inline(always)]
pub(crate) fn serial<H, M, D>(single: OneByOneKernel<H::Compression>, messages: &M, digests: &mut D)
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    serial_from::<H, M, D, _>(single, FromIv::<H>::NEW, messages, digests);
}

/// [`serial`] with every message starting from `start` (a keyed state: HMAC).
#[inline(always)]
pub(crate) fn serial_from<H, M, D, S>(
    single: OneByOneKernel<H::Compression>,
    start: S,
    messages: &M,
    digests: &mut D,
) where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    serial_in::<H, M, D, S>(single, start, messages, 0..messages.count(), digests);
}

/// [`serial`] on messages `range` only, each from `start`.
#[inline(always)]
fn serial_in<H, M, D, S>(
    single: OneByOneKernel<H::Compression>,
    start: S,
    messages: &M,
    range: core::ops::Range<usize>,
    digests: &mut D,
) where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    // One set of one-shot buffers for every message: zeroed once, the workspace wiped once (a
    // loop of one-shot calls, which does both per message, executes 2.5% more instructions on
    // 7 x 32 B SHA-256 through `unroll8`, a kernel that uses the workspace).
    let mut buffers = OneShot::<H::Compression>::new();
    let OneByOneKernel { kernel, one_block } = single;
    // (The one-block entry's padding is a whole message of one block: from the IV only.)
    let Some(entry) = one_block.filter(|_| S::FROM_IV) else {
        // No entry for one-block messages: nothing to look ahead for.
        for i in range {
            // SAFETY: the single-message kernel comes from the dispatcher, which checks the CPU.
            let digest = unsafe {
                crate::oneshot::hash_in_from::<H, S>(
                    &mut buffers,
                    kernel,
                    None,
                    start,
                    messages.get(i),
                )
            };
            digests.put(i, &digest);
        }
        return;
    };
    let block_len = <Block<H> as BlockBytes>::LEN;
    let mut i = range.start;
    while i < range.end {
        let data = messages.get(i);
        if data.len() != block_len {
            // SAFETY: the kernel comes from the dispatcher, which checks the CPU.
            let digest = unsafe { crate::oneshot::hash_in::<H>(&mut buffers, kernel, None, data) };
            digests.put(i, &digest);
            i += 1;
            continue;
        }
        // One-block messages in a row (Merkle nodes) go to the entry together, up to
        // `ONE_BLOCK_RUN` at a time: its kernel runs several side by side, each one's rounds
        // filling the others' latency. Each digest goes straight into its slot (through
        // digests of their own, copied out, 4 nodes took 4% longer). The arrays of a call are
        // of the run's size rounded up to a power of two: building 32 for 3 or 4 nodes took
        // longer than hashing one.
        // Counted one past a full run: a run of exactly one more than that goes as six and
        // three, not a full run and a node alone ([`ONE_BLOCK_RUN`]).
        let mut run = 1;
        while run <= ONE_BLOCK_RUN
            && i + run < range.end
            && messages.get(i + run).len() == block_len
        {
            run += 1;
        }
        if run > ONE_BLOCK_RUN {
            let longer = i + run < range.end && messages.get(i + run).len() == block_len;
            run = if longer {
                ONE_BLOCK_RUN
            } else {
                ONE_BLOCK_RUN - 2
            };
        }
        // SAFETY: the entry comes from the dispatcher with its kernel, which checks the CPU.
        i += unsafe {
            match run {
                1 => one_block_run::<H, M, D, 1>(entry, messages, i, 1, digests),
                2 => one_block_run::<H, M, D, 2>(entry, messages, i, 2, digests),
                3..=4 => one_block_run::<H, M, D, 4>(entry, messages, i, run, digests),
                _ => one_block_run::<H, M, D, ONE_BLOCK_RUN>(entry, messages, i, run, digests),
            }
        };
    }
}

/// The most one-block messages [`serial_in`] passes to the one-block entry in one call. Arrays
/// of 16 or 32 references are built out of line and returned through the stack, whose copy
/// stalls on store forwarding: 9 and 10 nodes took 1.05-1.06 times hashtree's time in one
/// call against 1.00-1.01 as 8 and the rest (Intel Xeon with AMX). The pipelined shape of
/// `shani`'s entry starts afresh every eight nodes, which cost it 2% at 12-16 nodes there. A
/// run of exactly nine goes as six and three, not eight and one: a node alone leaves the SHA
/// unit half idle, where three run in three steps of two streams (9 nodes 0.99 -> 1.04 times
/// hashtree's speed on the pairs' shape there, the `merkle_nodes` example). Not seven and two:
/// the pipelined shape pairs an odd run's last node with itself, a node's work for nothing.
const ONE_BLOCK_RUN: usize = 8;

/// Messages `i..i + count` (`count` at most `N`), each one block long, through the one-block
/// entry `entry`, each digest into its slot; returns `count`.
///
/// # Safety
/// The CPU must run `entry`.
#[inline(always)]
unsafe fn one_block_run<H, M, D, const N: usize>(
    entry: OneBlockFn<H::Compression>,
    messages: &M,
    i: usize,
    count: usize,
    digests: &mut D,
) -> usize
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    let blocks: [&Block<H>; N] =
        core::array::from_fn(|k| &Block::<H>::split(messages.get(i + k.min(count - 1))).0[0]);
    let mut slots = digests.slots::<N>(i, count);
    // SAFETY: forwarded from the caller.
    unsafe { entry(H::IV, &blocks[..count], &mut slots[..count]) };
    count
}

/// A message in progress, in one of a batch's slots: slot `i` owns state `i` and
/// tail buffer `i` of the [`LaneBuffers`]; the first slots are the kernel's lanes.
#[derive(Clone, Copy)]
struct Job<'a, B> {
    /// The message's index (its digest's slot).
    index: usize,
    /// Whole blocks not compressed yet (then the tail).
    data: &'a [B],
    /// The bytes after the whole blocks (shorter than a block), padded into the tail.
    rest: &'a [u8],
    /// The message length in bytes.
    len: usize,
    /// Tail blocks compressed so far, and how many there are (1 or 2).
    tail_done: u8,
    tail_len: u8,
    /// Whether the slot's tail buffer holds this message's padded tail. It is built when a
    /// kernel call first needs it: a tail that runs through the constant entry never is, and a
    /// job that moves to another slot rebuilds it there rather than copying it.
    tail_built: bool,
}

impl<B: BlockBytes> Job<'_, B> {
    const IDLE: Self = Job {
        index: 0,
        data: &[],
        rest: &[],
        len: 0,
        tail_done: 0,
        tail_len: 0,
        tail_built: false,
    };

    /// Blocks left in the current segment (data, or tail).
    fn segment_len(&self) -> usize {
        if self.data.is_empty() {
            usize::from(self.tail_len - self.tail_done)
        } else {
            self.data.len()
        }
    }

    /// Blocks left in the message.
    fn remaining(&self) -> usize {
        self.data.len() + usize::from(self.tail_len - self.tail_done)
    }

    /// Whether the next block is the padding block of a message whose length is a multiple
    /// of the block size (it depends on the length only).
    fn at_constant_tail(&self) -> bool {
        self.rest.is_empty() && self.data.is_empty() && self.tail_done == 0
    }
}

/// A message's whole blocks and whether its padded tail takes two blocks: messages of one
/// shape run side by side from start to end ([`Batch::run_group`]).
fn block_shape<A: Compression>(len: usize) -> (usize, bool) {
    let block_len = <A::Block as BlockBytes>::LEN;
    (
        len / block_len,
        len % block_len >= block_len - A::LENGTH_BYTES,
    )
}

/// The bits of slots `0..n`.
fn first_slots(n: usize) -> u32 {
    const { assert!(MAX_LANES <= 32, "slot masks are 32 bits") };
    debug_assert!(n <= MAX_LANES);
    ((1u64 << n) - 1) as u32
}

/// The slot numbers set in `mask`, lowest first.
fn slots(mut mask: u32) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        let i = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (i < 32).then_some(i)
    })
}

/// A batch in progress: the messages, the digests, the slots, and the order of what is left.
struct Batch<'m, H, M, D, S, const SLOTS: usize>
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    messages: &'m M,
    digests: &'m mut D,
    /// Where every message starts.
    start: S,
    buffers: LaneBuffers<H::Compression, SLOTS>,
    workspace: <H::Compression as Compression>::LaneWorkspace,
    jobs: [Job<'m, Block<H>>; SLOTS],
    /// Bit `i`: slot `i` holds a message in progress.
    busy: u32,
    /// Bit `i`: slot `i`'s state or tail was written (what the wipe covers).
    touched: u32,
    /// The current window: its first index, its length, how many were taken (windows of one
    /// length run on as one: see [`Self::refill`]).
    window_start: usize,
    window_len: usize,
    window_taken: usize,
    /// The window's indices longest message first (ties in index order), when that is not
    /// their own order (made only then: equal lengths need no sort).
    window_order: Option<[usize; WINDOW]>,
    window_reordered: bool,
    /// Whether every message of the window has the same length.
    window_equal: bool,
    /// The first index not yet in a window.
    next: usize,
    /// How many messages were started, and how many the stages so far may start.
    started: usize,
    limit: usize,
    /// The expanded schedule of the padding block of `schedule_for`-byte messages (a multiple
    /// of the block size), for the kernels' constant entry.
    schedule: [Word<H>; 80],
    schedule_for: Option<usize>,
}

type Block<H> = <<H as HashFunction>::Compression as Compression>::Block;
type Word<H> = <<H as HashFunction>::Compression as Compression>::Word;

impl<'m, H, M, D, S, const SLOTS: usize> Batch<'m, H, M, D, S, SLOTS>
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    fn new(messages: &'m M, digests: &'m mut D, start: S) -> Self {
        const {
            assert!(
                ROTATION_SLOTS <= SLOTS,
                "rotation parks messages in the slots"
            )
        };
        Self {
            messages,
            digests,
            start,
            buffers: LaneBuffers::new(),
            workspace: Default::default(),
            jobs: [Job::IDLE; SLOTS],
            busy: 0,
            touched: 0,
            window_start: 0,
            window_len: 0,
            window_order: None,
            window_reordered: false,
            window_taken: 0,
            window_equal: false,
            next: 0,
            started: 0,
            limit: 0,
            schedule: [Word::<H>::default(); 80],
            schedule_for: None,
        }
    }

    /// Makes sure the window has a message to take, if any is left; false when none is.
    fn refill(&mut self) -> bool {
        if self.window_taken < self.window_len {
            return true;
        }
        let count = self.messages.count();
        if self.next == count {
            return false;
        }
        let (start, mut end) = window_of(self.next, count);
        let messages = self.messages;
        let mut in_order = true;
        let (mut shortest, mut previous) = (usize::MAX, usize::MAX);
        for index in start..end {
            let len = messages.get(index).len();
            in_order &= len <= previous;
            previous = len;
            shortest = shortest.min(len);
        }
        self.window_equal = in_order && messages.get(start).len() == shortest;
        if self.window_equal {
            // Equal lengths need no order: the window runs on over the next windows of the
            // same length, so that groups form across their bounds. Window by window, the
            // messages a window left over ran in slots of their own with the next window's
            // first: 300 x 32 B SHA-1 took 6.4 us on `avx512-x16` and 7.0 on `avx512-x32`,
            // where 320 took 6.4 on both (AMD Zen 4).
            while end < count {
                let next_end = window_of(end, count).1;
                if (end..next_end).any(|index| messages.get(index).len() != shortest) {
                    break;
                }
                end = next_end;
            }
        }
        self.window_reordered = !in_order;
        if !in_order {
            // Sorted as integers ([`window_key`]): by the length read through the messages, a
            // window of 64 took 600 ns (Intel Xeon; 350 as keys).
            let mut keys = [0u64; WINDOW];
            let keys = &mut keys[..end - start];
            for (key, index) in keys.iter_mut().zip(start..end) {
                *key = window_key(messages.get(index).len(), index - start);
            }
            keys.sort_unstable();
            let order = self.window_order.get_or_insert([0; WINDOW]);
            for (slot, key) in order.iter_mut().zip(keys.iter()) {
                *slot = start + window_offset(*key);
            }
        }
        (self.window_start, self.window_len, self.window_taken) = (start, end - start, 0);
        self.next = end;
        true
    }

    /// The index of the `k`-th message of the window, longest first.
    fn window_at(&self, k: usize) -> usize {
        match &self.window_order {
            Some(order) if self.window_reordered => order[k],
            _ => self.window_start + k,
        }
    }

    /// The next message to start, longest first within its window, if the stage may start
    /// one.
    fn next_job(&mut self) -> Option<usize> {
        if self.started == self.limit || !self.refill() {
            return None;
        }
        let job = self.window_at(self.window_taken);
        self.window_taken += 1;
        self.started += 1;
        Some(job)
    }

    /// Whether what is left is long enough for rotation ([`Self::rotate`]) to pay for its
    /// bookkeeping: the next message to start (the longest waiting in its window) is long
    /// enough ([`rotates`], the rule the planner predicts with).
    fn rotation_pays(&mut self) -> bool {
        if self.waiting() == 0 || !self.refill() {
            return false;
        }
        let len = self.messages.get(self.window_at(self.window_taken)).len();
        let block_len = <Block<H> as BlockBytes>::LEN;
        let length_bytes = <H::Compression as Compression>::LENGTH_BYTES;
        rotates(message_blocks(len, block_len, length_bytes).0)
    }

    /// How many messages the stage may still start.
    fn waiting(&self) -> usize {
        self.limit - self.started
    }

    /// Starts message `index` in free slot `i`.
    fn start(&mut self, i: usize, index: usize) {
        let message = self.messages.get(index);
        let (data, rest) = Block::<H>::split(message);
        let one_block = rest.len()
            < <Block<H> as BlockBytes>::LEN - <H::Compression as Compression>::LENGTH_BYTES;
        self.buffers.states[i] = *self.start.state();
        self.jobs[i] = Job {
            index,
            data,
            rest,
            len: message.len(),
            tail_done: 0,
            tail_len: if one_block { 1 } else { 2 },
            tail_built: false,
        };
        self.busy |= 1 << i;
        self.touched |= 1 << i;
    }

    /// Pads slot `i`'s tail into its tail buffer, over whatever an earlier message left there
    /// (the buffers are wiped once per batch, not per message).
    fn build_tail(&mut self, i: usize) {
        let job = &mut self.jobs[i];
        let tail = &mut self.buffers.tails[i];
        // Fixed-size stores (a loop over `tail_len` blocks became a `memset` call).
        tail[0] = <Block<H> as BlockBytes>::ZERO;
        if job.tail_len == 2 {
            tail[1] = <Block<H> as BlockBytes>::ZERO;
        }
        pad_into::<H::Compression>(tail, job.rest, self.start.bit_len(job.len));
        job.tail_built = true;
    }

    /// Writes slot `i`'s digest and frees the slot.
    fn finish(&mut self, i: usize) {
        put_state::<H, D>(self.digests, self.jobs[i].index, &self.buffers.states[i]);
        self.busy &= !(1 << i);
    }

    /// Moves the job in slot `from` to slot `to`, and the one in `to` (if any) to `from`.
    fn swap(&mut self, from: usize, to: usize) {
        self.jobs.swap(from, to);
        self.buffers.states.swap(from, to);
        self.jobs[from].tail_built = false;
        self.jobs[to].tail_built = false;
        let (a, b) = (self.busy >> from & 1, self.busy >> to & 1);
        self.busy = self.busy & !(1 << from | 1 << to) | a << to | b << from;
        self.touched |= 1 << from | 1 << to;
    }

    /// Wipes the lanes' states and tails and the kernels' schedule: once per batch call.
    fn wipe(&mut self) {
        self.buffers
            .wipe_first((u32::BITS - self.touched.leading_zeros()) as usize);
        self.workspace.wipe();
    }
}

/// The wipe, once per batch: on return and on unwind alike.
impl<H, M, D, S, const SLOTS: usize> Drop for Batch<'_, H, M, D, S, SLOTS>
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    fn drop(&mut self) {
        self.wipe();
    }
}

impl<'m, H, M, D, S, const SLOTS: usize> Batch<'m, H, M, D, S, SLOTS>
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
    S: Start<H::Compression>,
{
    /// Fills the free lanes of a `width`-lane kernel: with messages parked beyond its lanes
    /// (a wider kernel's, or rotation's), else with the next messages. When what is left is
    /// fewer than twice the lanes, starts all of it (in slots beyond the lanes) so rotation
    /// can share the lanes evenly.
    fn fill(&mut self, width: usize) {
        let lanes = first_slots(width);
        for i in slots(!self.busy & lanes) {
            let parked = self.busy & !lanes;
            if parked != 0 {
                self.swap(parked.trailing_zeros() as usize, i);
            } else if let Some(index) = self.next_job() {
                self.start(i, index);
            } else {
                return;
            }
        }
        let waiting = self.waiting();
        let left = self.busy.count_ones() as usize + waiting;
        if waiting > 0 && left < 2 * width && left <= ROTATION_SLOTS && self.rotation_pays() {
            for i in slots(!self.busy & first_slots(ROTATION_SLOTS)) {
                let Some(index) = self.next_job() else { break };
                self.start(i, index);
            }
        }
    }

    /// With more messages in progress than `width` lanes: puts those with the most blocks
    /// left on the lanes (longest remaining first, which ends them together) and returns how
    /// many blocks they may run before the choice is made again.
    fn rotate(&mut self, width: usize) -> usize {
        // Slots by blocks left, most first (at most `SLOTS`: insertion sort).
        let mut order = [0usize; SLOTS];
        let mut k = 0;
        for i in slots(self.busy) {
            let left = self.jobs[i].remaining();
            let mut at = k;
            while at > 0 && self.jobs[order[at - 1]].remaining() < left {
                order[at] = order[at - 1];
                at -= 1;
            }
            order[at] = i;
            k += 1;
        }
        let left = |r: usize| self.jobs[order[r]].remaining();
        let (last_on, first_off) = (left(width - 1), left(width));
        // The earliest the lanes can end what is left: every lane busy to the end, or the
        // longest message alone.
        let total: usize = order[..k].iter().map(|&i| self.jobs[i].remaining()).sum();
        let end = total.div_ceil(width).max(left(0));
        let lanes = first_slots(width);
        let chosen = order[..width].iter().fold(0u32, |m, &i| m | 1 << i);
        let mut vacant = lanes & !chosen;
        for i in slots(chosen & !lanes) {
            let to = vacant.trailing_zeros() as usize;
            vacant &= vacant - 1;
            self.swap(i, to);
        }
        if last_on > first_off {
            // Until the last one chosen is down to the first one left out.
            last_on - first_off
        } else {
            // A tie across the boundary: until the first one left out must start to end by
            // `end` (McNaughton's wrap-around, in the order each message's blocks need).
            end - first_off
        }
    }

    /// Runs `kernel` until every message the stage may start is done.
    fn run_level(&mut self, kernel: LaneKernel<H::Compression>) {
        let width = kernel.lanes;
        assert!(
            (2..=SLOTS).contains(&width),
            "a batch of {SLOTS} slots runs lane kernels of 2 to {SLOTS} lanes"
        );
        let lanes = first_slots(width);
        loop {
            let busy = self.busy.count_ones() as usize;
            // Every call writes every lane's state, idle lanes' too.
            self.touched |= lanes;
            if busy == 0
                && let Some(count) = self.group_ready(width)
            {
                match width {
                    2 => self.run_group::<2>(kernel, count),
                    4 => self.run_group::<4>(kernel, count),
                    8 => self.run_group::<8>(kernel, count),
                    16 => self.run_group::<16>(kernel, count),
                    _ => self.run_group::<32>(kernel, count),
                }
                continue;
            }
            self.fill(width);
            let busy = self.busy.count_ones() as usize;
            if busy == 0 {
                return;
            }
            let cap = if busy > width {
                self.rotate(width)
            } else {
                usize::MAX
            };
            let on = self.busy & lanes;
            let first = on.trailing_zeros() as usize;
            // All busy lanes at the same constant padding block: one schedule for all.
            let len = self.jobs[first].len;
            if self.jobs[first].at_constant_tail()
                && self.constant_pays(len, width)
                && slots(on).all(|i| self.jobs[i].at_constant_tail() && self.jobs[i].len == len)
            {
                self.run_constant(kernel, len);
                for i in slots(on) {
                    self.finish(i);
                }
                continue;
            }
            let mut n = cap;
            for i in slots(on) {
                n = n.min(self.jobs[i].segment_len());
                if self.jobs[i].data.is_empty() && !self.jobs[i].tail_built {
                    self.build_tail(i);
                }
            }
            let LaneBuffers { states, tails } = &mut self.buffers;
            let jobs = &self.jobs;
            let segment = |i: usize| -> &[Block<H>] {
                let job = &jobs[i];
                if job.data.is_empty() {
                    let done = usize::from(job.tail_done);
                    &tails[i][done..done + n]
                } else {
                    &job.data[..n]
                }
            };
            // Idle lanes repeat a busy lane's input; their results are dropped.
            let mut inputs: [&[Block<H>]; SLOTS] = [segment(first); SLOTS];
            for i in slots(on & !(1 << first)) {
                inputs[i] = segment(i);
            }
            // SAFETY: the kernel's variant was checked to run on this CPU when it was chosen;
            // `width` lanes of `n` (at least 1) blocks each.
            unsafe {
                (kernel.compress)(&mut states[..width], &inputs[..width], &mut self.workspace)
            };
            for i in slots(on) {
                let job = &mut self.jobs[i];
                if job.data.is_empty() {
                    job.tail_done += n as u8;
                    if job.tail_done == job.tail_len {
                        self.finish(i);
                    }
                } else {
                    job.data = &job.data[n..];
                }
            }
        }
    }

    /// How many of the next messages run as a group ([`Self::run_group`]), if they can: no
    /// lane is busy, and the next `width` messages are of one [`block_shape`] (not when fewer
    /// than twice the lanes are left beyond the group's and they are long enough to rotate:
    /// those share the lanes by rotation, the group with them), or the stage's last messages,
    /// fewer than the lanes, are all of one shape and in the window (a part-filled group: 13
    /// SHA-1 messages of 32 bytes on `avx512-x16` took 486 ns through the per-lane
    /// bookkeeping, 16 took 431 as a group).
    fn group_ready(&mut self, width: usize) -> Option<usize> {
        let waiting = self.waiting();
        if !matches!(width, 2 | 4 | 8 | 16 | 32) || waiting == 0 || !self.refill() {
            return None;
        }
        let count = waiting.min(width);
        if self.window_len - self.window_taken < count
            || !self.window_equal && !self.next_share_shape(count)
        {
            return None;
        }
        (waiting <= width || waiting >= 2 * width || !self.rotation_pays()).then_some(count)
    }

    /// Whether the next `width` messages of the window have the same [`block_shape`] (in a
    /// window taken longest first, neighbours mostly do: short ragged messages of one padded
    /// block each ran at a third of the speed through the per-lane bookkeeping).
    fn next_share_shape(&self, width: usize) -> bool {
        let shape = |k: usize| {
            let len = self
                .messages
                .get(self.window_at(self.window_taken + k))
                .len();
            block_shape::<H::Compression>(len)
        };
        let first = shape(0);
        (1..width).all(|k| shape(k) == first)
    }

    /// The next `count` messages (at most `W`, the kernel's lanes), all of one [`block_shape`],
    /// side by side from start to end: their whole blocks straight from the messages in one
    /// call, then their tails (the constant entry when the length is a multiple of the block
    /// size). Idle lanes repeat the last message; their results are dropped. The per-lane
    /// bookkeeping of ragged batches ([`Job`]) costs as much as the kernel on one-block
    /// messages; `W` is a constant so the lane arrays are no longer than the lanes.
    fn run_group<const W: usize>(&mut self, kernel: LaneKernel<H::Compression>, count: usize) {
        debug_assert_eq!(kernel.lanes, W);
        debug_assert!((1..=W).contains(&count));
        let messages = self.messages;
        let taken = self.window_taken;
        let group: [usize; W] = core::array::from_fn(|l| self.window_at(taken + l.min(count - 1)));
        self.window_taken += count;
        self.started += count;
        let lens: [usize; W] = core::array::from_fn(|l| messages.get(group[l]).len());
        let len = lens[0];
        let equal = self.window_equal || lens.iter().all(|&l| l == len);
        let mut inputs: [&[Block<H>]; W] =
            core::array::from_fn(|l| Block::<H>::split(messages.get(group[l])).0);
        let block_len = <Block<H> as BlockBytes>::LEN;
        let rest = len % block_len;
        let constant = equal && rest == 0 && self.constant_pays(len, W);
        #[cfg(test)]
        tests::GROUPED.with(|n| n.set(n.get() + count));
        let LaneBuffers { states, tails } = &mut self.buffers;
        let states = &mut states[..W];
        for state in states.iter_mut() {
            *state = *self.start.state();
        }
        if !inputs[0].is_empty() {
            // SAFETY: the kernel's variant was checked to run on this CPU when it was chosen;
            // `W` lanes (the kernel's) of the same number (at least 1) of blocks.
            unsafe { (kernel.compress)(states, &inputs, &mut self.workspace) };
        }
        if constant {
            self.run_constant(kernel, len);
        } else {
            // (The same for every message of the group: see `block_shape`.)
            let two = rest >= block_len - <H::Compression as Compression>::LENGTH_BYTES;
            // The group's own tails only: idle lanes read the last one's (a part-filled group
            // of 4 on 32 lanes padding a tail for every lane took 10-15% longer).
            for ((tail, &index), &len) in tails.iter_mut().zip(&group).zip(&lens).take(count) {
                let message = messages.get(index);
                tail[0] = <Block<H> as BlockBytes>::ZERO;
                if two {
                    tail[1] = <Block<H> as BlockBytes>::ZERO;
                }
                let rest = len % block_len;
                pad_into::<H::Compression>(tail, &message[len - rest..], self.start.bit_len(len));
            }
            let used = if two { 2 } else { 1 };
            for (l, input) in inputs.iter_mut().enumerate() {
                *input = &tails[l.min(count - 1)][..used];
            }
            // SAFETY: as above; `W` lanes of `used` blocks each.
            unsafe { (kernel.compress)(states, &inputs, &mut self.workspace) };
        }
        for (state, &index) in self.buffers.states.iter().zip(&group[..count]) {
            put_state::<H, D>(self.digests, index, state);
        }
    }

    /// Whether to run the padding block of `len`-byte messages (a multiple of the block size)
    /// through the constant entry: its schedule is a constant (messages of one block: Merkle
    /// nodes) or expanded already, or enough messages are left to pay for the expansion (which
    /// costs about as much as three kernel calls save), or the messages are empty (the
    /// constant entry spares a workspace kernel its workspace, zeroed on first use and wiped
    /// at the end, which costs more than the expansion).
    fn constant_pays(&self, len: usize, width: usize) -> bool {
        len == 0
            || S::FROM_IV && len == <Block<H> as BlockBytes>::LEN
            || self.schedule_for == Some(len)
            || self.waiting() >= 3 * width
    }

    /// One call of `kernel`'s constant entry: the padding block of `len`-byte messages (a
    /// multiple of the block size) on every lane, its schedule the algorithm's constant for
    /// one-block messages, else expanded once per batch.
    fn run_constant(&mut self, kernel: LaneKernel<H::Compression>, len: usize) {
        let rounds = <H::Compression as Compression>::ROUNDS;
        if S::FROM_IV && len == <Block<H> as BlockBytes>::LEN {
            // SAFETY: as below.
            unsafe {
                (kernel.constant)(
                    &mut self.buffers.states[..kernel.lanes],
                    <H::Compression as Compression>::ONE_BLOCK_PADDING,
                    &mut self.workspace,
                )
            };
            return;
        }
        if self.schedule_for != Some(len) {
            let mut padding = [<Block<H> as BlockBytes>::ZERO; 2];
            pad_into::<H::Compression>(&mut padding, &[], self.start.bit_len(len));
            <H::Compression as Compression>::schedule(&padding[0], &mut self.schedule[..rounds]);
            self.schedule_for = Some(len);
        }
        // SAFETY: the kernel's variant was checked to run on this CPU when it was chosen; the
        // states are `width` contiguous lanes.
        unsafe {
            (kernel.constant)(
                &mut self.buffers.states[..kernel.lanes],
                &self.schedule[..rounds],
                &mut self.workspace,
            )
        };
    }
}

// Where a batch's messages come from and its digests go: by index, whatever the container.

/// The messages of a batch, by index (a slice of slices, or of fixed-size nodes).
pub(crate) trait Messages {
    /// How many.
    fn count(&self) -> usize;
    /// The `i`-th.
    fn get(&self, i: usize) -> &[u8];
    /// The length of every message, if there is at least one and all have the same.
    fn equal_len(&self) -> Option<usize>;
}

/// Any slice of byte containers: `&[u8]`, `Vec<u8>`, `[u8; N]` (64-byte Merkle nodes),
/// `String`, `&str`, ...
impl<M: AsRef<[u8]>> Messages for [M] {
    #[inline]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn get(&self, i: usize) -> &[u8] {
        self[i].as_ref()
    }
    #[inline]
    fn equal_len(&self) -> Option<usize> {
        // This runs on every batch: no branch a message (a compare and branch each took 40 ns
        // of 64 x 32 B, 2% of hashing them), the differences or-ed four at a time, and one
        // branch per sixteen messages, so that a batch of differing lengths stops within its
        // first sixteen (read whole, it was a third of the route's pass over 100 messages of
        // 0-200 bytes). For arrays (`[u8; N]`) every length is the constant `N` and the loop
        // folds away.
        let first = self.first()?.as_ref().len();
        let len = |m: &M| m.as_ref().len() ^ first;
        let (sixteens, rest) = self.as_chunks::<16>();
        for sixteen in sixteens {
            let (fours, _) = sixteen.as_chunks::<4>();
            let differ = fours.iter().fold(0, |differ, [a, b, c, d]| {
                differ | len(a) | len(b) | len(c) | len(d)
            });
            if differ != 0 {
                return None;
            }
        }
        let differ = rest.iter().fold(0, |differ, m| differ | len(m));
        (differ == 0).then_some(first)
    }
}

/// Where the digests of a batch go, by index.
pub(crate) trait Digests {
    /// How many.
    fn count(&self) -> usize;
    /// The `i`-th digest's bytes.
    fn slot(&mut self, i: usize) -> &mut [u8];
    /// The bytes of digests `i..i + count` (`count` at most `N`), then empty slices: for a
    /// kernel that writes several at once (the one-block entry's Merkle nodes).
    fn slots<const N: usize>(&mut self, i: usize, count: usize) -> [&mut [u8]; N];

    /// Copies `digest` into slot `i`. Callers pass each digest as a fixed-size array: written
    /// straight into the slot, whose length the compiler does not know, the words went one by
    /// one through a loop (one-by-one batches ran 3-5% behind a loop of one-shot calls).
    #[inline(always)]
    fn put(&mut self, i: usize, digest: &impl AsRef<[u8]>) {
        self.slot(i).copy_from_slice(digest.as_ref());
    }
}

impl<D: AsMut<[u8]>> Digests for [D] {
    fn count(&self) -> usize {
        self.len()
    }
    fn slot(&mut self, i: usize) -> &mut [u8] {
        self[i].as_mut()
    }
    fn slots<const N: usize>(&mut self, i: usize, count: usize) -> [&mut [u8]; N] {
        let mut run = self[i..i + count].iter_mut();
        core::array::from_fn(|_| run.next().map_or(&mut [][..], AsMut::as_mut))
    }
}

/// Digests laid end to end in one buffer.
pub(crate) struct Flat<'a> {
    pub(crate) bytes: &'a mut [u8],
    pub(crate) len: usize,
}

impl Digests for Flat<'_> {
    fn count(&self) -> usize {
        self.bytes.len() / self.len
    }
    fn slot(&mut self, i: usize) -> &mut [u8] {
        &mut self.bytes[i * self.len..(i + 1) * self.len]
    }
    fn slots<const N: usize>(&mut self, i: usize, count: usize) -> [&mut [u8]; N] {
        let mut run = self.bytes[i * self.len..(i + count) * self.len].chunks_exact_mut(self.len);
        core::array::from_fn(|_| run.next().unwrap_or(&mut []))
    }
}

#[cfg(test)]
mod tests {
    //! The executor's own paths, beyond the crate-wide batch tests (ragged lengths): groups of
    //! equal lengths, rotation of the last messages, windows that change shape, stages that
    //! start where the last one ended; every plan shape and every variant alone.
    use super::*;
    use crate::{Sha1, Sha224, Sha256};
    use std::format;
    use std::vec::Vec;

    /// Every many-message variant this CPU runs alone, and every plan shape for the counts
    /// [`plans_for`] picks, against RustCrypto (the one-shot functions share the kernels
    /// under test).
    fn check<H: HashFunction>(label: &str, messages: &[&[u8]])
    where
        H::Compression: multisha_contract::harness::Reference,
    {
        use multisha_contract::harness::Reference;
        let check = |how: &str, digests: &[H::Digest]| {
            for (i, (message, digest)) in messages.iter().zip(digests).enumerate() {
                assert_eq!(
                    digest.as_ref(),
                    H::Compression::digest(H::OUTPUT.id, message).as_slice(),
                    "{} {how}, {label}: message {i} of {} ({} bytes)",
                    H::OUTPUT.name,
                    messages.len(),
                    message.len()
                );
            }
        };
        crate::batch::for_every_variant::<H>(messages, check);
        if plans_for(messages.len()) {
            crate::batch::for_every_plan::<H>(messages, check);
        }
    }

    /// The counts every plan shape runs for: both sides of each lane count and a few more
    /// (each shape of the other counts runs on every variant alone); all of them would take
    /// the AArch64 cross-test minutes under qemu.
    fn plans_for(count: usize) -> bool {
        matches!(count, 1..=5 | 7..=9 | 15..=17 | 33 | 64 | 65 | 100 | 133)
    }

    fn data() -> Vec<u8> {
        (0..20_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect()
    }

    /// Runs `cases::<H>` for SHA-1, SHA-224 and SHA-256.
    macro_rules! for_each_function {
        ($cases:ident) => {
            $cases::<Sha1>();
            $cases::<Sha224>();
            $cases::<Sha256>();
        };
    }

    #[test]
    fn equal_lengths_run_as_groups() {
        fn cases<H: HashFunction>()
        where
            H::Compression: multisha_contract::harness::Reference,
        {
            let data = data();
            for len in [
                0, 1, 31, 32, 55, 56, 63, 64, 65, 119, 120, 128, 129, 1000, 4096,
            ] {
                for count in (1..=20).chain([31, 32, 33, 47, 64, 65, 100]) {
                    // Distinct messages, some of them the same bytes (aliasing is allowed).
                    let messages: Vec<&[u8]> =
                        (0..count).map(|i| &data[(i * 7) % 61..][..len]).collect();
                    check::<H>(&format!("{count} x {len} bytes"), &messages);
                }
            }
        }
        for_each_function!(cases);
        // SHA-512's one-block messages (128 bytes), which run in groups of their own
        // (`one_block_groups`), and the lengths beside them.
        let data = data();
        for len in [127, 128, 129] {
            for count in (1..=18).chain([33]) {
                let messages: Vec<&[u8]> =
                    (0..count).map(|i| &data[(i * 7) % 61..][..len]).collect();
                check::<crate::Sha512>(&format!("{count} x {len} bytes"), &messages);
            }
        }
    }

    /// Runs of one-block messages one by one ([`serial_in`]): up to [`ONE_BLOCK_RUN`] in a
    /// call, a run of one more split six and three, before, between and after messages of
    /// other lengths.
    #[test]
    fn runs_of_one_block_messages_split_where_they_end() {
        fn cases<H: HashFunction>()
        where
            H::Compression: multisha_contract::harness::Reference,
        {
            let block = <Block<H> as BlockBytes>::LEN;
            let data = data();
            let nine = [block; ONE_BLOCK_RUN + 1];
            let layouts: [Vec<usize>; 6] = [
                nine.to_vec(),
                [&nine[..], &[block + 1], &nine[..]].concat(),
                [&[3], &nine[..], &[block - 1]].concat(),
                [block; 2 * ONE_BLOCK_RUN + 1].to_vec(),
                [block; 2 * ONE_BLOCK_RUN + 2].to_vec(),
                [&nine[..], &nine[..]].concat(),
            ];
            for lengths in layouts {
                let messages: Vec<&[u8]> = lengths
                    .iter()
                    .enumerate()
                    .map(|(i, &len)| &data[(i * 7) % 61..][..len])
                    .collect();
                check::<H>(&format!("{lengths:?}"), &messages);
            }
        }
        for_each_function!(cases);
    }

    /// Digests whose third slot panics, as a caller's `Digests` might.
    struct Failing<'a>(&'a mut [[u8; 32]], usize);

    impl Digests for Failing<'_> {
        fn count(&self) -> usize {
            self.0.len()
        }
        fn slot(&mut self, i: usize) -> &mut [u8] {
            self.1 += 1;
            assert!(self.1 < 3, "a digest slot that fails mid-batch");
            &mut self.0[i]
        }
        fn slots<const N: usize>(&mut self, i: usize, count: usize) -> [&mut [u8]; N] {
            self.1 += count;
            assert!(self.1 < 3, "a digest slot that fails mid-batch");
            self.0[i..i + count].slots::<N>(0, count)
        }
    }

    #[test]
    fn a_panic_mid_batch_of_one_block_messages_still_wipes_the_lanes() {
        type C = <Sha256 as HashFunction>::Compression;
        let nodes = [[7u8; 64]; 8];
        let mut out = [[0u8; 32]; 8];
        let kernel = LaneKernel::<C> {
            lanes: 4,
            compress: count_steps::<C>,
            constant: count_constant::<C>,
            iterate: None,
        };
        multisha_contract::wipe_observer::take();
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut digests = Failing(&mut out, 0);
            let mut buffers = GroupBuffers::<C, MAX_LANES>::new();
            // SAFETY: the counting kernel runs on every CPU.
            unsafe {
                one_block_groups::<Sha256, _, _, MAX_LANES>(
                    kernel,
                    &nodes[..],
                    0..8,
                    &mut digests,
                    &mut buffers,
                )
            };
        }));
        assert!(unwound.is_err(), "the digests' panic unwinds");
        // The lanes' states (the IV: the counting kernel computes nothing), then the lane
        // workspace.
        assert_lanes_then_workspace_wiped();
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn window_keys_order_by_length_then_offset_at_every_size() {
        let lens = [
            0,
            1,
            63,
            u32::MAX as usize,
            u32::MAX as usize + 1,
            KEY_LEN_MAX as usize - 1,
            KEY_LEN_MAX as usize,
        ];
        for pair in lens.windows(2) {
            let (short, long) = (pair[0], pair[1]);
            assert!(
                window_key(long, 63) < window_key(short, 0),
                "{long} before {short}"
            );
        }
        for len in lens {
            assert!(
                window_key(len, 0) < window_key(len, 1),
                "{len}: ties in index order"
            );
            assert_eq!(window_offset(window_key(len, 37)), 37);
        }
        // Longer than any real message: sorts as the longest that sorts exactly.
        for len in [KEY_LEN_MAX as usize + 1, usize::MAX] {
            assert_eq!(window_key(len, 5), window_key(KEY_LEN_MAX as usize, 5));
            assert!(window_key(len, 63) < window_key(1, 0));
        }
    }

    #[test]
    fn each_window_starts_its_longest_messages_first() {
        // The planner predicts the lanes from this order (the last messages to start are the
        // shortest of the last window); digests do not show it. 70 messages: windows of 6
        // and 64, lengths with ties (in index order), one window already in order.
        let data = data();
        let mut lens: Vec<usize> = (0..6).map(|i| 600 - i * 100).collect();
        lens.extend((0..64).map(|i| (i * 37) % 50 * 10));
        let messages: Vec<&[u8]> = lens.iter().map(|&len| &data[..len]).collect();
        let mut digests = std::vec![[0u8; 32]; messages.len()];
        let mut batch = Batch::<Sha256, _, _, _, MAX_LANES>::new(
            &messages[..],
            &mut digests[..],
            FromIv::<Sha256>::NEW,
        );
        batch.limit = messages.len();
        let started: Vec<usize> = core::iter::from_fn(|| batch.next_job()).collect();
        let mut want: Vec<usize> = (0..6).collect();
        let mut second: Vec<usize> = (6..70).collect();
        second.sort_by_key(|&i| (core::cmp::Reverse(lens[i]), i));
        want.extend(second);
        assert_eq!(started, want);
    }

    #[test]
    fn a_panic_mid_batch_still_wipes_the_lanes() {
        type C = <Sha256 as HashFunction>::Compression;
        let data = data();
        let messages: Vec<&[u8]> = (0..8).map(|i| &data[..100 + 70 * i]).collect();
        let mut out = std::vec![[0u8; 32]; messages.len()];
        let kernel = LaneKernel::<C> {
            lanes: 4,
            compress: count_steps::<C>,
            constant: count_constant::<C>,
            iterate: None,
        };
        multisha_contract::wipe_observer::take();
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut digests = Failing(&mut out, 0);
            let mut batch = Batch::<Sha256, _, _, _, MAX_LANES>::new(
                &messages[..],
                &mut digests,
                FromIv::<Sha256>::NEW,
            );
            batch.limit = messages.len();
            batch.run_level(kernel);
        }));
        assert!(unwound.is_err(), "the digests' panic unwinds");
        // The lane buffers (which held the lanes' states and tails), then the lane workspace.
        assert_lanes_then_workspace_wiped();
    }

    /// The wipes this thread recorded since the last look: the lanes' (which held data), then
    /// the lane workspace's, both zero after.
    fn assert_lanes_then_workspace_wiped() {
        let records = multisha_contract::wipe_observer::take();
        assert_eq!(records.len(), 2, "{records:?}");
        let (lanes, workspace) = (records[0], records[1]);
        assert!(
            lanes.touched && lanes.had_data && lanes.zero_after,
            "{lanes:?}"
        );
        assert!(workspace.zero_after, "{workspace:?}");
    }

    std::thread_local! {
        /// Steps the counting kernels ran: blocks per lane, over every call.
        static STEPS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
        /// Messages this thread's batches ran in groups ([`Batch::run_group`]).
        pub(super) static GROUPED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    }

    /// A lane kernel's entry that counts its blocks and computes nothing.
    fn count_steps<C: Compression>(
        _: &mut [multisha_contract::State<C>],
        blocks: &[&[C::Block]],
        _: &mut C::LaneWorkspace,
    ) {
        STEPS.with(|steps| steps.set(steps.get() + blocks[0].len()));
    }

    /// A lane kernel's constant entry that counts its block and computes nothing.
    fn count_constant<C: Compression>(
        _: &mut [multisha_contract::State<C>],
        _: &[C::Word],
        _: &mut C::LaneWorkspace,
    ) {
        STEPS.with(|steps| steps.set(steps.get() + 1));
    }

    /// The steps a stage of messages of `lens` bytes (all started by the stage) takes on a lane
    /// kernel of `lanes` lanes that only counts them.
    fn steps_on_lanes<H: HashFunction>(lens: &[usize], lanes: usize) -> usize {
        type C<H> = <H as HashFunction>::Compression;
        let kernel = LaneKernel::<C<H>> {
            lanes,
            compress: count_steps::<C<H>>,
            constant: count_constant::<C<H>>,
            iterate: None,
        };
        let data = data();
        let messages: Vec<&[u8]> = lens.iter().map(|&len| &data[..len]).collect();
        let mut digests = std::vec![H::ZERO; lens.len()];
        let mut batch =
            Batch::<H, _, _, _, MAX_LANES>::new(&messages[..], &mut digests[..], FromIv::<H>::NEW);
        batch.limit = lens.len();
        STEPS.with(|steps| steps.set(0));
        batch.run_level(kernel);
        STEPS.with(|steps| steps.get())
    }

    /// The planner prices every message of an equal batch as one of a group (the last group
    /// partly filled), whatever the count: groups form across the windows' bounds, where
    /// the messages a window left over once ran in slots of their own, at up to twice a
    /// group's cost per message.
    #[test]
    fn every_message_of_an_equal_batch_runs_in_a_group() {
        for lanes in [2, 4, 8, 16, 32] {
            for count in (1..=300).chain([1000, 1001]) {
                for len in [0, 32, 100, 640] {
                    GROUPED.with(|n| n.set(0));
                    let steps = steps_on_lanes::<Sha256>(&std::vec![len; count], lanes);
                    let grouped = GROUPED.with(core::cell::Cell::get);
                    assert_eq!(grouped, count, "{count} x {len} B on {lanes} lanes");
                    let blocks = message_blocks(len, 64, 8).0;
                    assert_eq!(steps, count.div_ceil(lanes) * blocks, "{count} x {len} B");
                }
            }
        }
    }

    #[test]
    fn the_planner_counts_the_steps_of_few_ragged_messages_as_the_lanes_run_them() {
        // The planner simulates the lanes of a batch whose messages it all sees (up to twice
        // a kernel's lanes, or 16) instead of bounding them; a simulation that drifts from the
        // executor (rotation, the refill order) would mislead it without changing a digest.
        // For 64-byte blocks (SHA-256) and 128-byte ones (SHA-512): the rotation's threshold
        // is in blocks.
        fn cases<H: HashFunction>(seed: u64) {
            let (block_len, length_bytes) = (
                super::super::block_len::<H>(),
                super::super::length_bytes::<H>(),
            );
            let mut rng = multisha_contract::harness::TestRng::new(seed);
            for lanes in [2, 4, 8, 16] {
                for round in 0..400 {
                    let count = 2 + rng.below(multisha_plan::shape::Shape::TAIL - 1);
                    let most = [300, 3000, 9000, 19_000][round % 4];
                    let mut lens: Vec<usize> = (0..count).map(|_| rng.below(most + 1)).collect();
                    // A few equal lengths among them (groups), never all equal.
                    if round % 3 == 0 {
                        lens[count / 2] = lens[0];
                    }
                    lens[count - 1] = lens[0] + 1;
                    let ran = steps_on_lanes::<H>(&lens, lanes);
                    let shape = multisha_plan::shape::Shape::new(
                        count,
                        |i| lens[i],
                        block_len,
                        length_bytes,
                    );
                    let simulated = shape.with_tail(
                        |i| lens[i],
                        block_len,
                        length_bytes,
                        |tail| multisha_plan::ragged_steps(tail, 0, count, lanes),
                    );
                    assert_eq!(
                        simulated,
                        ran,
                        "{}: {count} messages of {lens:?} on {lanes} lanes",
                        H::OUTPUT.name
                    );
                }
            }
        }
        cases::<Sha256>(0x5eed);
        cases::<crate::Sha512>(0x5eed_0512);
    }

    #[test]
    fn the_planner_predicts_rotation_where_the_executor_rotates() {
        // Equal long messages, a lane-full and a few more: the last ones share the lanes by
        // rotation (about 1.25 times one message's steps for 5 on 4 lanes) or run after the
        // first group (twice). The lengths straddle the threshold, which both sides take from
        // one rule (`rotates`, in padded blocks): SHA-256 messages of 2,040-2,047 bytes were
        // predicted to rotate and ran without.
        fn cases<H: HashFunction>() {
            let (block_len, length_bytes) = (
                super::super::block_len::<H>(),
                super::super::length_bytes::<H>(),
            );
            let edge = 32 * block_len - length_bytes;
            let steps_only = multisha_contract::Cost::new(0.0, 0.0, 1.0);
            for lanes in [2, 4, 8, 16] {
                for len in [edge - 2, edge - 1, edge, edge + 7, edge + 8, edge + 9] {
                    for count in [lanes + 1, lanes + lanes / 2, 2 * lanes - 1] {
                        let ran = steps_on_lanes::<H>(&std::vec![len; count], lanes);
                        let predicted = multisha_plan::all_on_lanes_time(
                            lanes,
                            steps_only,
                            count,
                            |_| len,
                            block_len,
                            length_bytes,
                        );
                        let each = message_blocks(len, block_len, length_bytes).0;
                        // Rotation takes fewer than two messages' steps; the lanes' ends
                        // differ from the prediction by the rotation's rounding at most.
                        let (ran_rotated, predicted_rotated) =
                            (ran < 2 * each, (predicted as usize) < 2 * each);
                        assert_eq!(
                            ran_rotated,
                            predicted_rotated,
                            "{}: {count} x {len} B on {lanes} lanes: ran {ran} steps, predicted \
                             {predicted}",
                            H::OUTPUT.name
                        );
                        // (More messages than the slots can park run in two passes.)
                        let rotation = rotates(each) && count <= ROTATION_SLOTS;
                        assert_eq!(ran_rotated, rotation, "{count} x {len} B, {lanes} lanes");
                    }
                }
            }
        }
        cases::<Sha256>();
        cases::<crate::Sha512>();
    }

    #[test]
    fn windows_change_shape() {
        fn cases<H: HashFunction>()
        where
            H::Compression: multisha_contract::harness::Reference,
        {
            let data = data();
            // An equal window, then a ragged one, then equal again at another length.
            let mut messages: Vec<&[u8]> = (0..WINDOW).map(|i| &data[i..i + 64]).collect();
            messages.extend((0..WINDOW / 2).map(|i| &data[..(i * 97) % 700]));
            messages.extend((0..WINDOW + 3).map(|i| &data[i..i + 200]));
            check::<H>("equal, ragged, equal", &messages);
            // Equal lengths in the window except the last.
            let mut messages: Vec<&[u8]> = (0..WINDOW - 1).map(|i| &data[i..i + 128]).collect();
            messages.push(&data[..129]);
            check::<H>("equal but the last", &messages);
            // Rising lengths: the window is sorted.
            let messages: Vec<&[u8]> = (0..2 * WINDOW + 5).map(|i| &data[..i * 3]).collect();
            check::<H>("rising", &messages);
        }
        for_each_function!(cases);
    }

    #[test]
    fn last_messages_rotate_on_the_lanes() {
        fn cases<H: HashFunction>()
        where
            H::Compression: multisha_contract::harness::Reference,
        {
            let data = data();
            for count in 2..=33 {
                let equal: Vec<&[u8]> = (0..count).map(|i| &data[i..i + 4096]).collect();
                check::<H>(&format!("{count} x 4 KiB"), &equal);
                let ragged: Vec<&[u8]> = (0..count)
                    .map(|i| &data[..(i * 1237 + 100) % 9000])
                    .collect();
                check::<H>(&format!("{count} ragged"), &ragged);
                // A long one among short ones: it sets the end.
                let mut one_long: Vec<&[u8]> = (0..count).map(|i| &data[..i * 5]).collect();
                one_long[count / 2] = &data[..19_000];
                check::<H>(&format!("{count}, one long"), &one_long);
            }
        }
        for_each_function!(cases);
    }

    #[test]
    fn one_different_length_anywhere_makes_a_batch_unequal() {
        let bytes = [0u8; 8];
        for count in 1..=9 {
            let mut messages = std::vec![&bytes[..3]; count];
            assert_eq!(messages[..].equal_len(), Some(3), "{count} equal");
            // (One message alone is equal to itself, whatever its length.)
            for at in (0..count).filter(|_| count > 1) {
                for other in [0, 2, 4, 7] {
                    messages[at] = &bytes[..other];
                    assert_eq!(messages[..].equal_len(), None, "{count}: {other} at {at}");
                }
                messages[at] = &bytes[..3];
            }
        }
        let none: [&[u8]; 0] = [];
        assert_eq!(none[..].equal_len(), None);
    }
}
