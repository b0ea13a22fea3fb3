"""Finds program-running settings in a repository's own config files, so each call can switch them off."""

from __future__ import annotations

import os
import re
from typing import Iterable, List, Set, Tuple

# `[filter "lfs"]` and the old `[filter.lfs]` spelling. A filter's `clean` program runs whenever
# git re-reads a work-tree file (status on a racy entry, every diff); `process` is a long-running
# one. These cannot be switched off with one fixed `-c` option because each driver has its own name.
_SECTION = re.compile(r'^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]')
_INCLUDE_PATH = re.compile(r"^\s*path\s*=\s*(.+?)\s*$", re.IGNORECASE)
_MAX_FILES = 64
_MAX_BYTES = 1_000_000


def _filter_names_in(path: str, seen: Set[str], names: Set[str], depth: int = 0) -> None:
    real = os.path.realpath(path)
    if depth > 8 or real in seen or len(seen) >= _MAX_FILES:
        return
    seen.add(real)
    try:
        with open(real, "rb") as handle:
            content = handle.read(_MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return
    section = ""
    for line in content.splitlines():
        header = _SECTION.match(line)
        if header:
            name, subsection = header.group(1).lower(), header.group(2)
            section = f"{name}.{subsection}" if subsection is not None else name
            if section.startswith("filter.") and len(section) > len("filter."):
                names.add(section[len("filter."):])
            continue
        # Included files are repository-controlled too when the include sits in a repo config.
        if section == "include" or section.startswith("includeif."):
            included = _INCLUDE_PATH.match(line)
            if included:
                target = os.path.expanduser(included.group(1).strip().strip('"'))
                if not os.path.isabs(target):
                    target = os.path.join(os.path.dirname(real), target)
                _filter_names_in(target, seen, names, depth + 1)


def _submodule_configs(common_dir: str) -> Iterable[str]:
    """Config files of submodules (`<git dir>/modules/**/config`): git status runs inside them."""
    modules = os.path.join(common_dir, "modules")
    if not os.path.isdir(modules):
        return []
    found: List[str] = []
    for root, dirs, files in os.walk(modules):
        # A submodule git dir holds objects/ and refs/; don't descend into those.
        dirs[:] = [d for d in dirs if d not in ("objects", "refs", "logs", "hooks", "info")]
        if "config" in files:
            found.append(os.path.join(root, "config"))
        if len(found) >= _MAX_FILES:
            break
    return found


def repository_filter_names(git_dir: str, common_dir: str) -> List[str]:
    """Names of filter drivers defined by the repository (not by the user's own global config)."""
    candidates = [
        os.path.join(common_dir, "config"),
        os.path.join(git_dir, "config.worktree"),
        os.path.join(common_dir, "config.worktree"),
    ]
    candidates.extend(_submodule_configs(common_dir))
    seen: Set[str] = set()
    names: Set[str] = set()
    for path in candidates:
        _filter_names_in(path, seen, names)
    return sorted(names)


class UnsafeRepositoryConfig(Exception):
    """The repository defines a program we cannot switch off with `-c`; we refuse to read it."""


def neutralizing_config(git_dir: str, common_dir: str) -> List[Tuple[str, str]]:
    """`-c` pairs that empty every repository-defined filter program (an empty command runs nothing)."""
    pairs: List[Tuple[str, str]] = []
    for name in repository_filter_names(git_dir, common_dir):
        # `-c key=value` splits at the first "=": a driver named "a=b" could not be overridden.
        if "=" in name or "\n" in name or "\0" in name:
            raise UnsafeRepositoryConfig(f"filter driver {name!r} cannot be disabled safely")
        for key in ("clean", "smudge", "process"):
            pairs.append((f"filter.{name}.{key}", ""))
        pairs.append((f"filter.{name}.required", "false"))
    return pairs
