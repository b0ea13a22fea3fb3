"""Watches the shown repository while the panel is open: cheap metadata checks, debounced, plus a slow full refresh."""

from __future__ import annotations

import threading
import time
from typing import Callable, Optional

from .fingerprint import Fingerprint, fingerprint
from .location import RepoLocation

CHECK_SECONDS = 1.5  # how often the git metadata is stat'ed (microseconds of work)
SETTLE_SECONDS = 0.4  # wait until a burst of git activity (a rebase, a checkout) has settled
# Edits inside files leave git's metadata alone, so a full status also runs now and then; its
# period grows with its cost so a huge repository is never re-read back to back.
MIN_FULL_SECONDS = 10.0
FULL_COST_FACTOR = 40.0


class ChangePoller:
    def __init__(self, location: Callable[[], Optional[RepoLocation]], refresh: Callable[[str], None],
                 check_seconds: float = CHECK_SECONDS) -> None:
        self._location = location
        self._refresh = refresh
        self._check_seconds = check_seconds
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._last_full = time.monotonic()
        self._full_seconds = MIN_FULL_SECONDS
        self._last_cost = 0.0
        self._seen: Optional[Fingerprint] = None

    def refreshed(self, seconds: float, location: Optional[RepoLocation]) -> None:
        """Called after every full refresh (from any cause), so the poller does not repeat it."""
        self._last_full = time.monotonic()
        self._full_seconds = max(MIN_FULL_SECONDS, FULL_COST_FACTOR * seconds)
        self._last_cost = seconds
        self._seen = fingerprint(location) if location is not None else None

    def add_cost(self, seconds: float) -> None:
        """Counts the worktree read that followed the last refresh in the period (it runs as often)."""
        self._full_seconds = max(self._full_seconds, FULL_COST_FACTOR * (self._last_cost + seconds))

    def start(self) -> None:
        """Starts a fresh watcher thread (with its own stop flag, so a quick close/open cannot race)."""
        self._stop.set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(self._stop,), name="git-status-poller", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self, stop: threading.Event) -> None:
        while not stop.wait(self._check_seconds):
            location = self._location()
            if location is None:
                continue
            current = fingerprint(location)
            if self._seen is not None and current != self._seen:
                # Debounce: wait until two checks in a row agree, then refresh once.
                while not stop.wait(SETTLE_SECONDS):
                    settled = fingerprint(location)
                    if settled == current:
                        break
                    current = settled
                if not stop.is_set():
                    self._refresh("changed")
            elif time.monotonic() - self._last_full >= self._full_seconds:
                self._refresh("periodic")
            self._seen = current
