//! The batch paths: many messages per call (`sha256_many`, `sha256_pairs`), one lane scheduler
//! shared by every multi-lane kernel.
//!
//! * Each lane compresses one message: its whole blocks straight from the input, then its
//!   padded tail (one or two blocks) built in a buffer of the lane's slot when a kernel call
//!   first needs it. A kernel call runs the same number of blocks on every lane, the fewest any
//!   busy lane has left in its current segment (data or tail); a lane that finishes is refilled
//!   with the next message at once (as Intel's ISA-L lane managers do), so ragged lengths cost
//!   no more than their blocks.
//! * Messages are taken longest first within windows of [`WINDOW`], so the lanes run similar
//!   lengths side by side and the batch ends with short messages. A window whose messages are
//!   already in that order (equal lengths) is not sorted.
//! * Equal lengths (the common batch: 32-byte keys, 64-byte Merkle nodes, fixed-size chunks)
//!   skip the per-lane bookkeeping: when no lane is busy and the next messages of the window
//!   are of one length, a whole group of them runs side by side, data in one call, tails in
//!   another ([`Batch::run_group`]). At 32 bytes the bookkeeping cost as much as the kernel.
//! * When every busy lane is at the tail of a message whose length is a multiple of the block
//!   size, all of them the same length, the tail is the same padding block on every lane: its
//!   schedule is expanded once and the kernel's constant entry runs the rounds alone; only when
//!   enough messages are left to pay for the expansion.
//! * Idle lanes (no message left) repeat a busy lane's input; their results are dropped.
//! * The last messages of a batch (fewer than twice the lanes), when they are long (2 KiB and
//!   up: [`MIN_ROTATION_BLOCKS`]), are all started at once, those beyond the lanes
//!   parked in the next slots, and the lanes rotate among them longest remaining first, so
//!   they end together: 5 messages of 4 KiB on 4 lanes take 1.25 times one message's blocks
//!   instead of 2 ([`Batch::rotate`]). Shorter ones run on the lanes as they come.
//! * Unless a variant was named (forced or by the environment), once what is left (in progress
//!   and waiting) fits in half the lanes, it moves on to the next narrower kernel the CPU runs
//!   (16 lanes of AVX-512 to 4 of SHA-NI, ...), messages not started yet starting there, and a
//!   last single message to the single-message kernel. Short last messages (under 3 blocks on
//!   average: [`average_pays`]) go to the single-message kernel instead of narrower lanes, and
//!   a batch that would leave its first kernel at once starts on the narrower one, or one
//!   message after the other, before any lane is set up. A batch of one message goes to the
//!   single-message kernel directly, and so does a batch too small for the lanes to win back
//!   their set-up (under 16 blocks, or under 24 when its messages average fewer than 4:
//!   [`lanes_pay`]).
//! * The lanes' states and tails ([`LaneBuffers`]) and the kernels' transposed schedule are
//!   message data: each is wiped once per batch call (a tail buffer is overwritten, not wiped,
//!   between messages), the lane buffers only in the slots the batch used.
//!
//! The many-message variants are tried in the registry's order (`algorithms.rs`), the same for
//! every message length. Measured on AMD Zen 4 (`cargo xtask report --algo sha256` / `sha1`,
//! batch section, MB/s with this scheduler): SHA-256's `shani-x4` leads `avx512-x16` from
//! 32-byte messages on (1264 vs 1163 at 32 B, 3930 vs 3346 at 1 KiB: Zen 4 runs AVX-512 as two
//! 256-bit halves), and SHA-1's `avx512-x16` leads `shani-x4` at every length (1753 vs 1488,
//! 6255 vs 4919). No order per CPU family: nothing measured or published here says where
//! Intel's full-width AVX-512 lands.

use crate::engine::dispatch;
use crate::engine::{Reason, Variant};
use crate::hash_function::HashFunction;
use multisha_contract::{
    BlockBytes, Compression, Kernel, KernelFn, LaneBuffers, LaneKernel, MAX_LANES, WorkspaceBuffer,
    pad_into, write_digest,
};

