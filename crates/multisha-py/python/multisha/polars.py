"""Polars columns hashed on the multisha engine: ``multisha.polars.sha256(values)``.

Each function takes a ``pl.Series`` (returns a ``pl.Series`` of binary digests, nulls kept
null), a ``pl.Expr`` or a column name (returns an expression, for ``select``,
``with_columns``, lazy frames). Importing this module also registers the expression namespace
``multisha``: ``pl.col("email").multisha.hmac_sha256(key)``.

The column's values are handed over through Arrow without copying them (``multisha.arrow``,
whose ``threads`` keyword every function takes too).
Needs polars and pyarrow (``pip install multisha[polars]``).
"""

import polars as pl

from . import _columns
from . import arrow as _arrow

__all__ = _columns.EXPORTS


def _series(name, series, key, threads):
    hashed = _arrow._hash(name, series.to_arrow(), key, threads)
    return pl.Series(series.name, hashed, dtype=pl.Binary)


def _apply(name, values, key=None, threads=None):
    if isinstance(values, pl.Series):
        return _series(name, values, key, threads)
    if isinstance(values, str):
        values = pl.col(values)
    if isinstance(values, pl.Expr):
        return values.map_batches(
            lambda s: _series(name, s, key, threads), return_dtype=pl.Binary
        )
    raise TypeError(
        f"multisha.polars takes a Series, an expression or a column name, not {type(values).__name__!r}"
    )


globals().update(
    _columns.functions(
        _apply, "a Series, an expression or a column name", "binary (a Series or an expression)"
    )
)


@pl.api.register_expr_namespace("multisha")
class _Namespace:
    """``pl.col(...).multisha.sha256()``, ``pl.col(...).multisha.hmac_sha256(key)``."""

    def __init__(self, expr):
        self._expr = expr

    def digests(self, name):
        return _apply(name, self._expr)

    def hmac(self, name, key):
        return _apply(name, self._expr, key)


for _name in _columns.NAMES:
    setattr(_Namespace, _name, lambda self, _n=_name: _apply(_n, self._expr))
    setattr(_Namespace, f"hmac_{_name}", lambda self, key, _n=_name: _apply(_n, self._expr, key))
