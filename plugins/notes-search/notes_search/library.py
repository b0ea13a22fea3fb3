"""The notes library: one engine, the configured folders, refresh, search with snippets and typo
correction, and safe opening of notes. This is what main.py talks to."""

import os
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, List, Optional, Sequence, Tuple

from .engines import IndexUnwritable, SearchEngine, discard_index, open_engine
from .fuzzy import correct_query
from .indexer import ProgressCallback, RefreshReport, refresh_index, update_paths
from .markdown import reader_text
from .memory import release_freed_memory
from .notes import NoteRecord, UnreadableNote, decode_note, note_body
from .query import ParsedQuery, parse_query
from .related import RELATED_LIMIT, related_notes
from .safety import OpenedNote, open_note
from .settings import Settings
from .snippets import PreparedText, make_snippet

DEFAULT_LIMIT = 20  # results drawn per query: a screenful, and fewer excerpts to build per keystroke
# Prepared note bodies kept for excerpts: reading and folding a note is most of an excerpt's cost,
# and typing a word mostly reshuffles the same few hundred notes. Each holds the note's text twice
# (as written and folded) plus, for non-ASCII notes, a 4-byte offset per character.
_BODY_CACHE_SIZE = 400


class LibraryClosed(Exception):
    """The library was closed (the plugin is shutting down)."""


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


class _EngineLease:
    """One opened engine and how many calls are using it.

    Searches run on several threads while the worker may swap the engine (a settings change) or the
    plugin may shut down: the old engine is closed by whoever finishes with it last, never under a
    running search (closing it early raised "Cannot operate on a closed database").
    """

    def __init__(self, engine: SearchEngine) -> None:
        self.engine = engine
        self.users = 0
        self.retired = False