/// Messages taken longest first from windows of this many.
const WINDOW: usize = 64;

/// Whether the lanes win back their set-up (slots, tails, hand-overs) on a batch of `count`
/// messages of `blocks` blocks in all (padding included); the dispatched plan hashes smaller
/// batches one message after the other (a forced variant still runs every batch). Measured on
/// Zen 4 with SHA-256, lanes time / one-shot loop time: 4 x 64 B 1.45, 8 x 64 B 1.06, 10 x 64 B
/// 1.22, 12 x 64 B 0.93, 16 x 32 B 1.18, 32 x 32 B 0.98, 6 x 128 B 1.39, 8 x 128 B 0.87,
/// 2 x 512 B 0.81, 4 x 256 B 0.83: short messages need more blocks than long ones.
fn lanes_pay(count: usize, blocks: usize) -> bool {
    blocks >= MIN_LANE_BLOCKS
        && (blocks >= MIN_SHORT_LANE_BLOCKS || blocks >= SHORT_MESSAGE_BLOCKS * count)
}

/// Fewer blocks than this in a batch: one message after the other.
const MIN_LANE_BLOCKS: usize = 16;
/// Fewer blocks than this in a batch of short messages (under [`SHORT_MESSAGE_BLOCKS`] on
/// average): one message after the other.
const MIN_SHORT_LANE_BLOCKS: usize = 24;
/// Messages of fewer blocks than this on average are short: a batch of them needs
/// [`MIN_SHORT_LANE_BLOCKS`].
const SHORT_MESSAGE_BLOCKS: usize = 4;
/// The last messages of a batch go to narrower lanes only when they average this many blocks
/// or more ([`average_pays`]).
const MIN_HANDOVER_BLOCKS: usize = 3;

/// The last messages of a batch share the lanes by rotation ([`Batch::rotate`]) only when the
/// next to start has at least this many blocks; shorter ones run on the lanes as they come and
/// the rest is handed over. Rotation calls the kernel for a few blocks at a time and re-sorts
/// the lanes between calls, which short messages do not win back. Measured on Zen 4, one-shot
/// loop time / lanes time (above 1: the lanes are faster) with rotation and without: SHA-256
/// 6 x 256 B 1.01 and 1.22, 6 x 512 B 1.36 and 1.51, 7 x 1 KiB 1.62 and 1.75, 6 x 2 KiB 1.95
/// and 1.92, 5 x 2 KiB 1.85 and 1.63; SHA-1 6 x 256 B 0.86 and 1.03, 6 x 2 KiB 2.12 and 1.96.
const MIN_ROTATION_BLOCKS: usize = 32;

/// The messages of a batch, by index (a slice of slices, or of fixed-size nodes).
pub(crate) trait Messages {
    /// How many.
    fn count(&self) -> usize;
    /// The `i`-th.
    fn get(&self, i: usize) -> &[u8];
}

impl Messages for [&[u8]] {
    fn count(&self) -> usize {
        self.len()
    }
    fn get(&self, i: usize) -> &[u8] {
        self[i]
    }
}

impl<const N: usize> Messages for [[u8; N]] {
    fn count(&self) -> usize {
        self.len()
    }
    fn get(&self, i: usize) -> &[u8] {
        &self[i]
    }
}

/// Where the digests of a batch go, by index.
pub(crate) trait Digests {
    /// How many.
    fn count(&self) -> usize;
    /// The `i`-th digest's bytes.
    fn slot(&mut self, i: usize) -> &mut [u8];
}

