//! The seven hash functions by their `hashlib` names, and the one place that turns a name
//! into a hasher type.

use pyo3::PyResult;
use pyo3::exceptions::PyValueError;

/// A hash function of the package, as `hashlib` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Function {
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
    Sha512_224,
    Sha512_256,
}

impl Function {
    /// Every function, in `hashlib`'s order.
    pub(crate) const ALL: [Function; 7] = [
        Function::Sha1,
        Function::Sha224,
        Function::Sha256,
        Function::Sha384,
        Function::Sha512,
        Function::Sha512_224,
        Function::Sha512_256,
    ];

    /// The name `hashlib` gives it (`hashlib.sha512_256().name`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Function::Sha1 => "sha1",
            Function::Sha224 => "sha224",
            Function::Sha256 => "sha256",
            Function::Sha384 => "sha384",
            Function::Sha512 => "sha512",
            Function::Sha512_224 => "sha512_224",
            Function::Sha512_256 => "sha512_256",
        }
    }

    /// The function named `name` as `hashlib.new` takes it: any case, with or without the
    /// separators (`"SHA256"`, `"sha-256"`, `"sha512-256"`, `"sha512/256"`, as OpenSSL spells
    /// them too).
    pub(crate) fn from_name(name: &str) -> PyResult<Function> {
        let bare = |s: &str| -> String {
            s.chars()
                .filter(|c| !matches!(c, '-' | '_' | '/'))
                .map(|c| c.to_ascii_lowercase())
                .collect()
        };
        let wanted = bare(name);
        Function::ALL
            .into_iter()
            .find(|f| bare(f.name()) == wanted)
            .ok_or_else(|| PyValueError::new_err(format!("unsupported hash type {name}")))
    }
}

/// Runs `$body` with `$h` the hasher type of function `$f` (a `multisha::HashFunction`).
macro_rules! with_function {
    ($f:expr, $h:ident => $body:expr) => {
        match $f {
            $crate::function::Function::Sha1 => {
                type $h = multisha::Sha1;
                $body
            }
            $crate::function::Function::Sha224 => {
                type $h = multisha::Sha224;
                $body
            }
            $crate::function::Function::Sha256 => {
                type $h = multisha::Sha256;
                $body
            }
            $crate::function::Function::Sha384 => {
                type $h = multisha::Sha384;
                $body
            }
            $crate::function::Function::Sha512 => {
                type $h = multisha::Sha512;
                $body
            }
            $crate::function::Function::Sha512_224 => {
                type $h = multisha::Sha512_224;
                $body
            }
            $crate::function::Function::Sha512_256 => {
                type $h = multisha::Sha512_256;
                $body
            }
        }
    };
}
pub(crate) use with_function;

impl Function {
    /// Bytes of a digest (the engine's).
    pub(crate) fn digest_size(self) -> usize {
        with_function!(self, H => size_of::<<H as multisha::HashFunction>::Digest>())
    }

    /// Bytes of a block (the engine's).
    pub(crate) fn block_size(self) -> usize {
        with_function!(self, H => <H as multisha::HashFunction>::algorithm().block_len())
    }
}
