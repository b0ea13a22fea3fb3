"""Parses `git status --porcelain=v2 --branch -z` output into branch facts and file changes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import List, Optional

# What each two-letter code of an unmerged ("u") entry means, as `git status` words it.
CONFLICT_KINDS = {
    "DD": "both-deleted",
    "AU": "added-by-us",
    "UD": "deleted-by-them",
    "UA": "added-by-them",
    "DU": "deleted-by-us",
    "AA": "both-added",
    "UU": "both-modified",
}


class PorcelainError(ValueError):
    """The output did not look like porcelain v2 (a git older than 2.11, or garbage)."""


def display_text(raw: bytes) -> str:
    """Text for the panel: valid UTF-8 always (lone surrogates would break the JSON the host reads)."""
    return raw.decode("utf-8", "replace")


@dataclass  # not frozen: frozen dataclasses are ~2x slower to build, and a status can hold thousands
class FileChange:
    path: str  # repo-relative, decoded like the file system does (surrogateescape), for os calls
    display: str  # the same path, safe to show
    kind: str  # ordinary | renamed | copied | unmerged | untracked | ignored
    index: str = "."  # X: staged status letter, "." when unchanged
    worktree: str = "."  # Y: unstaged status letter
    orig_path: Optional[str] = None
    orig_display: Optional[str] = None
    submodule: Optional[str] = None  # "SCMU" flags when the entry is a submodule
    score: Optional[str] = None  # "R100" for a rename

    @property
    def is_staged(self) -> bool:
        return self.kind in ("ordinary", "renamed", "copied") and self.index != "."

    @property
    def is_changed(self) -> bool:
        return self.kind in ("ordinary", "renamed", "copied") and self.worktree != "."

    @property
    def conflict(self) -> Optional[str]:
        return CONFLICT_KINDS.get(self.index + self.worktree) if self.kind == "unmerged" else None

    @property
    def submodule_notes(self) -> List[str]:
        """What changed inside a submodule: commit, modified (tracked) content, untracked content."""
        if not self.submodule or len(self.submodule) != 4:
            return []
        notes = []
        for flag, note in zip(self.submodule[1:], ("commit", "modified", "untracked")):
            if flag != ".":
                notes.append(note)
        return notes


@dataclass
class BranchInfo:
    oid: Optional[str] = None  # None before the first commit
    head: Optional[str] = None  # None when detached
    upstream: Optional[str] = None
    ahead: Optional[int] = None  # None when there is no upstream or it is gone
    behind: Optional[int] = None
    stash: Optional[int] = None  # only with --show-stash

    @property
    def detached(self) -> bool:
        return self.head is None and self.oid is not None

    @property
    def unborn(self) -> bool:
        return self.oid is None

    @property
    def upstream_gone(self) -> bool:
        return self.upstream is not None and self.ahead is None


@dataclass
class StatusReport:
    branch: BranchInfo = field(default_factory=BranchInfo)
    files: List[FileChange] = field(default_factory=list)

    @property
    def conflicted(self) -> List[FileChange]:
        return [f for f in self.files if f.kind == "unmerged"]

    @property
    def staged(self) -> List[FileChange]:
        return [f for f in self.files if f.is_staged]

    @property
    def changed(self) -> List[FileChange]:
        return [f for f in self.files if f.is_changed]

    @property
    def untracked(self) -> List[FileChange]:
        return [f for f in self.files if f.kind == "untracked"]

    @property
    def dirty_count(self) -> int:
        """Files that differ in any way (each path once), the number the badge shows."""
        return sum(1 for f in self.files if f.kind != "ignored")


def _header(report: StatusReport, line: str) -> None:
    key, _, value = line[2:].partition(" ")
    branch = report.branch
    if key == "branch.oid":
        branch.oid = None if value == "(initial)" else value
    elif key == "branch.head":
        branch.head = None if value == "(detached)" else value
    elif key == "branch.upstream":
        branch.upstream = value
    elif key == "branch.ab":
        parts = value.split()
        if len(parts) == 2 and parts[0][:1] == "+" and parts[1][:1] == "-":
            try:
                branch.ahead, branch.behind = int(parts[0][1:]), abs(int(parts[1][1:]))
            except ValueError as error:
                raise PorcelainError(f"bad branch.ab line: {line!r}") from error
    elif key == "stash":
        try:
            branch.stash = int(value)
        except ValueError as error:
            raise PorcelainError(f"bad stash line: {line!r}") from error
    # Unknown headers are ignored: newer git may add some.


def _split(record: bytes, count: int) -> List[bytes]:
    parts = record.split(b" ", count)
    if len(parts) != count + 1:
        raise PorcelainError(f"short status record: {record[:80]!r}")
    return parts


def _submodule_flags(raw: bytes) -> Optional[str]:
    text = raw.decode("ascii", "replace")
    return text if text.startswith("S") else None


def parse_status(output: bytes) -> StatusReport:
    """Parses NUL-separated porcelain v2 records. Paths are raw bytes in -z mode (never quoted)."""
    report = StatusReport()
    records = output.split(b"\0")
    position = 0
    while position < len(records):
        record = records[position]
        position += 1
        if not record:
            continue
        marker = record[:2]
        if marker == b"# ":
            _header(report, record.decode("utf-8", "replace"))
        elif marker == b"1 ":
            _, xy, sub, _mh, _mi, _mw, _hh, _hi, path = _split(record, 8)
            report.files.append(_change("ordinary", xy, sub, path))
        elif marker == b"2 ":
            _, xy, sub, _mh, _mi, _mw, _hh, _hi, score, path = _split(record, 9)
            if position >= len(records):
                raise PorcelainError("rename record without its original path")
            original = records[position]
            position += 1
            kind = "copied" if score[:1] == b"C" else "renamed"
            report.files.append(_change(kind, xy, sub, path, original, score.decode("ascii", "replace")))
        elif marker == b"u ":
            _, xy, sub, _m1, _m2, _m3, _mw, _h1, _h2, _h3, path = _split(record, 10)
            report.files.append(_change("unmerged", xy, sub, path))
        elif marker in (b"? ", b"! "):
            kind = "untracked" if marker == b"? " else "ignored"
            path = record[2:]
            report.files.append(FileChange(os.fsdecode(path), display_text(path), kind, "?", "?"))
        else:
            raise PorcelainError(f"unexpected status record: {record[:80]!r}")
    return report


def _change(
    kind: str, xy: bytes, sub: bytes, path: bytes, original: Optional[bytes] = None, score: Optional[str] = None
) -> FileChange:
    letters = xy.decode("ascii", "replace")
    if len(letters) != 2:
        raise PorcelainError(f"bad XY field: {xy!r}")
    return FileChange(
        path=os.fsdecode(path),
        display=display_text(path),
        kind=kind,
        index=letters[0],
        worktree=letters[1],
        orig_path=os.fsdecode(original) if original is not None else None,
        orig_display=display_text(original) if original is not None else None,
        submodule=_submodule_flags(sub),
        score=score,
    )
