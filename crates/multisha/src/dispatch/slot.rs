//! The per-algorithm slot: probe once, then one relaxed load and one indirect call.
//!
//! Each algorithm has a [`Slot`]: an `AtomicPtr` that starts out pointing at a probe function
//! with the kernel's own signature (the memchr pattern), and the selection (variant and
//! reason) packed into an `AtomicU32`. The first call probes the CPU, reads the environment
//! override, stores the chosen kernel and forwards to it; every later call loads the pointer
//! and calls through it, with no feature branches. The selection is the source of truth and
//! the pointer its cache; every writer (probe, `force`) updates the pair under the slot's
//! lock, so `active` never names one variant while another runs once the writers are done.
//! The slot also holds the caches the layers above it fill once per process (the lane
//! kernels' list, the batch costs, the plan memo, the PBKDF2 chains' choice), each typed by
//! the layer below that defines it, so the slot never reaches up for them, and most of them
//! in a [`Published`] cell (here: the slot is its only user, and a batch's route reads the
//! slot and its cells in one file).

use super::ladder::{Ladder, LadderRef};
use crate::registry::select::{choose_for, fastest_many};
use crate::registry::{Algorithm, Interface, Reason, Selection, Variant, cpu_features, cpu_mask};
use core::cell::UnsafeCell;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU8, AtomicU32, AtomicUsize, Ordering};
use digest::array::{Array, ArraySize};
use digest::block_buffer::BlockSizes;
use multisha_contract::{Compression, Cost, Kernel, KernelFn, OneBlockFn, SingleKernel, State};
use multisha_plan::{Costs, PlanMemo};

/// The slot's key: a compression function the registry carries, with its run-time handle,
/// its slot and its block size as `digest` spells it. Implemented by the registry
/// (`algorithms.rs`) only, with [`Registered`](crate::hash_function::Registered), which adds
/// the hash function it is measured with.
///
/// `pub` but unnameable outside the crate (this module is private): the hashers' block size
/// comes from it, so it appears in their public trait impls.
#[allow(unreachable_pub)]
pub trait Keyed: Compression {
    /// The block size (`U64`, `U128`), whose array type is the descriptor's block.
    type BlockSize: ArraySize<ArrayType<u8> = Self::Block> + BlockSizes;
    /// The run-time handle.
    const ALGORITHM: Algorithm;
    /// The dispatcher state.
    #[doc(hidden)]
    fn slot() -> &'static Slot<Self>;
    /// `digest`'s blocks as the descriptor's, without copying.
    fn core_blocks(blocks: &[Array<u8, Self::BlockSize>]) -> &[Self::Block];
}

/// The choice of one interface: the selection and, for a refused override, why.
struct Point {
    /// 0 = not probed yet, else `VALID | reason << 8 | variant index`.
    selection: AtomicU32,
    /// Why the environment override was refused, for [`Reason::EnvRejected`].
    #[cfg(feature = "std")]
    env_rejected: std::sync::OnceLock<crate::registry::Error>,
}

impl Point {
    const fn new() -> Self {
        Self {
            selection: AtomicU32::new(0),
            #[cfg(feature = "std")]
            env_rejected: std::sync::OnceLock::new(),
        }
    }
}

