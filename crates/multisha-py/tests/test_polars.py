"""multisha.polars: Series, expressions, column names and the `multisha` namespace."""

import hashlib
import hmac

import polars as pl

import multisha.polars


def test_series_and_expressions(rng):
    values = [None if i % 7 == 3 else rng.randbytes(rng.randrange(90)) for i in range(500)]
    series = pl.Series("v", values, dtype=pl.Binary)
    expected = [None if v is None else hashlib.sha256(v).digest() for v in values]
    result = multisha.polars.sha256(series)
    assert result.name == "v" and result.dtype == pl.Binary
    assert result.to_list() == expected
    frame = pl.DataFrame({"v": series})
    assert frame.select(multisha.polars.sha256("v"))["v"].to_list() == expected
    assert frame.select(multisha.polars.sha256(pl.col("v")))["v"].to_list() == expected
    assert frame.select(pl.col("v").multisha.sha256())["v"].to_list() == expected
    lazy = frame.lazy().with_columns(tag=pl.col("v").multisha.hmac_sha512(b"key")).collect()
    assert lazy["tag"].to_list() == [None if v is None else hmac.new(b"key", v, "sha512").digest() for v in values]


def test_string_columns(rng):
    emails = [f"user{i}@example.com" for i in range(300)] + [None]
    frame = pl.DataFrame({"email": emails})
    out = frame.select(multisha.polars.hmac_sha256(b"secret", "email"))["email"].to_list()
    assert out == [None if e is None else hmac.new(b"secret", e.encode(), "sha256").digest() for e in emails]
    assert frame.select(pl.col("email").multisha.digests("sha1"))["email"].to_list()[0] == hashlib.sha1(b"user0@example.com").digest()
