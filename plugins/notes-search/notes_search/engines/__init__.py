"""Search engines behind one interface; open_engine() picks SQLite FTS5 when this Python has it."""

import os
from typing import Tuple

from .base import EngineHit, FileState, IndexBusy, IndexCorrupt, SearchEngine

__all__ = [
    "EngineHit",
    "EngineUnavailable",
    "FileState",
    "IndexBusy",
    "IndexCorrupt",
    "SearchEngine",
    "open_engine",
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
    except IndexCorrupt:
        # whoosh cannot repair a damaged index: start a new one (the notes themselves are untouched).
        import shutil

        shutil.rmtree(directory, ignore_errors=True)
        return WhooshEngine(directory), fell_back
