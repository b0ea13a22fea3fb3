"""Tells which multi-step git operation (merge, rebase, cherry-pick, revert, bisect, am) is in progress."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Operation:
    kind: str  # merge | rebase | am | cherry-pick | revert | bisect
    step: Optional[int] = None  # rebase/am: the patch being applied
    total: Optional[int] = None
    onto: Optional[str] = None  # rebase: the branch being rebased (head-name)


def _read_int(path: str) -> Optional[int]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return int(handle.read(32).strip())
    except (OSError, ValueError):
        return None


def _read_line(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            value = handle.readline(4096).strip()
    except OSError:
        return None
    return value[len("refs/heads/"):] if value.startswith("refs/heads/") else (value or None)


def detect_operation(git_dir: str) -> Optional[Operation]:
    """Reads the marker files git leaves in the per-worktree git dir (no git process needed).

    The order matters: a conflicted cherry-pick during a rebase is reported as the rebase, which
    is what the user has to finish.
    """
    merge_dir = os.path.join(git_dir, "rebase-merge")
    if os.path.isdir(merge_dir):
        return Operation(
            "rebase",
            _read_int(os.path.join(merge_dir, "msgnum")),
            _read_int(os.path.join(merge_dir, "end")),
            _read_line(os.path.join(merge_dir, "head-name")),
        )
    apply_dir = os.path.join(git_dir, "rebase-apply")
    if os.path.isdir(apply_dir):
        kind = "am" if os.path.exists(os.path.join(apply_dir, "applying")) else "rebase"
        return Operation(
            kind,
            _read_int(os.path.join(apply_dir, "next")),
            _read_int(os.path.join(apply_dir, "last")),
            _read_line(os.path.join(apply_dir, "head-name")),
        )
    for marker, kind in (
        ("MERGE_HEAD", "merge"),
        ("CHERRY_PICK_HEAD", "cherry-pick"),
        ("REVERT_HEAD", "revert"),
        ("BISECT_LOG", "bisect"),
    ):
        if os.path.exists(os.path.join(git_dir, marker)):
            return Operation(kind)
    return None
