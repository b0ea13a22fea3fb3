"""Lifecycle: initialize answered at once, activation before other messages, prompt and clean exits.

The exit tests are the suite's only real-time bounds: Agentty kills a plugin 1.5 s after `shutdown`.
The runtime exits as soon as its shutdown handlers return (at most SHUTDOWN_BUDGET = 1.0 s when one
hangs, which none here does), so a process exit takes a small part of the 1.5 s even on a loaded
2-core machine; the bound is the host's own, not a guess at this machine's speed.
"""

from __future__ import annotations

import pytest
from agentty_plugin.testing import PluginHost
from agentty_plugin.world import EXIT_TOO_SLOW
from runtime_helpers import PROBE


def test_initialize_is_answered_before_a_slow_activation_finishes(world, tmp_path):
    gate = tmp_path / "activation-may-finish"
    with PluginHost(PROBE, world=world, data_dir=str(tmp_path), env={"PROBE_ACTIVATE_GATE": str(gate)}) as host:
        # Activation cannot finish before the gate file exists, so an answer now came before it.
        host.wait_for(lambda: host.initialize_result is not None, 30, "the initialize answer")
        assert host.initialize_result["apiVersion"] >= 1
        assert host.initialize_result["sdkVersion"]
        host.open_panel()
        assert host.panels == []  # the panel/open handler waits for activation
        gate.write_text("go")
        tree = host.wait_for_text("seen:")
        # The panel/open handler ran only after activation completed.
        seen = next(t for t in host.texts(tree) if t.startswith("seen:"))
        assert seen.index("activated-late") < seen.index("panel_open")


def test_activate_receives_plugin_info_language_and_api_version(tmp_path):
    from runtime_helpers import make_world

    with PluginHost(PROBE, world=make_world(tmp_path, language="ko"), data_dir=str(tmp_path)) as host:
        host.open_panel()
        tree = host.wait_for_text("seen:")
        assert '["activate", "probe", "ko", 1]' in " ".join(host.texts(tree))


def test_shutdown_runs_handlers_and_exits_zero_quickly(world, tmp_path):
    marker = tmp_path / "marker.txt"
    with PluginHost(PROBE, world=world, data_dir=str(tmp_path), env={"PROBE_SHUTDOWN_MARKER": str(marker)}) as host:
        host.open_panel()
        host.wait_for_text("ready")
        code, seconds = host.shutdown()
    assert code == 0
    assert seconds < 1.5
    assert marker.read_text() == "shutdown handler ran"


@pytest.mark.parametrize("stop", ["shutdown", "close_stdin", "terminate"])
def test_exits_zero_within_1_5_s_even_while_a_handler_is_busy(world, tmp_path, stop):
    with PluginHost(PROBE, world=world, data_dir=str(tmp_path)) as host:
        host.open_panel()
        host.wait_for_text("ready")
        host.run_command("probe.slow")
        host.wait_for_text("slow started")
        code, seconds = getattr(host, stop)()
    assert code == 0
    assert seconds < 1.5
    assert not [v for v in host.violations if v.code == EXIT_TOO_SLOW]


def test_stdin_eof_before_initialize_exits_cleanly(tmp_path):
    host = PluginHost(PROBE, data_dir=str(tmp_path))
    host.start()
    code, seconds = host.close_stdin()
    assert code == 0 and seconds < 1.5
