"""Runtime benchmark: start-up to initialize and first panel vs a bare interpreter, reader throughput, RSS, bursts."""

from __future__ import annotations

import io
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time
from typing import List, Optional

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "shared"))

from agentty_plugin import _transport  # noqa: E402
from agentty_plugin.testing import PluginHost  # noqa: E402

RUNS = 15
MINIMAL = '''"""Minimal plugin for the start-up benchmark."""
from agentty_plugin import Plugin, ui

plugin = Plugin()


@plugin.on_panel_open
def render(context):
    plugin.set_panel(ui.column([ui.text("Hello"), ui.button("go", "Go")]))


if __name__ == "__main__":
    plugin.run()
'''


def minimal_plugin() -> pathlib.Path:
    folder = ROOT / "bench" / ".data" / "minimal"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "agentty-plugin.json").write_text(json.dumps(
        {"id": "minimal", "name": "Minimal", "version": "0.1.0", "runtime": "python", "main": "main.py"}))
    (folder / "main.py").write_text(MINIMAL)
    return folder


def environment() -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "shared"))
    # As Agentty starts plugins: no PYTHONUNBUFFERED, and bytecode caching as on a user's machine
    # (this workplace sets PYTHONDONTWRITEBYTECODE, which would make every start compile the runtime).
    env.pop("PYTHONUNBUFFERED", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def time_bare() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


def time_plugin(folder: pathlib.Path, context: Optional[dict] = None, data_dir: Optional[str] = None,
                command: Optional[List[str]] = None, env: Optional[dict] = None):
    """(initialize answered, first ui/setPanel, peak RSS kB) for one start of the plugin in `folder`.

    `command` is how it is started (default: this interpreter with the checkout's runtime on PYTHONPATH);
    the first panel's tree is checked to be the plugin's own, not the missing-package explanation."""
    plugin_id = folder.name
    context = context or {}
    init = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "initialize",
                       "params": {"apiVersion": 1, "plugin": {"id": plugin_id, "dir": str(folder),
                                                              "dataDir": data_dir or ""},
                                  "language": "en", "context": context}})
    panel = json.dumps({"jsonrpc": "2.0", "method": "panel/open", "params": {"context": context}})
    env = dict(env) if env is not None else environment()
    if data_dir:
        env["AGENTTY_PLUGIN_DATA"] = data_dir
    started = time.perf_counter()
    process = subprocess.Popen(command or [sys.executable, "main.py"], cwd=folder, env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdin and process.stdout
    process.stdin.write((init + "\n" + panel + "\n").encode())
    process.stdin.flush()
    answered = first_panel = 0.0
    while not first_panel:
        message = json.loads(process.stdout.readline())
        now = time.perf_counter() - started
        if message.get("id") == 7 and "result" in message:
            answered = now
        if message.get("method") == "ui/setPanel":
            first_panel = now
            if "package is missing" in json.dumps(message, ensure_ascii=False):
                raise RuntimeError(f"{folder.name}: the first panel says a package is missing")
        elif "method" in message and message.get("id") is not None:
            # A call the first panel may wait for: answered at once, as a local host would.
            reply = {"jsonrpc": "2.0", "id": message["id"], "result": host_answer(message["method"], context)}
            process.stdin.write((json.dumps(reply) + "\n").encode())
            process.stdin.flush()
    rss_kb = 0
    try:
        with open(f"/proc/{process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    rss_kb = int(line.split()[1])
    except OSError:
        pass
    process.stdin.close()
    process.wait(5)
    return answered, first_panel, rss_kb


def plugin_context(repo: pathlib.Path) -> dict:
    """The focused Claude pane in a small git repository: what a user opening a panel usually has."""
    pane = {"id": 11, "kind": "claude", "tool": "claude", "title": "Claude Code", "cwd": str(repo), "status": "idle",
            "running": True}
    return {"language": "en", "workspace": {"id": 1, "name": repo.name, "cwd": str(repo), "active": True},
            "pane": pane}


def small_repository() -> pathlib.Path:
    repo = ROOT / "bench" / ".data" / "startup-repo"
    if not (repo / ".git").is_dir():
        repo.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        (repo / "README.md").write_text("# startup\n")
        (repo / "CHANGELOG.md").write_text("# Changelog\n\n## 0.1.0\n\n- First.\n")
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
                        "commit", "-q", "-m", "start"], check=True)
    return repo


