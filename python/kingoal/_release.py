"""The package's version, single-sourced from the Go release (internal/version's Release).

setup.py reads it from the Go source while building and writes it into the built package's
_version.py; a checkout on PYTHONPATH reads the same declaration. Loaded by file path from
setup.py, so it imports nothing of the package.
"""
import os
import re

_DECLARATION = re.compile(r'^const Release = "([0-9]+\.[0-9]+\.[0-9]+)(-dev)?"$', re.M)


def read_release(go_module_root):
    """The PEP 440 version of the Go release declared under go_module_root: 0.9.0-dev → 0.9.0.dev0."""
    path = os.path.join(go_module_root, "internal", "version", "version.go")
    with open(path, encoding="utf-8") as f:
        m = _DECLARATION.search(f.read())
    if not m:
        raise RuntimeError(f"kingoal: {path} declares no `const Release = \"X.Y.Z[-dev]\"`")
    return m.group(1) + (".dev0" if m.group(2) else "")


def checkout_version():
    """The version of a source checkout: python/kingoal sits two levels below the Go module."""
    return read_release(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
