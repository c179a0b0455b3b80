//! Probe once, then one relaxed load and one indirect call.
//!
//! Each algorithm has an `AtomicPtr` that starts out pointing at a probe function with the
//! kernel's own signature (the memchr pattern). The first call probes the CPU, reads the
//! environment override, stores the chosen kernel and forwards to it; every later call loads
//! the pointer and calls through it, with no feature branches. The selection itself (variant
//! and reason) is packed into an `AtomicU32`, the single source of truth: the pointer is only
//! its cache.

use crate::select::{Reason, Selection, choose, lookup};
use crate::{Algorithm, CpuFeatures, Error, Variant, registry};
use core::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use multisha_contract::{
    Block, Family, Sha1, Sha1State, Sha1Workspace, Sha256, Sha256State, Sha256Workspace,
};

/// A family whose kernel the dispatcher installs.
pub(crate) trait Dispatched: Family {
    const ALGORITHM: Algorithm;
    fn slot() -> &'static AtomicPtr<()>;
    fn probe_kernel() -> Self::Kernel;
    fn to_ptr(kernel: Self::Kernel) -> *mut ();
    /// # Safety
    /// `ptr` must have come from `to_ptr` of this family.
    unsafe fn from_ptr(ptr: *mut ()) -> Self::Kernel;
    fn kernel_of(variant: &Variant) -> Self::Kernel;
}

static SHA1_SLOT: AtomicPtr<()> = AtomicPtr::new(probe_sha1 as *mut ());
static SHA256_SLOT: AtomicPtr<()> = AtomicPtr::new(probe_sha256 as *mut ());

/// Packed selection per algorithm: 0 = not probed yet, else `VALID | reason << 8 | index`.
static SELECTION: [AtomicU32; 2] = [AtomicU32::new(0), AtomicU32::new(0)];
const VALID: u32 = 1 << 31;

#[cfg(feature = "std")]
static ENV_REJECTED: [std::sync::OnceLock<Error>; 2] =
    [std::sync::OnceLock::new(), std::sync::OnceLock::new()];

/// # Safety
/// Same contract as every SHA-1 kernel; it only forwards to a kernel the CPU supports.
unsafe fn probe_sha1(state: &mut Sha1State, blocks: &[Block], w: &mut Sha1Workspace) {
    let kernel = resolve::<Sha1>();
    // SAFETY: `resolve` only returns kernels whose required features the CPU has.
    unsafe { kernel(state, blocks, w) }
}

/// # Safety
/// Same contract as every SHA-256 kernel; it only forwards to a kernel the CPU supports.
unsafe fn probe_sha256(state: &mut Sha256State, blocks: &[Block], w: &mut Sha256Workspace) {
    let kernel = resolve::<Sha256>();
    // SAFETY: `resolve` only returns kernels whose required features the CPU has.
    unsafe { kernel(state, blocks, w) }
}

impl Dispatched for Sha1 {
    const ALGORITHM: Algorithm = Algorithm::Sha1;
    fn slot() -> &'static AtomicPtr<()> {
        &SHA1_SLOT
    }
    fn probe_kernel() -> Self::Kernel {
        probe_sha1
    }
    fn to_ptr(kernel: Self::Kernel) -> *mut () {
        kernel as *mut ()
    }
    unsafe fn from_ptr(ptr: *mut ()) -> Self::Kernel {
        // SAFETY: the caller passes a pointer made by `to_ptr` from a `Sha1Kernel`.
        unsafe { core::mem::transmute::<*mut (), Self::Kernel>(ptr) }
    }
    fn kernel_of(variant: &Variant) -> Self::Kernel {
        variant.sha1_kernel().expect("a SHA-1 variant")
    }
}

impl Dispatched for Sha256 {
    const ALGORITHM: Algorithm = Algorithm::Sha256;
    fn slot() -> &'static AtomicPtr<()> {
        &SHA256_SLOT
    }
    fn probe_kernel() -> Self::Kernel {
        probe_sha256
    }
    fn to_ptr(kernel: Self::Kernel) -> *mut () {
        kernel as *mut ()
    }
    unsafe fn from_ptr(ptr: *mut ()) -> Self::Kernel {
        // SAFETY: the caller passes a pointer made by `to_ptr` from a `Sha256Kernel`.
        unsafe { core::mem::transmute::<*mut (), Self::Kernel>(ptr) }
    }
    fn kernel_of(variant: &Variant) -> Self::Kernel {
        variant.sha256_kernel().expect("a SHA-256 variant")
    }
}

/// The slot's kernel as it is, one relaxed load: the probe until the first call through it
/// has installed the choice. The one-shot functions call through it directly.
#[inline(always)]
pub(crate) fn installed<F: Dispatched>() -> F::Kernel {
    // SAFETY: the slot only ever holds pointers stored through `F::to_ptr`.
    unsafe { F::from_ptr(F::slot().load(Ordering::Relaxed)) }
}

/// The chosen kernel of `F`, never the probe: hashers keep it for their whole life, so they
/// resolve the choice when they are created rather than on every update.
#[inline(always)]
pub(crate) fn current<F: Dispatched>() -> F::Kernel {
    let ptr = F::slot().load(Ordering::Relaxed);
    if ptr == F::to_ptr(F::probe_kernel()) {
        return resolve::<F>();
    }
    // SAFETY: the slot only ever holds pointers stored through `F::to_ptr`.
    unsafe { F::from_ptr(ptr) }
}

