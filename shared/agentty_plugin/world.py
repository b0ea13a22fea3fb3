"""The simulated Agentty window: workspaces, panes, focus, language, and what the host hides without a permission.

Shared by the test harness (`agentty_plugin.testing`) and the browser dev host (`agentty_plugin.host`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple

# What a breach of the host's rules is about: tests match a Violation's `code`, never its words.
EXIT_TOO_SLOW = "exit_too_slow"  # not gone 1.5 s after shutdown (or killed)
UNDECLARED_COMMAND = "undeclared_command"
RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"  # more than 240 messages in a second
LINE_TOO_LONG = "line_too_long"
NOT_JSON_RPC = "not_json_rpc"  # anything else on stdout
BUSY_PANE_TYPED_INTO = "busy_pane_typed_into"
NO_PERMISSION = "no_permission"
INVALID_PANEL = "invalid_panel"
NOTIFICATION_DROPPED = "notification_dropped"  # closer than 700 ms to the previous one
BADGE_TOO_LONG = "badge_too_long"
LINK_GUARD = "link_guard"  # terminal/send after a link reached the plugin
OTHER = "other"


class Violation(str):
    """A breach of the host's rules: the words a person reads, and `code` (one of the constants above)."""

    code: str

    def __new__(cls, text: str, code: str = OTHER) -> Violation:
        violation = super().__new__(cls, text)
        violation.code = code
        return violation


@dataclass
class PaneSpec:
    """A pane in the simulated window. `session` is what `session/get` returns for it (None: no session yet)."""

    id: int
    kind: str = "claude"
    status: str = "idle"
    cwd: Optional[str] = None
    title: Optional[str] = None
    tool: Optional[str] = None
    running: bool = True
    session: Optional[Dict[str, Any]] = None
    # What `session/get` answers instead, as (code, message): e.g. (-32002, "no window"), for failure tests.
    session_error: Optional[Tuple[int, str]] = None
    typed: List[Tuple[str, bool]] = field(default_factory=list)  # (text, submitted) typed into it

    def wire(self) -> Dict[str, Any]:
        session_id = self.session.get("sessionId") if self.session else None
        data: Dict[str, Any] = {
            "id": self.id, "kind": self.kind, "tool": self.tool or self.kind, "title": self.title or self.kind,
            "cwd": self.cwd, "status": self.status, "running": self.running,
        }
        if session_id is not None:
            data["sessionId"] = session_id
        return data


@dataclass
class WorkspaceSpec:
    id: int
    name: str = "workspace"
    cwd: Optional[str] = None
    active: bool = True
    panes: List[PaneSpec] = field(default_factory=list)

    def wire(self) -> Dict[str, Any]:
        return {"id": self.id, "name": self.name, "cwd": self.cwd, "active": self.active,
                "panes": [p.wire() for p in self.panes]}


@dataclass
class World:
    """What the simulated Agentty shows: workspaces, their panes, which pane has focus, the language."""

    workspaces: List[WorkspaceSpec] = field(default_factory=list)
    focused_pane: Optional[int] = None
    language: str = "en"
    window_open: bool = True
    api_version: int = 1
    agentty_version: str = "0.2.6"

    def panes(self) -> List[Tuple[WorkspaceSpec, PaneSpec]]:
        return [(w, p) for w in self.workspaces for p in w.panes]

    def pane(self, pane_id: Any) -> Optional[PaneSpec]:
        for _w, p in self.panes():
            if p.id == pane_id:
                return p
        return None

    def workspace_of(self, pane_id: Any) -> Optional[WorkspaceSpec]:
        for w, p in self.panes():
            if p.id == pane_id:
                return w
        return None

    def context(self) -> Dict[str, Any]:
        context: Dict[str, Any] = {"language": self.language}
        pane = self.pane(self.focused_pane)
        workspace = self.workspace_of(self.focused_pane) if pane else (self.workspaces[0] if self.workspaces else None)
        if workspace is not None:
            context["workspace"] = {"id": workspace.id, "name": workspace.name, "cwd": workspace.cwd,
                                    "active": workspace.active}
        if pane is not None:
            context["pane"] = pane.wire()
        return context


@dataclass
class HostCall:
    """One call the plugin made: method, params, and what the host answered."""

    method: str
    params: Dict[str, Any]
    result: Any = None
    error: Optional[Dict[str, Any]] = None
    at: float = 0.0


class HostError(Exception):
    """What the simulated host answers instead of a result: a JSON-RPC code and message."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def filter_context(context: Mapping[str, Any], permissions: List[str]) -> Dict[str, Any]:
    """Hide what the plugin's permissions do not cover, as the host does."""
    result = json.loads(json.dumps(context))
    if "workspace.read" not in permissions:
        for key in ("cwd", "name"):
            (result.get("workspace") or {}).pop(key, None)
        for key in ("cwd", "title"):
            (result.get("pane") or {}).pop(key, None)
    if "session.read" not in permissions:
        (result.get("pane") or {}).pop("sessionId", None)
    return result  # type: ignore[no-any-return]
