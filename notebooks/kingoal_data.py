"""Loads kingoal's output files for the notebooks.

Parquet files are read with pandas when pyarrow is installed; otherwise (Debian bookworm has
no Parquet reader for Python) with the kingoal Python package (`kingoal.read_parquet`, the Go
readers) when it is importable, and else through `kingoal datasets export --format csv`, so
the notebooks need nothing but the CLI. Nothing here knows the rules: it only reads files.

KINGOAL_DATA names the data directory (default kingoal-data); a relative path is taken from
the repository's root, wherever Jupyter runs the notebook. KINGOAL names the CLI binary
(default `kingoal` on the PATH: `go install ./cmd/kingoal`).
"""
import io
import json
import os
import shutil
import subprocess

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, os.environ.get("KINGOAL_DATA", "kingoal-data"))  # join keeps an absolute path
KINGOAL = os.environ.get("KINGOAL", "kingoal")

# Columns that hold lists (observation vectors, masks): CSV carries them as JSON arrays.
LIST_COLUMNS = {"observation", "mask"}


def path(*parts):
    """A path inside the data directory."""
    return os.path.join(DATA, *parts)


def read(*parts):
    """Reads one Parquet file of the data directory into a DataFrame."""
    p = path(*parts)
    if not os.path.exists(p):
        raise FileNotFoundError(f"{p} does not exist: make the data first (README, 'Analysis')")
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        native = _kingoal_package()
        if native is not None:
            cols = native.read_parquet(p)
            return pd.DataFrame({k: list(v) if v.ndim == 2 else v for k, v in cols.items()})
        if shutil.which(KINGOAL) is None:
            raise FileNotFoundError(f"{KINGOAL!r} is not on the PATH (needed to read Parquet without pyarrow): "
                                    "go install ./cmd/kingoal && export PATH=\"$(go env GOPATH)/bin:$PATH\"")
        out = subprocess.run([KINGOAL, "datasets", "export", p, "--format", "csv"],
                             check=True, capture_output=True, text=True).stdout
        df = pd.read_csv(io.StringIO(out), keep_default_na=False, na_values=[""])
        for c in LIST_COLUMNS & set(df.columns):
            df[c] = df[c].map(json.loads)
        return df
    return pd.read_parquet(p)


def _kingoal_package():
    """The kingoal Python package, if it and its native library are installed."""
    try:
        import kingoal
        kingoal.version()  # loads the library, or raises ImportError
        return kingoal
    except ImportError:
        return None