impl<D: AsMut<[u8]>> Digests for [D] {
    fn count(&self) -> usize {
        self.len()
    }
    fn slot(&mut self, i: usize) -> &mut [u8] {
        self[i].as_mut()
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
}

/// The digests of `messages` into `digests`, as hash function `H`, with the dispatched
/// many-message variant.
///
/// # Panics
/// If `messages` and `digests` differ in length.
pub(crate) fn hash_many<H, M, D>(messages: &M, digests: &mut D)
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    let selection = dispatch::many::<H::Compression>();
    // A variant asked for by name (force, the environment) runs every batch to the end, so
    // what is tested or measured is that kernel alone.
    let alone = matches!(selection.reason, Reason::Forced | Reason::Env);
    if !alone
        && messages.count() == digests.count()
        && !lanes_pay(
            messages.count(),
            blocks_up_to::<H::Compression, M>(messages, MIN_SHORT_LANE_BLOCKS),
        )
    {
        // A few short messages: the lanes would not win back their set-up.
        return serial::<H, M, D>(dispatch::current::<H::Compression>(), messages, digests);
    }
    run::<H, M, D>(selection.variant, alone, messages, digests);
}

/// Runs the batch on `variant` (a many-message variant of `H`'s algorithm that the CPU runs);
/// `alone` keeps it from handing the last messages to narrower kernels.
///
/// # Panics
/// If `messages` and `digests` differ in length.
pub(crate) fn run<H, M, D>(variant: &'static Variant, alone: bool, messages: &M, digests: &mut D)
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    assert_eq!(
        messages.count(),
        digests.count(),
        "{} of {} messages into {} digests: the lengths must be equal",
        H::OUTPUT.name,
        messages.count(),
        digests.count()
    );
    if messages.count() == 0 {
        return;
    }
    let single = dispatch::current::<H::Compression>();
    if messages.count() == 1 && !alone {
        // What the lanes would hand to the single-message kernel anyway, without setting them
        // up.
        return serial::<H, M, D>(single, messages, digests);
    }
    let declaration = variant
        .declaration::<H::Compression>()
        .expect("a many-message variant of this algorithm");
    match declaration.kernel {
        Kernel::Lanes(mut kernel) => {
            // The levels a batch would leave at once (it fits in half their lanes) are
            // skipped before the lanes are set up, with the check each hand-over makes.
            while !alone && 2 * messages.count() <= kernel.lanes {
                let lens = (0..messages.count()).map(|i| messages.get(i).len());
                match dispatch::narrower::<H::Compression>(kernel.lanes) {
                    Some(next) if average_pays::<H::Compression>(0, messages.count(), lens) => {
                        kernel = next;
                    }
                    _ => return serial::<H, M, D>(single, messages, digests),
                }
            }
            let mut batch = Batch::<H, M, D>::new(messages, digests);
            batch.run(kernel, (!alone).then_some(single));
            batch.wipe();
        }
        Kernel::Serial => serial::<H, M, D>(single, messages, digests),
        Kernel::Single(_) => unreachable!("the many-message choice is a many-message variant"),
    }
}

/// The blocks hashing `messages` takes, padding included, counted up to `cap`.
fn blocks_up_to<A: Compression, M: Messages + ?Sized>(messages: &M, cap: usize) -> usize {
    add_blocks_up_to::<A>(0, (0..messages.count()).map(|i| messages.get(i).len()), cap)
}

/// `blocks` plus the blocks that messages of `lens` bytes take, padding included, counted up
/// to `cap`.
fn add_blocks_up_to<A: Compression>(
    mut blocks: usize,
    lens: impl Iterator<Item = usize>,
    cap: usize,
) -> usize {
    for len in lens {
        if blocks >= cap {
            break;
        }
        // The whole blocks, then the tail, its `0x80` byte and the length field.
        blocks += (len + A::LENGTH_BYTES) / A::Block::LEN + 1;
    }
    blocks.min(cap)
}

