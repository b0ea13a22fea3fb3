"""Re-run a failed check once the agent that was asked to fix it has worked and gone idle again."""
from __future__ import annotations

import os
import threading
import time
from typing import Callable, Dict, Iterable, Optional, Tuple

from agentty_plugin import AgenttyError, Pane, Workspace

# The host's status events (context/changed, pane/status) wake the watch at once (wake()); panes that send
# neither (API 1 hosts, panes neither focused nor started by the plugin) are looked at every POLL_SECONDS, often
# enough to see an agent's short turn as busy. Tests set an hour, so that only events end a watch.
POLL_SECONDS = float(os.environ.get("RELEASE_CHECKLIST_WAIT_POLL_SECONDS") or 1.0)
GIVE_UP_SECONDS = 2 * 3600.0  # an agent that never finishes does not keep a thread forever


def find_pane(pane_id: object, workspaces: Iterable[Workspace]) -> Optional[Pane]:
    for workspace in workspaces:
        for pane in workspace.panes:
            if pane.id == pane_id:
                return pane
    return None


class FixWatch:
    """pane id -> step id it is fixing; `rerun(step_id, pane)` is called when that pane is idle after working."""

    def __init__(self, list_workspaces: Callable[[], Iterable[Workspace]],
                 rerun: Callable[[str, Pane], None], clock: Callable[[], float] = time.monotonic) -> None:
        self.list_workspaces = list_workspaces
        self.rerun = rerun
        self.clock = clock
        self._lock = threading.Lock()
        self._watched: Dict[object, Tuple[str, bool, float]] = {}  # pane -> (step, seen busy, since)
        self._wake = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self.stopped = threading.Event()

    def watch(self, pane_id: object, step_id: str) -> None:
        with self._lock:
            self._watched[pane_id] = (step_id, False, self.clock())
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="release-checklist-fix-watch", daemon=True)
                self._thread.start()
        self._wake.set()

    def watching(self) -> Dict[object, str]:
        with self._lock:
            return {pane: entry[0] for pane, entry in self._watched.items()}

    def wake(self) -> None:
        """A pane's status may have changed: look now instead of at the next poll."""
        self._wake.set()

    def stop(self) -> None:
        self.stopped.set()
        self._wake.set()

    def poll(self) -> None:
        """One look at the panes (the thread calls this every POLL_SECONDS; tests may call it directly)."""
        with self._lock:
            watched = dict(self._watched)
        if not watched:
            return
        try:
            workspaces = list(self.list_workspaces())
        except AgenttyError:
            return  # the host did not answer this time: look again later
        now = self.clock()
        for pane_id, (step_id, seen_busy, since) in watched.items():
            pane = find_pane(pane_id, workspaces)
            done = pane is None or now - since > GIVE_UP_SECONDS
            if pane is not None and pane.is_busy:
                with self._lock:
                    if pane_id in self._watched:
                        self._watched[pane_id] = (step_id, True, since)
                continue
            if seen_busy and pane is not None:
                done = True
                self.rerun(step_id, pane)
            if done:
                with self._lock:
                    self._watched.pop(pane_id, None)

    def _run(self) -> None:
        while not self.stopped.is_set():
            self._wake.wait(POLL_SECONDS)
            self._wake.clear()
            if self.stopped.is_set():
                return
            self.poll()
            with self._lock:
                if not self._watched:
                    self._thread = None
                    return
