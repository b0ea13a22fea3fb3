"""Pacing: panels coalesced to one per 50 ms, notifications 700 ms apart, total output under 240 lines/s.

The timing rules are tested on the schedule and the pacer with a manual clock, so they hold however
fast or busy the machine is; the end-to-end tests through a real plugin process assert only what
does not depend on speed (newest wins, order, nothing breaks the host's rules).
"""

from __future__ import annotations

import re
import threading

from agentty_plugin._pacing import NOTIFY_INTERVAL, PANEL_INTERVAL, Pacer, PaceSchedule, RateBudget
from agentty_plugin.clock import ManualClock
from agentty_plugin.world import RATE_LIMIT_EXCEEDED

TICK = 1e-6  # past a due time by a hair, so that float sums of intervals never land just short of it

# ---------------------------------------------------------------- the schedule, with numbers for time


def test_a_panel_is_due_at_once_then_waits_out_the_interval_and_the_newest_replaces_the_waiting_one():
    schedule = PaceSchedule()
    assert schedule.offer_panel(b"first", now=10.0) is True
    schedule.sent()
    assert schedule.offer_panel(b"second", now=10.01) is False
    assert schedule.offer_panel(b"third", now=10.02) is False  # replaces "second", which is never drawn
    panel, notification, wait = schedule.take_due(now=10.03)
    assert (panel, notification) == (None, None)
    assert abs(wait - (10.0 + PANEL_INTERVAL - 10.03)) < 1e-9
    panel, _, wait = schedule.take_due(now=10.0 + PANEL_INTERVAL)
    assert panel == b"third" and wait is None
    schedule.sent()
    # While anything waits, even a panel whose interval has passed queues behind it.
    assert schedule.offer_panel(b"fourth", now=10.0 + PANEL_INTERVAL + 0.001) is False


def test_redraws_never_come_closer_than_the_host_interval_whatever_the_offers():
    schedule = PaceSchedule()
    sent = []
    now = 0.0
    for n in range(2000):  # one offer every 3 ms for 6 s, the schedule polled in between
        now += 0.003
        if schedule.offer_panel(f"p{n}".encode(), now):
            sent.append(now)
            schedule.sent()
        panel, _, _ = schedule.take_due(now + 0.0015)
        if panel is not None:
            sent.append(now + 0.0015)
            schedule.sent()
    gaps = [b - a for a, b in zip(sent, sent[1:])]
    assert len(sent) > 50 and min(gaps) >= PANEL_INTERVAL
    assert max(sum(1 for t in sent if start <= t < start + 1.0) for start in sent) <= 20


def test_while_a_panel_is_in_flight_no_other_has_its_turn_and_a_render_never_goes_at_once():
    schedule = PaceSchedule()
    assert schedule.offer_panel(b"first", now=10.0) is True  # its turn is given; it is being written
    assert schedule.offer_panel(b"second", now=11.0) is False  # long due, but the first is still in flight
    assert schedule.take_due(now=12.0)[0] is None
    schedule.sent()
    assert schedule.take_due(now=12.0)[0] == b"second"
    schedule.sent()

    def render():
        return {}

    assert schedule.offer_panel(render, now=20.0, at_once=False) is False  # waits for the pacer's thread
    assert schedule.take_due(now=20.0)[0] is render


def test_notifications_are_spaced_and_the_newest_pending_one_is_kept():
    schedule = PaceSchedule()
    assert schedule.offer_notification("a", "info") is None
    assert schedule.take_due(now=5.0)[1] == ("a", "info")
    assert schedule.offer_notification("b", "info") is None
    assert schedule.offer_notification("c", "warning") == "b"  # "b" is replaced, and reported as such
    _, notification, wait = schedule.take_due(now=5.0 + NOTIFY_INTERVAL / 2)
    assert notification is None and abs(wait - NOTIFY_INTERVAL / 2) < 1e-9
    assert schedule.take_due(now=5.0 + NOTIFY_INTERVAL)[1] == ("c", "warning")
    assert NOTIFY_INTERVAL >= 0.7 + 0.05  # the host drops closer ones; the margin absorbs a late read


# ---------------------------------------------------------------- the pacer thread, on a manual clock


class Recorder:
    def __init__(self) -> None:
        self.items = []
        self.changed = threading.Condition()

    def panel(self, data: bytes) -> None:
        with self.changed:
            self.items.append(("panel", data, threading.current_thread().name))
            self.changed.notify_all()

    def notification(self, message: str, kind: str) -> None:
        with self.changed:
            self.items.append(("notify", message, threading.current_thread().name))
            self.changed.notify_all()

    def wait_for(self, count: int) -> list:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.items) >= count, timeout=10), self.items
            return list(self.items)


