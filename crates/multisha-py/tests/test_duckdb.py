"""multisha.arrow as a DuckDB Arrow UDF, as the README shows it."""

import hashlib
import hmac

import duckdb
import pyarrow as pa

import multisha.arrow


def test_duckdb_arrow_udf():
    con = duckdb.connect()
    # README: DuckDB
    con.create_function(
        "sha256_blob",
        lambda column: multisha.arrow.sha256(column, threads=1).cast(pa.binary()),
        ["BLOB"],
        "BLOB",
        type="arrow",
    )
    con.create_function(
        "pseudonym",
        lambda column: multisha.arrow.hmac_sha256(b"secret key", column, threads=1).cast(pa.binary()),
        ["VARCHAR"],
        "BLOB",
        type="arrow",
    )
    rows = con.sql(
        "SELECT sha256_blob(encode(s)) AS d, pseudonym(s) AS p, s "
        "FROM (SELECT 'user' || i::VARCHAR || '@example.com' AS s FROM range(5000) t(i))"
    ).fetchall()
    assert len(rows) == 5000
    for d, p, s in rows:
        assert d == hashlib.sha256(s.encode()).digest()
        assert p == hmac.new(b"secret key", s.encode(), "sha256").digest()
