"""Reads agent panes' sessions (`session/get`) at once, each with a short deadline: the panel never waits long."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Tuple

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
    """Runs the runtime's `plugin.aio.get_session` and `.list_workspaces` coroutines (passed in by the controller)
    on a private event loop, with our own deadline (the runtime's own call timeout is 60 s)."""

    def __init__(self, get_session: Callable[[Any, int], Awaitable[Any]],
                 list_workspaces: Callable[[], Awaitable[List[Workspace]]],
                 timeout: float = SESSION_TIMEOUT_SECONDS) -> None:
        self._get_session = get_session
        self._list_workspaces = list_workspaces
        self.timeout = timeout
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._lock = threading.Lock()
        self._cache: Dict[Any, Tuple[str, float, SessionResult]] = {}
        self.refused = False  # once refused, stay quiet until the plugin restarts (the grant needs one)

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="git-status-sessions", daemon=True).start()
                self._loop = loop
            return self._loop

    async def _one(self, pane: PaneTag) -> SessionResult:
        try:
            data = await asyncio.wait_for(self._get_session(pane.pane_id, MAX_TURNS), self.timeout)
        except asyncio.TimeoutError:
            return SessionResult(pane.pane_id, pane.kind, "timeout")
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

    def list_workspaces(self) -> List[Workspace]:
        """`workspace/list` with our own deadline; raises AgenttyError (code TIMED_OUT) when Agentty is silent."""
        future = asyncio.run_coroutine_threadsafe(
            asyncio.wait_for(self._list_workspaces(), WORKSPACES_TIMEOUT_SECONDS), self._event_loop())
        try:
            result: List[Workspace] = future.result(WORKSPACES_TIMEOUT_SECONDS + 1.0)
        except (asyncio.TimeoutError, concurrent.futures.TimeoutError) as error:
            future.cancel()
            raise AgenttyError("workspace/list: no answer from Agentty in time", TIMED_OUT, "workspace/list") from error
        return result

    async def _all(self, panes: Sequence[PaneTag]) -> List[SessionResult]:
        return list(await asyncio.gather(*(self._one(p) for p in panes)))

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
            future = asyncio.run_coroutine_threadsafe(self._all(wanted), self._event_loop())
            try:
                fresh = future.result(self.timeout + 1.0)
            except Exception:
                future.cancel()
                fresh = [SessionResult(p.pane_id, p.kind, "timeout") for p in wanted]
            for pane, result in zip(wanted, fresh):
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
