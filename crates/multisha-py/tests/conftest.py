import random

import pytest

NAMES = ["sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"]


@pytest.fixture
def rng():
    return random.Random(39)


def random_values(rng, count, longest=300):
    """Random byte strings, empty ones and ones across the block boundaries included."""
    edges = [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129]
    return [
        rng.randbytes(edges[i] if i < len(edges) else rng.randrange(longest))
        for i in range(count)
    ]
