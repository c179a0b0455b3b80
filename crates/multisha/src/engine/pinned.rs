//! One-shot hashing pinned to one variant, without touching the global choice.

use super::{Error, Interface, Variant, cpu_features};
use crate::hash_function::HashFunction;
use crate::registry::select::{lookup_for, require_available};
use core::fmt;
use core::marker::PhantomData;
use core::num::NonZeroU32;
use multisha_contract::{Kernel, SingleKernel};

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
    kernel: SingleKernel<H::Compression>,
    function: PhantomData<fn() -> H>,
}

impl<H: HashFunction> Pinned<H> {
    /// Pins the single-message variant of `H`'s algorithm called `name`.
    ///
    /// # Errors
    /// An unknown name, a many-message variant (see
    /// [`PinnedMany`]) or a variant this CPU cannot run.
    pub fn new(name: &str) -> Result<Self, Error> {
        let algorithm = H::algorithm();
        Self::from_variant(lookup_for(
            algorithm,
            Interface::Single,
            name,
            cpu_features(),
        )?)
    }

    /// Pins `variant`.
    ///
    /// # Errors
    /// A variant this CPU cannot run, a many-message variant, or one of another algorithm
    /// (then the error says the name is unknown for `H`'s algorithm).
    pub fn from_variant(variant: &'static Variant) -> Result<Self, Error> {
        let features = cpu_features();
        let Some(declaration) = variant.declaration::<H::Compression>() else {
            return Err(Error::unknown(
                H::algorithm(),
                Interface::Single,
                variant.name(),
                features,
            ));
        };
        let variant = require_available(variant, features)?;
        let Kernel::Single(kernel) = declaration.kernel else {
            return Err(Error::other_interface(variant, Interface::Single, features));
        };
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
        unsafe { crate::oneshot::hash::<H>(self.kernel.compress, self.kernel.one_block, data) }
    }

    /// PBKDF2-HMAC with `H` on the pinned variant (its own iteration loop): the same as
    /// [`pbkdf2_hmac_sha256`](crate::pbkdf2_hmac_sha256) and the others on the dispatched one.
    ///
    /// ```
    /// use core::num::NonZeroU32;
    /// use multisha::engine::Pinned;
    /// let rolled = Pinned::<multisha::Sha256>::new("rolled")?;
    /// let (mut a, mut b) = ([0u8; 40], [0u8; 40]);
    /// let iterations = NonZeroU32::new(1000).unwrap();
    /// rolled.pbkdf2_hmac(b"password", b"salt", iterations, &mut a)?;
    /// multisha::pbkdf2_hmac_sha256(b"password", b"salt", iterations, &mut b)?;
    /// assert_eq!(a, b);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// An empty `out` or one longer than (2^32 - 1) digests.
    pub fn pbkdf2_hmac(
        &self,
        password: &[u8],
        salt: &[u8],
        iterations: NonZeroU32,
        out: &mut [u8],
    ) -> Result<(), crate::Pbkdf2Error> {
        // SAFETY: the kernel's variant passed `require_available` on this CPU.
        unsafe { crate::kdf::derive_with::<H>(self.kernel, None, password, salt, iterations, out) }
    }

