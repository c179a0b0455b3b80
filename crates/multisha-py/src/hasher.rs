//! `hashlib`-compatible hash objects: `multisha.sha256(data)`, `multisha.new("sha256")`, with
//! `update`, `digest`, `hexdigest`, `copy`, `name`, `digest_size`, `block_size`.

use crate::buffer::Bytes;
use crate::function::{Function, with_function};
use multisha::Digest;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

/// Updates at least this long are hashed with the GIL released (as `hashlib` does from 2 KiB):
/// below it, releasing and taking the GIL back costs more than it lets other threads do.
const DETACH_FROM: usize = 2048;

/// The running state of one of the seven functions.
#[derive(Clone)]
enum State {
    Sha1(multisha::Sha1),
    Sha224(multisha::Sha224),
    Sha256(multisha::Sha256),
    Sha384(multisha::Sha384),
    Sha512(multisha::Sha512),
    Sha512_224(multisha::Sha512_224),
    Sha512_256(multisha::Sha512_256),
}

/// Runs `$body` with `$h` bound to the hasher inside state `$s`.
macro_rules! with_state {
    ($s:expr, $h:ident => $body:expr) => {
        match $s {
            State::Sha1($h) => $body,
            State::Sha224($h) => $body,
            State::Sha256($h) => $body,
            State::Sha384($h) => $body,
            State::Sha512($h) => $body,
            State::Sha512_224($h) => $body,
            State::Sha512_256($h) => $body,
        }
    };
}

impl State {
    fn new(function: Function) -> State {
        match function {
            Function::Sha1 => State::Sha1(Default::default()),
            Function::Sha224 => State::Sha224(Default::default()),
            Function::Sha256 => State::Sha256(Default::default()),
            Function::Sha384 => State::Sha384(Default::default()),
            Function::Sha512 => State::Sha512(Default::default()),
            Function::Sha512_224 => State::Sha512_224(Default::default()),
            Function::Sha512_256 => State::Sha512_256(Default::default()),
        }
    }

    fn update(&mut self, data: &[u8]) {
        with_state!(self, h => h.update(data))
    }

    fn digest(&self) -> Vec<u8> {
        with_state!(self, h => h.clone().finalize().to_vec())
    }
}

/// A hash object, as `hashlib`'s: `update` with more data, `digest` or `hexdigest` of what it
/// has had so far (it can go on after), `copy` to branch. Threads may share one, as hashlib's:
/// its state is behind a lock, waited for without the GIL.
#[pyclass(module = "multisha", name = "Hash", frozen)]
pub(crate) struct Hash {
    function: Function,
    state: Mutex<State>,
}

impl Hash {
    /// A hash object of `function`, given `data` first.
    pub(crate) fn new(function: Function, data: Option<&Bound<'_, PyAny>>) -> PyResult<Hash> {
        let hash = Hash {
            function,
            state: Mutex::new(State::new(function)),
        };
        if let Some(data) = data {
            hash.update_with(data)?;
        }
        Ok(hash)
    }

    /// The state, locked (a panic while it was held left it whole: each update is one call).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `f` of the state: at once if no other thread holds it, else once it is free, waited for
    /// without the GIL (whose holder could otherwise be the one that must finish first).
    fn with_state<R: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut State) -> R + Send) -> R {
        match self.state.try_lock() {
            Ok(mut state) => f(&mut state),
            Err(TryLockError::Poisoned(poisoned)) => f(&mut poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => py.detach(|| f(&mut self.lock())),
        }
    }

    fn update_with(&self, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = data.py();
        let bytes = Bytes::of(data)?;
        let slice = bytes.as_slice();
        if slice.len() >= DETACH_FROM && bytes.immutable() {
            py.detach(|| self.lock().update(slice));
            return Ok(());
        }
        match self.state.try_lock() {
            Ok(mut state) => state.update(slice),
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner().update(slice),
            // Waited for without the GIL, so on a copy: a mutable buffer's owner could change
            // it meanwhile.
            Err(TryLockError::WouldBlock) => {
                let owned = slice.to_vec();
                py.detach(|| self.lock().update(&owned));
            }
        }
        Ok(())
    }
}

