"""Primary engine: SQLite FTS5 from the standard library (probed at run time), one database file."""

import heapq
import os
import re
import sqlite3
import threading
import time
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple
from urllib.parse import quote

from ..focus import context_keys
from ..notes import IndexDocument, NoteRecord
from ..query import ParsedQuery, Term
from ..ranking import name_keys, query_key, rank
from ..tokens import is_cjk, light_stem
from . import lexicon
from .base import (
    BM25_POSTINGS,
    BM25_WINDOW_NOTES,
    BODY_CANDIDATES,
    FIELD_WEIGHTS,
    HEADING_CANDIDATES,
    HEADING_CAP,
    HEADING_FIELDS,
    NAMED_CANDIDATES,
    RAW_FIELDS,
    TIE_MARGIN,
    EngineHit,
    FileState,
    IndexBusy,
    IndexCorrupt,
    IndexUnwritable,
    SearchEngine,
    disk_is_full,
    os_reason,
    record_from_json,
    record_to_json,
    tag_keys,
    word_forms,
)

# 9: name, folder, headings and links columns, headings in the record; 10: note_context; 11: notes_head_vocab;
# 12: note_names; 13: lexicon; 14: combining marks inside words (tokens.py), H4-H6 headings
SCHEMA_VERSION = 14
# No *_stems columns: other forms of a word are looked up in the index's vocabulary at query time
# (inflections()), which halves the text FTS5 indexes and so the time of a first index.
_COLUMNS = RAW_FIELDS
_WEIGHTS = ", ".join(str(FIELD_WEIGHTS[c]) for c in _COLUMNS)
# A query matching more notes than this (a two-letter prefix, a word in nearly every note) is ranked
# among its most recently indexed BROAD_CAP matches only: bm25() costs ~3 µs per matching note, and
# ranking all 10,000 notes for "pl" took 25-40 ms per keystroke. Recently indexed = recently added or
# edited (an edit re-inserts the row with a new rowid), which is what a half-typed word most likely
# wants. Name, heading and whole-name matches are candidates of their own (see search()), so the
# window can be small: 300 instead of 600 cut the engine's p95 at 100,000 notes by a third
# (bench_notes_search's stream, engine only, two runs of each in one process).
BROAD_CAP = 300
# Title, alias and tag matches, ranked outside the window, have a table of their own (notes_head):
# a column filter on the main table made FTS5 parse the body's position lists for every phrase
# ("plan ag": 9.5 ms, against 1.5 ms in the small table).
_HEADING_WEIGHTS = ", ".join(str(FIELD_WEIGHTS[c]) for c in HEADING_FIELDS)


def fts5_available() -> bool:
    """True when this Python's SQLite was compiled with FTS5 (not every build is)."""
    try:
        connection = sqlite3.connect(":memory:")
        try:
            connection.execute("CREATE VIRTUAL TABLE probe USING fts5(body)")
            connection.execute("CREATE VIRTUAL TABLE probe_vocab USING fts5vocab(probe, 'col')")
        finally:
            connection.close()
        return True
    except sqlite3.Error:
        return False


# SQLite's primary result codes (the low byte of sqlite_errorcode, Python 3.11+; older Pythons only
# have the message, matched below).
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_BUSY_CODES = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED
_STORAGE_CODES = {3: "permission", 8: "read_only", 10: "io", 13: "disk_full", 14: "cantopen"}
_CORRUPT_WORDS = ("malformed", "not a database", "corrupt")
_BUSY_WORDS = ("database is locked", "database table is locked", "database is busy")
_STORAGE_WORDS = (
    ("database or disk is full", "disk_full"),
    ("readonly database", "read_only"),
    ("disk i/o error", "io"),
    ("unable to open database", "cantopen"),
    ("access permission denied", "permission"),
)


