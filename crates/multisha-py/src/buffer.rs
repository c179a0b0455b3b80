//! Bytes from any Python object with the buffer protocol (`bytes`, `bytearray`, `memoryview`,
//! `array.array`, NumPy arrays, `mmap`), read where they are, as `hashlib` reads them.
//!
//! `PyObject_GetBuffer` joined the limited API only in Python 3.11, but CPython has exported it
//! (and the layout of `Py_buffer`, unchanged since 3.3) in every version this abi3 wheel loads
//! into (3.9 on); the declarations are this file's own.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::ffi::{c_char, c_int, c_void};

/// CPython's `Py_buffer` (Include/pybuffer.h).
#[repr(C)]
struct RawBuffer {
    buf: *mut c_void,
    obj: *mut ffi::PyObject,
    len: ffi::Py_ssize_t,
    itemsize: ffi::Py_ssize_t,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut ffi::Py_ssize_t,
    strides: *mut ffi::Py_ssize_t,
    suboffsets: *mut ffi::Py_ssize_t,
    internal: *mut c_void,
}

/// `PyBUF_SIMPLE`: one contiguous run of bytes, whatever the item type.
const SIMPLE: c_int = 0;

unsafe extern "C" {
    fn PyObject_GetBuffer(obj: *mut ffi::PyObject, view: *mut RawBuffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut RawBuffer);
}

/// The bytes of a Python object, held (exported) until this is dropped: a `bytearray` cannot be
/// resized meanwhile.
pub(crate) struct Bytes<'py> {
    view: RawBuffer,
    /// Whether the object is a `bytes`, which nothing can change while it is held: only
    /// those are hashed with the GIL released ([`Bytes::immutable`]).
    immutable: bool,
    _py: Python<'py>,
}

impl<'py> Bytes<'py> {
    /// The bytes of `object`: a `TypeError` for a `str` (as `hashlib`: "Strings must be encoded
    /// before hashing") or an object without the buffer protocol, a `BufferError` for a
    /// buffer that is not one contiguous run.
    pub(crate) fn of(object: &Bound<'py, PyAny>) -> PyResult<Self> {
        if object.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "Strings must be encoded before hashing",
            ));
        }
        let mut view = std::mem::MaybeUninit::<RawBuffer>::zeroed();
        // SAFETY: `object` is a live object (the GIL is held: `Bound`); the view is written by
        // CPython and released in `Drop` only when this call succeeded.
        let status = unsafe { PyObject_GetBuffer(object.as_ptr(), view.as_mut_ptr(), SIMPLE) };
        if status != 0 {
            let err = PyErr::take(object.py()).unwrap_or_else(|| {
                PyTypeError::new_err("object supporting the buffer API required")
            });
            // hashlib's wording for an object without the protocol.
            if err.is_instance_of::<PyTypeError>(object.py()) {
                return Err(PyTypeError::new_err(format!(
                    "object supporting the buffer API required, not '{}'",
                    object.get_type().name()?
                )));
            }
            return Err(err);
        }
        Ok(Bytes {
            // SAFETY: written by the successful call above.
            view: unsafe { view.assume_init() },
            immutable: object.is_exact_instance_of::<PyBytes>(),
            _py: object.py(),
        })
    }

    /// The bytes.
    pub(crate) fn as_slice(&self) -> &[u8] {
        if self.view.len == 0 {
            return &[];
        }
        // SAFETY: a `PyBUF_SIMPLE` view is `len` contiguous bytes at `buf`, valid until it is
        // released (in `Drop`, which this borrow outlives).
        unsafe { std::slice::from_raw_parts(self.view.buf.cast::<u8>(), self.view.len as usize) }
    }

    /// Whether nothing can change the bytes while they are held (a `bytes` object), so that
    /// they may be read with the GIL released; a `bytearray` or an array could be written by
    /// another thread meanwhile, so those are hashed with the GIL held.
    pub(crate) fn immutable(&self) -> bool {
        self.immutable
    }
}

impl Drop for Bytes<'_> {
    fn drop(&mut self) {
        // SAFETY: the view was filled by a successful `PyObject_GetBuffer` and is released
        // once; the GIL is held (`'py`).
        unsafe { PyBuffer_Release(&mut self.view) };
    }
}
