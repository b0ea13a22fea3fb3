"""Hold a confirmed tag, push or publish until the agents at work in its repository are idle, across restarts.

The host tells the plugin when a pane's status changes: `context/changed` for the focused pane and
`pane/status` for panes the plugin started; each wakes the waiter, which then looks at every pane. Panes
that send neither (another pane the user started) are looked at every POLL_SECONDS. An agent is idle
for a moment between tool calls, so "idle" counts once it is still idle SETTLE_MS later.

The wait is written to the data folder when it starts and removed when it ends, so a restart or a
shutdown while waiting loses nothing: the panel picks it up again for that repository and version.
"""
from __future__ import annotations

import os
import threading
from typing import Any, Callable, Dict, List, NamedTuple, Optional

from agentty_plugin import AgenttyError, Pane
from agentty_plugin.state import JsonFile

FILE_NAME = "agent-waits.json"
# Tests set an hour here, so that only the host's events (never the clock) end a wait.
POLL_SECONDS = float(os.environ.get("RELEASE_CHECKLIST_WAIT_POLL_SECONDS") or 3.0)
SETTLE_MS = 1500


class PendingWait(NamedTuple):
    """A step the user confirmed, held until the repository's agents are idle (kept on disk per repository)."""

    version: str
    step: str
    action: str  # ids.ACT_*
    head: str  # HEAD when it was confirmed: a commit made while waiting asks for a new confirmation


def _valid(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(entry, dict) and isinstance(entry.get("version"), str) and isinstance(entry.get("step"), str)
        and isinstance(entry.get("action"), str) and isinstance(entry.get("head"), str) for entry in value.values())


class WaitStore:
    """repository -> PendingWait, in the plugin's data folder (written atomically by the runtime's JsonFile)."""

    def __init__(self, data_dir: str) -> None:
        self.file = JsonFile(os.path.join(data_dir, FILE_NAME))
        self._lock = threading.Lock()

    def _all(self) -> Dict[str, Dict[str, Any]]:
        return dict(self.file.load({}, check=_valid))

    def get(self, repo: str) -> Optional[PendingWait]:
        with self._lock:
            entry = self._all().get(repo)
        return PendingWait(**{field: entry[field] for field in PendingWait._fields}) if entry else None

    def put(self, repo: str, wait: Optional[PendingWait]) -> None:
        """Keep (or, with None, forget) repo's wait. Raises OSError when the data folder refuses it."""
        with self._lock:
            values = self._all()
            if wait is None:
                if values.pop(repo, None) is None:
                    return
            else:
                values[repo] = wait._asdict()
            self.file.save(values)


class AgentWaiter:
    """One wait: calls `ready()` once `busy()` has been empty twice, SETTLE_MS apart (`settle()` waits that
    long), and `still_busy(panes)` whenever it finds agents at work. `wake()` looks again now."""

    def __init__(self, busy: Callable[[], List[Pane]], settle: Callable[[], None], ready: Callable[[], None],
                 still_busy: Callable[[List[Pane]], None], on_error: Callable[[BaseException], None],
                 poll_seconds: float = POLL_SECONDS) -> None:
        self.on_error = on_error  # never a wait that dies silently: the plugin's failure banner
        self.busy = busy
        self.settle = settle
        self.ready = ready
        self.still_busy = still_busy
        self.poll_seconds = poll_seconds
        self.stopped = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._run, name="release-checklist-agent-wait", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self.stopped.set()
        self._wake.set()

    def _look(self) -> Optional[List[Pane]]:
        try:
            return self.busy()
        except AgenttyError:
            return None  # the host did not answer: not known to be idle, look again later

    def _run(self) -> None:
        try:
            self._wait()
        except Exception as error:
            self.stopped.set()
            self.on_error(error)

    def _wait(self) -> None:
        while not self.stopped.is_set():
            self._wake.clear()
            busy = self._look()
            if busy == []:
                self.settle()
                busy = None if self.stopped.is_set() else self._look()
                if busy == []:
                    self.stopped.set()
                    self.ready()
                    return
            if busy:
                self.still_busy(busy)
            self._wake.wait(self.poll_seconds)