def classify(error: BaseException) -> Tuple[str, str]:
    """("corrupt" | "busy" | "storage" | "other", storage reason) for an sqlite3 error."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        primary = code & 0xFF
        if primary in _CORRUPT_CODES:
            return "corrupt", ""
        if primary in _BUSY_CODES:
            return "busy", ""
        if primary in _STORAGE_CODES:
            return "storage", _STORAGE_CODES[primary]
    text = str(error).lower()
    if any(word in text for word in _CORRUPT_WORDS):
        return "corrupt", ""
    if any(word in text for word in _BUSY_WORDS):
        return "busy", ""
    for word, reason in _STORAGE_WORDS:
        if word in text:
            return "storage", reason
    return "other", ""


def _folder_reason(folder: str, reason: str) -> str:
    """A storage failure in plain terms: SQLite says "disk I/O error" or "unable to open" for a full,
    read-only or unwritable folder alike, so the folder itself is asked."""
    if reason in ("io", "cantopen", "read_only", "permission"):
        if disk_is_full(folder):
            return "disk_full"
        if os.path.exists(folder) and not os.path.isdir(folder):
            return "not_folder"
        try:
            if os.statvfs(folder).f_flag & getattr(os, "ST_RDONLY", 1):
                return "read_only"
        except (OSError, AttributeError):
            pass
        if reason in ("cantopen", "read_only") and os.path.isdir(folder) and not os.access(folder, os.W_OK):
            return "permission"
        if reason == "cantopen":
            return "io"
    return reason


def _quote(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


Inflections = Callable[[str], List[str]]
# Every indexed word starting with a prefix with its number of notes, or None (more than the limit
# asked for, or the lexicon is stale).
Completions = Callable[[str, int], Optional[List[Tuple[str, int]]]]
PREFIX_INDEX_MAX = 4  # longer prefixes never had a prefix index: their lists are merged per query
# A new index keeps prefix indexes of two and three letters (prefix='2 3'). The 4-letter one cost a
# quarter of a first index's writes (bench_notes_search's 100,000 notes, parsed, then written in
# process, one run each: 30.8 s with '2 3', 40.8 s with '2 3 4'), and the lexicon stands in for it:
# a 4-letter prefix whose words are common is searched as those words, or, when more than
# WORD_COMPLETIONS words start so, as its FREQUENT_WORDS most common ones, as the whoosh engine does;
# rare words are merged, as longer prefixes are (see ENTRIES_PER_WORD), which ranks as the index did.
# Named words cost 0.4-5.7 ms at 100,000 notes where the 4-letter index took 0.4 ms and a merge
# without it 3-45 ms ("plan"*: 45 ms; SQL timed on those indexes). Without the 3-letter index too,
# "tem"* took 158 ms to merge and its 16 most common words 12 ms as an OR: too slow for a keystroke.
# The heading table is small and keeps '2 3 4'. An index made by 0.2.1 keeps its '2 3 4' (see
# _indexed_prefixes).
BODY_PREFIX_INDEXES = (2, 3)
HEADING_PREFIX_INDEXES = (2, 3, 4)
FREQUENT_WORDS = 16
# A longer prefix is searched as the words it stands for when merging their lists would cost more
# than an OR of them: FTS5 merges a prefix's lists on every query (~0.15-0.2 us per note entry),
# while each word of an OR costs ~0.2-0.45 ms. "meeting"* read 100,000 entries in 7-12 ms against
# 0.5 ms for "meeting"; 22 words holding 13,390 entries took 2.8 ms merged and 9.8 ms as an OR
# (SQL timed on bench_notes_search's indexes of 10,000 and 100,000 notes).
WORD_COMPLETIONS = 32
ENTRIES_PER_WORD = 2_000  # expand when the words hold at least this many entries each, on average
PHRASE_COMPLETIONS = 8  # ... and as the last word of a phrase, one phrase per word


def _no_completions(prefix: str, limit: int) -> Optional[List[Tuple[str, int]]]:
    return None


class PrefixWords(NamedTuple):
    """How one table's prefix terms are written: the prefix lengths it indexes, and the lexicon's
    answers (every word starting so, or the most common ones; None while the lexicon is stale)."""

    indexed: Tuple[int, ...] = HEADING_PREFIX_INDEXES
    completions: Completions = _no_completions
    frequent: Completions = _no_completions


_NO_LEXICON = PrefixWords()  # all prefix indexes of 0.2.1, no lexicon


def _expansion(token: str, words: PrefixWords, limit: int) -> Optional[List[str]]:
    """The words to search instead of `token`* (see ENTRIES_PER_WORD), or None to let FTS5 merge."""
    if len(token) in words.indexed or len(token) < 2:
        return None  # the prefix index answers it (one letter: a merge, as always)
    found = words.completions(token, limit)
    if found is None:
        if len(token) > PREFIX_INDEX_MAX:
            return None
        # A 4-letter prefix in a new index (no prefix index of its length) standing for many words.
        frequent = words.frequent(token, min(limit, FREQUENT_WORDS))
        return None if frequent is None else [word for word, _ in frequent]
    if found and sum(docs for _, docs in found) < ENTRIES_PER_WORD * len(found):
        return None  # rare words: merging their lists costs less, and ranks as the prefix index did
    return [word for word, _ in found]


def _prefix_expression(token: str, words: PrefixWords, boost_exact: bool) -> str:
    named = _expansion(token, words, WORD_COMPLETIONS)
    if named is None:
        # The whole word counts twice, so "säkerhet" is among the candidates before "säkerhetskopiera".
        return "({0} OR {0}*)".format(_quote(token)) if boost_exact else f"{_quote(token)}*"
    if not named:
        return _quote(token)  # no indexed word starts so: matches nothing, as the prefix would
    alternatives = [_quote(word) for word in named]
    if boost_exact and token in named:
        alternatives.insert(0, _quote(token))
    return "({})".format(" OR ".join(alternatives))


def _phrase_expression(term: Term, words: PrefixWords) -> str:
    parts = [_quote(t) for t in term.tokens]
    if not term.prefix_last:
        return "({})".format(" + ".join(parts))
    named = _expansion(term.tokens[-1], words, PHRASE_COMPLETIONS)
    if not named:
        parts[-1] += "*"
        return "({})".format(" + ".join(parts))
    return "({})".format(" OR ".join("({})".format(" + ".join([*parts[:-1], _quote(word)])) for word in named))


def _term_expression(term: Term, inflections: Inflections, boost_exact: bool, words: PrefixWords) -> str:
    # Every column of the table is searched, so no column filter: FTS5 parses position lists to apply
    # one, which made bm25()'s per-phrase statistics cost ~2 ms per phrase instead of ~0.9 ms.
    if term.kind == "prefix":
        return _prefix_expression(term.tokens[0], words, boost_exact)
    if term.kind == "word":
        token = term.tokens[0]
        exact = _quote(token)
        if is_cjk(token) or not (token.isascii() and token.isalpha()):
            return exact
        forms = [form for form in inflections(light_stem(token)) if form != token]
        if not forms:
            return exact
        # The typed word counts twice (alone and among its forms), so it ranks above "runs" or "ran".
        return "({} OR ({}))".format(exact, " OR ".join(_quote(f) for f in [token, *forms]))
    return _phrase_expression(term, words)


def match_expression(
    query: ParsedQuery,
    inflections: Inflections = lambda stem: [],
    boost_exact: bool = False,
    words: PrefixWords = _NO_LEXICON,
) -> str:
    """The FTS5 MATCH string for a parsed query (every term must match)."""
    return " AND ".join(_term_expression(term, inflections, boost_exact, words) for term in query.terms)


def _like_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _filters(query: ParsedQuery) -> Tuple[str, List[str]]:
    clauses: List[str] = []
    params: List[str] = []
    for tag in query.tags:
        pattern = _like_escape(tag.tag)
        if tag.prefix:
            clauses.append("n.tag_keys LIKE ? ESCAPE '\\'")
            params.append("%|" + pattern + "%")
        else:
            clauses.append("n.tag_keys LIKE ? ESCAPE '\\'")
            params.append("%|" + pattern + "|%")
    for folder in query.folders:
        clauses.append("n.folder_keys LIKE ? ESCAPE '\\'")
        params.append("%|" + _like_escape(folder) + "%")
    return "".join(" AND " + clause for clause in clauses), params


_PREFIX_OPTION = re.compile(r"prefix\s*=\s*'([0-9 ]*)'", re.IGNORECASE)


def _indexed_prefixes(db: sqlite3.Connection, table: str) -> Tuple[int, ...]:
    """The prefix lengths a table was created with: an index made by 0.2.1 or earlier keeps '2 3 4'."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    found = _PREFIX_OPTION.search(row[0] if row and row[0] else "")
    return tuple(int(length) for length in found.group(1).split()) if found else ()


