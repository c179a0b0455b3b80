//! Arrow columns through the Arrow C data interface, by the PyCapsule protocol
//! (`__arrow_c_array__`: pyarrow's arrays, nanoarrow's, arro3's, ...): the values are read in
//! place from the producer's buffers, and the digests come back as a new `FixedSizeBinary(n)`
//! array, exported the same way, with nulls kept null.
//!
//! Binary and string arrays of every layout: 32-bit offsets (`binary`, `string`), 64-bit
//! offsets (`large_binary`, `large_string`), views (`binary_view`, `string_view`). A string
//! hashes as its UTF-8 bytes.

use crate::function::{Function, with_function};
use crate::many::hash_into;
use multisha::HashFunction;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};
use std::ffi::{CStr, CString, c_char, c_void};
use std::sync::Arc;
use zeroize::Zeroizing;

/// The C data interface's `ArrowSchema`.
#[repr(C)]
struct ArrowSchema {
    format: *const c_char,
    name: *const c_char,
    metadata: *const c_char,
    flags: i64,
    n_children: i64,
    children: *mut *mut ArrowSchema,
    dictionary: *mut ArrowSchema,
    release: Option<unsafe extern "C" fn(*mut ArrowSchema)>,
    private_data: *mut c_void,
}

/// The C data interface's `ArrowArray`.
#[repr(C)]
struct ArrowArray {
    length: i64,
    null_count: i64,
    offset: i64,
    n_buffers: i64,
    n_children: i64,
    buffers: *mut *const c_void,
    children: *mut *mut ArrowArray,
    dictionary: *mut ArrowArray,
    release: Option<unsafe extern "C" fn(*mut ArrowArray)>,
    private_data: *mut c_void,
}

const SCHEMA_CAPSULE: &CStr = c"arrow_schema";
const ARRAY_CAPSULE: &CStr = c"arrow_array";
/// `ARROW_FLAG_NULLABLE`.
const NULLABLE: i64 = 2;

/// How an input array lays out its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// `binary`, `string`: 32-bit offsets into one data buffer.
    Offsets32,
    /// `large_binary`, `large_string`: 64-bit offsets.
    Offsets64,
    /// `binary_view`, `string_view`: 16-byte views, short values inline.
    Views,
}

impl Layout {
    fn of(format: &CStr) -> PyResult<Layout> {
        match format.to_bytes() {
            b"z" | b"u" => Ok(Layout::Offsets32),
            b"Z" | b"U" => Ok(Layout::Offsets64),
            b"vz" | b"vu" => Ok(Layout::Views),
            other => Err(PyTypeError::new_err(format!(
                "multisha.arrow hashes binary and string arrays (binary, large_binary, \
                 binary_view, string, large_string, string_view), not Arrow format '{}'",
                String::from_utf8_lossy(other)
            ))),
        }
    }
}

/// The pointer a capsule named `name` holds.
fn capsule_pointer<T>(capsule: &Bound<'_, PyAny>, name: &CStr) -> PyResult<*mut T> {
    let capsule = capsule.cast::<PyCapsule>().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a PyCapsule named {name:?} from __arrow_c_array__"
        ))
    })?;
    // SAFETY: a live capsule (GIL held); the name is checked by CPython, which sets an error
    // and returns null on a mismatch.
    let pointer = unsafe { ffi::PyCapsule_GetPointer(capsule.as_ptr(), name.as_ptr()) };
    if pointer.is_null() {
        return Err(PyErr::take(capsule.py())
            .unwrap_or_else(|| PyValueError::new_err(format!("an empty {name:?} capsule"))));
    }
    Ok(pointer.cast())
}

/// An input array's values, read in place from the producer's buffers (alive as long as the
/// capsules that hold them, which the caller keeps for `'a`).
struct Column<'a> {
    layout: Layout,
    /// Slots, and the first slot's index in the buffers.
    len: usize,
    offset: usize,
    /// The validity bitmap, if some slot is null.
    validity: Option<*const u8>,
    /// Offsets (32 or 64 bits) or views, by layout.
    index: *const c_void,
    /// The data buffer (offsets), or the variadic data buffers and their sizes (views).
    data: *const u8,
    variadic: &'a [*const c_void],
    sizes: *const i64,
}

// SAFETY: the column only reads buffers that Arrow's contract makes immutable while exported;
// it is used on one thread at a time (sent into a closure that runs without the GIL).
unsafe impl Send for Column<'_> {}
// SAFETY: as above: only reads.
unsafe impl Sync for Column<'_> {}

