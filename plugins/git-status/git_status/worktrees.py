"""Every worktree of a repository (`git worktree list`): branch, ahead/behind, dirty count, changed paths."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Tuple

from agentty_plugin.context import AGENT_KINDS

from .diffs import _origin_head, _verified
from .location import RepoLocation
from .operation import Operation, detect_operation
from .porcelain import BranchInfo, PorcelainError, StatusReport
from .repo_config import UnsafeRepositoryConfig
from .runner import GitError, GitFailed, GitRunner
from .snapshot import read_status

# Worktrees read at once: git is I/O-bound, and more processes only fight over the disk.
WORKERS = 4
# Worktrees whose status is read; beyond this they are listed but not read (the panel says so).
MAX_READ = 40
_BASE_CANDIDATES = ("refs/remotes/origin/main", "refs/remotes/origin/master", "refs/heads/main", "refs/heads/master")


@dataclass(frozen=True)
class WorktreeEntry:
    """One record of `git worktree list --porcelain`."""

    path: str
    head: Optional[str] = None  # commit id; None for a bare entry or before the first commit
    branch: Optional[str] = None  # short name; None when detached or bare
    bare: bool = False
    detached: bool = False
    locked: Optional[str] = None  # the lock reason ("" without one); None when not locked
    prunable: Optional[str] = None  # git's reason; None when git does not call it prunable
    is_main: bool = False


def parse_worktree_list(output: bytes, nul: bool = True) -> List[WorktreeEntry]:
    """Parses `--porcelain -z` records (or the newline form of older git, where paths cannot hold newlines)."""
    separator = b"\0" if nul else b"\n"
    entries: List[WorktreeEntry] = []
    fields: Dict[str, Optional[str]] = {}

    def flush() -> None:
        if fields.get("worktree"):
            branch = fields.get("branch")
            if branch and branch.startswith("refs/heads/"):
                branch = branch[len("refs/heads/"):]
            entries.append(WorktreeEntry(
                path=fields["worktree"] or "", head=fields.get("HEAD"), branch=branch,
                bare="bare" in fields, detached="detached" in fields, locked=fields.get("locked"),
                prunable=fields.get("prunable"), is_main=not entries))
        fields.clear()

    for raw in output.split(separator):
        if not raw:
            flush()
            continue
        line = os.fsdecode(raw)
        key, _, value = line.partition(" ")
        if key == "worktree":
            flush()
        if key in ("worktree", "HEAD", "branch"):
            fields[key] = value
        elif key in ("bare", "detached", "locked", "prunable"):
            fields[key] = value  # "" when git gives no reason
    flush()
    return entries


@dataclass
class PaneTag:
    """An Agentty pane working in a worktree."""

    pane_id: object
    kind: str  # claude | codex | shell
    status: str

    @property
    def is_agent(self) -> bool:
        return self.kind in AGENT_KINDS


@dataclass
class WorktreeState:
    entry: WorktreeEntry
    state: str  # ok | missing | bare | foreign | not-read | unsafe | timeout | error
    location: Optional[RepoLocation] = None
    branch: Optional[BranchInfo] = None
    dirty: int = 0
    conflicted: int = 0
    base_ahead: Optional[int] = None  # commits on this worktree's HEAD not on the base branch
    base_behind: Optional[int] = None
    operation: Optional[Operation] = None
    uncommitted: FrozenSet[str] = frozenset()
    untracked: FrozenSet[str] = frozenset()  # the new files among `uncommitted`
    committed: FrozenSet[str] = frozenset()  # changed on the branch since its merge base with the base branch
    committed_blobs: Dict[str, str] = field(default_factory=dict)  # path -> blob id at HEAD ("0"*40: deleted)
    detail: str = ""
    panes: List[PaneTag] = field(default_factory=list)
    collisions: Dict[str, List[str]] = field(default_factory=dict)  # path -> names of the other worktrees

    @property
    def path(self) -> str:
        return self.entry.path

    @property
    def name(self) -> str:
        """What the panel calls it: its branch (the one being rebased, mid-rebase), else its folder's name."""
        if self.entry.branch:
            return self.entry.branch
        if self.operation is not None and self.operation.onto:
            return self.operation.onto
        return os.path.basename(self.entry.path.rstrip(os.sep)) or self.entry.path

    @property
    def changed_paths(self) -> FrozenSet[str]:
        return self.uncommitted | self.committed