/// Whether `count` messages, `blocks` blocks of them in progress and the rest of `lens` bytes
/// not started, are worth narrower lanes: only when they average [`MIN_HANDOVER_BLOCKS`]
/// blocks or more (padding included), else they go one after the other. Measured on Zen 4,
/// one-shot loop against the narrower kernel alone: 8 SHA-1 messages of 32 bytes 212 ns
/// against 340 on `shani-x4`, 4 of 64 bytes 200 against 246 on `shani-x2`, 8 of 128 bytes
/// (3 blocks) about even (`shani-x4` 1.03 times as fast); 4 SHA-256 messages of 256 bytes 665
/// against 505 on `shani-x2`.
fn average_pays<A: Compression>(
    blocks: usize,
    count: usize,
    lens: impl Iterator<Item = usize>,
) -> bool {
    let enough = MIN_HANDOVER_BLOCKS * count;
    add_blocks_up_to::<A>(blocks, lens, enough) >= enough
}

/// One message after the other through the single-message kernel.
fn serial<H, M, D>(single: KernelFn<H::Compression>, messages: &M, digests: &mut D)
where
    H: HashFunction,
    M: Messages + ?Sized,
    D: Digests + ?Sized,
{
    for i in 0..messages.count() {
        // SAFETY: the single-message kernel comes from the dispatcher, which checks the CPU.
        let digest = unsafe { crate::oneshot::hash::<H>(single, messages.get(i)) };
        put::<H, D>(digests, i, &digest);
    }
}

/// Copies `digest` into digest slot `i`. The callers write each digest into a fixed-size array
/// first: written straight into the slot, whose length the compiler does not know, the words
/// went one by one through a loop (one-by-one batches ran 3-5% behind a loop of one-shot
/// calls).
#[inline(always)]
fn put<H: HashFunction, D: Digests + ?Sized>(digests: &mut D, i: usize, digest: &H::Digest) {
    digests.slot(i).copy_from_slice(digest.as_ref());
}

/// A message in progress, in one of the [`MAX_LANES`] slots: slot `i` owns state `i` and
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

