"""One plugin folder in the dev host: its harness process, restarts, and the log and panel the page shows."""

from __future__ import annotations

import collections
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Dict, List, Mapping, Optional, Tuple

import agentty_plugin
from agentty_plugin import ui
from agentty_plugin.host import SimulatedHost
from agentty_plugin.manifest import Manifest, ManifestError, load_manifest
from agentty_plugin.world import HostCall, Violation, World

from .watcher import Fingerprint, fingerprint

LOG_LIMIT = 2000          # entries kept per plugin (the page gets the newest SNAPSHOT_LOG on connect)
SNAPSHOT_LOG = 600
STDERR_LINE_CHARS = 2000  # Agentty keeps stderr lines up to 2,000 characters in the plugin log
LOG_TEXT_CHARS = 20000    # long prompts are cut in the log, never in what the plugin receives
# Host calls a plugin author most wants to see; the page highlights these.
EFFECT_METHODS = ("prompt/inject", "terminal/send", "host/openUrl", "host/revealPath", "host/copy")
EVENT_KINDS = ("click", "change", "submit", "select", "action")
RUNTIME_FOLDER = os.path.dirname(os.path.abspath(agentty_plugin.__file__))


class EventRefused(ValueError):
    """The page asked for an event that Agentty could not send (no such element, disabled button, …)."""


@dataclass
class Drained:
    """What the harness recorded since the last drain."""

    panel: Optional[Dict[str, Any]] = None
    calls: List[HostCall] = field(default_factory=list)
    shown: List[Tuple[str, str]] = field(default_factory=list)
    dropped: List[Tuple[str, str]] = field(default_factory=list)
    violations: List[Violation] = field(default_factory=list)
    stderr: List[str] = field(default_factory=list)
    badge: str = ""


class DevPluginHost(SimulatedHost):
    """The harness, plus `drain()` so a long dev session does not keep every panel and call in memory."""

    def drain(self) -> Drained:
        # The harness appends under its own lock from reader threads; take and clear under the same lock
        # so nothing recorded between the copy and the clear is lost.
        with self._lock:
            out = Drained(
                panel=self.panels[-1] if self.panels else None,
                calls=self.calls[:], shown=self.notifications[:], dropped=self.dropped_notifications[:],
                violations=self.violations[:], stderr=self.stderr_lines[:], badge=self.badge,
            )
            del self.panels[:-1], self.panel_times[:-1]
            for records in (self.calls, self.notifications, self.dropped_notifications, self.violations,
                            self.stderr_lines):
                records.clear()
            return out


