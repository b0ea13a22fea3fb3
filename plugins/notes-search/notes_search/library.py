"""The notes library: one engine, the configured folders, refresh, search with snippets and typo
correction, and safe opening of notes. This is what main.py talks to."""

import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence, Tuple

from .engines import open_engine
from .fuzzy import correct_query
from .indexer import ProgressCallback, RefreshReport, refresh_index
from .notes import NoteRecord, UnreadableNote, decode_note, note_body
from .query import ParsedQuery, parse_query
from .safety import OpenedNote, open_note
from .settings import Settings
from .snippets import PreparedText, make_snippet

DEFAULT_LIMIT = 30
_BODY_CACHE_SIZE = 120  # prepared note bodies kept for snippets (a few MB at most)


@dataclass(frozen=True)
class ResultItem:
    record: NoteRecord
    snippet: str
    score: float = 0.0


@dataclass(frozen=True)
class SearchOutcome:
    query: ParsedQuery
    items: List[ResultItem]
    mode: str  # "recent" (empty query) or "search"
    corrections: List[Tuple[str, str]] = field(default_factory=list)  # (typed, searched instead)
    elapsed_ms: float = 0.0


class NotesLibrary:
    def __init__(self, data_dir: str, settings: Settings, roots: Optional[Sequence[str]] = None) -> None:
        self.index_root = os.path.join(data_dir, "index")
        self.settings = settings
        self.roots: List[str] = list(roots) if roots is not None else settings.effective_roots()
        self._engine_lock = threading.RLock()
        self._refresh_lock = threading.Lock()
        self.engine, self.fell_back = open_engine(settings.engine, self.index_root)
        self.last_report: Optional[RefreshReport] = None
        self._bodies: OrderedDict[Tuple[str, int, int], PreparedText] = OrderedDict()
        self._cache_lock = threading.Lock()

    @property
    def engine_name(self) -> str:
        return self.engine.name

    def set_roots(self, roots: Sequence[str]) -> None:
        self.roots = list(roots)

    def switch_engine(self, preference: str) -> None:
        with self._engine_lock, self._refresh_lock:
            self.engine.close()
            self.engine, self.fell_back = open_engine(preference, self.index_root)

    def refresh(
        self,
        progress: Optional[ProgressCallback] = None,
        should_stop: Optional[Callable[[], bool]] = None,
        rebuild: bool = False,
    ) -> Optional[RefreshReport]:
        """Update the index; returns None if a refresh is already running (it will pick changes up)."""
        if not self._refresh_lock.acquire(blocking=False):
            return None
        try:
            if rebuild:
                self.engine.clear()
            report = refresh_index(
                self.engine,
                self.roots,
                self.settings.max_note_bytes,
                progress=progress,
                should_stop=should_stop,
            )
            self.last_report = report
            return report
        finally:
            self._refresh_lock.release()

    @property
    def is_refreshing(self) -> bool:
        return self._refresh_lock.locked()

    def count(self) -> int:
        return self.engine.count()

    def _prepared(self, record: NoteRecord) -> PreparedText:
        """The note's body ready for snippets; cached by path, mtime and size while typing refines a query."""
        key = (record.path, record.mtime_ns, record.size)
        with self._cache_lock:
            cached = self._bodies.get(key)
            if cached is not None:
                self._bodies.move_to_end(key)
                return cached
        with open(record.path, "rb") as handle:
            raw = handle.read(self.settings.max_note_bytes)
        body = note_body(decode_note(raw))
        first_line, _, rest = body.partition("\n")
        if first_line.startswith("# ") and first_line[2:].strip() == record.title:
            body = rest  # the title is already shown above the excerpt
        prepared = PreparedText(body)
        with self._cache_lock:
            self._bodies[key] = prepared
            while len(self._bodies) > _BODY_CACHE_SIZE:
                self._bodies.popitem(last=False)
        return prepared

    def _excerpt(self, record: NoteRecord, query: ParsedQuery) -> str:
        if record.locked:
            return ""  # locked notes never show their text
        try:
            return make_snippet(self._prepared(record), query.terms)
        except (OSError, UnreadableNote):
            return ""

    def search(self, text: str, limit: int = DEFAULT_LIMIT) -> SearchOutcome:
        started = time.perf_counter()
        query = parse_query(text)
        engine = self.engine
        if query.is_empty:
            records = engine.recent(query, limit)
            items = [ResultItem(r, self._excerpt(r, query)) for r in records]
            return SearchOutcome(query, items, "recent", elapsed_ms=(time.perf_counter() - started) * 1000)
        hits = engine.search(query, limit)
        corrections: List[Tuple[str, str]] = []
        if not hits:
            corrected = correct_query(engine, query)
            if corrected is not None:
                query, corrections = corrected
                hits = engine.search(query, limit)
        items = [ResultItem(h.record, self._excerpt(h.record, query), h.score) for h in hits]
        return SearchOutcome(query, items, "search", corrections, (time.perf_counter() - started) * 1000)

    def open(self, path: str, allow_locked: bool = False) -> OpenedNote:
        return open_note(path, self.roots, self.settings.max_note_bytes, allow_locked=allow_locked)

    def close(self) -> None:
        self.engine.close()
