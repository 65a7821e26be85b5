"""Loads kingoal's output files for the notebooks.

Parquet files are read directly: with pandas (pyarrow, `pip install pyarrow`) when it is
installed, else with the kingoal Python package's own reader (`kingoal.read_parquet`, NumPy
only). Nothing here knows the rules: it only reads files.

KINGOAL_DATA names the data directory (default kingoal-data); a relative path is taken from
the repository's root, wherever Jupyter runs the notebook.
"""
import os

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, os.environ.get("KINGOAL_DATA", "kingoal-data"))  # join keeps an absolute path


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
        if native is None:
            raise ImportError("reading Parquet needs pyarrow (pip install pyarrow) or the kingoal package "
                              "(pip install ./python)") from None
        cols = native.read_parquet(p)
        return pd.DataFrame({k: list(v) if v.ndim == 2 else v for k, v in cols.items()})
    return pd.read_parquet(p)


def _kingoal_package():
    """The kingoal Python package, if it and its native library are installed."""
    try:
        import kingoal
        kingoal.version()  # loads the library, or raises ImportError
        return kingoal
    except ImportError:
        return None
