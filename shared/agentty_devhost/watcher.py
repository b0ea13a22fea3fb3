"""Notices when a plugin's files change, so the dev host can restart it (polling: no extra dependency)."""

from __future__ import annotations

import os
from typing import Dict, Iterable, List, Tuple

# Folders whose contents never change what the plugin does (caches, VCS data, generated output).
IGNORED_FOLDERS = {"__pycache__", "node_modules", "dist", "build"}
WATCHED_SUFFIXES = (".py", ".json", ".md", ".toml", ".txt", ".mjs", ".js")
# A plugin folder with more files than this is not a plugin folder (e.g. a home folder given by mistake).
MAX_FILES = 5000

Fingerprint = Dict[str, Tuple[int, int]]


def fingerprint(folders: Iterable[str]) -> Fingerprint:
    """(mtime, size) of every watched file under the folders; hidden folders and caches are skipped."""
    seen: Fingerprint = {}
    for folder in folders:
        for base, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in IGNORED_FOLDERS)
            for name in files:
                if not name.endswith(WATCHED_SUFFIXES) or name.startswith("."):
                    continue
                path = os.path.join(base, name)
                try:
                    info = os.stat(path)
                except OSError:
                    continue
                seen[path] = (info.st_mtime_ns, info.st_size)
                if len(seen) >= MAX_FILES:
                    return seen
    return seen


def changed_files(before: Fingerprint, after: Fingerprint) -> List[str]:
    """Paths added, removed or modified between two fingerprints, sorted."""
    return sorted(path for path in set(before) | set(after) if before.get(path) != after.get(path))
