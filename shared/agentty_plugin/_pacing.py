"""Keeps the plugin under the host's limits by construction: redraws, notifications, total message rate.

The host redraws at most every 50 ms, drops notifications closer than 700 ms (answering them anyway),
and stops a plugin that sends more than 240 lines a second on stdout and stderr together.
Every decision reads an injected clock (`agentty_plugin.clock`), so tests move time instead of waiting.
"""

from __future__ import annotations

import collections
import threading
import time

from .clock import system_clock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Deque, Mapping, Optional, Tuple, Union

    Panel = Union[bytes, Callable[[], Mapping[str, Any]]]  # encoded params, or a render run when due

PANEL_INTERVAL = 0.052      # a little over the host's 50 ms so that no second ever holds 21 panels
# The host drops notifications closer than 700 ms, timed when it reads them; 100 ms of margin absorbs a
# late read of the earlier one on a loaded machine.
NOTIFY_INTERVAL = 0.8
MESSAGES_PER_SECOND = 200   # protocol lines may use this much of the host's 240/s
LOG_LINES_PER_SECOND = 120  # log lines are dropped (and counted) above this share of the budget


class RateBudget:
    """A one-second sliding window over every line we write, protocol and log alike."""

    def __init__(
        self,
        protocol_limit: int = MESSAGES_PER_SECOND,
        log_limit: int = LOG_LINES_PER_SECOND,
        clock: Callable[[], float] = system_clock,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.protocol_limit = protocol_limit
        self.log_limit = log_limit
        self._clock = clock
        self._sleep = sleep
        self._sent: Deque[float] = collections.deque()
        self._lock = threading.Lock()
        self.dropped_logs = 0

    def _trim(self, now: float) -> None:
        while self._sent and now - self._sent[0] >= 1.0:
            self._sent.popleft()

    def acquire_protocol(self) -> None:
        """Block until one more protocol line fits in the window (protocol lines are never dropped)."""
        while True:
            with self._lock:
                now = self._clock()
                self._trim(now)
                if len(self._sent) < self.protocol_limit:
                    self._sent.append(now)
                    return
                wait = 1.0 - (now - self._sent[0]) + 0.001
            self._sleep(max(wait, 0.001))

    def try_log(self, lines: int = 1) -> bool:
        """Admit `lines` log lines if they fit under the log share; otherwise count them as dropped."""
        with self._lock:
            now = self._clock()
            self._trim(now)
            if len(self._sent) + lines <= self.log_limit:
                self._sent.extend([now] * lines)
                return True
            self.dropped_logs += lines
            return False

    def take_dropped(self) -> int:
        with self._lock:
            dropped, self.dropped_logs = self.dropped_logs, 0
            return dropped


class PaceSchedule:
    """When the newest panel and the pending notification may go out. Pure: every method is told the time.

    A panel is whatever the sender sends: encoded bytes, or a render function called only when its turn
    comes (`Plugin.redraw`), so a panel replaced before its turn is never even rendered. One panel is
    in flight at a time (from its turn until `sent()`), so panels leave in the order of their turns
    without any lock held while one renders or is written.
    """

    def __init__(self) -> None:
        self.panel: Optional[Panel] = None
        self.notification: Optional[Tuple[str, str]] = None
        self.last_panel = float("-inf")
        self.last_notification = float("-inf")
        self.sending = False

    def offer_panel(self, panel: Panel, now: float, at_once: bool = True) -> bool:
        """True: send `panel` now (its turn is taken). False: it waits, replacing any panel already waiting.

        `at_once=False` always waits (a render runs on the pacer's thread, never the caller's).
        """
        if at_once and not self.sending and self.panel is None and now >= self.last_panel + PANEL_INTERVAL:
            self.last_panel, self.sending = now, True
            return True
        self.panel = panel  # the latest tree wins; older pending ones are never drawn
        return False

    def sent(self) -> None:
        """The panel in flight is written (or failed): the next one may have its turn."""
        self.sending = False

    def offer_notification(self, message: str, kind: str) -> Optional[str]:
        """Queue a notification; returns the message of the one it replaced, if one was waiting."""
        replaced = self.notification[0] if self.notification is not None else None
        self.notification = (message, kind)
        return replaced

    def take_due(self, now: float) -> Tuple[Optional[Panel], Optional[Tuple[str, str]], Optional[float]]:
        """What may go out at `now`, and how long until the next waiting item is due (None: nothing waits)."""
        panel: Optional[Panel] = None
        notification: Optional[Tuple[str, str]] = None
        waits = []
        if self.panel is not None and not self.sending:  # while one is in flight, `sent()` wakes the pacer
            due = self.last_panel + PANEL_INTERVAL
            if now >= due:
                panel, self.panel, self.last_panel, self.sending = self.panel, None, now, True
            else:
                waits.append(due - now)
        if self.notification is not None:
            due = self.last_notification + NOTIFY_INTERVAL
            if now >= due:
                notification, self.notification, self.last_notification = self.notification, None, now
            else:
                waits.append(due - now)
        return panel, notification, (min(waits) if waits else None)


class Pacer:
    """A background thread that sends the newest panel and the pending notification when the schedule allows."""

    def __init__(
        self,
        send_panel: Callable[[Panel], None],
        send_notification: Callable[[str, str], None],
        on_superseded: Callable[[str], None],
        clock: Callable[[], float] = system_clock,
    ) -> None:
        self._send_panel = send_panel
        self._send_notification = send_notification
        self._on_superseded = on_superseded
        self._clock = clock
        self._schedule = PaceSchedule()
        self._condition = threading.Condition()
        self._stopped = False
        on_advance = getattr(clock, "on_advance", None)
        if on_advance is not None:
            on_advance(self.wake)  # a manual clock moved: look at the schedule again instead of waiting
        self._thread = threading.Thread(target=self._run, name="agentty-pacer", daemon=True)
        self._thread.start()

    def submit_panel(self, panel: Panel) -> None:
        with self._condition:
            # A render function waits for the pacer's thread: rendered here, it would run inside
            # whatever lock the caller holds while asking for a redraw.
            at_once = not callable(panel)
            if self._stopped or not self._schedule.offer_panel(panel, self._clock(), at_once):
                self._condition.notify()
                return
        # Due now and nothing waiting: send from the caller's thread, rather than waking the pacer
        # thread, which must then win the GIL from whatever else is running.
        self._send(panel)

    def submit_notification(self, message: str, kind: str) -> None:
        with self._condition:
            replaced = self._schedule.offer_notification(message, kind)
            self._condition.notify()
        if replaced is not None:
            self._on_superseded(replaced)

    def wake(self) -> None:
        with self._condition:
            self._condition.notify()

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._condition.notify()

    def _send(self, panel: Panel) -> None:
        """Write the panel whose turn was given, holding no lock (a render may take the plugin's own)."""
        try:
            self._send_panel(panel)
        finally:
            with self._condition:
                self._schedule.sent()
                self._condition.notify()

    def _run(self) -> None:
        while True:
            with self._condition:
                while True:
                    if self._stopped:
                        return
                    panel, notification, wait = self._schedule.take_due(self._clock())
                    if panel is not None or notification is not None:
                        break
                    # A wait that a manual clock cuts short by calling wake(); with the system clock it
                    # simply ends when the next item is due.
                    self._condition.wait(wait)
            if panel is not None:
                self._send(panel)
            if notification is not None:
                self._send_notification(*notification)