/// The dispatcher state of algorithm `A`.
///
/// `pub` but unnameable outside the crate: the sealed `Keyed` trait names it.
#[allow(unreachable_pub)]
pub struct Slot<A: Compression> {
    /// The single-message kernel calls go through: the probe until the first call.
    kernel: AtomicPtr<()>,
    /// The installed kernel's entry for one-block messages (a `OneBlockFn<A>`), null when it
    /// has none: stored with `kernel`, before the selection.
    one_block: AtomicPtr<()>,
    /// The single-message interface's choice (the source of truth `kernel` caches).
    single: Point,
    /// The many-message interface's choice.
    many: Point,
    /// Held by every writer of a choice (and of the kernel that caches it).
    lock: AtomicBool,
    /// The lane kernels the CPU runs, typed, found at the first batch call ([`ladder()`]).
    ladder: Published<Ladder<A>>,
    /// The batch planner's costs once measured (or, with measuring off, estimated), with
    /// whether they were measured ([`costs`]).
    costs: Published<(Costs, bool)>,
    /// Each kernel's cost from the quieter of two measurements, the second made once the batch
    /// work has doubled ([`costs_again`]): these plan every batch once published (with
    /// measuring off, the estimates again).
    again: Published<(Costs, bool)>,
    /// The declared estimates, which plan every batch until the costs are measured
    /// ([`estimates`]).
    estimates: Published<Costs>,
    /// Nanoseconds of batch work planned on the estimates so far, as predicted one by one
    /// ([`batch_work`]): measuring waits until it makes the measurement cheap beside it.
    work: AtomicUsize,
    /// Blocks of batch work planned on the first measurement so far ([`blocks_since_measured`]):
    /// the second measurement waits for as much work again.
    blocks_since: AtomicUsize,
    /// When the first measurement was made, in milliseconds of the calibration's clock, stored
    /// before its costs are published ([`first_measured_at`]).
    #[cfg(feature = "std")]
    first_at: AtomicUsize,
    /// The installed single-message kernel's declared cost, stored with it
    /// ([`single_declared_cost`]).
    estimate: CostCell,
    /// The plans of recent equal-length batches made with `costs` or the estimates
    /// ([`plan_memo`]).
    plans: PlanMemo,
    /// The plans of recent equal-length batches made with `again` ([`plan_memo`]).
    plans_again: PlanMemo,
    /// Which runs PBKDF2's chains ([`pbkdf2_chain_entry`](crate::kdf::chains::pbkdf2_chain_entry)): 0 one after the other, `k + 1` lane
    /// kernel `k`.
    chains: Published<u8>,
    algorithm: PhantomData<fn() -> A>,
}

/// A single-message kernel's declared cost, the parts a batch one by one uses (`setup`,
/// `call`, `step`, `message`) as `f32` bits. Written under the slot's lock; a reader racing a
/// new choice may see parts of both, which only weighs a batch towards measuring.
struct CostCell([AtomicU32; 4]);

impl CostCell {
    const fn new() -> Self {
        Self([const { AtomicU32::new(0) }; 4])
    }

    fn set(&self, cost: Cost) {
        for (part, value) in self
            .0
            .iter()
            .zip([cost.setup, cost.call, cost.step, cost.message])
        {
            part.store(value.to_bits(), Ordering::Relaxed);
        }
    }

    #[inline]
    fn get(&self) -> Cost {
        let part = |i: usize| f32::from_bits(self.0[i].load(Ordering::Relaxed));
        Cost::new(part(0), part(1), part(2)).per_message(part(3))
    }
}

const VALID: u32 = 1 << 31;

/// Reason codes of a packed selection (bits 8..16): [`pinned_many`] reads `ENV` and `FORCED`
/// directly.
const PRIORITY: u32 = 1;
const ENV: u32 = 2;
const FORCED: u32 = 3;
const ENV_REJECTED: u32 = 4;
const PLANNED: u32 = 5;

/// The variant index of a planned many-message selection whose variant is worked out when
/// asked ([`Slot::unpack`]): the batch functions only need to know that nothing is pinned,
/// and a process's first batch should not read the whole registry for that.
const NOT_WORKED_OUT: u32 = 0xff;

impl<A: Compression> core::fmt::Debug for Slot<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Slot({})", A::ID)
    }
}

impl<A: Keyed> Slot<A> {
    /// A slot whose first call probes.
    pub(crate) const fn new() -> Self {
        Self {
            kernel: AtomicPtr::new(probe::<A> as KernelFn<A> as *mut ()),
            one_block: AtomicPtr::new(core::ptr::null_mut()),
            single: Point::new(),
            many: Point::new(),
            lock: AtomicBool::new(false),
            ladder: Published::new(),
            costs: Published::new(),
            again: Published::new(),
            estimates: Published::new(),
            work: AtomicUsize::new(0),
            blocks_since: AtomicUsize::new(0),
            #[cfg(feature = "std")]
            first_at: AtomicUsize::new(0),
            estimate: CostCell::new(),
            plans: PlanMemo::new(),
            plans_again: PlanMemo::new(),
            chains: Published::new(),
            algorithm: PhantomData,
        }
    }