_SQL_VARIABLES = 500  # bound parameters per statement (old SQLite builds allow 999)
# SQLite 3.32 and later allow 32,766. A batch's rows then go in one statement per table, and the
# writer thread takes the GIL back once per table instead of once per 500 values, each time waiting
# for the parsing thread to let go of it.
_BULK_VARIABLES = 32_000


def _variable_limit(db: sqlite3.Connection) -> int:
    """Bound parameters one statement may have here: _BULK_VARIABLES where allowed, else _SQL_VARIABLES."""
    try:  # an IN list: a result row may not have that many columns
        db.execute("SELECT 1 WHERE 0 IN (" + ",".join("?" * _BULK_VARIABLES) + ")", [0] * _BULK_VARIABLES).fetchone()
    except sqlite3.OperationalError:
        return _SQL_VARIABLES  # "too many SQL variables"
    return _BULK_VARIABLES


_RECORD_CACHE = 2000  # parsed records kept between writes (~1 KB each)


class _Rows:
    """A write's rows, made on the thread that parsed its notes: a first index's writer thread then
    spends its time in SQLite, with the GIL released, instead of taking turns with the parser for it.
    Rows name their note by its place in `documents`; rowids are given once the write holds the index."""

    def __init__(self, documents: List[IndexDocument]) -> None:
        self.documents = documents
        self.notes: List[Tuple[object, ...]] = []
        self.fts: List[Tuple[str, ...]] = []
        self.context: List[Tuple[str, int]] = []
        self.names: List[Tuple[str, int]] = []
        self.head: List[Tuple[int, Tuple[str, ...]]] = []


INDEX_FILE = "notes.sqlite3"
# Combining marks are parts of words (the vowel signs of Indic scripts), as in tokens.py; the
# categories option is missing from old SQLite builds, which split at marks (such words then match as
# phrases of their pieces, query and notes alike).
_TOKENIZER = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'"
_OLD_TOKENIZER = "unicode61 remove_diacritics 0"


def _tokenizer(db: sqlite3.Connection) -> str:
    try:
        db.execute(f"CREATE VIRTUAL TABLE temp.tokenizer_probe USING fts5(body, tokenize=\"{_TOKENIZER}\")")
    except sqlite3.OperationalError:
        return _OLD_TOKENIZER
    db.execute("DROP TABLE temp.tokenizer_probe")
    return _TOKENIZER


def discard(directory: str, keep: bool) -> None:
    """Remove an index's files, or with `keep` move them aside as <name>.corrupt-<time> for inspection
    (replacing an older damaged copy: a second one would only fill the disk)."""
    path = os.path.join(directory, INDEX_FILE)
    if keep:
        for name in os.listdir(directory):
            if ".corrupt-" in name and name.startswith(INDEX_FILE):
                os.remove(os.path.join(directory, name))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            if keep:
                os.replace(path + suffix, f"{path}{suffix}.corrupt-{stamp}")
            else:
                os.remove(path + suffix)


