//! Probe once, then one relaxed load and one indirect call.
//!
//! Each algorithm has a [`Slot`]: an `AtomicPtr` that starts out pointing at a probe function
//! with the kernel's own signature (the memchr pattern), and the selection (variant and
//! reason) packed into an `AtomicU32`. The first call probes the CPU, reads the environment
//! override, stores the chosen kernel and forwards to it; every later call loads the pointer
//! and calls through it, with no feature branches. The selection is the source of truth and
//! the pointer its cache; every writer (probe, [`force`]) updates the pair under the slot's
//! lock, so [`active`] never names one variant while another runs once the writers are done.

use super::select::{Reason, Selection, choose_for, fastest_many, lookup};
use super::{Algorithm, BatchCosts, BatchPlan, Error, Interface, Variant, cpu_features, cpu_mask};
use crate::batch::{Costs, Ladder, PlanMemo};
use crate::hash_function::Registered;
use core::cell::UnsafeCell;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU8, AtomicU32, AtomicUsize, Ordering};
use multisha_contract::{
    Compression, Cost, CpuFeatures, Kernel, KernelFn, LanesIterateFn, SingleKernel, State,
};

/// What the run-time API needs of an algorithm's dispatcher, without its type.
pub(crate) trait Dispatch: Sync {
    /// The selection of `interface`, probing first if nothing is installed yet.
    fn active(&self, interface: Interface) -> Selection;
    /// Installs `variant` (already checked to run on this CPU) for its interface, for the
    /// whole process.
    fn install(&self, variant: &'static Variant, reason: Reason);
    /// The batch planner's costs now.
    fn batch_costs(&self) -> BatchCosts;
    /// The batch planner's costs, measured now if they are not yet (and measuring is on).
    fn calibrate(&self) -> BatchCosts;
    /// The batch plan for messages of `lengths` bytes.
    fn batch_plan(&self, lengths: &[usize]) -> BatchPlan;
    /// The lane variant that runs a multi-block PBKDF2 derivation's chains side by side.
    fn pbkdf2_chains(&self) -> Option<&'static Variant>;
}

/// The choice of one interface: the selection and, for a refused override, why.
struct Point {
    /// 0 = not probed yet, else `VALID | reason << 8 | variant index`.
    selection: AtomicU32,
    /// Why the environment override was refused, for [`Reason::EnvRejected`].
    #[cfg(feature = "std")]
    env_rejected: std::sync::OnceLock<Error>,
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
/// `pub` but unnameable outside the crate: the sealed `Registered` trait names it.
#[allow(unreachable_pub)]
pub struct Slot<A: Compression> {
    /// The single-message kernel calls go through: the probe until the first call.
    kernel: AtomicPtr<()>,
    /// The single-message interface's choice (the source of truth `kernel` caches).
    single: Point,
    /// The many-message interface's choice.
    many: Point,
    /// Held by every writer of a choice (and of the kernel that caches it).
    lock: AtomicBool,
    /// The lane kernels the CPU runs, typed, found at the first batch call ([`ladder`]).
    ladder: Published<Ladder<A>>,
    /// The batch planner's costs once measured (or, with measuring off, estimated), with
    /// whether they were measured ([`costs`]).
    costs: Published<(Costs, bool)>,
    /// The declared estimates, which plan every batch until the costs are measured
    /// ([`estimates`]).
    estimates: Published<Costs>,
    /// Nanoseconds of batch work planned on the estimates so far, as predicted one by one
    /// ([`batch_work`]): measuring waits until it makes the measurement cheap beside it.
    work: AtomicUsize,
    /// The installed single-message kernel's declared cost, stored with it
    /// ([`single_estimate`]).
    estimate: CostCell,
    /// The plans of recent equal-length batches ([`plan_memo`]).
    plans: PlanMemo,
    /// Which runs PBKDF2's chains ([`pbkdf2_chain_entry`]): 0 one after the other, `k + 1` lane
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

/// Reason codes of a packed selection (bits 8..16) that [`pinned_many`] reads directly.
const ENV: u32 = 2;
const FORCED: u32 = 3;
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

impl<A: Registered> Slot<A> {
    /// A slot whose first call probes.
    pub(crate) const fn new() -> Self {
        Self {
            kernel: AtomicPtr::new(probe::<A> as KernelFn<A> as *mut ()),
            single: Point::new(),
            many: Point::new(),
            lock: AtomicBool::new(false),
            ladder: Published::new(),
            costs: Published::new(),
            estimates: Published::new(),
            work: AtomicUsize::new(0),
            estimate: CostCell::new(),
            plans: PlanMemo::new(),
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
            self.kernel.store(
                kernel_of::<A>(variant).compress as *mut (),
                Ordering::Release,
            );
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
            4 => point
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
    fn selection(&self, interface: Interface) -> Selection {
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
        let requested = env_override(A::ALGORITHM.env_var_for(interface));
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

impl<A: Registered> Dispatch for Slot<A> {
    fn active(&self, interface: Interface) -> Selection {
        let selection = self.selection(interface);
        if selection.reason == Reason::Planned {
            // What the planner runs long batches on, by the costs it uses now.
            let costs = crate::batch::audit::costs::<A>();
            let bulk = costs
                .kernels()
                .min_by(|a, b| {
                    a.cost
                        .per_block(a.lanes)
                        .total_cmp(&b.cost.per_block(b.lanes))
                })
                .expect("the single-message kernel at least");
            let variant = if bulk.lanes == 1 {
                A::ALGORITHM
                    .variant("serial")
                    .expect("every algorithm has serial")
            } else {
                bulk.variant
            };
            return Selection {
                variant,
                ..selection
            };
        }
        selection
    }

    fn batch_costs(&self) -> BatchCosts {
        crate::batch::audit::costs::<A>()
    }

    fn calibrate(&self) -> BatchCosts {
        crate::batch::calibrate::measure_now::<A>();
        crate::batch::audit::costs::<A>()
    }

    fn batch_plan(&self, lengths: &[usize]) -> BatchPlan {
        crate::batch::audit::plan::<A>(lengths)
    }

    fn pbkdf2_chains(&self) -> Option<&'static Variant> {
        chains_variant::<A>()
    }

    fn install(&self, variant: &'static Variant, reason: Reason) {
        let _guard = self.lock();
        self.store(variant, reason);
    }
}

/// The kernel entries of a single-message variant of `A`.
fn kernel_of<A: Registered>(variant: &'static Variant) -> SingleKernel<A> {
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
unsafe fn probe<A: Registered>(
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
        Reason::Priority | Reason::Requested | Reason::RequestRejected(_) => 1,
        Reason::Env => ENV,
        Reason::Forced => FORCED,
        Reason::EnvRejected(_) => 4,
        Reason::Planned => PLANNED,
    };
    VALID | code << 8 | variant.algorithm().index_of(variant) as u32
}

#[cfg(feature = "std")]
fn env_override(var: &str) -> Option<std::string::String> {
    let value = std::env::var_os(var)?;
    let value = value.to_string_lossy();
    let value = value.trim();
    (!value.is_empty()).then(|| value.into())
}

/// The slot's kernel as it is, one relaxed load: the probe until the first call through it
/// has installed the choice. The one-shot functions call through it directly.
#[inline(always)]
pub(crate) fn installed<A: Registered>() -> KernelFn<A> {
    let ptr = A::slot().kernel.load(Ordering::Relaxed);
    // SAFETY: the slot only ever holds `KernelFn<A>` pointers (the probe or a kernel of a
    // variant of `A`), stored as `*mut ()`.
    unsafe { core::mem::transmute::<*mut (), KernelFn<A>>(ptr) }
}

/// The chosen kernel of `A`, never the probe (the first call resolves the choice): what the
/// hashers and the batch functions' one-message paths call, two atomic loads per call.
///
/// "Nothing chosen yet" is asked of the selection, not recognised by the probe's address:
/// `probe` is generic, so an optimised crate that inlines this gets its own copy of it, at
/// another address than the one the slot starts with (issue 21).
#[inline(always)]
pub(crate) fn current<A: Registered>() -> KernelFn<A> {
    let slot = A::slot();
    if slot.single.selection.load(Ordering::Acquire) == 0 {
        return slot.resolve_kernel();
    }
    // The kernel was stored before the selection (`Slot::store`), so it is not the probe.
    installed::<A>()
}

/// The lane kernels of `A` the CPU runs, found once per process and kept in the slot.
#[inline]
pub(crate) fn ladder<A: Registered>() -> LadderRef<A> {
    match A::slot().ladder.get_ref() {
        Some(ladder) => LadderRef::Kept(ladder),
        None => first_ladder::<A>(),
    }
}

/// [`ladder`] at the first batch call: the registry read once and kept. A thread that finds
/// another keeping it reads the registry for itself rather than wait (the other may have
/// been preempted).
#[cold]
#[inline(never)]
fn first_ladder<A: Registered>() -> LadderRef<A> {
    keep_ladder(&A::slot().ladder)
}

/// [`first_ladder`] with the ladder kept in `cell`.
fn keep_ladder<A: Registered>(cell: &'static Published<Ladder<A>>) -> LadderRef<A> {
    let ladder = Ladder::of(A::ALGORITHM, cpu_features());
    match cell.claim() {
        Some(claim) => {
            claim.publish(ladder);
            cell.get_ref()
                .map_or(LadderRef::Own(ladder), LadderRef::Kept)
        }
        None => LadderRef::Own(ladder),
    }
}

/// A [`Ladder`]: the one kept in the slot, or one read from the registry by a thread that
/// found another keeping it ([`first_ladder`]).
#[expect(
    clippy::large_enum_variant,
    reason = "an owned ladder is on one call's stack, and only while another thread keeps one; \
              the usual case writes a pointer"
)]
pub(crate) enum LadderRef<A: Compression> {
    Kept(&'static Ladder<A>),
    Own(Ladder<A>),
}

impl<A: Compression> core::ops::Deref for LadderRef<A> {
    type Target = Ladder<A>;