impl<'a> Column<'a> {
    /// The column exported in `schema` and `array`.
    fn new(schema: &'a ArrowSchema, array: &'a ArrowArray) -> PyResult<Column<'a>> {
        if schema.release.is_none() || array.release.is_none() {
            return Err(PyValueError::new_err(
                "the Arrow array was already released",
            ));
        }
        if schema.format.is_null() {
            return Err(PyValueError::new_err("an Arrow schema without a format"));
        }
        // SAFETY: a live schema's format is a NUL-terminated string.
        let format = unsafe { CStr::from_ptr(schema.format) };
        if !schema.dictionary.is_null() {
            return Err(PyTypeError::new_err(
                "multisha.arrow does not hash dictionary-encoded arrays: decode them first \
                 (pyarrow: array.dictionary_decode())",
            ));
        }
        let layout = Layout::of(format)?;
        let len = usize::try_from(array.length)
            .map_err(|_| PyValueError::new_err("an Arrow array of negative length"))?;
        let offset = usize::try_from(array.offset)
            .map_err(|_| PyValueError::new_err("an Arrow array at a negative offset"))?;
        let n_buffers = usize::try_from(array.n_buffers).unwrap_or(0);
        // Validity, offsets and data; or validity, views, the data buffers and their sizes.
        if n_buffers < 3 || array.buffers.is_null() {
            return Err(PyValueError::new_err(format!(
                "an Arrow array of format '{}' with {n_buffers} buffers",
                format.to_string_lossy()
            )));
        }
        // SAFETY: `n_buffers` pointers at `buffers`, as the interface defines.
        let buffers = unsafe { std::slice::from_raw_parts(array.buffers, n_buffers) };
        let validity = buffers[0].cast::<u8>();
        let index = buffers[1];
        if len > 0 && index.is_null() {
            return Err(PyValueError::new_err(
                "an Arrow array without offsets or views",
            ));
        }
        let (data, variadic, sizes) = match layout {
            Layout::Views => (
                std::ptr::null(),
                &buffers[2..n_buffers - 1],
                buffers[n_buffers - 1].cast::<i64>(),
            ),
            _ => (buffers[2].cast::<u8>(), &[][..], std::ptr::null()),
        };
        Ok(Column {
            layout,
            len,
            offset,
            validity: (array.null_count != 0 && !validity.is_null()).then_some(validity),
            index,
            data,
            variadic,
            sizes,
        })
    }

    /// Whether slot `i` holds a value.
    #[inline]
    fn is_valid(&self, i: usize) -> bool {
        match self.validity {
            None => true,
            Some(bits) => {
                let i = self.offset + i;
                // SAFETY: the bitmap holds a bit for every slot of offset + length.
                unsafe { *bits.add(i / 8) >> (i % 8) & 1 == 1 }
            }
        }
    }

    /// The value of slot `i` (a valid one): an error for offsets or views that point outside
    /// what they index.
    #[inline]
    fn value(&self, i: usize) -> Result<&'a [u8], String> {
        let slot = self.offset + i;
        let (start, end) = match self.layout {
            // SAFETY: offset + length + 1 offsets of the layout's width (read unaligned: the
            // interface recommends aligned buffers, it does not promise them).
            Layout::Offsets32 => unsafe {
                let offsets = self.index.cast::<i32>();
                (
                    i64::from(offsets.add(slot).read_unaligned()),
                    i64::from(offsets.add(slot + 1).read_unaligned()),
                )
            },
            // SAFETY: as above.
            Layout::Offsets64 => unsafe {
                let offsets = self.index.cast::<i64>();
                (
                    offsets.add(slot).read_unaligned(),
                    offsets.add(slot + 1).read_unaligned(),
                )
            },
            Layout::Views => return self.view(i),
        };
        if start < 0 || end < start {
            return Err(format!(
                "an Arrow array whose offsets go from {start} to {end} at slot {i}"
            ));
        }
        if end == start {
            return Ok(&[]);
        }
        if self.data.is_null() {
            return Err(format!(
                "an Arrow array without a data buffer has a value at slot {i}"
            ));
        }
        // SAFETY: the data buffer holds every byte the offsets point at.
        Ok(unsafe {
            std::slice::from_raw_parts(self.data.add(start as usize), (end - start) as usize)
        })
    }

    /// The value of view slot `i`: up to 12 bytes inline, else in a data buffer.
    #[inline]
    fn view(&self, i: usize) -> Result<&'a [u8], String> {
        // SAFETY: 16 bytes per slot of offset + length.
        let view: &'a [u8; 16] = unsafe {
            &*self
                .index
                .cast::<u8>()
                .add((self.offset + i) * 16)
                .cast::<[u8; 16]>()
        };
        let word = |k: usize| i32::from_le_bytes([view[k], view[k + 1], view[k + 2], view[k + 3]]);
        let len =
            usize::try_from(word(0)).map_err(|_| format!("a negative view length at slot {i}"))?;
        if len <= 12 {
            return Ok(&view[4..4 + len]);
        }
        let buffer = usize::try_from(word(8))
            .ok()
            .filter(|&b| b < self.variadic.len());
        let (Some(buffer), Ok(start)) = (buffer, usize::try_from(word(12))) else {
            return Err(format!(
                "an Arrow view at slot {i} points outside its data buffers"
            ));
        };
        // SAFETY: the sizes buffer holds one size per variadic buffer.
        let size = unsafe { self.sizes.add(buffer).read_unaligned() };
        let data = self.variadic[buffer];
        if (start + len) as i64 > size || data.is_null() {
            return Err(format!(
                "an Arrow view at slot {i} runs past the end of data buffer {buffer}"
            ));
        }
        // SAFETY: checked against the buffer's size just above.
        Ok(unsafe { std::slice::from_raw_parts(data.cast::<u8>().add(start), len) })
    }

    /// The validity bitmap from slot 0 and the slots that hold no value, in one pass; `None`
    /// when every slot holds one.
    fn validity_from_zero(&self) -> Option<(Vec<u8>, usize)> {
        self.validity?;
        let mut bitmap = vec![0u8; self.len.div_ceil(8)];
        let mut nulls = 0;
        for i in 0..self.len {
            if self.is_valid(i) {
                bitmap[i / 8] |= 1 << (i % 8);
            } else {
                nulls += 1;
            }
        }
        (nulls > 0).then_some((bitmap, nulls))
    }
}