class NotesLibrary:
    def __init__(self, data_dir: str, settings: Settings, roots: Optional[Sequence[str]] = None) -> None:
        self.index_root = os.path.join(data_dir, "index")
        self.settings = settings
        self.roots: List[str] = list(roots) if roots is not None else settings.effective_roots()
        self._engine_lock = threading.Lock()  # guards the lease swap and the user counts only
        self._refresh_lock = threading.Lock()
        self._update_lock = threading.Lock()
        engine, self.fell_back = open_engine(settings.engine, self.index_root)
        self._lease: Optional[_EngineLease] = _EngineLease(engine)
        self._engine_name = engine.name
        self.last_report: Optional[RefreshReport] = None
        self._bodies: OrderedDict[Tuple[str, int, int], PreparedText] = OrderedDict()
        self._cache_lock = threading.Lock()

    @property
    def engine_name(self) -> str:
        return self._engine_name

    @property
    def engine(self) -> SearchEngine:
        """The current engine (for tests and tools; library calls borrow it through _using())."""
        lease = self._lease
        if lease is None:
            raise LibraryClosed()
        return lease.engine

    @contextmanager
    def _using(self) -> Iterator[SearchEngine]:
        """The current engine, kept open until the block ends even if it is swapped meanwhile."""
        with self._engine_lock:
            lease = self._lease
            if lease is None:
                raise LibraryClosed()
            lease.users += 1
        try:
            yield lease.engine
        except (LibraryClosed, GeneratorExit):
            raise
        except Exception as error:
            # In the caller's terms: damage (IndexCorrupt), a lock (IndexBusy) or a folder that cannot
            # be written (IndexUnwritable); anything else is raised as it is.
            problem = lease.engine.translate(error)
            if problem is None or problem is error:
                raise
            raise problem from error
        finally:
            with self._engine_lock:
                lease.users -= 1
                close_now = lease.retired and lease.users == 0
            if close_now:
                lease.engine.close()

    def _retire(self, lease: Optional[_EngineLease]) -> None:
        if lease is None:
            return
        with self._engine_lock:
            lease.retired = True
            close_now = lease.users == 0
        if close_now:
            lease.engine.close()

    def set_roots(self, roots: Sequence[str]) -> None:
        self.roots = list(roots)

    @property
    def read_only(self) -> bool:
        lease = self._lease
        return lease is not None and lease.engine.read_only

    @property
    def moved_aside(self) -> str:
        """Why the index found at open was damaged and moved aside, or ""."""
        lease = self._lease
        return lease.engine.moved_aside if lease is not None else ""

    def unwritable(self) -> "Optional[IndexUnwritable]":
        """Why the index cannot be written (opened read-only), or None."""
        lease = self._lease
        return getattr(lease.engine, "unwritable", None) if lease is not None else None

    def reset(self, damaged: bool) -> None:
        """Start over from an empty index: a damaged one is moved aside (kept for inspection), a sound one
        (Rebuild) is removed. A new file, not the old connection: a write that failed half-way, or a
        damaged page, can no longer fail the rebuild ("cannot start a transaction within a transaction")."""
        with self._refresh_lock, self._update_lock:
            with self._engine_lock:
                old, self._lease = self._lease, None
            if old is not None:
                self._retire(old)  # closed once the searches still using it are done
            name = self._engine_name
            try:
                discard_index(name, self.index_root, keep=damaged)
                engine, fell_back = open_engine(self.settings.engine, self.index_root)
            except BaseException:
                try:  # the files could not be changed: go on with the index as it is
                    engine, _ = open_engine(self.settings.engine, self.index_root)
                except Exception:
                    pass  # searches answer nothing (LibraryClosed) until a later reset succeeds
                else:
                    with self._engine_lock:
                        self._lease = _EngineLease(engine)
                raise
            with self._engine_lock:
                self._lease = _EngineLease(engine)
                self.fell_back = fell_back
                self._engine_name = engine.name
            with self._cache_lock:
                self._bodies.clear()

    def check(self) -> None:
        """Read the whole index once (engine.check); raises IndexCorrupt when some of it is damaged."""
        with self._using() as engine:
            engine.check()

    def switch_engine(self, preference: str) -> None:
        """Open the other engine first, then swap: searches never wait and never see a closed index."""
        with self._refresh_lock:  # a running refresh finishes on the engine it started with
            engine, fell_back = open_engine(preference, self.index_root)
            with self._engine_lock:
                old, self._lease = self._lease, _EngineLease(engine)
                self.fell_back = fell_back
                self._engine_name = engine.name
            self._retire(old)

    def refresh(
        self,
        progress: Optional[ProgressCallback] = None,
        should_stop: Optional[Callable[[], bool]] = None,
        rebuild: bool = False,
    ) -> Optional[RefreshReport]:
        """Update the index; returns None if a refresh is already running (it will pick changes up).
        `rebuild` starts from an empty index (reset())."""
        if rebuild:
            self.reset(damaged=False)
        if not self._refresh_lock.acquire(blocking=False):
            return None
        try:
            with self._using() as engine:
                report = refresh_index(
                    engine,
                    self.roots,
                    self.settings.max_note_bytes,
                    progress=progress,
                    should_stop=should_stop,
                )
            self.last_report = report
            return report
        finally:
            self._refresh_lock.release()

    def settle(self) -> None:
        """The engine's upkeep after a refresh (run on the worker, after the refreshed panel is out)."""
        try:
            with self._refresh_lock, self._using() as engine:
                if engine.settle():
                    release_freed_memory()  # after a first index: its batches are gone
        except LibraryClosed:
            pass  # shutting down: the next start settles what is left

    def update_paths(self, paths: Iterable[str]) -> RefreshReport:
        """Index just these files (a watcher saw them change); runs beside a refresh, never waits for one."""
        with self._update_lock, self._using() as engine:
            return update_paths(engine, self.roots, paths, self.settings.max_note_bytes)

    @property
    def is_refreshing(self) -> bool:
        return self._refresh_lock.locked()

    def count(self) -> int:
        try:
            with self._using() as engine:
                return engine.count()
        except LibraryClosed:
            return 0

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
        prepared = PreparedText(reader_text(body))  # as the reader sees it: no link syntax or marks
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

    def search(self, text: str, limit: int = DEFAULT_LIMIT, focus: Optional[str] = None) -> SearchOutcome:
        """Search; an empty query lists the notes related to `focus` (the focused pane's folder) first,
        then the most recent."""
        started = time.perf_counter()
        query = parse_query(text)
        try:
            with self._using() as engine:
                return self._search(engine, query, limit, started, focus)
        except LibraryClosed:  # shutting down: an empty answer, never an exception in a handler
            return SearchOutcome(query, [], "recent" if query.is_empty else "search")

    def _search(
        self, engine: SearchEngine, query: ParsedQuery, limit: int, started: float, focus: Optional[str] = None
    ) -> SearchOutcome:
        if query.is_empty:
            filtered = bool(query.tags or query.folders)
            related = [] if filtered else related_notes(engine, focus, min(limit, RELATED_LIMIT))
            shown = {record.path for record in related}
            records = related + [r for r in engine.recent(query, limit + len(related)) if r.path not in shown]
            items = [ResultItem(r, self._excerpt(r, query)) for r in records[:limit]]
            return SearchOutcome(query, items, "recent", elapsed_ms=(time.perf_counter() - started) * 1000)
        # A word in no note (a typo) is corrected before any search: the failed search cost as much as one.
        hits = [] if engine.matches_nothing(query) else engine.search(query, limit)
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
        """Close the index; a search still running finishes first (its engine closes after it)."""
        with self._engine_lock:
            lease, self._lease = self._lease, None
        self._retire(lease)
