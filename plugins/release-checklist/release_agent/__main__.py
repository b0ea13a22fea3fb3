"""Start the agent on stdio: `agentty-release-agent` or `python -m release_agent` (logs go to stderr only)."""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from typing import List, Optional, cast

LOG_LEVEL_VARIABLE = "AGENTTY_RELEASE_AGENT_LOG"


def _parse(argv: Optional[List[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="agentty-release-agent",
        description="The release checklist as an ACP agent: start it from Devin Desktop or Zed (stdio).")
    parser.add_argument("--data-dir", help="where release progress is kept (default: see the plugin README)")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    return parser.parse_args(argv)


async def _serve(data_dir: Optional[str]) -> None:
    from acp import Agent, run_agent
    from acp.stdio import stdio_streams

    from .agent import ReleaseAgent

    agent = ReleaseAgent(data_dir)
    if os.name == "posix":
        # A client that gives up on us sends SIGTERM (after closing stdin): end like an EOF, so the
        # finally below kills any running check's process tree instead of leaving it orphaned.
        serving = asyncio.current_task()
        loop = asyncio.get_running_loop()
        for signal_number in (signal.SIGTERM, signal.SIGHUP):
            if serving is not None:
                loop.add_signal_handler(signal_number, serving.cancel)
    if os.name == "posix":
        # Protocol frames get a private copy of fd 1; fd 1 itself (and sys.stdout) then point at stderr,
        # so a stray print or a library writing to stdout can never corrupt the JSON-RPC stream.
        protocol_out = os.fdopen(os.dup(1), "wb", buffering=0)
        os.dup2(2, 1)
        sys.stdout = protocol_out  # type: ignore[assignment,unused-ignore]  # read once by stdio_streams below
        reader, writer = await stdio_streams(limit=50 * 1024 * 1024)
        sys.stdout = sys.stderr
    else:  # the Windows transport writes through sys.stdout.buffer on every frame; leave it alone
        reader, writer = await stdio_streams(limit=50 * 1024 * 1024)
    try:
        # The library's own naming: "input_stream" is what we write to, "output_stream" what we read.
        await run_agent(cast(Agent, agent), input_stream=writer, output_stream=reader)
    finally:
        agent.shutdown()


def main(argv: Optional[List[str]] = None) -> int:
    options = _parse(argv)
    if options.version:
        from . import __version__

        sys.stderr.write(f"agentty-release-agent {__version__}\n")
        return 0
    logging.basicConfig(stream=sys.stderr, level=os.environ.get(LOG_LEVEL_VARIABLE, "INFO").upper(),
                        format="%(asctime)s release-agent %(levelname)s %(message)s")
    if sys.version_info < (3, 10):
        logging.error("the ACP agent needs Python 3.10 or newer (this is %s)", sys.version.split()[0])
        return 2
    try:
        asyncio.run(_serve(options.data_dir))
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