def test_a_due_panel_is_sent_by_the_caller_and_a_waiting_one_by_the_pacer_newest_only():
    clock = ManualClock()
    recorder = Recorder()
    superseded = []
    pacer = Pacer(recorder.panel, recorder.notification, superseded.append, clock=clock)
    try:
        pacer.submit_panel(b"first")
        # Nothing was waiting and no panel went out in the last interval: written before returning,
        # from this thread (no wait for the pacer thread to wake).
        assert recorder.items == [("panel", b"first", threading.current_thread().name)]
        pacer.submit_panel(b"second")
        pacer.submit_panel(b"third")  # replaces "second" before its turn
        clock.advance(PANEL_INTERVAL / 2)
        assert len(recorder.items) == 1  # the clock has not reached the turn: nothing may go out
        clock.advance(PANEL_INTERVAL / 2 + TICK)
        items = recorder.wait_for(2)
        assert items[1] == ("panel", b"third", "agentty-pacer")
        assert superseded == []
    finally:
        pacer.stop()


def test_the_pacer_holds_a_notification_until_the_clock_reaches_its_turn():
    clock = ManualClock()
    recorder = Recorder()
    superseded = []
    pacer = Pacer(recorder.panel, recorder.notification, superseded.append, clock=clock)
    try:
        pacer.submit_notification("one", "info")
        recorder.wait_for(1)
        pacer.submit_notification("two", "info")
        pacer.submit_notification("three", "info")
        assert superseded == ["two"]
        pacer.submit_panel(b"A")  # due: written by this thread
        pacer.submit_panel(b"B")  # waits for its turn
        clock.advance(PANEL_INTERVAL + TICK)
        recorder.wait_for(3)
        # C goes out on a later turn of the pacer than B: had "three" been let out early, it would
        # stand before C.
        pacer.submit_panel(b"C")
        clock.advance(PANEL_INTERVAL + TICK)
        assert [i[1] for i in recorder.wait_for(4)] == ["one", b"A", b"B", b"C"]
        clock.advance(NOTIFY_INTERVAL - 2 * (PANEL_INTERVAL + TICK) + TICK)
        assert [i[1] for i in recorder.wait_for(5)] == ["one", b"A", b"B", b"C", "three"]
    finally:
        pacer.stop()


def test_a_render_waiting_for_the_lock_its_caller_holds_never_deadlocks():
    # A plugin that redraws with a render taking its state lock, and calls set_panel while holding
    # that lock (release-checklist does both): neither may wait for the other.
    clock = ManualClock()
    recorder = Recorder()
    state_lock = threading.Lock()
    rendering = threading.Event()

    def send(panel):
        recorder.panel(panel() if callable(panel) else panel)

    def render():
        rendering.set()
        with state_lock:
            return b"rendered"

    pacer = Pacer(send, recorder.notification, lambda message: None, clock=clock)
    try:
        def plugin_thread():
            with state_lock:
                pacer.submit_panel(render)  # rendered on the pacer's thread, which now waits for state_lock
                assert rendering.wait(10)
                clock.advance(2 * PANEL_INTERVAL)
                pacer.submit_panel(b"plain")  # due by the clock, but the render is in flight: it waits

        caller = threading.Thread(target=plugin_thread)
        caller.start()
        caller.join(10)
        assert not caller.is_alive(), "set_panel blocked behind a render that waits for the caller's lock"
        clock.advance(2 * PANEL_INTERVAL)
        assert [item[1] for item in recorder.wait_for(2)] == [b"rendered", b"plain"]
    finally:
        pacer.stop()


# ---------------------------------------------------------------- the rate budget, on a manual clock


def test_protocol_lines_wait_for_room_in_the_window_and_logs_are_dropped_and_counted():
    clock = ManualClock()
    budget = RateBudget(protocol_limit=5, log_limit=3, clock=clock, sleep=clock.sleep)
    started = clock()
    assert budget.try_log(2) is True
    assert budget.try_log(2) is False  # over the log share: dropped, never delayed
    for _ in range(3):
        budget.acquire_protocol()
    assert clock() == started  # five lines fit without waiting
    budget.acquire_protocol()  # the sixth waits until the first line leaves the one-second window
    assert clock() - started >= 1.0
    assert budget.take_dropped() == 2 and budget.take_dropped() == 0


# ---------------------------------------------------------------- end to end, through a plugin process

