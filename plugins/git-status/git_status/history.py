"""Reads the last commits and the stash count of a repository."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import List

from .location import RepoLocation
from .runner import GitRunner

_FIELD = "\x1f"
# %H full sha, %h short, %ct commit time, %an author, %s subject. -z ends each commit with NUL.
_LOG_FORMAT = "--format=%H%x1f%h%x1f%ct%x1f%an%x1f%s"
_SHA = re.compile(r"^[0-9a-fA-F]{4,64}$")


@dataclass(frozen=True)
class Commit:
    sha: str
    short: str
    timestamp: int
    author: str
    subject: str


def is_commit_id(value: object) -> bool:
    """Only hex ids are passed on to git: a value like `--output=x` must never become an option."""
    return isinstance(value, str) and bool(_SHA.match(value))


def parse_log(output: bytes) -> List[Commit]:
    commits = []
    for record in output.split(b"\0"):
        fields = record.decode("utf-8", "replace").strip("\n").split(_FIELD)
        if len(fields) != 5 or not is_commit_id(fields[0]):
            continue
        try:
            timestamp = int(fields[2])
        except ValueError:
            timestamp = 0
        commits.append(Commit(fields[0], fields[1], timestamp, fields[3], fields[4]))
    return commits


def recent_commits(location: RepoLocation, runner: GitRunner, count: int = 5) -> List[Commit]:
    """The newest `count` commits reachable from HEAD (callers skip this before the first commit)."""
    result = runner.run(
        location.root,
        ["log", "-z", f"--max-count={count}", "--no-show-signature", "--no-color", _LOG_FORMAT, "HEAD", "--"],
    )
    return parse_log(result.stdout)


def stash_count(location: RepoLocation) -> int:
    """Entries of the stash reflog, read from the file (no git process): one line per stash."""
    reflog = os.path.join(location.common_dir, "logs", "refs", "stash")
    try:
        with open(reflog, "rb") as handle:
            return sum(1 for line in handle if line.strip())
    except OSError:
        return 0
