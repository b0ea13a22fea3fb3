"""A host harness for tests: starts a plugin folder exactly as Agentty does and plays the host.

    with PluginHost("plugins/notes-search", world=World(...)) as host:
        host.open_panel()
        host.wait_for_panel(lambda tree: host.find(tree, "search.query"))
        host.type("search.query", "meeting")

It answers the plugin's calls from a configurable World (workspaces, panes, statuses, sessions),
filters context by the manifest's permissions, answers -32001/-32002/-32602 where the real host
would, and records every breach of the host's rules in `violations`.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Deque, Dict, List, Mapping, Optional, Tuple

from . import ui
from ._transport import MAX_LINE_BYTES
from .context import pane_is_busy
from .manifest import Manifest, load_manifest

# Which permission each host method needs (reference: agentty-host.md §2).
METHOD_PERMISSIONS = {
    "host/revealPath": "workspace.read",
    "prompt/inject": "prompt.inject",
    "terminal/send": "terminal.write",
    "session/get": "session.read",
    "workspace/list": "workspace.read",
}
API2_METHODS = ("storage/get", "storage/set", "storage/keys", "host/copy", "host/timer")
NOTIFY_GAP = 0.7
RATE_LIMIT = 240
STORAGE_KEY_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789._-")


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


class PluginHost:
    """Runs one plugin folder as Agentty would and plays the host for tests."""

    def __init__(
        self,
        plugin_dir: str,
        world: Optional[World] = None,
        data_dir: Optional[str] = None,
        python: Optional[str] = None,
        python_args: Optional[List[str]] = None,
        env: Optional[Mapping[str, str]] = None,
        trigger: Optional[str] = None,
        first_request_id: int = 41,
    ) -> None:
        self.plugin_dir = os.path.abspath(str(plugin_dir))
        self.manifest: Manifest = load_manifest(self.plugin_dir)
        self.world = world or World()
        self._temp: Optional[tempfile.TemporaryDirectory[str]] = None
        if data_dir is None:
            self._temp = tempfile.TemporaryDirectory(prefix=f"agentty-{self.manifest.id}-")
            data_dir = self._temp.name
        self.data_dir = os.path.abspath(str(data_dir))
        self.python = python or sys.executable
        self.python_args = list(python_args or [])
        self.extra_env = dict(env or {})
        self.trigger = trigger
        # The real host's request counter is shared by all plugins: initialize is rarely id 1.
        self._ids = itertools.count(first_request_id)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self.process: Optional[subprocess.Popen[bytes]] = None
        self.panels: List[Dict[str, Any]] = []
        self.panel_times: List[float] = []
        self.calls: List[HostCall] = []
        self.notifications: List[Tuple[str, str]] = []
        self.dropped_notifications: List[Tuple[str, str]] = []
        self.badge: str = ""
        self.clipboard: Optional[str] = None
        self.storage: Dict[str, Any] = {}
        self.opened_urls: List[str] = []
        self.violations: List[str] = []
        self.stderr_lines: List[str] = []
        self.stdout_junk: List[str] = []
        self.responses: Dict[Any, Dict[str, Any]] = {}
        self.received: List[Dict[str, Any]] = []  # every JSON-RPC message the plugin wrote, in order
        self.sent: List[Dict[str, Any]] = []  # every message the host wrote to the plugin
        self.initialize_result: Any = None
        self.link_guard = False
        self._line_times: Deque[float] = collections.deque()
        self._last_notify = float("-inf")
        self._last_open_url = float("-inf")
        self._next_pane_id = 1000
        self._threads: List[threading.Thread] = []
        self.exit_code: Optional[int] = None

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> PluginHost:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def environment(self) -> Dict[str, str]:
        env = dict(os.environ)
        # Agentty passes no -u and sets no PYTHONUNBUFFERED: plugins must flush themselves.
        for key in ("PYTHONUNBUFFERED", "PYTHONIOENCODING"):
            env.pop(key, None)
        env.update({
            "AGENTTY_PLUGIN_ID": self.manifest.id,
            "AGENTTY_PLUGIN_DIR": self.plugin_dir,
            "AGENTTY_PLUGIN_DATA": self.data_dir,
            "AGENTTY_VERSION": self.world.agentty_version,
            "AGENTTY_LANGUAGE": self.world.language,
            "AGENTTY_BIN": "agentty",
        })
        env.update(self.extra_env)
        return env

    def start(self) -> None:
        os.makedirs(self.data_dir, mode=0o700, exist_ok=True)
        self.process = subprocess.Popen(
            [self.python, *self.python_args, self.manifest.main],
            cwd=self.plugin_dir,
            env=self.environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for target, stream in ((self._read_stdout, self.process.stdout), (self._read_stderr, self.process.stderr)):
            thread = threading.Thread(target=target, args=(stream,), daemon=True)
            thread.start()
            self._threads.append(thread)
        init_id = next(self._ids)
        self._init_id = init_id
        self.send("initialize", {
            "apiVersion": self.world.api_version,
            "agentty": {"version": self.world.agentty_version},
            "plugin": {"id": self.manifest.id, "name": self.manifest.name, "version": self.manifest.version,
                       "dir": self.plugin_dir, "dataDir": self.data_dir},
            "language": self.world.language,
            "context": self.context(),
        }, request_id=init_id)
        if self.trigger == "panel":
            self.open_panel()

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.shutdown()
        if self._temp is not None:
            self._temp.cleanup()
            self._temp = None

    def shutdown(self, timeout: float = 3.0) -> Tuple[Optional[int], float]:
        """Send `shutdown` and wait; returns (exit code, seconds). Over 1.5 s is a violation, as in Agentty."""
        return self._stop(lambda: self.send("shutdown", {}), timeout)

    def close_stdin(self, timeout: float = 3.0) -> Tuple[Optional[int], float]:
        """Close the plugin's stdin (Agentty went away) and wait for it to exit."""
        return self._stop(self._close_stdin, timeout)

    def terminate(self, timeout: float = 3.0) -> Tuple[Optional[int], float]:
        """Send SIGTERM, as Agentty does when it quits."""
        assert self.process is not None
        return self._stop(self.process.terminate, timeout)

    def _close_stdin(self) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.close()
        except OSError:
            pass

    def _stop(self, action: Callable[[], None], timeout: float) -> Tuple[Optional[int], float]:
        assert self.process is not None
        started = time.monotonic()
        try:
            action()
        except (OSError, ValueError):
            pass
        try:
            code: Optional[int] = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
            self._violation(f"did not exit within {timeout:g} s; killed")
        elapsed = time.monotonic() - started
        if elapsed > 1.5:
            self._violation(f"took {elapsed:.2f} s to exit (Agentty sends SIGTERM after 1.5 s)")
        for thread in self._threads:
            thread.join(2)
        self.exit_code = code
        return code, elapsed

    # ------------------------------------------------------------------ sending to the plugin

    def context(self) -> Dict[str, Any]:
        return filter_context(self.world.context(), self.manifest.permissions)

    def send(self, method: str, params: Mapping[str, Any], request_id: Any = None) -> None:
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": dict(params)}
        if request_id is not None:
            message["id"] = request_id
        with self._lock:
            self.sent.append(message)
        self.send_raw(json.dumps(message, ensure_ascii=False))

    def send_raw(self, line: str) -> None:
        """Write one line to the plugin's stdin exactly as given (for malformed-input tests)."""
        assert self.process is not None and self.process.stdin is not None
        data = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: Mapping[str, Any], timeout: float = 5.0) -> Dict[str, Any]:
        """Send a request to the plugin and wait for its answer (the whole response object)."""
        request_id = next(self._ids)
        self.send(method, params, request_id=request_id)
        self.wait_for(lambda: request_id in self.responses, timeout, f"an answer to {method}")
        return self.responses[request_id]

    def _notify(self, method: str, params: Optional[Dict[str, Any]] = None) -> None:
        payload = dict(params or {})
        payload["context"] = self.context()
        self.send(method, payload)

    def open_panel(self) -> None:
        self._notify("panel/open")

    def close_panel(self) -> None:
        self._notify("panel/close")

    def run_command(self, command: str, args: Any = None) -> None:
        if command not in {c.id for c in self.manifest.commands}:
            self._violation(f"ran command {command!r}, which the manifest does not declare")
        self._notify("command/execute", {"command": command, "args": args})

    def open_url(self, url: str) -> None:
        """Open an agentty://plugin/<id>/<path>?query link; from then on the link guard applies, as in Agentty."""
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        prefix = f"/{self.manifest.id}"
        path = parts.path[len(prefix):] if parts.path.startswith(prefix) else parts.path
        self.link_guard = True
        self._notify("url/open", {"path": path.strip("/"), "query": parts.query, "url": url})

    def event(self, element: str, event: str, **fields: Any) -> None:
        params = {"element": element, "event": event}
        params.update({k: v for k, v in fields.items() if v is not None})
        self._notify("ui/event", params)

    def _require(self, element: str) -> Dict[str, Any]:
        node = self.find(self.panel, element) if self.panel else None
        if node is None:
            raise LookupError(f"no element {element!r} in the current panel")
        return node

    def click(self, element: str) -> None:
        node = self._require(element)
        if node.get("disabled"):
            raise LookupError(f"button {element!r} is disabled")
        self.event(element, "click")

    def type(self, element: str, text: str) -> None:
        """What Agentty sends when typing pauses: a `change` with the field's whole text."""
        self._require(element)
        self.event(element, "change", value=text)

    def submit(self, element: str, text: str) -> None:
        self._require(element)
        self.event(element, "submit", value=text)

    def select(self, element: str, item: str) -> None:
        self._require(element)
        self.event(element, "select", item=item)

    def row_action(self, element: str, item: str, action: str) -> None:
        self._require(element)
        self.event(element, "action", item=item, action=action)

    def choose(self, element: str, value: str) -> None:
        self._require(element)
        self.event(element, "change", value=value)

    def toggle(self, element: str, value: bool) -> None:
        self._require(element)
        self.event(element, "change", value=bool(value))

    def focus(self, pane_id: Optional[int]) -> None:
        self.world.focused_pane = pane_id
        self._notify("context/changed")

    def set_pane_status(self, pane_id: int, status: str) -> None:
        pane = self.world.pane(pane_id)
        if pane is None:
            raise LookupError(f"no pane {pane_id}")
        pane.status = status
        if pane_id == self.world.focused_pane:
            self._notify("context/changed")

    def set_language(self, language: str) -> None:
        self.world.language = language
        self._notify("context/changed")

    # ------------------------------------------------------------------ reading from the plugin

    def _count_line(self) -> None:
        now = time.monotonic()
        self._line_times.append(now)
        while self._line_times and now - self._line_times[0] > 1.0:
            self._line_times.popleft()
        if len(self._line_times) > RATE_LIMIT:
            self._violation(f"sent more than {RATE_LIMIT} messages a second (Agentty stops such a plugin)")
            self._line_times.clear()

    def _read_stdout(self, stream: IO[bytes]) -> None:
        while True:
            raw = stream.readline(MAX_LINE_BYTES + 1)
            # When the line arrived, before this harness parses and checks it: what the plugin's
            # timing is measured against (Agentty's own parsing is not the plugin's latency).
            arrived = time.monotonic()
            if not raw:
                return
            with self._lock:
                self._count_line()
            if len(raw) > MAX_LINE_BYTES:
                self._violation("wrote a stdout line over 16 MB")
                continue
            text = raw.decode("utf-8", "replace").strip()
            if not text:
                continue
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            if not isinstance(message, dict):
                with self._lock:
                    self.stdout_junk.append(text)
                self._violation(f"wrote something that is not JSON-RPC to stdout: {text[:80]!r}")
                continue
            self._handle(message, arrived)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        while True:
            raw = stream.readline()
            if not raw:
                return
            with self._changed:
                self._count_line()
                self.stderr_lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self._changed.notify_all()

    def _handle(self, message: Dict[str, Any], arrived: float) -> None:
        with self._lock:
            self.received.append(message)
        method = message.get("method")
        if not isinstance(method, str):
            with self._changed:
                self.responses[message.get("id")] = message
                if message.get("id") == getattr(self, "_init_id", object()):
                    self.initialize_result = message.get("result")
                self._changed.notify_all()
            return
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        assert isinstance(params, dict)
        request_id = message.get("id")
        call = HostCall(method=method, params=params, at=arrived)
        try:
            result = self._answer(method, params, arrived)
            call.result = result
            reply: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "result": result}
        except HostError as error:
            call.error = {"code": error.code, "message": error.message}
            reply = {"jsonrpc": "2.0", "id": request_id, "error": call.error}
        with self._changed:
            if method != "ui/setPanel":
                self.calls.append(call)
            self._changed.notify_all()
        if request_id is not None and self.process is not None and self.process.poll() is None:
            try:
                self.send_raw(json.dumps(reply, ensure_ascii=False))
            except (OSError, ValueError):
                pass

    def _violation(self, text: str) -> None:
        with self._changed:
            self.violations.append(text)
            self._changed.notify_all()

    # ------------------------------------------------------------------ the host's answers

    def _permission(self, method: str) -> None:
        needed = METHOD_PERMISSIONS.get(method)
        if needed and needed not in self.manifest.permissions:
            self._violation(f"called {method} without the {needed} permission")
            raise HostError(-32001, f'{method} needs the "{needed}" permission in agentty-plugin.json')

    def _target_pane(self, pane_id: Any) -> PaneSpec:
        pane = self.world.pane(self.world.focused_pane if pane_id is None else pane_id)
        if pane is None:
            raise HostError(-32602, f"no pane {pane_id}" if pane_id is not None else "no focused pane")
        return pane

    def _type_into(self, pane: PaneSpec, text: str, submit: bool, how: str) -> None:
        if pane_is_busy(pane.status):
            self._violation(f"{how} typed into pane {pane.id} while it was {pane.status}")
        pane.typed.append((text, submit))

    def _answer(self, method: str, params: Dict[str, Any], arrived: float) -> Any:
        if method in API2_METHODS and self.world.api_version < 2:
            raise HostError(-32601, f"unknown method {method}")
        self._permission(method)
        needs_window = method in ("prompt/inject", "terminal/send", "session/get", "host/revealPath")
        if needs_window and not self.world.window_open:
            raise HostError(-32002, "no Agentty window is open")
        if method == "ui/setPanel":
            try:
                tree = ui.prepare(params.get("tree"))
            except ui.UITreeError as error:
                self._violation(str(error))
                raise HostError(-32602, str(error)) from None
            with self._changed:
                self.panels.append(tree)
                self.panel_times.append(arrived)
                self._changed.notify_all()
            return None
        if method == "ui/showPanel":
            return None
        if method == "ui/notify":
            now = time.monotonic()
            entry = (str(params.get("message", ""))[:300], str(params.get("kind", "info")))
            if entry[1] not in ("info", "success", "warning", "error"):
                raise HostError(-32602, f"unknown notification kind {entry[1]!r}")
            with self._lock:
                if now - self._last_notify < NOTIFY_GAP:
                    self.dropped_notifications.append(entry)
                    self._violation(f"notification dropped (closer than 700 ms to the previous one): {entry[0]!r}")
                else:
                    self._last_notify = now
                    self.notifications.append(entry)
            return None
        if method == "ui/setBadge":
            text = params.get("text")
            text = "" if text is None else str(text)
            if len(text) > 8:
                self._violation(f"badge {text!r} is longer than 8 characters (Agentty cuts it)")
            self.badge = text[:8]
            return None
        if method == "context/get":
            return self.context()
        if method == "host/info":
            return {"version": self.world.agentty_version, "apiVersion": self.world.api_version,
                    "language": self.world.language}
        if method == "host/openUrl":
            url = str(params.get("url", ""))
            if not url.startswith(("http://", "https://")):
                raise HostError(-32602, "only http and https links can be opened")
            now = time.monotonic()
            if now - self._last_open_url < NOTIFY_GAP:
                raise HostError(-32002, "links are opened at most every 700 ms")
            self._last_open_url = now
            self.opened_urls.append(url)
            return None
        if method == "host/revealPath":
            path = params.get("path")
            if not isinstance(path, str) or not os.path.isabs(path) or not os.path.exists(path):
                raise HostError(-32602, "the path must be absolute and exist")
            return None
        if method == "prompt/inject":
            return self._inject(params)
        if method == "terminal/send":
            if self.link_guard:
                self._violation("terminal/send after a link reached the plugin (refused by the link guard)")
                raise HostError(-32001, "terminal/send is blocked after a link until the plugin restarts")
            pane = self._target_pane(params.get("paneId"))
            self._type_into(pane, str(params.get("text", "")), bool(params.get("submit")), "terminal/send")
            return {"paneId": pane.id}
        if method == "session/get":
            pane = self._target_pane(params.get("paneId"))
            if pane.session is None:
                raise HostError(-32002, "this pane has no session yet")
            max_turns = params.get("maxTurns", 200)
            max_turns = max(1, min(int(max_turns) if isinstance(max_turns, int) else 200, 2000))
            turns = list(pane.session.get("turns", []))
            return {
                "paneId": pane.id, "agent": pane.kind, "sessionId": pane.session.get("sessionId"),
                "title": pane.session.get("title", pane.title), "cwd": pane.session.get("cwd", pane.cwd),
                "status": pane.status, "turnCount": len(turns), "turns": turns[-max_turns:],
            }
        if method == "workspace/list":
            return [filter_context({"workspace": w.wire()}, self.manifest.permissions)["workspace"]
                    for w in self.world.workspaces]
        if method == "storage/get":
            return {"key": params.get("key"), "value": self.storage.get(str(params.get("key")))}
        if method == "storage/set":
            key = params.get("key")
            if not isinstance(key, str) or not key or len(key) > 64 or set(key) - STORAGE_KEY_CHARS:
                raise HostError(-32602, "storage keys use a-z 0-9 . _ - and are at most 64 characters")
            if params.get("value") is None:
                self.storage.pop(key, None)
            else:
                self.storage[key] = params.get("value")
            return None
        if method == "storage/keys":
            return sorted(self.storage)
        if method == "host/copy":
            text = str(params.get("text", ""))
            if len(text) > 100_000:
                raise HostError(-32602, "at most 100,000 characters can be copied")
            self.clipboard = text
            return None
        if method == "host/timer":
            ms = params.get("ms")
            if not isinstance(ms, int) or not 100 <= ms <= 3_600_000:
                raise HostError(-32602, "timers run from 100 ms to 1 hour")
            # Answered at once: tests should not wait for simulated timers.
            return {"elapsedMs": ms}
        raise HostError(-32601, f"unknown method {method}")

    def _inject(self, params: Dict[str, Any]) -> Any:
        text = params.get("text")
        if not isinstance(text, str):
            raise HostError(-32602, "prompt/inject needs text")
        target = params.get("target", "ask")
        submit = params.get("submit", True) is not False
        if target == "ask" or (self.link_guard and target in ("active", "pane", "workspace")):
            return {"status": "asked"}
        if target in ("newTab", "newWorkspace"):
            agent = params.get("agent", "claude")
            self._next_pane_id += 1
            pane = PaneSpec(id=self._next_pane_id, kind=str(agent), status="idle", cwd=params.get("cwd"),
                            title=params.get("title"))
            pane.typed.append((text, submit and agent != "shell" and not self.link_guard))
            if target == "newWorkspace" or not self.world.workspaces:
                self.world.workspaces.append(WorkspaceSpec(
                    id=self._next_pane_id, name=str(params.get("title") or "new"), cwd=params.get("cwd"), panes=[pane]))
            else:
                focused_ws = self.world.workspace_of(self.world.focused_pane) or self.world.workspaces[0]
                focused_ws.panes.append(pane)
            return {"status": "sent", "paneId": pane.id}
        if target == "active":
            pane = self._target_pane(None)
        elif target == "pane":
            pane = self._target_pane(params.get("paneId"))
        elif target == "workspace":
            workspace = next((w for w in self.world.workspaces if w.id == params.get("workspaceId")), None)
            if workspace is None or not workspace.panes:
                raise HostError(-32602, f"no workspace {params.get('workspaceId')}")
            pane = workspace.panes[0]
        else:
            raise HostError(-32602, f"unknown target {target!r}")
        self._type_into(pane, text, submit and pane.kind != "shell", "prompt/inject")
        return {"status": "sent", "paneId": pane.id}

    # ------------------------------------------------------------------ waiting and looking

    @property
    def panel(self) -> Optional[Dict[str, Any]]:
        with self._lock:
            return self.panels[-1] if self.panels else None

    def wait_for(self, condition: Callable[[], Any], timeout: float = 10.0, what: str = "a condition") -> Any:
        """Wait until `condition()` is truthy and return it; on timeout raise with what we saw."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                value = condition()
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(self._timeout_report(what))
                if self.process is not None and self.process.poll() is not None:
                    value = condition()
                    if value:
                        return value
                    raise RuntimeError(f"plugin exited with {self.process.returncode} while waiting for {what}\n"
                                       + self.stderr_text()[-3000:])
                self._changed.wait(min(remaining, 0.1))

    def _timeout_report(self, what: str) -> str:
        panel = json.dumps(self.panel, ensure_ascii=False)[:1500] if self.panel else "none"
        return (f"timed out waiting for {what}\nlatest panel: {panel}\ncalls: "
                f"{[c.method for c in self.calls][-20:]}\nstderr:\n{self.stderr_text()[-2000:]}")

    def wait_for_panel(self, predicate: Callable[[Dict[str, Any]], Any] = bool, timeout: float = 10.0,
                       after: int = 0) -> Dict[str, Any]:
        """The newest panel (received after the first `after` panels) for which `predicate(tree)` is truthy."""

        def newest() -> Optional[Dict[str, Any]]:
            tree = self.panel
            return tree if tree is not None and len(self.panels) > after and predicate(tree) else None

        result: Dict[str, Any] = self.wait_for(newest, timeout, "a matching panel")
        return result

    def wait_for_text(self, text: str, timeout: float = 10.0) -> Dict[str, Any]:
        """The newest panel that shows `text` somewhere (as a substring of any visible string)."""
        return self.wait_for_panel(lambda tree: any(text in s for s in ui.texts(tree)), timeout)

    def wait_for_call(self, method: str, predicate: Callable[[HostCall], Any] = lambda _c: True,
                      timeout: float = 10.0, after: int = 0) -> HostCall:
        def match() -> Optional[HostCall]:
            for call in self.calls[after:]:
                if call.method == method and predicate(call):
                    return call
            return None

        result: HostCall = self.wait_for(match, timeout, f"a {method} call")
        return result

    def wait_idle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until the plugin has sent nothing for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                count = len(self.panels) + len(self.calls) + len(self.stderr_lines)
            time.sleep(quiet)
            with self._lock:
                if count == len(self.panels) + len(self.calls) + len(self.stderr_lines):
                    return
        raise TimeoutError("the plugin never went quiet")

    def calls_of(self, method: str) -> List[HostCall]:
        with self._lock:
            return [c for c in self.calls if c.method == method]

    def stderr_text(self) -> str:
        with self._lock:
            return "\n".join(self.stderr_lines)

    @staticmethod
    def find(tree: Any, element_id: str) -> Optional[Dict[str, Any]]:
        return ui.find(tree, element_id)

    @staticmethod
    def texts(tree: Any) -> List[str]:
        return ui.texts(tree)
