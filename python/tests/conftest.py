import json
import os

import pytest


def need(module):
    """Imports an optional library, or skips (fails under KINGOAL_REQUIRE_TOOLS)."""
    if os.environ.get("KINGOAL_REQUIRE_TOOLS"):
        return __import__(module)
    return pytest.importorskip(module)


@pytest.fixture(scope="session")
def reference():
    path = os.environ.get("KINGOAL_REFERENCE")
    if not path:
        pytest.skip("KINGOAL_REFERENCE is not set (run through `go test ./python/native`)")
    with open(path) as f:
        return json.load(f)


@pytest.fixture(scope="session")
def data_dir():
    path = os.environ.get("KINGOAL_TEST_DATA")
    if not path:
        pytest.skip("KINGOAL_TEST_DATA is not set (run through `go test ./python/native`)")
    return path
