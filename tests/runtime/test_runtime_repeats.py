"""Repeated log lines and toasts are folded into one with a count, so a failing loop cannot flood stderr."""

from __future__ import annotations

from agentty_plugin._repeats import RepeatFolder
from agentty_plugin.clock import ManualClock
from agentty_plugin.testing import PluginHost
from runtime_helpers import PROBE


def test_a_repeat_within_the_window_is_counted_and_reported_when_the_window_closes():
    clock = ManualClock()
    folder = RepeatFolder(window=30.0, clock=clock)
    assert folder.admit("boom\n  at line 3") == ["boom\n  at line 3"]
    for _ in range(99):
        assert folder.admit("boom\n  at line 3") == []
    assert folder.admit("something else") == ["something else"]
    clock.advance(30.0)
    # The next message after the window carries the count of the folded ones, then the new text.
    lines = folder.admit("boom\n  at line 3")
    assert lines == ["agentty-plugin: repeated 99 more time(s) within 30 s: boom", "boom\n  at line 3"]


def test_a_folded_message_that_never_comes_back_is_still_counted():
    clock = ManualClock()
    folder = RepeatFolder(window=10.0, clock=clock)
    folder.admit("disk full")
    folder.admit("disk full")
    clock.advance(11)
    assert folder.admit("ok again") == ["agentty-plugin: repeated 1 more time(s) within 10 s: disk full", "ok again"]
    folder.admit("ok again")
    assert folder.flush() == ["agentty-plugin: repeated 1 more time(s) within 10 s: ok again"]
    assert folder.flush() == []


def test_distinct_messages_are_never_folded_and_memory_stays_bounded():
    folder = RepeatFolder(window=30.0, clock=ManualClock(), remembered=8)
    for n in range(100):
        assert folder.admit(f"line {n}") == [f"line {n}"]
    assert folder.admit("line 99") == []  # still remembered
    assert folder.admit("line 0") == ["line 0"]  # forgotten long ago: written again


def test_a_handler_failing_in_a_loop_writes_one_traceback_and_one_toast(world, tmp_path):
    # The window is an hour here: what is tested is the folding, not how fast a loaded machine loops.
    with PluginHost(PROBE, world=world, data_dir=str(tmp_path / "data"),
                    env={"AGENTTY_PLUGIN_REPEAT_WINDOW": "3600"}) as host:
        host.open_panel()
        host.wait_for_text("ready")
        for _ in range(50):
            host.run_command("probe.fail")
        host.run_command("probe.hello", "after")
        host.wait_for_text("hello after", timeout=60)
        host.wait_for(lambda: ("hello after", "info") in host.notifications, 60)  # a bound, not a speed target
        tracebacks = [line for line in host.stderr_lines if line.startswith("agentty-plugin: handler fail failed")]
        assert len(tracebacks) == 1
        failures = [n for n in host.notifications if n[0] == "the probe failed on purpose"]
        assert failures == [("the probe failed on purpose", "error")]
        assert host.violations == []
