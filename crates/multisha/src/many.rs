//! The batch paths: many messages per call (`sha256_many`, `sha256_pairs`), one lane scheduler
//! shared by every multi-lane kernel.
//!
//! * Each lane compresses one message: its whole blocks straight from the input, then its
//!   padded tail (one or two blocks) built in the lane's own buffer. A kernel call runs the
//!   same number of blocks on every lane, the fewest any busy lane has left in its current
//!   segment (data or tail); a lane that finishes is refilled with the next message at once
//!   (as Intel's ISA-L lane managers do), so ragged lengths cost no more than their blocks.
//! * Messages are taken longest first within windows of [`WINDOW`], so the lanes run similar
//!   lengths side by side and the batch ends with short messages.
//! * When every busy lane is at the tail of a message whose length is a multiple of the block
//!   size, all of them the same length (64-byte Merkle nodes, equal-length chunks), the tail is
//!   the same padding block on every lane: its schedule is expanded once and the kernel's
//!   constant entry runs the rounds alone.
//! * Idle lanes (no message left) repeat a busy lane's input; their results are dropped.
//! * Unless a variant was named (forced or by the environment), once no message is waiting
//!   and at most half the lanes are busy, the busy lanes move on to the next narrower kernel
//!   the CPU runs (16 lanes of AVX-512 to 4 of SHA-NI, ...), and a last single message to the
//!   single-message kernel.
//! * The lanes' states and tails ([`LaneBuffers`]) and the kernels' transposed schedule are
//!   message data: each is wiped once per batch call.

use crate::engine::dispatch;
use crate::engine::{Interface, Reason, Variant};
use crate::hash_function::{HashFunction, Registered};
use multisha_contract::{
    BlockBytes, Compression, CpuFeatures, Kernel, KernelFn, LaneBuffers, LaneKernel, MAX_LANES,
    WorkspaceBuffer, oneshot, pad_into, wipe_blocks, write_digest,
};
use zeroize::Zeroize;

/// Messages taken longest first from windows of this many.
const WINDOW: usize = 64;

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
    let declaration = variant
        .declaration::<H::Compression>()
        .expect("a many-message variant of this algorithm");
    match declaration.kernel {
        Kernel::Lanes(kernel) => {
            let plan = Plan::<H::Compression>::new(kernel, single, !alone);
            let mut batch = Batch::<H, M, D>::new(messages, digests);
            batch.run(&plan);
            batch.wipe();
        }
        Kernel::Serial => serial::<H, M, D>(single, messages, digests),
        Kernel::Single(_) => unreachable!("the many-message choice is a many-message variant"),
    }
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
        unsafe {
            oneshot::<H::Compression>(single, H::OUTPUT.iv, messages.get(i), digests.slot(i))
        };
    }
}

/// The kernels a batch may use: the chosen one, then narrower ones for the last messages.
struct Plan<A: Registered> {
    /// Widest first; `len` of them are set.
    kernels: [Option<LaneKernel<A>>; 4],
    /// The single-message kernel, for a last lone message (`None` when the chosen variant
    /// runs alone).
    single: Option<KernelFn<A>>,
}

impl<A: Registered> Plan<A> {
    fn new(primary: LaneKernel<A>, single: KernelFn<A>, narrower: bool) -> Self {
        let mut kernels = [None; 4];
        kernels[0] = Some(primary);
        if !narrower {
            return Self {
                kernels,
                single: None,
            };
        }
        let features = CpuFeatures::detect();
        let mut n = 1;
        let mut width = primary.lanes;
        // The registry lists each interface best first: the first available variant of each
        // narrower width is the one to hand over to.
        for variant in A::ALGORITHM.variants() {
            if n == kernels.len() {
                break;
            }
            if variant.interface() != Interface::Many || !variant.is_available_on(features) {
                continue;
            }
            let Some(Kernel::Lanes(kernel)) = variant.declaration::<A>().map(|d| d.kernel) else {
                continue;
            };
            if kernel.lanes < width {
                width = kernel.lanes;
                kernels[n] = Some(kernel);
                n += 1;
            }
        }
        Self {
            kernels,
            single: Some(single),
        }
    }
}

/// Where a lane is in its message.
#[derive(Clone, Copy)]
struct Lane<'a, B> {
    /// The message's index (its digest's slot).
    job: usize,
    /// Data blocks not compressed yet (then the tail).
    data: &'a [B],
    /// Tail blocks compressed so far, and how many there are (1 or 2).
    tail_done: usize,
    tail_len: usize,
    /// The message length in bytes if it is a multiple of the block size (its tail is the
    /// padding block that depends only on it).
    constant_tail: Option<usize>,
}