    /// [`Pinned::pbkdf2_hmac`] compared with `expected` in constant time.
    ///
    /// # Errors
    /// [`Pbkdf2Error::Mismatch`](crate::Pbkdf2Error::Mismatch) when the derived key differs;
    /// an empty or too long `expected`.
    pub fn pbkdf2_hmac_verify(
        &self,
        password: &[u8],
        salt: &[u8],
        iterations: NonZeroU32,
        expected: &[u8],
    ) -> Result<(), crate::Pbkdf2Error> {
        // SAFETY: the kernel's variant passed `require_available` on this CPU.
        unsafe {
            crate::kdf::verify_with::<H>(self.kernel, None, password, salt, iterations, expected)
        }
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

/// Batch hashing with hash function `H` pinned to one many-message variant, leaving the global
/// choice alone. The variant runs every message of a batch itself, to the end (the batch is
/// not planned), so an auditor measures that kernel alone.
///
/// ```
/// use multisha::engine::PinnedMany;
/// let serial = PinnedMany::<multisha::Sha256>::new("serial")?;
/// let mut digests = [[0u8; 32]; 2];
/// serial.hash_many(&["abc", ""], &mut digests);
/// assert_eq!(digests[0], multisha::sha256(b"abc"));
/// # Ok::<(), multisha::engine::Error>(())
/// ```
pub struct PinnedMany<H: HashFunction> {
    variant: &'static Variant,
    function: PhantomData<fn() -> H>,
}

impl<H: HashFunction> PinnedMany<H> {
    /// Pins the many-message variant of `H`'s algorithm called `name`.
    ///
    /// # Errors
    /// An unknown name, a single-message variant (see [`Pinned`]) or a variant this CPU
    /// cannot run.
    pub fn new(name: &str) -> Result<Self, Error> {
        let variant = lookup_for(H::algorithm(), Interface::Many, name, cpu_features())?;
        Ok(Self {
            variant,
            function: PhantomData,
        })
    }

    /// The pinned variant.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The digest of every message of `messages` into the digest at the same index of
    /// `digests`.
    ///
    /// # Panics
    /// If `messages` and `digests` differ in length.
    pub fn hash_many<M: AsRef<[u8]>>(&self, messages: &[M], digests: &mut [H::Digest]) {
        crate::batch::run_pinned::<H, _, _>(self.variant, messages, digests);
    }

    /// HMAC with `H` of every message of `messages` under `key` into the tag at the same
    /// index of `digests`, both hashes of every message on the pinned variant: the same tags
    /// as [`hmac_many`](crate::hmac_many).
    ///
    /// # Panics
    /// If `messages` and `digests` differ in length.
    pub fn hmac_many<M: AsRef<[u8]>>(&self, key: &[u8], messages: &[M], digests: &mut [H::Digest]) {
        crate::hmac::keyed::<H>(Some(self.variant), key, messages, digests);
    }

    /// PBKDF2-HMAC with `H`, the output blocks' chains side by side on the pinned lane
    /// kernel's PBKDF2 entry while a whole lane count of them is left, the others (and all of
    /// them for a variant without such an entry) one by one on the dispatched single-message
    /// variant: the same key as [`pbkdf2_hmac_sha256`](crate::pbkdf2_hmac_sha256) and the
    /// others.
    ///
    /// ```
    /// use core::num::NonZeroU32;
    /// use multisha::engine::PinnedMany;
    /// let serial = PinnedMany::<multisha::Sha256>::new("serial")?;
    /// let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
    /// let iterations = NonZeroU32::new(1000).unwrap();
    /// serial.pbkdf2_hmac(b"password", b"salt", iterations, &mut a)?;
    /// multisha::pbkdf2_hmac_sha256(b"password", b"salt", iterations, &mut b)?;
    /// assert_eq!(a, b);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// An empty `out` or one longer than (2^32 - 1) digests.
    pub fn pbkdf2_hmac(
        &self,
        password: &[u8],
        salt: &[u8],
        iterations: NonZeroU32,
        out: &mut [u8],
    ) -> Result<(), crate::Pbkdf2Error> {
        let chains = crate::kdf::chains::chain_entry::<H::Compression>(self.variant);
        let kernel = crate::dispatch::single_entries::<H::Compression>();
        // SAFETY: the pinned variant passed `lookup_for` on this CPU (the CPU runs it), and
        // the dispatcher only ever chooses a single-message variant the CPU runs.
        unsafe { crate::kdf::derive_with::<H>(kernel, chains, password, salt, iterations, out) }
    }

    /// Whether the pinned lane kernel runs the chains of a multi-block PBKDF2 derivation (it
    /// has a PBKDF2 entry).
    pub fn has_pbkdf2_chains(&self) -> bool {
        crate::kdf::chains::chain_entry::<H::Compression>(self.variant).is_some()
    }
}

impl<H: HashFunction> Clone for PinnedMany<H> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<H: HashFunction> Copy for PinnedMany<H> {}

impl<H: HashFunction> fmt::Debug for PinnedMany<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PinnedMany<{}>({})", H::OUTPUT.name, self.variant)
    }
}
