"""Cheap change detection: stat a few git metadata files instead of running a full status."""

from __future__ import annotations

import os
from typing import List, Tuple

from .location import RepoLocation

Fingerprint = Tuple[Tuple[str, int, int], ...]

# Per-worktree files: the index changes on add/commit/checkout, HEAD on checkout, the rest mark
# operations in progress.
_WORKTREE_FILES = ("index", "HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "BISECT_LOG",
                   "rebase-merge", "rebase-apply")
# Shared files: branch tips (loose refs are replaced by rename, which touches their folder),
# packed refs, the stash reflog.
_COMMON_FILES = ("packed-refs", os.path.join("logs", "refs", "stash"), os.path.join("refs", "stash"))
_REF_FOLDERS = (os.path.join("refs", "heads"), os.path.join("refs", "remotes"), os.path.join("refs", "tags"))
_MAX_FOLDERS = 256


def _stamp(path: str) -> Tuple[str, int, int]:
    try:
        info = os.stat(path)
    except OSError:
        return (path, -1, -1)
    return (path, info.st_mtime_ns, info.st_size)


def fingerprint(location: RepoLocation) -> Fingerprint:
    """Changes whenever git metadata or the work-tree root's entries change.

    Edits inside existing files leave these untouched; the poller also does a slower full
    refresh for that case.
    """
    stamps: List[Tuple[str, int, int]] = [_stamp(location.root)]
    stamps += [_stamp(os.path.join(location.git_dir, name)) for name in _WORKTREE_FILES]
    stamps += [_stamp(os.path.join(location.common_dir, name)) for name in _COMMON_FILES]
    folders = 0
    for top in _REF_FOLDERS:
        for current, dirs, _files in os.walk(os.path.join(location.common_dir, top)):
            stamps.append(_stamp(current))
            folders += 1
            if folders >= _MAX_FOLDERS:
                dirs[:] = []
                break
    return tuple(stamps)
