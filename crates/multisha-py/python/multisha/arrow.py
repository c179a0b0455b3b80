"""Arrow columns hashed where they lie: ``multisha.arrow.sha256(array)``.

Each function takes a binary or string array of any layout (``binary``, ``large_binary``,
``binary_view``, ``string``, ``large_string``, ``string_view``; a string hashes as its UTF-8
bytes) as a pyarrow ``Array`` or ``ChunkedArray`` or any object with the Arrow PyCapsule
protocol (``__arrow_c_array__``, ``__arrow_c_stream__``), reads the values through the Arrow C
data interface without copying them, and returns a ``FixedSizeBinary(digest_size)`` array of
the same length (chunked as the input), nulls kept null. The ``hmac_*`` functions return the
HMAC tags of the values under one key, prepared once.

Long columns (from 65,536 values per thread) are split across ``threads`` threads, by default
as many as the CPUs the process may use (as Polars and pyarrow.compute use theirs); pass
``threads=1`` where the caller runs one task per core already (Spark, Ray, a process pool).
The GIL is released while the values hash.

Needs pyarrow (``pip install multisha[arrow]``).
"""

import pyarrow as pa

from . import _columns, _multisha

__all__ = _columns.EXPORTS


def _canonical(name):
    # The extension knows every spelling hashlib.new takes; this module's tables use its own.
    return _multisha.new(name).name


def _one(name, array, key, threads):
    return pa.array(_multisha._arrow_hash(name, array, key, threads))


def _hash(name, values, key=None, threads=None):
    name = _canonical(name)
    if isinstance(values, pa.ChunkedArray):
        chunks = [_one(name, chunk, key, threads) for chunk in values.chunks]
        return pa.chunked_array(chunks, type=pa.binary(_columns.SIZES[name]))
    if hasattr(values, "__arrow_c_array__"):
        return _one(name, values, key, threads)
    if hasattr(values, "__arrow_c_stream__"):
        return _hash(name, pa.chunked_array(values), key, threads)
    raise TypeError(
        "multisha.arrow takes a pyarrow Array or ChunkedArray, or an object with the Arrow "
        f"PyCapsule protocol, not {type(values).__name__!r}"
    )


globals().update(
    _columns.functions(
        _hash,
        "a binary or string Arrow array",
        "a FixedSizeBinary({size}) array with nulls kept null",
    )
)
