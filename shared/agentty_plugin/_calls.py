"""Every host call with an answer, declared once: `plugin.<name>(…)` blocks, `await plugin.aio.<name>(…)` awaits.

A declaration builds a `Call` (method, params, the API version it needs, how to read the answer);
`host_call` turns it into the blocking method, and `AsyncCalls` finds the same declaration by name.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Generic, TypeVar

from ._workers import CallTimeout, Reply
from .context import Context, Workspace, workspaces_from_wire
from .errors import TIMED_OUT, AgenttyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Awaitable, Callable, Concatenate, Dict, List, Optional, ParamSpec  # novermin

    P = ParamSpec("P")

R = TypeVar("R")
SESSION_MAX_TURNS = 2000  # the host's own cap on session/get


class Call(Generic[R]):
    """One request to the host and how to turn its answer into what the caller gets."""

    __slots__ = ("method", "params", "read", "min_api")

    def __init__(self, method: str, params: Dict[str, Any], read: Callable[[Any], R], min_api: int = 1) -> None:
        self.method = method
        self.params = params
        self.read = read
        self.min_api = min_api


DECLARATIONS: Dict[str, Callable[..., Call[Any]]] = {}


def host_call(declare: Callable[Concatenate[HostCalls, P], Call[R]]) -> Callable[Concatenate[HostCalls, P], R]:
    """Make the blocking method from a declaration, and file the declaration for `plugin.aio`."""
    DECLARATIONS[declare.__name__] = declare

    def blocking(self: HostCalls, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._wait_for(declare(self, *args, **kwargs))

    blocking.__name__ = declare.__name__
    blocking.__qualname__ = declare.__qualname__
    blocking.__doc__ = declare.__doc__
    return blocking


def _raw(result: Any) -> Any:
    return result


def _nothing(_result: Any) -> None:
    return None


def _as_dict(result: Any) -> Dict[str, Any]:
    return dict(result) if isinstance(result, Mapping) else {}


def _storage_value(result: Any) -> Any:
    return result.get("value") if isinstance(result, Mapping) else None


def _strings(result: Any) -> List[str]:
    return [k for k in result if isinstance(k, str)] if isinstance(result, list) else []


def prompt_params(text: str, options: Mapping[str, Any]) -> Dict[str, Any]:
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


def terminal_params(text: str, pane_id: Any, submit: bool) -> Dict[str, Any]:
    params: Dict[str, Any] = {"text": str(text), "submit": bool(submit)}
    if pane_id is not None:
        params["paneId"] = pane_id
    return params


def session_params(pane_id: Any, max_turns: Optional[int]) -> Dict[str, Any]:
    params: Dict[str, Any] = {}
    if pane_id is not None:
        params["paneId"] = pane_id
    if max_turns is not None:
        params["maxTurns"] = max(1, min(int(max_turns), SESSION_MAX_TURNS))
    return params


class HostCalls:
    """The calls part of `Plugin`: each declaration below is one host method, in both forms."""

    call_timeout: float

    def _request(self, method: str, params: Dict[str, Any], min_api: int = 1) -> Reply:
        raise NotImplementedError  # Plugin writes the request and files the reply under its id

    def _context_from(self, data: Any, language: Optional[str] = None) -> Context:
        raise NotImplementedError

    def _wait_for(self, call: Call[R]) -> R:
        future = self._request(call.method, call.params, min_api=call.min_api)
        try:
            result = future.result(timeout=self.call_timeout)
        except CallTimeout:
            raise AgenttyError(f"{call.method}: no answer from Agentty within {self.call_timeout:g} s", TIMED_OUT,
                               call.method) from None
        return call.read(result)

    async def _await_call(self, call: Call[R]) -> R:
        import asyncio

        reply = self._request(call.method, call.params, min_api=call.min_api)
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
        return call.read(await asyncio.wait_for(waiter, self.call_timeout))

    def within(self, seconds: float) -> Deadline:
        """The host calls with one shared deadline `seconds` from now instead of `call_timeout`, for answers
        a panel should not wait long for: `soon = plugin.within(1.5)`; `soon.get_session(3)` waits at
        most until then; `soon.start("get_session", 3)` sends at once and returns a `Pending`, so that
        several calls are in flight together and all of them are done by the deadline."""
        return Deadline(self, seconds)

    @host_call
    def call(self, method: str, params: Optional[Mapping[str, Any]] = None, min_api: int = 1) -> Call[Any]:
        """Any host method by name; the answer as the host sent it (or AgenttyError with its code)."""
        return Call(method, dict(params or {}), _raw, min_api)

    @host_call
    def get_context(self) -> Call[Context]:
        return Call("context/get", {}, self._context_from)

    @host_call
    def host_info(self) -> Call[Dict[str, Any]]:
        return Call("host/info", {}, _as_dict)

    @host_call
    def open_url(self, url: str) -> Call[None]:
        return Call("host/openUrl", {"url": url}, _nothing)

    @host_call
    def reveal_path(self, path: str) -> Call[None]:
        return Call("host/revealPath", {"path": path}, _nothing)

    @host_call
    def inject_prompt(self, /, text: str, **options: Any) -> Call[Dict[str, Any]]:
        """Type a prompt into an agent (title, target, pane_id, workspace_id, agent, cwd, submit)."""
        return Call("prompt/inject", prompt_params(text, options), _as_dict)

    @host_call
    def send_to_terminal(self, text: str, pane_id: Any = None, submit: bool = False) -> Call[Dict[str, Any]]:
        return Call("terminal/send", terminal_params(text, pane_id, submit), _as_dict)

    @host_call
    def get_session(self, pane_id: Any = None, max_turns: Optional[int] = None) -> Call[Dict[str, Any]]:
        return Call("session/get", session_params(pane_id, max_turns), _as_dict)

    @host_call
    def list_workspaces(self) -> Call[List[Workspace]]:
        return Call("workspace/list", {}, workspaces_from_wire)

    @host_call
    def storage_get(self, key: str) -> Call[Any]:
        return Call("storage/get", {"key": key}, _storage_value, min_api=2)

    @host_call
    def storage_set(self, key: str, value: Any) -> Call[None]:
        return Call("storage/set", {"key": key, "value": value}, _nothing, min_api=2)

    @host_call
    def storage_keys(self) -> Call[List[str]]:
        return Call("storage/keys", {}, _strings, min_api=2)

    @host_call
    def copy(self, text: str) -> Call[None]:
        return Call("host/copy", {"text": text}, _nothing, min_api=2)

    @host_call
    def timer(self, ms: int) -> Call[Dict[str, Any]]:
        return Call("host/timer", {"ms": int(ms)}, _as_dict, min_api=2)


class Pending(Generic[R]):
    """A host call already sent: `result()` waits for its answer until its deadline, then raises
    AgenttyError with code TIMED_OUT (a late answer is dropped when it comes)."""

    __slots__ = ("_call", "_reply", "_deadline")

    def __init__(self, call: Call[R], reply: Reply, deadline: float) -> None:
        self._call, self._reply, self._deadline = call, reply, deadline

    def result(self) -> R:
        try:
            answer = self._reply.result(timeout=max(0.0, self._deadline - time.monotonic()))
        except CallTimeout:
            raise AgenttyError(f"{self._call.method}: no answer from Agentty in time", TIMED_OUT,
                               self._call.method) from None
        return self._call.read(answer)


class Deadline:
    """What `plugin.within(seconds)` returns: every host call by name, all sharing one deadline."""

    def __init__(self, plugin: HostCalls, seconds: float) -> None:
        self._plugin = plugin
        self.deadline = time.monotonic() + seconds

    def start(self, name: str, *args: Any, **kwargs: Any) -> Pending[Any]:
        """Send the call `name` (e.g. "get_session") now; its Pending's result() waits until the deadline."""
        declare = DECLARATIONS.get(name)
        if declare is None:
            raise AttributeError(f"no host call {name!r}")
        call = declare(self._plugin, *args, **kwargs)
        return Pending(call, self._plugin._request(call.method, call.params, min_api=call.min_api), self.deadline)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name not in DECLARATIONS:
            raise AttributeError(f"no host call {name!r}")

        def blocking(*args: Any, **kwargs: Any) -> Any:
            return self.start(name, *args, **kwargs).result()

        blocking.__name__ = name
        return blocking


class AsyncCalls:
    """The host calls as coroutines, for `async def` handlers: `await plugin.aio.get_session()`."""

    def __init__(self, plugin: HostCalls) -> None:
        self._plugin = plugin

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        declare = DECLARATIONS.get(name)
        if declare is None:
            raise AttributeError(f"plugin.aio has no call {name!r}")
        plugin = self._plugin

        async def call(*args: Any, **kwargs: Any) -> Any:
            return await plugin._await_call(declare(plugin, *args, **kwargs))

        call.__name__ = name
        return call

    def __dir__(self) -> List[str]:
        return sorted(DECLARATIONS)