    fn deref(&self) -> &Ladder<A> {
        match self {
            LadderRef::Kept(ladder) => ladder,
            LadderRef::Own(ladder) => ladder,
        }
    }
}

/// The entries of the single-message variant of `A` in use (probing first if nothing is
/// installed yet): what PBKDF2 runs, its loop and its compression from one variant.
pub(crate) fn current_single<A: Registered>() -> SingleKernel<A> {
    kernel_of::<A>(single_variant::<A>())
}

/// The lane kernel whose PBKDF2 entry runs the chains of a multi-block derivation side by
/// side, as its lane count and entry: the many-message variant named by `force` or the
/// environment if it has such an entry; else the one measured faster per chain than one
/// chain after the other on the single-message variant, at the first multi-block derivation
/// ([`kdf::chains`](crate::kdf::chains)); `None` for one after the other.
pub(crate) fn pbkdf2_chain_entry<A: Registered>() -> Option<(usize, LanesIterateFn<A>)> {
    chain_entry::<A>(chains_variant::<A>()?)
}

/// The lane count and PBKDF2 entry of `variant`, if it is a lane kernel with one.
pub(crate) fn chain_entry<A: Registered>(
    variant: &'static Variant,
) -> Option<(usize, LanesIterateFn<A>)> {
    match variant.declaration::<A>()?.kernel {
        Kernel::Lanes(kernel) => kernel.iterate.map(|iterate| (kernel.lanes, iterate)),
        Kernel::Single(_) | Kernel::Serial => None,
    }
}

/// The variant of [`pbkdf2_chain_entry`]: a pinned many-message variant if it has a PBKDF2
/// entry (none if it has not), else the measured or estimated choice.
fn chains_variant<A: Registered>() -> Option<&'static Variant> {
    if let Some(variant) = pinned_many::<A>() {
        return chain_entry::<A>(variant).map(|_| variant);
    }
    let ladder = ladder::<A>();
    let choice = match A::slot().chains.get_ref() {
        Some(&choice) => choice,
        None => first_chains::<A>(&ladder),
    };
    let k = usize::from(choice.checked_sub(1)?);
    Some(ladder.variant(k))
}

/// [`pbkdf2_chain_entry`]'s choice at the first multi-block derivation: this thread measures it,
/// or (measuring is off, or another thread is measuring) the estimate serves.
#[cold]
#[inline(never)]
fn first_chains<A: Registered>(ladder: &Ladder<A>) -> u8 {
    let estimated = match costs::<A>().get_ref() {
        Some((costs, _)) => crate::kdf::chains::estimated(costs, ladder),
        None => crate::kdf::chains::estimated(&estimated_costs::<A>(), ladder),
    };
    let Some(claim) = A::slot().chains.claim() else {
        return estimated;
    };
    #[cfg(feature = "std")]
    if crate::batch::calibrate::enabled() && estimated != 0 {
        let measured = crate::kdf::chains::measure(current_single::<A>(), ladder);
        claim.publish(measured);
        return measured;
    }
    claim.publish(estimated);
    estimated
}

/// The batch planner's costs of `A` as declared: the lane kernels' estimates and the
/// single-message variant's in use.
pub(crate) fn estimated_costs<A: Registered>() -> Costs {
    ladder::<A>().estimated(single_variant::<A>().estimated_cost())
}

/// The single-message variant of `A` in use (probing first if nothing is installed yet).
pub(crate) fn single_variant<A: Registered>() -> &'static Variant {
    A::slot().selection(Interface::Single).variant
}

/// The declared cost of `A`'s installed single-message kernel (zero before one is installed),
/// read without the registry: a process's first batches weigh their work with it
/// ([`calibrate::costs_for`](crate::batch::calibrate::costs_for)), and reading it through the
/// selection and the variant's declaration touched three more code pages, which in a fresh
/// process each cost up to microseconds the first time (the first `sha256_many` of 5 short
/// messages: median 1.3-3.3 us against 0.7-1.1 us, AMD Zen 4 VM).
#[inline]
pub(crate) fn single_estimate<A: Registered>() -> Cost {
    A::slot().estimate.get()
}

/// Where the batch planner's costs of `A` are published once measured.
pub(crate) fn costs<A: Registered>() -> &'static Published<(Costs, bool)> {
    &A::slot().costs
}

/// Where the declared estimates of `A`'s batch costs are kept once worked out.
pub(crate) fn estimates<A: Registered>() -> &'static Published<Costs> {
    &A::slot().estimates
}

/// The predicted nanoseconds of batch work `A` has planned on the estimates so far.
pub(crate) fn batch_work<A: Registered>() -> &'static AtomicUsize {
    &A::slot().work
}