class SqliteEngine(SearchEngine):
    name = "sqlite"
    # Three batches are held at a time (being written, queued, being parsed: indexer.WRITE_QUEUE).
    # 700 instead of 1,000 kept the plugin's peak RSS over a first index of bench_notes_search's
    # 100,000 notes at 116 MB instead of 120, in the same time (bench_notes_search's cold index in the
    # plugin, one run each).
    batch_size = 700
    # unicode61 splits on everything but letters and digits, as text.tokens() does (for the
    # characters text.unsplit_for_fts5() lets through; CJK runs arrive pre-split).
    takes_unsplit_text = True
    broad_cap = BROAD_CAP

    def __init__(self, directory: str) -> None:
        self.directory = directory
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as error:
            raise IndexUnwritable(os_reason(error), directory, str(error)) from error
        self.path = os.path.join(directory, INDEX_FILE)
        self._lock = threading.RLock()  # the writing connection
        self._read_lock = threading.RLock()  # the reading connection
        self.unwritable: Optional[IndexUnwritable] = None  # why, when opened read-only
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as error:
            problem = self.translate(error)
            if isinstance(problem, IndexUnwritable) and problem.reason in ("read_only", "permission"):
                self._db = self._open_read_only(problem)
            elif isinstance(problem, IndexCorrupt):
                # Only real damage moves a file aside (kept for inspection; a new index is built and the
                # notes are never touched). A lock, a full disk or a read-only folder never does.
                self._move_aside()
                self.moved_aside = str(error)
                try:
                    self._db = self._open()
                except sqlite3.DatabaseError as second:
                    raise (self.translate(second) or IndexCorrupt(str(second))) from second
            else:
                raise (problem or IndexCorrupt(str(error))) from error
        # Searches get their own connection: in WAL mode they read the last committed batch while the
        # first index is still being written, instead of waiting for the writer's lock.
        if self.read_only:
            self._reader = self._db
        else:
            self._reader = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._first_build = self._is_empty()
        self._bulk = False  # the write in progress is a first index's full batch (see _set_durability)
        self._generation = 0  # bumped by every write, so cached word forms follow the index
        self._forms: Dict[Tuple[int, str], List[str]] = {}
        self._record_cache: Dict[int, NoteRecord] = {}
        self._records_generation = 0
        self._counted: Tuple[int, int] = (-1, 0)  # (generation, notes): count(*) reads the whole table
        self._lexicon_checked: Tuple[int, bool] = (-1, False)  # (generation, complete)
        self._read_prefixes()
        self._variables = _variable_limit(self._db)

    def _read_prefixes(self) -> None:
        def completions(prefix: str, limit: int) -> Optional[List[Tuple[str, int]]]:
            return self.completions(prefix, limit)

        def frequent(prefix: str, limit: int) -> Optional[List[Tuple[str, int]]]:
            return self.frequent(prefix, limit)

        self._body_words = PrefixWords(_indexed_prefixes(self._db, "notes_fts"), completions, frequent)
        self._heading_words = PrefixWords(_indexed_prefixes(self._db, "notes_head"), completions, frequent)

    def _move_aside(self) -> None:
        try:
            discard(self.directory, keep=True)
        except OSError as error:
            raise IndexUnwritable(os_reason(error), self.directory, str(error)) from error

    def _open_read_only(self, problem: IndexUnwritable) -> sqlite3.Connection:
        """The index as it is, in a folder that cannot be written: searched, never changed.

        `immutable=1`: SQLite cannot make the WAL's shared-memory file here, so a plain read-only open
        fails ("unable to open database file"); another writer cannot exist in a read-only folder."""
        if not os.path.isfile(self.path):
            raise problem
        try:
            db = sqlite3.connect(
                "file:" + quote(self.path) + "?immutable=1", uri=True, check_same_thread=False, isolation_level=None
            )
            version = db.execute("PRAGMA user_version").fetchone()[0]
            db.execute("SELECT count(*) FROM notes").fetchone()
        except sqlite3.DatabaseError as error:
            raise (self.translate(error) or problem) from error
        if version != SCHEMA_VERSION:
            db.close()
            raise problem  # made by another version: it cannot be brought up to date here
        self.read_only = True
        self.unwritable = problem
        return db

    def translate(self, error: BaseException) -> Optional[Exception]:
        if isinstance(error, (IndexCorrupt, IndexBusy, IndexUnwritable)):
            return error
        if isinstance(error, OSError):
            return IndexUnwritable(os_reason(error), self.directory, str(error))
        if not isinstance(error, sqlite3.Error):
            return None
        kind, reason = classify(error)
        if kind == "corrupt":
            return IndexCorrupt(str(error))
        if kind == "busy":
            return IndexBusy(str(error))
        if kind == "storage":
            return IndexUnwritable(_folder_reason(self.directory, reason), self.directory, str(error))
        return None

    def _refuse_writes(self) -> None:
        if self.unwritable is not None:
            raise self.unwritable

    def check(self) -> None:
        """PRAGMA quick_check on a connection of its own (WAL: searches and writes go on meanwhile)."""
        if self.read_only:
            return
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            rows = db.execute("PRAGMA quick_check").fetchall()
            if rows != [("ok",)]:
                raise IndexCorrupt("; ".join(str(row[0]) for row in rows[:3]))
        except sqlite3.DatabaseError as error:
            raise (self.translate(error) or IndexCorrupt(str(error))) from error
        finally:
            db.close()

    def _rollback(self) -> None:
        """Undo a failed write. SQLite has already rolled back after a full disk or some I/O errors, and
        a second ROLLBACK would raise "cannot rollback - no transaction is active" over the real error."""
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the write's own error is the one worth raising

    def _open(self) -> sqlite3.Connection:
        # No statement cache on the writing connection: a cached bulk INSERT keeps its last values bound
        # (a whole batch of note text), and writes prepare few statements.
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, cached_statements=0)
        try:
            # For a new file only (an existing one keeps its size): FTS5 writes its index in 16,000-byte
            # pages (pgsz below), which on 4 KB pages each took an overflow chain. A first index of
            # bench_notes_search's 100,000 notes, in process, one run each: file 781 MB instead of
            # 861 MB, system time 8-10 s instead of 12-15 s; wall time 36.6-43 s against 40-43 s,
            # within this machine's noise (32 and 64 KB pages gave the same).
            db.execute("PRAGMA page_size=16384")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA_VERSION:
                self._create(db, force=False)
            db.execute("SELECT count(*) FROM notes").fetchone()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _create(self, db: sqlite3.Connection, force: bool = True) -> None:
        """Make the tables anew (force: even when they are there, for a rebuild)."""
        if db.in_transaction:
            db.execute("ROLLBACK")  # a write that failed half-way never makes a rebuild fail
        db.execute("BEGIN IMMEDIATE")
        if not force and db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            # Another instance (Agentty restarting the plugin while the old one exits) made the tables
            # while this one waited for the lock: dropping them would throw its index away.
            db.execute("COMMIT")
            return
        for name in (
            *lexicon.DROPPED_TABLES,
            "notes_vocab",
            "notes_head_vocab",
            "notes_fts",
            "notes_head",
            "note_context",
            "note_names",
        ):
            db.execute(f"DROP TABLE IF EXISTS {name}")
        db.execute("DROP TABLE IF EXISTS notes")
        tokenizer = _tokenizer(db)
        db.execute(
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, mtime_ns INTEGER NOT NULL,"
            " size INTEGER NOT NULL, content_hash TEXT NOT NULL, tag_keys TEXT NOT NULL,"
            " folder_keys TEXT NOT NULL, record TEXT NOT NULL)"
        )
        db.execute("CREATE INDEX notes_by_mtime ON notes(mtime_ns)")
        # Front matter cwd/project keys (focus.context_keys): few notes have them, looked up by key.
        db.execute("CREATE TABLE note_context (key TEXT NOT NULL, id INTEGER NOT NULL)")
        db.execute("CREATE INDEX note_context_by_key ON note_context(key)")
        # Whole file names, aliases and titles (ranking.name_keys), looked up by key or key prefix.
        db.execute("CREATE TABLE note_names (key TEXT NOT NULL, id INTEGER NOT NULL)")
        db.execute("CREATE INDEX note_names_by_key ON note_names(key)")
        # Text arrives already folded (tokens.py): tokenized, or for an ASCII body unsplit, which unicode61
        # splits exactly as text.tokens() would (letters and digits; CJK is pre-split into bigrams).
        # Prefix indexes: see BODY_PREFIX_INDEXES.
        db.execute(
            "CREATE VIRTUAL TABLE notes_fts USING fts5({}, tokenize=\"{}\","
            " prefix='{}')".format(", ".join(_COLUMNS), tokenizer, " ".join(map(str, BODY_PREFIX_INDEXES)))
        )
        db.execute("CREATE VIRTUAL TABLE notes_vocab USING fts5vocab(notes_fts, 'col')")
        db.execute(
            "CREATE VIRTUAL TABLE notes_head USING fts5({}, tokenize=\"{}\","
            " prefix='{}')".format(", ".join(HEADING_FIELDS), tokenizer, " ".join(map(str, HEADING_PREFIX_INDEXES)))
        )
        # The words of names, titles and headings: their lists are short, so typo correction reads
        # them first (the body vocabulary counts every note a common word is in: 18 ms for "m*").
        db.execute("CREATE VIRTUAL TABLE notes_head_vocab USING fts5vocab(notes_head, 'row')")
        lexicon.create(db, "notes_fts")
        # Merge index segments less eagerly while writing (the first index of 10,000 notes is ~25%
        # faster); queries barely notice a few more segments.
        db.execute("INSERT INTO notes_fts (notes_fts, rank) VALUES ('automerge', 16)")
        # Larger index pages: fewer, bigger writes while the first index is built.
        db.execute("INSERT INTO notes_fts (notes_fts, rank) VALUES ('pgsz', 16000)")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")

    # -- writing ---------------------------------------------------------------------------------

    def _row_values(self, document: IndexDocument) -> Tuple[str, int, int, str, str, str, str]:
        record = document.record
        return (
            record.path,
            record.mtime_ns,
            record.size,
            record.content_hash,
            "|" + "|".join(tag_keys(record.tags)) + "|",
            "|" + "|".join(record.folder_keys) + "|",
            record_to_json(record),
        )

    def _delete_many(self, paths: Sequence[str]) -> None:
        for start in range(0, len(paths), _SQL_VARIABLES):
            chunk = paths[start : start + _SQL_VARIABLES]
            marks = ",".join("?" * len(chunk))
            ids = [row[0] for row in self._db.execute(f"SELECT id FROM notes WHERE path IN ({marks})", chunk)]
            if ids:
                id_marks = ",".join("?" * len(ids))
                self._db.execute(f"DELETE FROM notes_fts WHERE rowid IN ({id_marks})", ids)
                self._db.execute(f"DELETE FROM notes_head WHERE rowid IN ({id_marks})", ids)
                self._db.execute(f"DELETE FROM note_context WHERE id IN ({id_marks})", ids)
                self._db.execute(f"DELETE FROM note_names WHERE id IN ({id_marks})", ids)
                self._db.execute(f"DELETE FROM notes WHERE id IN ({id_marks})", ids)

    def prepare_write(self, upserts: Sequence[IndexDocument]) -> "_Rows":
        """Every row a write inserts, without its rowid (see _Rows)."""
        unique = list({document.record.path: document for document in upserts}.values())
        rows = _Rows(unique)
        for number, document in enumerate(unique):
            rows.notes.append(self._row_values(document))
            rows.fts.append(tuple(document.fields[c] for c in _COLUMNS))
            rows.context.extend((key, number) for key in context_keys(document.record.context))
            rows.names.extend((key, number) for key in name_keys(document.record))
            if any(document.fields[c] for c in HEADING_FIELDS):
                rows.head.append((number, tuple(document.fields[c] for c in HEADING_FIELDS)))
        return rows

    def _insert_many(self, rows: "_Rows") -> None:
        first = int(self._db.execute("SELECT coalesce(max(id), 0) + 1 FROM notes").fetchone()[0])
        columns = ("id", "path", "mtime_ns", "size", "content_hash", "tag_keys", "folder_keys", "record")
        self._insert_rows("notes", columns, [(first + n, *row) for n, row in enumerate(rows.notes)])
        self._insert_rows("notes_fts", ("rowid", *_COLUMNS), [(first + n, *row) for n, row in enumerate(rows.fts)])
        if rows.context:
            self._insert_rows("note_context", ("key", "id"), [(key, first + n) for key, n in rows.context])
        self._insert_rows("note_names", ("key", "id"), [(key, first + n) for key, n in rows.names])
        self._insert_rows("notes_head", ("rowid", *HEADING_FIELDS), [(first + n, *row) for n, row in rows.head])

    def _insert_rows(self, table: str, columns: Sequence[str], rows: Sequence[Tuple[object, ...]]) -> None:
        """Insert many rows with a few multi-row INSERT statements.

        Each statement runs inside one sqlite3_step(), with the GIL released for all of its rows, so
        FTS5's tokenizing and writing overlaps with parsing the next batch on another core (see
        indexer._BatchWriter). executemany() released and re-took the GIL for every row, and the two
        threads then mostly waited for each other.
        """
        per_statement = max(1, self._variables // len(columns))
        row_marks = "(" + ", ".join("?" * len(columns)) + ")"
        head = f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
        for start in range(0, len(rows), per_statement):
            chunk = rows[start : start + per_statement]
            self._db.execute(head + ", ".join([row_marks] * len(chunk)), [value for row in chunk for value in row])

    def _is_empty(self) -> bool:
        return self._db.execute("SELECT 1 FROM notes LIMIT 1").fetchone() is None

    def _set_durability(self, batch: int) -> None:
        """No fsync per batch while a first index is written in full batches, then back to normal.

        Safe because the index is a cache of the notes: if the machine loses power mid-build, a
        damaged file is moved aside and rebuilt (see __init__), and the notes are never touched.
        The last (smaller) batch of the build commits with the normal setting, which syncs it all.
        """
        bulk = self._first_build and batch >= self.batch_size
        if not bulk:
            self._first_build = False
        self._bulk = bulk
        self._db.execute("PRAGMA synchronous=OFF" if bulk else "PRAGMA synchronous=NORMAL")

    def _begin(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                raise IndexBusy(str(error)) from error
            raise

    def write(self, upserts: Sequence[IndexDocument], deletes: Iterable[str] = ()) -> None:
        self.write_prepared(self.prepare_write(upserts), deletes)

    def write_prepared(self, prepared: object, deletes: Iterable[str] = ()) -> None:
        assert isinstance(prepared, _Rows)
        unique = prepared.documents
        with self._lock:
            self._refuse_writes()
            self._set_durability(len(unique))
            self._begin()
            try:
                self._delete_many([*deletes, *(document.record.path for document in unique)])
                if unique:
                    self._insert_many(prepared)
                if self._bulk or len(unique) >= self.batch_size:
                    lexicon.mark_stale(self._db)  # a full batch: settle() reads FTS5's words faster
                elif unique and lexicon.is_complete(self._db):
                    lexicon.add_words(self._db, [[document.fields[c] for c in _COLUMNS] for document in unique])
                self._db.execute("COMMIT")
                self._generation += 1
            except BaseException:
                self._rollback()
                raise

    def rename(self, old_path: str, document: IndexDocument) -> None:
        """A moved note is indexed again: its file name and folder are searched fields."""
        self.write([document], [old_path])

    def settle(self) -> bool:
        """Fill a stale lexicon (after a first index); searches meanwhile ask FTS5 instead."""
        with self._lock:
            if self.read_only or lexicon.is_complete(self._db):
                return False
            self._begin()
            try:
                lexicon.rebuild(self._db)
                self._db.execute("COMMIT")
                self._generation += 1
            except BaseException:
                self._rollback()
                raise
            return True

    def _lexicon_ready(self) -> bool:
        generation, complete = self._lexicon_checked
        if generation != self._generation:
            complete = lexicon.is_complete(self._reader)
            self._lexicon_checked = (self._generation, complete)
        return complete

    def completions(self, prefix: str, limit: int) -> Optional[List[Tuple[str, int]]]:
        """Indexed words starting with `prefix` and their notes, or None (more than `limit`, or no lexicon yet)."""
        with self._read_lock:
            if not self._lexicon_ready():
                return None
            return lexicon.completions(self._reader, prefix, limit)

    def frequent(self, prefix: str, limit: int) -> Optional[List[Tuple[str, int]]]:
        """The `limit` indexed words starting with `prefix` in the most notes, to stand for it; None when
        merging its lists costs less than an OR of that many words (see ENTRIES_PER_WORD), or no lexicon yet."""
        most = ENTRIES_PER_WORD * WORD_COMPLETIONS
        with self._read_lock:
            if not self._lexicon_ready() or lexicon.notes_holding(self._reader, [], [prefix], most) <= most:
                return None
            return lexicon.most_common(self._reader, prefix, limit)

    def clear(self) -> None:
        with self._lock:
            self._refuse_writes()
            self._create(self._db)
            self._read_prefixes()
            self._first_build = True
            self._generation += 1

    # -- reading ---------------------------------------------------------------------------------

    def known_files(self) -> Dict[str, FileState]:
        with self._read_lock:
            rows = self._reader.execute("SELECT path, mtime_ns, size, content_hash FROM notes").fetchall()
        return {path: FileState(mtime, size, digest) for path, mtime, size, digest in rows}

    def search(self, query: ParsedQuery, limit: int) -> List[EngineHit]:
        """Candidates by BM25 (best body matches, best name/heading matches), ordered by ranking.rank()."""
        if query.is_empty:
            return []
        where, params = _filters(query)
        expression = match_expression(query, self.inflections, words=self._body_words)
        heading_expression = match_expression(query, self.inflections, True, self._heading_words)
        body_count = max(BODY_CANDIDATES, limit + TIE_MARGIN)
        with self._read_lock:
            if where:
                best = dict(self._filtered(expression, where, params, "notes_fts", _WEIGHTS, body_count))
                heading = self._filtered(
                    heading_expression, where, params, "notes_head", _HEADING_WEIGHTS, HEADING_CANDIDATES
                )
            else:
                # Without filters, rank inside FTS5 alone and read the metadata of the chosen rows only:
                # joining every match (thousands for a two-letter prefix) to its metadata cost more than
                # the ranking. A broad query is ranked among its most recent matches (see BROAD_CAP).
                window = max(self.broad_cap, limit + TIE_MARGIN)
                use_bm25 = self._bm25_affordable(query)
                scored = self._newest_scored(expression, window, use_bm25=use_bm25)
                if not scored:
                    return []  # heading matches are matches too: none (a typo, before its correction)
                best = {rowid: scored_rank for rowid, scored_rank in scored}
                best = {rowid: best[rowid] for rowid in heapq.nsmallest(body_count, best, key=best.__getitem__)}
                # Name, alias, title, folder, heading and tag matches are candidates however old.
                heading_scored = self._newest_scored(
                    heading_expression, HEADING_CAP, "notes_head", _HEADING_WEIGHTS, use_bm25
                )
                heading = heapq.nsmallest(HEADING_CANDIDATES, heading_scored, key=lambda pair: pair[1])
            named = self._named(query, where, params)
            chosen = list(best) + [rowid for rowid, _ in heading if rowid not in best]
            chosen += [rowid for rowid in named if rowid not in best and rowid not in chosen]
            records = self._records(chosen)
        floor = max(best.values(), default=0.0)  # the weakest body score among the candidates
        # bm25() is lower-is-better; flip it so every engine reports higher-is-better.
        candidates = [(records[rowid], -best.get(rowid, floor)) for rowid in chosen if rowid in records]
        return [EngineHit(record, score) for record, score in rank(query, candidates, limit)]

    def _named(self, query: ParsedQuery, where: str, params: Sequence[str]) -> List[int]:
        """Rowids of the newest notes whose whole file name, alias or title is the query and, with the
        last word still typed, of those that start like it (the exact ones are looked up on their own:
        "obsidian" may start a thousand names)."""
        found = query_key(query)
        if found is None:
            return []
        key, is_prefix = found
        lookups: List[Tuple[str, Tuple[str, ...]]] = [("k.key = ?", (key,))]
        if is_prefix:
            lookups.append(("k.key > ? AND k.key < ?", (key, key + "\uffff")))
        rowids: List[int] = []
        for number, (condition, keys) in enumerate(lookups):
            # Equal keys: the newest notes. Keys starting like the query: the first ones in key order,
            # read straight off the index (sorting thousands of "meeting …" titles by date cost ms).
            order = "n.mtime_ns DESC" if number == 0 else "k.key"
            sql = (
                f"SELECT n.id FROM note_names k JOIN notes n ON n.id = k.id WHERE {condition}{where}"
                f" ORDER BY {order} LIMIT ?"
            )
            for (rowid,) in self._reader.execute(sql, (*keys, *params, NAMED_CANDIDATES)).fetchall():
                if rowid not in rowids:
                    rowids.append(rowid)
        return rowids

    def _filtered(
        self, expression: str, where: str, params: Sequence[str], table: str, weights: str, count: int
    ) -> List[Tuple[int, float]]:
        """(rowid, bm25) of the best `count` matches passing the tag and folder filters."""
        sql = (
            f"SELECT {table}.rowid, bm25({table}, {weights}) AS rank"
            f" FROM {table} JOIN notes n ON n.id = {table}.rowid"
            f" WHERE {table} MATCH ?{where} ORDER BY rank, n.mtime_ns DESC LIMIT ?"
        )
        return self._reader.execute(sql, (expression, *params, count)).fetchall()

    def _newest_scored(
        self,
        expression: str,
        cap: int,
        table: str = "notes_fts",
        weights: str = _WEIGHTS,
        use_bm25: Optional[bool] = True,
    ) -> List[Tuple[int, float]]:
        """(rowid, bm25) of the `cap` most recently indexed matches, all of them when fewer match; with
        use_bm25 False, (rowid, 0.0) newest first; None: so in a large index when the window is full.

        One pass newest first: FTS5 reads doclists backwards cheaply, and scoring the window as it is
        read and sorting it in Python beat finding the window's lowest rowid first and ranking it in a
        second statement ("plan ag": 7.6 ms against 11.1 ms).
        """
        if not use_bm25:
            newest = self._reader.execute(
                f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY rowid DESC LIMIT ?", (expression, cap)
            ).fetchall()
            if use_bm25 is False or len(newest) >= cap:
                return [(rowid, 0.0) for (rowid,) in newest]
        return self._reader.execute(
            f"SELECT rowid, bm25({table}, {weights}) FROM {table} WHERE {table} MATCH ? ORDER BY rowid DESC LIMIT ?",
            (expression, cap),
        ).fetchall()

    def _bm25_affordable(self, query: ParsedQuery) -> Optional[bool]:
        """Whether bm25()'s counting stays under BM25_POSTINGS notes' entries; None when the lexicon
        cannot tell yet (then a full window in an index of over BM25_WINDOW_NOTES notes is not scored)."""
        if not self._lexicon_ready():
            return None if self._note_count() > BM25_WINDOW_NOTES else True
        words: List[str] = []
        prefixes: List[str] = []
        for term in query.terms:
            if term.kind == "prefix":
                prefixes.append(term.tokens[0])
            elif term.kind == "word":
                token = term.tokens[0]
                words.append(token)
                if token.isascii() and token.isalpha():
                    words.extend(self.inflections(light_stem(token)))
            else:
                words.extend(term.tokens[:-1] if term.prefix_last else term.tokens)
                if term.prefix_last:
                    prefixes.append(term.tokens[-1])
        return lexicon.notes_holding(self._reader, words, prefixes, BM25_POSTINGS) <= BM25_POSTINGS

    def _note_count(self) -> int:
        generation, notes = self._counted
        if generation != self._generation:
            notes = int(self._reader.execute("SELECT count(*) FROM notes").fetchone()[0])
            self._counted = (self._generation, notes)
        return notes

    def _records(self, rowids: Sequence[int]) -> Dict[int, NoteRecord]:
        """Records by rowid; those read since the last write are kept (typing ranks the same notes
        keystroke after keystroke, and parsing their JSON was ~1 ms of each search)."""
        if self._records_generation != self._generation:
            self._record_cache.clear()
            self._records_generation = self._generation
        cache = self._record_cache
        found = {rowid: cache[rowid] for rowid in rowids if rowid in cache}
        missing = [rowid for rowid in rowids if rowid not in found]
        for start in range(0, len(missing), _SQL_VARIABLES):
            chunk = missing[start : start + _SQL_VARIABLES]
            marks = ",".join("?" * len(chunk))
            for rowid, record in self._reader.execute(f"SELECT id, record FROM notes WHERE id IN ({marks})", chunk):
                found[rowid] = cache[rowid] = record_from_json(record)
        if len(cache) > _RECORD_CACHE:
            cache.clear()
        return found

    def recent(self, query: ParsedQuery, limit: int) -> List[NoteRecord]:
        where, params = _filters(query)
        sql = f"SELECT n.record FROM notes n WHERE 1{where} ORDER BY n.mtime_ns DESC, n.path LIMIT ?"
        with self._read_lock:
            rows = self._reader.execute(sql, (*params, limit)).fetchall()
        return [record_from_json(row[0]) for row in rows]

    def related(self, keys: Sequence[str], limit: int) -> List[NoteRecord]:
        if not keys:
            return []
        marks = ",".join("?" * len(keys))
        sql = (
            "SELECT n.record FROM notes n WHERE n.id IN"
            f" (SELECT id FROM note_context WHERE key IN ({marks})) ORDER BY n.mtime_ns DESC, n.path LIMIT ?"
        )
        with self._read_lock:
            rows = self._reader.execute(sql, (*keys, limit)).fetchall()
        return [record_from_json(row[0]) for row in rows]

    def get(self, path: str) -> Optional[NoteRecord]:
        with self._read_lock:
            row = self._reader.execute("SELECT record FROM notes WHERE path = ?", (path,)).fetchone()
        return record_from_json(row[0]) if row else None

    def count(self) -> int:
        with self._read_lock:
            return int(self._reader.execute("SELECT count(*) FROM notes").fetchone()[0])

    def inflections(self, stem: str) -> List[str]:
        """Indexed words with this light stem ("run" -> run, runs, running), most frequent first."""
        with self._read_lock:
            key = (self._generation, stem)
            cached = self._forms.get(key)
            if cached is not None:
                return cached
        found = word_forms(stem, lambda start: self.terms_starting_with(start, 400))
        with self._read_lock:
            if len(self._forms) > 2000:
                self._forms.clear()
            self._forms[key] = found
        return found

    def _in_lexicon(self, term: Term) -> Optional[bool]:
        """Whether a word or prefix term is in some note, from the lexicon; None for a phrase or while
        the lexicon is stale. (Removed notes may leave their words in it: True may still find nothing.)"""
        if term.kind == "phrase":
            return None
        token = term.tokens[0]
        with self._read_lock:
            if not self._lexicon_ready():
                return None
            if term.kind == "prefix":
                return lexicon.holds_any(self._reader, [], token)
            forms = self.inflections(light_stem(token)) if token.isascii() and token.isalpha() else []
            return lexicon.holds_any(self._reader, [token, *forms], None)

    def matches_nothing(self, query: ParsedQuery) -> bool:
        return any(self._in_lexicon(term) is False for term in query.terms)

    def has_match(self, term: Term) -> bool:
        if self._in_lexicon(term) is False:
            return False
        expression = match_expression(ParsedQuery((term,)), self.inflections, words=self._body_words)
        with self._read_lock:
            row = self._reader.execute(
                "SELECT 1 FROM notes_fts WHERE notes_fts MATCH ? LIMIT 1", (expression,)
            ).fetchone()
        return row is not None

    def terms_by_letters(
        self, start: str, third_and_fourth: Sequence[str], limit: int, headings_only: bool = False
    ) -> List[Tuple[str, int]]:
        """In SQL: a first letter starts thousands of words, and reading them all into Python took ~8 ms
        per typo at 6,000 notes (the help vault's as-typed stream)."""
        if headings_only:
            table, count = "notes_head_vocab", "doc"
        else:
            with self._read_lock:
                if not self._lexicon_ready():
                    return super().terms_by_letters(start, third_and_fourth, limit, headings_only)
            table, count = "lexicon", "docs"
        marks = ",".join("?" * len(third_and_fourth))
        sql = (
            f"SELECT term, {count} FROM {table} WHERE term >= ? AND term < ?"
            f" AND substr(term, 3, 2) IN ({marks}) LIMIT ?"
        )
        with self._read_lock:
            rows = self._reader.execute(sql, (start, lexicon.after_prefix(start), *third_and_fourth, limit)).fetchall()
        return [(term, int(docs)) for term, docs in rows]

    def match_count(self, query: ParsedQuery, cap: int) -> int:
        if query.is_empty:
            return 0
        expression = match_expression(query, self.inflections, words=self._body_words)
        with self._read_lock:
            row = self._reader.execute(
                "SELECT count(*) FROM (SELECT 1 FROM notes_fts WHERE notes_fts MATCH ? LIMIT ?)", (expression, cap)
            ).fetchone()
        return int(row[0])

    def terms_starting_with(self, prefix: str, limit: int, headings_only: bool = False) -> List[Tuple[str, int]]:
        upper = lexicon.after_prefix(prefix)
        if headings_only:
            with self._read_lock:
                rows = self._reader.execute(
                    "SELECT term, doc FROM notes_head_vocab WHERE term >= ? AND term < ? LIMIT ?",
                    (prefix, upper, limit),
                ).fetchall()
            return [(term, int(docs)) for term, docs in rows]
        with self._read_lock:
            if self._lexicon_ready():
                return lexicon.starting_with(self._reader, prefix, limit)
            rows = self._reader.execute(
                "SELECT term, max(doc) FROM notes_vocab WHERE term >= ? AND term < ?"
                " AND col IN ('name', 'title', 'headings', 'body') GROUP BY term LIMIT ?",
                (prefix, upper, limit),
            ).fetchall()
        return [(term, int(docs)) for term, docs in rows]

    def close(self) -> None:
        with self._lock, self._read_lock:
            self._reader.close()  # closing twice is harmless in sqlite3
            self._db.close()