/// Slots hashed per batch call: the slices and digests of a chunk stay in the caches, reused
/// from chunk to chunk (a column's worth of them, allocated at once, cost more in page faults
/// than the hashing of 0-64-byte values), and a chunk is many times the widest lanes.
const CHUNK: usize = 4096;

/// Columns shorter than this many slots per thread run on fewer threads: a thread started
/// costs tens of microseconds, a few hundred short values' hashing.
const SLOTS_PER_THREAD: usize = 16 * CHUNK;

/// The digests (HMAC tags under `key`) of `column`'s values as `H` into `out` (`digest size`
/// bytes per slot, zeros under the nulls), on up to `threads` threads, each on its own
/// consecutive slots.
fn hash_column<H: HashFunction>(
    column: &Column<'_>,
    key: Option<&[u8]>,
    out: &mut [u8],
    threads: usize,
) -> Result<(), String> {
    let size = size_of::<H::Digest>();
    let threads = threads.min(column.len / SLOTS_PER_THREAD).max(1);
    if threads == 1 {
        return hash_slots::<H>(column, key, 0..column.len, out);
    }
    let per_thread = column.len.div_ceil(threads);
    std::thread::scope(|scope| {
        let parts: Vec<_> = out
            .chunks_mut(per_thread * size)
            .enumerate()
            .map(|(t, out)| {
                let first = t * per_thread;
                let slots = first..first + out.len() / size;
                scope.spawn(move || hash_slots::<H>(column, key, slots, out))
            })
            .collect();
        parts.into_iter().try_for_each(|part| {
            part.join()
                .unwrap_or_else(|_| Err("a hashing thread panicked".into()))
        })
    })
}

/// [`hash_column`] of slots `range` into `out` (theirs alone), a chunk at a time.
fn hash_slots<H: HashFunction>(
    column: &Column<'_>,
    key: Option<&[u8]>,
    range: std::ops::Range<usize>,
    out: &mut [u8],
) -> Result<(), String> {
    let size = size_of::<H::Digest>();
    let base = range.start;
    let mut messages: Vec<&[u8]> = Vec::with_capacity(CHUNK);
    let mut slots: Vec<usize> = Vec::with_capacity(CHUNK);
    // On the heap: 256 KiB for SHA-512, more than some threads' whole stack.
    let mut digests: Vec<H::Digest> = std::iter::repeat_n(H::ZERO, CHUNK).collect();
    for first in range.clone().step_by(CHUNK) {
        let end = (first + CHUNK).min(range.end);
        messages.clear();
        slots.clear();
        for i in first..end {
            if column.is_valid(i) {
                messages.push(column.value(i)?);
                slots.push(i);
            }
        }
        let digests = &mut digests[..messages.len()];
        hash_into::<H>(key, &messages, digests);
        for (&slot, digest) in slots.iter().zip(digests.iter()) {
            let at = (slot - base) * size;
            out[at..at + size].copy_from_slice(digest.as_ref());
        }
    }
    Ok(())
}