/// The plans of `A`'s recent equal-length batches.
#[inline]
pub(crate) fn plan_memo<A: Registered>() -> &'static PlanMemo {
    &A::slot().plans
}

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

/// The single-message choice of `A`, probing first if nothing is chosen yet.
pub(crate) fn single<A: Registered>() -> Selection {
    A::slot().selection(Interface::Single)
}

/// The many-message choice of `A` (the batch functions read it once per call).
pub(crate) fn many<A: Registered>() -> Selection {
    A::slot().selection(Interface::Many)
}

/// The many-message variant named for `A` (by `force` or the environment), if one was: what
/// the batch functions ask on every call, one atomic load once the choice is made.
#[inline]
pub(crate) fn pinned_many<A: Registered>() -> Option<&'static Variant> {
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

/// The single-message variant `algorithm` uses now and why (probing first if nothing is
/// installed yet).
pub fn active(algorithm: Algorithm) -> Selection {
    algorithm.active()
}

/// The many-message variant `algorithm`'s batch functions use now and why.
pub fn active_many(algorithm: Algorithm) -> Selection {
    algorithm.active_many()
}

/// The many-message variant whose PBKDF2 entry runs the output blocks of a multi-block
/// derivation (`pbkdf2_hmac_sha1` of 32 bytes, ...) side by side, one per lane, or `None`
/// where they run one after the other on [`active`]'s variant: the variant forced for the
/// batch functions if any (`None` if it has no PBKDF2 entry), else the one measured faster
/// per output block than one after the other, once per process (measuring now if no
/// derivation has yet; with `MULTISHA_CALIBRATE=0` or without `std`, and for other threads
/// while one measures, the lane kernel with an entry of least estimated cost).
pub fn pbkdf2_chains(algorithm: Algorithm) -> Option<&'static Variant> {
    algorithm.0.dispatch.pbkdf2_chains()
}

