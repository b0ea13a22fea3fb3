"""git-status's git calls: the runtime's safe runner (`agentty_plugin.git`), its states raised as GitError kinds.

Everything that makes a call safe in a repository nobody vetted (no program the repository names
ever runs, no optional locks, no prompts, a timeout) lives in the runtime, shared by every plugin.
This module only turns a result that is not `ok` into the exception the readers here expect.
"""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

from agentty_plugin.git import DEFAULT_TIMEOUT, GitResult, SafeGit

from .repo_config import UnsafeRepositoryConfig

DEFAULT_TIMEOUT_SECONDS = DEFAULT_TIMEOUT

__all__ = ["GitError", "GitFailed", "GitNotInstalled", "GitResult", "GitRunner", "GitTimedOut"]


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


class GitRunner:
    """`SafeGit.run` for the readers: returns the result when it is `ok`, raises a GitError otherwise."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT_SECONDS, executable: Optional[str] = None) -> None:
        self.timeout = timeout
        self.git = SafeGit(timeout=timeout, executable=executable)

    @property
    def calls(self) -> int:
        return self.git.calls

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
        result = self.git.run(cwd, args, extra_config=extra_config, ok_statuses=ok_statuses, max_bytes=max_bytes,
                              timeout=timeout)
        if result.ok:
            return result
        if result.state == "unsafe-config":
            raise UnsafeRepositoryConfig(result.stderr)
        if result.state == "no-git":
            raise GitNotInstalled(result.stderr, result.stderr)
        if result.state in ("timeout", "cancelled"):
            limit = timeout if timeout is not None else self.timeout
            raise GitTimedOut(f"git {args[0] if args else ''} took longer than {limit:g} s", result.stderr,
                              result.status)
        if result.state == "gone":
            raise GitFailed(result.stderr, stderr="folder not found")
        raise GitFailed(result.stderr.strip() or f"git exited with {result.status}", result.stderr, result.status)