    fn point(&self, interface: Interface) -> &Point {
        match interface {
            Interface::Single => &self.single,
            Interface::Many => &self.many,
        }
    }

    /// The lock, unless another thread holds it past [`LOCK_TRIES`] waits.
    fn try_lock(&self) -> Option<Guard<'_>> {
        let mut tries = 0;
        while self
            .lock
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            if tries == LOCK_TRIES {
                return None;
            }
            back_off(&mut tries);
        }
        Some(Guard(&self.lock))
    }

    /// Installs `variant` (already checked to run on this CPU) for its interface, for the
    /// whole process: `force`'s write.
    pub(crate) fn install(&self, variant: &'static Variant, reason: Reason) {
        let _guard = self.lock();
        self.store(variant, reason);
    }

    fn lock(&self) -> Guard<'_> {
        let mut tries = 0;
        while self
            .lock
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            back_off(&mut tries);
        }
        Guard(&self.lock)
    }

    /// Stores the choice of `variant`'s interface (under the lock): the kernel first, then the
    /// selection, so that a reader who sees a selection (Acquire) finds its kernel installed.
    fn store(&self, variant: &'static Variant, reason: Reason) {
        if variant.interface() == Interface::Single {
            self.estimate.set(variant.estimated_cost());
            let kernel = kernel_of::<A>(variant);
            let one_block = kernel
                .one_block
                .map_or(core::ptr::null_mut(), |f| f as *mut ());
            // A reader may pair the old kernel with the new entry (or the reverse) while a
            // choice is forced: both run on this CPU and compute the same function.
            self.one_block.store(one_block, Ordering::Release);
            self.kernel
                .store(kernel.compress as *mut (), Ordering::Release);
        }
        #[cfg(test)]
        tests::between_stores();
        let point = self.point(variant.interface());
        point
            .selection
            .store(pack(variant, reason), Ordering::Release);
    }

    fn unpack(&self, point: &Point, packed: u32) -> Selection {
        let variant = match packed & 0xff {
            NOT_WORKED_OUT => fastest_many(A::ALGORITHM, cpu_features()),
            index => &A::ALGORITHM.variants()[index as usize],
        };
        let reason = match (packed >> 8) & 0xff {
            ENV => Reason::Env,
            PLANNED => Reason::Planned,
            FORCED => Reason::Forced,
            #[cfg(feature = "std")]
            ENV_REJECTED => point
                .env_rejected
                .get()
                .map_or(Reason::Priority, |e| Reason::EnvRejected(*e)),
            _ => Reason::Priority,
        };
        #[cfg(not(feature = "std"))]
        let _ = point;
        Selection {
            variant,
            reason,
            cpu_mask: cpu_mask(),
        }
    }

    /// The selection of `interface`, probing the CPU and the override once if there is none.
    pub(crate) fn selection(&self, interface: Interface) -> Selection {
        let point = self.point(interface);
        let packed = point.selection.load(Ordering::Acquire);
        if packed != 0 {
            return self.unpack(point, packed);
        }
        self.resolve(interface)
    }

    /// Probes the CPU and the overrides once and installs the choices, both interfaces' at
    /// once (the environment is read at the first call of either, so that a process's first
    /// batch, after a first hash, reads none: each read takes 0.1-0.2 us); returns
    /// `interface`'s. A thread that finds another choosing waits for it only briefly
    /// ([`LOCK_TRIES`]): one preempted while it holds the lock would hold this one up for a
    /// time slice, so this one then makes the same choice for itself (from the same CPU and
    /// environment) and leaves installing it to the holder.
    #[cold]
    #[inline(never)]
    fn resolve(&self, interface: Interface) -> Selection {
        let Some(_guard) = self.try_lock() else {
            let (variant, reason) = self.choose(interface);
            return Selection {
                variant: variant.unwrap_or_else(|| fastest_many(A::ALGORITHM, cpu_features())),
                reason,
                cpu_mask: cpu_mask(),
            };
        };
        for each in [Interface::Single, Interface::Many] {
            let point = self.point(each);
            // Chosen already (by a racing probe or by `force`): the pair is consistent.
            if point.selection.load(Ordering::Acquire) != 0 {
                continue;
            }
            match self.choose(each) {
                (Some(variant), reason) => {
                    #[cfg(feature = "std")]
                    if let Reason::EnvRejected(error) = reason {
                        let _ = point.env_rejected.set(error);
                    }
                    self.store(variant, reason);
                }
                (None, _) => point
                    .selection
                    .store(VALID | PLANNED << 8 | NOT_WORKED_OUT, Ordering::Release),
            }
        }
        let point = self.point(interface);
        self.unpack(point, point.selection.load(Ordering::Acquire))
    }

    /// The choice for `interface` from the CPU and its override in the environment, and why;
    /// no variant for a many-message choice that nothing pins (the planner chooses per batch;
    /// which variant it runs long batches on is worked out when asked, [`NOT_WORKED_OUT`]).
    fn choose(&self, interface: Interface) -> (Option<&'static Variant>, Reason) {
        #[cfg(feature = "std")]
        let requested = crate::registry::env::variant_override(A::ALGORITHM.env_var_for(interface));
        #[cfg(feature = "std")]
        let requested = requested.as_deref();
        #[cfg(not(feature = "std"))]
        let requested = None;
        if interface == Interface::Many && requested.is_none() {
            return (None, Reason::Planned);
        }
        let selection = choose_for(A::ALGORITHM, interface, cpu_features(), requested);
        let reason = match selection.reason {
            Reason::Requested => Reason::Env,
            Reason::RequestRejected(error) => Reason::EnvRejected(error),
            other => other,
        };
        (Some(selection.variant), reason)
    }

    /// The single-message kernel, resolving the choice first if the probe is still installed.
    fn resolve_kernel(&self) -> KernelFn<A> {
        kernel_of::<A>(self.selection(Interface::Single).variant).compress
    }
}