def plugin_startups(minimal: pathlib.Path) -> None:
    """Each real plugin's first panel against the minimal plugin's, runs interleaved so load hits both alike."""
    repo = small_repository()
    context = plugin_context(repo)
    folders = sorted(p.parent for p in (ROOT / "plugins").glob("*/agentty-plugin.json"))
    print(f"First panel (spawn → initialize → panel/open → ui/setPanel), bytecode cached, {RUNS} runs each, "
          f"interleaved with the minimal plugin; target ≤ 1.8× minimal")
    print(f"{'plugin':<22}{'median ms':>10}{'minimal ms':>12}{'× minimal':>11}")
    for folder in folders:
        data = ROOT / "bench" / ".data" / "startup-data" / folder.name
        data.mkdir(parents=True, exist_ok=True)
        time_plugin(folder, context, str(data))  # compiles and caches its bytecode, as a first start does
        ours, base = [], []
        for _ in range(RUNS):
            ours.append(time_plugin(folder, context, str(data))[1])
            base.append(time_plugin(minimal, context)[1])
        ratio = statistics.median(ours) / statistics.median(base)
        print(f"{folder.name:<22}{statistics.median(ours) * 1000:>10.1f}{statistics.median(base) * 1000:>12.1f}"
              f"{ratio:>11.2f}")


NODE_BASELINE = ROOT / "bench" / "node_baseline"  # main.mjs: the Node template's shape, written here
# The interpreter Agentty would find for a user: a real python3, not a pyenv shim (a shell script that
# adds tens of milliseconds of its own) and not this venv (whose site-packages hold the plugins' packages).
SYSTEM_PYTHON = os.environ.get("BENCH_PYTHON") or next(
    (p for p in ("/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3") if os.path.exists(p)),
    sys.executable)


def scaffold_plugin() -> pathlib.Path:
    """The plugin `agentty-plugin new` writes today, with its vendored runtime (made afresh each run)."""
    import shutil

    from agentty_plugin.scaffold import new_plugin

    parent = ROOT / "bench" / ".data" / "scaffold-startup"
    shutil.rmtree(parent, ignore_errors=True)
    return pathlib.Path(new_plugin("word-count", str(parent)))


def startup_vs_node() -> None:
    """Every plugin's and the scaffold's first panel against a Node plugin in the template's shape, runs
    interleaved (one of each in turn, so load hits all alike), each as Agentty starts it: `python3 main.py`
    with nothing on PYTHONPATH (the runtime from ../../shared or _vendor/), `node main.mjs`."""
    import shutil as _shutil

    node = _shutil.which("node")
    if node is None:
        print("Start-up vs Node: not run, there is no `node` on PATH (the baseline is bench/node_baseline/main.mjs)")
        return
    repo = small_repository()
    context = plugin_context(repo)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    targets = [("node baseline", NODE_BASELINE, [node, "main.mjs"])]
    targets += [(f.name, f, [SYSTEM_PYTHON, "main.py"])
                for f in sorted(p.parent for p in (ROOT / "plugins").glob("*/agentty-plugin.json"))]
    targets.append(("scaffold (new)", scaffold_plugin(), [SYSTEM_PYTHON, "main.py"]))
    data = {name: ROOT / "bench" / ".data" / "startup-data" / folder.name for name, folder, _c in targets}
    for name, folder, command in targets:  # compiles and caches bytecode, as a first start does
        data[name].mkdir(parents=True, exist_ok=True)
        time_plugin(folder, context, str(data[name]), command, env)
    times: dict = {name: [] for name, _f, _c in targets}
    for _ in range(RUNS):
        for name, folder, command in targets:
            times[name].append(time_plugin(folder, context, str(data[name]), command, env)[1])
    node_median = statistics.median(times["node baseline"])
    print(f"\nFirst panel vs the Node template's shape (spawn → ui/setPanel), {RUNS} interleaved runs each, medians; "
          f"{SYSTEM_PYTHON} ({subprocess.run([SYSTEM_PYTHON, '-V'], capture_output=True, text=True).stdout.strip()}),"
          f" node {subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()}; "
          f"target ≤ 1.00× Node")
    print(f"{'plugin':<22}{'median ms':>10}{'p95 ms':>9}{'× Node':>9}")
    for name, values in times.items():
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        median = statistics.median(values)
        flag = "" if median <= node_median else "  over target"
        print(f"{name:<22}{median * 1000:>10.1f}{p95 * 1000:>9.1f}{median / node_median:>9.2f}{flag}")


