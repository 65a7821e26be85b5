"""Kingoal's Parquet files as NumPy arrays, through the Go readers (no pyarrow needed)."""
import json

import numpy as np

from . import _native as N

_DTYPES = {"bool": np.bool_, "int32": np.int32, "int64": np.int64, "uint64": np.uint64, "float32": np.float32,
           "float64": np.float64}
_VALUES, _LIST_OFFSETS, _STRING_OFFSETS, _NULLS, _CODES = 0, 1, 2, 3, 4


class Columns(dict):
    """The columns of a Parquet file, {name: NumPy array}, in the file's order; `schema` is
    the file's kingoal schema tag ("matches/2", …; "" for another tool's file) and `rows`
    its row count. pandas.DataFrame(cols) makes a frame of it (2-D columns as lists)."""

    schema = ""
    rows = 0


def read_parquet(path):
    """Reads any flat Parquet file kingoal writes (matches, throws, decisions, ratings,
    matrix, equilibrium, policy, learning curve; also other tools' flat files) into Columns
    ({column: NumPy array}, schema tag in .schema). Types are kept: BOOLEAN as bool, INT32
    as int32, FLOAT as float32, unsigned INT64 as uint64; strings as object arrays of str (None
    for a null); a numeric column with nulls becomes float64 with NaN. List columns of equal
    length (the decisions' observation and mask) become 2-D arrays, ragged ones object arrays
    of arrays. The values cross from Go once, column by column, into arrays this function
    allocates (memory: about the decoded size of the data, twice at the peak). A corrupt or
    foreign file raises ValueError with the reader's one-line message."""
    L, e = N.lib(), N.ErrBuf()
    h, info = N.ctypes.c_uint64(), N.ctypes.c_void_p()
    e.check(L.kg_table_open(str(path).encode(), N.ctypes.addressof(h), N.ctypes.byref(info), e.ptr, N._ERRSIZE))
    try:
        meta = json.loads(N.ctypes.string_at(info.value).decode())
    finally:
        L.kg_free(info)
    out = Columns()
    out.schema, out.rows = meta["schema"], meta["rows"]
    try:
        for i, c in enumerate(meta["columns"]):
            out[c["name"]] = _column(h.value, i, c, meta["rows"], e)
    finally:
        L.kg_close(h.value)
    return out


def _copy(h, i, what, array, e):
    e.check(N.lib().kg_table_copy(h, i, what, array.ctypes.data, array.nbytes, e.ptr, N._ERRSIZE))
    return array


def _column(h, i, c, rows, e):
    if c["type"] == "string":
        # Distinct strings once, then each cell a reference to its one: a million throws'
        # "home wins" are one Python str.
        data = _copy(h, i, _VALUES, np.empty(c["bytes"], np.uint8), e).tobytes()
        offsets = _copy(h, i, _STRING_OFFSETS, np.empty(c["dict"] + 1, np.int64), e).tolist()
        distinct = np.empty(c["dict"], dtype=object)
        distinct[:] = [data[a:b].decode("utf-8") for a, b in zip(offsets[:-1], offsets[1:])]
        values = distinct[_copy(h, i, _CODES, np.empty(c["values"], np.int32), e)]
    else:
        values = _copy(h, i, _VALUES, np.empty(c["values"], _DTYPES[c["type"]]), e)
    if c["list"]:
        offsets = _copy(h, i, _LIST_OFFSETS, np.empty(rows + 1, np.int64), e)
        lengths = np.diff(offsets)
        if rows and (lengths == lengths[0]).all():
            return values.reshape(rows, int(lengths[0]))
        out = np.empty(rows, dtype=object)
        out[:] = [values[a:b] for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())]
        return out
    if c["nulls"] and c["type"] == "string":
        values[_copy(h, i, _NULLS, np.empty(rows, np.bool_), e)] = None
    return values
