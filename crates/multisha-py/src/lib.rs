//! The Python extension module `multisha._multisha`: `hashlib`-compatible hash objects, many
//! messages per call, HMAC of many messages under one key, PBKDF2, and Arrow columns, on the
//! `multisha` engine. The Python package (`python/multisha`) re-exports it and adds the Arrow
//! and Polars wrappers.

mod arrow;
mod buffer;
mod function;
mod hasher;
mod many;
mod pbkdf2;

use function::Function;
use pyo3::prelude::*;

/// The names of the functions, as `hashlib.algorithms_guaranteed` lists its own.
fn names() -> Vec<&'static str> {
    Function::ALL.iter().map(|f| f.name()).collect()
}

/// What the engine runs on this CPU: per algorithm id (`"sha256"`), the single-message
/// variant and the many-message variant the batches go to when not planned (`multisha
/// variants` on the command line lists them all).
#[pyfunction]
fn active() -> std::collections::BTreeMap<&'static str, (&'static str, &'static str)> {
    multisha::engine::Algorithm::ALL
        .iter()
        .map(|a| {
            (
                a.id(),
                (a.active().variant.name(), a.active_many().variant.name()),
            )
        })
        .collect()
}

#[pymodule]
fn _multisha(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<hasher::Hash>()?;
    m.add_class::<arrow::ArrowDigests>()?;
    m.add_function(wrap_pyfunction!(hasher::new, m)?)?;
    m.add_function(wrap_pyfunction!(hasher::digest, m)?)?;
    m.add_function(wrap_pyfunction!(hasher::sha1, m)?)?;
    m.add_function(wrap_pyfunction!(hasher::sha224, m)?)?;
    m.add_function(wrap_pyfunction!(hasher::sha256, m)?)?;
    m.add_function(wrap_pyfunction!(hasher::sha384, m)?)?;
    m.add_function(wrap_pyfunction!(hasher::sha512, m)?)?;
    m.add_function(wrap_pyfunction!(hasher::sha512_224, m)?)?;
    m.add_function(wrap_pyfunction!(hasher::sha512_256, m)?)?;
    m.add_function(wrap_pyfunction!(many::many, m)?)?;
    m.add_function(wrap_pyfunction!(many::hmac_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::sha1_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::sha224_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::sha256_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::sha384_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::sha512_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::sha512_224_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::sha512_256_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::hmac_sha1_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::hmac_sha224_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::hmac_sha256_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::hmac_sha384_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::hmac_sha512_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::hmac_sha512_224_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::hmac_sha512_256_many, m)?)?;
    m.add_function(wrap_pyfunction!(pbkdf2::pbkdf2_hmac, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::arrow_hash, m)?)?;
    m.add_function(wrap_pyfunction!(active, m)?)?;
    m.add(
        "algorithms_guaranteed",
        pyo3::types::PyFrozenSet::new(m.py(), names())?,
    )?;
    m.add(
        "algorithms_available",
        pyo3::types::PyFrozenSet::new(m.py(), names())?,
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