fn pack(variant: &Variant, reason: Reason) -> u32 {
    let code = match reason {
        Reason::Priority => 1,
        Reason::Env => 2,
        Reason::Forced => 3,
        Reason::EnvRejected(_) => 4,
    };
    VALID | code << 8 | registry::index_of(variant) as u32
}

fn unpack(algorithm: Algorithm, packed: u32) -> Selection {
    let variant = &registry::variants(algorithm)[(packed & 0xff) as usize];
    let reason = match (packed >> 8) & 0xff {
        2 => Reason::Env,
        3 => Reason::Forced,
        #[cfg(feature = "std")]
        4 => ENV_REJECTED[algorithm.index()]
            .get()
            .map_or(Reason::Priority, |e| Reason::EnvRejected(*e)),
        _ => Reason::Priority,
    };
    Selection { variant, reason }
}

#[cfg(feature = "std")]
fn env_override(algorithm: Algorithm) -> Option<std::string::String> {
    let value = std::env::var_os(algorithm.env_var())?;
    let value = value.to_string_lossy();
    let value = value.trim();
    (!value.is_empty()).then(|| value.into())
}

/// Probes the CPU and the override once and installs the choice; returns the kernel.
#[cold]
#[inline(never)]
fn resolve<F: Dispatched>() -> F::Kernel {
    let algorithm = F::ALGORITHM;
    let cell = &SELECTION[algorithm.index()];
    let mut packed = cell.load(Ordering::Acquire);
    if packed == 0 {
        #[cfg(feature = "std")]
        let requested = env_override(algorithm);
        #[cfg(feature = "std")]
        let requested = requested.as_deref();
        #[cfg(not(feature = "std"))]
        let requested = None;
        let selection = choose(algorithm, CpuFeatures::detect(), requested);
        #[cfg(feature = "std")]
        if let Reason::EnvRejected(error) = selection.reason {
            // Every racing prober reads the same environment, so any of them may set it.
            let _ = ENV_REJECTED[algorithm.index()].set(error);
        }
        let new = pack(selection.variant, selection.reason);
        packed = match cell.compare_exchange(0, new, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => new,
            Err(earlier) => earlier,
        };
    }
    let kernel = F::kernel_of(unpack(algorithm, packed).variant);
    // Only replace the probe: a concurrent `force` may already have stored its kernel.
    let _ = F::slot().compare_exchange(
        F::to_ptr(F::probe_kernel()),
        F::to_ptr(kernel),
        Ordering::AcqRel,
        Ordering::Relaxed,
    );
    kernel
}

/// The variant `algorithm` uses now and why (probing first if nothing is installed yet).
pub fn active(algorithm: Algorithm) -> Selection {
    let packed = SELECTION[algorithm.index()].load(Ordering::Acquire);
    if packed != 0 {
        return unpack(algorithm, packed);
    }
    match algorithm {
        Algorithm::Sha1 => drop(resolve::<Sha1>()),
        Algorithm::Sha256 => drop(resolve::<Sha256>()),
    }
    unpack(
        algorithm,
        SELECTION[algorithm.index()].load(Ordering::Acquire),
    )
}

/// Installs the variant called `name` for `algorithm`, for the whole process.
///
/// Hashers created afterwards, and every one-shot call, use it; hashers that already exist
/// keep the kernel they were created with. Meant for start-up and for tests.
///
/// # Errors
/// An unknown name, or a variant this CPU cannot run (then nothing changes); the message
/// lists the available variants.
pub fn force(algorithm: Algorithm, name: &str) -> Result<&'static Variant, Error> {
    force_on(algorithm, name, CpuFeatures::detect())
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
    SELECTION[algorithm.index()].store(pack(variant, Reason::Forced), Ordering::Release);
    match algorithm {
        Algorithm::Sha1 => {
            Sha1::slot().store(Sha1::to_ptr(Sha1::kernel_of(variant)), Ordering::Release)
        }
        Algorithm::Sha256 => {
            Sha256::slot().store(
                Sha256::to_ptr(Sha256::kernel_of(variant)),
                Ordering::Release,
            );
        }
    }
    Ok(variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn force_refuses_every_variant_whose_feature_is_missing_and_changes_nothing() {
        for algorithm in Algorithm::ALL {
            for variant in registry::variants(algorithm) {
                for &feature in variant.requires() {
                    let before = active(algorithm).variant.name();
                    let cpu = CpuFeatures::detect().without(feature);
                    let error = force_on(algorithm, variant.name(), cpu).expect_err("refused");
                    assert_eq!(error.missing_features().map(|m| m.has(feature)), Some(true));
                    assert_eq!(
                        active(algorithm).variant.name(),
                        before,
                        "{variant}: nothing changed"
                    );
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn shani_and_avx2_are_refused_without_their_features() {
        use crate::Feature;
        let all = CpuFeatures::detect();
        for (algorithm, name, missing) in [
            (Algorithm::Sha1, "shani", Feature::Sha),
            (Algorithm::Sha256, "shani", Feature::Sha),
            (Algorithm::Sha256, "shani", Feature::Sse41),
            (Algorithm::Sha256, "avx2", Feature::Avx2),
            (Algorithm::Sha256, "avx2", Feature::Bmi2),
        ] {
            let error = force_on(algorithm, name, all.without(missing)).expect_err("refused");
            let message = std::format!("{error}");
            assert!(message.contains("cannot run on this CPU"), "{message}");
            assert!(message.contains(missing.name()), "{message}");
        }
    }
}