/// The digests of a column, owned by every export of them.
struct Digests {
    /// One bit per slot (set: a digest), when some slot is null.
    validity: Option<Vec<u8>>,
    /// The digests end to end, zeros under the nulls.
    data: Vec<u8>,
    len: usize,
    null_count: usize,
    size: usize,
}

/// What an exported array's `private_data` points at: the digests and the two buffer
/// pointers its `buffers` points at.
struct Exported {
    /// Kept alive as long as the export: the buffers point into it.
    _digests: Arc<Digests>,
    buffers: [*const c_void; 2],
}

/// What an exported schema's `private_data` points at: its format string.
struct ExportedSchema {
    format: CString,
}

unsafe extern "C" fn release_array(array: *mut ArrowArray) {
    // SAFETY: the consumer calls this once, on an array this module exported, whose private
    // data is a boxed `Exported`.
    unsafe {
        drop(Box::from_raw((*array).private_data.cast::<Exported>()));
        (*array).release = None;
    }
}

unsafe extern "C" fn release_schema(schema: *mut ArrowSchema) {
    // SAFETY: as `release_array`, for a boxed `ExportedSchema`.
    unsafe {
        drop(Box::from_raw(
            (*schema).private_data.cast::<ExportedSchema>(),
        ));
        (*schema).release = None;
    }
}

/// Frees a boxed `ArrowArray` this module made: released first unless a consumer moved it
/// out (and set `release` to null).
///
/// # Safety
/// `array` is such a box, freed once.
unsafe fn free_array(array: *mut ArrowArray) {
    // SAFETY: as the caller guarantees.
    unsafe {
        if let Some(release) = (*array).release {
            release(array);
        }
        drop(Box::from_raw(array));
    }
}

/// [`free_array`] for a boxed `ArrowSchema`.
///
/// # Safety
/// As [`free_array`].
unsafe fn free_schema(schema: *mut ArrowSchema) {
    // SAFETY: as the caller guarantees.
    unsafe {
        if let Some(release) = (*schema).release {
            release(schema);
        }
        drop(Box::from_raw(schema));
    }
}

unsafe extern "C" fn drop_array_capsule(capsule: *mut ffi::PyObject) {
    // SAFETY: the capsule holds a boxed `ArrowArray` of this module's; called once, by CPython,
    // with the GIL.
    unsafe {
        let array = ffi::PyCapsule_GetPointer(capsule, ARRAY_CAPSULE.as_ptr()).cast::<ArrowArray>();
        if array.is_null() {
            ffi::PyErr_Clear();
            return;
        }
        free_array(array);
    }
}

unsafe extern "C" fn drop_schema_capsule(capsule: *mut ffi::PyObject) {
    // SAFETY: as `drop_array_capsule`, for a boxed `ArrowSchema`.
    unsafe {
        let schema =
            ffi::PyCapsule_GetPointer(capsule, SCHEMA_CAPSULE.as_ptr()).cast::<ArrowSchema>();
        if schema.is_null() {
            ffi::PyErr_Clear();
            return;
        }
        free_schema(schema);
    }
}

/// A capsule named `name` that owns `pointer` (a boxed schema or array of this module's, freed
/// by `destructor`); if it cannot be made, the box is freed here.
///
/// # Safety
/// `pointer` is such a box, and `destructor` the one for its type.
unsafe fn capsule<'py>(
    py: Python<'py>,
    pointer: *mut c_void,
    name: &'static CStr,
    destructor: unsafe extern "C" fn(*mut ffi::PyObject),
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: the name is a static; the capsule takes ownership of the box.
    let raw = unsafe { ffi::PyCapsule_New(pointer, name.as_ptr(), Some(destructor)) };
    if raw.is_null() {
        // SAFETY: not owned by a capsule: freed here, as its type says.
        unsafe {
            if name == SCHEMA_CAPSULE {
                free_schema(pointer.cast());
            } else {
                free_array(pointer.cast());
            }
        }
        return Err(PyErr::fetch(py));
    }
    // SAFETY: a new reference.
    Ok(unsafe { Bound::from_owned_ptr(py, raw) })
}

/// The digests of an Arrow column, exported by `__arrow_c_array__` as a
/// `FixedSizeBinary(digest_size)` array (as many times as asked: every export shares them).
/// `pyarrow.array(digests)` imports it.
#[pyclass(module = "multisha", name = "ArrowDigests", frozen)]
pub(crate) struct ArrowDigests {
    digests: Arc<Digests>,
}

