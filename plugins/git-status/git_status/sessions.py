"""Reads agent panes' sessions (`session/get`) together, with one short deadline: the panel never waits long."""

from __future__ import annotations

import threading
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from agentty_plugin import AgenttyError, Workspace
from agentty_plugin.errors import TIMED_OUT

from .attribution import MAX_TURNS, SessionResult
from .worktrees import PaneTag

# session/get answers from memory in Agentty; an answer this late means it is stuck, and
# attribution is only a hint: show the files without it rather than wait.
SESSION_TIMEOUT_SECONDS = 1.5
# workspace/list answers from memory too; the status is drawn already, so the worktree read may wait a bit longer.
WORKSPACES_TIMEOUT_SECONDS = 3.0
# A session is read again when its pane's status changed, or after this long.
CACHE_SECONDS = 20.0


class SessionReader:
    """Asks Agentty through the runtime's `plugin.within(seconds)`: calls with a deadline of their own (the
    runtime's usual call timeout is 60 s), all sessions in flight at once."""

    def __init__(self, plugin: Any, timeout: float = SESSION_TIMEOUT_SECONDS) -> None:
        self._plugin = plugin
        self.timeout = timeout
        self._lock = threading.Lock()
        self._cache: Dict[Any, Tuple[str, float, SessionResult]] = {}
        self.refused = False  # once refused, stay quiet until the plugin restarts (the grant needs one)

    def list_workspaces(self) -> List[Workspace]:
        """`workspace/list` with our own deadline; raises AgenttyError (code TIMED_OUT) when Agentty is silent."""
        result: List[Workspace] = self._plugin.within(WORKSPACES_TIMEOUT_SECONDS).list_workspaces()
        return result

    @staticmethod
    def _answer(pane: PaneTag, pending: Any) -> SessionResult:
        try:
            data = pending.result()
        except AgenttyError as error:
            if error.is_permission:
                return SessionResult(pane.pane_id, pane.kind, "refused")
            if error.is_unavailable:
                return SessionResult(pane.pane_id, pane.kind, "no-session")
            if error.code == TIMED_OUT:
                return SessionResult(pane.pane_id, pane.kind, "timeout")
            return SessionResult(pane.pane_id, pane.kind, "error")
        except Exception:  # a malformed answer is a missing hint, never a broken panel
            return SessionResult(pane.pane_id, pane.kind, "error")
        turns = data.get("turns") if isinstance(data, dict) else None
        cwd = data.get("cwd") if isinstance(data, dict) and isinstance(data.get("cwd"), str) else None
        return SessionResult(pane.pane_id, pane.kind, "ok", cwd, [t for t in turns or [] if isinstance(t, dict)])

    def _read_all(self, panes: Sequence[PaneTag]) -> List[SessionResult]:
        soon = self._plugin.within(self.timeout)
        sent = []
        for pane in panes:
            try:
                sent.append((pane, soon.start("get_session", pane.pane_id, MAX_TURNS)))
            except Exception:  # the plugin is stopping: no hints this time
                sent.append((pane, None))
        return [self._answer(pane, pending) if pending is not None
                else SessionResult(pane.pane_id, pane.kind, "error") for pane, pending in sent]

    def read(self, panes: Sequence[Tuple[PaneTag, Optional[str]]]) -> List[SessionResult]:
        """`panes` is (pane, its folder); results keep that order. Waits at most about `timeout`."""
        if self.refused:
            return [SessionResult(p.pane_id, p.kind, "refused") for p, _ in panes]
        now = time.monotonic()
        results: Dict[Any, SessionResult] = {}
        wanted: List[PaneTag] = []
        for pane, _cwd in panes:
            with self._lock:
                cached = self._cache.get(pane.pane_id)
            if cached and cached[0] == pane.status and now - cached[1] < CACHE_SECONDS:
                results[pane.pane_id] = cached[2]
            else:
                wanted.append(pane)
        if wanted:
            for pane, result in zip(wanted, self._read_all(wanted)):
                results[pane.pane_id] = result
                if result.state == "refused":
                    self.refused = True
                if result.state in ("ok", "no-session"):
                    with self._lock:
                        self._cache[pane.pane_id] = (pane.status, now, result)
        ordered: List[SessionResult] = []
        for pane, cwd in panes:
            result = results[pane.pane_id]
            # The pane's own folder places it in a worktree; the session's is only a fallback.
            result.cwd = cwd or result.cwd
            ordered.append(result)
        return ordered
