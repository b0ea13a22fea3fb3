"""git-status benchmark: the plugin's status read on a 20,000-file repository against raw `git status`, the
overview of 10 workspaces, all 10 worktrees of a 20,000-file repository against `git status` in each, and
reopening the panel against a Refresh. Generates its repositories under bench/.data/git_status/ (reused)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "plugins" / "git-status"))

from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World  # noqa: E402
from git_status.location import locate  # noqa: E402
from git_status.overview import OverviewReader  # noqa: E402
from git_status.runner import GitRunner  # noqa: E402
from git_status.snapshot import read_status, take_snapshot  # noqa: E402
from git_status.worktrees import WorktreeReader  # noqa: E402

DATA = HERE / ".data" / "git_status"
LARGE_FILES = 20_000
LARGE_COMMITS = 300
SMALL_FILES = 2_000
TINY_FILES = 100  # "a small repository" for the reopen rows
RUNS = 25
OVERVIEW_RUNS = 7
LINKED_WORKTREES = 9  # + the main one: 10 worktrees
WORKTREE_RUNS = 11
REOPEN_RUNS = 15
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


def make_worktrees(main: Path, count: int) -> List[Path]:
    """Linked worktrees of `main`, each on its own branch with two commits and a few uncommitted edits
    (one file shared by all: every worktree collides with every other)."""
    folder = DATA / "large-worktrees"
    paths = [folder / f"wt{n}" for n in range(count)]
    marker = folder / "bench-ready"
    if marker.exists() and all(p.is_dir() for p in paths):
        return paths
    subprocess.run(["rm", "-rf", str(folder)], check=True)
    git(main, "worktree", "prune")
    folder.mkdir(parents=True)
    for n, path in enumerate(paths):
        subprocess.run(["git", "branch", "-D", f"agent-{n}"], cwd=str(main), env=ENV, capture_output=True)
        git(main, "worktree", "add", "-q", "-b", f"agent-{n}", str(path), "main")
        for c in range(2):
            for k in range(3):
                target = path / "src" / f"d{(n + k) % 40:02}" / "s0" / "m0" / f"f{(n + k) % 40}.txt"
                target.write_text(f"agent {n} commit {c}\n")
            git(path, "commit", "-q", "-a", "-m", f"agent {n} step {c}")
        for k in range(5 + n):
            target = path / "src" / f"d{(7 * n + k) % 40:02}" / "s1" / "m1" / f"f{400 + (7 * n + k) % 40}.txt"
            target.write_text("wip\n")
        (path / "README-agent.txt").write_text(f"agent {n}\n")
    for path in paths:
        settle_index(path) if path is paths[-1] else git(path, "status")
    marker.write_text("ok\n")
    return paths


def reopen_and_refresh(repo: Path, runs: int, wait_ms: Optional[str]) -> Tuple[List[float], List[float]]:
    """(reopen, refresh) ms from the host's message to the first panel showing a file made just before it."""
    world = World(workspaces=[WorkspaceSpec(id=1, name="small", cwd=str(repo),
                                            panes=[PaneSpec(id=11, kind="claude", cwd=str(repo))])], focused_pane=11)
    reopen: List[float] = []
    refresh: List[float] = []
    env = {"GIT_STATUS_REOPEN_WAIT_MS": wait_ms} if wait_ms else {}
    with PluginHost(str(HERE.parent / "plugins" / "git-status"), world=world, env=env) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: PluginHost.find(t, "commits.recent") is not None, timeout=30)
        for n in range(runs + 1):  # the first round warms up, not counted
            for kind, times in (("reopen", reopen), ("refresh", refresh)):
                host.wait_idle(quiet=0.25)  # the pacing slot is free again, as when a person clicks
                name = f"bench-{kind}-{n}.txt"
                (repo / name).write_text("x\n")
                before = len(host.panels)
                if kind == "reopen":
                    host.close_panel()
                    started = time.monotonic()
                    host.open_panel()
                else:
                    started = time.monotonic()
                    host.click("toolbar.refresh")
                host.wait_for_panel(lambda t, name=name: name in json_texts(t), timeout=30, after=before)
                index = next(i for i in range(before, len(host.panels)) if name in json_texts(host.panels[i]))
                if n:
                    times.append((host.panel_times[index] - started) * 1000)
                (repo / name).unlink()
    return reopen, refresh


