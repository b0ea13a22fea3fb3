"""Overhead of running a trivial 10-step checklist through the engine vs the same 10 commands run directly."""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List

HERE = Path(__file__).resolve().parent
DATA = HERE / ".data" / "release_checklist"
sys.path.insert(0, str(HERE.parent / "plugins" / "release-checklist"))

from release_checklist import ReleaseSession, clean_env  # noqa: E402

RUNS = 30
GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
           "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid"}
# Ten cheap, real commands a checklist might hold (git plumbing and a Python one-liner).
COMMANDS: List[List[str]] = [
    ["git", "rev-parse", "HEAD"],
    ["git", "status", "--porcelain"],
    ["git", "tag", "--list"],
    ["git", "log", "-1", "--format=%s"],
    ["git", "branch", "--show-current"],
    ["git", "diff", "--quiet", "HEAD"],
    ["git", "ls-files"],
    ["git", "config", "--get", "user.name"],
    ["git", "rev-list", "--count", "HEAD"],
    [sys.executable, "-c", "pass"],
]


def make_repo() -> Path:
    repo = DATA / "repo"
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    for args in (["init", "-q", "-b", "main"], ["config", "user.name", "Bench"]):
        subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True)
    (repo / "pyproject.toml").write_text('[project]\nname = "bench"\nversion = "1.0.0"\n')
    items = [f"- [ ] Step {number}: `{' '.join(_quote(part) for part in args)}`"
             for number, args in enumerate(COMMANDS, start=1)]
    (repo / "RELEASE_CHECKLIST.md").write_text("# Bench\n\n" + "\n".join(items) + "\n")
    subprocess.run(["git", "add", "-A"], cwd=repo, env=GIT_ENV, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "bench"], cwd=repo, env=GIT_ENV, check=True)
    return repo


def _quote(part: str) -> str:
    return f'"{part}"' if " " in part or "%" in part else part


def make_big_repo() -> Path:
    """Shaped like ripgrep or jq: 300 release tags, a 1 MB changelog, no checklist file (derived steps)."""
    repo = DATA / "big"
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, env=GIT_ENV, check=True)
    (repo / "Cargo.toml").write_text('[workspace]\nmembers = ["crates/a"]\n[workspace.package]\nversion = "3.0.0"\n')
    entries = "".join(f"## 2.{minor}.{patch}\n\n" + "- a change that is described at some length\n" * 40
                      for minor in range(30, 0, -1) for patch in range(10, -1, -1))
    (repo / "CHANGELOG.md").write_text("# Changelog\n\n## 3.0.0\n\n- new\n\n" + entries[:1_000_000])
    subprocess.run(["git", "add", "-A"], cwd=repo, env=GIT_ENV, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "big"], cwd=repo, env=GIT_ENV, check=True)
    refs = "".join(f"create refs/tags/v2.{minor}.{patch} HEAD\n" for minor in range(30) for patch in range(10))
    subprocess.run(["git", "update-ref", "--stdin"], cwd=repo, env=GIT_ENV, input=refs.encode(), check=True)
    return repo


def git_floor(repo: Path) -> None:
    """The git calls any release view needs at least (work tree root and the tag list)."""
    for args in (["rev-parse", "--show-toplevel"], ["tag", "--list", "--sort=-creatordate"]):
        subprocess.run(["git", "-C", str(repo), *args], stdin=subprocess.DEVNULL, capture_output=True, check=True)


def direct(repo: Path) -> None:
    env = clean_env()
    for args in COMMANDS:
        subprocess.run(args, cwd=repo, env=env, stdin=subprocess.DEVNULL, capture_output=True, check=False)


