//! One-shot hashing pinned to one variant, without touching the global choice.

use super::select::{lookup, require_available};
use super::{Error, Variant};
use crate::hash_function::HashFunction;
use core::fmt;
use core::marker::PhantomData;
use multisha_contract::{CpuFeatures, Kernel, KernelFn};

/// One-shot hashing with hash function `H` pinned to one variant, leaving the global choice
/// alone: auditors compare variants side by side in one process.
///
/// ```
/// use multisha::engine::Pinned;
/// let unroll8 = Pinned::<multisha::Sha256>::new("unroll8")?;
/// assert_eq!(unroll8.hash(b"abc"), multisha::sha256(b"abc"));
/// # Ok::<(), multisha::engine::Error>(())
/// ```
pub struct Pinned<H: HashFunction> {
    variant: &'static Variant,
    kernel: KernelFn<H::Compression>,
    function: PhantomData<fn() -> H>,
}

impl<H: HashFunction> Pinned<H> {
    /// Pins the variant of `H`'s algorithm called `name`.
    ///
    /// # Errors
    /// An unknown name or a variant this CPU cannot run.
    pub fn new(name: &str) -> Result<Self, Error> {
        Self::from_variant(lookup(H::algorithm(), name, CpuFeatures::detect())?)
    }

    /// Pins `variant`.
    ///
    /// # Errors
    /// A variant this CPU cannot run, or one of another algorithm (then the error says the
    /// name is unknown for `H`'s algorithm).
    pub fn from_variant(variant: &'static Variant) -> Result<Self, Error> {
        let features = CpuFeatures::detect();
        let Some(declaration) = variant.declaration::<H::Compression>() else {
            return Err(Error::unknown(H::algorithm(), variant.name(), features));
        };
        let variant = require_available(variant, features)?;
        let Kernel::Single(kernel) = declaration.kernel;
        Ok(Self {
            variant,
            kernel,
            function: PhantomData,
        })
    }

    /// The pinned variant.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The digest of `data`.
    pub fn hash(&self, data: &[u8]) -> H::Digest {
        // SAFETY: the kernel's variant passed `require_available` on this CPU.
        unsafe { crate::oneshot::hash::<H>(self.kernel, data) }
    }
}

impl<H: HashFunction> Clone for Pinned<H> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<H: HashFunction> Copy for Pinned<H> {}

impl<H: HashFunction> fmt::Debug for Pinned<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pinned<{}>({})", H::OUTPUT.name, self.variant)
    }
}
