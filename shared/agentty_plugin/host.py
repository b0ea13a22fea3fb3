"""The simulated Agentty host: starts a plugin folder as Agentty does, speaks the protocol, answers from a World.

The test harness (`agentty_plugin.testing.PluginHost`) adds gestures and waits on top of it; the
browser dev host runs plugins with it directly.
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
from typing import IO, Any, Callable, Deque, Dict, List, Mapping, Optional, Tuple, TypeVar

from ._host_answers import RATE_LIMIT, answer
from ._transport import MAX_LINE_BYTES
from .context import pane_is_busy
from .manifest import Manifest, load_manifest
from .world import (
    BUSY_PANE_TYPED_INTO,
    EXIT_TOO_SLOW,
    LINE_TOO_LONG,
    NOT_JSON_RPC,
    OTHER,
    RATE_LIMIT_EXCEEDED,
    UNDECLARED_COMMAND,
    HostCall,
    HostError,
    PaneSpec,
    Violation,
    World,
    filter_context,
)

H = TypeVar("H", bound="SimulatedHost")
# How long a test waits for an event before it fails: a bound, not a speed target. Generous, so a
# correct test still passes on a loaded machine (a git-status test once timed out at 10 s while the
# whole suite and a benchmark shared two CPUs); a broken one only takes longer to fail.
EVENT_TIMEOUT = 60.0


class SimulatedHost:
    """Runs one plugin folder as Agentty would and answers its calls from a World; records what it did."""

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
        self.violations: List[Violation] = []  # str, with a `code` (world.py's constants) to match on
        self.stderr_lines: List[str] = []
        self.stdout_junk: List[str] = []
        self.responses: Dict[Any, Dict[str, Any]] = {}
        self.received: List[Dict[str, Any]] = []  # every JSON-RPC message the plugin wrote, in order
        self.sent: List[Dict[str, Any]] = []  # every message the host wrote to the plugin
        self.initialize_result: Any = None
        self.link_guard = False
        self._line_times: Deque[float] = collections.deque()
        self.last_notify = float("-inf")
        self.last_open_url = float("-inf")
        self._next_pane_id = 1000
        self._threads: List[threading.Thread] = []
        self.exit_code: Optional[int] = None

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self: H) -> H:
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
            self._violation(f"did not exit within {timeout:g} s; killed", EXIT_TOO_SLOW)
        elapsed = time.monotonic() - started
        if elapsed > 1.5:
            self._violation(f"took {elapsed:.2f} s to exit (Agentty sends SIGTERM after 1.5 s)", EXIT_TOO_SLOW)
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
            self._violation(f"ran command {command!r}, which the manifest does not declare", UNDECLARED_COMMAND)
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
            self._violation(f"sent more than {RATE_LIMIT} messages a second (Agentty stops such a plugin)",
                            RATE_LIMIT_EXCEEDED)
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
                self._violation("wrote a stdout line over 16 MB", LINE_TOO_LONG)
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
                self._violation(f"wrote something that is not JSON-RPC to stdout: {text[:80]!r}", NOT_JSON_RPC)
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

    def _violation(self, text: str, code: str) -> None:
        with self._changed:
            self.violations.append(Violation(text, code))
            self._changed.notify_all()

    # ------------------------------------------------------------------ what the answers change

    @property
    def lock(self) -> threading.RLock:
        """Held while the records change (reader threads append to them)."""
        return self._lock

    def violation(self, text: str, code: str = OTHER) -> None:
        """Record a breach of the host's rules (a test asserts `violations == []`, or matches `code`s)."""
        self._violation(text, code)

    def record_panel(self, tree: Dict[str, Any], arrived: float) -> None:
        with self._changed:
            self.panels.append(tree)
            self.panel_times.append(arrived)
            self._changed.notify_all()

    def type_into(self, pane: PaneSpec, text: str, submit: bool, how: str) -> None:
        if pane_is_busy(pane.status):
            self._violation(f"{how} typed into pane {pane.id} while it was {pane.status}", BUSY_PANE_TYPED_INTO)
        pane.typed.append((text, submit))

    def new_pane_id(self) -> int:
        self._next_pane_id += 1
        return self._next_pane_id

    def _answer(self, method: str, params: Dict[str, Any], arrived: float) -> Any:
        return answer(self, method, params, arrived)

    # ------------------------------------------------------------------ waiting and looking

    @property
    def panel(self) -> Optional[Dict[str, Any]]:
        with self._lock:
            return self.panels[-1] if self.panels else None

    def wait_for(
        self, condition: Callable[[], Any], timeout: float = EVENT_TIMEOUT, what: str = "a condition"
    ) -> Any:
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

    def calls_of(self, method: str) -> List[HostCall]:
        with self._lock:
            return [c for c in self.calls if c.method == method]

    def stderr_text(self) -> str:
        with self._lock:
            return "\n".join(self.stderr_lines)
