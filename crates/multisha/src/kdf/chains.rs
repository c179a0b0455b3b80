//! Whether the output blocks of a multi-block PBKDF2 derivation run side by side on a lane
//! kernel's PBKDF2 entry or one after the other on the single-message variant's: measured on
//! the running CPU once per process and compression function, at its first multi-block
//! derivation, the way the batch planner's costs are ([`crate::batch::calibrate`]).
//!
//! Each candidate runs a short derivation loop (zero keys: the kernels' time does not depend
//! on the data), the candidates taking turns round after round, the fastest round of each
//! kept; the least time per chain and iteration wins, a tie going to side by side. One
//! PBKDF2 chain waits on its own last digest for every block, which a second chain on a
//! second lane can fill, while a unit shared with a busy neighbour, or a lane kernel's extra
//! work, can take that gain away: no rule decides it on every CPU, a measurement does.

use crate::dispatch::{self, Ladder};
use crate::hash_function::Registered;
use crate::registry::Variant;
use multisha_contract::{Compression, Kernel, LanesIterateFn};
use multisha_plan::Costs;
#[cfg(feature = "std")]
use std::time::Instant;
#[cfg(feature = "std")]
use {
    multisha_contract::{HmacKeys, MAX_LANES, SingleKernel, State},
    multisha_plan::MAX_KERNELS,
};

/// Iterations per timed run: a few microseconds, many times a block's latency.
#[cfg(feature = "std")]
const ITERATIONS: u32 = 32;

/// Rounds; the fastest of each candidate is kept.
#[cfg(feature = "std")]
const ROUNDS: usize = 7;

/// Which runs the chains: `0` for one after the other on `single`, `k + 1` for lane kernel
/// `k` of `ladder` (one with a PBKDF2 entry): the lane kernel that took least per chain and
/// iteration, unless one after the other took clearly less ([`TIE`]).
#[cfg(feature = "std")]
pub(crate) fn measure<A: Compression>(single: SingleKernel<A>, ladder: &Ladder<A>) -> u8 {
    let keys = HmacKeys::<A> {
        inner: State::<A>::default(),
        outer: State::<A>::default(),
    };
    let digest_len = A::OUTPUTS[0].len;
    let mut u = [State::<A>::default(); MAX_LANES];
    let mut t = u;
    // Candidate 0 is the single-message entry; then the lane kernels with an entry.
    let mut candidates = [(0u8, 1usize, None); 1 + MAX_KERNELS];
    let mut len = 1;
    for k in 0..ladder.len() {
        if let Some(iterate) = ladder.kernel(k).iterate {
            candidates[len] = (k as u8 + 1, ladder.kernel(k).lanes, Some(iterate));
            len += 1;
        }
    }
    let mut fastest = [f32::MAX; 1 + MAX_KERNELS];
    for round in 0..=ROUNDS {
        for (i, &(_, lanes, entry)) in candidates[..len].iter().enumerate() {
            let start = Instant::now();
            match entry {
                // SAFETY: the ladder holds kernels the CPU runs (checked when it was made);
                // `u` and `t` have the kernel's lane count.
                Some(iterate) => unsafe {
                    iterate(
                        &keys,
                        &mut u[..lanes],
                        &mut t[..lanes],
                        digest_len,
                        ITERATIONS,
                    )
                },
                // SAFETY: the dispatcher installed this variant, which the CPU runs.
                None => unsafe {
                    (single.iterate)(&keys, &mut u[0], &mut t[0], digest_len, ITERATIONS)
                },
            }
            let per_chain = start.elapsed().as_nanos() as f32 / lanes as f32;
            // Round 0 warms the code and the units up; not kept.
            if round > 0 {
                fastest[i] = fastest[i].min(per_chain);
            }
        }
    }
    core::hint::black_box((&u, &t));
    let Some(lanes) = (1..len).min_by(|&a, &b| fastest[a].total_cmp(&fastest[b])) else {
        return 0;
    };
    if fastest[lanes] <= fastest[0] * TIE {
        candidates[lanes].0
    } else {
        0
    }
}

/// One after the other must measure faster than side by side by more than this factor to be
/// chosen. The choice holds for the whole process, and the two are not alike in what they
/// risk: while a neighbour keeps the unit busy a second chain gains nothing and the two
/// measure alike, within the noise, but once it is free again side by side is the faster by
/// a margin (a quarter, on this project's Sapphire Rapids VM); one after the other never
/// gains more than the second lane's overhead.
#[cfg(feature = "std")]
const TIE: f32 = 1.05;

/// Which runs the chains without measuring (`no_std`, `MULTISHA_CALIBRATE=0`, or while another
/// thread measures): the lane kernel with a PBKDF2 entry of least estimated cost per block,
/// else one after the other: where a second chain has a unit's idle time to fill, side by
/// side is the faster, and on the CPUs measured it was never the slower.
pub(crate) fn estimated<A: Compression>(costs: &Costs, ladder: &Ladder<A>) -> u8 {
    let with_entry = costs
        .lane_kernels()
        .iter()
        .enumerate()
        .filter(|&(k, _)| ladder.kernel(k).iterate.is_some());
    multisha_plan::cheapest_per_block(with_entry, |&(_, &lanes_and_cost)| lanes_and_cost)
        .map_or(0, |(k, _)| k as u8 + 1)
}

/// The lane kernel whose PBKDF2 entry runs the chains of a multi-block derivation side by
/// side, as its lane count and entry: the many-message variant named by `force` or the
/// environment if it has such an entry; else the one measured faster per chain than one
/// chain after the other on the single-message variant, at the first multi-block derivation
/// ([`measure`]); `None` for one after the other.
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
pub(crate) fn chains_variant<A: Registered>() -> Option<&'static Variant> {
    if let Some(variant) = dispatch::pinned_many::<A>() {
        return chain_entry::<A>(variant).map(|_| variant);
    }
    let ladder = dispatch::ladder::<A>();
    let choice = match dispatch::chains::<A>().get_ref() {
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
    let estimated = match dispatch::published_costs::<A>() {
        Some((costs, _)) => estimated(costs, ladder),
        None => estimated(&dispatch::estimated_costs::<A>(), ladder),
    };
    let Some(claim) = dispatch::chains::<A>().claim() else {
        return estimated;
    };
    #[cfg(feature = "std")]
    if crate::batch::calibrate::enabled() && estimated != 0 {
        let measured = measure(dispatch::single_entries::<A>(), ladder);
        claim.publish(measured);
        return measured;
    }
    claim.publish(estimated);
    estimated
}
