"""Coalesce many "please redraw" requests (one per output line) into at most one redraw per interval."""
from __future__ import annotations

import threading
import time
from typing import Callable, Optional


class RedrawThrottle:
    """request() from any thread; draw() runs on a timer thread, never more often than every interval."""

    def __init__(self, draw: Callable[[], None], interval: float = 0.3) -> None:
        self.draw = draw
        self.interval = interval
        self._lock = threading.Lock()
        self._timer: Optional[threading.Timer] = None
        self._last = 0.0

    def request(self) -> None:
        with self._lock:
            if self._timer is not None:
                return  # a redraw is already on its way and will show this change too
            delay = max(0.0, self._last + self.interval - time.monotonic())
            self._timer = threading.Timer(delay, self._fire)
            self._timer.daemon = True
            self._timer.start()

    def _fire(self) -> None:
        with self._lock:
            self._timer = None
            self._last = time.monotonic()
        self.draw()
