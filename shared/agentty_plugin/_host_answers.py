"""The simulated host's answers as data: the rules every call passes, then one small function per method.

Each answer gets the host, the call's params and when the line arrived; it returns the result or
raises HostError with the code Agentty would answer (reference: agentty-host.md §2 and §5).
"""

from __future__ import annotations

import os
import time

from . import ui
from ._calls import SESSION_MAX_TURNS  # the host's cap, which the runtime also clamps to
from .world import (
    BADGE_TOO_LONG,
    INVALID_PANEL,
    LINK_GUARD,
    NO_PERMISSION,
    NOTIFICATION_DROPPED,
    HostError,
    PaneSpec,
    WorkspaceSpec,
    filter_context,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading
    from typing import Any, Callable, Dict, List, Protocol, Tuple

    from .manifest import Manifest
    from .world import World

    class SimulatedHost(Protocol):
        """What an answer may read and change of the host (agentty_plugin.host.SimulatedHost has it all)."""

        world: World
        manifest: Manifest
        badge: str
        clipboard: Any
        storage: Dict[str, Any]
        notifications: List[Tuple[str, str]]
        dropped_notifications: List[Tuple[str, str]]
        opened_urls: List[str]
        last_notify: float
        last_open_url: float
        link_guard: bool

        @property
        def lock(self) -> threading.RLock: ...
        def context(self) -> Dict[str, Any]: ...
        def violation(self, text: str, code: str = ...) -> None: ...
        def record_panel(self, tree: Dict[str, Any], arrived: float) -> None: ...
        def type_into(self, pane: PaneSpec, text: str, submit: bool, how: str) -> None: ...
        def new_pane_id(self) -> int: ...

    Answer = Callable[[SimulatedHost, Dict[str, Any], float], Any]

# Which permission each host method needs.
METHOD_PERMISSIONS = {
    "host/revealPath": "workspace.read",
    "prompt/inject": "prompt.inject",
    "terminal/send": "terminal.write",
    "session/get": "session.read",
    "workspace/list": "workspace.read",
}
API2_METHODS = frozenset({"storage/get", "storage/set", "storage/keys", "host/copy", "host/timer"})
NEEDS_WINDOW = frozenset({"prompt/inject", "terminal/send", "session/get", "host/revealPath"})
NOTIFY_GAP = 0.7
RATE_LIMIT = 240
STORAGE_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789._-")


def answer(host: SimulatedHost, method: str, params: Dict[str, Any], arrived: float) -> Any:
    """Apply the rules every call passes (API version, permission, an open window), then the method's answer."""
    if method in API2_METHODS and host.world.api_version < 2:
        raise HostError(-32601, f"unknown method {method}")
    needed = METHOD_PERMISSIONS.get(method)
    if needed and needed not in host.manifest.permissions:
        host.violation(f"called {method} without the {needed} permission", NO_PERMISSION)
        raise HostError(-32001, f'{method} needs the "{needed}" permission in agentty-plugin.json')
    if method in NEEDS_WINDOW and not host.world.window_open:
        raise HostError(-32002, "no Agentty window is open")
    respond = ANSWERS.get(method)
    if respond is None:
        raise HostError(-32601, f"unknown method {method}")
    return respond(host, params, arrived)


def target_pane(host: SimulatedHost, pane_id: Any) -> PaneSpec:
    pane = host.world.pane(host.world.focused_pane if pane_id is None else pane_id)
    if pane is None:
        raise HostError(-32602, f"no pane {pane_id}" if pane_id is not None else "no focused pane")
    return pane


def _set_panel(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> None:
    try:
        tree = ui.prepare(params.get("tree"))
    except ui.UITreeError as error:
        host.violation(str(error), INVALID_PANEL)
        raise HostError(-32602, str(error)) from None
    host.record_panel(tree, arrived)


def _nothing(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> None:
    return None


def _notify(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> None:
    now = time.monotonic()
    entry = (str(params.get("message", ""))[:300], str(params.get("kind", "info")))
    if entry[1] not in ("info", "success", "warning", "error"):
        raise HostError(-32602, f"unknown notification kind {entry[1]!r}")
    with host.lock:
        if now - host.last_notify < NOTIFY_GAP:
            host.dropped_notifications.append(entry)
            host.violation(f"notification dropped (closer than 700 ms to the previous one): {entry[0]!r}",
                           NOTIFICATION_DROPPED)
        else:
            host.last_notify = now
            host.notifications.append(entry)


def _set_badge(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> None:
    text = params.get("text")
    text = "" if text is None else str(text)
    if len(text) > 8:
        host.violation(f"badge {text!r} is longer than 8 characters (Agentty cuts it)", BADGE_TOO_LONG)
    host.badge = text[:8]


def _context(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> Dict[str, Any]:
    return host.context()


def _host_info(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> Dict[str, Any]:
    world = host.world
    return {"version": world.agentty_version, "apiVersion": world.api_version, "language": world.language}


def _open_url(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> None:
    url = str(params.get("url", ""))
    if not url.startswith(("http://", "https://")):
        raise HostError(-32602, "only http and https links can be opened")
    now = time.monotonic()
    if now - host.last_open_url < NOTIFY_GAP:
        raise HostError(-32002, "links are opened at most every 700 ms")
    host.last_open_url = now
    host.opened_urls.append(url)


def _reveal_path(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> None:
    path = params.get("path")
    if not isinstance(path, str) or not os.path.isabs(path) or not os.path.exists(path):
        raise HostError(-32602, "the path must be absolute and exist")


def _terminal_send(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> Dict[str, Any]:
    if host.link_guard:
        host.violation("terminal/send after a link reached the plugin (refused by the link guard)", LINK_GUARD)
        raise HostError(-32001, "terminal/send is blocked after a link until the plugin restarts")
    pane = target_pane(host, params.get("paneId"))
    host.type_into(pane, str(params.get("text", "")), bool(params.get("submit")), "terminal/send")
    return {"paneId": pane.id}


def _session(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> Dict[str, Any]:
    pane = target_pane(host, params.get("paneId"))
    if pane.session_error is not None:
        raise HostError(*pane.session_error)
    if pane.session is None:
        raise HostError(-32002, "this pane has no session yet")
    max_turns = params.get("maxTurns", 200)
    max_turns = max(1, min(int(max_turns) if isinstance(max_turns, int) else 200, SESSION_MAX_TURNS))
    turns = list(pane.session.get("turns", []))
    return {
        "paneId": pane.id, "agent": pane.kind, "sessionId": pane.session.get("sessionId"),
        "title": pane.session.get("title", pane.title), "cwd": pane.session.get("cwd", pane.cwd),
        "status": pane.status, "turnCount": len(turns), "turns": turns[-max_turns:],
    }


def _workspaces(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> Any:
    return [filter_context({"workspace": w.wire()}, host.manifest.permissions)["workspace"]
            for w in host.world.workspaces]


def _storage_get(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> Dict[str, Any]:
    return {"key": params.get("key"), "value": host.storage.get(str(params.get("key")))}


def _storage_set(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> None:
    key = params.get("key")
    if not isinstance(key, str) or not key or len(key) > 64 or set(key) - STORAGE_KEY_CHARS:
        raise HostError(-32602, "storage keys use a-z 0-9 . _ - and are at most 64 characters")
    if params.get("value") is None:
        host.storage.pop(key, None)
    else:
        host.storage[key] = params.get("value")


def _storage_keys(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> Any:
    return sorted(host.storage)


def _copy(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> None:
    text = str(params.get("text", ""))
    if len(text) > 100_000:
        raise HostError(-32602, "at most 100,000 characters can be copied")
    host.clipboard = text


def _timer(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> Dict[str, Any]:
    ms = params.get("ms")
    if not isinstance(ms, int) or not 100 <= ms <= 3_600_000:
        raise HostError(-32602, "timers run from 100 ms to 1 hour")
    return {"elapsedMs": ms}  # answered at once: tests should not wait for simulated timers


def _inject(host: SimulatedHost, params: Dict[str, Any], arrived: float) -> Dict[str, Any]:
    text = params.get("text")
    if not isinstance(text, str):
        raise HostError(-32602, "prompt/inject needs text")
    target = params.get("target", "ask")
    submit = params.get("submit", True) is not False
    world = host.world
    if target == "ask" or (host.link_guard and target in ("active", "pane", "workspace")):
        return {"status": "asked"}
    if target in ("newTab", "newWorkspace"):
        agent = params.get("agent", "claude")
        pane = PaneSpec(id=host.new_pane_id(), kind=str(agent), status="idle", cwd=params.get("cwd"),
                        title=params.get("title"))
        pane.typed.append((text, submit and agent != "shell" and not host.link_guard))
        if target == "newWorkspace" or not world.workspaces:
            world.workspaces.append(WorkspaceSpec(
                id=pane.id, name=str(params.get("title") or "new"), cwd=params.get("cwd"), panes=[pane]))
        else:
            focused_ws = world.workspace_of(world.focused_pane) or world.workspaces[0]
            focused_ws.panes.append(pane)
        return {"status": "sent", "paneId": pane.id}
    if target == "active":
        pane = target_pane(host, None)
    elif target == "pane":
        pane = target_pane(host, params.get("paneId"))
    elif target == "workspace":
        workspace = next((w for w in world.workspaces if w.id == params.get("workspaceId")), None)
        if workspace is None or not workspace.panes:
            raise HostError(-32602, f"no workspace {params.get('workspaceId')}")
        pane = workspace.panes[0]
    else:
        raise HostError(-32602, f"unknown target {target!r}")
    host.type_into(pane, text, submit and pane.kind != "shell", "prompt/inject")
    return {"status": "sent", "paneId": pane.id}


ANSWERS: Dict[str, Answer] = {
    "ui/setPanel": _set_panel,
    "ui/showPanel": _nothing,
    "ui/notify": _notify,
    "ui/setBadge": _set_badge,
    "context/get": _context,
    "host/info": _host_info,
    "host/openUrl": _open_url,
    "host/revealPath": _reveal_path,
    "prompt/inject": _inject,
    "terminal/send": _terminal_send,
    "session/get": _session,
    "workspace/list": _workspaces,
    "storage/get": _storage_get,
    "storage/set": _storage_set,
    "storage/keys": _storage_keys,
    "host/copy": _copy,
    "host/timer": _timer,
}
