"""multisha.arrow against hashlib on every binary and string layout."""

import hashlib
import hmac

import pyarrow as pa
import pytest

import multisha
import multisha.arrow
from conftest import NAMES, random_values

BINARY_TYPES = [pa.binary(), pa.large_binary(), pa.binary_view()]
STRING_TYPES = [pa.string(), pa.large_string(), pa.string_view()]


def expected(name, values, key=None):
    def one(v):
        if v is None:
            return None
        if isinstance(v, str):
            v = v.encode()
        return hmac.new(key, v, name).digest() if key is not None else hashlib.new(name, v).digest()

    return [one(v) for v in values]


def with_nulls(rng, values):
    return [None if rng.random() < 0.2 else v for v in values]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("type_", BINARY_TYPES, ids=str)
def test_binary_layouts(name, type_, rng):
    values = with_nulls(rng, random_values(rng, 300))
    column = pa.array(values, type=type_)
    result = getattr(multisha.arrow, name)(column)
    size = hashlib.new(name).digest_size
    assert result.type == pa.binary(size)
    assert result.to_pylist() == expected(name, values)
    assert result.null_count == column.null_count
    key = rng.randbytes(rng.randrange(200))
    assert getattr(multisha.arrow, f"hmac_{name}")(key, column).to_pylist() == expected(name, values, key)


@pytest.mark.parametrize("type_", STRING_TYPES, ids=str)
def test_strings_hash_as_utf8(type_, rng):
    values = with_nulls(rng, ["", "a", "é" * 40, "日本語テキスト" * 5, "x" * 13] * 20)
    column = pa.array(values, type=type_)
    assert multisha.arrow.sha256(column).to_pylist() == expected("sha256", values)
    assert multisha.arrow.hmac_sha1(b"k", column).to_pylist() == expected("sha1", values, b"k")


@pytest.mark.parametrize("type_", BINARY_TYPES + STRING_TYPES, ids=str)
def test_slices_chunks_and_empty(type_, rng):
    raw = random_values(rng, 200)
    values = with_nulls(rng, [v.hex() if pa.types.is_string(type_) or pa.types.is_large_string(type_) or type_ == pa.string_view() else v for v in raw])
    column = pa.array(values, type=type_)
    for start, length in [(0, 0), (3, 50), (17, 183), (199, 1)]:
        sliced = column.slice(start, length)
        assert multisha.arrow.sha512(sliced).to_pylist() == expected("sha512", values[start : start + length])
    chunked = pa.chunked_array([column.slice(0, 70), column.slice(70, 0), column.slice(70)], type=type_)
    result = multisha.arrow.sha256(chunked)
    assert isinstance(result, pa.ChunkedArray)
    assert [len(c) for c in result.chunks] == [70, 0, 130]
    assert result.to_pylist() == expected("sha256", values)
    assert multisha.arrow.sha256(pa.chunked_array([], type=type_)).to_pylist() == []
    assert multisha.arrow.sha256(pa.array([], type=type_)).to_pylist() == []


def test_views_in_several_data_buffers(rng):
    # Concatenating view arrays keeps each one's data buffers: values longer than 12 bytes
    # point into the second and third buffers too.
    parts = [pa.array([rng.randbytes(rng.randrange(40)) for _ in range(50)], type=pa.binary_view()) for _ in range(3)]
    column = pa.concat_arrays(parts)
    values = column.to_pylist()
    assert multisha.arrow.sha1(column).to_pylist() == expected("sha1", values)


def test_long_columns_split_across_threads_agree(rng):
    values = [rng.randbytes(rng.randrange(70)) for _ in range(140_000)]
    values[1000] = None
    column = pa.array(values, type=pa.binary())
    one = multisha.arrow.sha256(column, threads=1)
    assert multisha.arrow.sha256(column, threads=2).equals(one)
    assert multisha.arrow.sha256(column, threads=7).equals(one)
    assert one.to_pylist() == expected("sha256", values)
    with pytest.raises(ValueError, match="threads"):
        multisha.arrow.sha256(column, threads=0)


def test_other_types_are_refused_with_what_is_taken():
    with pytest.raises(TypeError, match="binary and string arrays"):
        multisha.arrow.sha256(pa.array([1, 2, 3]))
    with pytest.raises(TypeError, match="dictionary"):
        multisha.arrow.sha256(pa.array(["a", "b", "a"]).dictionary_encode())
    with pytest.raises(TypeError, match="pyarrow Array"):
        multisha.arrow.sha256([b"a"])
    with pytest.raises(ValueError, match="unsupported hash type"):
        multisha.arrow.digests("md5", pa.array([b"a"]))


def test_the_result_exports_again_and_by_name():
    digests = multisha._multisha._arrow_hash("sha256", pa.array([b"a", None]))
    assert len(digests) == 2
    first, second = pa.array(digests), pa.array(digests)
    assert first.equals(second)
    assert multisha.arrow.digests("SHA-256", pa.array([b"a"])).to_pylist() == [hashlib.sha256(b"a").digest()]
    assert multisha.arrow.hmac("sha512", b"k", pa.array([b"a"])).to_pylist() == [hmac.new(b"k", b"a", "sha512").digest()]
