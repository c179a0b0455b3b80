//! The cycle counter: the TSC on x86-64, the generic timer `cntvct_el0` on AArch64, the
//! monotonic clock elsewhere. Its rate is measured against `Instant` rather than trusted.
//! Shared by the report binary and the examples, so they all time alike.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// What the counter is, for the report's header.
#[cfg(target_arch = "x86_64")]
pub const LABEL: &str =
    "TSC (rdtsc): constant-rate reference cycles, equal to core cycles only at the nominal clock";
/// The counter's tick, as tables name it.
#[cfg(target_arch = "x86_64")]
pub const UNIT: &str = "cycles";

/// What the counter is, for the report's header.
#[cfg(target_arch = "aarch64")]
pub const LABEL: &str =
    "cntvct_el0 (generic timer): fixed-rate ticks, far slower than the core clock";
/// The counter's tick, as tables name it.
#[cfg(target_arch = "aarch64")]
pub const UNIT: &str = "ticks";

/// What the counter is, for the report's header.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub const LABEL: &str = "std::time::Instant (no cycle counter on this target): nanoseconds";
/// The counter's tick, as tables name it.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub const UNIT: &str = "ns";

/// The counter now.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn now() -> u64 {
    // SAFETY: every x86-64 CPU has rdtsc; it reads a register and touches no memory.
    unsafe { core::arch::x86_64::_rdtsc() }
}

/// The counter now, after earlier instructions have finished (for timing one call).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn fenced() -> u64 {
    // SAFETY: lfence is SSE2, part of the x86-64 baseline; it orders rdtsc after the earlier
    // instructions and touches no memory.
    unsafe {
        core::arch::x86_64::_mm_lfence();
        let t = core::arch::x86_64::_rdtsc();
        core::arch::x86_64::_mm_lfence();
        t
    }
}

/// The counter now.
#[cfg(target_arch = "aarch64")]
#[inline(always)]
pub fn now() -> u64 {
    let t: u64;
    // SAFETY: Linux lets EL0 read cntvct_el0; the asm reads one register and touches no memory.
    unsafe {
        core::arch::asm!("mrs {t}, cntvct_el0", t = out(reg) t, options(nomem, nostack, preserves_flags));
    }
    t
}

/// The counter now, after earlier instructions have finished (for timing one call).
#[cfg(target_arch = "aarch64")]
#[inline(always)]
pub fn fenced() -> u64 {
    let t: u64;
    // SAFETY: isb only waits for earlier instructions; the read is as in `now`.
    unsafe {
        core::arch::asm!("isb", "mrs {t}, cntvct_el0", "isb", t = out(reg) t, options(nomem, nostack, preserves_flags));
    }
    t
}

/// The counter now.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn now() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// The counter now (no fence to wait for on this target).
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn fenced() -> u64 {
    now()
}

/// Counter ticks per second, measured by spinning for `span` against `Instant`.
pub fn frequency(span: Duration) -> f64 {
    let (start, ticks) = (Instant::now(), now());
    while start.elapsed() < span {
        black_box(());
    }
    let (elapsed, end) = (start.elapsed(), now());
    end.wrapping_sub(ticks) as f64 / elapsed.as_secs_f64()
}

/// What a `fenced()` pair costs with nothing between them, subtracted from single-call times.
pub fn overhead() -> u64 {
    let mut samples: Vec<u64> = (0..101)
        .map(|_| {
            let t = fenced();
            fenced().wrapping_sub(t)
        })
        .collect();
    samples.sort_unstable();
    samples[samples.len() / 2]
}
