"""One refresh of a folder's repository: every fact the panel shows, or a clear state saying why not."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import List, Optional

from .history import Commit, recent_commits, stash_count
from .location import LocateProblem, RepoLocation, classify_failure, locate_cached
from .operation import Operation, detect_operation
from .porcelain import PorcelainError, StatusReport, parse_status
from .repo_config import UnsafeRepositoryConfig
from .runner import GitError, GitFailed, GitRunner

# States a snapshot can be in; the panel has a message for each.
STATES = ("ok", "no-folder", "gone", "not-repo", "bare", "unsafe", "no-git", "timeout", "error")

STATUS_ARGS = ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal", "--renames"]


@dataclass
class RepoSnapshot:
    state: str
    folder: Optional[str]
    location: Optional[RepoLocation] = None
    status: StatusReport = field(default_factory=StatusReport)
    operation: Optional[Operation] = None
    stashes: int = 0
    commits: List[Commit] = field(default_factory=list)
    detail: str = ""  # git's own message for error states
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.state == "ok"

    @property
    def empty_repository(self) -> bool:
        return self.ok and self.status.branch.unborn


def read_status(location: RepoLocation, runner: GitRunner, args: Optional[List[str]] = None) -> StatusReport:
    result = runner.run(location.root, args or STATUS_ARGS)
    return parse_status(result.stdout)


def take_snapshot(folder: Optional[str], runner: GitRunner, commit_count: int = 5) -> RepoSnapshot:
    """Never raises for repository problems: each one becomes a state with git's message as detail."""
    started = time.monotonic()
    if not folder:
        return RepoSnapshot("no-folder", folder)
    snapshot = RepoSnapshot("ok", folder)
    try:
        location = locate_cached(folder, runner)
        snapshot.location = location
        commits: List[Commit] = []

        def read_commits() -> None:
            # Runs beside the status call; fails harmlessly before the first commit.
            try:
                commits.extend(recent_commits(location, runner, commit_count))
            except GitError:
                pass

        reader = threading.Thread(target=read_commits, daemon=True) if commit_count > 0 else None
        if reader is not None:
            reader.start()
        try:
            snapshot.status = read_status(location, runner)
        finally:
            if reader is not None:
                reader.join()
        snapshot.commits = commits
        snapshot.operation = detect_operation(location.git_dir)
        snapshot.stashes = stash_count(location)
    except LocateProblem as problem:
        snapshot.state, snapshot.detail = problem.state, problem.detail
    except UnsafeRepositoryConfig as refused:
        snapshot.state, snapshot.detail = "unsafe", str(refused)
    except GitFailed as failure:
        snapshot.state = classify_failure(failure.stderr or str(failure))
        if snapshot.state == "not-repo" or not os.path.isdir(folder):
            # The repository (or its folder) vanished between two calls.
            snapshot.state = "gone" if not os.path.isdir(folder) else "not-repo"
        snapshot.detail = str(failure)
    except GitError as failure:
        snapshot.state, snapshot.detail = failure.kind, str(failure)
    except PorcelainError as garbled:
        snapshot.state, snapshot.detail = "error", str(garbled)
    snapshot.seconds = time.monotonic() - started
    return snapshot
