"""The hash objects, the one-call digest and pbkdf2_hmac against hashlib."""

import array
import hashlib
import sys

import numpy as np
import pytest

import multisha
from conftest import NAMES, random_values


@pytest.mark.parametrize("name", NAMES)
def test_objects_match_hashlib(name, rng):
    for data in random_values(rng, 40, longest=1000):
        ours, theirs = multisha.new(name, data), hashlib.new(name, data)
        assert ours.digest() == theirs.digest()
        assert ours.hexdigest() == theirs.hexdigest()
        assert (ours.name, ours.digest_size, ours.block_size) == (
            theirs.name,
            theirs.digest_size,
            theirs.block_size,
        )
        assert getattr(multisha, name)(data).digest() == theirs.digest()
        assert multisha.digest(name, data) == theirs.digest()


@pytest.mark.parametrize("name", NAMES)
def test_updates_copies_and_digests_midway(name, rng):
    data = rng.randbytes(3000)
    ours, theirs = multisha.new(name), hashlib.new(name)
    cut = 0
    while cut < len(data):
        step = rng.randrange(1, 300)
        ours.update(data[cut : cut + step])
        theirs.update(data[cut : cut + step])
        cut += step
        # A digest midway does not end the hash.
        assert ours.digest() == theirs.digest()
    branch = ours.copy()
    branch.update(b"more")
    assert ours.digest() == theirs.digest()
    theirs.update(b"more")
    assert branch.digest() == theirs.digest()


def test_every_buffer_type():
    data = bytes(range(256)) * 20
    expected = hashlib.sha256(data).digest()
    for buffer in [
        data,
        bytearray(data),
        memoryview(data),
        np.frombuffer(data, dtype=np.uint8),
        np.frombuffer(data, dtype=np.float64),
        array.array("I", data),
    ]:
        assert multisha.sha256(buffer).digest() == expected, type(buffer)
        assert multisha.sha256_many([buffer]) == [expected], type(buffer)


def test_what_hashlib_refuses_is_refused_alike():
    with pytest.raises(TypeError, match="Strings must be encoded before hashing"):
        multisha.sha256("text")
    with pytest.raises(TypeError):
        multisha.sha256(12)
    with pytest.raises(BufferError):
        multisha.sha256(memoryview(b"abcdef")[::2])
    with pytest.raises(ValueError, match="unsupported hash type md5"):
        multisha.new("md5")
    with pytest.raises(TypeError):
        multisha.sha256_many([b"a", "b"])


def test_names_as_hashlib_takes_them():
    assert multisha.new("SHA256").name == "sha256"
    assert multisha.new("sha-512/256").name == "sha512_256"
    # OpenSSL's spellings, which hashlib.new takes too.
    assert multisha.new("sha512-256").name == hashlib.new("sha512-256").name
    assert multisha.new("SHA512-224").name == hashlib.new("SHA512-224").name
    assert multisha.algorithms_guaranteed == frozenset(NAMES)
    assert multisha.sha256(data=b"abc").digest() == hashlib.sha256(b"abc").digest()
    assert multisha.sha256(b"abc", usedforsecurity=False).digest() == hashlib.sha256(b"abc").digest()
    assert repr(multisha.sha256()) == "<sha256 multisha.Hash object>"


@pytest.mark.parametrize("name", NAMES)
def test_pbkdf2_matches_hashlib(name, rng):
    for password_len, salt_len, iterations, dklen in [
        (0, 0, 1, None),
        (8, 16, 2, 20),
        (200, 3, 5, 100),
        (64, 64, 1000, 64),
    ]:
        password, salt = rng.randbytes(password_len), rng.randbytes(salt_len)
        assert multisha.pbkdf2_hmac(name, password, salt, iterations, dklen) == hashlib.pbkdf2_hmac(
            name, password, salt, iterations, dklen
        )


def test_pbkdf2_errors_are_hashlibs():
    for args, error in [
        (("sha256", b"p", b"s", 0), ValueError),
        (("sha256", b"p", b"s", 1, 0), ValueError),
        (("sha256", b"p", b"s", 2**31), OverflowError),
        (("nope", b"p", b"s", 1), ValueError),
        (("sha256", "p", b"s", 1), TypeError),
    ]:
        with pytest.raises(error) as ours:
            multisha.pbkdf2_hmac(*args)
        with pytest.raises(error) as theirs:
            hashlib.pbkdf2_hmac(*args)
        if args[0] == "sha256" and error is not TypeError:
            assert str(ours.value) == str(theirs.value)


def test_large_bytes_hash_with_the_gil_released():
    import threading

    data = bytes(64 << 20)
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(multisha.sha256(data).digest())) for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [hashlib.sha256(data).digest()] * 2


def test_active_names_what_runs():
    active = multisha.active()
    assert set(active) == {"sha1", "sha256", "sha512"}
    assert all(single and many for single, many in active.values())
    assert sys.modules["multisha"].__version__


def test_threads_may_share_a_hash_object():
    import threading

    chunk = bytes(range(256)) * 64  # 16 KiB bytes: hashed without the GIL
    small = bytearray(b"x" * 10)  # small and mutable: hashed with the GIL
    shared = multisha.sha256()
    barrier = threading.Barrier(3)
    errors = []

    def feed():
        try:
            for _ in range(200):
                shared.update(chunk)
                shared.digest()
                shared.copy()
            # Every thread's big updates are in before any small one: each phase's bytes are
            # the same whatever the order, so the digest says whether an update was lost.
            barrier.wait()
            for _ in range(200):
                shared.update(small)
        except Exception as e:  # noqa: BLE001 (the test reports whatever went wrong)
            errors.append(e)

    threads = [threading.Thread(target=feed) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert shared.digest() == hashlib.sha256(chunk * 600 + bytes(small) * 600).digest()