def shortest_turn_gap(host) -> float:
    """The shortest time between two panels the probe's pacer let out, in seconds, since it started.

    Measured where the rule is kept (the pacer's clock at each panel's turn), not at the harness's end
    of the pipe, whose reader thread may read two panels together on a loaded machine.
    """
    before = len(host.panels)
    host.run_command("probe.turns", {"since": 0})
    tree = host.wait_for_panel(lambda t: any(s.startswith("turns ") for s in host.texts(t)), after=before)
    text = next(s for s in host.texts(tree) if s.startswith("turns "))
    match = re.search(r"shortest gap ([\d.]+|inf) ms", text)
    assert match, text
    return float(match.group(1)) / 1000


HOST_REDRAW_INTERVAL = 0.050  # Agentty redraws a plugin's panel at most every 50 ms (the host reference)


def assert_the_panel_rule(host) -> None:
    """No two panels closer than the host's redraw interval, and no breach of the message rate."""
    assert PANEL_INTERVAL >= HOST_REDRAW_INTERVAL
    assert shortest_turn_gap(host) >= HOST_REDRAW_INTERVAL
    assert not [v for v in host.violations if v.code == RATE_LIMIT_EXCEEDED], host.violations



def test_a_burst_of_panels_is_coalesced_and_the_newest_wins(host):
    before = len(host.panels)
    host.run_command("probe.burst", {"panels": 1000})
    host.wait_for_text("burst 999")
    received = host.panels[before:]
    # The last one drawn is always the newest, and however the burst was cut, no two panels left
    # closer than the host's redraw interval.
    assert "burst 999" in host.texts(received[-1])
    assert host.violations == []
    assert_the_panel_rule(host)


def test_a_burst_of_redraws_renders_once_per_panel_sent_and_shows_the_newest_state(host):
    before = len(host.panels)
    host.run_command("probe.redraws", {"count": 1000})
    tree = host.wait_for_text("redraw 999 after")
    title = next(t for t in host.texts(tree) if t.startswith("redraw 999"))
    renders = int(title.split(" after ")[1].split()[0])
    # Each render became exactly one panel, and renders waiting for their turn were never run.
    assert renders == len(host.panels) - before
    assert host.violations == []
    assert_the_panel_rule(host)


def test_a_failing_redraw_is_logged_and_the_plugin_goes_on(host):
    host.run_command("probe.redraws", {"count": 3, "fail": True})
    host.wait_for(lambda: "a redraw failed" in host.stderr_text(), 10, "the logged failure")
    assert "this render fails on purpose" in host.stderr_text()
    host.run_command("probe.hello", "still here")
    host.wait_for_text("hello still here")


def test_2000_events_never_trip_the_runaway_limit(host):
    before = len(host.panels)
    for n in range(2000):
        host.send("ui/event", {"element": "probe.input", "event": "change", "value": str(n), "context": {}})
    host.wait_for_text("any probe.input=1999")
    assert len(host.panels) - before >= 1
    assert_the_panel_rule(host)


def test_notifications_are_not_dropped_and_the_newest_pending_one_is_kept(host):
    host.run_command("probe.burst", {"notes": 10})
    host.wait_for(lambda: ("note 9", "info") in host.notifications, 10)
    # A later notification is a barrier: notifications leave in order, so once it arrives, nothing
    # older than "note 9" can still be on its way.
    host.run_command("probe.hello", "barrier")
    host.wait_for(lambda: ("hello barrier", "info") in host.notifications, 10)
    shown = host.notifications
    assert shown[-2:] == [("note 9", "info"), ("hello barrier", "info")]
    assert len(shown) <= 3  # note 0 at once, perhaps one more, then the newest
    assert host.dropped_notifications == []
    assert "replaced by a newer one" in host.stderr_text()


def test_log_floods_are_dropped_and_counted_not_protocol_messages(host):
    host.run_command("probe.burst", {"logs": 2000, "panels": 50})
    host.wait_for_text("burst 49")

    marks = iter(range(2000, 1_000_000))  # numbers the burst did not use

    def reported():
        # The count is written with the next log line more than a second after the last report (a
        # different line each time: identical ones would be folded).
        host.run_command("probe.burst", {"logs": 1, "first": next(marks)})
        return "log lines dropped" in host.stderr_text()

    host.wait_for(reported, 10, "the dropped-lines report")
    assert not [v for v in host.violations if v.code == RATE_LIMIT_EXCEEDED], host.violations
    logged = [line for line in host.stderr_lines if line.startswith("log line") and int(line.split()[-1]) < 2000]
    assert 50 < len(logged) < 2000
