"""The dev host's web app (aiohttp): the page, a JSON API for what the page does, and a WebSocket of updates."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Set

from agentty_plugin.context import pane_is_busy
from agentty_plugin.world import World
from aiohttp import WSMsgType, web

from .runners import RUNTIME_FOLDER, EventRefused, PluginRunner
from .world import WorldEditError, WorldEditor

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
PUMP_SECONDS = 0.05    # how often plugin records are forwarded to the page (the host redraws every 50 ms)
WATCH_SECONDS = 0.7    # how often plugin folders are checked for changes
LINK_PREFIX = "agentty://plugin/"
AGENT_WORK_SECONDS = 3.0  # how long a simulated agent "works" on a submitted prompt

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class DevHost:
    """Every plugin runner, the shared simulated window, and the open pages."""

    def __init__(self, folders: Sequence[str], world: World, data_root: str, watch: bool = True,
                 echo: Optional[Callable[[str], None]] = None, focus_hints: Optional[Dict[str, int]] = None,
                 python: Optional[str] = None, simulate_agents: bool = True) -> None:
        self.focus_hints = dict(focus_hints or {})  # plugin id -> pane the page focuses when it is picked
        self.editor = WorldEditor(world)
        self.runners: Dict[str, PluginRunner] = {}
        for folder in folders:
            runner = PluginRunner(folder, world, data_root, world_lock=self.editor.lock, python=python)
            key = runner.key
            suffix = 2
            while key in self.runners:
                key = f"{runner.key}-{suffix}"
                suffix += 1
            runner.key = key
            self.runners[key] = runner
        self.watch = watch
        self.echo = echo
        self.sockets: Set[web.WebSocketResponse] = set()
        self._tasks: List[asyncio.Task[None]] = []
        self._world_json = ""
        self.simulate_agents = simulate_agents
        self._typed_seen: Dict[int, int] = {}

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(None, r.start) for r in self.runners.values()))
        self._rekey()
        self._tasks.append(asyncio.ensure_future(self._pump()))
        if self.watch:
            self._tasks.append(asyncio.ensure_future(self._watch()))

    def _rekey(self) -> None:
        """Address plugins by manifest id once manifests are read (folder names may differ in a bundle)."""
        rekeyed: Dict[str, PluginRunner] = {}
        for runner in self.runners.values():
            key, suffix = runner.plugin_id, 2
            while key in rekeyed:
                key, suffix = f"{runner.plugin_id}-{suffix}", suffix + 1
            runner.key = key
            rekeyed[key] = runner
        self.runners = rekeyed

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            try:
                await task
            except asyncio.CancelledError:
                pass
            except Exception as error:  # a failed background task must not keep the plugins running
                self._report(f"background task failed: {error!r}")
        self._tasks.clear()
        for socket in list(self.sockets):
            await socket.close()
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(None, r.stop) for r in self.runners.values()))

    async def _pump(self) -> None:
        while True:
            await asyncio.sleep(PUMP_SECONDS)
            try:
                await self._pump_once()
            except (ConnectionError, RuntimeError, ValueError, TypeError, KeyError, OSError) as error:
                # One bad update must not end the page's updates for every plugin; say so and go on.
                self._report(f"could not forward an update: {error!r}")

    def _report(self, text: str) -> None:
        if self.echo is not None:
            self.echo(f"[dev host] {text}")

    async def _pump_once(self) -> None:
        for runner in list(self.runners.values()):
            update = runner.collect()
            if update is not None:
                self._echo_log(runner, update["log"])
                await self.broadcast({"type": "plugin", "key": runner.key, "plugin": update})
        if self.simulate_agents:
            await self._simulate_agents()
        world_json = json.dumps(self.editor.snapshot(), ensure_ascii=False, sort_keys=True)
        if world_json != self._world_json:
            self._world_json = world_json
            await self.broadcast({"type": "world", "world": json.loads(world_json)})

    async def _simulate_agents(self) -> None:
        """An agent pane that received a submitted prompt works for a while, then finishes, as a real one would.

        Plugins that watch pane status (or must not type into a busy pane) can then be tried for real.
        """
        started: List[int] = []
        with self.editor.lock:
            for _workspace, pane in self.editor.world.panes():
                count = len(pane.typed)
                if count > self._typed_seen.get(pane.id, 0) and pane.kind in ("claude", "codex") \
                        and pane.typed[-1][1] and not pane_is_busy(pane.status):
                    pane.status = "working"
                    started.append(pane.id)
                self._typed_seen[pane.id] = count
        for pane_id in started:
            await self._after_pane_change(pane_id)
            self._tasks = [task for task in self._tasks if not task.done()]
            self._tasks.append(asyncio.ensure_future(self._finish_agent(pane_id)))

    async def _finish_agent(self, pane_id: int) -> None:
        await asyncio.sleep(AGENT_WORK_SECONDS)
        with self.editor.lock:
            pane = self.editor.world.pane(pane_id)
            if pane is None or pane.status != "working":
                return
            pane.status = "finished"
        await self._after_pane_change(pane_id)

    async def _after_pane_change(self, pane_id: int) -> None:
        if pane_id == self.editor.world.focused_pane:
            await asyncio.get_running_loop().run_in_executor(None, self.context_changed)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            for runner in list(self.runners.values()):
                if runner.state == "restarting":
                    continue
                changed = await loop.run_in_executor(None, runner.files_changed)
                if changed:
                    names = ", ".join(_short_path(p, runner.folder) for p in changed[:3])
                    more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
                    try:
                        await loop.run_in_executor(None, runner.restart, f"restarted: {names}{more} changed")
                    except (OSError, RuntimeError, ValueError) as error:
                        self._report(f"could not restart {runner.key}: {error!r}")

    def _echo_log(self, runner: PluginRunner, entries: List[Dict[str, Any]]) -> None:
        if self.echo is None:
            return
        for entry in entries:
            if entry["kind"] in ("lifecycle", "violation"):
                self.echo(f"[{runner.key}] {entry['kind']}: {entry.get('text', '')}")

    async def broadcast(self, message: Dict[str, Any]) -> None:
        data = json.dumps(message, ensure_ascii=False)
        for socket in list(self.sockets):
            try:
                await socket.send_str(data)
            except (ConnectionError, RuntimeError):
                self.sockets.discard(socket)

    def state(self) -> Dict[str, Any]:
        return {
            "plugins": [dict(r.snapshot(), key=key) for key, r in self.runners.items()],
            "world": self.editor.snapshot(),
            "focusHints": self.focus_hints,
        }

    def context_changed(self) -> None:
        """Tell every running plugin that the focused pane, its status, its folder or the language changed."""
        for runner in self.runners.values():
            try:
                runner.context_changed()
            except EventRefused:
                pass


def _short_path(path: str, folder: str) -> str:
    """A changed file named relative to the plugin folder, or to the runtime's parent for runtime files."""
    if path.startswith(folder + os.sep):
        return os.path.relpath(path, folder)
    return os.path.relpath(path, os.path.dirname(RUNTIME_FOLDER))