#[pymethods]
impl ArrowDigests {
    /// The Arrow PyCapsule protocol: a schema capsule and an array capsule.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // A requested schema is a hint the producer may ignore (the protocol's rule).
        let _ = requested_schema;
        let d = &self.digests;
        // Every pointer is taken from a box already turned into a raw pointer, which no move
        // invalidates.
        let private = Box::into_raw(Box::new(ExportedSchema {
            format: CString::new(format!("w:{}", d.size)).expect("no NUL"),
        }));
        let schema = Box::into_raw(Box::new(ArrowSchema {
            // SAFETY: `private` was just made; the string lives as long as the schema.
            format: unsafe { (*private).format.as_ptr() },
            name: c"".as_ptr(),
            metadata: std::ptr::null(),
            flags: NULLABLE,
            n_children: 0,
            children: std::ptr::null_mut(),
            dictionary: std::ptr::null_mut(),
            release: Some(release_schema),
            private_data: private.cast(),
        }));
        // SAFETY: `schema` is a boxed schema this function made, owned by the capsule.
        let schema = unsafe { capsule(py, schema.cast(), SCHEMA_CAPSULE, drop_schema_capsule)? };
        let exported = Box::into_raw(Box::new(Exported {
            _digests: Arc::clone(d),
            buffers: [
                d.validity
                    .as_ref()
                    .map_or(std::ptr::null(), |v| v.as_ptr().cast()),
                d.data.as_ptr().cast(),
            ],
        }));
        let array = Box::into_raw(Box::new(ArrowArray {
            length: d.len as i64,
            null_count: d.null_count as i64,
            offset: 0,
            n_buffers: 2,
            n_children: 0,
            // SAFETY: `exported` was just made; its buffers live as long as the array.
            buffers: unsafe { (*exported).buffers.as_mut_ptr() },
            children: std::ptr::null_mut(),
            dictionary: std::ptr::null_mut(),
            release: Some(release_array),
            private_data: exported.cast(),
        }));
        // SAFETY: as for the schema.
        let array = unsafe { capsule(py, array.cast(), ARRAY_CAPSULE, drop_array_capsule)? };
        PyTuple::new(py, [schema, array])
    }

    /// Slots (digests and nulls).
    fn __len__(&self) -> usize {
        self.digests.len
    }
}

/// `multisha._arrow_hash(name, array, key=None, threads=None)`: the digests (HMAC tags under
/// `key`) of the values of `array`, any object with `__arrow_c_array__`, as [`ArrowDigests`],
/// on up to `threads` threads (`None`: as many as the CPUs the process may use).
#[pyfunction]
#[pyo3(name = "_arrow_hash", signature = (name, array, key = None, threads = None))]
pub(crate) fn arrow_hash(
    py: Python<'_>,
    name: &str,
    array: &Bound<'_, PyAny>,
    key: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
) -> PyResult<ArrowDigests> {
    let threads = match threads {
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let function = Function::from_name(name)?;
    // Copied (wiped after): hashed without the GIL, whatever object held it.
    let key = key
        .map(|k| crate::buffer::Bytes::of(k).map(|b| Zeroizing::new(b.as_slice().to_vec())))
        .transpose()?;
    let key = key.as_ref().map(|k| k.as_slice());
    let exported = array.call_method0("__arrow_c_array__")?;
    let (schema, array) = exported
        .extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()
        .map_err(|_| PyTypeError::new_err("__arrow_c_array__ must return two capsules"))?;
    let schema_ptr = capsule_pointer::<ArrowSchema>(&schema, SCHEMA_CAPSULE)?;
    let array_ptr = capsule_pointer::<ArrowArray>(&array, ARRAY_CAPSULE)?;
    // SAFETY: the capsules hold the producer's structs, alive (and their buffers with them)
    // as long as the capsules, which this function holds to its end.
    let column = Column::new(unsafe { &*schema_ptr }, unsafe { &*array_ptr })?;
    let size = function.digest_size();
    let mut data = vec![0u8; column.len * size];
    // Arrow buffers are immutable: hashed with the GIL released.
    py.detach(|| with_function!(function, H => hash_column::<H>(&column, key, &mut data, threads)))
        .map_err(PyValueError::new_err)?;
    let (validity, null_count) = match column.validity_from_zero() {
        Some((bitmap, nulls)) => (Some(bitmap), nulls),
        None => (None, 0),
    };
    let digests = Digests {
        validity,
        data,
        len: column.len,
        null_count,
        size,
    };
    drop((schema, array));
    Ok(ArrowDigests {
        digests: Arc::new(digests),
    })
}