/// The bits of slots `0..n`.
fn first_slots(n: usize) -> u32 {
    debug_assert!(n <= MAX_LANES);
    (1u32 << n) - 1
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
struct Batch<'m, H: HashFunction, M: Messages + ?Sized, D: Digests + ?Sized> {
    messages: &'m M,
    digests: &'m mut D,
    buffers: LaneBuffers<H::Compression>,
    workspace: <H::Compression as Compression>::LaneWorkspace,
    jobs: [Job<'m, Block<H>>; MAX_LANES],
    /// Bit `i`: slot `i` holds a message in progress.
    busy: u32,
    /// Bit `i`: slot `i`'s state or tail was written (what the wipe covers).
    touched: u32,
    /// The current window: its first index, its length, how many were taken.
    window_start: usize,
    window_len: usize,
    window_taken: usize,
    /// The window's indices longest message first, when that is not their own order (made
    /// only then: equal lengths need no sort).
    window_order: Option<[usize; WINDOW]>,
    window_reordered: bool,
    /// Whether every message of the window has the same length.
    window_equal: bool,
    /// The first index not yet in a window.
    next: usize,
    /// The expanded schedule of the padding block of `schedule_for`-byte messages (a multiple
    /// of the block size), for the kernels' constant entry.
    schedule: [Word<H>; 80],
    schedule_for: Option<usize>,
}

type Block<H> = <<H as HashFunction>::Compression as Compression>::Block;
type Word<H> = <<H as HashFunction>::Compression as Compression>::Word;

impl<'m, H: HashFunction, M: Messages + ?Sized, D: Digests + ?Sized> Batch<'m, H, M, D> {
    fn new(messages: &'m M, digests: &'m mut D) -> Self {
        Self {
            messages,
            digests,
            buffers: LaneBuffers::new(),
            workspace: Default::default(),
            jobs: [Job::IDLE; MAX_LANES],
            busy: 0,
            touched: 0,
            window_start: 0,
            window_len: 0,
            window_order: None,
            window_reordered: false,
            window_taken: 0,
            window_equal: false,
            next: 0,
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
        let (start, end) = (self.next, count.min(self.next + WINDOW));
        let messages = self.messages;
        let mut in_order = true;
        let (mut shortest, mut previous) = (usize::MAX, usize::MAX);
        for index in start..end {
            let len = messages.get(index).len();
            in_order &= len <= previous;
            previous = len;
            shortest = shortest.min(len);
        }
        self.window_reordered = !in_order;
        if !in_order {
            let order = self.window_order.get_or_insert([0; WINDOW]);
            for (slot, index) in order.iter_mut().zip(start..end) {
                *slot = index;
            }
            order[..end - start]
                .sort_unstable_by_key(|&i| core::cmp::Reverse(messages.get(i).len()));
        }
        self.window_equal = in_order && messages.get(start).len() == shortest;
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

    /// The next message to start, longest first within its window.
    fn next_job(&mut self) -> Option<usize> {
        if !self.refill() {
            return None;
        }
        let job = self.window_at(self.window_taken);
        self.window_taken += 1;
        Some(job)
    }

    /// Whether what is left is long enough for rotation ([`Self::rotate`]) to pay for its
    /// bookkeeping: the next message to start (the longest waiting in its window) has at least
    /// [`MIN_ROTATION_BLOCKS`] blocks.
    fn rotation_pays(&mut self) -> bool {
        self.refill()
            && self.messages.get(self.window_at(self.window_taken)).len()
                >= MIN_ROTATION_BLOCKS * <Block<H> as BlockBytes>::LEN
    }

    /// Whether what is left (in progress and waiting) is worth narrower lanes
    /// ([`average_pays`]). Out of line: inlined, it moved `run`'s code and cost SHA-256
    /// batches that never hand over 2-4% (code placement).
    #[inline(never)]
    fn rest_pays(&mut self) -> bool {
        let count = self.busy.count_ones() as usize + self.waiting();
        let in_progress = slots(self.busy).map(|i| self.jobs[i].remaining()).sum();
        let messages = self.messages;
        let window = (self.window_taken..self.window_len).map(|k| self.window_at(k));
        let lens = window
            .chain(self.next..messages.count())
            .map(|index| messages.get(index).len());
        average_pays::<H::Compression>(in_progress, count, lens)
    }

    /// How many messages are not started yet.
    fn waiting(&self) -> usize {
        self.window_len - self.window_taken + self.messages.count() - self.next
    }

    /// Starts message `index` in free slot `i`.
    fn start(&mut self, i: usize, index: usize) {
        let message = self.messages.get(index);
        let (data, rest) = Block::<H>::split(message);
        let one_block = rest.len()
            < <Block<H> as BlockBytes>::LEN - <H::Compression as Compression>::LENGTH_BYTES;
        self.buffers.states[i] = H::OUTPUT.iv;
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
        pad_into::<H::Compression>(tail, job.rest, job.len as u128 * 8);
        job.tail_built = true;
    }

    /// Writes slot `i`'s digest and frees the slot.
    fn finish(&mut self, i: usize) {
        let mut digest = H::ZERO;
        write_digest(self.buffers.states[i].as_ref(), digest.as_mut());
        put::<H, D>(self.digests, self.jobs[i].index, &digest);
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

    /// Every message through `kernel`, then, with `single` (unless the variant runs alone),
    /// narrower kernels for the last messages and the single-message kernel for a last lone
    /// one.
    fn run(
        &mut self,
        mut kernel: LaneKernel<H::Compression>,
        single: Option<KernelFn<H::Compression>>,
    ) {
        loop {
            self.run_level(kernel, single.is_some());
            if self.busy == 0 && self.waiting() == 0 {
                return;
            }
            if !self.rest_pays() {
                break;
            }
            match dispatch::narrower::<H::Compression>(kernel.lanes) {
                Some(next) => kernel = next,
                None => break,
            }
        }
        // What is left (at most half of the narrowest kernel's lanes) goes through the
        // single-message kernel: messages in progress, then any not started.
        let single = single.expect("a kernel that runs alone runs every message to the end");
        for i in slots(self.busy) {
            let mut w = <H::Compression as Compression>::Workspace::default();
            if !self.jobs[i].tail_built {
                self.build_tail(i);
            }
            let job = self.jobs[i];
            let state = &mut self.buffers.states[i];
            let tail =
                &self.buffers.tails[i][usize::from(job.tail_done)..usize::from(job.tail_len)];
            // SAFETY: the single-message kernel comes from the dispatcher, which checks the
            // CPU.
            unsafe {
                if !job.data.is_empty() {
                    single(state, job.data, &mut w);
                }
                single(state, tail, &mut w);
            }
            w.wipe();
            self.finish(i);
        }
        // And what was handed over before it started.
        while let Some(index) = self.next_job() {
            // SAFETY: as above.
            let digest = unsafe { crate::oneshot::hash::<H>(single, self.messages.get(index)) };
            put::<H, D>(self.digests, index, &digest);
        }
    }

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
        if waiting > 0 && left < 2 * width && left <= MAX_LANES && self.rotation_pays() {
            for i in slots(!self.busy & first_slots(MAX_LANES)) {
                let Some(index) = self.next_job() else { break };
                self.start(i, index);
            }
        }
    }

    /// With more messages in progress than `width` lanes: puts those with the most blocks
    /// left on the lanes (longest remaining first, which ends them together) and returns how
    /// many blocks they may run before the choice is made again.
    fn rotate(&mut self, width: usize) -> usize {
        // Slots by blocks left, most first (at most `MAX_LANES`: insertion sort).
        let mut order = [0usize; MAX_LANES];
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

    /// Runs `kernel` until every message is done, or, when `handoff` (a narrower kernel or the
    /// single-message one follows), until what is left (busy and waiting) fits in half the
    /// lanes.
    fn run_level(&mut self, kernel: LaneKernel<H::Compression>, handoff: bool) {
        let width = kernel.lanes;
        assert!(
            (2..=MAX_LANES).contains(&width),
            "lane kernels have 2 to {MAX_LANES} lanes"
        );
        let lanes = first_slots(width);
        loop {
            // Handed over before the messages that would fit start here: a narrower kernel
            // finds them waiting, as a group if they are of one length.
            let busy = self.busy.count_ones() as usize;
            if handoff && 2 * (busy + self.waiting()) <= width {
                return;
            }
            // Every call writes every lane's state, idle lanes' too.
            self.touched |= lanes;
            if busy == 0 && self.group_ready(width) {
                match width {
                    2 => self.run_group::<2>(kernel),
                    4 => self.run_group::<4>(kernel),
                    8 => self.run_group::<8>(kernel),
                    _ => self.run_group::<16>(kernel),
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
            let mut inputs: [&[Block<H>]; MAX_LANES] = [segment(first); MAX_LANES];
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

    /// Whether the next `width` messages can run as a group ([`Self::run_group`]): no lane is
    /// busy, and they are of one length. Not when fewer than twice the lanes are left beyond
    /// the group's and they are long enough to rotate: those share the lanes by rotation, the
    /// group with them.
    fn group_ready(&mut self, width: usize) -> bool {
        if !matches!(width, 2 | 4 | 8 | 16)
            || !self.refill()
            || !self.window_equal
            || self.window_len - self.window_taken < width
        {
            return false;
        }
        let waiting = self.waiting();
        waiting == width || waiting >= 2 * width || !self.rotation_pays()
    }

    /// The next `W` messages (`W` the kernel's lanes), all of one length, side by side from
    /// start to end: their whole blocks straight from the messages in one call, then their
    /// tails (the constant entry when the length is a multiple of the block size). The per-lane
    /// bookkeeping of ragged batches ([`Job`]) costs as much as the kernel on one-block
    /// messages; `W` is a constant so the lane arrays are no longer than the lanes.
    fn run_group<const W: usize>(&mut self, kernel: LaneKernel<H::Compression>) {
        debug_assert_eq!(kernel.lanes, W);
        let messages = self.messages;
        let taken = self.window_taken;
        let group: [usize; W] = core::array::from_fn(|l| self.window_at(taken + l));
        self.window_taken += W;
        let len = messages.get(group[0]).len();
        let mut inputs: [&[Block<H>]; W] =
            core::array::from_fn(|l| Block::<H>::split(messages.get(group[l])).0);
        let rest = len % <Block<H> as BlockBytes>::LEN;
        let constant = rest == 0 && self.constant_pays(len, W);
        let LaneBuffers { states, tails } = &mut self.buffers;
        let states = &mut states[..W];
        for state in states.iter_mut() {
            *state = H::OUTPUT.iv;
        }
        if !inputs[0].is_empty() {
            // SAFETY: the kernel's variant was checked to run on this CPU when it was chosen;
            // `W` lanes (the kernel's) of the same number (at least 1) of blocks.
            unsafe { (kernel.compress)(states, &inputs, &mut self.workspace) };
        }
        if constant {
            self.run_constant(kernel, len);
        } else {
            let two = rest
                >= <Block<H> as BlockBytes>::LEN - <H::Compression as Compression>::LENGTH_BYTES;
            for (tail, &index) in tails.iter_mut().zip(&group) {
                let message = messages.get(index);
                tail[0] = <Block<H> as BlockBytes>::ZERO;
                if two {
                    tail[1] = <Block<H> as BlockBytes>::ZERO;
                }
                pad_into::<H::Compression>(tail, &message[len - rest..], len as u128 * 8);
            }
            let used = if two { 2 } else { 1 };
            for (input, tail) in inputs.iter_mut().zip(tails.iter()) {
                *input = &tail[..used];
            }
            // SAFETY: as above; `W` lanes of `used` blocks each.
            unsafe { (kernel.compress)(states, &inputs, &mut self.workspace) };
        }
        for (state, &index) in self.buffers.states.iter().zip(&group) {
            let mut digest = H::ZERO;
            write_digest(state.as_ref(), digest.as_mut());
            put::<H, D>(self.digests, index, &digest);
        }
    }

    /// Whether to run the padding block of `len`-byte messages (a multiple of the block size)
    /// through the constant entry: its schedule is expanded already, or enough messages are
    /// left to pay for the expansion (which costs about as much as three kernel calls save),
    /// or the messages are empty (the constant entry spares a workspace kernel its workspace,
    /// zeroed on first use and wiped at the end, which costs more than the expansion).
    fn constant_pays(&self, len: usize, width: usize) -> bool {
        len == 0 || self.schedule_for == Some(len) || self.waiting() >= 3 * width
    }

    /// One call of `kernel`'s constant entry: the padding block of `len`-byte messages (a
    /// multiple of the block size) on every lane, its schedule expanded once per batch.
    fn run_constant(&mut self, kernel: LaneKernel<H::Compression>, len: usize) {
        let rounds = <H::Compression as Compression>::ROUNDS;
        if self.schedule_for != Some(len) {
            let mut padding = [<Block<H> as BlockBytes>::ZERO; 2];
            pad_into::<H::Compression>(&mut padding, &[], len as u128 * 8);
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

#[cfg(test)]
mod tests {
    //! The scheduler's own paths, beyond the crate-wide batch tests (ragged lengths): groups of
    //! equal lengths, rotation of the last messages, windows that change shape, hand-offs that
    //! leave messages parked beyond a narrower kernel's lanes.
    use super::*;
    use crate::engine::Interface;
    use crate::{Sha1, Sha224, Sha256};
    use std::format;
    use std::vec::Vec;

    #[test]
    fn block_counts_include_the_padding() {
        use multisha_contract::{Sha256Compression, Sha512Compression};
        let data = [0u8; 300];
        let blocks = |lens: &[usize]| {
            let messages: Vec<&[u8]> = lens.iter().map(|&n| &data[..n]).collect();
            blocks_up_to::<Sha256Compression, _>(&messages[..], 100)
        };
        // 0..=55 bytes: one block; 56..=119: two (the length field no longer fits); 128: three.
        assert_eq!(blocks(&[0]), 1);
        assert_eq!(blocks(&[55]), 1);
        assert_eq!(blocks(&[56]), 2);
        assert_eq!(blocks(&[64, 119, 128]), 2 + 2 + 3);
        assert_eq!(blocks(&[]), 0);
        let messages: [&[u8]; 3] = [&data[..111], &data[..112], &data[..300]];
        assert_eq!(blocks_up_to::<Sha512Compression, _>(&messages[..1], 100), 1);
        assert_eq!(
            blocks_up_to::<Sha512Compression, _>(&messages[1..2], 100),
            2
        );
        // Counting stops at the cap.
        assert_eq!(blocks_up_to::<Sha512Compression, _>(&messages[..], 3), 3);
    }

    #[test]
    fn small_batches_of_short_messages_go_one_by_one() {
        // (count, bytes each, lanes?): the shapes measured for `lanes_pay`.
        let shapes = [
            (2, 64, false),
            (4, 64, false),
            (8, 64, false),
            (10, 64, false),
            (12, 64, true),
            (16, 32, false),
            (32, 32, true),
            (6, 128, false),
            (8, 128, true),
            (2, 512, true),
            (4, 256, true),
            (3, 256, false),
        ];
        for (count, len, lanes) in shapes {
            let blocks = count * ((len + 8) / 64 + 1);
            assert_eq!(lanes_pay(count, blocks), lanes, "{count} x {len} B");
        }
    }

    #[test]
    fn short_last_messages_go_one_by_one() {
        use multisha_contract::Sha256Compression;
        // (blocks left of the messages in progress, how many messages in all, the bytes of
        // those not started, narrower lanes?): they must average 3 blocks, padding included.
        let cases: [(usize, usize, &[usize], bool); 8] = [
            (0, 8, &[32; 8], false),
            (0, 4, &[64; 4], false),
            (0, 2, &[100; 2], false),
            (0, 2, &[120; 2], true),
            (0, 1, &[200], true),
            (0, 4, &[128; 4], true),
            (5, 2, &[0], true),
            (4, 2, &[0], false),
        ];
        for (in_progress, count, lens, lanes) in cases {
            assert_eq!(
                average_pays::<Sha256Compression>(in_progress, count, lens.iter().copied()),
                lanes,
                "{count} messages: {in_progress} blocks in progress, then {lens:?} bytes"
            );
        }
    }

    /// Every many-message variant this CPU runs, alone and as the dispatcher's plan, against
    /// the one-shot function.
    fn check<H: HashFunction>(label: &str, messages: &[&[u8]]) {
        for variant in H::algorithm()
            .variants()
            .iter()
            .filter(|v| v.is_available() && v.interface() == Interface::Many)
        {
            for alone in [true, false] {
                let mut digests = std::vec![H::ZERO; messages.len()];
                run::<H, _, _>(variant, alone, messages, &mut digests[..]);
                for (i, (message, digest)) in messages.iter().zip(&digests).enumerate() {
                    assert_eq!(
                        digest.as_ref(),
                        H::oneshot(message).as_ref(),
                        "{} on {variant} (alone: {alone}), {label}: message {i} of {} ({} bytes)",
                        H::OUTPUT.name,
                        messages.len(),
                        message.len()
                    );
                }
            }
        }
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
        fn cases<H: HashFunction>() {
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
    }

    #[test]
    fn windows_change_shape() {
        fn cases<H: HashFunction>() {
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
        fn cases<H: HashFunction>() {
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
}