# ---------------------------------------------------------------------- request handling

DEV_HOST_KEY = web.AppKey("dev_host", DevHost)


def _dev(request: web.Request) -> DevHost:
    return request.app[DEV_HOST_KEY]


def _runner(request: web.Request) -> PluginRunner:
    runner = _dev(request).runners.get(request.match_info["key"])
    if runner is None:
        raise web.HTTPNotFound(text=json.dumps({"error": f"no plugin {request.match_info['key']!r}"}),
                               content_type="application/json")
    return runner


async def _body(request: web.Request) -> Dict[str, Any]:
    try:
        data = await request.json()
    except ValueError:
        raise web.HTTPBadRequest(text=json.dumps({"error": "the body must be JSON"}),
                                 content_type="application/json") from None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(text=json.dumps({"error": "the body must be a JSON object"}),
                                 content_type="application/json")
    return data


def _refused(message: str) -> web.Response:
    return web.json_response({"error": message}, status=400)


async def _blocking(function: Callable[..., Any], *args: Any) -> Any:
    # Writing to a plugin's stdin can block if it stops reading; never do that on the event loop.
    return await asyncio.get_running_loop().run_in_executor(None, function, *args)


async def index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(os.path.join(STATIC, "index.html"), headers={"Cache-Control": "no-store"})


async def get_state(request: web.Request) -> web.Response:
    return web.json_response(_dev(request).state())


async def panel_visibility(request: web.Request) -> web.Response:
    body = await _body(request)
    runner = _runner(request)
    try:
        await _blocking(runner.set_panel_open, bool(body.get("open")))
    except EventRefused as error:
        return _refused(str(error))
    return web.json_response({"ok": True})


async def ui_event(request: web.Request) -> web.Response:
    body = await _body(request)
    runner = _runner(request)
    element, event = body.get("element"), body.get("event")
    if not isinstance(element, str) or not isinstance(event, str):
        return _refused("an event needs element and event")
    item, action = body.get("item"), body.get("action")
    try:
        await _blocking(lambda: runner.ui_event(element, event, body.get("value"),
                                                item if isinstance(item, str) else None,
                                                action if isinstance(action, str) else None))
    except EventRefused as error:
        return _refused(str(error))
    return web.json_response({"ok": True})


async def run_command(request: web.Request) -> web.Response:
    body = await _body(request)
    runner = _runner(request)
    command = body.get("command")
    if not isinstance(command, str):
        return _refused("a command needs its id")
    try:
        await _blocking(runner.run_command, command, body.get("args"))
    except EventRefused as error:
        return _refused(str(error))
    return web.json_response({"ok": True})


async def restart(request: web.Request) -> web.Response:
    runner = _runner(request)
    await _blocking(runner.restart, "restarted by hand")
    return web.json_response({"ok": True, "state": runner.state})