impl<B: BlockBytes> Lane<'_, B> {
    fn in_tail(&self) -> bool {
        self.data.is_empty()
    }

    /// Blocks left in the current segment.
    fn segment_len(&self) -> usize {
        if self.in_tail() {
            self.tail_len - self.tail_done
        } else {
            self.data.len()
        }
    }
}

/// A batch in progress: the messages, the digests, the lanes, and the order of what is left.
struct Batch<'m, H: HashFunction, M: Messages + ?Sized, D: Digests + ?Sized> {
    messages: &'m M,
    digests: &'m mut D,
    buffers: LaneBuffers<H::Compression>,
    workspace: <H::Compression as Compression>::LaneWorkspace,
    /// Indices of the current window, longest message first, and how many were taken.
    window: [usize; WINDOW],
    window_len: usize,
    window_taken: usize,
    /// The first index not yet in a window.
    next: usize,
}

type Block<H> = <<H as HashFunction>::Compression as Compression>::Block;

impl<'m, H: HashFunction, M: Messages + ?Sized, D: Digests + ?Sized> Batch<'m, H, M, D> {
    fn new(messages: &'m M, digests: &'m mut D) -> Self {
        Self {
            messages,
            digests,
            buffers: LaneBuffers::new(),
            workspace: Default::default(),
            window: [0; WINDOW],
            window_len: 0,
            window_taken: 0,
            next: 0,
        }
    }

    /// The next message to start, longest first within its window.
    fn next_job(&mut self) -> Option<usize> {
        if self.window_taken == self.window_len {
            let count = self.messages.count();
            if self.next == count {
                return None;
            }
            let end = count.min(self.next + WINDOW);
            self.window_len = end - self.next;
            for (slot, index) in self.window.iter_mut().zip(self.next..end) {
                *slot = index;
            }
            let messages = self.messages;
            self.window[..self.window_len]
                .sort_unstable_by_key(|&i| core::cmp::Reverse(messages.get(i).len()));
            self.window_taken = 0;
            self.next = end;
        }
        let job = self.window[self.window_taken];
        self.window_taken += 1;
        Some(job)
    }

    fn has_waiting(&self) -> bool {
        self.window_taken < self.window_len || self.next < self.messages.count()
    }

