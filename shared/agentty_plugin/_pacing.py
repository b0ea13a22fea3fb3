"""Keeps the plugin under the host's limits by construction: redraws, notifications, total message rate.

The host redraws at most every 50 ms, drops notifications closer than 700 ms (answering them anyway),
and stops a plugin that sends more than 240 lines a second on stdout and stderr together.
"""

from __future__ import annotations

import collections
import threading
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Deque, Optional, Tuple

PANEL_INTERVAL = 0.052      # a little over the host's 50 ms so that no second ever holds 21 panels
NOTIFY_INTERVAL = 0.75      # the host drops notifications closer than 700 ms; keep a margin
MESSAGES_PER_SECOND = 200   # protocol lines may use this much of the host's 240/s
LOG_LINES_PER_SECOND = 120  # log lines are dropped (and counted) above this share of the budget


class RateBudget:
    """A one-second sliding window over every line we write, protocol and log alike."""

    def __init__(self, protocol_limit: int = MESSAGES_PER_SECOND, log_limit: int = LOG_LINES_PER_SECOND) -> None:
        self.protocol_limit = protocol_limit
        self.log_limit = log_limit
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
                now = time.monotonic()
                self._trim(now)
                if len(self._sent) < self.protocol_limit:
                    self._sent.append(now)
                    return
                wait = 1.0 - (now - self._sent[0]) + 0.001
            time.sleep(max(wait, 0.001))

    def try_log(self, lines: int = 1) -> bool:
        """Admit `lines` log lines if they fit under the log share; otherwise count them as dropped."""
        with self._lock:
            now = time.monotonic()
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


class Pacer:
    """A background thread that sends the newest panel and the pending notification when allowed."""

    def __init__(
        self,
        send_panel: Callable[[bytes], None],
        send_notification: Callable[[str, str], None],
        on_superseded: Callable[[str], None],
    ) -> None:
        self._send_panel = send_panel
        self._send_notification = send_notification
        self._on_superseded = on_superseded
        self._condition = threading.Condition()
        # Held from the moment a panel's turn is given until it is written, so panels go out in the
        # order their turns were given even when two threads send (the pacer and a caller).
        self._send_lock = threading.Lock()
        self._panel: Optional[bytes] = None
        self._notification: Optional[Tuple[str, str]] = None
        self._last_panel = float("-inf")
        self._last_notification = float("-inf")
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="agentty-pacer", daemon=True)
        self._thread.start()

    def submit_panel(self, encoded_params: bytes) -> None:
        with self._condition:
            now = time.monotonic()
            if self._stopped or self._panel is not None or now < self._last_panel + PANEL_INTERVAL:
                self._panel = encoded_params  # the latest tree wins; older pending ones are never drawn
                self._condition.notify()
                return
            # Due now and nothing waiting: send from the caller's thread, rather than waking the
            # pacer thread, which must then win the GIL from whatever else is running.
            self._last_panel = now
            self._send_lock.acquire()
        try:
            self._send_panel(encoded_params)
        finally:
            self._send_lock.release()

    def submit_notification(self, message: str, kind: str) -> None:
        with self._condition:
            if self._notification is not None:
                self._on_superseded(self._notification[0])
            self._notification = (message, kind)
            self._condition.notify()

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._condition.notify()

    def _run(self) -> None:
        while True:
            panel: Optional[bytes] = None
            notification: Optional[Tuple[str, str]] = None
            with self._condition:
                while True:
                    if self._stopped:
                        return
                    now = time.monotonic()
                    waits = []
                    if self._panel is not None:
                        due = self._last_panel + PANEL_INTERVAL
                        if now >= due:
                            panel, self._panel = self._panel, None
                            self._last_panel = now
                        else:
                            waits.append(due - now)
                    if self._notification is not None:
                        due = self._last_notification + NOTIFY_INTERVAL
                        if now >= due:
                            notification, self._notification = self._notification, None
                            self._last_notification = now
                        else:
                            waits.append(due - now)
                    if panel is not None or notification is not None:
                        break
                    self._condition.wait(min(waits) if waits else None)
                if panel is not None:
                    self._send_lock.acquire()  # taken before the condition is let go: see __init__
            if panel is not None:
                try:
                    self._send_panel(panel)
                finally:
                    self._send_lock.release()
            if notification is not None:
                self._send_notification(*notification)
