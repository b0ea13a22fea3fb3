"""What the focused pane is working on (its folder, the git repository around it), as keys that notes'
front matter cwd/project, folder, title or tags can name: for the empty query's "related notes first"."""

import os
from functools import lru_cache
from typing import Iterable, List, NamedTuple, Optional, Tuple

from .tokens import fold


class Focus(NamedTuple):
    names: Tuple[str, ...]  # the repository's and the folder's names, as written ("agentty-plugins")
    keys: Tuple[str, ...]  # folded names and paths a note's context may equal


def _normal_path(path: str) -> str:
    return fold(os.path.normpath(os.path.expanduser(path))).rstrip("/\\")


def context_keys(values: Iterable[str]) -> List[str]:
    """Keys of front matter cwd/project values: a path gives itself and its last folder's name."""
    keys: List[str] = []
    for value in values:
        value = value.strip()
        if not value:
            continue
        if "/" in value or "\\" in value or value.startswith("~"):
            path = _normal_path(value)
            candidates = [path, os.path.basename(path.replace("\\", "/"))]
        else:
            candidates = [fold(value)]
        keys.extend(key for key in candidates if key and key not in keys)
    return keys


@lru_cache(maxsize=64)
def _repository_root(folder: str) -> Optional[str]:
    # The runtime's one capped walk up to `.git` (folders, `gitdir:` files, symlinks), as every plugin
    # finds it; imported here, since the git module brings subprocess with it and the first panel needs neither.
    from agentty_plugin.git import find_repository

    found = find_repository(folder)
    return found.root if found is not None else None


def focus_of(cwd: Optional[str]) -> Optional[Focus]:
    """The focus of a pane working in `cwd`, or None (no folder, or the file system root or home)."""
    if not cwd or not os.path.isabs(cwd):
        return None
    folder = os.path.normpath(cwd)
    if folder in (os.path.sep, os.path.expanduser("~")):
        return None
    root = _repository_root(folder)
    names: List[str] = []
    keys: List[str] = []
    for path in (root, folder):
        if path:
            name = os.path.basename(path)
            if name and name not in names:
                names.append(name)
            keys.extend(key for key in (_normal_path(path), fold(name)) if key and key not in keys)
    return Focus(tuple(names), tuple(keys)) if names else None
