"""Pacing: panels coalesced to one per 50 ms, notifications 700 ms apart, total output under 240 lines/s."""

from __future__ import annotations

import time

import pytest


def max_per_window(times, window=1.0):
    best = 0
    start = 0
    for end in range(len(times)):
        while times[end] - times[start] > window:
            start += 1
        best = max(best, end - start + 1)
    return best


def test_a_burst_of_panels_is_coalesced_and_the_newest_wins(host):
    before = len(host.panels)
    host.run_command("probe.burst", {"panels": 1000})
    host.wait_for_text("burst 999")
    host.wait_idle(0.3)
    received = host.panel_times[before:]
    assert len(received) < 60  # 1000 set_panel calls, a handful of redraws
    gaps = [b - a for a, b in zip(received, received[1:])]
    assert min(gaps) >= 0.045  # the host's redraw interval, with a little clock slack
    assert host.violations == []


@pytest.mark.slow
def test_2000_events_a_second_never_trip_the_runaway_limit(host):
    before = len(host.panels)
    started = time.monotonic()
    for n in range(2000):
        host.send("ui/event", {"element": "probe.input", "event": "change", "value": str(n), "context": {}})
        # Pace the host side to about 2,000 events per second.
        if n % 100 == 99:
            time.sleep(max(0.0, started + (n + 1) / 2000 - time.monotonic()))
    host.wait_for_text("any probe.input=1999", timeout=30)
    host.wait_idle(0.3)
    assert max_per_window(host.panel_times[before:]) <= 21
    assert not any("240" in v for v in host.violations), host.violations


def test_notifications_are_spaced_and_the_newest_pending_one_is_kept(host):
    host.run_command("probe.burst", {"notes": 10})
    host.wait_for(lambda: ("note 9", "info") in host.notifications, 5)
    assert host.dropped_notifications == []
    assert host.notifications[-1] == ("note 9", "info")
    assert len(host.notifications) <= 2
    time.sleep(0.8)
    assert len(host.notifications) <= 2  # nothing older shows up after the newest
    assert "replaced by a newer one" in host.stderr_text()


def test_log_floods_are_dropped_and_counted_not_protocol_messages(host):
    host.run_command("probe.burst", {"logs": 2000, "panels": 50})
    host.wait_for_text("burst 49")
    time.sleep(1.2)
    host.run_command("probe.burst", {"logs": 1})
    host.wait_for(lambda: "log lines dropped" in host.stderr_text(), 5)
    assert not any("240" in v for v in host.violations), host.violations
    logged = [line for line in host.stderr_lines if line.startswith("log line")]
    assert 50 < len(logged) < 2000


def test_a_due_panel_is_sent_by_the_caller_and_a_waiting_one_by_the_pacer_newest_only():
    import threading

    from agentty_plugin._pacing import PANEL_INTERVAL, Pacer

    sent = []
    lock = threading.Lock()

    def send(panel: bytes) -> None:
        with lock:
            sent.append((panel, threading.current_thread().name, time.monotonic()))

    pacer = Pacer(send, lambda message, kind: None, lambda message: None)
    try:
        started = time.monotonic()
        pacer.submit_panel(b"first")
        # Nothing was waiting and no panel went out in the last interval: written before returning,
        # from this thread (no wait for the pacer thread to wake).
        assert [(p, t) for p, t, _ in sent] == [(b"first", threading.current_thread().name)]
        pacer.submit_panel(b"second")
        pacer.submit_panel(b"third")  # replaces "second" before its turn
        deadline = time.monotonic() + 2
        while len(sent) < 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(PANEL_INTERVAL * 2)
        assert [p for p, _, _ in sent] == [b"first", b"third"]
        assert sent[1][1] == "agentty-pacer"
        assert sent[1][2] - started >= PANEL_INTERVAL * 0.95
    finally:
        pacer.stop()
