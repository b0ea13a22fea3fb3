"""Checks the files a session mentions against the pane's folder: changed or committed per git, or present."""

import datetime
import os
import re
import subprocess
import time
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Set

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


def _git_env() -> Dict[str, str]:
    env = dict(os.environ)
    # Never wait for a password prompt or an editor, never translate output we parse.
    env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", "GIT_PAGER": "cat",
                "GIT_ASKPASS": "", "SSH_ASKPASS": ""})
    return env


def _git_command(*args: str) -> List[str]:
    return [
        "git",
        # --no-optional-locks: a status refresh must never take index.lock from under the agent.
        "--no-optional-locks",
        # The repository is the user's, its config is not: an fsmonitor hook configured there would
        # be executed by `git status`, so it is switched off for our reads.
        "-c", "core.fsmonitor=false",
        "-c", "core.quotepath=off",
        "-c", "color.ui=never",
        "-c", "core.hooksPath=/dev/null",
        *args,
    ]


_FILTER_SECTION = re.compile(r'^\s*\[filter\s+"([^"\n=]+)"\s*\]', re.M)


def _repository_filter_overrides(root: str) -> List[str]:
    """`-c` options that switch off the filter drivers the repository's own config defines.

    `git status` runs a file's clean filter to compare its content, and a repository can name any
    program as that filter: a cloned, untrusted repository must not run code because we looked at it.
    Filters from the user's own global config (git-lfs, say) stay as they are.
    """
    git_path = os.path.join(root, ".git")
    try:
        if os.path.isfile(git_path):  # a worktree or submodule: ".git" names the real folder
            with open(git_path, encoding="utf-8", errors="replace") as handle:
                pointer = handle.read(4096).strip()
            git_path = os.path.normpath(os.path.join(root, pointer.split(":", 1)[1].strip()))
            common = os.path.join(git_path, "commondir")
            if os.path.isfile(common):
                with open(common, encoding="utf-8", errors="replace") as handle:
                    git_path = os.path.normpath(os.path.join(git_path, handle.read(4096).strip()))
        with open(os.path.join(git_path, "config"), encoding="utf-8", errors="replace") as handle:
            config = handle.read(1_000_000)
    except (OSError, IndexError):
        return []
    overrides: List[str] = []
    for name in sorted(set(_FILTER_SECTION.findall(config))):
        for key in ("clean", "smudge", "process"):
            overrides += ["-c", "filter." + name + "." + key + "="]
        overrides += ["-c", "filter." + name + ".required=false"]
    return overrides


class PendingCommands:
    """Read-only git commands started side by side; `outputs()` waits for them (None for each failure)."""

    def __init__(self, cwd: str, commands: List[List[str]], timeout: float = GIT_TIMEOUT_SECONDS) -> None:
        self.deadline = time.monotonic() + timeout
        self.processes: List[Optional[subprocess.Popen[bytes]]] = []
        overrides = _repository_filter_overrides(cwd)
        for args in commands:
            try:
                self.processes.append(subprocess.Popen(
                    _git_command(*overrides, *args), cwd=cwd, env=_git_env(), stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL))
            except (OSError, ValueError):
                self.processes.append(None)

    def outputs(self) -> List[Optional[str]]:
        results: List[Optional[str]] = []
        for process in self.processes:
            if process is None:
                results.append(None)
                continue
            try:
                stdout, _ = process.communicate(timeout=max(0.1, self.deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                results.append(None)
                continue
            results.append(stdout.decode("utf-8", "replace") if process.returncode == 0 else None)
        return results


def run_git_commands(cwd: str, commands: List[List[str]], timeout: float = GIT_TIMEOUT_SECONDS) -> List[Optional[str]]:
    return PendingCommands(cwd, commands, timeout).outputs()


def run_git(cwd: str, *args: str, timeout: float = GIT_TIMEOUT_SECONDS) -> Optional[str]:
    """Run one read-only git command; None when git is missing, fails or takes too long."""
    return run_git_commands(cwd, [list(args)], timeout)[0]


def find_repository_root(folder: str) -> Optional[str]:
    """The nearest folder at or above `folder` holding `.git` (a folder, or a file for worktrees)."""
    current = os.path.abspath(folder)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


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
