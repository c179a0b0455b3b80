//! `multisha.pbkdf2_hmac`, with `hashlib.pbkdf2_hmac`'s signature and errors.

use crate::buffer::Bytes;
use crate::function::{Function, with_function};
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::num::NonZeroU32;
use zeroize::Zeroizing;

/// `hashlib.pbkdf2_hmac(hash_name, password, salt, iterations, dklen=None)`: the derived key,
/// `dklen` bytes (the digest size if `None`). The GIL is released while it derives.
#[pyfunction]
#[pyo3(signature = (hash_name, password, salt, iterations, dklen = None))]
pub(crate) fn pbkdf2_hmac<'py>(
    py: Python<'py>,
    hash_name: &str,
    password: &Bound<'py, PyAny>,
    salt: &Bound<'py, PyAny>,
    iterations: i64,
    dklen: Option<i64>,
) -> PyResult<Bound<'py, PyBytes>> {
    let function = Function::from_name(hash_name)?;
    // Copied (the password wiped after): the derivation runs without the GIL, whatever
    // object held them.
    let password = Zeroizing::new(Bytes::of(password)?.as_slice().to_vec());
    let salt = Bytes::of(salt)?.as_slice().to_vec();
    // hashlib's checks and wording, in its order.
    if iterations < 1 {
        return Err(PyValueError::new_err(
            "iteration value must be greater than 0.",
        ));
    }
    if iterations > i64::from(i32::MAX) {
        return Err(PyOverflowError::new_err("iteration value is too great."));
    }
    let dklen = dklen.unwrap_or(function.digest_size() as i64);
    if dklen < 1 {
        return Err(PyValueError::new_err("key length must be greater than 0."));
    }
    if dklen > i64::from(i32::MAX) {
        return Err(PyOverflowError::new_err("key length is too great."));
    }
    let iterations = NonZeroU32::new(iterations as u32).expect("checked above");
    let mut key = Zeroizing::new(vec![0u8; dklen as usize]);
    let derived = py.detach(|| {
        with_function!(function, H => multisha::pbkdf2_hmac::<H>(&password, &salt, iterations, &mut key))
    });
    derived.map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &key))
}