/// How many times a first call waits ([`back_off`]: 64 spins, then yields) for another
/// thread's choice before it chooses for itself: choosing takes a few microseconds, unless
/// the chooser was preempted.
const LOCK_TRIES: u32 = 128;

/// One wait for a writer that holds the slot's lock or a claim for a while (microseconds: a
/// probe, a registry read): spins at first, then yields the core, so that a holder preempted
/// on the same core runs again rather than waiting out the spinners' time slices.
fn back_off(tries: &mut u32) {
    *tries += 1;
    #[cfg(feature = "std")]
    if *tries > 64 {
        std::thread::yield_now();
        return;
    }
    core::hint::spin_loop();
}

/// Releases the slot's lock when dropped.
struct Guard<'a>(&'a AtomicBool);

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// The kernel entries of a single-message variant of `A`.
fn kernel_of<A: Keyed>(variant: &'static Variant) -> SingleKernel<A> {
    let declaration = variant
        .declaration::<A>()
        .expect("a variant of this algorithm's registry");
    match declaration.kernel {
        Kernel::Single(kernel) => kernel,
        Kernel::Lanes(_) | Kernel::Serial => {
            unreachable!("the single-message choice is a single-message variant")
        }
    }
}

/// The kernel the slot starts with: resolves the choice, then forwards to it.
///
/// # Safety
/// Same contract as every kernel of `A`; it only forwards to a kernel the CPU supports.
unsafe fn probe<A: Keyed>(
    state: &mut State<A>,
    blocks: &[A::Block],
    w: &mut <A as Compression>::Workspace,
) {
    let kernel = A::slot().resolve_kernel();
    // SAFETY: the choice is only ever a variant whose required features the CPU has.
    unsafe { kernel(state, blocks, w) }
}

fn pack(variant: &Variant, reason: Reason) -> u32 {
    let code = match reason {
        Reason::Priority | Reason::Requested | Reason::RequestRejected(_) => PRIORITY,
        Reason::Env => ENV,
        Reason::Forced => FORCED,
        Reason::EnvRejected(_) => ENV_REJECTED,
        Reason::Planned => PLANNED,
    };
    VALID | code << 8 | variant.algorithm().index_of(variant) as u32
}

/// The slot's kernel as it is, one relaxed load: the probe until the first call through it
/// has installed the choice. The one-shot functions call through it directly.
#[inline(always)]
pub(crate) fn installed<A: Keyed>() -> KernelFn<A> {
    let ptr = A::slot().kernel.load(Ordering::Relaxed);
    // SAFETY: the slot only ever holds `KernelFn<A>` pointers (the probe or a kernel of a
    // variant of `A`), stored as `*mut ()`.
    unsafe { core::mem::transmute::<*mut (), KernelFn<A>>(ptr) }
}

