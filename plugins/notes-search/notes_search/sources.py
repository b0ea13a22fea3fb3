"""Finds notes folders and walks them safely: hidden folders skipped, no symlinks out of a root,
oversized and binary files counted instead of read."""

import json
import os
import stat
from typing import Dict, Iterable, List, NamedTuple, Optional, Set, Tuple

NOTE_EXTENSIONS = (".md", ".markdown", ".mdown", ".txt")
DEFAULT_MAX_NOTE_BYTES = 2 * 1024 * 1024
DEFAULT_MAX_FILES = 100_000
MAX_DEPTH = 24
# Folders that hold tooling, not notes. Dot-folders (.git, .obsidian, .trash) are skipped by rule.
SKIPPED_FOLDERS = {"node_modules", "__pycache__"}


class FileStat(NamedTuple):
    """A note file as the scan found it (a tuple: a scan makes one per file, 10,000s of them)."""

    path: str
    root: str
    mtime_ns: int
    size: int


class ScanResult:
    """What a scan found: the note files by path and the counts of what it left out."""

    def __init__(self) -> None:
        # A plain class, not a dataclass: settings.py imports this module before the first panel, and
        # `dataclasses` costs that panel about 10 ms to import (bench_runtime "First panel").
        self.files: Dict[str, FileStat] = {}
        self.too_large = 0
        self.too_many = 0
        self.missing_roots: List[str] = []
        self.unreadable_folders = 0


def expand(path: str) -> str:
    return os.path.abspath(os.path.expanduser(os.path.expandvars(path.strip())))


def is_inside(path: str, root: str) -> bool:
    """True when `path` is `root` or below it (both already resolved)."""
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # different drives on Windows
        return False


def _cosmica_notes(home: str, environ: Dict[str, str]) -> List[str]:
    base = environ.get("COSMICA_HOME") or os.path.join(home, ".cosmica")
    config_path = os.path.join(base, "config.json")
    try:
        with open(config_path, encoding="utf-8") as handle:
            config = json.load(handle)
        notes = config.get("notes", {}).get("path") if isinstance(config, dict) else None
        if isinstance(notes, str) and notes.strip():
            return [os.path.expanduser(notes.strip())]
    except (OSError, ValueError, AttributeError):
        pass
    return [os.path.join(home, "CosmicaNotes", "Note")]


def _obsidian_vaults(home: str) -> List[str]:
    """Vaults listed in Obsidian's obsidian.json (macOS and Linux locations)."""
    found: List[str] = []
    for config_dir in (
        os.path.join(home, "Library", "Application Support", "obsidian"),
        os.path.join(home, ".config", "obsidian"),
    ):
        try:
            with open(os.path.join(config_dir, "obsidian.json"), encoding="utf-8") as handle:
                vaults = json.load(handle).get("vaults", {})
            found.extend(
                v["path"] for v in vaults.values() if isinstance(v, dict) and isinstance(v.get("path"), str)
            )
        except (OSError, ValueError, AttributeError, TypeError):
            continue
    return found


def detect_roots(home: Optional[str] = None, environ: Optional[Dict[str, str]] = None) -> List[str]:
    """Notes folders that exist on this machine: Cosmica's notes, Obsidian vaults, ~/Notes."""
    home = home or os.path.expanduser("~")
    environ = dict(os.environ) if environ is None else environ
    candidates = _cosmica_notes(home, environ) + _obsidian_vaults(home)
    candidates += [
        os.path.join(home, name) for name in ("Notes", "notes", os.path.join("Documents", "Notes"))
    ]
    roots: List[str] = []
    seen: Set[str] = set()
    for candidate in candidates:
        path = expand(candidate)
        real = os.path.realpath(path)
        if os.path.isdir(path) and real not in seen:
            seen.add(real)
            roots.append(path)
    return roots


def scan_roots(
    roots: Iterable[str],
    max_note_bytes: int = DEFAULT_MAX_NOTE_BYTES,
    max_files: int = DEFAULT_MAX_FILES,
) -> ScanResult:
    """Stat every note file under the roots (no file is opened here)."""
    result = ScanResult()
    seen_files: Set[Tuple[int, int]] = set()
    for root in roots:
        root = expand(root)
        if not os.path.isdir(root):
            result.missing_roots.append(root)
            continue
        _walk_root(root, result, seen_files, max_note_bytes, max_files)
    return result


def _walk_root(
    root: str, result: ScanResult, seen_files: Set[Tuple[int, int]], max_note_bytes: int, max_files: int
) -> None:
    real_root = os.path.realpath(root)
    visited_dirs: Set[Tuple[int, int]] = set()
    stack: List[Tuple[str, int]] = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            folder_stat = os.stat(folder)
            key = (folder_stat.st_dev, folder_stat.st_ino)
            if key in visited_dirs:  # a symlink loop or a second link to the same folder
                continue
            visited_dirs.add(key)
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            result.unreadable_folders += 1
            continue
        for entry in entries:
            name = entry.name
            if name.startswith(".") or name in SKIPPED_FOLDERS:
                continue
            try:
                is_link = entry.is_symlink()
                if is_link and not is_inside(os.path.realpath(entry.path), real_root):
                    # Never leave the configured root through a link: the user chose what to expose.
                    continue
                if entry.is_dir():
                    if depth + 1 <= MAX_DEPTH:
                        stack.append((entry.path, depth + 1))
                    continue
                if not name.lower().endswith(NOTE_EXTENSIONS) or not entry.is_file():
                    continue
                info = entry.stat()
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode):
                continue
            identity = (info.st_dev, info.st_ino)  # the same file reached twice (hard or soft link)
            if identity in seen_files:
                continue
            seen_files.add(identity)
            if info.st_size > max_note_bytes:
                result.too_large += 1
                continue
            if len(result.files) >= max_files:
                result.too_many += 1
                continue
            result.files[entry.path] = FileStat(entry.path, root, info.st_mtime_ns, info.st_size)
