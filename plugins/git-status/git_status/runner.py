"""Runs git for a possibly hostile repository through GitPython's command layer, with safety forced."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple

DEFAULT_TIMEOUT_SECONDS = 10.0

# Configuration forced on every call with `-c`, which beats anything in the repository's own
# .git/config (a folder the user opens may come from a stranger, and .git/config travels with it).
FORCED_CONFIG: Tuple[Tuple[str, str], ...] = (
    # core.fsmonitor names a program that git runs on every status and diff: never run it.
    ("core.fsmonitor", "false"),
    ("core.useBuiltinFSMonitor", "false"),
    # Hooks (e.g. post-index-change, post-checkout) are programs from the repository.
    ("core.hooksPath", os.devnull),
    # A pager or external diff program configured by the repository would run on our diffs.
    ("core.pager", "cat"),
    ("diff.external", ""),
    # Verifying signatures runs gpg.program, which the repository can set.
    ("log.showSignature", "false"),
    # We never talk to a remote: no credential helper, askpass program or transport at all.
    ("credential.helper", ""),
    ("core.askPass", ""),
    ("protocol.allow", "never"),
    ("submodule.recurse", "false"),
    # Never descend into a submodule's own diff: its config (and textconv drivers) is another
    # repository's, which the command-line --no-textconv would not reach.
    ("diff.submodule", "short"),
    ("status.submoduleSummary", "false"),
    # Reading never starts background maintenance.
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    ("color.ui", "false"),
    ("core.quotePath", "false"),
)

# Environment for every call: no prompts, no optional index lock (that lock would make the
# user's own `git add` fail while we poll), pathspecs taken literally (a file named `*` must not
# match everything), and no pager.
FORCED_ENVIRONMENT = {
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_LITERAL_PATHSPECS": "1",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "GCM_INTERACTIVE": "never",
}

# Variables that would silently point every call at another repository or index.
_REDIRECTING_VARIABLES = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR",
    "GIT_NAMESPACE", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
)


class GitError(Exception):
    """A git call that could not give an answer; `kind` says why."""

    kind = "error"

    def __init__(self, message: str, stderr: str = "", status: Optional[int] = None) -> None:
        super().__init__(message)
        self.stderr = stderr
        self.status = status


class GitNotInstalled(GitError):
    kind = "no-git"


class GitTimedOut(GitError):
    kind = "timeout"


class GitFailed(GitError):
    kind = "failed"


@dataclass(frozen=True)
class GitResult:
    status: int
    stdout: bytes
    stderr: str
    truncated: bool = False
    total_bytes: int = 0

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", "replace")


class _CappedSink:
    """Keeps the first `limit` bytes of a stream and counts (but drops) the rest, so a huge diff
    costs time (bounded by the timeout) but never memory."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: List[bytes] = []
        self.kept = 0
        self.total = 0

    def write(self, data: bytes) -> int:
        self.total += len(data)
        room = self.limit - self.kept
        if room > 0:
            piece = data[:room]
            self.parts.append(piece)
            self.kept += len(piece)
        return len(data)

    def flush(self) -> None:
        pass

    def value(self) -> bytes:
        return b"".join(self.parts)


_import_lock = threading.Lock()
_git_class: Any = None


def _load_git_class() -> Any:
    """Imports GitPython on first use (~200 ms), so the first panel is drawn before it."""
    global _git_class
    with _import_lock:
        if _git_class is None:
            # Without this, `import git` raises ImportError when no git binary is on PATH;
            # we want a clear "git is not installed" state from the first call instead.
            os.environ.setdefault("GIT_PYTHON_REFRESH", "quiet")
            from git.cmd import Git

            _git_class = Git
        return _git_class


def scrub_redirecting_environment() -> None:
    """Drops GIT_DIR and friends inherited from the user's shell (they would override `-C`)."""
    for name in _REDIRECTING_VARIABLES:
        os.environ.pop(name, None)


def _decode(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


class GitRunner:
    """Runs `git -C <folder> <forced -c options> <args>` with a timeout and the safe environment.

    No GitPython `Repo` object is ever created, so no persistent `git cat-file` processes exist.
    """

    def __init__(self, timeout: float = DEFAULT_TIMEOUT_SECONDS, executable: Optional[str] = None) -> None:
        self.timeout = timeout
        self.executable = executable
        self.calls = 0
        scrub_redirecting_environment()

    def command_line(self, cwd: str, args: Sequence[str], extra_config: Sequence[Tuple[str, str]] = ()) -> List[str]:
        executable = self.executable or _load_git_class().GIT_PYTHON_GIT_EXECUTABLE or "git"
        command = [executable, "--no-pager", "--no-optional-locks", "-C", cwd]
        for key, value in tuple(FORCED_CONFIG) + tuple(extra_config):
            command += ["-c", f"{key}={value}"]
        command.extend(args)
        return command

    def run(
        self,
        cwd: str,
        args: Sequence[str],
        *,
        extra_config: Sequence[Tuple[str, str]] = (),
        ok_statuses: Sequence[int] = (0,),
        max_bytes: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> GitResult:
        """Runs one git command; raises GitNotInstalled, GitTimedOut or GitFailed."""
        git_class = _load_git_class()
        cwd = os.path.abspath(cwd)  # `-C` is applied inside the working dir: it must not be relative
        # GitPython falls back to the plugin's own folder when the working dir is missing;
        # refuse instead, or a deleted repository would silently show some other repository.
        if not os.path.isdir(cwd):
            raise GitFailed(f"folder not found: {cwd}", stderr="folder not found", status=None)
        command = self.command_line(cwd, args, extra_config)
        limit = timeout if timeout is not None else self.timeout
        sink = _CappedSink(max_bytes) if max_bytes is not None else None
        self.calls += 1
        try:
            from git.exc import GitCommandNotFound
        except ImportError:  # pragma: no cover - GitPython always has it
            GitCommandNotFound = OSError  # type: ignore[misc,assignment]
        try:
            status, stdout, stderr = git_class(cwd).execute(
                command,
                with_extended_output=True,
                with_exceptions=False,
                stdout_as_string=False,
                strip_newline_in_stdout=False,
                kill_after_timeout=limit,
                output_stream=sink,
                env=FORCED_ENVIRONMENT,
            )
        except GitCommandNotFound as error:
            raise GitNotInstalled(f"git was not found ({command[0]})", stderr=str(error)) from error
        except OSError as error:
            raise GitNotInstalled(f"git could not be started: {error}", stderr=str(error)) from error
        stderr_text = _decode(stderr)
        if stderr_text.startswith("Timeout:") or status == -9:
            raise GitTimedOut(f"git {args[0] if args else ''} took longer than {limit:g} s", stderr_text, status)
        if sink is not None:
            body, truncated, total = sink.value(), sink.total > sink.kept, sink.total
        else:
            body = stdout if isinstance(stdout, bytes) else _decode(stdout).encode()
            truncated, total = False, len(body)
        if status not in ok_statuses:
            raise GitFailed(stderr_text.strip() or f"git exited with {status}", stderr_text, status)
        return GitResult(status=status, stdout=body, stderr=stderr_text, truncated=truncated, total_bytes=total)
