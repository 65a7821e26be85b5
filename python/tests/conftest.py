import importlib
import json
import os

import pytest


def need(module):
    """Imports an optional library, or skips (fails under KINGOAL_REQUIRE_TOOLS)."""
    if os.environ.get("KINGOAL_REQUIRE_TOOLS"):
        return importlib.import_module(module)
    return pytest.importorskip(module)


def _from_go(var):
    """A path the Go test that runs these tests passes in var, or a skip."""
    path = os.environ.get(var)
    if not path:
        pytest.skip(f"{var} is not set (run through `go test ./frontend/pylib`)")
    return path


@pytest.fixture(scope="session")
def reference():
    with open(_from_go("KINGOAL_REFERENCE")) as f:
        return json.load(f)


@pytest.fixture(scope="session")
def data_dir():
    return _from_go("KINGOAL_TEST_DATA")


@pytest.fixture(scope="session", autouse=True)
def sb3_logs_in_tmp(tmp_path_factory):
    """SB3's default logger makes a directory per learn() under SB3_LOGDIR, or in /tmp when it
    is unset: the tests' go where pytest cleans up."""
    old = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3"))
    yield
    if old is None:
        del os.environ["SB3_LOGDIR"]
    else:
        os.environ["SB3_LOGDIR"] = old
