"""The simulated Agentty window: its workspaces and panes as JSON for the page, and the edits the page may make."""

from __future__ import annotations

import os
import threading
from typing import Any, Dict, List, Mapping, Optional

from agentty_plugin.context import normalize_language
from agentty_plugin.world import PaneSpec, WorkspaceSpec, World

LANGUAGES = ("en", "ja", "ko", "zh")
PANE_KINDS = ("claude", "codex", "shell")
PANE_STATUSES = ("idle", "working", "thinking", "finished", "permission", "question", "interrupted", "shell", "exited")
MAX_TURNS = 2000
MAX_TURN_CHARS = 200_000


class WorldEditError(ValueError):
    """An edit from the page that the simulated window cannot take; the message says which field and why."""


def default_world(cwd: Optional[str] = None, language: str = "en") -> World:
    """One workspace in `cwd` with a Claude pane (focused) and a shell pane: enough for any plugin to start."""
    folder = os.path.abspath(cwd or os.getcwd())
    name = os.path.basename(folder) or folder
    return World(
        workspaces=[WorkspaceSpec(id=1, name=name, cwd=folder, panes=[
            PaneSpec(id=11, kind="claude", status="idle", cwd=folder, title="Claude Code", session={
                "sessionId": "dev-session-1", "title": f"Working on {name}",
                "turns": [{"role": "user", "text": "Hello"}, {"role": "assistant", "text": "Hi! What shall we do?"}],
            }),
            PaneSpec(id=12, kind="shell", status="shell", cwd=folder, title="zsh", tool="zsh"),
        ])],
        focused_pane=11,
        language=language,
    )


def world_to_json(world: World) -> Dict[str, Any]:
    """Everything the page shows about the window, including what plugins typed into each pane."""
    return {
        "language": world.language,
        "focusedPane": world.focused_pane,
        "apiVersion": world.api_version,
        "agenttyVersion": world.agentty_version,
        "workspaces": [
            {
                "id": w.id, "name": w.name, "cwd": w.cwd, "active": w.active,
                "panes": [
                    {
                        "id": p.id, "kind": p.kind, "tool": p.tool or p.kind, "title": p.title or p.kind,
                        "cwd": p.cwd, "status": p.status, "running": p.running, "session": p.session,
                        "typed": [{"text": text, "submitted": submitted} for text, submitted in p.typed[-50:]],
                    }
                    for p in w.panes
                ],
            }
            for w in world.workspaces
        ],
    }


def _check_session(session: Any) -> Optional[Dict[str, Any]]:
    if session is None:
        return None
    if not isinstance(session, Mapping):
        raise WorldEditError("session must be an object like {sessionId, title, turns: [{role, text}]} or null")
    turns = session.get("turns", [])
    if not isinstance(turns, list) or len(turns) > MAX_TURNS:
        raise WorldEditError(f"session.turns must be a list of at most {MAX_TURNS} turns")
    for index, turn in enumerate(turns):
        if not isinstance(turn, Mapping) or turn.get("role") not in ("user", "assistant"):
            raise WorldEditError(f"session.turns[{index}] needs role \"user\" or \"assistant\"")
        if not isinstance(turn.get("text"), str) or len(turn["text"]) > MAX_TURN_CHARS:
            raise WorldEditError(f"session.turns[{index}].text must be a string of at most {MAX_TURN_CHARS} characters")
    session_id = session.get("sessionId")
    if session_id is not None and not isinstance(session_id, str):
        raise WorldEditError("session.sessionId must be a string")
    return dict(session)


class WorldEditor:
    """Applies the page's edits to the shared World under one lock (plugins' new panes arrive from other threads)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.lock = threading.RLock()

    def snapshot(self) -> Dict[str, Any]:
        with self.lock:
            return world_to_json(self.world)

    def focus(self, pane_id: Optional[int]) -> None:
        with self.lock:
            if pane_id is not None and self.world.pane(pane_id) is None:
                raise WorldEditError(f"there is no pane {pane_id}")
            self.world.focused_pane = pane_id

    def set_language(self, language: str) -> None:
        if language not in LANGUAGES:
            raise WorldEditError(f"language must be one of {', '.join(LANGUAGES)}")
        with self.lock:
            self.world.language = normalize_language(language)

    def edit_pane(self, pane_id: int, changes: Mapping[str, Any]) -> bool:
        """Apply field changes to a pane; returns True when the pane has focus (plugins must hear of it)."""
        with self.lock:
            pane = self.world.pane(pane_id)
            if pane is None:
                raise WorldEditError(f"there is no pane {pane_id}")
            updates: Dict[str, Any] = {}
            for key, value in changes.items():
                if key == "kind":
                    if value not in PANE_KINDS:
                        raise WorldEditError(f"kind must be one of {', '.join(PANE_KINDS)}")
                    updates["kind"] = value
                elif key == "status":
                    if value not in PANE_STATUSES:
                        raise WorldEditError(f"status must be one of {', '.join(PANE_STATUSES)}")
                    updates["status"] = value
                elif key in ("cwd", "title", "tool"):
                    if value is not None and not isinstance(value, str):
                        raise WorldEditError(f"{key} must be a string")
                    updates[key] = value or None
                elif key == "running":
                    if not isinstance(value, bool):
                        raise WorldEditError("running must be true or false")
                    updates["running"] = value
                elif key == "session":
                    updates["session"] = _check_session(value)
                else:
                    raise WorldEditError(f"a pane has no editable field {key!r}")
            for key, value in updates.items():
                setattr(pane, key, value)
            return pane_id == self.world.focused_pane

    def add_pane(self, workspace_id: int, kind: str = "claude") -> int:
        """A new idle pane in a workspace (in its folder); returns the new pane's id."""
        if kind not in PANE_KINDS:
            raise WorldEditError(f"kind must be one of {', '.join(PANE_KINDS)}")
        with self.lock:
            workspace = next((w for w in self.world.workspaces if w.id == workspace_id), None)
            if workspace is None:
                raise WorldEditError(f"there is no workspace {workspace_id}")
            taken: List[int] = [p.id for _w, p in self.world.panes()]
            pane_id = max([*taken, workspace_id * 10]) + 1
            workspace.panes.append(PaneSpec(
                id=pane_id, kind=kind, status="shell" if kind == "shell" else "idle", cwd=workspace.cwd,
                title={"claude": "Claude Code", "codex": "Codex", "shell": "zsh"}[kind],
            ))
            return pane_id
