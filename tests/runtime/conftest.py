"""Fixtures for the runtime's tests: a small world and a running probe plugin behind the host harness."""

from __future__ import annotations

from typing import Iterator

import pytest
from agentty_plugin.testing import PluginHost, World
from runtime_helpers import PROBE, make_world


@pytest.fixture
def world(tmp_path) -> World:
    return make_world(tmp_path)


@pytest.fixture
def host(world, tmp_path) -> Iterator[PluginHost]:
    with PluginHost(PROBE, world=world, data_dir=str(tmp_path / "data")) as running:
        running.open_panel()
        running.wait_for_text("ready")
        yield running