async def open_link(request: web.Request) -> web.Response:
    body = await _body(request)
    url = str(body.get("url", "")).strip()
    if not url.startswith(LINK_PREFIX):
        return _refused(f"a plugin link starts with {LINK_PREFIX}<plugin id>/")
    plugin_id = url[len(LINK_PREFIX):].split("/", 1)[0].split("?", 1)[0]
    runner = _dev(request).runners.get(plugin_id)
    if runner is None:
        return _refused(f"no plugin {plugin_id!r} is running here")
    try:
        await _blocking(runner.open_url, url)
    except EventRefused as error:
        return _refused(str(error))
    return web.json_response({"ok": True, "plugin": runner.key})


async def focus(request: web.Request) -> web.Response:
    body = await _body(request)
    pane_id = body.get("paneId")
    if pane_id is not None and (not isinstance(pane_id, int) or isinstance(pane_id, bool)):
        return _refused("paneId must be a pane id or null")
    dev = _dev(request)
    try:
        dev.editor.focus(pane_id)
    except WorldEditError as error:
        return _refused(str(error))
    await _blocking(dev.context_changed)
    return web.json_response({"ok": True})


async def language(request: web.Request) -> web.Response:
    body = await _body(request)
    dev = _dev(request)
    try:
        dev.editor.set_language(str(body.get("language", "")))
    except WorldEditError as error:
        return _refused(str(error))
    await _blocking(dev.context_changed)
    return web.json_response({"ok": True})


async def edit_pane(request: web.Request) -> web.Response:
    body = await _body(request)
    dev = _dev(request)
    try:
        focused = dev.editor.edit_pane(int(request.match_info["pane"]), body)
    except (WorldEditError, ValueError) as error:
        return _refused(str(error))
    if focused:
        await _blocking(dev.context_changed)
    return web.json_response({"ok": True})


async def add_pane(request: web.Request) -> web.Response:
    body = await _body(request)
    dev = _dev(request)
    try:
        pane_id = dev.editor.add_pane(int(request.match_info["workspace"]), str(body.get("kind", "claude")))
    except (WorldEditError, ValueError) as error:
        return _refused(str(error))
    return web.json_response({"ok": True, "paneId": pane_id})


async def websocket(request: web.Request) -> web.StreamResponse:
    socket = web.WebSocketResponse(heartbeat=20)
    await socket.prepare(request)
    dev = _dev(request)
    await socket.send_str(json.dumps({"type": "hello", "state": dev.state()}, ensure_ascii=False))
    dev.sockets.add(socket)
    try:
        async for message in socket:
            if message.type == WSMsgType.ERROR:
                break
    finally:
        dev.sockets.discard(socket)
    return socket


@web.middleware
async def same_origin_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse requests a web page on another site could make: the dev host can make plugins run commands.

    A POST must carry a JSON body (a cross-site form cannot send one without a preflight we never allow)
    and, when the browser names an Origin, it must be this host; the Host header must be a loopback name
    so a DNS-rebinding page cannot reach us through its own domain.
    """
    host = (request.host or "").rsplit(":", 1)[0].strip("[]")
    if host not in ("127.0.0.1", "localhost", "::1"):
        return web.json_response({"error": "the dev host answers only on 127.0.0.1/localhost"}, status=403)
    origin = request.headers.get("Origin")
    if origin is not None and origin != f"{request.scheme}://{request.host}":
        return web.json_response({"error": "cross-origin requests are refused"}, status=403)
    if request.method in ("POST", "PATCH") and request.content_type != "application/json":
        return web.json_response({"error": "send JSON (Content-Type: application/json)"}, status=415)
    return await handler(request)


def create_app(dev: DevHost) -> web.Application:
    app = web.Application(middlewares=[same_origin_only])
    app[DEV_HOST_KEY] = dev
    app.router.add_get("/", index)
    app.router.add_static("/static/", STATIC)
    app.router.add_get("/api/state", get_state)
    app.router.add_get("/ws", websocket)
    app.router.add_post("/api/plugins/{key}/panel", panel_visibility)
    app.router.add_post("/api/plugins/{key}/event", ui_event)
    app.router.add_post("/api/plugins/{key}/command", run_command)
    app.router.add_post("/api/plugins/{key}/restart", restart)
    app.router.add_post("/api/links", open_link)
    app.router.add_post("/api/world/focus", focus)
    app.router.add_post("/api/world/language", language)
    app.router.add_patch("/api/world/panes/{pane}", edit_pane)
    app.router.add_post("/api/world/workspaces/{workspace}/panes", add_pane)

    async def on_startup(_app: web.Application) -> None:
        await dev.start()

    async def on_cleanup(_app: web.Application) -> None:
        await dev.stop()

    app.on_startup.append(on_startup)
    app.on_cleanup.append(on_cleanup)
    return app
