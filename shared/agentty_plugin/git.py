"""The one way a plugin runs git on a repository nobody vetted: no program the repository names ever runs.

A repository's own configuration (`.git/config`, what it includes, `config.worktree`) can name
programs that git runs by itself: an fsmonitor hook, filter and diff drivers, a pager, hooks, an ssh
command, a credential helper. An agent can write that file, and so can whoever handed over the
folder. A plugin that runs git because a pane got focus would run that program with the user's
rights, outside any sandbox. So every call here:

- reads the effective configuration the way git does (includes, conditional includes, worktree
  config) with `git config --list --show-scope -z`, which runs nothing, and overrides on the
  command line every program-valued key the repository's own scopes set, with the user's own
  global value where there is one (their git-lfs stays theirs), else with nothing;
- forces the settings that are never wanted while reading (no hooks, no fsmonitor, no pager);
- takes no optional locks, never prompts, has a timeout, kills its process group on cancel, and
  returns a `GitResult` whose `state` says what happened instead of raising.

`find_repository` is the one walk from a folder up to its repository, for every plugin.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

DEFAULT_TIMEOUT = 10.0
# A folder is searched this many parents up for its repository; real paths are far shallower, and
# a bound keeps a pathological mount (or a symlink loop resolved oddly) from costing anything.
MAX_PARENTS = 64

# Always on the command line, whoever set what: reading must never run a hook, the fsmonitor or a
# pager, never start maintenance, and never recurse into a submodule, whose config is another
# repository's and out of reach of the overrides below.
FORCED_CONFIG: Tuple[Tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.useBuiltinFSMonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.pager", "cat"),
    ("diff.external", ""),
    ("log.showSignature", "false"),
    ("submodule.recurse", "false"),
    ("diff.submodule", "short"),
    ("status.submoduleSummary", "false"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    ("color.ui", "false"),
    ("core.quotePath", "false"),
    # `ext::` URLs run a command as the transport; a repository's insteadOf could point a remote at one.
    ("protocol.ext.allow", "never"),
)

# Calls that never talk to a remote (status, diff, log, rev-parse) switch the network off entirely:
# then no credential helper, askpass program or ssh can be reached, whoever configured them.
OFFLINE_CONFIG: Tuple[Tuple[str, str], ...] = (
    ("protocol.allow", "never"),
    ("credential.helper", ""),
    ("core.askPass", ""),
)

# Program-valued keys, lower-cased as `git config --list` prints them. A repository scope that sets
# one of these gets it overridden. Keys with a subsection (`filter.<driver>.clean`) are matched by
# their section and name; the driver's name comes from the listing itself.
PROGRAM_KEYS = frozenset({
    "core.fsmonitor", "core.sshcommand", "core.gitproxy", "core.askpass", "core.pager", "core.editor",
    "core.hookspath", "core.alternaterefscommand", "sequence.editor", "diff.external", "credential.helper",
    "gpg.program", "uploadpack.packobjectshook", "sendemail.smtpserver",
})
PROGRAM_SUBSECTION_KEYS = frozenset({
    ("filter", "clean"), ("filter", "smudge"), ("filter", "process"),
    ("diff", "textconv"), ("diff", "command"), ("merge", "driver"),
    ("remote", "uploadpack"), ("remote", "receivepack"), ("remote", "vcs"), ("remote", "proxy"),
    ("credential", "helper"), ("gpg", "program"),
})
# Keys git keeps as lists: an empty value on the command line clears the list before the user's
# own values are given again.
LIST_KEYS = frozenset({"credential.helper"})
# What an overridden key becomes when the user's own config has no value for it.
SAFE_VALUES = {"core.fsmonitor": "false", "core.hookspath": os.devnull, "core.pager": "cat"}
REPOSITORY_SCOPES = frozenset({"local", "worktree", "unknown"})

ENVIRONMENT = {
    "GIT_OPTIONAL_LOCKS": "0",  # a read must never take the index lock (the user's `git add` would fail)
    "GIT_TERMINAL_PROMPT": "0",  # never wait for a password on a terminal nobody sees
    "GIT_LITERAL_PATHSPECS": "1",  # a file named `*` (or `:(top)`) is a name, never a pattern that matches more
    "GCM_INTERACTIVE": "never",
    "SSH_ASKPASS_REQUIRE": "never",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "LC_ALL": "C",  # git's messages in English, so states can be read from them
    "LANGUAGE": "C",
}
# Variables that would point every call at another repository, index or config.
REDIRECTING_VARIABLES = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR", "GIT_NAMESPACE",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
    "GIT_EXTERNAL_DIFF", "GIT_DIFF_OPTS", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
)

UPLOAD_COMMANDS = frozenset({"fetch", "ls-remote", "pull", "clone"})
# Subcommands that write a patch: `--no-ext-diff --no-textconv` goes right after them, so no diff
# driver runs even if one was named in a way the overrides could not reach.
PATCH_COMMANDS = frozenset({"diff", "log", "show", "format-patch", "range-diff", "whatchanged", "diff-tree",
                            "diff-files", "diff-index", "stash"})


class GitResult(NamedTuple):
    """What one git call gave. `state` is one of:

    ok · failed (git exited with another status; `stderr` says why) · refused (git would not read
    a repository owned by someone else: safe.directory) · not-repo · gone (the folder is missing) ·
    unsafe-config (the repository names a program in a way that cannot be switched off, so git
    was not run) · timeout · cancelled · no-git (git is not installed or cannot start).
    """

    state: str
    status: Optional[int] = None
    stdout: bytes = b""
    stderr: str = ""
    truncated: bool = False
    total_bytes: int = 0

    @property
    def ok(self) -> bool:
        return self.state == "ok"

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", "replace")

    @property
    def first_error_line(self) -> str:
        """git's first telling line (`fatal: …`, `error: …`), not its last, which is often a hint."""
        lines = [line.strip() for line in self.stderr.splitlines() if line.strip()]
        for line in lines:
            if line.lower().startswith(("fatal:", "error:")):
                return line
        return lines[0] if lines else ""


