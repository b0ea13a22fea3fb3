"""ACP agent benchmark: session/prompt → first plan update, and session/cancel → `cancelled` answer.

Drives `python -m release_agent` through the official ACP client, on a repository it generates under
bench/.data/release_agent/. Baselines, in the same run: the engine work behind the first plan done
in-process (open the release, fill the step titles), and the engine's own Stop (start the same
command, stop it, wait() returns) — so the ratios show what the protocol and the agent add.
"""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, List, Optional, Tuple, cast

HERE = Path(__file__).resolve().parent
PLUGIN_DIR = HERE.parent / "plugins" / "release-checklist"
sys.path.insert(0, str(PLUGIN_DIR))

from acp import PROTOCOL_VERSION, Client, spawn_agent_process, text_block  # noqa: E402
from release_agent import engine  # noqa: E402
from release_checklist import start_command  # noqa: E402

DATA = HERE / ".data" / "release_agent"
RUNS = 15
ENV = {"GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com"}
LONG_STEP = (f"{sys.executable} -c " + json.dumps(
    "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
    "print('ready', flush=True); time.sleep(60)"))


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=str(cwd), env={**os.environ, **ENV}, check=True, capture_output=True)


def make_repo(name: str, steps: List[str]) -> Path:
    root = DATA / name
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    (root / "VERSION").write_text("1.4.0\n", encoding="utf-8")
    (root / "CHANGELOG.md").write_text("# Changelog\n\n## 1.4.0\n- Things.\n", encoding="utf-8")
    (root / "RELEASE_CHECKLIST.md").write_text(
        "# Release checklist\n\n" + "".join(f"- [ ] {step}\n" for step in steps), encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "first")
    return root


class TimingClient:
    """The client side: notes when the update it waits for arrives (duck-typed acp.Client)."""

    def __init__(self) -> None:
        self.watch: Optional[Callable[[Any], bool]] = None
        self.seen: Optional[asyncio.Event] = None

    async def request_permission(self, options: Any, session_id: str, tool_call: Any, **_: Any) -> Any:
        raise RuntimeError("the benchmark never releases")

    async def session_update(self, session_id: str, update: Any, **_: Any) -> None:
        if self.watch is not None and self.seen is not None and self.watch(update):
            self.seen.set()


def has_ready(update: Any) -> bool:
    return update.session_update == "tool_call_update" and any(
        "ready" in item.content.text for item in (update.content or []))


async def measure_agent(check_repo: Path, cancel_repo: Path) -> Tuple[float, List[float], List[float]]:
    client = TimingClient()
    env = {"PYTHONPATH": str(PLUGIN_DIR), "AGENTTY_RELEASE_AGENT_DATA": str(DATA / "agent-data"),
           "AGENTTY_RELEASE_AGENT_LOG": "WARNING", **ENV}
    started = time.perf_counter()
    async with spawn_agent_process(cast(Client, client), sys.executable, "-m", "release_agent", env=env,
                                   transport_kwargs={"stderr": subprocess.DEVNULL}) as (conn, _process):
        await conn.initialize(protocol_version=PROTOCOL_VERSION)
        startup = time.perf_counter() - started
        first_plan: List[float] = []
        session = (await conn.new_session(cwd=str(check_repo), mcp_servers=[])).session_id
        for _ in range(RUNS):
            client.seen, client.watch = asyncio.Event(), (lambda update: update.session_update == "plan")
            begin = time.perf_counter()
            turn = asyncio.ensure_future(conn.prompt(session_id=session, prompt=[text_block("check")]))
            await client.seen.wait()
            first_plan.append(time.perf_counter() - begin)
            await turn
        cancels: List[float] = []
        session = (await conn.new_session(cwd=str(cancel_repo), mcp_servers=[])).session_id
        for _ in range(RUNS):
            client.seen, client.watch = asyncio.Event(), has_ready
            turn = asyncio.ensure_future(conn.prompt(session_id=session, prompt=[text_block("check")]))
            await client.seen.wait()
            begin = time.perf_counter()
            await conn.cancel(session_id=session)
            answer = await turn
            cancels.append(time.perf_counter() - begin)
            assert answer.stop_reason == "cancelled", (len(cancels), answer)
    return startup, first_plan, cancels


def baseline_first_plan(repo: Path) -> List[float]:
    times = []
    for _ in range(RUNS):
        begin = time.perf_counter()
        release = engine.open_release(str(repo), str(DATA / "baseline-data"), None)
        engine.describe_steps(release)
        times.append(time.perf_counter() - begin)
    return times


def baseline_stop(repo: Path) -> List[float]:
    times = []
    for _ in range(RUNS):
        ready = threading.Event()
        def on_line(line: str, ready: threading.Event = ready) -> None:
            if "ready" in line:
                ready.set()

        running = start_command(LONG_STEP, str(repo), on_line=on_line)
        # wait() is what reads the output (and calls on_line), so it runs on its own thread, as in the agent.
        waiter = threading.Thread(target=running.wait)
        waiter.start()
        if not ready.wait(30):
            raise RuntimeError("the long step printed nothing")
        begin = time.perf_counter()
        running.stop()
        waiter.join()
        times.append(time.perf_counter() - begin)
    return times


def p95(values: List[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for stale in ("agent-data", "baseline-data"):  # every run starts with no saved progress
        shutil.rmtree(DATA / stale, ignore_errors=True)
    check_repo = make_repo("check", ["Working tree is clean: `release-check clean-tree`",
                                     "Tag {tag} is free: `release-check tag-free {tag}`",
                                     f"Quick: `{sys.executable} -c \"print('ok')\"`"])
    cancel_repo = make_repo("cancel", [f"Long build: `{LONG_STEP}`"])
    startup, first_plan, cancels = asyncio.run(measure_agent(check_repo, cancel_repo))
    base_plan, base_stop = baseline_first_plan(check_repo), baseline_stop(cancel_repo)
    print(f"release agent over ACP (stdio, official client), {RUNS} runs each; agent start-up to "
          f"initialize answered: {startup * 1000:.0f} ms")
    print(f"{'measure':<44}{'median ms':>10}{'p95 ms':>9}{'baseline':>44}{'median ms':>10}{'ratio':>7}")
    rows = [
        ("session/prompt → first plan update", first_plan, "engine: open release + step titles", base_plan),
        ("session/cancel → stopReason cancelled", cancels, "engine: stop() → wait() returns", base_stop),
    ]
    for name, values, base_name, base in rows:
        median, base_median = statistics.median(values), statistics.median(base)
        print(f"{name:<44}{median * 1000:>10.1f}{p95(values) * 1000:>9.1f}{base_name:>44}{base_median * 1000:>10.1f}"
              f"{median / base_median:>7.2f}")


if __name__ == "__main__":
    main()
