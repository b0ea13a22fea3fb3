"""Which handlers a host notification runs: the registration tables and the routing from method to work."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from .events import CommandCall, UIEvent, UrlRequest, url_params

TYPE_CHECKING = False
if TYPE_CHECKING:
    import asyncio
    from typing import Any, Callable, Dict, List, Optional

    from .context import Context

    Handler = Callable[..., Any]
    Work = Callable[[], None]

LISTS = ("activate", "panel_open", "panel_close", "any_event", "context_change", "any_url", "shutdown", "pane_status")
CONTEXT_METHODS = {"panel/open": "panel_open", "panel/close": "panel_close", "context/changed": "context_change"}


class Handlers:
    """What the plugin registered: one handler per command, element and link path; lists for the rest."""

    def __init__(self, on_failure: Callable[[Handler, Exception, str], None], log: Callable[[str], None]) -> None:
        self.commands: Dict[str, Handler] = {}
        self.elements: Dict[str, Handler] = {}
        self.urls: Dict[str, Handler] = {}
        self.lists: Dict[str, List[Handler]] = {name: [] for name in LISTS}
        self._on_failure = on_failure  # (handler, error, traceback text): logged and shown by the plugin
        self._log = log
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._loop_lock = threading.Lock()

    def run_one(self, handler: Handler, *args: Any) -> None:
        """Run a sync or async handler to its end; an exception goes to `on_failure`, never further."""
        try:
            result = handler(*args)
            if hasattr(result, "__await__"):
                import asyncio

                asyncio.run_coroutine_threadsafe(_as_coroutine(result), self._event_loop()).result()
        except Exception as error:  # a handler's failure must never stop the plugin
            import traceback

            self._on_failure(handler, error, traceback.format_exc().rstrip())

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        """One event loop thread for every async handler, started by the first one."""
        import asyncio

        with self._loop_lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="agentty-async", daemon=True).start()
                self._loop = loop
            return self._loop

    def run_each(self, handlers: List[Handler], *args: Any) -> None:
        # Listeners of one message run one after another, in registration order (Node SDK semantics).
        for handler in handlers:
            self.run_one(handler, *args)

    def _listeners(self, name: str, *args: Any) -> Work:
        handlers = list(self.lists[name])  # those registered when the message arrived
        return lambda: self.run_each(handlers, *args)

    def route(self, method: str, params: Dict[str, Any], context: Context) -> Optional[Work]:
        """The work a host notification asks for, or None for a method we do not know."""
        if method == "command/execute":
            name = str(params.get("command", ""))
            call = CommandCall(command=name, args=params.get("args"), context=context)
            command = self.commands.get(name)
            if command is None:
                return lambda: self._log(f"agentty-plugin: no handler for command {name}")
            return lambda: self.run_one(command, call)
        if method in CONTEXT_METHODS:
            return self._listeners(CONTEXT_METHODS[method], context)
        if method == "ui/event":
            event = _event(params, context)
            element = self.elements.get(event.element)
            if element is not None:
                return lambda: self.run_one(element, event, context)
            return self._listeners("any_event", event, context)
        if method == "url/open":
            url = str(params.get("url", ""))
            path = str(params.get("path", "")).strip("/")
            request = UrlRequest(path=path, query=params.get("query"), params=url_params(params.get("query"), url),
                                 url=url, context=context)
            own = self.urls.get(path)
            if own is not None:
                return lambda: self.run_one(own, request)
            return self._listeners("any_url", request)
        if method == "pane/status":
            return self._listeners("pane_status", dict(params))
        return None


def _event(params: Mapping[str, Any], context: Context) -> UIEvent:
    item = params.get("item")
    action = params.get("action")
    return UIEvent(
        element=str(params.get("element", "")),
        event=str(params.get("event", "")),
        value=params.get("value"),
        item=None if item is None else str(item),
        action=None if action is None else str(action),
        context=context,
        raw=dict(params),
    )


async def _as_coroutine(awaitable: Any) -> Any:
    return await awaitable
