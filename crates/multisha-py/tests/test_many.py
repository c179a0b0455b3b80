"""The batch functions (plain and HMAC) against hashlib and hmac."""

import hashlib
import hmac

import pytest

import multisha
from conftest import NAMES, random_values


@pytest.mark.parametrize("name", NAMES)
def test_many_matches_hashlib(name, rng):
    for count in [0, 1, 2, 3, 5, 16, 17, 100, 600]:
        values = random_values(rng, count)
        expected = [hashlib.new(name, v).digest() for v in values]
        assert getattr(multisha, f"{name}_many")(values) == expected
        assert multisha.many(name, values) == expected
        # Any iterable, any buffers.
        assert multisha.many(name, (bytearray(v) for v in values)) == expected


@pytest.mark.parametrize("name", NAMES)
def test_hmac_many_matches_hmac(name, rng):
    block = hashlib.new(name).block_size
    for key_len in [0, 1, 20, block - 1, block, block + 1, 3 * block]:
        key = rng.randbytes(key_len)
        for count in [1, 2, 17, 300]:
            values = random_values(rng, count)
            expected = [hmac.new(key, v, name).digest() for v in values]
            assert getattr(multisha, f"hmac_{name}_many")(key, values) == expected
            assert multisha.hmac_many(name, key, values) == expected


def test_equal_lengths_and_merkle_nodes(rng):
    for length in [32, 64, 128]:
        values = [rng.randbytes(length) for _ in range(1000)]
        assert multisha.sha256_many(values) == [hashlib.sha256(v).digest() for v in values]
        assert multisha.sha512_many(values) == [hashlib.sha512(v).digest() for v in values]
