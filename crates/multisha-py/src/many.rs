//! Many messages per call: `multisha.sha256_many(items)`, `multisha.hmac_sha256_many(key,
//! items)`, and the other functions' (`multisha.many("sha256", items)` by name), on the
//! engine's batch functions.

use crate::buffer::Bytes;
use crate::function::{Function, with_function};
use multisha::HashFunction;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use zeroize::Zeroizing;

/// The digests of `messages` as `H`, HMAC-`H` under `key` if there is one.
pub(crate) fn hash_into<H: HashFunction>(
    key: Option<&[u8]>,
    messages: &[&[u8]],
    digests: &mut [H::Digest],
) {
    match key {
        Some(key) => multisha::hmac_many::<H>(key, messages, digests),
        None => H::oneshot_many(messages, digests),
    }
}

/// The digests of `messages` as `function` (HMAC under `key` if given), laid end to end.
pub(crate) fn hash_flat(function: Function, key: Option<&[u8]>, messages: &[&[u8]]) -> Vec<u8> {
    with_function!(function, H => {
        let mut digests = vec![<H as HashFunction>::ZERO; messages.len()];
        hash_into::<H>(key, messages, &mut digests);
        digests.iter().flat_map(|d| d.as_ref().iter().copied()).collect()
    })
}

/// The digests of the items of `items` (any iterable of objects with the buffer protocol) as
/// `function`, HMAC under `key` if given, as a list of bytes. The GIL is released while
/// they hash when every item is a `bytes` (which nothing can change meanwhile).
fn many_list<'py>(
    py: Python<'py>,
    function: Function,
    key: Option<&Bound<'py, PyAny>>,
    items: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let held: Vec<Bytes<'py>> = items
        .try_iter()?
        .map(|item| Bytes::of(&item?))
        .collect::<PyResult<_>>()?;
    let key = key.map(Bytes::of).transpose()?;
    let immutable = held.iter().all(Bytes::immutable);
    let messages: Vec<&[u8]> = held.iter().map(Bytes::as_slice).collect();
    // The key is copied (a short value, wiped after): the hashing may then run without the
    // GIL whatever object held it.
    let key: Option<Zeroizing<Vec<u8>>> =
        key.as_ref().map(|k| Zeroizing::new(k.as_slice().to_vec()));
    let key = key.as_ref().map(|k| k.as_slice());
    let run = || hash_flat(function, key, &messages);
    let flat = if immutable && messages.len() > 1 {
        py.detach(run)
    } else {
        run()
    };
    let size = function.digest_size();
    PyList::new(py, flat.chunks_exact(size).map(|d| PyBytes::new(py, d)))
}

/// `multisha.many(name, items)`: the digests of `items` as the function named `name`.
#[pyfunction]
pub(crate) fn many<'py>(
    py: Python<'py>,
    name: &str,
    items: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    many_list(py, Function::from_name(name)?, None, items)
}

/// `multisha.hmac_many(name, key, items)`: HMAC tags of `items` under `key` with the function
/// named `name`.
#[pyfunction]
pub(crate) fn hmac_many<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    items: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    many_list(py, Function::from_name(name)?, Some(key), items)
}

/// `multisha.sha256_many(items)` ... and `multisha.hmac_sha256_many(key, items)` ...
macro_rules! batch_functions {
    ($($many:ident, $hmac:ident => $function:ident;)*) => {$(
        #[doc = concat!("The `", stringify!($function), "` digests of `items` (any iterable of bytes-like objects), as a list of bytes.")]
        #[pyfunction]
        pub(crate) fn $many<'py>(py: Python<'py>, items: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
            many_list(py, Function::$function, None, items)
        }

        #[doc = concat!("The HMAC-`", stringify!($function), "` tags of `items` under `key`, the key prepared once, as a list of bytes.")]
        #[pyfunction]
        pub(crate) fn $hmac<'py>(
            py: Python<'py>,
            key: &Bound<'py, PyAny>,
            items: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyList>> {
            many_list(py, Function::$function, Some(key), items)
        }
    )*};
}

batch_functions! {
    sha1_many, hmac_sha1_many => Sha1;
    sha224_many, hmac_sha224_many => Sha224;
    sha256_many, hmac_sha256_many => Sha256;
    sha384_many, hmac_sha384_many => Sha384;
    sha512_many, hmac_sha512_many => Sha512;
    sha512_224_many, hmac_sha512_224_many => Sha512_224;
    sha512_256_many, hmac_sha512_256_many => Sha512_256;
}
