"""The Python package's speed goals (issue 39), each side by side in one process, medians of
interleaved rounds. Run from a virtual environment with the package and its `test` extras
installed (plus `polars-hash` for that comparison):

    python crates/multisha-py/bench/goals.py [--values 1000000] [--rounds 5]
"""

import argparse
import hashlib
import hmac
import os
import random
import statistics
import threading
import time

import multisha
import multisha.arrow
import pyarrow as pa


def timed(f):
    t = time.perf_counter()
    result = f()
    return time.perf_counter() - t, result


def rounds(n, candidates):
    """Median seconds of each candidate over `n` interleaved rounds."""
    times = {name: [] for name in candidates}
    for _ in range(n):
        for name, f in candidates.items():
            times[name].append(timed(f)[0])
    return {name: statistics.median(t) for name, t in times.items()}


def report(title, medians, ours, unit=None):
    print(f"## {title}")
    for name, t in medians.items():
        extra = f", {unit(t)}" if unit else ""
        ratio = medians[name] / medians[ours]
        print(f"  {name:<44} {t * 1e3:9.2f} ms{extra}  ({ratio:.2f}x ours)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--values", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(39)
    values = [rng.randbytes(rng.randrange(65)) for _ in range(args.values)]
    column = pa.array(values, type=pa.binary())
    key = b"pseudonymisation key"
    print(f"{args.values:,} values of 0-64 bytes; multisha.active() = {multisha.active()}")

    candidates = {
        "multisha.arrow.sha256 (FixedSizeBinary)": lambda: multisha.arrow.sha256(column),
        "multisha.arrow.sha256(threads=1)": lambda: multisha.arrow.sha256(column, threads=1),
        "multisha.sha256_many (list of bytes)": lambda: multisha.sha256_many(values),
        "[hashlib.sha256(v).digest() for v in ...]": lambda: [
            hashlib.sha256(v).digest() for v in values
        ],
    }
    try:
        import polars as pl
        import polars_hash  # noqa: F401 (registers the `chash` namespace)

        frame = pl.DataFrame({"v": pl.Series(values, dtype=pl.Binary)})
        candidates["polars-hash chash.sha2_256 (hex strings)"] = lambda: frame.select(
            pl.col("v").chash.sha2_256()
        )
        from multisha import polars as multisha_polars

        candidates["multisha.polars.sha256 (binary)"] = lambda: frame.select(
            multisha_polars.sha256("v")
        )
    except ImportError as e:
        print(f"  (no polars comparison: {e})")
    report("SHA-256 of a column", rounds(args.rounds, candidates), "multisha.arrow.sha256 (FixedSizeBinary)")

    candidates = {
        "multisha.arrow.hmac_sha256": lambda: multisha.arrow.hmac_sha256(key, column),
        "multisha.arrow.hmac_sha256(threads=1)": lambda: multisha.arrow.hmac_sha256(
            key, column, threads=1
        ),
        "multisha.hmac_sha256_many": lambda: multisha.hmac_sha256_many(key, values),
        "[hmac.new(key, v, 'sha256').digest() ...]": lambda: [
            hmac.new(key, v, "sha256").digest() for v in values
        ],
        "[hmac.digest(key, v, 'sha256') ...]": lambda: [
            hmac.digest(key, v, "sha256") for v in values
        ],
    }
    report("HMAC-SHA256 of a column", rounds(args.rounds, candidates), "multisha.arrow.hmac_sha256")

    big = os.urandom(1 << 20)
    candidates = {
        "multisha.sha256(1 MiB).digest()": lambda: multisha.sha256(big).digest(),
        "hashlib.sha256(1 MiB).digest()": lambda: hashlib.sha256(big).digest(),
    }
    medians = rounds(max(args.rounds, 5) * 4, candidates)
    report("one 1 MiB message", medians, "multisha.sha256(1 MiB).digest()", lambda t: f"{(1 << 20) / t / 1e6:.0f} MB/s")

    data = [os.urandom(64 << 20) for _ in range(2)]

    def serial():
        for d in data:
            multisha.sha256(d).digest()

    def threads():
        ts = [threading.Thread(target=lambda d=d: multisha.sha256(d).digest()) for d in data]
        for t in ts:
            t.start()
        for t in ts:
            t.join()

    medians = rounds(args.rounds, {"two threads, 64 MiB each": threads, "one after the other": serial})
    print("## two threads hashing 64 MiB each (os.cpu_count() = %d)" % os.cpu_count())
    for name, t in medians.items():
        print(f"  {name:<44} {t * 1e3:9.2f} ms")
    print(f"  threads / serial: {medians['two threads, 64 MiB each'] / medians['one after the other']:.2f}")


if __name__ == "__main__":
    main()
