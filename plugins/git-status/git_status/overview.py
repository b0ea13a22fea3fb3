"""The workspaces overview: branch, changed-file count and ahead/behind for every open workspace's repo."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from .fingerprint import Fingerprint, fingerprint
from .location import LocateProblem, RepoLocation, locate_cached
from .porcelain import BranchInfo, PorcelainError
from .repo_config import UnsafeRepositoryConfig
from .runner import GitError, GitRunner
from .snapshot import read_status

# Lighter than the panel's status: submodules are not opened (no git process per submodule).
OVERVIEW_STATUS_ARGS = ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal",
                        "--ignore-submodules=dirty"]
# A cached row is reused while the repository's metadata is unchanged and it is this fresh.
CACHE_SECONDS = 20.0


@dataclass(frozen=True)
class WorkspaceRow:
    workspace_id: str
    name: str
    folder: Optional[str]
    state: str  # ok or one of the snapshot problem states
    root: Optional[str] = None
    branch: Optional[BranchInfo] = None
    dirty: int = 0
    conflicted: int = 0
    detail: str = ""


class OverviewReader:
    """Reads rows in parallel (a few threads: git is I/O-bound) with a per-repository cache."""

    def __init__(self, runner: GitRunner, workers: int = 4) -> None:
        self.runner = runner
        self.workers = workers
        self._cache: Dict[str, Tuple[Fingerprint, float, WorkspaceRow]] = {}
        self._lock = threading.Lock()

    def _row(self, workspace_id: str, name: str, folder: Optional[str]) -> WorkspaceRow:
        if not folder:
            return WorkspaceRow(workspace_id, name, folder, "no-folder")
        location: Optional[RepoLocation] = None
        try:
            location = locate_cached(folder, self.runner)
            stamp = fingerprint(location)
            with self._lock:
                cached = self._cache.get(location.root)
            if cached and cached[0] == stamp and time.monotonic() - cached[1] < CACHE_SECONDS:
                return WorkspaceRow(workspace_id, name, folder, **_shared(cached[2]))
            report = read_status(location, self.runner, OVERVIEW_STATUS_ARGS)
            row = WorkspaceRow(workspace_id, name, folder, "ok", location.root, report.branch,
                               report.dirty_count, len(report.conflicted))
            with self._lock:
                self._cache[location.root] = (stamp, time.monotonic(), row)
            return row
        except LocateProblem as problem:
            return WorkspaceRow(workspace_id, name, folder, problem.state, detail=problem.detail)
        except UnsafeRepositoryConfig as refused:
            return WorkspaceRow(workspace_id, name, folder, "unsafe", detail=str(refused))
        except GitError as failure:
            return WorkspaceRow(workspace_id, name, folder, failure.kind if failure.kind != "failed" else "error",
                                location.root if location else None, detail=str(failure))
        except PorcelainError as garbled:
            return WorkspaceRow(workspace_id, name, folder, "error", detail=str(garbled))

    def read(self, workspaces: Sequence[Tuple[str, str, Optional[str]]]) -> List[WorkspaceRow]:
        """`workspaces` is (id, name, cwd) in display order; the rows keep that order."""
        if not workspaces:
            return []
        with ThreadPoolExecutor(max_workers=max(1, min(self.workers, len(workspaces)))) as pool:
            return list(pool.map(lambda entry: self._row(*entry), workspaces))


def _shared(row: WorkspaceRow) -> dict:  # type: ignore[type-arg]
    return {"state": row.state, "root": row.root, "branch": row.branch, "dirty": row.dirty,
            "conflicted": row.conflicted, "detail": row.detail}