/// The installed kernel's entry for one-block messages, if it has one (and none before the
/// first call has installed a kernel): one relaxed load.
#[inline(always)]
pub(crate) fn installed_one_block<A: Keyed>() -> Option<OneBlockFn<A>> {
    let ptr = A::slot().one_block.load(Ordering::Relaxed);
    // SAFETY: the slot only ever holds null or a `OneBlockFn<A>` pointer (the entry of a
    // variant of `A` the CPU runs), stored as `*mut ()`.
    (!ptr.is_null()).then(|| unsafe { core::mem::transmute::<*mut (), OneBlockFn<A>>(ptr) })
}

/// Installs `alternative` as the entry for one-block messages where the slot holds `default`
/// (the shape installed with the single-message variant): the calibration's choice of the two
/// shapes it timed. A choice forced meanwhile, which installed another entry, is left alone.
#[cfg(feature = "std")]
pub(crate) fn install_one_block_alternative<A: Keyed>(
    default: OneBlockFn<A>,
    alternative: OneBlockFn<A>,
) {
    let _ = A::slot().one_block.compare_exchange(
        default as *mut (),
        alternative as *mut (),
        Ordering::AcqRel,
        Ordering::Relaxed,
    );
}

/// The chosen kernel of `A`, never the probe (the first call resolves the choice): what the
/// hashers and the batch functions' one-message paths call, two atomic loads per call.
///
/// "Nothing chosen yet" is asked of the selection, not recognised by the probe's address:
/// `probe` is generic, so an optimised crate that inlines this gets its own copy of it, at
/// another address than the one the slot starts with (issue 21).
#[inline(always)]
pub(crate) fn current<A: Keyed>() -> KernelFn<A> {
    let slot = A::slot();
    if slot.single.selection.load(Ordering::Acquire) == 0 {
        return slot.resolve_kernel();
    }
    // The kernel was stored before the selection (`Slot::store`), so it is not the probe.
    installed::<A>()
}

/// The entries of the single-message variant of `A` in use (probing first if nothing is
/// installed yet): what PBKDF2 runs, its loop and its compression from one variant.
pub(crate) fn single_entries<A: Keyed>() -> SingleKernel<A> {
    kernel_of::<A>(single_variant::<A>())
}

/// The single-message variant of `A` in use (probing first if nothing is installed yet).
pub(crate) fn single_variant<A: Keyed>() -> &'static Variant {
    A::slot().selection(Interface::Single).variant
}

/// The lane kernels of `A` the CPU runs, found once per process and kept in the slot.
#[inline]
pub(crate) fn ladder<A: Keyed>() -> LadderRef<A> {
    match A::slot().ladder.get_ref() {
        Some(ladder) => LadderRef::Kept(ladder),
        None => first_ladder::<A>(),
    }
}

/// `f` of the lane kernels of `A` the CPU runs ([`ladder`]), by reference: the `LadderRef`
/// stays where it is made (moved, it is a copy of the whole ladder).
#[inline(always)]
pub(crate) fn with_ladder<A: Keyed, R>(f: impl FnOnce(&Ladder<A>) -> R) -> R {
    f(&ladder::<A>())
}

/// [`ladder`] at the first batch call: the registry read once and kept. A thread that finds
/// another keeping it reads the registry for itself rather than wait (the other may have
/// been preempted).
#[cold]
#[inline(never)]
fn first_ladder<A: Keyed>() -> LadderRef<A> {
    keep(&A::slot().ladder, A::ALGORITHM)
}

/// The lane kernels of `algorithm` (whose compression function is `A`) the CPU runs, kept in
/// `cell` unless another thread is keeping them (then read for this call alone).
pub(crate) fn keep<A: Compression>(
    cell: &'static Published<Ladder<A>>,
    algorithm: Algorithm,
) -> LadderRef<A> {
    let ladder = Ladder::of(algorithm, cpu_features());
    match cell.claim() {
        Some(claim) => {
            claim.publish(ladder);
            cell.get_ref()
                .map_or(LadderRef::Own(ladder), LadderRef::Kept)
        }
        None => LadderRef::Own(ladder),
    }
}

