"""Size-capped diffs with a stat summary, for handing a change to an agent."""

from __future__ import annotations

import os
import stat as stat_module
from dataclasses import dataclass, field
from typing import List, Optional, Sequence

from .history import Commit, is_commit_id, parse_log
from .location import RepoLocation
from .porcelain import BranchInfo, FileChange
from .runner import GitFailed, GitRunner

DIFF_LIMIT_BYTES = 32_000
STAT_LIMIT_BYTES = 6_000
# Programs a repository could attach to diffs are refused on the command line as well as in
# the forced config: external diff drivers and textconv filters.
# --no-color everywhere: a repository's `color.diff=always` would otherwise put escape codes in prompts.
_STAT = ["--stat=100", "--stat-count=60", "--no-color"]
_PATCH = ["--no-ext-diff", "--no-textconv", "--no-color", "--find-renames", "--submodule=short", "--patch"]


@dataclass
class DiffText:
    text: str = ""
    stat: str = ""
    truncated: bool = False
    shown_bytes: int = 0
    total_bytes: int = 0

    @property
    def empty(self) -> bool:
        return not self.text.strip() and not self.stat.strip()


@dataclass
class BranchComparison:
    base: str
    head: str
    commits: List[Commit] = field(default_factory=list)
    diff: DiffText = field(default_factory=DiffText)


def _cut_at_line(data: bytes) -> bytes:
    """Ends a truncated diff at a line boundary so the agent never sees half a line."""
    newline = data.rfind(b"\n")
    return data[: newline + 1] if newline > 0 else data


def _run_capped(location: RepoLocation, runner: GitRunner, args: List[str], limit: int) -> DiffText:
    result = runner.run(location.root, args, max_bytes=limit)
    body = _cut_at_line(result.stdout) if result.truncated else result.stdout
    return DiffText(body.decode("utf-8", "replace"), "", result.truncated, len(body), result.total_bytes)


def _diff(location: RepoLocation, runner: GitRunner, revisions: List[str], paths: List[str],
          limit: int) -> DiffText:
    tail = ["--", *paths] if paths else ["--"]
    stat = _run_capped(location, runner, ["diff", *_STAT, "--no-ext-diff", "--no-textconv", *revisions, *tail],
                       STAT_LIMIT_BYTES)
    patch = _run_capped(location, runner, ["diff", *_PATCH, *revisions, *tail], limit)
    patch.stat = stat.text
    return patch