@dataclass
class WorktreeReport:
    state: str = "ok"  # ok | error
    worktrees: List[WorktreeState] = field(default_factory=list)
    base: Optional[str] = None  # the base branch's short name
    detail: str = ""

    @property
    def collision_count(self) -> int:
        """Files changed in two or more worktrees (each file once)."""
        return len({p for w in self.worktrees for p in w.collisions})

    def worktree_for(self, folder: Optional[str]) -> Optional[WorktreeState]:
        """The worktree that holds `folder` (the deepest one: worktrees may sit inside the main one)."""
        if not folder:
            return None
        real = os.path.realpath(folder)
        best: Optional[WorktreeState] = None
        best_length = -1
        for worktree in self.worktrees:
            if worktree.entry.bare:
                continue
            root = os.path.realpath(worktree.path)
            if (real == root or real.startswith(root.rstrip(os.sep) + os.sep)) and len(root) > best_length:
                best, best_length = worktree, len(root)
        return best


def _same(one: str, other: str) -> bool:
    return os.path.normcase(os.path.realpath(one)) == os.path.normcase(os.path.realpath(other))


def location_of(entry: WorktreeEntry, common_dir: str) -> Optional[RepoLocation]:
    """The worktree's git dir from its `.git` (a file read, not a git process), or None when that
    `.git` is not this repository's: the worktree list comes from files inside the repository, and
    a hostile one could point an entry at another repository whose own config (filter programs)
    our per-repository safety options would not cover."""
    dot_git = os.path.join(entry.path, ".git")
    if os.path.isdir(dot_git):
        return RepoLocation(entry.path, entry.path, dot_git, common_dir) if _same(dot_git, common_dir) else None
    try:
        with open(dot_git, encoding="utf-8", errors="replace") as handle:
            content = handle.read(4096).strip()
    except OSError:
        return None
    if not content.startswith("gitdir: "):
        return None
    git_dir = os.path.normpath(os.path.join(entry.path, content[len("gitdir: "):].strip()))
    if not os.path.isdir(git_dir):
        return None
    if _same(git_dir, common_dir) or _same(os.path.dirname(git_dir), os.path.join(common_dir, "worktrees")):
        return RepoLocation(entry.path, entry.path, git_dir, common_dir)  # --separate-git-dir, or a linked one
    return None


def base_branch(location: RepoLocation, runner: GitRunner) -> Optional[Tuple[str, str]]:
    """(short name, commit id) of the branch worktrees are compared with: origin's default, else main/master."""
    candidates: List[str] = []
    origin_head = _origin_head(location)
    if origin_head:
        candidates.append(origin_head)
    candidates.extend(_BASE_CANDIDATES)
    for ref in candidates:
        if ref.startswith("-"):
            continue  # a hostile ref name must never become an option
        sha = _verified(location, runner, ref)
        if sha:
            short = ref[len("refs/heads/"):] if ref.startswith("refs/heads/") else ref.replace("refs/remotes/", "", 1)
            return short, sha
    return None


