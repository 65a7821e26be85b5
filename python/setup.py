"""Builds kingoal's native library with Go while building the package.

`pip install --no-build-isolation ./python` needs Go on the PATH (or $GO), NumPy and
setuptools; nothing is downloaded. The wheel is tagged py3-none-<platform>: the library uses
no Python C API (ctypes loads it), so one wheel serves every Python 3 on a platform.
"""
import os
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = "libkingoal.dylib" if sys.platform == "darwin" else "libkingoal.so"


class BuildWithGo(build_py):
    """build_py, then `go build -buildmode=c-shared` of python/native into the package."""

    def run(self):
        super().run()
        go = os.environ.get("GO") or shutil.which("go")
        if not go:
            raise SystemExit("kingoal: building the native library needs Go (https://go.dev/dl/) on the PATH, or $GO")
        out = os.path.abspath(os.path.join(self.build_lib, "kingoal", LIB))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run([go, "build", "-trimpath", "-ldflags=-s -w", "-buildmode=c-shared", "-o", out, "./python/native"],
                       cwd=os.path.dirname(HERE), check=True)
        header = os.path.splitext(out)[0] + ".h"
        if os.path.exists(header):
            os.remove(header)


cmdclass = {"build_py": BuildWithGo}
if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        """A py3-none-<platform> wheel: native code, but no Python ABI."""

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = PlatformWheel

class BinaryDistribution(Distribution):
    """Native code inside: the wheel's files go to platlib (its root), where auditwheel looks."""

    def has_ext_modules(self):
        return True


setup(cmdclass=cmdclass, distclass=BinaryDistribution)