def classify_stderr(stderr: str) -> str:
    """The state git's (C-locale) refusal text means: refused, not-repo, or failed."""
    lowered = stderr.lower()
    if "dubious ownership" in lowered or "safe.directory" in lowered:
        return "refused"
    if "not a git repository" in lowered:
        return "not-repo"
    return "failed"


class RepositoryPaths(NamedTuple):
    """Where a folder's repository is: the work tree's root, its git dir and the shared (common) dir."""

    root: str
    git_dir: str
    common_dir: str

    @property
    def is_linked_worktree(self) -> bool:
        return os.path.normcase(self.git_dir) != os.path.normcase(self.common_dir)


def _git_dir_of(dot_git: str) -> Optional[str]:
    """The git dir a `.git` entry stands for: the folder itself, or the target of a `gitdir:` file."""
    if os.path.isdir(dot_git):
        return dot_git if os.path.exists(os.path.join(dot_git, "HEAD")) else None
    try:
        with open(dot_git, encoding="utf-8", errors="replace") as handle:
            first = handle.readline(4096).strip()
    except OSError:
        return None
    if not first.startswith("gitdir:"):
        return None
    target = first[len("gitdir:"):].strip()
    if not os.path.isabs(target):
        target = os.path.join(os.path.dirname(dot_git), target)
    target = os.path.normpath(target)
    return target if os.path.exists(os.path.join(target, "HEAD")) else None


def _common_dir_of(git_dir: str) -> str:
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8", errors="replace") as handle:
            shared = handle.readline(4096).strip()
    except OSError:
        return git_dir
    if not shared:
        return git_dir
    return os.path.normpath(shared if os.path.isabs(shared) else os.path.join(git_dir, shared))


def find_repository(folder: str, max_parents: int = MAX_PARENTS) -> Optional[RepositoryPaths]:
    """The repository holding `folder`, found by walking up (at most `max_parents` folders), or None.

    Runs nothing: it reads `.git` folders and `gitdir:` files as git does, and stops at
    GIT_CEILING_DIRECTORIES. The folder's path is walked as given first, so the root comes back in
    the caller's spelling (a workspace under a symlinked home stays comparable with its files);
    if that finds nothing, the real path is walked, as git's own discovery does. A folder inside a
    `.git` folder belongs to that repository's work tree.
    """
    if not folder:
        return None
    try:
        given = os.path.abspath(os.path.expanduser(folder))
        real = os.path.realpath(given)
    except (OSError, ValueError):
        return None
    if not os.path.isdir(real):
        return None
    ceilings = {os.path.realpath(c) for c in os.environ.get("GIT_CEILING_DIRECTORIES", "").split(os.pathsep) if c}
    found = _walk_up(given, max_parents, ceilings)
    if found is None and real != given:
        found = _walk_up(real, max_parents, ceilings)
    return found


