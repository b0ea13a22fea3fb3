"""Checks the files a session mentions against the pane's folder: changed or committed per git, or present."""

import datetime
import os
import threading
import time
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Set

from agentty_plugin.git import find_repository, shared_git

GIT_TIMEOUT_SECONDS = 5.0
RECENT_COMMITS_WINDOW = "3.days"
RECENT_COMMITS_LIMIT = 100

# States, strongest first: what git saw beats what exists on disk beats a bare mention.
CHANGED, DELETED, COMMITTED, EXISTS, MENTIONED = "changed", "deleted", "committed", "exists", "mentioned"
VERIFIED_STATES = (CHANGED, DELETED, COMMITTED)


@dataclass(frozen=True)
class FileCheck:
    path: str  # as shown: relative to the repository or folder when possible
    state: str

    @property
    def verified(self) -> bool:
        return self.state in VERIFIED_STATES


class PendingCommands:
    """Read-only git commands started side by side; `outputs()` waits for them (None for each failure).

    Every command runs through the runtime's safe runner (`agentty_plugin.git`): the session's
    repository is whatever the agent left there, and no program its config names may run because
    the user pressed Summarize.
    """

    def __init__(self, cwd: str, commands: List[List[str]], timeout: float = GIT_TIMEOUT_SECONDS) -> None:
        self.deadline = time.monotonic() + timeout
        self.results: List[Optional[str]] = [None] * len(commands)
        git = shared_git()

        def run_all() -> None:
            # The repository's overrides are read once (a `git config` process), then both commands start.
            if not git.repository_overrides(cwd).ok:
                return
            runners = [threading.Thread(target=run_one, args=(index, args), daemon=True)
                       for index, args in enumerate(commands)]
            for runner in runners:
                runner.start()
            for runner in runners:
                runner.join()

        def run_one(index: int, args: List[str]) -> None:
            result = git.run(cwd, args, timeout=max(0.1, self.deadline - time.monotonic()))
            self.results[index] = result.text if result.ok else None

        self._thread = threading.Thread(target=run_all, name="summarizer-git", daemon=True)
        self._thread.start()

    def outputs(self) -> List[Optional[str]]:
        self._thread.join(max(0.1, self.deadline - time.monotonic()) + 1.0)
        return list(self.results)


def find_repository_root(folder: str) -> Optional[str]:
    """The work-tree root of the repository holding `folder` (the runtime's one capped walk)."""
    found = find_repository(folder)
    return found.root if found is not None else None


@dataclass
class RepositoryState:
    root: str
    changed: Set[str]
    deleted: Set[str]
    committed: Set[str]


class PendingRepository:
    """A repository read started early, so git works while the text of the session is analysed."""

    def __init__(self, folder: str, since: Optional[float] = None) -> None:
        self.root: Optional[str] = None
        self.commands: Optional[PendingCommands] = None
        if folder and os.path.isdir(folder):
            # Walking up for .git costs microseconds; `git rev-parse` would cost a process start.
            self.root = find_repository_root(folder)
        if self.root is not None:
            self.commands = PendingCommands(self.root, [
                ["status", "--porcelain=v1", "-z", "--untracked-files=all"],
                # A commit counts as the session's only when it is newer than the session's start; when
                # the host does not say when that was, the last few days stand in for it.
                ["log", "--since=" + (_iso(since) if since else RECENT_COMMITS_WINDOW), "-n",
                 str(RECENT_COMMITS_LIMIT), "--name-only",
                 "--no-renames", "--format=", "-z"],
            ])

    def result(self) -> Optional[RepositoryState]:
        if self.root is None or self.commands is None:
            return None
        status, log = self.commands.outputs()
        if status is None:
            return None  # not a repository git can read (or no git): fall back to the folder check
        changed: Set[str] = set()
        deleted: Set[str] = set()
        entries = status.split("\0")
        index = 0
        while index < len(entries):
            entry = entries[index]
            index += 1
            if len(entry) < 4:
                continue
            code, path = entry[:2], entry[3:]
            if "R" in code or "C" in code:
                index += 1  # -z puts the rename source in the next field
            (deleted if "D" in code else changed).add(path)
        committed = {path.strip("\n") for path in (log or "").split("\0") if path.strip("\n")}
        return RepositoryState(root=self.root, changed=changed, deleted=deleted, committed=committed)


def _iso(epoch: float) -> str:
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def read_repository(folder: str) -> Optional[RepositoryState]:
    """Working-tree changes and recently committed files of the repository holding `folder`."""
    return PendingRepository(folder).result()


def _relative(path: str, base: str) -> Optional[str]:
    try:
        relative = os.path.relpath(path, base)
    except ValueError:  # another drive on Windows
        return None
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return None
    return relative.replace(os.sep, "/")


def check_files(mentions: Iterable[str], folder: str,
                pending: Optional[PendingRepository] = None) -> List[FileCheck]:
    """Classify each mentioned path (deduplicated, order kept) against git or the folder."""
    folder = os.path.expanduser(folder) if folder else ""
    if pending is None and folder:
        pending = PendingRepository(folder)
    repository = pending.result() if pending is not None else None
    root = repository.root if repository else folder
    by_basename: Dict[str, List[str]] = {}
    if repository:
        for path in repository.changed | repository.deleted | repository.committed:
            by_basename.setdefault(path.rsplit("/", 1)[-1], []).append(path)
    mentions = list(mentions)
    # "server.js" next to "app/server.js" is the same file said twice, not a second file.
    qualified_names = {mention.rsplit("/", 1)[-1] for mention in mentions if "/" in mention}
    checks: List[FileCheck] = []
    seen: Set[str] = set()
    for mention in mentions:
        if "/" not in mention and mention in qualified_names:
            continue
        mention = mention.strip().strip("`'\"")
        if not mention:
            continue
        candidates: List[str] = []
        expanded = os.path.expanduser(mention) if mention.startswith("~") else mention
        if os.path.isabs(expanded):
            if root:
                inside = _relative(expanded, root)
                if inside:
                    candidates.append(inside)
        elif root:
            candidates.append(_relative(os.path.join(root, mention), root) or mention)
            if folder and folder != root:
                from_folder = _relative(os.path.join(folder, mention), root)
                if from_folder:
                    candidates.insert(0, from_folder)
        state, shown = MENTIONED, candidates[0] if candidates else mention
        for candidate in candidates:
            found = _state_of(candidate, repository, root)
            if found != MENTIONED:
                state, shown = found, candidate
                break
        if state == MENTIONED and repository and "/" not in mention:
            # A bare file name: match it to the one changed file with that name, if exactly one.
            matches = by_basename.get(mention, [])
            if len(matches) == 1:
                shown = matches[0]
                state = _state_of(shown, repository, root)
        if shown in seen:
            continue
        seen.add(shown)
        checks.append(FileCheck(path=shown, state=state))
    return checks


def _state_of(relative: str, repository: Optional[RepositoryState], root: str) -> str:
    if repository:
        if relative in repository.changed:
            return CHANGED
        if relative in repository.deleted:
            return DELETED
        if relative in repository.committed:
            return COMMITTED
    if root and os.path.exists(os.path.join(root, relative)):
        return EXISTS
    return MENTIONED
