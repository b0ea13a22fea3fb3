"""The Plugin object: handler registration, host calls, and the message loop with its lifecycle."""

from __future__ import annotations

import itertools
import json
import os
import queue
import signal
import sys
import threading
from collections.abc import Mapping

from . import _transport, ui
from ._pacing import Pacer, RateBudget
from ._record import Record
from ._repeats import RepeatFolder
from ._workers import CallTimeout, Reply, WorkerPool
from .clock import system_clock
from .context import Context, Workspace, normalize_language, workspaces_from_wire
from .errors import INTERNAL_ERROR, METHOD_NOT_FOUND, TIMED_OUT, AgenttyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import asyncio
    from typing import Any, BinaryIO, Callable, Dict, List, Optional, TypeVar

    from ._dependency import MissingDependency

    Handler = Callable[..., Any]
    F = TypeVar("F", bound=Callable[..., Any])

# asyncio, inspect, traceback and urllib are imported where first needed: Agentty starts a plugin
# when its panel opens, so every millisecond of import time is a millisecond of blank panel.

SDK_NAME = "agentty-plugin (python)"
SDK_VERSION = "0.1.0"
API_VERSION = 2  # the newest protocol version this runtime knows (storage/*, host/copy, host/timer, pane/status)

# Messages are handled in arrival order, as a Node plugin's synchronous handlers are. A handler still
# running after this long stops holding up the next message and carries on alongside it.
ORDER_WAIT = 0.1
CALL_TIMEOUT = 60.0       # the Node SDK waits forever; we give up and raise instead of hanging a handler
SHUTDOWN_BUDGET = 1.0     # the host sends SIGTERM 1.5 s after `shutdown`; leave room to exit on our own
NOTIFY_KINDS = ("info", "success", "warning", "error")
BADGE_MAX = 8
MISSING_BADGE = "!"



class PluginInfo(Record):
    """Who we are, from `initialize`: id, name, version, folder and private data folder."""

    __slots__ = ("id", "name", "version", "dir", "data_dir")
    _fields = __slots__

    def __init__(self, id: str = "", name: str = "", version: str = "", dir: str = "", data_dir: str = "") -> None:
        self.id = id
        self.name = name
        self.version = version
        self.dir = dir
        self.data_dir = data_dir


class ActivateInfo(Record):
    """The `initialize` parameters, typed; `raw` holds them as sent."""

    __slots__ = ("api_version", "agentty_version", "plugin", "language", "context", "raw")
    _fields = __slots__
    _hidden_fields = ("raw",)

    def __init__(self, api_version: int, agentty_version: str, plugin: PluginInfo, language: str,
                 context: Context, raw: Optional[Mapping[str, Any]] = None) -> None:
        self.api_version = api_version
        self.agentty_version = agentty_version
        self.plugin = plugin
        self.language = language
        self.context = context
        self.raw: Mapping[str, Any] = raw or {}


class CommandCall(Record):
    """A `command/execute`: the command id, its args (anything JSON) and the context."""

    __slots__ = ("command", "args", "context")
    _fields = __slots__

    def __init__(self, command: str, args: Any, context: Context) -> None:
        self.command = command
        self.args = args
        self.context = context


class UIEvent(Record):
    """A `ui/event`: `item` is a list row's id, `action` a row button's id, `value` what was typed or chosen."""

    __slots__ = ("element", "event", "value", "item", "action", "context", "raw")
    _fields = __slots__
    _hidden_fields = ("raw",)

    def __init__(self, element: str, event: str, value: Any, item: Optional[str], action: Optional[str],
                 context: Context, raw: Optional[Mapping[str, Any]] = None) -> None:
        self.element = element
        self.event = event
        self.value = value
        self.item = item
        self.action = action
        self.context = context
        self.raw: Mapping[str, Any] = raw or {}


class UrlRequest(Record):
    """An `agentty://plugin/<id>/<path>?query` link. Treat everything in it as text from a stranger."""

    __slots__ = ("path", "query", "params", "url", "context")
    _fields = __slots__

    def __init__(self, path: str, query: Any, params: Dict[str, str], url: str, context: Context) -> None:
        self.path = path
        self.query = query
        self.params = params
        self.url = url
        self.context = context


class Generation:
    """A token that tells a slow handler whether a newer one has started for the same key."""

    def __init__(self, counters: Dict[str, int], key: str, lock: threading.Lock) -> None:
        self._counters = counters
        self._key = key
        self._lock = lock
        with lock:
            counters[key] = counters.get(key, 0) + 1
            self.number = counters[key]

    @property
    def is_current(self) -> bool:
        with self._lock:
            return self._counters.get(self._key) == self.number


