"""The empty query's first rows: notes about what the focused pane works on (its repository or folder)."""

from typing import List, Optional

from .engines.base import SearchEngine
from .focus import focus_of
from .notes import NoteRecord
from .query import parse_query
from .ranking import STEM, naming_fields_match

RELATED_LIMIT = 10  # the rest of the list stays the most recent notes
_CANDIDATES = 40


def related_notes(engine: SearchEngine, cwd: Optional[str], limit: int) -> List[NoteRecord]:
    """Notes whose front matter cwd/project is the pane's repository or folder (newest first), then those
    whose file name, alias, title, folder or tags name it (newest first); a body mention is not enough."""
    focus = focus_of(cwd)
    if focus is None or limit <= 0:
        return []
    found = engine.related(list(focus.keys), limit)
    seen = {record.path for record in found}
    named: List[NoteRecord] = []
    for name in focus.names:
        query = parse_query(f'"{name}" ')
        if query.is_empty:
            continue
        for hit in engine.search(query, _CANDIDATES):
            if hit.record.path not in seen and naming_fields_match(query, hit.record) >= STEM:
                seen.add(hit.record.path)
                named.append(hit.record)
    named.sort(key=lambda record: (-record.mtime_ns, record.path))
    return (found + named)[:limit]
