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

from . import _multisha

__all__ = [
    "digests",
    "hmac",
    "sha1",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "sha512_224",
    "sha512_256",
    "hmac_sha1",
    "hmac_sha224",
    "hmac_sha256",
    "hmac_sha384",
    "hmac_sha512",
    "hmac_sha512_224",
    "hmac_sha512_256",
]

_SIZES = {
    "sha1": 20,
    "sha224": 28,
    "sha256": 32,
    "sha384": 48,
    "sha512": 64,
    "sha512_224": 28,
    "sha512_256": 32,
}


def _canonical(name):
    # The extension knows every spelling hashlib.new takes; this module's tables use its own.
    return _multisha.new(name).name


def _one(name, array, key, threads):
    return pa.array(_multisha._arrow_hash(name, array, key, threads))


def _hash(name, values, key=None, threads=None):
    name = _canonical(name)
    if isinstance(values, pa.ChunkedArray):
        chunks = [_one(name, chunk, key, threads) for chunk in values.chunks]
        return pa.chunked_array(chunks, type=pa.binary(_SIZES[name]))
    if hasattr(values, "__arrow_c_array__"):
        return _one(name, values, key, threads)
    if hasattr(values, "__arrow_c_stream__"):
        return _hash(name, pa.chunked_array(values), key, threads)
    raise TypeError(
        "multisha.arrow takes a pyarrow Array or ChunkedArray, or an object with the Arrow "
        f"PyCapsule protocol, not {type(values).__name__!r}"
    )


def digests(name, values, *, threads=None):
    """The digests of ``values`` as the function named ``name`` (as ``hashlib.new`` names it)."""
    return _hash(name, values, None, threads)


def hmac(name, key, values, *, threads=None):
    """The HMAC tags of ``values`` under ``key`` with the function named ``name``."""
    return _hash(name, values, key, threads)


def _plain(name):
    def function(values, *, threads=None):
        return _hash(name, values, None, threads)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"The {name} digests of ``values`` (a binary or string Arrow array), as a "
        f"FixedSizeBinary({_SIZES[name]}) array with nulls kept null."
    )
    return function


def _keyed(name):
    def function(key, values, *, threads=None):
        return _hash(name, values, key, threads)

    function.__name__ = function.__qualname__ = f"hmac_{name}"
    function.__doc__ = (
        f"The HMAC-{name} tags of ``values`` (a binary or string Arrow array) under ``key``, as "
        f"a FixedSizeBinary({_SIZES[name]}) array with nulls kept null."
    )
    return function


sha1 = _plain("sha1")
sha224 = _plain("sha224")
sha256 = _plain("sha256")
sha384 = _plain("sha384")
sha512 = _plain("sha512")
sha512_224 = _plain("sha512_224")
sha512_256 = _plain("sha512_256")
hmac_sha1 = _keyed("sha1")
hmac_sha224 = _keyed("sha224")
hmac_sha256 = _keyed("sha256")
hmac_sha384 = _keyed("sha384")
hmac_sha512 = _keyed("sha512")
hmac_sha512_224 = _keyed("sha512_224")
hmac_sha512_256 = _keyed("sha512_256")
