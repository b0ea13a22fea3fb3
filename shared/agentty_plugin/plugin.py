"""The Plugin object: handler registration, host calls, and the message loop with its lifecycle."""

from __future__ import annotations

import json
import os
import queue
import signal
import sys
import threading
from collections.abc import Mapping

from . import _transport, ui
from ._calls import AsyncCalls, HostCalls
from ._dispatch import Handlers
from ._generation import Generation
from ._log import PluginLog
from ._pacing import Pacer, RateBudget
from ._repeats import RepeatFolder
from ._requests import PendingRequests
from ._stdio import BudgetedLog, log_part
from ._workers import Reply, WorkerPool
from .clock import system_clock
from .context import Context, normalize_language
from .errors import INTERNAL_ERROR, METHOD_NOT_FOUND, AgenttyError
from .events import ActivateInfo, CommandCall, PluginInfo, UIEvent, UrlRequest, activate_info

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Callable, Dict, Optional, TypeVar

    from ._dependency import MissingDependency
    from ._pacing import Panel

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
# The button of the runtime's own failure banner; the runtime handles it, not the plugin.
FAILURE_DISMISS = "agentty-plugin.dismiss-failure"

__all__ = ["API_VERSION", "SDK_VERSION", "ActivateInfo", "CommandCall", "Generation", "Plugin", "PluginInfo",
           "UIEvent", "UrlRequest"]


