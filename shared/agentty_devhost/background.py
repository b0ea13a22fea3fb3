"""Runs a dev host on its own thread and event loop, for `make screenshots` and for tests."""

from __future__ import annotations

import asyncio
import threading
from typing import Dict, Optional, Sequence

from agentty_plugin.world import World

from .app import DevHost
from .cli import serve


class BackgroundDevHost:
    """`with BackgroundDevHost(folders, world, data_root) as url:` — the server runs until the block ends."""

    def __init__(self, folders: Sequence[str], world: World, data_root: str, port: int = 0, watch: bool = False,
                 focus_hints: Optional[Dict[str, int]] = None) -> None:
        self.dev = DevHost(folders, world, data_root, watch=watch, focus_hints=focus_hints)
        self.port = port
        self.url = ""
        self._ready = threading.Event()
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._stop: Optional[asyncio.Event] = None
        self._error: Optional[BaseException] = None
        self._thread = threading.Thread(target=self._run, name="agentty-devhost", daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()

            def ready(url: str) -> None:
                self.url = url
                self._ready.set()

            await serve(self.dev, self.port, ready, self._stop)

        try:
            asyncio.run(main())
        except BaseException as error:  # reported to the thread that waits in start()
            self._error = error
        finally:
            self._ready.set()

    def start(self, timeout: float = 30.0) -> str:
        self._thread.start()
        if not self._ready.wait(timeout) or not self.url:
            raise RuntimeError(f"the dev host did not start: {self._error!r}")
        return self.url

    def stop(self, timeout: float = 15.0) -> None:
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout)

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