/// The batch planner's costs of `A` as declared: the lane kernels' estimates and the
/// single-message variant's in use.
pub(crate) fn estimated_costs<A: Keyed>() -> Costs {
    ladder::<A>().estimated(single_variant::<A>().estimated_cost())
}

/// The declared cost of `A`'s installed single-message kernel (zero before one is installed),
/// read without the registry: a process's first batches weigh their work with it
/// ([`calibrate::estimates_for`](crate::batch::calibrate::estimates_for)), and reading it through the
/// selection and the variant's declaration touched three more code pages, which in a fresh
/// process each cost up to microseconds the first time (the first `sha256_many` of 5 short
/// messages: median 1.3-3.3 us against 0.7-1.1 us, AMD Zen 4 VM).
#[inline]
pub(crate) fn single_declared_cost<A: Keyed>() -> Cost {
    A::slot().estimate.get()
}

/// Where the batch planner's costs of `A` are published once measured (the first
/// measurement; with measuring off, the estimates).
pub(crate) fn costs<A: Keyed>() -> &'static Published<(Costs, bool)> {
    &A::slot().costs
}

/// Where each kernel's cost from the quieter of `A`'s two measurements is published, once the
/// second is made (with measuring off, the estimates).
pub(crate) fn costs_again<A: Keyed>() -> &'static Published<(Costs, bool)> {
    &A::slot().again
}

/// The costs that plan `A`'s batches now, with whether they were measured: those of two
/// measurements ([`costs_again`]), else the first (or, with measuring off, the estimates);
/// `None` before.
#[inline(always)]
pub(crate) fn published_costs<A: Keyed>() -> Option<&'static (Costs, bool)> {
    let slot = A::slot();
    match slot.again.get_ref() {
        Some(again) => Some(again),
        None => slot.costs.get_ref(),
    }
}

/// Where the declared estimates of `A`'s batch costs are kept once worked out.
pub(crate) fn estimates<A: Keyed>() -> &'static Published<Costs> {
    &A::slot().estimates
}

/// The predicted nanoseconds of batch work `A` has planned on the estimates so far.
pub(crate) fn batch_work<A: Keyed>() -> &'static AtomicUsize {
    &A::slot().work
}

/// The blocks of batch work `A` has planned on its first measurement so far.
pub(crate) fn blocks_since_measured<A: Keyed>() -> &'static AtomicUsize {
    &A::slot().blocks_since
}

/// When `A`'s first measurement was made, in milliseconds of the calibration's clock (stored
/// before its costs are published).
#[cfg(feature = "std")]
pub(crate) fn first_measured_at<A: Keyed>() -> &'static AtomicUsize {
    &A::slot().first_at
}

/// The plans of `A`'s recent equal-length batches made with `costs` (a plan made with the
/// first measurement is not reused once the second's costs plan).
#[inline]
pub(crate) fn plan_memo<A: Keyed>(costs: &Costs) -> &'static PlanMemo {
    let slot = A::slot();
    match slot.again.get_ref() {
        Some((again, _)) if core::ptr::eq(again, costs) => &slot.plans_again,
        _ => &slot.plans,
    }
}

/// Where the choice of what runs `A`'s PBKDF2 chains is published once made
/// ([`kdf::chains`](crate::kdf::chains)): 0 one after the other, `k + 1` lane kernel `k`.
pub(crate) fn chains<A: Keyed>() -> &'static Published<u8> {
    &A::slot().chains
}

/// The single-message choice of `A`, probing first if nothing is chosen yet.
pub(crate) fn single_choice<A: Keyed>() -> Selection {
    A::slot().selection(Interface::Single)
}

/// The many-message variant named for `A` (by `force` or the environment), if one was: what
/// the batch functions ask on every call, one atomic load once the choice is made.
#[inline]
pub(crate) fn pinned_many<A: Keyed>() -> Option<&'static Variant> {
    let slot = A::slot();
    let packed = slot.many.selection.load(Ordering::Acquire);
    if packed == 0 {
        let selection = slot.resolve(Interface::Many);
        return matches!(selection.reason, Reason::Env | Reason::Forced)
            .then_some(selection.variant);
    }
    matches!((packed >> 8) & 0xff, FORCED | ENV)
        .then(|| &A::ALGORITHM.variants()[(packed & 0xff) as usize])
}

