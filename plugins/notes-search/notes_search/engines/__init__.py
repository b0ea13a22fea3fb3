"""Search engines behind one interface; open_engine() picks SQLite FTS5 when this Python has it."""

import os
from typing import Tuple

from .base import EngineHit, FileState, IndexBusy, IndexCorrupt, IndexUnwritable, SearchEngine, os_reason

__all__ = [
    "EngineHit",
    "EngineUnavailable",
    "FileState",
    "IndexBusy",
    "IndexCorrupt",
    "IndexUnwritable",
    "SearchEngine",
    "discard_index",
    "open_engine",
    "os_reason",
]


class EngineUnavailable(Exception):
    """Neither engine can run here (no FTS5 in SQLite and whoosh is not installed)."""


def choose_engine(preference: str) -> Tuple[str, bool]:
    """(engine name, fell_back) for a setting of auto/sqlite/whoosh."""
    from .sqlite_fts import fts5_available
    from .whoosh_engine import whoosh_available

    if preference == "whoosh":
        if whoosh_available():
            return "whoosh", False
        if fts5_available():
            return "sqlite", True
        raise EngineUnavailable("whoosh")
    if fts5_available():
        return "sqlite", False
    if whoosh_available():
        return "whoosh", preference == "sqlite"
    raise EngineUnavailable("sqlite")


def open_engine(preference: str, index_root: str) -> Tuple[SearchEngine, bool]:
    """Open (or create) the index for the chosen engine under index_root/<engine>/."""
    name, fell_back = choose_engine(preference)
    directory = os.path.join(index_root, name)
    if name == "sqlite":
        from .sqlite_fts import SqliteEngine

        return SqliteEngine(directory), fell_back
    from .whoosh_engine import WhooshEngine

    try:
        return WhooshEngine(directory), fell_back
    except IndexCorrupt as error:
        # whoosh cannot repair a damaged index: keep it aside and start a new one (notes are untouched).
        discard_index(name, index_root, keep=True)
        engine = WhooshEngine(directory)
        engine.moved_aside = str(error)
        return engine, fell_back


def discard_index(name: str, index_root: str, keep: bool) -> None:
    """Throw an engine's index away (a rebuild), or with `keep` move it aside (damage); raises
    IndexUnwritable when the folder cannot be changed."""
    directory = os.path.join(index_root, name)
    try:
        if name == "sqlite":
            from .sqlite_fts import discard
        else:
            from .whoosh_engine import discard
        if os.path.isdir(directory):
            discard(directory, keep)
    except OSError as error:
        raise IndexUnwritable(os_reason(error), directory, str(error)) from error