#[pymethods]
impl Hash {
    /// Hashes `data` (any object with the buffer protocol) after what came before.
    fn update(&self, data: &Bound<'_, PyAny>) -> PyResult<()> {
        self.update_with(data)
    }

    /// The digest of everything given so far, as bytes.
    fn digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.with_state(py, |state| state.digest()))
    }

    /// The digest of everything given so far, as a string of hexadecimal digits.
    fn hexdigest(&self, py: Python<'_>) -> String {
        self.with_state(py, |state| state.digest())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// An independent copy of this hash object.
    fn copy(&self, py: Python<'_>) -> Hash {
        Hash {
            function: self.function,
            state: Mutex::new(self.with_state(py, |state| state.clone())),
        }
    }

    /// The function's name, as `hashlib` spells it (`"sha256"`).
    #[getter]
    fn name(&self) -> &'static str {
        self.function.name()
    }

    /// Bytes of the digest.
    #[getter]
    fn digest_size(&self) -> usize {
        self.function.digest_size()
    }

    /// Bytes of the function's block.
    #[getter]
    fn block_size(&self) -> usize {
        self.function.block_size()
    }

    fn __repr__(&self) -> String {
        format!("<{} multisha.Hash object>", self.function.name())
    }
}

/// `hashlib.new`: a hash object of the function named `name`.
#[pyfunction]
#[pyo3(signature = (name, data = None, *, usedforsecurity = true))]
pub(crate) fn new(
    name: &str,
    data: Option<&Bound<'_, PyAny>>,
    usedforsecurity: bool,
) -> PyResult<Hash> {
    let _ = usedforsecurity;
    Hash::new(Function::from_name(name)?, data)
}

/// The constructors `multisha.sha1(data=b"")` ... `multisha.sha512_256(data=b"")`.
macro_rules! constructors {
    ($($name:ident => $function:ident;)*) => {$(
        #[doc = concat!("A `", stringify!($name), "` hash object (as `hashlib.", stringify!($name), "`), given `data` first.")]
        #[pyfunction]
        #[pyo3(signature = (data = None, *, usedforsecurity = true, string = None))]
        pub(crate) fn $name(
            data: Option<&Bound<'_, PyAny>>,
            usedforsecurity: bool,
            string: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Hash> {
            let _ = usedforsecurity;
            let data = match (data, string) {
                (Some(_), Some(_)) => {
                    return Err(pyo3::exceptions::PyTypeError::new_err(
                        "'data' and 'string' are mutually exclusive and support for 'string' keyword parameter is slated for removal in a future version.",
                    ))
                }
                (data, string) => data.or(string),
            };
            Hash::new(Function::$function, data)
        }
    )*};
}

constructors! {
    sha1 => Sha1;
    sha224 => Sha224;
    sha256 => Sha256;
    sha384 => Sha384;
    sha512 => Sha512;
    sha512_224 => Sha512_224;
    sha512_256 => Sha512_256;
}

/// The digest of one message as the function named `name`, in one call (the fastest path for a
/// short message): `multisha.digest("sha256", data)`.
#[pyfunction]
pub(crate) fn digest<'py>(
    py: Python<'py>,
    name: &str,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let function = Function::from_name(name)?;
    let bytes = Bytes::of(data)?;
    let slice = bytes.as_slice();
    let hash = || with_function!(function, H => <H as multisha::HashFunction>::oneshot(slice).as_ref().to_vec());
    let out = if slice.len() >= DETACH_FROM && bytes.immutable() {
        py.detach(hash)
    } else {
        hash()
    };
    Ok(PyBytes::new(py, &out))
}