// A value published once and then read without waiting: the slot's caches.

/// A value published once and then copied out. Readers never wait: until it is published
/// (while the one thread that claimed it computes it, perhaps for a while) they get `None`,
/// and never a half-written value.
pub(crate) struct Published<T> {
    state: AtomicU8,
    value: UnsafeCell<MaybeUninit<T>>,
}

// SAFETY: the value is written once, by the one thread holding the claim, before the Release
// store that makes `get` read it; after that it is only read (copied).
unsafe impl<T: Copy + Send + Sync> Sync for Published<T> {}

/// The right to publish a [`Published`] value: one caller ever gets it.
pub(crate) struct Claim<'a, T>(&'a Published<T>);

impl<T: Copy> Published<T> {
    const EMPTY: u8 = 0;
    const CLAIMED: u8 = 1;
    const READY: u8 = 2;

    pub(crate) const fn new() -> Self {
        Self {
            state: AtomicU8::new(Self::EMPTY),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    /// The value, once published.
    #[inline]
    pub(crate) fn get_ref(&self) -> Option<&T> {
        if self.state.load(Ordering::Acquire) == Self::READY {
            // SAFETY: READY is stored (Release) only after the value was written, and the value
            // is never written again.
            Some(unsafe { (*self.value.get()).assume_init_ref() })
        } else {
            None
        }
    }

    /// The right to publish, for the first caller only.
    pub(crate) fn claim(&self) -> Option<Claim<'_, T>> {
        self.state
            .compare_exchange(
                Self::EMPTY,
                Self::CLAIMED,
                Ordering::Acquire,
                Ordering::Relaxed,
            )
            .is_ok()
            .then_some(Claim(self))
    }
}

impl<T: Copy> Claim<'_, T> {
    /// Publishes `value` for every later `get`.
    pub(crate) fn publish(self, value: T) {
        // SAFETY: only the one claim writes, and no reader reads before READY.
        unsafe { (*self.0.value.get()).write(value) };
        self.0.state.store(Published::<T>::READY, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::time::Duration;

    std::thread_local! {
        /// How long this thread pauses between storing the selection and the kernel.
        static PAUSE: Cell<Duration> = const { Cell::new(Duration::ZERO) };
    }

    /// Widens the window between the two stores of a writer, for the race test.
    pub(super) fn between_stores() {
        let pause = PAUSE.with(Cell::get);
        if !pause.is_zero() {
            std::thread::sleep(pause);
        }
    }

    /// Two `force` calls at once: the first pauses between its two stores while the second
    /// runs whole. Without a lock over the pair, the second's selection and the first's kernel
    /// would remain; with it, the second waits and both of its stores land last. `force`
    /// changes the whole process, and the other tests of this binary (run once per variant
    /// forced through the environment) must keep testing the variant CI forced: the race runs
    /// in a child process of its own.
    #[test]
    fn concurrent_forces_leave_the_selection_and_the_kernel_consistent() {
        let name = "concurrent_forces_leave_the_selection_and_the_kernel_consistent";
        if !crate::tests::in_child(module_path!(), name) {
            return;
        }
        let algorithm = Algorithm::Sha256;
        let names: std::vec::Vec<&str> = algorithm
            .variants()
            .iter()
            .filter(|v| v.is_available() && v.interface() == Interface::Single)
            .map(|v| v.name())
            .collect();
        let (slow, fast) = (names[names.len() - 1], names[names.len() - 2]);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                PAUSE.with(|p| p.set(Duration::from_millis(200)));
                crate::engine::force(algorithm, slow).expect("available");
            });
            std::thread::sleep(Duration::from_millis(50));
            crate::engine::force(algorithm, fast).expect("available");
        });
        let named = crate::engine::active(algorithm).variant;
        let running = installed::<multisha_contract::Sha256Compression>() as usize;
        assert_eq!(
            named.kernel_address(),
            running,
            "active() names {named}, the slot runs another kernel"
        );
        assert_eq!(named.name(), fast, "the later force wins");
    }

    /// A first call that finds another thread holding the slot's lock (one preempted while
    /// choosing, here one that never lets go) does not wait for it: it makes the same choice
    /// for itself, installs nothing, and the holder's turn still comes. The batch functions'
    /// first step ([`pinned_many`]'s question) and the list of lane kernels do the same.
    #[test]
    fn a_first_call_does_not_wait_for_a_holder_that_does_not_finish() {
        type A = multisha_contract::Sha256Compression;
        let slot: Slot<A> = Slot::new();
        slot.lock.store(true, Ordering::Release);
        let single = slot.selection(Interface::Single);
        assert_eq!(
            single.variant.name(),
            crate::engine::active(Algorithm::Sha256).variant.name()
        );
        let many = slot.selection(Interface::Many);
        assert_eq!(
            many.reason,
            crate::engine::active_many(Algorithm::Sha256).reason
        );
        assert_eq!(
            slot.single.selection.load(Ordering::Acquire),
            0,
            "installed nothing"
        );
        assert_eq!(
            slot.many.selection.load(Ordering::Acquire),
            0,
            "installed nothing"
        );
        slot.lock.store(false, Ordering::Release);
        assert_eq!(
            slot.selection(Interface::Single).variant.name(),
            single.variant.name()
        );
        assert_ne!(
            slot.single.selection.load(Ordering::Acquire),
            0,
            "installed"
        );
        assert_ne!(
            slot.many.selection.load(Ordering::Acquire),
            0,
            "both at once"
        );

        // The list of lane kernels, claimed by a holder that does not publish it.
        static HELD: Published<Ladder<A>> = Published::new();
        static FREE: Published<Ladder<A>> = Published::new();
        let lanes = Ladder::<A>::of(Algorithm::Sha256, cpu_features()).len();
        let _claim = HELD.claim().expect("a fresh cell");
        assert!(matches!(keep(&HELD, Algorithm::Sha256), LadderRef::Own(l) if l.len() == lanes));
        assert!(matches!(keep(&FREE, Algorithm::Sha256), LadderRef::Kept(l) if l.len() == lanes));
        assert!(FREE.get_ref().is_some(), "kept");
    }

    /// The cost a process's first batches weigh their work with is the declared cost of the
    /// single-message kernel installed, whichever is installed, and nothing before one is.
    #[test]
    fn the_slot_keeps_the_installed_kernels_declared_cost() {
        type A = multisha_contract::Sha256Compression;
        let slot: Slot<A> = Slot::new();
        assert_eq!(slot.estimate.get().time(1, 1, 1, 0), 0.0);
        let singles = Algorithm::Sha256
            .variants()
            .iter()
            .filter(|v| v.is_available() && v.interface() == Interface::Single);
        for variant in singles {
            slot.store(variant, Reason::Forced);
            let (kept, declared) = (slot.estimate.get(), variant.estimated_cost());
            let parts = |c: Cost| [c.setup, c.call, c.step, c.message];
            assert_eq!(parts(kept), parts(declared), "{variant}");
            assert!(declared.step > 0.0, "{variant} declares a cost per block");
        }
    }

    /// Sixteen threads racing for one `Published` value: exactly one claims it; readers see
    /// nothing until it is published, then the whole value.
    #[test]
    fn a_published_value_is_claimed_once_and_read_whole() {
        let cell: Published<[u64; 8]> = Published::new();
        let barrier = std::sync::Barrier::new(16);
        let claims = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for t in 0..16u64 {
                let (cell, barrier, claims) = (&cell, &barrier, &claims);
                scope.spawn(move || {
                    barrier.wait();
                    if let Some(claim) = cell.claim() {
                        claims.fetch_add(1, Ordering::Relaxed);
                        std::thread::sleep(Duration::from_millis(20));
                        claim.publish([t; 8]);
                    }
                    for _ in 0..1000 {
                        if let Some(value) = cell.get_ref() {
                            assert!(value.iter().all(|&v| v == value[0]), "{value:?}");
                        }
                    }
                });
            }
        });
        assert_eq!(claims.load(Ordering::Relaxed), 1);
        assert!(cell.get_ref().is_some());
        assert!(cell.claim().is_none(), "claimed once, ever");
    }
}
