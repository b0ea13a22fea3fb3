"""Small read-only git queries (branch, upstream, tags, dirty files); they never raise on git failures."""
from __future__ import annotations

import dataclasses
import os
import subprocess
from typing import Dict, List, Optional, Tuple

GIT_TIMEOUT_SECONDS = 20.0


@dataclasses.dataclass(frozen=True)
class GitResult:
    code: int
    out: str
    err: str

    @property
    def ok(self) -> bool:
        return self.code == 0


def git_env(base: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """The environment for git calls the plugin makes itself."""
    env = dict(os.environ if base is None else base)
    # Never wait for a password on a pipe nobody reads; never take index.lock just to look.
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GIT_OPTIONAL_LOCKS"] = "0"
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")  # an ssh passphrase prompt would hang as well
    # English, stable messages: we show git's own words but match none of them.
    env["LC_ALL"] = "C"
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env


def run_git(repo: str, *args: str, timeout: float = GIT_TIMEOUT_SECONDS) -> GitResult:
    """Run `git -C repo args...`; a missing git, a timeout or a bad folder become a failed GitResult."""
    try:
        done = subprocess.run(
            ["git", "-C", repo, *args], stdin=subprocess.DEVNULL, capture_output=True,
            timeout=timeout, env=git_env(),
        )
    except FileNotFoundError:
        return GitResult(127, "", "git was not found on PATH")
    except subprocess.TimeoutExpired:
        return GitResult(124, "", f"git {' '.join(args)} took longer than {timeout:g} s")
    except OSError as error:
        return GitResult(126, "", str(error))
    return GitResult(done.returncode, done.stdout.decode("utf-8", "replace"),
                     done.stderr.decode("utf-8", "replace").strip())


def repo_root(path: str) -> Optional[str]:
    """The top folder of the git work tree containing path, or None."""
    if not path or not os.path.isdir(path):
        return None
    result = run_git(path, "rev-parse", "--show-toplevel")
    if not result.ok or not result.out.strip():
        return None
    return os.path.normpath(result.out.strip())


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