    /// Starts message `job` on lane `i`: initial value, data blocks, padded tail.
    fn start(&mut self, i: usize, job: usize) -> Lane<'m, Block<H>> {
        let message = self.messages.get(job);
        let (data, tail) = Block::<H>::split(message);
        let tail_blocks = &mut self.buffers.tails[i];
        // `pad_into` wants zeroed blocks: a lane's tail buffer is zeroed after each use.
        let tail_len = pad_into::<H::Compression>(tail_blocks, tail, message.len() as u128 * 8);
        self.buffers.states[i] = H::OUTPUT.iv;
        Lane {
            job,
            data,
            tail_done: 0,
            tail_len,
            constant_tail: tail.is_empty().then_some(message.len()),
        }
    }

    /// Writes lane `i`'s digest and clears its tail buffer for the next message.
    fn finish(&mut self, i: usize, lane: &Lane<'_, Block<H>>) {
        write_digest(self.buffers.states[i].as_ref(), self.digests.slot(lane.job));
        wipe_blocks(&mut self.buffers.tails[i][..lane.tail_len]);
    }

    /// Moves the state and tail of lane `from` to lane `to` (whose tail buffer is zeroed),
    /// leaving `from`'s zeroed.
    fn move_lane(&mut self, from: usize, to: usize) {
        let buffers = &mut self.buffers;
        buffers.states[to] = buffers.states[from];
        buffers.states[from].as_mut().zeroize();
        buffers.tails[to] = buffers.tails[from];
        wipe_blocks(&mut buffers.tails[from]);
    }

    /// Wipes the lanes' states and tails and the kernels' schedule: once per batch call.
    fn wipe(&mut self) {
        self.buffers.wipe();
        self.workspace.wipe();
    }

    /// Every message through the plan's kernels.
    fn run(&mut self, plan: &Plan<H::Compression>) {
        let mut lanes: [Option<Lane<'m, Block<H>>>; MAX_LANES] = [None; MAX_LANES];
        for (level, kernel) in plan.kernels.iter().enumerate() {
            let Some(kernel) = kernel else { break };
            let narrower = plan.kernels.get(level + 1).copied().flatten();
            self.run_level(*kernel, &mut lanes, narrower.map(|k| k.lanes));
            if lanes.iter().all(Option::is_none) {
                return;
            }
        }
        // What is left (one message, or at most half of the narrowest kernel's lanes) goes
        // through the single-message kernel.
        let single = plan
            .single
            .expect("a forced kernel runs every message to the end");
        for i in 0..MAX_LANES {
            let Some(mut lane) = lanes[i].take() else {
                continue;
            };
            let state = &mut self.buffers.states[i];
            let mut w = <H::Compression as Compression>::Workspace::default();
            // SAFETY: the single-message kernel comes from the dispatcher, which checks the
            // CPU.
            unsafe {
                single(state, lane.data, &mut w);
                single(
                    state,
                    &self.buffers.tails[i][lane.tail_done..lane.tail_len],
                    &mut w,
                );
            }
            w.wipe();
            lane.data = &[];
            self.finish(i, &lane);
        }
    }

    /// Runs `kernel` until every message is done, or, when `handoff` is the width of a
    /// narrower kernel, until no message waits and at most half the lanes are busy. Lanes are
    /// compacted to the front before a hand-off, so the narrower kernel finds them there.
    fn run_level(
        &mut self,
        kernel: LaneKernel<H::Compression>,
        lanes: &mut [Option<Lane<'m, Block<H>>>; MAX_LANES],
        handoff: Option<usize>,
    ) {
        let width = kernel.lanes;
        assert!(
            (2..=MAX_LANES).contains(&width),
            "lane kernels have 2 to {MAX_LANES} lanes"
        );
        let mut schedule = [<H::Compression as Compression>::Word::default(); 80];
        let mut schedule_for = None;
        loop {
            // Free lanes take a message that a wider kernel left beyond this one's lanes,
            // else the next message.
            for i in 0..width {
                if lanes[i].is_some() {
                    continue;
                }
                if let Some(j) = (width..MAX_LANES).find(|&j| lanes[j].is_some()) {
                    lanes[i] = lanes[j].take();
                    self.move_lane(j, i);
                } else if let Some(job) = self.next_job() {
                    lanes[i] = Some(self.start(i, job));
                }
            }
            let busy = lanes.iter().flatten().count();
            if busy == 0 {
                return;
            }
            if handoff.is_some() && !self.has_waiting() && 2 * busy <= width {
                return;
            }
            let first = lanes[..width]
                .iter()
                .flatten()
                .next()
                .copied()
                .expect("a busy lane");
            // All busy lanes at the same constant tail: one schedule for all.
            if let Some(len) = first.constant_tail
                && lanes[..width]
                    .iter()
                    .flatten()
                    .all(|l| l.in_tail() && l.tail_done == 0 && l.constant_tail == Some(len))
            {
                let rounds = <H::Compression as Compression>::ROUNDS;
                if schedule_for != Some(len) {
                    let i = lanes.iter().position(Option::is_some).expect("busy");
                    <H::Compression as Compression>::schedule(
                        &self.buffers.tails[i][0],
                        &mut schedule[..rounds],
                    );
                    schedule_for = Some(len);
                }
                // SAFETY: the kernel's variant was checked to run on this CPU when it was
                // chosen; the states are `width` contiguous lanes.
                unsafe {
                    (kernel.constant)(
                        &mut self.buffers.states[..width],
                        &schedule[..rounds],
                        &mut self.workspace,
                    )
                };
                for i in 0..width {
                    if let Some(lane) = lanes[i].take() {
                        self.finish(i, &lane);
                    }
                }
                continue;
            }
            let n = lanes[..width]
                .iter()
                .flatten()
                .map(Lane::segment_len)
                .min()
                .expect("a busy lane");
            let LaneBuffers { states, tails } = &mut self.buffers;
            let first_index = lanes.iter().position(Option::is_some).expect("busy");
            let filler = segment(&first, &tails[first_index], n);
            let mut inputs: [&[Block<H>]; MAX_LANES] = [filler; MAX_LANES];
            for i in 0..width {
                if let Some(lane) = &lanes[i] {
                    inputs[i] = segment(lane, &tails[i], n);
                }
            }
            // SAFETY: as above; `width` lanes of `n` blocks each.
            unsafe {
                (kernel.compress)(&mut states[..width], &inputs[..width], &mut self.workspace)
            };
            for i in 0..width {
                let Some(lane) = &mut lanes[i] else { continue };
                if lane.in_tail() {
                    lane.tail_done += n;
                    if lane.tail_done == lane.tail_len {
                        let done = lanes[i].take().expect("busy");
                        self.finish(i, &done);
                    }
                } else {
                    lane.data = &lane.data[n..];
                }
            }
        }
    }
}

/// The next `n` blocks of `lane`'s current segment (`tail` is the lane's tail buffer).
fn segment<'a, B: BlockBytes>(lane: &Lane<'a, B>, tail: &'a [B; 2], n: usize) -> &'a [B] {
    if lane.in_tail() {
        &tail[lane.tail_done..lane.tail_done + n]
    } else {
        &lane.data[..n]
    }
}