def _url_params(query: Any, url: str) -> Dict[str, str]:
    """The link's query as {name: first value}, whether the host sent a string, an object or only the URL."""
    from urllib.parse import parse_qs, urlsplit

    if isinstance(query, Mapping):
        return {str(k): (str(v[0]) if isinstance(v, list) and v else str(v)) for k, v in query.items()}
    text = query if isinstance(query, str) else urlsplit(url).query if isinstance(url, str) else ""
    return {k: v[0] for k, v in parse_qs(text.lstrip("?"), keep_blank_values=True).items()}


class _BudgetedLog:
    """A text stream for sys.stdout/sys.stderr inside the plugin: lines go to stderr within the rate budget."""

    def __init__(self, plugin: Plugin) -> None:
        self._plugin = plugin
        self._buffer = ""
        self._lock = threading.Lock()
        self.encoding = "utf-8"
        self.errors = "backslashreplace"

    def write(self, text: str) -> int:
        with self._lock:
            self._buffer += text
            if "\n" not in self._buffer:
                if len(self._buffer) > 8192:
                    text_out, self._buffer = self._buffer, ""
                    self._plugin._emit_log(text_out)
                return len(text)
            complete, self._buffer = self._buffer.rsplit("\n", 1)
        self._plugin._emit_log(complete)
        return len(text)

    def flush(self) -> None:
        with self._lock:
            rest, self._buffer = self._buffer, ""
        if rest:
            self._plugin._emit_log(rest)

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return 2


class AsyncCalls:
    """The host calls as coroutines, for `async def` handlers: `await plugin.aio.get_session()`."""

    def __init__(self, plugin: Plugin) -> None:
        self._plugin = plugin

    async def _call(self, method: str, params: Dict[str, Any], min_api: int = 1) -> Any:
        import asyncio

        reply = self._plugin._request(method, params, min_api=min_api)
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Any] = loop.create_future()

        def settle(done: Reply) -> None:
            def apply() -> None:
                if waiter.done():
                    return
                error = done.exception()
                if error is not None:
                    waiter.set_exception(error)
                else:
                    waiter.set_result(done.result())

            loop.call_soon_threadsafe(apply)

        reply.add_done_callback(settle)
        return await asyncio.wait_for(waiter, self._plugin.call_timeout)

    async def get_context(self) -> Context:
        return self._plugin._context_from(await self._call("context/get", {}))

    async def host_info(self) -> Dict[str, Any]:
        result = await self._call("host/info", {})
        return dict(result) if isinstance(result, Mapping) else {}

    async def open_url(self, url: str) -> None:
        await self._call("host/openUrl", {"url": url})

    async def reveal_path(self, path: str) -> None:
        await self._call("host/revealPath", {"path": path})

    async def inject_prompt(self, text: str, **options: Any) -> Dict[str, Any]:
        result = await self._call("prompt/inject", _prompt_params(text, options))
        return dict(result) if isinstance(result, Mapping) else {}

    async def send_to_terminal(self, text: str, pane_id: Any = None, submit: bool = False) -> Dict[str, Any]:
        result = await self._call("terminal/send", _terminal_params(text, pane_id, submit))
        return dict(result) if isinstance(result, Mapping) else {}

    async def get_session(self, pane_id: Any = None, max_turns: Optional[int] = None) -> Dict[str, Any]:
        result = await self._call("session/get", _session_params(pane_id, max_turns))
        return dict(result) if isinstance(result, Mapping) else {}

    async def list_workspaces(self) -> List[Workspace]:
        return workspaces_from_wire(await self._call("workspace/list", {}))

    async def storage_get(self, key: str) -> Any:
        result = await self._call("storage/get", {"key": key}, min_api=2)
        return result.get("value") if isinstance(result, Mapping) else None

    async def storage_set(self, key: str, value: Any) -> None:
        await self._call("storage/set", {"key": key, "value": value}, min_api=2)

    async def storage_keys(self) -> List[str]:
        result = await self._call("storage/keys", {}, min_api=2)
        return [k for k in result if isinstance(k, str)] if isinstance(result, list) else []

    async def copy(self, text: str) -> None:
        await self._call("host/copy", {"text": text}, min_api=2)

    async def timer(self, ms: int) -> Dict[str, Any]:
        result = await self._call("host/timer", {"ms": int(ms)}, min_api=2)
        return dict(result) if isinstance(result, Mapping) else {}


