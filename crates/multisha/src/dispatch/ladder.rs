//! The lane kernels a batch can run: those of the registry a CPU runs, typed, each with its
//! declared cost estimate (kept in the slot once per process).

use crate::registry::{Algorithm, Interface, Variant};
use multisha_contract::{Compression, Cost, CpuFeatures, Kernel, LaneKernel};
use multisha_plan::{Costs, MAX_KERNELS};

/// The lane kernels of `A` a CPU runs, in the registry's order.
pub(crate) struct Ladder<A: Compression> {
    kernels: [Option<(LaneKernel<A>, &'static Variant, Cost)>; MAX_KERNELS],
    len: usize,
}

impl<A: Compression> Clone for Ladder<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: Compression> Copy for Ladder<A> {}

impl<A: Compression> Ladder<A> {
    /// No lane kernel.
    pub(crate) const EMPTY: Self = Self {
        kernels: [None; MAX_KERNELS],
        len: 0,
    };

    /// The lane kernels of `algorithm` (whose compression function is `A`) that a CPU with
    /// `features` runs.
    pub(crate) fn of(algorithm: Algorithm, features: CpuFeatures) -> Self {
        let mut ladder = Self::EMPTY;
        for variant in algorithm.variants() {
            if variant.interface() == Interface::Many && variant.is_available_on(features) {
                ladder.push(variant);
            }
        }
        ladder
    }

    /// Just `variant`'s kernel (none for `serial`): a pinned variant's ladder.
    pub(crate) fn only(variant: &'static Variant) -> Self {
        let mut ladder = Self::EMPTY;
        ladder.push(variant);
        ladder
    }

    /// Adds `variant` if it is a lane kernel of `A`.
    fn push(&mut self, variant: &'static Variant) {
        let Some(declaration) = variant.declaration::<A>() else {
            return;
        };
        if let Kernel::Lanes(kernel) = declaration.kernel {
            self.kernels[self.len] = Some((kernel, variant, declaration.cost));
            self.len += 1;
        }
    }

    /// How many lane kernels.
    #[cfg(any(feature = "std", test))]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Lane kernel `k`.
    ///
    /// # Panics
    /// If there is no kernel `k`.
    #[inline]
    pub(crate) fn kernel(&self, k: usize) -> LaneKernel<A> {
        self.kernels[k].expect("a lane kernel of the ladder").0
    }

    /// Lane kernel `k`'s variant.
    pub(crate) fn variant(&self, k: usize) -> &'static Variant {
        self.kernels[k].expect("a lane kernel of the ladder").1
    }

    /// The declared cost estimates, with `single` for the single-message kernel.
    pub(crate) fn estimated(&self, single: Cost) -> Costs {
        let mut costs = Costs::single_only(single);
        for (kernel, _, cost) in self.kernels[..self.len].iter().flatten() {
            costs.push(kernel.lanes, *cost);
        }
        costs
    }
}

/// A [`Ladder`]: the one kept in the slot, or one read from the registry by a thread that
/// found another keeping it ([`keep`]).
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
