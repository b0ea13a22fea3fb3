"""Time as something passed in: the runtime's pacing reads a clock, so tests can hold time still and move it.

    clock = ManualClock()
    budget = RateBudget(clock=clock, sleep=clock.sleep)   # sleeping moves the manual clock instead
    clock.advance(0.05)                                    # wakes whatever waits on this clock
"""

from __future__ import annotations

import threading
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, List


def system_clock() -> float:
    """Seconds on a monotonic scale: what every pacing decision reads unless a test passes its own clock."""
    return time.monotonic()


class ManualClock:
    """A clock that moves only when told to. Calling it reads the time; `advance` moves it and wakes waiters."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._listeners: List[Callable[[], None]] = []

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a monotonic clock never goes back")
        with self._lock:
            self._now += seconds
            listeners = list(self._listeners)
        for wake in listeners:
            wake()

    def sleep(self, seconds: float) -> None:
        """What `time.sleep` becomes under this clock: the time passes at once, nobody waits."""
        self.advance(max(0.0, seconds))

    def on_advance(self, wake: Callable[[], None]) -> None:
        """Call `wake` after every advance (a pacer thread re-reads the time instead of waiting it out)."""
        with self._lock:
            self._listeners.append(wake)
