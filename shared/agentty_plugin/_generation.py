"""Generation tokens: a slow handler asks whether a newer one for the same key has started since."""

from __future__ import annotations

import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict


class Generation:
    """A token that tells a slow handler whether a newer one has started for the same key."""

    def __init__(self, counters: Dict[str, int], key: str, lock: threading.Lock) -> None:
        self._counters = counters
        self._key = key
        self._lock = lock
        with lock:
            counters[key] = counters.get(key, 0) + 1
            self.number = counters[key]

    @property
    def is_current(self) -> bool:
        with self._lock:
            return self._counters.get(self._key) == self.number
