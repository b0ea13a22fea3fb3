"""Finds the repository that contains a folder (work-tree root, git dir, linked worktree, submodule)."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from agentty_plugin.git import classify_stderr

from .runner import GitFailed, GitRunner


@dataclass(frozen=True)
class RepoLocation:
    folder: str  # the folder we were asked about
    root: str  # work-tree root
    git_dir: str  # per-worktree git dir (HEAD, index, MERGE_HEAD live here)
    common_dir: str  # shared git dir (refs, config, stash); differs from git_dir in a linked worktree
    superproject: Optional[str] = None  # set when `root` is a submodule's work tree

    @property
    def is_linked_worktree(self) -> bool:
        return os.path.normcase(self.git_dir) != os.path.normcase(self.common_dir)

    @property
    def name(self) -> str:
        return os.path.basename(self.root.rstrip(os.sep)) or self.root


class LocateProblem(Exception):
    """Why a folder has no readable work tree: state is not-repo, bare, unsafe, gone or error."""

    def __init__(self, state: str, detail: str = "") -> None:
        super().__init__(detail or state)
        self.state = state
        self.detail = detail


def classify_failure(stderr: str) -> str:
    """Maps git's (C-locale) error text to a panel state: the runtime's refusal and not-repo, and ours."""
    state = classify_stderr(stderr)
    if state == "refused":
        return "unsafe"
    if state == "not-repo":
        return "not-repo"
    lowered = stderr.lower()
    if "must be run in a work tree" in lowered:
        return "bare"
    if "folder not found" in lowered or "cannot change to" in lowered:
        return "gone"
    return "error"


def locate(folder: str, runner: GitRunner) -> RepoLocation:
    """Asks git itself (its discovery rules, ceilings and safe.directory) where the work tree is."""
    if not folder or not os.path.isdir(folder):
        raise LocateProblem("gone", folder)
    args = [
        "rev-parse",
        "--is-bare-repository",
        "--is-inside-git-dir",
        "--absolute-git-dir",
        "--git-common-dir",
        "--show-superproject-working-tree",
        "--show-toplevel",
    ]
    try:
        result = runner.run(folder, args, ok_statuses=(0, 128), timeout=min(5.0, runner.timeout))
    except GitFailed as failure:
        raise LocateProblem(classify_failure(failure.stderr or str(failure)), str(failure)) from failure
    lines = result.text.splitlines()
    if len(lines) < 4:
        # git stopped before printing the git dir: not a repository, or refused as unsafe.
        raise LocateProblem(classify_failure(result.stderr), result.stderr.strip())
    is_bare, inside_git_dir, git_dir, common_dir = lines[0], lines[1], lines[2], lines[3]
    if is_bare == "true":
        raise LocateProblem("bare", git_dir)
    common_dir = os.path.normpath(os.path.join(folder, common_dir))
    if inside_git_dir == "true":
        # The pane sits inside .git itself: show the work tree that owns it (usual layout only).
        if os.path.basename(git_dir) == ".git":
            return RepoLocation(folder, os.path.dirname(git_dir), git_dir, common_dir)
        raise LocateProblem("bare", git_dir)
    rest = lines[4:]
    if result.status != 0 or not rest:
        raise LocateProblem(classify_failure(result.stderr), result.stderr.strip())
    root = rest[-1]
    superproject = rest[0] if len(rest) == 2 else None
    return RepoLocation(folder, root, git_dir, common_dir, superproject)


# Where a folder's repository is rarely changes, so a refresh need not ask git again each time.
# A cached answer is used only while its work tree and git dir still exist, and for a short time,
# so a moved or re-created repository is found again quickly.
LOCATE_CACHE_SECONDS = 30.0
_cache: Dict[str, Tuple[float, RepoLocation]] = {}
_cache_lock = threading.Lock()


def locate_cached(folder: str, runner: GitRunner) -> RepoLocation:
    with _cache_lock:
        entry = _cache.get(folder)
    if entry is not None:
        stamp, location = entry
        still_there = os.path.isdir(location.root) and os.path.isfile(os.path.join(location.git_dir, "HEAD"))
        if still_there and time.monotonic() - stamp < LOCATE_CACHE_SECONDS and os.path.isdir(folder):
            return location
    location = locate(folder, runner)
    with _cache_lock:
        if len(_cache) > 256:
            _cache.clear()
        _cache[folder] = (time.monotonic(), location)
    return location