def _walk_up(start: str, max_parents: int, ceilings: Set[str]) -> Optional[RepositoryPaths]:
    current = start
    for _ in range(max_parents + 1):
        if os.path.basename(current) == ".git":
            git_dir = _git_dir_of(current)
            if git_dir is not None:
                return RepositoryPaths(os.path.dirname(current), git_dir, _common_dir_of(git_dir))
        git_dir = _git_dir_of(os.path.join(current, ".git"))
        if git_dir is not None:
            return RepositoryPaths(current, git_dir, _common_dir_of(git_dir))
        parent = os.path.dirname(current)
        if parent == current or parent in ceilings or os.path.realpath(parent) in ceilings:
            return None
        current = parent
    return None


class _Sink:
    """Keeps the first `limit` bytes of a stream and counts the rest, so a huge diff never costs memory."""

    def __init__(self, limit: Optional[int]) -> None:
        self.limit = limit
        self.parts: List[bytes] = []
        self.kept = 0
        self.total = 0

    def drain(self, stream: Any) -> None:
        while True:
            chunk = stream.read(65536)
            if not chunk:
                return
            self.total += len(chunk)
            room = len(chunk) if self.limit is None else self.limit - self.kept
            if room > 0:
                piece = chunk[:room]
                self.parts.append(piece)
                self.kept += len(piece)

    def value(self) -> bytes:
        return b"".join(self.parts)


class _ConfigEntry(NamedTuple):
    scope: str
    origin: str  # the file the entry came from, as git printed it ("" when it was not a file)
    key: str
    value: str


def parse_config_listing(data: bytes, with_scope: bool = True) -> List[_ConfigEntry]:
    """Entries of `git config --list [--show-scope] --show-origin -z`: scope, origin, `key\\nvalue`."""
    fields = data.decode("utf-8", "surrogateescape").split("\0")
    entries: List[_ConfigEntry] = []
    step = 3 if with_scope else 2
    for index in range(0, len(fields) - step + 1, step):
        origin = fields[index + step - 2]
        key, _, value = fields[index + step - 1].partition("\n")
        if key:
            entries.append(_ConfigEntry(fields[index] if with_scope else "unknown",
                                        origin[len("file:"):] if origin.startswith("file:") else "", key, value))
    return entries


def _is_program_key(key: str) -> bool:
    lowered = key.lower()
    if lowered in PROGRAM_KEYS:
        return True
    section, _, rest = lowered.partition(".")
    if "." not in rest:
        return section == "pager"  # pager.<command> = a program for that command
    name = rest.rsplit(".", 1)[1]
    return (section, name) in PROGRAM_SUBSECTION_KEYS


def overrides_for(entries: Iterable[_ConfigEntry]) -> Tuple[List[Tuple[str, str]], List[str]]:
    """The `-c` pairs that undo what the repository's own scopes set, and the keys that cannot be undone.

    A key the user's own (global or system) config also sets gets the user's value back; others
    become empty (the program is not run) or a safe value. A key whose name holds `=` or a line
    break cannot be written as `-c key=value`: it is returned as unfixable, and the caller refuses.
    """
    user_values: Dict[str, List[str]] = {}
    repository_keys: List[str] = []
    seen = set()
    for entry in entries:
        if not _is_program_key(entry.key):
            continue
        if entry.scope in REPOSITORY_SCOPES:
            if entry.key not in seen:
                seen.add(entry.key)
                repository_keys.append(entry.key)
        elif entry.scope in ("system", "global"):
            user_values.setdefault(entry.key, []).append(entry.value)
    pairs: List[Tuple[str, str]] = []
    unfixable: List[str] = []
    for key in repository_keys:
        if "=" in key or "\n" in key or "\0" in key:
            unfixable.append(key)
            continue
        lowered = key.lower()
        own = user_values.get(key, [])
        if lowered in LIST_KEYS or lowered.endswith(".helper"):
            pairs.append((key, ""))
            pairs.extend((key, value) for value in own)
        else:
            pairs.append((key, own[-1] if own else SAFE_VALUES.get(lowered, "")))
        if lowered.startswith("filter.") and not own:
            # A required filter with no program would make every read fail instead of running nothing.
            required = (f"{key[:key.rindex('.')]}.required", "false")
            if required not in pairs:
                pairs.append(required)
    return pairs, unfixable


