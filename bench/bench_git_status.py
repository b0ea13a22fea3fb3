"""git-status benchmark: the plugin's status read on a 20,000-file repository against raw `git status`, and the
overview of 10 workspaces. Generates its repositories under bench/.data/git_status/ (reused between runs)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "plugins" / "git-status"))

from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World  # noqa: E402
from git_status.location import locate  # noqa: E402
from git_status.overview import OverviewReader  # noqa: E402
from git_status.runner import GitRunner  # noqa: E402
from git_status.snapshot import read_status, take_snapshot  # noqa: E402

DATA = HERE / ".data" / "git_status"
LARGE_FILES = 20_000
LARGE_COMMITS = 300
SMALL_FILES = 2_000
RUNS = 25
OVERVIEW_RUNS = 7
ENV = {**os.environ, "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com", "GIT_CONFIG_NOSYSTEM": "1"}
RAW_STATUS = ["git", "--no-optional-locks", "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal"]


def git(cwd: Path, *args: str, stdin: bytes = b"") -> None:
    subprocess.run(["git", *args], cwd=str(cwd), input=stdin, env=ENV, check=True, capture_output=True)


def fast_import_stream(files: int, commits: int) -> bytes:
    """One commit with every file, then `commits` commits touching a few files each."""
    out: List[bytes] = []
    stamp = 1_700_000_000

    def commit(mark: int, message: str, changes: List[Tuple[str, bytes]], parent: int) -> None:
        out.append(f"commit refs/heads/main\nmark :{mark}\ncommitter Bench <b@example.com> {stamp + mark} +0000\n"
                   .encode())
        data = message.encode()
        out.append(f"data {len(data)}\n".encode() + data + b"\n")
        if parent:
            out.append(f"from :{parent}\n".encode())
        for path, body in changes:
            out.append(f"M 100644 inline {path}\ndata {len(body)}\n".encode() + body + b"\n")

    def path_of(n: int) -> str:
        return f"src/d{n % 40:02}/s{n // 40 % 10}/m{n // 400 % 5}/f{n}.txt"

    commit(1, "initial import", [(path_of(n), f"file {n}\n".encode()) for n in range(files)], 0)
    for c in range(2, commits + 2):
        touched = [(path_of((c * 7919 + k) % files), f"file v{c}\n".encode()) for k in range(3)]
        commit(c, f"change {c}", touched, c - 1)
    return b"".join(out)


def settle_index(path: Path) -> None:
    """Files written in the same second as the index are "racily clean": git re-hashes them on every
    status until the index is rewritten later. A user's repository is not like that, so wait a
    moment and let git rewrite the index once."""
    time.sleep(1.1)
    git(path, "status")


def make_repo(path: Path, files: int, commits: int, changes: int) -> Path:
    marker = path / ".git" / "bench-ready"
    settled = path / ".git" / "bench-settled"
    if marker.exists():
        if not settled.exists():
            settle_index(path)
            settled.write_text("ok\n")
        return path
    if path.exists():
        subprocess.run(["rm", "-rf", str(path)], check=True)
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "fast-import", "--quiet", stdin=fast_import_stream(files, commits))
    git(path, "checkout", "-q", "-f", "main")
    # An upstream three commits behind and two commits of its own: ahead/behind to compute.
    git(path, "config", "remote.origin.url", str(path))
    git(path, "config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")
    git(path, "config", "branch.main.remote", "origin")
    git(path, "config", "branch.main.merge", "refs/heads/main")
    git(path, "update-ref", "refs/remotes/origin/main", "HEAD~3")
    for n in range(changes):
        target = path / "src" / f"d{n % 40:02}" / f"s{n // 40 % 10}" / f"m{n // 400 % 5}" / f"f{n}.txt"
        target.write_text(f"edited {n}\n")
        if n % 4 == 0:
            git(path, "add", str(target.relative_to(path)))
    for n in range(changes // 4):
        (path / f"untracked-{n}.txt").write_text("new\n")
    settle_index(path)
    marker.write_text("ok\n")
    settled.write_text("ok\n")
    return path


def measure(fn: Callable[[], object], runs: int) -> List[float]:
    fn()  # warm-up, not counted
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return times


def once(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def p95(values: List[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def start_up(repo: Path, runs: int = 5) -> Tuple[List[float], List[float]]:
    """Panel open -> first panel (a spinner, before GitPython is imported) and -> first full status."""
    first: List[float] = []
    full: List[float] = []
    world = World(workspaces=[WorkspaceSpec(id=1, name="large", cwd=str(repo),
                                            panes=[PaneSpec(id=11, kind="claude", cwd=str(repo))])], focused_pane=11)
    for _ in range(runs):
        with PluginHost(str(HERE.parent / "plugins" / "git-status"), world=world) as host:
            time.sleep(0.3)  # let initialize settle, as in Agentty
            opened = time.perf_counter()
            host.open_panel()
            host.wait_for_panel(timeout=30)
            first.append((time.perf_counter() - opened) * 1000)
            host.wait_for_panel(lambda t: PluginHost.find(t, "files.changed") is not None, timeout=60)
            full.append((time.perf_counter() - opened) * 1000)
    return first, full


def main() -> None:
    started = time.perf_counter()
    DATA.mkdir(parents=True, exist_ok=True)
    build = time.perf_counter()
    large = make_repo(DATA / "large", LARGE_FILES, LARGE_COMMITS, 400)
    smalls = [make_repo(DATA / f"small{n}", SMALL_FILES, 40, 10 + n) for n in range(9)]
    build_seconds = time.perf_counter() - build
    runner = GitRunner(timeout=60)
    location = locate(str(large), runner)

    raw: List[float] = []
    status_only: List[float] = []
    snapshot: List[float] = []
    def raw_status() -> object:
        return subprocess.run(RAW_STATUS, cwd=str(large), capture_output=True, check=True)

    raw_status()  # warm-ups, not counted
    take_snapshot(str(large), runner)
    # Interleaved, so machine noise hits all three alike.
    for _ in range(RUNS):
        raw.append(once(raw_status))
        status_only.append(once(lambda: read_status(location, runner)))
        snapshot.append(once(lambda: take_snapshot(str(large), runner)))
    snap = take_snapshot(str(large), runner)
    assert snap.ok and snap.status.branch.ahead == 3, snap.detail

    workspaces = [("1", "large", str(large))] + [(str(n + 2), f"small{n}", str(p)) for n, p in enumerate(smalls)]
    cold = [once(lambda: OverviewReader(runner).read(workspaces)) for _ in range(OVERVIEW_RUNS)]
    warm_reader = OverviewReader(runner)
    warm = measure(lambda: warm_reader.read(workspaces), OVERVIEW_RUNS)
    small_only = [(w[0], w[1], w[2]) for w in workspaces[1:]] + [("10", "small0-again", str(smalls[0]))]
    cold_small = [once(lambda: OverviewReader(runner).read(small_only)) for _ in range(OVERVIEW_RUNS)]

    first_panel, full_panel = start_up(large)
    base = statistics.median(raw)
    version = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.split()[-1]
    print(f"git-status benchmark: {LARGE_FILES:,}-file repository, {LARGE_COMMITS} commits, "
          f"{snap.status.dirty_count} changed entries; git {version}, "
          f"Python {sys.version.split()[0]}; {RUNS} runs each, interleaved, 1 warm-up not counted; "
          f"repos built/reused in {build_seconds:.1f} s")
    print()
    print(f"{'read (20k files)':<58}{'median ms':>10}{'p95 ms':>9}{'min ms':>8}{'vs raw':>8}")
    for name, values in (
        ("raw: git --no-optional-locks status --porcelain=v2 -z", raw),
        ("plugin status read (safe runner + parse)", status_only),
        ("plugin full refresh (+locate, log -5, stash, operation)", snapshot),
    ):
        median = statistics.median(values)
        print(f"{name:<58}{median:>10.1f}{p95(values):>9.1f}{min(values):>8.1f}{median / base:>7.2f}x")
    print()
    print(f"{'overview of 10 workspaces':<58}{'median ms':>10}{'p95 ms':>9}{'runs':>8}")
    for name, values in (
        ("cold: 1 x 20k-file + 9 x 2k-file repos", cold),
        ("cold: 10 x 2k-file repos", cold_small),
        ("warm: metadata unchanged, cached rows", warm),
    ):
        print(f"{name:<58}{statistics.median(values):>10.1f}{p95(values):>9.1f}{len(values):>8}")
    print()
    print(f"{'plugin process, panel opened -> (5 fresh processes)':<58}{'median ms':>10}{'max ms':>9}")
    print(f"{'first panel (toolbar + spinner; GitPython not yet imported)':<58}"
          f"{statistics.median(first_panel):>10.1f}{max(first_panel):>9.1f}")
    print(f"{'full panel of the 20k-file repository':<58}{statistics.median(full_panel):>10.1f}{max(full_panel):>9.1f}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\n(target: full refresh <= 1.2x raw; load average {load:.1f} on {os.cpu_count()} CPUs; "
          f"total {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