def _short(value: Any) -> Any:
    """A copy of call params with very long strings cut, for the log only."""
    if isinstance(value, str):
        return value if len(value) <= LOG_TEXT_CHARS else value[:LOG_TEXT_CHARS] + f"… ({len(value)} characters)"
    if isinstance(value, Mapping):
        return {str(k): _short(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_short(v) for v in value]
    return value


class PluginRunner:
    """Starts, restarts and watches one plugin folder; turns the harness's records into page updates."""

    def __init__(self, folder: str, world: World, data_root: str, key: Optional[str] = None,
                 world_lock: Optional[threading.RLock] = None, python: Optional[str] = None) -> None:
        self.folder = os.path.abspath(folder)
        self.python = python  # None: this interpreter (the project's venv); e.g. "python3" to test as users run
        self.world = world
        self.data_root = os.path.abspath(data_root)
        self.key = key or os.path.basename(os.path.normpath(self.folder))
        self.world_lock = world_lock or threading.RLock()
        self.manifest: Optional[Manifest] = None
        self.problem: Optional[str] = None
        self.host: Optional[DevPluginHost] = None
        self.state = "new"       # new | invalid | running | stopped | failed | restarting
        self.exit_code: Optional[int] = None
        self.panel: Optional[Dict[str, Any]] = None
        self.panel_seq = 0
        self._sent_panel_seq = -1
        self.badge = ""
        self.panel_open = False
        self.log: Deque[Dict[str, Any]] = collections.deque(maxlen=LOG_LIMIT)
        self._log_seq = 0
        self._pending: List[Dict[str, Any]] = []
        self._dirty = True
        self._lock = threading.RLock()
        self.watched: Fingerprint = {}
        self.restarts = 0

    # ------------------------------------------------------------------ lifecycle

    @property
    def plugin_id(self) -> str:
        return self.manifest.id if self.manifest else self.key

    @property
    def data_dir(self) -> str:
        return os.path.join(self.data_root, self.plugin_id)

    def watch_folders(self) -> List[str]:
        """The plugin folder and the runtime it imports: a change to either restarts the plugin."""
        return [self.folder, RUNTIME_FOLDER]

    def start(self, reason: str = "started") -> None:
        with self._lock:
            self.watched = fingerprint(self.watch_folders())
            try:
                self.manifest = load_manifest(self.folder)
            except ManifestError as error:
                self.manifest = None
                self.problem = "; ".join(error.problems)
                self.state = "invalid"
                self._record("lifecycle", text=f"not started: {self.problem}", level="error")
                return
            self.problem = None
            with self.world_lock:
                host = DevPluginHost(self.folder, world=self.world, data_dir=self.data_dir, python=self.python)
            try:
                host.start()
            except OSError as error:
                self.state = "failed"
                self.problem = f"could not start {host.python} {host.manifest.main}: {error}"
                self._record("lifecycle", text=self.problem, level="error")
                return
            self.host = host
            self.state = "running"
            self.exit_code = None
            self._record("lifecycle", text=f"{reason} (pid {host.process.pid if host.process else '?'})")
            if self.panel_open:
                self._send("panel/open", lambda h: h.open_panel())

    def stop(self) -> None:
        """Send `shutdown` and wait (up to 3 s) as Agentty does; blocking, so call it off the event loop."""
        with self._lock:
            host, self.host = self.host, None
            if host is None:
                return
            self.state = "restarting"
        code: Optional[int] = None
        elapsed = 0.0
        if host.process is not None and host.process.poll() is None:
            code, elapsed = host.shutdown()
        else:
            code = host.process.returncode if host.process else None
        with self._lock:
            self._absorb(host.drain())
            self.exit_code = code
            self.state = "stopped" if code == 0 else "failed"
            self._record("lifecycle", text=f"stopped with exit code {code} after {elapsed:.2f} s")

    def restart(self, reason: str = "restarted") -> None:
        self.stop()
        with self._lock:
            self.restarts += 1
        self.start(reason)

    def files_changed(self) -> List[str]:
        """Files changed since the plugin was (re)started; empty when nothing changed."""
        current = fingerprint(self.watch_folders())
        if current == self.watched:
            return []
        return sorted(p for p in set(current) | set(self.watched) if current.get(p) != self.watched.get(p))

    # ------------------------------------------------------------------ what the page does

    def _send(self, what: str, deliver: Callable[[DevPluginHost], None], **details: Any) -> None:
        host = self.host
        if host is None or host.process is None or host.process.poll() is not None:
            raise EventRefused(f"{self.plugin_id} is not running ({self.state}); press Restart")
        with self.world_lock:
            deliver(host)
        self._record("sent", method=what, params=_short(details) if details else None)

    def set_panel_open(self, is_open: bool) -> None:
        with self._lock:
            if is_open == self.panel_open:
                return
            self.panel_open = is_open
            running = self.host is not None and self.state == "running"
        # Sent outside the lock: a plugin that stopped reading its stdin must not stall the page's updates.
        if running:
            if is_open:
                self._send("panel/open", lambda h: h.open_panel())
            else:
                self._send("panel/close", lambda h: h.close_panel())

    def run_command(self, command: str, args: Any = None) -> None:
        if self.manifest is None or command not in {c.id for c in self.manifest.commands}:
            raise EventRefused(f"{self.plugin_id} declares no command {command!r}")
        self._send("command/execute", lambda h: h.run_command(command, args), command=command, args=args)

    def open_url(self, url: str) -> None:
        self._send("url/open", lambda h: h.open_url(url), url=url)

    def context_changed(self) -> None:
        if self.host is not None and self.state == "running":
            self._send("context/changed", lambda h: h.send("context/changed", {"context": h.context()}))

    def ui_event(self, element: str, event: str, value: Any = None, item: Optional[str] = None,
                 action: Optional[str] = None) -> None:
        """Send a `ui/event` if the current panel could produce it in Agentty; else raise EventRefused."""
        self._check_event(element, event, value, item, action)
        fields = {"value": value, "item": item, "action": action}
        self._send("ui/event", lambda h: h.event(element, event, **fields), element=element, event=event,
                   **{k: v for k, v in fields.items() if v is not None})

    def _check_event(self, element: str, event: str, value: Any, item: Optional[str], action: Optional[str]) -> None:
        if event not in EVENT_KINDS:
            raise EventRefused(f"unknown event {event!r}")
        node = ui.find(self.panel, element) if self.panel else None
        if node is None or "type" not in node:
            raise EventRefused(f"no element {element!r} in the current panel")
        kind = node["type"]
        allowed = {"button": ("click",), "input": ("change", "submit"), "list": ("select", "action"),
                   "choice": ("change",), "toggle": ("change",)}.get(kind, ())
        if event not in allowed:
            raise EventRefused(f"a {kind} does not send {event}")
        if kind == "button" and node.get("disabled"):
            raise EventRefused(f"button {element!r} is disabled")
        if kind == "input" and not isinstance(value, str):
            raise EventRefused("an input sends its text as a string")
        if kind == "toggle" and not isinstance(value, bool):
            raise EventRefused("a toggle sends true or false")
        if kind == "choice" and value not in [o.get("value") for o in node.get("options", [])]:
            raise EventRefused(f"{value!r} is not one of the options of {element!r}")
        if kind == "list":
            row = next((i for i in node.get("items", []) if i.get("id") == item), None)
            if row is None:
                raise EventRefused(f"list {element!r} has no row {item!r}")
            if event == "action" and action not in [a.get("id") for a in row.get("actions", [])]:
                raise EventRefused(f"row {item!r} has no action {action!r}")

    # ------------------------------------------------------------------ collecting for the page

    def _record(self, kind: str, **fields: Any) -> None:
        self._log_seq += 1
        entry = {"seq": self._log_seq, "time": round(time.time() * 1000), "kind": kind}
        entry.update({k: v for k, v in fields.items() if v is not None})
        self.log.append(entry)
        self._pending.append(entry)

    def _absorb(self, drained: Drained) -> None:
        if drained.panel is not None and drained.panel is not self.panel:
            self.panel = drained.panel
            self.panel_seq += 1
            self._dirty = True
        for call in drained.calls:
            self._record("call", method=call.method, params=_short(call.params), result=_short(call.result),
                         error=call.error, effect=call.method in EFFECT_METHODS)
        for message, level in drained.shown:
            self._record("toast", text=message, level=level, dropped=False)
        for message, level in drained.dropped:
            self._record("toast", text=message, level=level, dropped=True)
        for violation in drained.violations:
            self._record("violation", text=str(violation), code=violation.code)
        for line in drained.stderr:
            self._record("stderr", text=line[:STDERR_LINE_CHARS])
        if drained.badge != self.badge:
            self.badge = drained.badge
            self._dirty = True

    def collect(self) -> Optional[Dict[str, Any]]:
        """An update for the page with everything new since the last collect, or None if nothing changed."""
        with self._lock:
            host = self.host
            if host is not None:
                self._absorb(host.drain())
                if self.state == "running" and host.process is not None and host.process.poll() is not None:
                    code = host.process.returncode
                    self.exit_code = code
                    self.state = "stopped" if code == 0 else "failed"
                    self._record("lifecycle", text=f"the plugin exited with code {code}",
                                 level="info" if code == 0 else "error")
                    self._dirty = True
            if not self._pending and not self._dirty:
                return None
            update = self.summary()
            if self.panel_seq == self._sent_panel_seq:
                del update["panel"]  # the page keeps the tree it has; resending it with every log line is waste
            self._sent_panel_seq = self.panel_seq
            update["log"] = self._pending
            self._pending = []
            self._dirty = False
            return update

    def summary(self) -> Dict[str, Any]:
        manifest = self.manifest
        panel_info = (manifest.panel or {}) if manifest else {}
        return {
            "id": self.plugin_id,
            "folder": self.folder,
            "name": manifest.name if manifest else self.key,
            "version": manifest.version if manifest else None,
            "title": panel_info.get("title") or (manifest.name if manifest else self.key),
            "icon": panel_info.get("icon"),
            "permissions": list(manifest.permissions) if manifest else [],
            "commands": [
                {"id": c.id, "title": c.title, "description": c.description, "palette": c.palette}
                for c in (manifest.commands if manifest else [])
            ],
            "state": self.state,
            "exitCode": self.exit_code,
            "problem": self.problem,
            "badge": self.badge,
            "panel": self.panel,
            "panelSeq": self.panel_seq,
            "panelOpen": self.panel_open,
            "restarts": self.restarts,
            "dataDir": self.data_dir,
        }

    def snapshot(self) -> Dict[str, Any]:
        with self._lock:
            data = self.summary()
            data["log"] = list(self.log)[-SNAPSHOT_LOG:]
            return data