/// Installs the variant called `name` for `algorithm`, for the whole process: a
/// single-message variant for the hashers and one-shot functions, a many-message variant for
/// the batch functions (where it then runs every message of every batch itself: batches are
/// no longer planned).
///
/// Every hasher and one-shot call uses it from its next call on, hashers already part-way
/// through a message too (every variant gives the same digests); hashers pinned with
/// `with_variant` keep their variant. Meant for start-up and for tests.
///
/// # Errors
/// An unknown name, or a variant this CPU cannot run (then nothing changes); the message
/// lists the available variants. "This CPU" is [`cpu_features`]: a feature the mask in
/// `MULTISHA_CPU` removes counts as missing.
pub fn force(algorithm: Algorithm, name: &str) -> Result<&'static Variant, Error> {
    force_on(algorithm, name, cpu_features())
}

/// [`force`] with the CPU's features given: tests pass a set that lacks a feature to prove the
/// refusal. Private, since a set that claims more than the CPU has would install a kernel it
/// cannot run.
fn force_on(
    algorithm: Algorithm,
    name: &str,
    features: CpuFeatures,
) -> Result<&'static Variant, Error> {
    let variant = lookup(algorithm, name, features)?;
    algorithm.0.dispatch.install(variant, Reason::Forced);
    Ok(variant)
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
                force(algorithm, slow).expect("available");
            });
            std::thread::sleep(Duration::from_millis(50));
            force(algorithm, fast).expect("available");
        });
        let named = active(algorithm).variant;
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
            active(Algorithm::Sha256).variant.name()
        );
        let many = slot.selection(Interface::Many);
        assert_eq!(many.reason, active_many(Algorithm::Sha256).reason);
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
        assert!(matches!(keep_ladder(&HELD), LadderRef::Own(l) if l.len() == lanes));
        assert!(matches!(keep_ladder(&FREE), LadderRef::Kept(l) if l.len() == lanes));
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

    #[test]
    fn force_refuses_each_variant_whose_feature_is_missing_and_changes_nothing() {
        let _turn = crate::tests::SERIAL
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        for &algorithm in Algorithm::ALL {
            for variant in algorithm.variants() {
                for feature in variant.requires().iter() {
                    let choice = |a: Algorithm| match variant.interface() {
                        Interface::Single => active(a).variant.name(),
                        Interface::Many => active_many(a).variant.name(),
                    };
                    let before = choice(algorithm);
                    let cpu = cpu_features().without(feature);
                    let error = force_on(algorithm, variant.name(), cpu).expect_err("refused");
                    assert_eq!(error.missing_features().map(|m| m.has(feature)), Some(true));
                    assert_eq!(choice(algorithm), before, "{variant}: nothing changed");
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn shani_and_avx2_are_refused_without_their_features() {
        use multisha_contract::Feature;
        let all = cpu_features();
        for (algorithm, name, missing) in [
            (Algorithm::Sha1, "shani", Feature::Sha),
            (Algorithm::Sha256, "shani", Feature::Sha),
            (Algorithm::Sha256, "shani", Feature::Sse41),
            (Algorithm::Sha256, "avx2", Feature::Avx2),
            (Algorithm::Sha256, "avx2", Feature::Bmi2),
        ] {
            let error = force_on(algorithm, name, all.without(missing)).expect_err("refused");
            let message = std::format!("{error}");
            // "this CPU" when the reduced set is what the CPU has (as under valgrind, whose
            // CPUID has no SHA), "a CPU with features ..." otherwise.
            assert!(message.contains("cannot run on "), "{message}");
            assert!(message.contains(missing.name()), "{message}");
        }
    }
}