class _CachedOverrides(NamedTuple):
    stamps: Tuple[Tuple[str, Any], ...]
    pairs: Tuple[Tuple[str, str], ...]
    unfixable: Tuple[str, ...]


def _stamp(path: str) -> Any:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size, info.st_ino)


class SafeGit:
    """Runs `git -C <folder> …` on a repository nobody vetted. Thread-safe; one per plugin is enough.

    The repository's overrides are read once per repository and read again whenever any file that
    could change them changes: its config files, every file they include (existing or not yet),
    and HEAD (an `includeIf "onbranch:…"` follows the branch).
    """

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, executable: Optional[str] = None) -> None:
        self.timeout = timeout
        self.executable = executable or os.environ.get("AGENTTY_GIT") or "git"
        self.calls = 0  # git processes started, for tests and benchmarks
        self._cache: Dict[str, _CachedOverrides] = {}
        self._lock = threading.Lock()
        self._environment: Optional[Dict[str, str]] = None

    # -- the environment and the command line -------------------------------------------------------

    def environment(self) -> Dict[str, str]:
        if self._environment is None:
            env = {name: value for name, value in os.environ.items() if name not in REDIRECTING_VARIABLES}
            env.update(ENVIRONMENT)
            if "GIT_SSH_COMMAND" not in env and "GIT_SSH" not in env:
                # Never a passphrase or host-key prompt nobody can answer; the user's own
                # core.sshCommand, if any, still wins over this.
                env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"
            self._environment = env
        return self._environment

    def command_line(self, folder: str, args: Sequence[str], overrides: Sequence[Tuple[str, str]] = (),
                     network: bool = False) -> List[str]:
        command = [self.executable, "--no-pager", "--no-optional-locks", "-C", folder]
        # The fixed settings come last, so they win over anything, the user's own config included.
        config = tuple(overrides) + FORCED_CONFIG + (() if network else OFFLINE_CONFIG)
        for key, value in config:
            if key.lower().endswith((".uploadpack", ".receivepack")):
                continue  # undone by an option instead (below)
            command += ["-c", f"{key}={value}"]
        args = list(args)
        if args and args[0] in PATCH_COMMANDS and "--no-textconv" not in args:
            args[1:1] = ["--no-ext-diff", "--no-textconv"]
        if args and any(key.lower().endswith(".uploadpack") for key, _ in overrides) and args[0] in UPLOAD_COMMANDS:
            # git uses the *first* uploadpack it is given ("more than one uploadpack given, using the
            # first"), so `-c` cannot undo the repository's: the command-line option can.
            args[1:1] = ["--upload-pack=git-upload-pack"]
        if args and any(key.lower().endswith(".receivepack") for key, _ in overrides) and args[0] == "push":
            args[1:1] = ["--receive-pack=git-receive-pack"]
        command.extend(args)
        return command

    # -- the repository's own program-valued settings -----------------------------------------------

    def repository_overrides(self, folder: str, cancel: Optional[threading.Event] = None) -> GitResult:
        """`ok` when git may run in `folder` (the repository's overrides are then read and cached),
        else why not: git could not list the config, or the repository names an unfixable program."""
        found = self._overrides(folder, cancel)
        return found if isinstance(found, GitResult) else _refusal(found) or GitResult("ok", 0)

    def _overrides(self, folder: str, cancel: Optional[threading.Event]) -> Union[GitResult, _CachedOverrides]:
        paths = find_repository(folder)
        cache_key = paths.git_dir if paths is not None else ""
        if paths is not None:
            with self._lock:
                cached = self._cache.get(cache_key)
            if cached is not None and all(_stamp(path) == stamp for path, stamp in cached.stamps):
                return cached
        listing = self._spawn([self.executable, "--no-pager", "-C", folder, "config", "--list", "--show-scope",
                               "--show-origin", "-z"], None, self.timeout, cancel)
        with_scope = True
        if listing.state == "failed" and listing.status == 129:  # git before 2.26: no --show-scope
            listing = self._spawn([self.executable, "--no-pager", "-C", folder, "config", "--list",
                                   "--show-origin", "-z"], None, self.timeout, cancel)
            with_scope = False
        if not listing.ok:
            return listing
        entries = parse_config_listing(listing.stdout, with_scope)
        if not with_scope:
            entries = _guess_scopes(entries)
        if paths is None:  # no repository here: nothing to cache by
            pairs, unfixable = overrides_for(entries)
            return _CachedOverrides((), tuple(pairs), tuple(unfixable))
        # `git status` looks inside each submodule with a git of its own, which reads the submodule's
        # config, not ours; `-c` settings reach it (git passes them on), so its programs are undone here too.
        for config in _submodule_configs(paths.common_dir):
            sub = self._spawn([self.executable, "--no-pager", "config", "--file", config, "--includes", "--list",
                               "--show-origin", "-z"], None, self.timeout, cancel)
            if sub.state not in ("ok", "failed"):
                return sub
            entries.extend(parse_config_listing(sub.stdout, with_scope=False))
        pairs, unfixable = overrides_for(entries)
        watched = [os.path.join(paths.common_dir, "config"), os.path.join(paths.git_dir, "config.worktree"),
                   os.path.join(paths.common_dir, "config.worktree"), os.path.join(paths.git_dir, "HEAD"),
                   *_watched_files(entries, paths.root)]
        entry = _CachedOverrides(tuple((path, _stamp(path)) for path in dict.fromkeys(watched)), tuple(pairs),
                                 tuple(unfixable))
        with self._lock:
            if len(self._cache) > 128:
                self._cache.clear()
            self._cache[cache_key] = entry
        return entry

    # -- running -----------------------------------------------------------------------------------------

    def run(self, folder: str, args: Sequence[str], *, ok_statuses: Sequence[int] = (0,),
            max_bytes: Optional[int] = None, timeout: Optional[float] = None,
            cancel: Optional[threading.Event] = None, network: bool = False,
            extra_config: Sequence[Tuple[str, str]] = ()) -> GitResult:
        """Run one git command in `folder`. Never raises for anything git or the repository does.

        `network=True` lets the call reach a remote (ls-remote, fetch): the user's own credential
        helper and ssh set-up then apply, the repository's never do. `max_bytes` keeps only the
        start of stdout (`truncated`, `total_bytes` say how much there was).
        """
        folder = os.path.abspath(folder) if folder else ""
        if not folder or not os.path.isdir(folder):
            return GitResult("gone", stderr=f"folder not found: {folder}")
        overrides = self._overrides(folder, cancel)
        if isinstance(overrides, GitResult):
            return overrides
        refused = _refusal(overrides)
        if refused is not None:
            return refused
        command = self.command_line(folder, args, overrides.pairs + tuple(extra_config), network)
        limit = timeout if timeout is not None else self.timeout
        result = self._spawn(command, max_bytes, limit, cancel)
        if result.state == "failed" and result.status in ok_statuses:
            return result._replace(state="ok")
        if result.state == "failed":
            return result._replace(state=classify_stderr(result.stderr))
        return result

    def _spawn(self, command: List[str], max_bytes: Optional[int], timeout: float,
               cancel: Optional[threading.Event]) -> GitResult:
        options: Dict[str, Any] = {}
        if os.name == "posix":
            options["start_new_session"] = True  # its own process group: a cancel reaches ssh and helpers too
        else:  # pragma: no cover - Windows
            options["creationflags"] = getattr(subprocess, "CREATE_NO_WINDOW", 0)
        with self._lock:
            self.calls += 1
        try:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, env=self.environment(), **options)
        except OSError as error:
            return GitResult("no-git", stderr=f"git could not be started ({command[0]}): {error.strerror or error}")
        out, err = _Sink(max_bytes), _Sink(64 * 1024)
        readers = [threading.Thread(target=out.drain, args=(process.stdout,), daemon=True),
                   threading.Thread(target=err.drain, args=(process.stderr,), daemon=True)]
        for reader in readers:
            reader.start()
        ended = self._wait(process, timeout, cancel)
        for reader in readers:
            reader.join(5.0)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
        stderr = err.value().decode("utf-8", "replace")
        if ended != "exited":
            return GitResult(ended, process.returncode, out.value(), stderr, out.total > out.kept, out.total)
        state = "ok" if process.returncode == 0 else "failed"
        return GitResult(state, process.returncode, out.value(), stderr, out.total > out.kept, out.total)

    @staticmethod
    def _wait(process: subprocess.Popen, timeout: float, cancel: Optional[threading.Event]) -> str:  # type: ignore[type-arg]
        # `Popen.wait(timeout)` polls with sleeps that grow to 50 ms, so a 30 ms `git status` was seen
        # at ~60 ms (bench_session_summarizer, git check row). A blocking wait sees the exit at once;
        # a watcher thread turns the deadline or the cancel event into a kill, and ends with the process.
        finished = threading.Event()
        outcome = {"state": "exited"}

        def watch() -> None:
            deadline = time.monotonic() + timeout
            while not finished.is_set():
                left = deadline - time.monotonic()
                if left <= 0 or (cancel is not None and cancel.is_set()):
                    outcome["state"] = "timeout" if left <= 0 else "cancelled"
                    _kill(process)
                    return
                # Without a cancel event only the deadline can end the wait; with one, look at it often.
                finished.wait(left if cancel is None else min(left, 0.05))

        watcher = threading.Thread(target=watch, name="git-watch", daemon=True)
        watcher.start()
        process.wait()
        finished.set()
        watcher.join(1.0)
        return outcome["state"]