class WorktreeReader:
    """Reads all worktrees of a repository; the per-branch part (ahead/behind, merge-base diff) is cached
    under (HEAD, base) since it can only change when one of the two commits does."""

    def __init__(self, runner: GitRunner, workers: int = WORKERS) -> None:
        self.runner = runner
        self.workers = workers
        self._branch_cache: Dict[Tuple[str, str], Tuple[int, int, Dict[str, str]]] = {}
        self._lock = threading.Lock()

    def list(self, location: RepoLocation) -> List[WorktreeEntry]:
        try:
            result = self.runner.run(location.root, ["worktree", "list", "--porcelain", "-z"])
            return parse_worktree_list(result.stdout, nul=True)
        except GitFailed as failure:
            if "-z" not in (failure.stderr or "") and "unknown switch" not in (failure.stderr or ""):
                raise
        result = self.runner.run(location.root, ["worktree", "list", "--porcelain"])  # git before 2.36
        return parse_worktree_list(result.stdout, nul=False)

    def read(self, location: RepoLocation, known: Optional[Dict[str, StatusReport]] = None) -> WorktreeReport:
        """`known` maps a worktree root to a status just read for it (the shown one), so it is not read twice."""
        try:
            entries = self.list(location)
            base = base_branch(location, self.runner)
        except GitError as failure:
            return WorktreeReport("error", detail=str(failure))
        report = WorktreeReport(base=base[0] if base else None)
        readable = [e for e in entries if not e.bare and e.prunable is None][:MAX_READ]
        with ThreadPoolExecutor(max_workers=max(1, min(self.workers, len(readable) or 1))) as pool:
            read = pool.map(lambda e: self._one(e, location.common_dir, base, (known or {}).get(e.path)), readable)
            states = dict(zip([e.path for e in readable], read))
        for entry in entries:
            if entry.bare:
                report.worktrees.append(WorktreeState(entry, "bare"))
            elif entry.prunable is not None:
                report.worktrees.append(WorktreeState(entry, "missing", detail=entry.prunable))
            else:
                report.worktrees.append(states.get(entry.path) or WorktreeState(entry, "not-read"))
        mark_collisions(report.worktrees)
        return report

    def _one(self, entry: WorktreeEntry, common_dir: str, base: Optional[Tuple[str, str]],
             known: Optional[StatusReport] = None) -> WorktreeState:
        if not os.path.isdir(entry.path):
            # A locked worktree is never called prunable by git, even when its folder is gone (an unplugged disk).
            return WorktreeState(entry, "missing")
        where = location_of(entry, common_dir)
        if where is None:
            return WorktreeState(entry, "foreign")
        state = WorktreeState(entry, "ok", where, operation=detect_operation(where.git_dir))
        branch_part: List[Tuple[int, int, Dict[str, str]]] = []

        def read_branch() -> None:
            if base is not None and entry.head:
                try:
                    branch_part.append(self._against_base(where, entry.head, base[1]))
                except GitError:
                    pass  # unrelated histories, a shallow clone: no comparison, the status still shows

        helper = threading.Thread(target=read_branch, daemon=True)
        helper.start()
        try:
            report: StatusReport = known if known is not None else read_status(where, self.runner)
        except UnsafeRepositoryConfig as refused:
            state.state, state.detail = "unsafe", str(refused)
        except GitError as failure:
            state.state = failure.kind if failure.kind in ("timeout", "no-git") else "error"
            state.detail = str(failure)
        except PorcelainError as garbled:
            state.state, state.detail = "error", str(garbled)
        else:
            state.branch, state.dirty, state.conflicted = report.branch, report.dirty_count, len(report.conflicted)
            paths = set()
            for change in report.files:
                if change.kind != "ignored":
                    paths.add(change.path)
                    if change.orig_path:
                        paths.add(change.orig_path)
            state.uncommitted = frozenset(paths)
            state.untracked = frozenset(c.path for c in report.files if c.kind == "untracked")
        finally:
            helper.join()
        if branch_part:
            state.base_ahead, state.base_behind, state.committed_blobs = branch_part[0]
            state.committed = frozenset(state.committed_blobs)
        return state

    def _against_base(self, where: RepoLocation, head: str, base_sha: str) -> Tuple[int, int, Dict[str, str]]:
        if head == base_sha:
            return 0, 0, {}
        key = (head, base_sha)
        with self._lock:
            cached = self._branch_cache.get(key)
        if cached is not None:
            return cached
        counts = self.runner.run(where.root, ["rev-list", "--left-right", "--count", f"{head}...{base_sha}", "--"])
        parts = counts.text.split()
        ahead, behind = (0, 0)
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            ahead, behind = int(parts[0]), int(parts[1])
        blobs: Dict[str, str] = {}
        if ahead:
            # The merge-base diff (`base...HEAD`): what the branch itself changed, not what base gained
            # since. --raw gives each file's new blob, so two branches carrying the same commit agree.
            diff = self.runner.run(where.root, ["diff", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff",
                                                "--no-textconv", f"{base_sha}...{head}", "--"])
            blobs = parse_raw_diff(diff.stdout)
        value = (ahead, behind, blobs)
        with self._lock:
            if len(self._branch_cache) > 512:
                self._branch_cache.clear()
            self._branch_cache[key] = value
        return value


def parse_raw_diff(output: bytes) -> Dict[str, str]:
    """path -> new blob id from `git diff --raw -z --no-renames` (":old new oldsha newsha X\0path\0" records)."""
    parts = output.split(b"\0")
    blobs: Dict[str, str] = {}
    for position in range(0, len(parts) - 1, 2):
        meta, path = parts[position], parts[position + 1]
        fields = meta.split(b" ")
        if not meta.startswith(b":") or len(fields) < 5 or not path:
            continue
        blobs[os.fsdecode(path)] = fields[3].decode("ascii", "replace")
    return blobs


def _same_change(one: WorktreeState, other: WorktreeState, path: str) -> bool:
    """Both only committed it, to the same content: one change two branches share (one branched off the other)."""
    if path in one.uncommitted or path in other.uncommitted:
        return False
    blob = one.committed_blobs.get(path)
    return blob is not None and blob == other.committed_blobs.get(path)


def mark_collisions(worktrees: List[WorktreeState]) -> None:
    """Flags, on every side, each file changed (uncommitted or on the branch) in two or more worktrees."""
    holders: Dict[str, List[WorktreeState]] = {}
    for worktree in worktrees:
        worktree.collisions = {}
        if worktree.state != "ok":
            continue
        for path in worktree.changed_paths:
            holders.setdefault(path, []).append(worktree)
    for path, owners in holders.items():
        if len(owners) < 2:
            continue
        for owner in owners:
            others = sorted(o.name for o in owners if o is not owner and not _same_change(owner, o, path))
            if others:
                owner.collisions[path] = others