def _prompt_params(text: str, options: Mapping[str, Any]) -> Dict[str, Any]:
    names = {"title": "title", "target": "target", "pane_id": "paneId", "workspace_id": "workspaceId",
             "agent": "agent", "cwd": "cwd", "submit": "submit"}
    unknown = set(options) - set(names)
    if unknown:
        raise TypeError(f"inject_prompt() got unknown options: {', '.join(sorted(unknown))}")
    params: Dict[str, Any] = {"text": str(text)}
    for key, wire in names.items():
        if options.get(key) is not None:
            params[wire] = options[key]
    return params


def _terminal_params(text: str, pane_id: Any, submit: bool) -> Dict[str, Any]:
    params: Dict[str, Any] = {"text": str(text), "submit": bool(submit)}
    if pane_id is not None:
        params["paneId"] = pane_id
    return params


def _session_params(pane_id: Any, max_turns: Optional[int]) -> Dict[str, Any]:
    params: Dict[str, Any] = {}
    if pane_id is not None:
        params["paneId"] = pane_id
    if max_turns is not None:
        params["maxTurns"] = max(1, min(int(max_turns), 2000))
    return params


class Plugin:
    """An Agentty plugin: register handlers (decorators or plain calls), then `run()`."""

    def __init__(self, *, max_workers: int = 16, call_timeout: float = CALL_TIMEOUT,
                 clock: Callable[[], float] = system_clock) -> None:
        self.info: Optional[ActivateInfo] = None
        self.context: Context = Context(language=normalize_language(os.environ.get("AGENTTY_LANGUAGE")))
        self.api_version = 1
        self.call_timeout = call_timeout
        self.aio = AsyncCalls(self)

        self._commands: Dict[str, Handler] = {}
        self._element_handlers: Dict[str, Handler] = {}
        self._url_handlers: Dict[str, Handler] = {}
        self._lists: Dict[str, List[Handler]] = {
            name: [] for name in (
                "activate", "panel_open", "panel_close", "any_event", "context_change", "any_url",
                "shutdown", "pane_status",
            )
        }

        self._ids = itertools.count(1)
        self._pending: Dict[int, Reply] = {}
        self._pending_lock = threading.Lock()
        self._generations: Dict[str, int] = {}
        self._generation_lock = threading.Lock()
        self._activated = threading.Event()
        self._exit = threading.Event()
        self._shutting_down = threading.Event()
        self._max_workers = max_workers
        self._executor: Optional[WorkerPool] = None
        self._ordered: queue.SimpleQueue[Optional[Callable[[], None]]] = queue.SimpleQueue()
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._loop_lock = threading.Lock()
        self._writer: Optional[_transport.LineWriter] = None
        self._stderr: Any = None
        # Every pacing decision reads this clock; tests pass an agentty_plugin.clock.ManualClock.
        self._clock = clock
        self._budget = RateBudget(clock=clock)
        self._pacer: Optional[Pacer] = None
        self._superseded_notifications = 0
        self._last_drop_report = float("-inf")
        self._log_repeats = RepeatFolder(clock=clock)
        self._toast_repeats = RepeatFolder(clock=clock)
        self._missing: Optional[MissingDependency] = None
        self._missing_lock = threading.Lock()

    # ------------------------------------------------------------------ handler registration

    def on_activate(self, handler: F) -> F:
        """Runs once after `initialize` is answered, with an ActivateInfo; other messages wait for it."""
        self._lists["activate"].append(handler)
        return handler

    def command(self, command_id: str) -> Callable[[F], F]:
        """Handles a manifest command (`<plugin-id>.<verb>`); the handler gets a CommandCall."""

        def register(handler: F) -> F:
            self._commands[command_id] = handler
            return handler

        return register

    def on_panel_open(self, handler: F) -> F:
        """The panel became visible: draw it here. The handler gets the Context."""
        self._lists["panel_open"].append(handler)
        return handler

    def on_panel_close(self, handler: F) -> F:
        self._lists["panel_close"].append(handler)
        return handler

    def on_event(self, element_id: str) -> Callable[[F], F]:
        """Handles events of one element: `(event: UIEvent, context: Context)`. It then skips on_any_event."""

        def register(handler: F) -> F:
            self._element_handlers[element_id] = handler
            return handler

        return register

    def on_any_event(self, handler: F) -> F:
        """Every UI event whose element has no on_event handler."""
        self._lists["any_event"].append(handler)
        return handler

    def on_context_change(self, handler: F) -> F:
        """The focused pane, its status or its folder changed."""
        self._lists["context_change"].append(handler)
        return handler

    def on_url(self, path: str) -> Callable[[F], F]:
        """Handles `agentty://plugin/<id>/<path>?…`; the handler gets a UrlRequest."""

        def register(handler: F) -> F:
            self._url_handlers[path.strip("/")] = handler
            return handler

        return register

    def on_any_url(self, handler: F) -> F:
        """Links whose path has no on_url handler."""
        self._lists["any_url"].append(handler)
        return handler

    def on_pane_status(self, handler: F) -> F:
        """API 2 `pane/status` notifications for panes this plugin started (needs workspace.read)."""
        self._lists["pane_status"].append(handler)
        return handler

    def on_shutdown(self, handler: F) -> F:
        """Agentty is stopping the plugin; keep it short (the process exits within about a second)."""
        self._lists["shutdown"].append(handler)
        return handler

    # ------------------------------------------------------------------ state

    @property
    def language(self) -> str:
        return self.context.language

    @property
    def data_dir(self) -> str:
        if self.info is not None and self.info.plugin.data_dir:
            return self.info.plugin.data_dir
        return os.environ.get("AGENTTY_PLUGIN_DATA", "")

    def latest(self, key: str) -> Generation:
        """Start a new generation for `key`; older tokens for the same key stop being current."""
        return Generation(self._generations, key, self._generation_lock)

    # ------------------------------------------------------------------ calls: fire and forget

    def set_panel(self, tree: Mapping[str, Any]) -> None:
        """Replace the panel. Checked now (UITreeError names the bad node); sent at most every 50 ms."""
        missing = self._missing
        if missing is not None:
            tree = missing.panel(self.language)  # nothing else can work until the package is there
        prepared = ui.prepare(tree)
        encoded = _transport.encode_message({"tree": prepared})  # size check happens here, in the caller
        self._ensure_pacer().submit_panel(encoded[:-1])

    def show_panel(self) -> None:
        self._fire("ui/showPanel", {})

    def notify(self, message: Any, kind: str = "info") -> None:
        """A toast. Spaced 700 ms apart by the runtime; if several wait, the newest one is shown."""
        if kind not in NOTIFY_KINDS:
            raise ValueError(f"notify kind must be one of {', '.join(NOTIFY_KINDS)}, not {kind!r}")
        self._ensure_pacer().submit_notification(str(message), kind)

    def set_badge(self, text: Any) -> None:
        """Badge on the plugin's button, at most 8 characters; empty or None clears it."""
        value = "" if text is None else str(text)
        if len(value) > BADGE_MAX:
            raise ValueError(f"badge text {value!r} is longer than {BADGE_MAX} characters")
        if self._missing is not None:
            value = MISSING_BADGE
        self._fire("ui/setBadge", {"text": value})

    def report_missing_dependency(self, error: ImportError) -> None:
        """A package the plugin needs failed to import: show what is missing and how to fix it, once.

        The runtime calls this itself when a handler or thread raises ImportError; call it from your
        own `except ImportError` where you catch the error before the runtime sees it. From then on
        every panel is the explanation, and the badge says "!", until the plugin is restarted.
        """
        from ._dependency import MissingDependency

        with self._missing_lock:
            first = self._missing is None
            if first:
                info = self.info.plugin if self.info is not None else None
                self._missing = MissingDependency(
                    error,
                    plugin_id=info.id if info else os.environ.get("AGENTTY_PLUGIN_ID", ""),
                    plugin_name=info.name if info else "",
                    plugin_dir=info.dir if info else os.environ.get("AGENTTY_PLUGIN_DIR", os.getcwd()),
                )
            missing = self._missing
        assert missing is not None
        if not first:
            return
        self.notify(missing.notification(self.language), "error")
        self.set_badge(MISSING_BADGE)
        self.set_panel(ui.column([]))  # replaced by the explanation in set_panel

    def log(self, *parts: Any) -> None:
        """Write to the plugin log (stderr). Lines over the rate budget are dropped and counted."""
        self._emit_log(" ".join(_log_part(p) for p in parts))

    # ------------------------------------------------------------------ calls: with a result

    def call(self, method: str, params: Optional[Mapping[str, Any]] = None, min_api: int = 1) -> Any:
        """Any host method by name; blocks until the answer (or CALL_TIMEOUT) and returns the result."""
        future = self._request(method, dict(params or {}), min_api=min_api)
        try:
            return future.result(timeout=self.call_timeout)
        except CallTimeout:
            raise AgenttyError(f"{method}: no answer from Agentty within {self.call_timeout:g} s", TIMED_OUT,
                               method) from None

    def get_context(self) -> Context:
        return self._context_from(self.call("context/get"))

    def host_info(self) -> Dict[str, Any]:
        result = self.call("host/info")
        return dict(result) if isinstance(result, Mapping) else {}

    def open_url(self, url: str) -> None:
        self.call("host/openUrl", {"url": url})

    def reveal_path(self, path: str) -> None:
        self.call("host/revealPath", {"path": path})

    def inject_prompt(self, text: str, **options: Any) -> Dict[str, Any]:
        """Type a prompt into an agent (title, target, pane_id, workspace_id, agent, cwd, submit)."""
        result = self.call("prompt/inject", _prompt_params(text, options))
        return dict(result) if isinstance(result, Mapping) else {}

    def send_to_terminal(self, text: str, pane_id: Any = None, submit: bool = False) -> Dict[str, Any]:
        result = self.call("terminal/send", _terminal_params(text, pane_id, submit))
        return dict(result) if isinstance(result, Mapping) else {}

    def get_session(self, pane_id: Any = None, max_turns: Optional[int] = None) -> Dict[str, Any]:
        result = self.call("session/get", _session_params(pane_id, max_turns))
        return dict(result) if isinstance(result, Mapping) else {}

    def list_workspaces(self) -> List[Workspace]:
        return workspaces_from_wire(self.call("workspace/list"))

    def storage_get(self, key: str) -> Any:
        result = self.call("storage/get", {"key": key}, min_api=2)
        return result.get("value") if isinstance(result, Mapping) else None

    def storage_set(self, key: str, value: Any) -> None:
        self.call("storage/set", {"key": key, "value": value}, min_api=2)

    def storage_keys(self) -> List[str]:
        result = self.call("storage/keys", {}, min_api=2)
        return [k for k in result if isinstance(k, str)] if isinstance(result, list) else []

    def copy(self, text: str) -> None:
        self.call("host/copy", {"text": text}, min_api=2)

    def timer(self, ms: int) -> Dict[str, Any]:
        result = self.call("host/timer", {"ms": int(ms)}, min_api=2)
        return dict(result) if isinstance(result, Mapping) else {}

    # ------------------------------------------------------------------ running

    def run(
        self,
        input: Optional[BinaryIO] = None,
        output: Optional[BinaryIO] = None,
        exit_process: Optional[bool] = None,
    ) -> None:
        """Serve the host until `shutdown`, stdin EOF or SIGTERM, then exit with code 0.

        With explicit streams (tests) stdout is left alone and the call returns instead of exiting.
        """
        own_stdio = input is None and output is None
        if exit_process is None:
            exit_process = own_stdio
        self._stderr = _transport.utf8_stderr()
        if own_stdio:
            output = _transport.claim_stdout()
            budgeted = _BudgetedLog(self)
            sys.stdout = budgeted
            sys.stderr = budgeted
            threading.excepthook = self._thread_exception
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGTERM, lambda _signum, _frame: self._begin_shutdown("SIGTERM"))
        stream_in: BinaryIO = input if input is not None else sys.stdin.buffer
        assert output is not None
        self._writer = _transport.LineWriter(output)
        self._executor = WorkerPool(self._max_workers, "agentty-handler")
        self._ensure_pacer()
        threading.Thread(target=self._dispatch_in_order, name="agentty-dispatch", daemon=True).start()
        reader = threading.Thread(target=self._read_loop, args=(stream_in,), name="agentty-reader", daemon=True)
        reader.start()
        # The main thread only waits, so that signals are delivered promptly.
        while not self._exit.wait(0.2):
            pass
        self._finish(exit_process)

    # ------------------------------------------------------------------ internals: sending

    def _ensure_pacer(self) -> Pacer:
        if self._pacer is None:
            self._pacer = Pacer(self._send_panel_now, self._send_notification_now, self._notification_superseded,
                                clock=self._clock)
        return self._pacer

    def _write(self, message: Dict[str, Any]) -> bool:
        data = _transport.encode_message(message)
        return self._write_bytes(data)

    def _write_bytes(self, data: bytes) -> bool:
        if self._writer is None:
            raise AgenttyError("the plugin is not running yet (call plugin.run())", INTERNAL_ERROR)
        self._budget.acquire_protocol()
        return self._writer.write_line(data)

    def _request(self, method: str, params: Dict[str, Any], min_api: int = 1) -> Reply:
        future: Reply = Reply()
        if min_api > self.api_version:
            future.set_exception(AgenttyError(
                f"{method} needs Agentty with plugin API {min_api} or newer; this Agentty speaks API "
                f"{self.api_version}. Update Agentty to use it.", METHOD_NOT_FOUND, method))
            return future
        request_id = self._await_answer(future)
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        try:
            sent = self._write(message)
        except (ValueError, TypeError) as error:
            future.set_exception(AgenttyError(f"{method}: {error}", INTERNAL_ERROR, method))
            return future
        if not sent and not future.done():
            future.set_exception(AgenttyError(f"{method}: Agentty closed the connection", INTERNAL_ERROR, method))
        return future

    def _await_answer(self, reply: Reply) -> int:
        """Take the next request id and file `reply` under it until the host answers."""
        request_id = next(self._ids)
        with self._pending_lock:
            self._pending[request_id] = reply
        reply.add_done_callback(lambda _f: self._forget(request_id))
        return request_id

    def _forget(self, request_id: int) -> None:
        with self._pending_lock:
            self._pending.pop(request_id, None)

    def _fire(self, method: str, params: Dict[str, Any]) -> None:
        """Send a call whose result nobody waits for; a host error still reaches the log."""
        future = self._request(method, params)
        future.add_done_callback(lambda f: self._log_failure(method, f))

    def _log_failure(self, method: str, future: Reply) -> None:
        error = future.exception()
        if error is not None and not self._shutting_down.is_set():
            self._emit_log(f"agentty-plugin: {method} failed: {error}")

    def _send_panel_now(self, encoded_params: bytes) -> None:
        future: Reply = Reply()
        request_id = self._await_answer(future)
        future.add_done_callback(lambda f: self._log_failure("ui/setPanel", f))
        head = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ui/setPanel"}, separators=(",", ":"))
        head_bytes = head[:-1].encode()
        self._write_bytes(head_bytes + b',"params":' + encoded_params + b"}\n")

    def _send_notification_now(self, message: str, kind: str) -> None:
        self._fire("ui/notify", {"message": message, "kind": kind})

    def _notification_superseded(self, message: str) -> None:
        self._superseded_notifications += 1
        self._emit_log(f"agentty-plugin: notification replaced by a newer one before it could show: {message[:200]}")

    def _emit_log(self, text: str) -> None:
        admitted = self._log_repeats.admit(text)
        if not admitted:
            return  # the same text was written moments ago: counted, and reported once its window closes
        lines = "\n".join(admitted).split("\n")
        if not self._budget.try_log(len(lines)):
            return
        now = self._clock()
        if now - self._last_drop_report > 1.0:
            dropped = self._budget.take_dropped()
            if dropped:
                self._last_drop_report = now
                lines.insert(0, f"agentty-plugin: {dropped} log lines dropped to stay under Agentty's rate limit")
        self._write_log_lines(lines)

    def _write_log_lines(self, lines: List[str]) -> None:
        stream = self._stderr if self._stderr is not None else sys.__stderr__
        if stream is None:
            return
        try:
            stream.write("\n".join(lines) + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass

    # ------------------------------------------------------------------ internals: receiving

    def _read_loop(self, stream: BinaryIO) -> None:
        for _number, message in _transport.read_lines(stream, self._emit_log):
            try:
                self._receive(message)
            except Exception:  # a message we cannot make sense of must never stop the loop
                import traceback

                self._emit_log("agentty-plugin: failed to handle a message\n" + traceback.format_exc())
            if self._exit.is_set():
                return
        self._begin_shutdown("stdin closed")

    def _receive(self, message: Any) -> None:
        method = message.get("method")
        has_id = "id" in message and message["id"] is not None
        if method is None:
            if has_id:
                self._resolve(message)
            return
        if not isinstance(method, str):
            if has_id:
                self._answer_error(message["id"], -32600, "method must be a string")
            return
        params = message.get("params")
        if not isinstance(params, dict):
            params = {}
        if isinstance(params.get("context"), Mapping):
            # Like the Node SDK: refresh plugin.context from every message before any handler runs.
            self.context = self._context_from(params["context"])
        if method == "initialize":
            if has_id:
                self._answer(message["id"], {"sdk": SDK_NAME, "sdkVersion": SDK_VERSION, "apiVersion": API_VERSION})
            self._initialize(params)
            return
        if method == "shutdown":
            if has_id:
                self._answer(message["id"], None)
            self._begin_shutdown("shutdown")
            return
        route = self._route(method, params)
        if route is None:
            if has_id:
                self._answer_error(message["id"], METHOD_NOT_FOUND, f"unknown method {method}")
            return
        if has_id:
            # No host request other than initialize exists in API 1-3; answer so the host never waits.
            self._answer(message["id"], None)
        self._submit(route)

    def _resolve(self, message: Dict[str, Any]) -> None:
        request_id = message.get("id")
        with self._pending_lock:
            future = self._pending.get(request_id) if isinstance(request_id, int) else None
        if future is None or future.done():
            return  # an answer to nothing we asked, as the Node SDK does: ignore it
        error = message.get("error")
        if isinstance(error, Mapping):
            code = error.get("code")
            future.set_exception(AgenttyError(
                str(error.get("message", "error")), code if isinstance(code, int) else INTERNAL_ERROR))
        else:
            future.set_result(message.get("result"))

    def _answer(self, request_id: Any, result: Any) -> None:
        self._write({"jsonrpc": "2.0", "id": request_id, "result": result})

    def _answer_error(self, request_id: Any, code: int, text: str) -> None:
        self._write({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": text}})

    def _initialize(self, params: Dict[str, Any]) -> None:
        plugin = params.get("plugin") if isinstance(params.get("plugin"), Mapping) else {}
        assert isinstance(plugin, Mapping)
        agentty = params.get("agentty") if isinstance(params.get("agentty"), Mapping) else {}
        assert isinstance(agentty, Mapping)
        api = params.get("apiVersion")
        self.api_version = api if isinstance(api, int) and not isinstance(api, bool) and api > 0 else 1
        language = normalize_language(params.get("language") or os.environ.get("AGENTTY_LANGUAGE"))
        context = self._context_from(params.get("context"), language)
        self.context = context
        self.info = ActivateInfo(
            api_version=self.api_version,
            agentty_version=str(agentty.get("version", os.environ.get("AGENTTY_VERSION", ""))),
            plugin=PluginInfo(
                id=str(plugin.get("id", os.environ.get("AGENTTY_PLUGIN_ID", ""))),
                name=str(plugin.get("name", "")),
                version=str(plugin.get("version", "")),
                dir=str(plugin.get("dir", os.environ.get("AGENTTY_PLUGIN_DIR", os.getcwd()))),
                data_dir=str(plugin.get("dataDir", os.environ.get("AGENTTY_PLUGIN_DATA", ""))),
            ),
            language=language,
            context=context,
            raw=dict(params),
        )
        info = self.info

        def activate() -> None:
            try:
                for handler in list(self._lists["activate"]):
                    self._guarded(handler, info)
            finally:
                self._activated.set()  # later messages run even if activation failed, as in the Node SDK

        self._spawn(activate)

    def _route(self, method: str, params: Dict[str, Any]) -> Optional[Callable[[], None]]:
        """The work a host notification asks for, or None for a method we do not know."""
        context = self.context
        if isinstance(params.get("context"), Mapping):
            context = self._context_from(params["context"])
        if method == "command/execute":
            name = str(params.get("command", ""))
            call = CommandCall(command=name, args=params.get("args"), context=context)
            handler = self._commands.get(name)
            if handler is None:
                return lambda: self._emit_log(f"agentty-plugin: no handler for command {name}")
            return lambda: self._guarded(handler, call)
        if method in ("panel/open", "panel/close", "context/changed"):
            key = {"panel/open": "panel_open", "panel/close": "panel_close", "context/changed": "context_change"}
            handlers = list(self._lists[key[method]])
            return lambda: self._run_all(handlers, context)
        if method == "ui/event":
            item = params.get("item")
            action = params.get("action")
            event = UIEvent(
                element=str(params.get("element", "")),
                event=str(params.get("event", "")),
                value=params.get("value"),
                item=None if item is None else str(item),
                action=None if action is None else str(action),
                context=context,
                raw=dict(params),
            )
            element_handler = self._element_handlers.get(event.element)
            if element_handler is not None:
                return lambda: self._guarded(element_handler, event, context)
            handlers = list(self._lists["any_event"])
            return lambda: self._run_all(handlers, event, context)
        if method == "url/open":
            url = str(params.get("url", ""))
            path = str(params.get("path", "")).strip("/")
            request = UrlRequest(path=path, query=params.get("query"), params=_url_params(params.get("query"), url),
                                 url=url, context=context)
            own = self._url_handlers.get(path)
            if own is not None:
                return lambda: self._guarded(own, request)
            handlers = list(self._lists["any_url"])
            return lambda: self._run_all(handlers, request)
        if method == "pane/status":
            handlers = list(self._lists["pane_status"])
            return lambda: self._run_all(handlers, dict(params))
        return None

    def _submit(self, work: Callable[[], None]) -> None:
        self._ordered.put(work)

    def _dispatch_in_order(self) -> None:
        """Start each message's handlers in arrival order, after activation; slow ones run on alongside."""
        self._activated.wait()
        while True:
            work = self._ordered.get()
            if work is None or self._shutting_down.is_set():
                return
            finished = threading.Event()

            def run(job: Callable[[], None] = work, done: threading.Event = finished) -> None:
                try:
                    job()
                finally:
                    done.set()

            self._spawn(run)
            finished.wait(ORDER_WAIT)

    def _spawn(self, work: Callable[[], None]) -> None:
        if self._executor is None or self._shutting_down.is_set():
            return
        try:
            self._executor.submit(work)
        except RuntimeError:
            pass  # the pool is closing: we are shutting down

    def _run_all(self, handlers: List[Handler], *args: Any) -> None:
        # Listeners of one message run one after another, in registration order (Node SDK semantics).
        for handler in handlers:
            self._guarded(handler, *args)

    def _guarded(self, handler: Handler, *args: Any) -> None:
        """Run a sync or async handler; an exception is logged with its traceback and shown to the user."""
        try:
            result = handler(*args)
            if hasattr(result, "__await__"):
                import asyncio

                asyncio.run_coroutine_threadsafe(_await(result), self._event_loop()).result()
        except Exception as error:  # a handler's failure must never stop the plugin
            import traceback

            self._emit_log(f"agentty-plugin: handler {getattr(handler, '__name__', handler)!s} failed\n"
                           + traceback.format_exc().rstrip())
            try:
                if isinstance(error, ImportError):
                    self.report_missing_dependency(error)
                    return
                message = str(error) or error.__class__.__name__
                if message in self._toast_repeats.admit(message):  # the same failure again: no new toast
                    self.notify(message, "error")
            except Exception:
                pass

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        import asyncio

        with self._loop_lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="agentty-async", daemon=True).start()
                self._loop = loop
            return self._loop

    def _context_from(self, data: Any, language: Optional[str] = None) -> Context:
        fallback = language or (self.info.language if self.info is not None else self.context.language)
        return Context.from_wire(data, fallback)

    def _thread_exception(self, args: Any) -> None:
        import traceback

        self._emit_log("agentty-plugin: uncaught exception in a thread\n"
                       + "".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)))
        if isinstance(args.exc_value, ImportError):
            self.report_missing_dependency(args.exc_value)

    # ------------------------------------------------------------------ internals: stopping

    def _begin_shutdown(self, reason: str) -> None:
        if self._shutting_down.is_set():
            return
        self._shutting_down.set()
        self._ordered.put(None)
        handlers = list(self._lists["shutdown"])

        def run_handlers() -> None:
            self._run_all(handlers)
            self._exit.set()

        # Shutdown handlers get a bounded time: the host kills us 1.5 s after `shutdown` anyway.
        threading.Thread(target=run_handlers, name="agentty-shutdown", daemon=True).start()
        deadline = threading.Timer(SHUTDOWN_BUDGET, self._exit.set)
        deadline.daemon = True
        deadline.start()

    def _finish(self, exit_process: bool) -> None:
        if self._pacer is not None:
            self._pacer.stop()
        repeats = self._log_repeats.flush()
        if repeats:
            self._write_log_lines(repeats)
        with self._pending_lock:
            pending = list(self._pending.values())
        for future in pending:
            if not future.done():
                future.set_exception(AgenttyError("the plugin is shutting down", INTERNAL_ERROR))
        if self._executor is not None:
            self._executor.close()
        for stream in (sys.stdout, sys.stderr, self._stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass
        if exit_process:
            # Busy handler threads (indexing, a subprocess wait) must not keep the process alive.
            os._exit(0)


async def _await(awaitable: Any) -> Any:
    return await awaitable


def _log_part(part: Any) -> str:
    if isinstance(part, str):
        return part
    try:
        return json.dumps(part, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(part)