def json_texts(tree: object) -> str:
    return " ".join(PluginHost.texts(tree))


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
    """Panel open -> first panel (a spinner, before the readers are imported) and -> first full status."""
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

    worktree_paths = make_worktrees(large, LINKED_WORKTREES)
    all_worktrees = [large, *worktree_paths]

    def raw_each() -> None:
        for path in all_worktrees:
            subprocess.run(RAW_STATUS, cwd=str(path), capture_output=True, check=True)

    def raw_parallel() -> None:
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(lambda p: subprocess.run(RAW_STATUS, cwd=str(p), capture_output=True, check=True),
                          all_worktrees))

    warm_worktrees = WorktreeReader(runner)
    report = warm_worktrees.read(location)
    assert len(report.worktrees) == 10 and all(w.state == "ok" for w in report.worktrees), report
    assert report.collision_count > 0
    raw_wt: List[float] = []
    raw_wt_parallel: List[float] = []
    cold_wt: List[float] = []
    warm_wt: List[float] = []
    raw_each()
    for _ in range(WORKTREE_RUNS):  # interleaved again
        raw_wt.append(once(raw_each))
        raw_wt_parallel.append(once(raw_parallel))
        cold_wt.append(once(lambda: WorktreeReader(runner).read(location)))
        warm_wt.append(once(lambda: warm_worktrees.read(location)))

    tiny = make_repo(DATA / "tiny", TINY_FILES, 10, 3)
    reopen_new, refresh_new = reopen_and_refresh(tiny, REOPEN_RUNS, None)
    reopen_old, refresh_old = reopen_and_refresh(tiny, REOPEN_RUNS, "0.001")  # drawn at once, as before

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
    wt_base = statistics.median(raw_wt)
    print(f"{'all 10 worktrees of the 20k-file repository':<58}{'median ms':>10}{'p95 ms':>9}{'min ms':>8}"
          f"{'vs raw':>8}")
    for name, values in (
        ("raw: git status --porcelain=v2 in each, one after another", raw_wt),
        ("raw: the same, 4 at a time", raw_wt_parallel),
        ("plugin worktrees read (+list, base, ahead/behind, merge-base diff)", cold_wt),
        ("plugin worktrees read, branch comparisons cached", warm_wt),
    ):
        median = statistics.median(values)
        print(f"{name[:57]:<58}{median:>10.1f}{p95(values):>9.1f}{min(values):>8.1f}{median / wt_base:>7.2f}x")
    print(f"({WORKTREE_RUNS} runs each, interleaved; {report.collision_count} files flagged as collisions)")
    print()
    print(f"{'100-file repository, host message -> fresh panel':<58}{'median ms':>10}{'p95 ms':>9}{'runs':>8}")
    for name, values in (
        ("Refresh clicked", refresh_new),
        ("panel reopened (waits 40 ms for the fresh status)", reopen_new),
        ("panel reopened, old way (previous panel drawn at once)", reopen_old),
        ("Refresh clicked (same process as the old-way row)", refresh_old),
    ):
        print(f"{name:<58}{statistics.median(values):>10.1f}{p95(values):>9.1f}{len(values):>8}")
    print()
    print(f"{'plugin process, panel opened -> (5 fresh processes)':<58}{'median ms':>10}{'max ms':>9}")
    print(f"{'first panel (toolbar + spinner; readers not yet imported)':<58}"
          f"{statistics.median(first_panel):>10.1f}{max(first_panel):>9.1f}")
    print(f"{'full panel of the 20k-file repository':<58}{statistics.median(full_panel):>10.1f}{max(full_panel):>9.1f}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print("\n(targets: full refresh <= 1.2x raw; 10 worktrees <= 1.3x raw one after another; reopen ~ Refresh;")
    print(f" load average {load:.1f} on {os.cpu_count()} CPUs; "
          f"total {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
