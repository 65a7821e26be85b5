"""Kingoal's Parquet files as NumPy arrays, through the Go readers (no pyarrow needed)."""
import base64

import numpy as np

from . import _native as N


def read_parquet(path):
    """Reads any flat Parquet file kingoal writes (matches, throws, decisions, ratings,
    matrix, equilibrium, policy, learning curve; also other tools' flat files) into a dict
    {column: NumPy array}. List columns of equal length (the decisions' observation and
    mask) become 2-D arrays; strings become object arrays. The file's schema tag is in
    the attribute-like key "__schema__". A corrupt or foreign file raises ValueError with
    the reader's one-line message."""
    res = N.call("read_parquet", path=str(path))
    out = {"__schema__": res["schema"]}
    for c in res["columns"]:
        if "data" in c:
            a = np.frombuffer(base64.b64decode(c["data"]), dtype=np.dtype(c["dtype"]).newbyteorder("<"))
            out[c["name"]] = a.reshape(c["shape"]).astype(c["dtype"])
        else:
            vals = c.get("values") or []
            arr = np.empty(len(vals), dtype=object)
            arr[:] = vals if c["dtype"] == "str" else [v if not isinstance(v, list) else np.asarray(v) for v in vals]
            out[c["name"]] = arr
    return out
