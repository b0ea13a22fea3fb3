"""Fixtures for the distribution tests: local wheels, a built dist-probe bundle, the real plugins' bundles."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from agentty_plugin.distribution.bundle import bundle_plugin
from distribution_helpers import PROBE, WHEEL_CACHE, real_plugin_folders
from wheel_factory import probe_wheels


@pytest.fixture(scope="session")
def real_bundles(tmp_path_factory):
    """Each real plugin bundled once per session from dist/.wheels, which `make venv` fills: a test never
    reaches a package index (--no-index), so a missing wheel fails at once and says what is missing."""
    dist = str(tmp_path_factory.mktemp("real-dist"))
    return {os.path.basename(p): bundle_plugin(p, dist, cache_dir=WHEEL_CACHE, vermin=False, make_zip=False,
                                               pip_args=["--no-index"])
            for p in real_plugin_folders()}


@pytest.fixture(scope="session")
def local_index(tmp_path_factory):
    return probe_wheels(str(tmp_path_factory.mktemp("wheels")))


@pytest.fixture(scope="session")
def probe_bundle(tmp_path_factory, local_index):
    dist = str(tmp_path_factory.mktemp("dist"))
    return bundle_plugin(PROBE, dist, cache_dir=os.path.join(dist, ".wheels"), vermin=False,
                         pip_args=["--no-index", "--find-links", local_index])