def timed(function: Callable[[], None]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def p95(values: List[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    repo = make_repo()
    data_dir = DATA / "plugin-data"
    shutil.rmtree(data_dir, ignore_errors=True)
    opened: List[float] = []
    started = time.perf_counter()
    session = ReleaseSession(str(repo), str(data_dir))
    opened.append(time.perf_counter() - started)
    assert len(session.steps) == 10

    def engine() -> None:
        session.reset()
        results = session.run_checks()
        if len(results) != 10 or not all(record.state == "passed" for record in results.values()):
            raise RuntimeError(f"a benchmark step failed: {results}")

    engine()  # warm up both paths (page cache, imports)
    direct(repo)
    engine_times: List[float] = []
    direct_times: List[float] = []
    for _ in range(RUNS):  # interleaved so machine noise hits both sides alike
        direct_times.append(timed(lambda: direct(repo)))
        engine_times.append(timed(engine))
    for _ in range(4):
        started = time.perf_counter()
        ReleaseSession(str(repo), str(data_dir))
        opened.append(time.perf_counter() - started)

    base_median, base_p95 = statistics.median(direct_times), p95(direct_times)
    rows = [
        ("10 commands run directly (subprocess.run)", base_median, base_p95),
        ("same 10 steps via ReleaseSession.run_checks", statistics.median(engine_times), p95(engine_times)),
    ]
    print(f"release-checklist: {RUNS} runs each, interleaved; 10 steps per run; Python {sys.version.split()[0]}")
    print(f"{'case':<46} {'median ms':>10} {'p95 ms':>9} {'ratio (median)':>15} {'ratio (p95)':>12}")
    for name, median, high in rows:
        print(f"{name:<46} {median * 1000:>10.1f} {high * 1000:>9.1f} {median / base_median:>14.2f}x "
              f"{high / base_p95:>11.2f}x")
    per_step = (statistics.median(engine_times) - base_median) / 10 * 1000
    print(f"overhead per step (median): {per_step:.2f} ms (target: ratio <= 1.20x)")
    print(f"opening a release (checklist, project, saved state; {len(opened)} runs): "
          f"median {statistics.median(opened) * 1000:.1f} ms, first {opened[0] * 1000:.1f} ms")

    big = make_big_repo()
    floor_times: List[float] = []
    open_times: List[float] = []
    for _ in range(10):  # interleaved, as above
        floor_times.append(timed(lambda: git_floor(big)))
        open_times.append(timed(lambda: ReleaseSession(str(big), str(data_dir))))
    floor = statistics.median(floor_times)
    derived = statistics.median(open_times)
    print(f"derived checklist on 300 tags + 1 MB changelog (10 runs): floor (2 git calls) {floor * 1000:.1f} ms, "
          f"open {derived * 1000:.1f} ms ({derived / floor:.1f}x the floor; target: under 150 ms)")


    chatty_panel()


CHATTY_LINES = 200_000


def chatty_panel(plugin: Path = HERE.parent / "plugins" / "release-checklist") -> None:
    """A check printing 200,000 lines, run in the panel (every line drawn, coalesced) vs by the engine alone."""
    from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World

    repo = DATA / "chatty"
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, env=GIT_ENV, check=True)
    command = f'{sys.executable} -c "[print(n) for n in range({CHATTY_LINES})]"'
    (repo / "RELEASE_CHECKLIST.md").write_text(f"- [ ] Chatty: `{command}` #timeout=600\n")
    subprocess.run(["git", "add", "-A"], cwd=repo, env=GIT_ENV, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "chatty"], cwd=repo, env=GIT_ENV, check=True)
    data_dir = DATA / "chatty-data"
    world = World(workspaces=[WorkspaceSpec(id=1, name="chatty", cwd=str(repo),
                                            panes=[PaneSpec(id=11, kind="claude", status="idle", cwd=str(repo))])],
                  focused_pane=11)
    host = PluginHost(str(plugin), world=world, data_dir=data_dir / "panel")
    host.start()
    alone: List[float] = []
    panel: List[float] = []
    try:
        host.open_panel()
        host.wait_for_panel(lambda tree: host.find(tree, "release.steps") is not None, timeout=30)
        session = ReleaseSession(str(repo), str(data_dir / "engine"))
        for _ in range(3):  # interleaved
            session.reset()
            alone.append(timed(lambda: session.run_step("chatty", on_line=lambda _step, _line: None)))
            host.row_action("release.steps", "chatty", "undo")  # back to pending: the output below is gone
            host.wait_for_panel(lambda tree: "199999" not in "\n".join(host.texts(tree)), timeout=30)
            started = time.perf_counter()
            host.row_action("release.steps", "chatty", "run")
            host.wait_for_panel(lambda tree: "199999" in "\n".join(host.texts(tree))
                                and host.find(tree, "release.stop") is None, timeout=600)
            panel.append(time.perf_counter() - started)
        violations = host.violations
    finally:
        host.close()
    print(f"a check printing {CHATTY_LINES:,} lines (3 runs): engine alone {statistics.median(alone):.2f} s, "
          f"in the panel {statistics.median(panel):.2f} s ({statistics.median(panel) / statistics.median(alone):.2f}x; "
          f"host violations: {violations or 'none'})")


if __name__ == "__main__":
    main()
