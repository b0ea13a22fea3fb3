"""`agentty-plugin dev <plugin folder>…`: start the dev host on 127.0.0.1, print its URL, run until Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import errno
import os
import shutil
import signal
import sys
import tempfile
import webbrowser
from typing import Callable, Dict, List, Optional, Sequence

from aiohttp import web

from . import DEFAULT_PORT
from .app import DevHost, create_app
from .sample_data import demo_focus, demo_world, describe, ensure_sample_data
from .world import LANGUAGES, default_world


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentty-plugin dev",
        description="Run plugin folders in a browser exactly as Agentty would: panel, host calls, rules, restarts.",
    )
    parser.add_argument("folders", nargs="+", help="plugin folders (each with agentty-plugin.json)")
    parser.add_argument("--port", type=int, default=None,
                        help=f"port on 127.0.0.1 (default {DEFAULT_PORT}, or a free one when that is taken; 0: any)")
    parser.add_argument("--cwd", help="folder of the simulated workspace and its panes (default: this folder)")
    parser.add_argument("--language", choices=LANGUAGES, default="en", help="Agentty's language at start")
    parser.add_argument("--data-dir", help="where the plugins' data folders go (default: a temporary folder)")
    parser.add_argument("--sample-data", metavar="DIR",
                        help="make the demo's sample data in DIR (first run only) and point the window at it")
    parser.add_argument("--python", help="interpreter that runs the plugins (default: this one; try python3 to run "
                        "them as Agentty does on a machine without the project's packages)")
    parser.add_argument("--static-panes", action="store_true",
                        help="agent panes keep their status (by default a submitted prompt makes one work, "
                        "then finish)")
    parser.add_argument("--no-watch", action="store_true", help="do not restart a plugin when its files change")
    parser.add_argument("--open", action="store_true", help="open the page in the default browser")
    return parser


async def serve(dev: DevHost, port: Optional[int], on_ready: Callable[[str], None], stop: asyncio.Event) -> None:
    """Start the plugins and the web server; call `on_ready(url)`; stop everything when `stop` is set."""
    app = create_app(dev)
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", DEFAULT_PORT if port is None else port)
        try:
            await site.start()
        except OSError as error:
            if port is not None or error.errno != errno.EADDRINUSE:
                raise
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
        bound = runner.addresses[0][1]
        on_ready(f"http://127.0.0.1:{bound}/")
        await stop.wait()
        _say("stopping the plugins…")
    finally:
        await runner.cleanup()


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


async def _main_async(args: argparse.Namespace, folders: List[str]) -> None:
    focus_hints: Dict[str, int] = {}
    temp: Optional[tempfile.TemporaryDirectory[str]] = None
    if args.sample_data:
        data = ensure_sample_data(args.sample_data)
        _say(describe(data))
        world = demo_world(data, args.language)
        data_root = args.data_dir or data.plugin_data
        focus_hints = demo_focus([os.path.basename(os.path.normpath(f)) for f in folders])
    else:
        world = default_world(args.cwd, args.language)
        if args.data_dir:
            data_root = args.data_dir
        else:
            temp = tempfile.TemporaryDirectory(prefix="agentty-dev-")
            data_root = temp.name
    python = shutil.which(args.python) or args.python if args.python else None
    dev = DevHost(folders, world, data_root, watch=not args.no_watch, echo=_say, focus_hints=focus_hints,
                  python=python, simulate_agents=not args.static_panes)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, stop.set)
        except (NotImplementedError, RuntimeError):  # Windows: Ctrl-C arrives as KeyboardInterrupt instead
            pass

    def ready(url: str) -> None:
        # The URL goes to stdout (one line, flushed) so scripts and tests can read it; the rest is stderr.
        sys.stdout.write(f"Agentty dev host: {url}\n")
        sys.stdout.flush()
        _say(f"{len(folders)} plugin(s); plugin data in {data_root}. Press Ctrl-C to stop.")
        if args.open:
            webbrowser.open(url)

    try:
        await serve(dev, args.port, ready, stop)
    finally:
        _say("stopped")
        if temp is not None:
            temp.cleanup()


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    folders = [os.path.abspath(f) for f in args.folders]
    missing = [f for f in folders if not os.path.isdir(f)]
    if missing:
        _say("not a folder: " + ", ".join(missing))
        return 2
    try:
        asyncio.run(_main_async(args, folders))
    except KeyboardInterrupt:
        pass
    except (OSError, RuntimeError) as error:
        _say(f"the dev host could not run: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