def host_answer(method: str, context: dict):
    pane = context.get("pane") or {}
    if method == "context/get":
        return context
    if method == "workspace/list":
        workspace = context.get("workspace")
        return [dict(workspace, panes=[pane])] if workspace else []
    if method == "session/get":
        return {"paneId": pane.get("id"), "agent": pane.get("kind"), "sessionId": "s-1", "title": "Start-up",
                "cwd": pane.get("cwd"), "status": "idle", "turnCount": 2,
                "turns": [{"role": "user", "text": "Fix the failing test in README.md"},
                          {"role": "assistant", "text": "I updated README.md and the test passes now."}]}
    return None


def reader_throughput(count: int = 100_000) -> float:
    line = json.dumps({"jsonrpc": "2.0", "method": "ui/event",
                       "params": {"element": "q", "event": "change", "value": "hello", "context": {"language": "en"}}})
    data = ((line + "\n") * count).encode()
    started = time.perf_counter()
    seen = sum(1 for _ in _transport.read_lines(io.BytesIO(data), lambda _p: None))
    assert seen == count
    return count / (time.perf_counter() - started)


def burst(rate: int = 2000, seconds: float = 2.0):
    probe = ROOT / "tests" / "runtime" / "plugins" / "probe"
    with PluginHost(str(probe), env={"PYTHONPATH": str(ROOT / "shared")}) as host:
        host.open_panel()
        host.wait_for_text("ready")
        before = len(host.panels)
        total = int(rate * seconds)
        started = time.monotonic()
        for n in range(total):
            host.send("ui/event", {"element": "probe.input", "event": "change", "value": str(n), "context": {}})
            if n % 50 == 49:
                time.sleep(max(0.0, started + (n + 1) / rate - time.monotonic()))
        sent_for = time.monotonic() - started
        host.wait_for_text(f"any probe.input={total - 1}", timeout=60)
        elapsed = time.monotonic() - started
        panels = len(host.panels) - before
        times = host.panel_times[before:]
        worst = 0
        start = 0
        for end in range(len(times)):
            while times[end] - times[start] > 1.0:
                start += 1
            worst = max(worst, end - start + 1)
        return total / sent_for, panels / elapsed, worst, list(host.violations)


def main() -> None:
    folder = minimal_plugin()
    bare = [time_bare() for _ in range(RUNS)]
    cache = ROOT / "shared" / "agentty_plugin" / "__pycache__"
    if cache.is_dir():
        for stale in cache.glob("*.pyc"):
            stale.unlink()
    first = time_plugin(folder)  # compiles the runtime and caches its bytecode, as a first start does
    results = [time_plugin(folder) for _ in range(RUNS)]
    init = [r[0] for r in results]
    panel = [r[1] for r in results]
    rss = [r[2] for r in results if r[2]]
    bare_median = statistics.median(bare)
    print(f"Start-up, {RUNS} runs each, {sys.executable} ({sys.version.split()[0]})")
    print(f"{'measure':<36}{'median ms':>10}{'p95 ms':>10}{'× bare':>9}")
    for name, values in (("bare python -c pass", bare), ("spawn → initialize answer", init),
                         ("spawn → first panel", panel)):
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        print(f"{name:<36}{statistics.median(values) * 1000:>10.1f}{p95 * 1000:>10.1f}"
              f"{statistics.median(values) / bare_median:>9.2f}")
    print(f"{'first start (compiling, 1 run)':<36}{first[1] * 1000:>10.1f}{'':>10}{first[1] / bare_median:>9.2f}")
    if rss:
        print(f"peak RSS of the minimal plugin: median {statistics.median(rss) / 1024:.1f} MiB")
    plugin_startups(folder)
    startup_vs_node()
    rates = [reader_throughput() for _ in range(3)]
    print(f"reader: {statistics.median(rates):,.0f} messages/s (median of 3 runs of 100,000 ui/event lines)")
    sent_rate, panels_per_second, worst, violations = burst()
    print(f"burst: {sent_rate:,.0f} events/s sent for 2 s → {panels_per_second:.1f} panels/s on average, "
          f"at most {worst} panels in any 1 s window; host violations: {violations or 'none'}")


if __name__ == "__main__":
    main()