def _kill(process: subprocess.Popen) -> None:  # type: ignore[type-arg]
    try:
        if os.name == "posix":
            import signal

            os.killpg(process.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            process.kill()
    except OSError:
        try:
            process.kill()
        except OSError:
            pass
    try:
        process.wait(5.0)
    except subprocess.TimeoutExpired:  # pragma: no cover - a process that ignores SIGKILL
        pass


def _submodule_configs(common_dir: str, limit: int = 64) -> List[str]:
    """Config files of the repository's submodules (`<common dir>/modules/**/config`), at most `limit`."""
    modules = os.path.join(common_dir, "modules")
    found: List[str] = []
    if not os.path.isdir(modules):
        return found
    for folder, subfolders, files in os.walk(modules):
        # A submodule's git dir holds objects/ and refs/: never worth walking into.
        subfolders[:] = [d for d in subfolders if d not in ("objects", "refs", "logs", "hooks", "info", "lfs")]
        if "config" in files and os.path.exists(os.path.join(folder, "HEAD")):
            found.append(os.path.join(folder, "config"))
            if len(found) >= limit:
                break
    return sorted(found)


def _refusal(entry: _CachedOverrides) -> Optional[GitResult]:
    if not entry.unfixable:
        return None
    return GitResult("unsafe-config", stderr="the repository's configuration names a program that cannot be "
                     f"switched off safely: {', '.join(entry.unfixable)}")


def _is_include(key: str) -> bool:
    lowered = key.lower()
    return lowered == "include.path" or (lowered.startswith("includeif.") and lowered.endswith(".path"))


def _watched_files(entries: Iterable[_ConfigEntry], root: str) -> List[str]:
    """The files the repository's own entries came from, and every file they include, even one that
    does not exist yet: creating it later changes the configuration without touching any file read so far."""
    watched: List[str] = []
    for entry in entries:
        if entry.scope not in REPOSITORY_SCOPES or not entry.origin:
            continue
        source = entry.origin if os.path.isabs(entry.origin) else os.path.join(root, entry.origin)
        watched.append(source)
        if entry.value and _is_include(entry.key):
            target = os.path.expanduser(entry.value)  # relative to the file that includes it, as git reads it
            watched.append(os.path.normpath(os.path.join(os.path.dirname(source), target)))
    return watched


def _guess_scopes(entries: List[_ConfigEntry]) -> List[_ConfigEntry]:
    """For git before 2.26: an entry from the user's own config files is `global`; every other is
    treated as the repository's (overriding a key the user set in an included file is the safe error)."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    own = {os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config"), "/etc/gitconfig"}
    return [entry._replace(scope="global" if entry.origin in own else "unknown") for entry in entries]


_shared: Optional[SafeGit] = None
_shared_lock = threading.Lock()


def shared_git() -> SafeGit:
    """The plugin's one SafeGit, so the per-repository overrides are read once for every caller."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = SafeGit()
        return _shared


def run_git(folder: str, args: Sequence[str], **options: Any) -> GitResult:
    """`shared_git().run(folder, args, …)`: the short form for a plugin's automatic git calls."""
    return shared_git().run(folder, args, **options)

