//! Hash functions as run-time values, for code that picks one by name (the command-line
//! tool, a config file): one-shot, streaming and batch hashing without naming a type.

use super::Algorithm;
#[cfg(feature = "std")]
use super::Error;
use crate::hash_function::HashFunction;
use core::fmt;

/// One hash function (SHA-1, SHA-224, SHA-256, ...) as a value: a handle to a static
/// description. The typed way is the hasher types and the one-shot functions at the crate
/// root; this is for choosing at run time.
#[derive(Clone, Copy)]
pub struct Function(pub(crate) &'static FunctionInfo);

pub(crate) struct FunctionInfo {
    pub(crate) id: &'static str,
    pub(crate) name: &'static str,
    pub(crate) len: usize,
    pub(crate) algorithm: Algorithm,
    pub(crate) digest: fn(&[u8], &mut [u8]),
    pub(crate) many: fn(&[&[u8]], &mut [u8]),
    #[cfg(feature = "std")]
    pub(crate) hasher: fn() -> Boxed,
    #[cfg(feature = "std")]
    pub(crate) pinned: fn(&str) -> Result<Boxed, Error>,
}

/// A streaming hasher behind `digest`'s object-safe interface.
#[cfg(feature = "std")]
type Boxed = std::boxed::Box<dyn digest::DynDigest + Send>;

impl FunctionInfo {
    pub(crate) const fn of<H>() -> Self
    where
        H: HashFunction + digest::Digest + digest::FixedOutputReset + Clone + Send,
    {
        Self {
            id: H::OUTPUT.id,
            name: H::OUTPUT.name,
            len: H::OUTPUT.len,
            algorithm: <H::Compression as crate::dispatch::Keyed>::ALGORITHM,
            digest: digest_into::<H>,
            many: digest_many_into::<H>,
            #[cfg(feature = "std")]
            hasher: boxed::<H>,
            #[cfg(feature = "std")]
            pinned: boxed_pinned::<H>,
        }
    }
}

fn digest_into<H: HashFunction>(data: &[u8], out: &mut [u8]) {
    out.copy_from_slice(H::oneshot(data).as_ref());
}

fn digest_many_into<H: HashFunction>(messages: &[&[u8]], out: &mut [u8]) {
    let len = H::OUTPUT.len;
    let mut digests = crate::batch::Flat { bytes: out, len };
    crate::batch::hash_many::<H, _, _>(messages, &mut digests);
}

#[cfg(feature = "std")]
fn boxed<H>() -> Boxed
where
    H: digest::Digest + digest::FixedOutputReset + digest::Reset + Clone + Send + 'static,
{
    std::boxed::Box::new(<H as digest::Digest>::new())
}

#[cfg(feature = "std")]
fn boxed_pinned<H>(name: &str) -> Result<Boxed, Error>
where
    H: HashFunction + digest::FixedOutputReset + digest::Reset + Clone + Send + 'static,
{
    Ok(std::boxed::Box::new(H::with_variant(name)?))
}

impl Function {
    /// The lower-case id (`"sha256"`, `"sha512_224"`).
    pub fn id(self) -> &'static str {
        self.0.id
    }

    /// The display name (`"SHA-256"`, `"SHA-512/224"`).
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The digest length in bytes.
    pub fn output_len(self) -> usize {
        self.0.len
    }

    /// The compression function it runs.
    pub fn algorithm(self) -> Algorithm {
        self.0.algorithm
    }

    /// The function with id `id`, if there is one.
    pub fn from_id(id: &str) -> Option<Function> {
        Function::ALL.iter().copied().find(|f| f.id() == id)
    }

    /// Writes the digest of `data` into `out`, with the dispatched variant.
    ///
    /// # Panics
    /// If `out` is not [`Function::output_len`] bytes long.
    pub fn digest_into(self, data: &[u8], out: &mut [u8]) {
        assert_eq!(
            out.len(),
            self.0.len,
            "{} digests are {} bytes",
            self.0.name,
            self.0.len
        );
        (self.0.digest)(data, out);
    }

    /// Writes the digest of every message of `messages` into `out`, one after the other
    /// ([`Function::output_len`] bytes each), with the dispatched many-message variant.
    ///
    /// # Panics
    /// If `out` is not `messages.len()` digests long.
    pub fn digest_many_into(self, messages: &[&[u8]], out: &mut [u8]) {
        assert_eq!(
            out.len(),
            messages.len() * self.0.len,
            "{} messages need {} bytes of {} digests",
            messages.len(),
            messages.len() * self.0.len,
            self.0.name
        );
        (self.0.many)(messages, out);
    }

    /// A fresh streaming hasher running the dispatched variant.
    #[cfg(feature = "std")]
    pub fn hasher(self) -> std::boxed::Box<dyn digest::DynDigest + Send> {
        (self.0.hasher)()
    }

    /// A fresh streaming hasher pinned to the variant called `name`.
    ///
    /// # Errors
    /// An unknown name or a variant this CPU cannot run.
    #[cfg(feature = "std")]
    pub fn hasher_with_variant(
        self,
        name: &str,
    ) -> Result<std::boxed::Box<dyn digest::DynDigest + Send>, Error> {
        (self.0.pinned)(name)
    }
}

impl PartialEq for Function {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.0, other.0)
    }
}

impl Eq for Function {}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Function({})", self.id())
    }
}
