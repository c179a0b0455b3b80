//! One-shot hashing: whole blocks straight from the input, the padded tail from one stack
//! block, one workspace wiped once. The fastest path for small messages.

use crate::block_api::{Sha1Spec, Sha224Spec, Sha256Spec, Spec};
use crate::dispatch::{self, Dispatched};
use crate::{Error, Variant};
use multisha_contract::{Family, oneshot, write_digest};

#[inline(always)]
fn hash<S: Spec, const N: usize>(kernel: <S::Family as Family>::Kernel, data: &[u8]) -> [u8; N] {
    // SAFETY: kernels come from the dispatcher or from a `Pinned`, which check the CPU first.
    let state = unsafe { oneshot::<S::Family>(kernel, S::IV, data) };
    let mut out = [0u8; N];
    write_digest(state.as_ref(), &mut out);
    out
}

/// SHA-1 of `data` with the dispatched variant.
#[inline]
pub fn sha1(data: &[u8]) -> [u8; 20] {
    hash::<Sha1Spec, 20>(dispatch::installed::<<Sha1Spec as Spec>::Family>(), data)
}

/// SHA-224 of `data` with the dispatched SHA-256 variant.
#[inline]
pub fn sha224(data: &[u8]) -> [u8; 28] {
    hash::<Sha224Spec, 28>(dispatch::installed::<<Sha224Spec as Spec>::Family>(), data)
}

/// SHA-256 of `data` with the dispatched variant.
#[inline]
pub fn sha256(data: &[u8]) -> [u8; 32] {
    hash::<Sha256Spec, 32>(dispatch::installed::<<Sha256Spec as Spec>::Family>(), data)
}

/// One-shot hashing pinned to one variant, without touching the global choice: auditors
/// compare variants side by side in one process.
///
/// ```
/// let unroll8 = multisha::Pinned::new(multisha::Algorithm::Sha256, "unroll8")?;
/// assert_eq!(unroll8.sha256(b"abc"), Some(multisha::sha256(b"abc")));
/// # Ok::<(), multisha::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Pinned {
    variant: &'static Variant,
}

impl Pinned {
    /// Pins the variant of `algorithm` called `name`.
    ///
    /// # Errors
    /// An unknown name or a variant this CPU cannot run.
    pub fn new(algorithm: crate::Algorithm, name: &str) -> Result<Self, Error> {
        Self::from_variant(crate::select::lookup(
            algorithm,
            name,
            crate::CpuFeatures::detect(),
        )?)
    }

    /// Pins `variant`.
    ///
    /// # Errors
    /// A variant this CPU cannot run.
    pub fn from_variant(variant: &'static Variant) -> Result<Self, Error> {
        let variant = crate::select::require_available(variant, crate::CpuFeatures::detect())?;
        Ok(Self { variant })
    }

    /// The pinned variant.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    fn kernel<F: Dispatched>(&self) -> Option<F::Kernel> {
        (self.variant.algorithm() == F::ALGORITHM).then(|| F::kernel_of(self.variant))
    }

    /// SHA-1 of `data`, or `None` if the pinned variant is not a SHA-1 variant.
    pub fn sha1(&self, data: &[u8]) -> Option<[u8; 20]> {
        Some(hash::<Sha1Spec, 20>(
            self.kernel::<multisha_contract::Sha1>()?,
            data,
        ))
    }

    /// SHA-224 of `data`, or `None` if the pinned variant is not a SHA-256 variant.
    pub fn sha224(&self, data: &[u8]) -> Option<[u8; 28]> {
        Some(hash::<Sha224Spec, 28>(
            self.kernel::<multisha_contract::Sha256>()?,
            data,
        ))
    }

    /// SHA-256 of `data`, or `None` if the pinned variant is not a SHA-256 variant.
    pub fn sha256(&self, data: &[u8]) -> Option<[u8; 32]> {
        Some(hash::<Sha256Spec, 32>(
            self.kernel::<multisha_contract::Sha256>()?,
            data,
        ))
    }
}
