"""Small read-only git queries (branch, upstream, tags, dirty files); they never raise on git failures."""
from __future__ import annotations

import dataclasses
import os
from typing import List, Optional, Tuple

from agentty_plugin.git import shared_git

GIT_TIMEOUT_SECONDS = 20.0


@dataclasses.dataclass(frozen=True)
class GitResult:
    code: int
    out: str
    err: str  # git's first telling line when it failed (not its last, which is often a hint)
    state: str = "ok"  # agentty_plugin.git's state: ok, failed, refused, not-repo, timeout, no-git, …

    @property
    def ok(self) -> bool:
        return self.code == 0


# Calls that talk to a remote: they may use the user's own credential helper and ssh set-up (never
# the repository's), so they run with the network on; every other call runs with it off.
NETWORK_COMMANDS = frozenset({"fetch", "ls-remote"})


def run_git(repo: str, *args: str, timeout: float = GIT_TIMEOUT_SECONDS) -> GitResult:
    """Run `git -C repo args...` through the runtime's safe runner; every failure is a failed GitResult.

    The repository is data, never code: no program its config names (an fsmonitor, a filter, a
    pager, hooks, an ssh command) runs because the panel opened or a check looked (`agentty_plugin.git`).
    """
    result = shared_git().run(repo, list(args), timeout=timeout, network=bool(args) and args[0] in NETWORK_COMMANDS)
    if result.state == "timeout":
        err = f"git {' '.join(args[:2])} took longer than {timeout:g} s"
    elif result.state in ("failed", "refused", "not-repo"):
        err = result.first_error_line
    else:
        err = result.stderr.strip()
    # git's own exit status where git ran to the end; the shell's numbers for the same cases otherwise.
    code = result.status if result.status is not None and result.state in _GIT_ANSWERED else _CODES[result.state]
    return GitResult(code, result.text, err, result.state)


_GIT_ANSWERED = frozenset({"ok", "failed", "refused", "not-repo"})
_CODES = {"ok": 0, "failed": 1, "refused": 128, "not-repo": 128, "timeout": 124, "cancelled": 130, "no-git": 127,
          "gone": 126, "unsafe-config": 126}


def locate(path: str) -> Tuple[Optional[str], str]:
    """(work-tree root, "ok") or (None, why): not-repo, refused (git will not read a repository owned
    by another user: safe.directory), gone, no-git, unsafe-config or failed."""
    if not path or not os.path.isdir(path):
        return None, "gone"
    result = run_git(path, "rev-parse", "--show-toplevel")
    if not result.ok or not result.out.strip():
        return None, result.state if result.state != "ok" else "not-repo"
    return os.path.normpath(result.out.strip()), "ok"


def repo_root(path: str) -> Optional[str]:
    """The top folder of the git work tree containing path, or None."""
    return locate(path)[0]


def current_branch(repo: str) -> Optional[str]:
    """The checked-out branch, or None when HEAD is detached (or the repo is unreadable)."""
    result = run_git(repo, "symbolic-ref", "--quiet", "--short", "HEAD")
    return result.out.strip() or None if result.ok else None


def head_commit(repo: str) -> Optional[str]:
    result = run_git(repo, "rev-parse", "--short", "HEAD")
    return result.out.strip() or None if result.ok else None


def upstream(repo: str) -> Optional[str]:
    """The upstream of the current branch, e.g. "origin/main", or None."""
    result = run_git(repo, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}")
    return result.out.strip() or None if result.ok else None


def upstream_remote(repo: str) -> Optional[str]:
    branch = current_branch(repo)
    if not branch:
        return None
    result = run_git(repo, "config", "--get", f"branch.{branch}.remote")
    remote = result.out.strip()
    return remote if result.ok and remote and remote != "." else None


def remotes(repo: str) -> List[str]:
    result = run_git(repo, "remote")
    return result.out.split() if result.ok else []


def ahead_behind(repo: str, upstream_ref: str) -> Optional[Tuple[int, int]]:
    """(commits only here, commits only upstream), or None."""
    result = run_git(repo, "rev-list", "--left-right", "--count", f"HEAD...{upstream_ref}")
    parts = result.out.split()
    if not result.ok or len(parts) != 2:
        return None
    return int(parts[0]), int(parts[1])


def tags(repo: str) -> List[str]:
    """Every tag name, newest first by creation date."""
    result = run_git(repo, "tag", "--list", "--sort=-creatordate")
    return [line.strip() for line in result.out.splitlines() if line.strip()] if result.ok else []


def release_tags(repo: str) -> List[str]:
    """The tags reachable from HEAD, newest first: those of other branches (a dev marker on main seen
    from a maintenance branch, the next major's pre-releases) are not this line's releases."""
    result = run_git(repo, "tag", "--list", "--merged", "HEAD", "--sort=-creatordate")
    return [line.strip() for line in result.out.splitlines() if line.strip()] if result.ok else []


def tag_exists(repo: str, tag: str) -> bool:
    return run_git(repo, "rev-parse", "--quiet", "--verify", f"refs/tags/{tag}").ok


def dirty_paths(repo: str) -> Optional[List[str]]:
    """Changed and untracked paths, or None if git could not tell."""
    result = run_git(repo, "status", "--porcelain=v1", "-z", "--untracked-files=normal")
    if not result.ok:
        return None
    entries = result.out.split("\0")
    paths: List[str] = []
    skip_next = False
    for entry in entries:
        if skip_next:  # the source path of a rename comes right after it
            skip_next = False
            continue
        if len(entry) > 3:
            paths.append(entry[3:])
            skip_next = entry[0] in "RC"
    return paths


def default_branch(repo: str) -> Optional[str]:
    """The branch releases are cut from: the remote's default, else main or master if present."""
    for remote in ["origin", *[name for name in remotes(repo) if name != "origin"]]:
        result = run_git(repo, "symbolic-ref", "--quiet", "--short", f"refs/remotes/{remote}/HEAD")
        if result.ok and "/" in result.out.strip():
            return result.out.strip().split("/", 1)[1]
    for name in ("main", "master", "trunk", "develop"):
        if run_git(repo, "rev-parse", "--quiet", "--verify", f"refs/heads/{name}").ok:
            return name
    return None