class Plugin(HostCalls):
    """An Agentty plugin: register handlers (decorators or plain calls), then `run()`.

    The host calls with an answer (`get_context`, `inject_prompt`, `get_session`, …) come from
    HostCalls, where each is declared once for both `plugin.<call>()` and `await plugin.aio.<call>()`.
    """

    def __init__(self, *, max_workers: int = 16, call_timeout: float = CALL_TIMEOUT,
                 clock: Callable[[], float] = system_clock) -> None:
        self.info: Optional[ActivateInfo] = None
        self.context: Context = Context(language=normalize_language(os.environ.get("AGENTTY_LANGUAGE")))
        self.api_version = 1
        self.call_timeout = call_timeout
        self.aio = AsyncCalls(self)

        self._handlers = Handlers(self._handler_failed, self._emit_log)
        self._lists = self._handlers.lists

        self._requests = PendingRequests()
        self._generations: Dict[str, int] = {}
        self._generation_lock = threading.Lock()
        self._activated = threading.Event()
        self._exit = threading.Event()
        self._shutting_down = threading.Event()
        self._max_workers = max_workers
        self._executor: Optional[WorkerPool] = None
        self._ordered: queue.SimpleQueue[Optional[Callable[[], None]]] = queue.SimpleQueue()
        self._writer: Optional[_transport.LineWriter] = None
        self._stderr: Any = None
        # Every pacing decision reads this clock; tests pass an agentty_plugin.clock.ManualClock.
        self._clock = clock
        self._budget = RateBudget(clock=clock)
        self._pacer: Optional[Pacer] = None
        self._superseded_notifications = 0
        self._log = PluginLog(self._budget, clock, lambda: self._stderr)
        self._toast_repeats = RepeatFolder(clock=clock)
        self._missing: Optional[MissingDependency] = None
        self._missing_lock = threading.Lock()
        # A failure in a background thread, in words, shown above the plugin's panel until dismissed;
        # the last panel asked for is kept so that the banner appears (and goes) without waiting
        # for the plugin to draw again, which a dead thread never would.
        self._failure: Optional[str] = None
        self._last_panel: Any = None

    # ------------------------------------------------------------------ handler registration

    def on_activate(self, handler: F) -> F:
        """Runs once after `initialize` is answered, with an ActivateInfo; other messages wait for it."""
        self._lists["activate"].append(handler)
        return handler

    def command(self, command_id: str) -> Callable[[F], F]:
        """Handles a manifest command (`<plugin-id>.<verb>`); the handler gets a CommandCall."""

        def register(handler: F) -> F:
            self._handlers.commands[command_id] = handler
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
            self._handlers.elements[element_id] = handler
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
            self._handlers.urls[path.strip("/")] = handler
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
        self._last_panel = tree
        self._ensure_pacer().submit_panel(self._encode_panel(tree))

    def redraw(self, render: Callable[[], Mapping[str, Any]]) -> None:
        """Draw `render()` when the panel's next turn comes, instead of a tree built now.

        However often this is called, `render` runs at most once per turn (20 a second), and only for
        the newest call: for panels redrawn on every output line or keystroke, where building the tree
        costs more than sending it. A failing `render` is logged (its UITreeError names the node).
        """
        self._ensure_pacer().submit_panel(render)

    def _encode_panel(self, tree: Mapping[str, Any]) -> bytes:
        missing = self._missing
        if missing is not None:
            tree = missing.panel(self.language)  # nothing else can work until the package is there
        elif self._failure is not None:
            from ._failure import with_failure_banner

            tree = with_failure_banner(tree, self._failure, self.language, FAILURE_DISMISS)
        prepared = ui.prepare(tree)
        return _transport.encode_message({"tree": prepared})[:-1]  # the size check happens here

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

    def report_failure(self, error: BaseException, where: str = "") -> None:
        """Show a failure the plugin could not handle as a banner above its panel, and as a toast.

        The runtime calls this itself for an exception that ends any background thread, so no
        thread dies silently; call it from your own worker loops for errors you catch but cannot
        handle. The banner says what failed in words and stays until the user dismisses it.
        """
        from ._failure import describe_failure

        message = describe_failure(error, self.language, where)
        self._emit_log(f"agentty-plugin: {where or 'background work'} failed: {error!r}")
        self._failure = message
        if message in self._toast_repeats.admit(message):
            self.notify(message, "error")
        self._show_again()

    def _dismiss_failure(self) -> None:
        self._failure = None
        self._show_again()

    def _show_again(self) -> None:
        last = self._last_panel
        if last is None or self._shutting_down.is_set():
            return
        try:
            if callable(last):
                self._ensure_pacer().submit_panel(last)
            else:
                self._ensure_pacer().submit_panel(self._encode_panel(last))
        except Exception as error:  # the plugin's own tree was bad: that was logged when it was drawn
            self._emit_log(f"agentty-plugin: could not draw the panel again: {error}")

    def log(self, *parts: Any) -> None:
        """Write to the plugin log (stderr). Lines over the rate budget are dropped and counted."""
        self._emit_log(" ".join(log_part(p) for p in parts))

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
            budgeted = BudgetedLog(self._emit_log)
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
        request_id = self._requests.file(future)
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        try:
            sent = self._write(message)
        except (ValueError, TypeError) as error:
            future.set_exception(AgenttyError(f"{method}: {error}", INTERNAL_ERROR, method))
            return future
        if not sent and not future.done():
            future.set_exception(AgenttyError(f"{method}: Agentty closed the connection", INTERNAL_ERROR, method))
        return future

    def _fire(self, method: str, params: Dict[str, Any]) -> None:
        """Send a call whose result nobody waits for; a host error still reaches the log."""
        future = self._request(method, params)
        future.add_done_callback(lambda f: self._log_failure(method, f))

    def _log_failure(self, method: str, future: Reply) -> None:
        error = future.exception()
        if error is not None and not self._shutting_down.is_set():
            self._emit_log(f"agentty-plugin: {method} failed: {error}")

    def _send_panel_now(self, panel: Panel) -> None:
        if callable(panel):  # a redraw whose turn has come: render it now, the newest state
            try:
                encoded_params = self._encode_panel(panel())
            except Exception:
                import traceback

                self._emit_log("agentty-plugin: a redraw failed\n" + traceback.format_exc().rstrip())
                return
        else:
            encoded_params = panel
        future: Reply = Reply()
        request_id = self._requests.file(future)
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
        self._log.emit(text)

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
                self._requests.resolve(message)
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

    def _answer(self, request_id: Any, result: Any) -> None:
        self._write({"jsonrpc": "2.0", "id": request_id, "result": result})

    def _answer_error(self, request_id: Any, code: int, text: str) -> None:
        self._write({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": text}})

    def _initialize(self, params: Dict[str, Any]) -> None:
        api = params.get("apiVersion")
        self.api_version = api if isinstance(api, int) and not isinstance(api, bool) and api > 0 else 1
        language = normalize_language(params.get("language") or os.environ.get("AGENTTY_LANGUAGE"))
        self.context = self._context_from(params.get("context"), language)
        self.info = activate_info(params, self.api_version, language, self.context)
        info = self.info

        def activate() -> None:
            try:
                for handler in list(self._lists["activate"]):
                    self._handlers.run_one(handler, info)
            finally:
                self._activated.set()  # later messages run even if activation failed, as in the Node SDK

        self._spawn(activate)

    def _route(self, method: str, params: Dict[str, Any]) -> Optional[Callable[[], None]]:
        context = self.context
        if isinstance(params.get("context"), Mapping):
            context = self._context_from(params["context"])
        if method == "ui/event" and params.get("element") == FAILURE_DISMISS:
            return self._dismiss_failure  # the runtime's own banner button, never the plugin's
        return self._handlers.route(method, params, context)

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

    def _handler_failed(self, handler: Handler, error: Exception, trace: str) -> None:
        """A handler raised: log its traceback and tell the user (once per distinct failure)."""
        self._emit_log(f"agentty-plugin: handler {getattr(handler, '__name__', handler)!s} failed\n{trace}")
        try:
            if isinstance(error, ImportError):
                self.report_missing_dependency(error)
                return
            message = str(error) or error.__class__.__name__
            if message in self._toast_repeats.admit(message):  # the same failure again: no new toast
                self.notify(message, "error")
        except Exception:
            pass

    def _context_from(self, data: Any, language: Optional[str] = None) -> Context:
        fallback = language or (self.info.language if self.info is not None else self.context.language)
        return Context.from_wire(data, fallback)

    def _thread_exception(self, args: Any) -> None:
        import traceback

        self._emit_log("agentty-plugin: uncaught exception in a thread\n"
                       + "".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)))
        if isinstance(args.exc_value, ImportError):
            self.report_missing_dependency(args.exc_value)
        elif isinstance(args.exc_value, Exception) and not self._shutting_down.is_set():
            thread = getattr(args, "thread", None)
            self.report_failure(args.exc_value, getattr(thread, "name", "") or "")

    # ------------------------------------------------------------------ internals: stopping

    def _begin_shutdown(self, reason: str) -> None:
        if self._shutting_down.is_set():
            return
        self._shutting_down.set()
        self._ordered.put(None)
        handlers = list(self._lists["shutdown"])

        def run_handlers() -> None:
            self._handlers.run_each(handlers)
            self._exit.set()

        # Shutdown handlers get a bounded time: the host kills us 1.5 s after `shutdown` anyway.
        threading.Thread(target=run_handlers, name="agentty-shutdown", daemon=True).start()
        deadline = threading.Timer(SHUTDOWN_BUDGET, self._exit.set)
        deadline.daemon = True
        deadline.start()

    def _finish(self, exit_process: bool) -> None:
        if self._pacer is not None:
            self._pacer.stop()
        self._log.close()
        self._requests.fail_all("the plugin is shutting down")
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
