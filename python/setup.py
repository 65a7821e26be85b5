"""Builds kingoal's native library with Go while building the package.

`pip install --no-build-isolation ./python` (a checkout) or `pip install kingoal-X.tar.gz`
(the sdist, which carries the Go sources it needs under go/) needs Go on the PATH (or $GO),
NumPy and setuptools; nothing is downloaded. The wheel is tagged py3-none-<platform>: the
library uses no Python C API (ctypes loads it), so one wheel serves every Python 3 on a
platform. The version is the Go release's (internal/version), read here and written into
the built package's _version.py.
"""
import importlib.util
import os
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = "libkingoal.dylib" if sys.platform == "darwin" else "libkingoal.so"
SDIST_GO = "go"  # where an sdist keeps the Go module's sources


def go_module_root():
    """The Go module to build from: the sdist's copy when there is one, else the checkout's root."""
    inside = os.path.join(HERE, SDIST_GO)
    return inside if os.path.exists(os.path.join(inside, "go.mod")) else os.path.dirname(HERE)


def release():
    spec = importlib.util.spec_from_file_location("kingoal_release", os.path.join(HERE, "kingoal", "_release.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.read_release(go_module_root())


def go_command():
    go = os.environ.get("GO") or shutil.which("go")
    if not go:
        raise SystemExit("kingoal: building the native library needs Go 1.26.8 or newer (https://go.dev/dl/) "
                         "on the PATH, or $GO; or install a wheel, which has the library inside and needs no Go")
    return go


class BuildWithGo(build_py):
    """build_py, then `go build -buildmode=c-shared` of frontend/pylib into the package, its
    version and the licence beside it."""

    def run(self):
        super().run()
        root = go_module_root()
        package = os.path.abspath(os.path.join(self.build_lib, "kingoal"))
        os.makedirs(package, exist_ok=True)
        out = os.path.join(package, LIB)
        cc = os.environ.get("CC", "")
        if cc and not shutil.which(cc.split()[0]):
            raise SystemExit(f"kingoal: CC={cc} is not on the PATH: the native library is built with it "
                             "(for the aarch64 wheel on Debian: apt install gcc-aarch64-linux-gnu)")
        try:
            subprocess.run([go_command(), "build", "-trimpath", "-ldflags=-s -w", "-buildmode=c-shared", "-o", out, "./frontend/pylib"],
                           cwd=root, check=True)
        except subprocess.CalledProcessError as e:
            raise SystemExit(f"kingoal: go build of the native library failed (exit {e.returncode}): its output is above") from None
        header = os.path.splitext(out)[0] + ".h"
        if os.path.exists(header):
            os.remove(header)
        with open(os.path.join(package, "_version.py"), "w", encoding="utf-8") as f:
            f.write(f'__version__ = "{release()}"  # the Go release (internal/version), written by setup.py\n')
        shutil.copyfile(os.path.join(root, "LICENSE"), os.path.join(package, "LICENSE"))


class SdistWithGo(sdist):
    """An sdist that builds anywhere Go is: the Go module's files the library needs (go list
    -deps of frontend/pylib: sources, embedded files), go.mod, go.sum and LICENSE, under go/."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        root = os.path.dirname(HERE)
        listed = subprocess.run([go_command(), "list", "-deps", "-f",
                                 "{{if .Module}}{{if not .Module.Replace}}{{if eq .Module.Path \"github.com/kingoal/kingoal\"}}"
                                 "{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}\n{{end}}{{range .CgoFiles}}{{$d}}/{{.}}\n{{end}}"
                                 "{{range .HFiles}}{{$d}}/{{.}}\n{{end}}{{range .CFiles}}{{$d}}/{{.}}\n{{end}}"
                                 "{{range .EmbedFiles}}{{$d}}/{{.}}\n{{end}}{{end}}{{end}}{{end}}", "./frontend/pylib"],
                                cwd=root, check=True, capture_output=True, text=True).stdout.split()
        for path in listed + [os.path.join(root, n) for n in ("go.mod", "go.sum", "LICENSE")]:
            target = os.path.join(base_dir, SDIST_GO, os.path.relpath(path, root))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(path, target)


cmdclass = {"build_py": BuildWithGo, "sdist": SdistWithGo}
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


setup(version=release(), cmdclass=cmdclass, distclass=BinaryDistribution)