def _untracked_file(location: RepoLocation, change: FileChange, limit: int) -> DiffText:
    """An untracked file has no diff: show its content as new, but never follow a symlink out of
    the repository (an untrusted repo could point one at ~/.ssh) and never read special files."""
    path = os.path.join(location.root, change.path)
    try:
        info = os.lstat(path)
    except OSError:
        return DiffText(stat=f"{change.display} (gone)")
    if stat_module.S_ISLNK(info.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return DiffText(text=f"new symlink {change.display} -> {target}\n", stat=f"{change.display} (symlink)")
    if stat_module.S_ISDIR(info.st_mode):
        listing = sorted(os.listdir(path))[:200]
        text = "".join(f"new file in folder: {change.display}{name}\n" for name in listing)
        return DiffText(text=text, stat=f"{change.display} ({len(listing)} entries)")
    if not stat_module.S_ISREG(info.st_mode):
        return DiffText(stat=f"{change.display} (not a regular file)")
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        return DiffText(stat=f"{change.display} (unreadable: {error.strerror})")
    if b"\0" in data[:8000]:
        return DiffText(stat=f"{change.display} (new binary file, {info.st_size} bytes)")
    truncated = info.st_size > limit
    body = _cut_at_line(data[:limit]) if truncated else data
    lines = body.decode("utf-8", "replace").splitlines()
    text = f"--- /dev/null\n+++ b/{change.display}\n" + "".join(f"+{line}\n" for line in lines)
    return DiffText(text, f"{change.display} (new file, {info.st_size} bytes)", truncated, len(body), info.st_size)


def file_diff(location: RepoLocation, runner: GitRunner, change: FileChange, limit: int = DIFF_LIMIT_BYTES) -> DiffText:
    """Everything that changed in one file: staged and unstaged (against HEAD), or a conflict."""
    if change.kind == "untracked":
        return _untracked_file(location, change, limit)
    paths = [change.path] + ([change.orig_path] if change.orig_path else [])
    if change.kind == "unmerged":
        return _diff(location, runner, [], paths, limit)  # combined diff with conflict markers
    try:
        return _diff(location, runner, ["HEAD"], paths, limit)
    except GitFailed:
        # No commit yet: everything is new, show the staged content.
        return _diff(location, runner, ["--cached"], paths, limit)


UNTRACKED_SHOWN = 5  # new files whose content goes into a worktree review (the rest are named)


def worktree_diff(location: RepoLocation, runner: GitRunner, merge_base: str, untracked: Sequence[str] = (),
                  limit: int = DIFF_LIMIT_BYTES) -> DiffText:
    """The work tree against a commit (its merge base): committed, staged and unstaged changes together,
    then new files (git diff leaves them out): the first few with their content, within the same cap."""
    if not is_commit_id(merge_base):
        raise ValueError(f"not a commit id: {merge_base!r}")
    diff = _diff(location, runner, [merge_base], [], limit)
    room = limit - diff.shown_bytes
    for number, path in enumerate(untracked):
        if number >= UNTRACKED_SHOWN or room <= 0 or path.endswith("/"):
            diff.stat += f"{path} (new, not tracked)\n"
            continue
        change = FileChange(path, os.fsencode(path).decode("utf-8", "replace"), "untracked", "?", "?")
        new = _untracked_file(location, change, room)
        diff.stat += new.stat + "\n"
        diff.text += new.text
        diff.truncated = diff.truncated or new.truncated
        room -= len(new.text.encode("utf-8", "replace"))
    return diff


def staged_diff(location: RepoLocation, runner: GitRunner, limit: int = DIFF_LIMIT_BYTES) -> DiffText:
    return _diff(location, runner, ["--cached"], [], limit)


def _verified(location: RepoLocation, runner: GitRunner, ref: str) -> Optional[str]:
    args = ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"]
    result = runner.run(location.root, args, ok_statuses=(0, 1, 128))
    value = result.text.strip()
    return value if result.status == 0 and is_commit_id(value) else None


def _origin_head(location: RepoLocation) -> Optional[str]:
    try:
        with open(os.path.join(location.common_dir, "refs", "remotes", "origin", "HEAD"), encoding="utf-8") as handle:
            content = handle.read(512).strip()
    except OSError:
        return None
    return content[len("ref: "):] if content.startswith("ref: refs/") else None


def comparison_base(location: RepoLocation, runner: GitRunner, branch: BranchInfo) -> Optional[str]:
    """Upstream first, then origin's default branch, then a local main/master other than HEAD."""
    candidates: List[str] = []
    if branch.upstream and not branch.upstream_gone:
        candidates.append(branch.upstream)
    origin_head = _origin_head(location)
    if origin_head:
        candidates.append(origin_head)
    candidates += ["refs/remotes/origin/main", "refs/remotes/origin/master", "refs/heads/main", "refs/heads/master"]
    head_sha = branch.oid
    for ref in candidates:
        if ref.startswith("-"):
            continue  # a ref name from a hostile packed-refs must never become an option
        if branch.head and ref in (branch.head, f"refs/heads/{branch.head}"):
            continue
        sha = _verified(location, runner, ref)
        if sha and sha != head_sha:
            return ref[len("refs/heads/"):] if ref.startswith("refs/heads/") else ref.replace("refs/remotes/", "", 1)
    return None


def branch_comparison(location: RepoLocation, runner: GitRunner, branch: BranchInfo,
                      limit: int = DIFF_LIMIT_BYTES) -> Optional[BranchComparison]:
    """What HEAD adds on top of its base (`base...HEAD`, i.e. since the merge base)."""
    if branch.unborn:
        return None
    base = comparison_base(location, runner, branch)
    if base is None:
        return None
    log = runner.run(location.root, ["log", "-z", "--max-count=50", "--no-show-signature",
                                     "--format=%H%x1f%h%x1f%ct%x1f%an%x1f%s", f"{base}..HEAD", "--"])
    diff = _diff(location, runner, [f"{base}...HEAD"], [], limit)
    return BranchComparison(base, branch.head or (branch.oid or "")[:12], parse_log(log.stdout), diff)


def commit_details(location: RepoLocation, runner: GitRunner, sha: str, limit: int = DIFF_LIMIT_BYTES) -> DiffText:
    """Message, stat and patch of one commit (sha checked to be hex first: never an option)."""
    if not is_commit_id(sha):
        raise ValueError(f"not a commit id: {sha!r}")
    header = _run_capped(location, runner, ["show", "--no-show-signature", "--no-color", "--no-patch",
                                            "--format=fuller", "--end-of-options", sha, "--"], STAT_LIMIT_BYTES)
    stat = _run_capped(location, runner, ["show", "--format=", *_STAT, "--no-ext-diff", "--no-textconv",
                                          "--end-of-options", sha, "--"], STAT_LIMIT_BYTES)
    patch = _run_capped(location, runner, ["show", "--format=", *_PATCH, "--end-of-options", sha, "--"], limit)
    patch.stat = header.text.rstrip("\n") + "\n\n" + stat.text
    return patch
