"""The interface both search engines implement, plus the result and state types they share."""

import errno
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from ..notes import IndexDocument, NoteRecord
from ..query import ParsedQuery, TagFilter, Term

# Field weights of the engines' BM25, which picks the candidates that ranking.rank() then orders (it
# uses the same order of fields; see the README). Other forms of a word are found in each engine's
# vocabulary at query time, and the typed form counts twice, so it ranks above them.
FIELD_WEIGHTS: Dict[str, float] = {
    "name": 10.0,
    "aliases": 10.0,
    "title": 8.0,
    "folder": 6.0,
    "headings": 4.0,
    "tags": 3.0,
    "links": 1.5,
    "body": 1.0,
}
RAW_FIELDS = ("name", "aliases", "title", "folder", "headings", "tags", "links", "body")
# Both engines rank a broad query among its most recently indexed matches only; a note whose name,
# alias, title, folder, heading or tag matches is a candidate however old, up to HEADING_CAP of them
# (a prefix like "no" can still match hundreds of titles).
HEADING_FIELDS = ("name", "aliases", "title", "folder", "headings", "tags")
HEADING_CAP = 200
BODY_CANDIDATES = 30  # best body (BM25) matches handed to ranking.rank() besides the heading matches
HEADING_CANDIDATES = 40  # best heading-table matches handed over
NAMED_CANDIDATES = 20  # newest notes whose whole file name, alias or title is the query
TIE_MARGIN = 10  # extra notes ranked, so notes tied at the cut are still ordered newest first
# FTS5's bm25() first counts every note holding each query word: 5-25 ms per query for a common word
# at 100,000 notes (SQL with and without bm25() timed on bench_notes_search's index). So when the
# words' notes add up to more than BM25_POSTINGS, both engines take the window newest first with no
# BM25 order inside it (names, titles, headings and tags still rank it: ranking.py). A vault of a few
# thousand notes never gets there. Until the FTS5 lexicon can tell, a full window in an index of over
# BM25_WINDOW_NOTES notes is taken as such a query.
BM25_POSTINGS = 20_000
BM25_WINDOW_NOTES = 20_000
MAX_FORMS = 24  # other forms of a word searched with it (the most frequent ones)


class FileState(NamedTuple):
    """What the index remembers about a file to notice changes without reading it (a tuple: the
    index hands over one per note on every refresh)."""

    mtime_ns: int
    size: int
    content_hash: str


@dataclass(frozen=True)
class EngineHit:
    record: NoteRecord
    score: float  # higher is better, comparable only within one result list


class IndexCorrupt(Exception):
    """The stored index cannot be read; the caller throws it away and builds a new one."""


class IndexBusy(Exception):
    """Another process holds the index's write lock (e.g. a second Agentty window); reads still work."""


class IndexUnwritable(Exception):
    """The index folder cannot be written: `reason` is disk_full, read_only, permission, not_folder or io.

    Never a sign of damage: the index on disk stays as it is (what it holds is still searched)."""

    def __init__(self, reason: str, folder: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {folder}" + (f" ({detail})" if detail else ""))
        self.reason = reason
        self.folder = folder
        self.detail = detail


_ERRNO_REASONS = {
    errno.ENOSPC: "disk_full",
    errno.EDQUOT: "disk_full",
    errno.EROFS: "read_only",
    errno.EACCES: "permission",
    errno.EPERM: "permission",
    errno.EEXIST: "not_folder",
    errno.ENOTDIR: "not_folder",
}


def os_reason(error: OSError) -> str:
    """What an OSError means for the index folder, in the words IndexUnwritable uses."""
    return _ERRNO_REASONS.get(error.errno or 0, "io")


def disk_is_full(folder: str) -> bool:
    """True when the file system holding `folder` (or its nearest existing parent) has no room left:
    SQLite reports some failed writes as "disk I/O error" rather than as a full disk."""
    while folder and not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    try:
        info = os.statvfs(folder)
    except (OSError, AttributeError):  # no statvfs on Windows
        return False
    return info.f_bavail * info.f_frsize < 64 * 1024


class SearchEngine:
    """Full-text index of notes. Implementations are thread-safe: one writer, many readers."""

    name = "base"
    batch_size = 200  # documents per committed write batch
    # True: the engine's own tokenizer splits text exactly like text.tokens() does wherever
    # text.unsplit_for_fts5() allows, so a body may be handed over folded but not split.
    takes_unsplit_text = False

    def known_files(self) -> Dict[str, FileState]:
        raise NotImplementedError

    def write(self, upserts: Sequence[IndexDocument], deletes: Iterable[str] = ()) -> None:
        """Add or replace documents and delete paths, committed together."""
        raise NotImplementedError

    def prepare_write(self, upserts: Sequence[IndexDocument]) -> object:
        """What write_prepared() needs that can be worked out before the write holds the index; called
        on the thread that parsed the notes while an earlier batch is still being written."""
        return list(upserts)

    def write_prepared(self, prepared: object, deletes: Iterable[str] = ()) -> None:
        """write() of what prepare_write() returned."""
        assert isinstance(prepared, list)
        self.write(prepared, deletes)

    def rename(self, old_path: str, document: IndexDocument) -> None:
        """Move a note whose content did not change (engines may skip re-indexing its text)."""
        self.write([document], [old_path])

    def search(self, query: ParsedQuery, limit: int) -> List[EngineHit]:
        raise NotImplementedError

    def recent(self, query: ParsedQuery, limit: int) -> List[NoteRecord]:
        """Newest notes first; only the query's tag and folder filters apply."""
        raise NotImplementedError

    def related(self, keys: Sequence[str], limit: int) -> List[NoteRecord]:
        """Notes whose front matter cwd/project has one of these keys (focus.context_keys), newest first."""
        raise NotImplementedError

    def get(self, path: str) -> Optional[NoteRecord]:
        raise NotImplementedError

    def count(self) -> int:
        raise NotImplementedError

    def terms_starting_with(self, prefix: str, limit: int, headings_only: bool = False) -> List[Tuple[str, int]]:
        """Indexed words (name, title, headings and body; or only those of names, aliases, titles,
        folders, headings and tags) starting with `prefix`, with their document counts."""
        raise NotImplementedError

    def terms_by_letters(
        self, start: str, third_and_fourth: Sequence[str], limit: int, headings_only: bool = False
    ) -> List[Tuple[str, int]]:
        """terms_starting_with(start) whose third and fourth letters are one of `third_and_fourth`
        (typo correction's dropped second letter); engines may filter them without Python."""
        wanted = set(third_and_fourth)
        return [(t, n) for t, n in self.terms_starting_with(start, limit, headings_only) if t[2:4] in wanted]

    def has_match(self, term: Term) -> bool:
        """True when some note matches this one term (typo correction leaves such terms alone)."""
        return bool(self.search(ParsedQuery((term,)), 1))

    def match_count(self, query: ParsedQuery, cap: int) -> int:
        """How many notes match every term of the query, counted up to `cap`."""
        return len(self.search(query, cap))

    def matches_nothing(self, query: ParsedQuery) -> bool:
        """True when a word of the query is known, without searching, to be in no note (a typo: the
        library corrects it before searching at all). False when that cannot be told cheaply."""
        return False

    def settle(self) -> bool:
        """Work left after a refresh that searches do not wait for (the FTS5 lexicon); may take seconds.
        True when there was some (a first index or a large update had just been written)."""
        return False

    def clear(self) -> None:
        raise NotImplementedError

    # True when the index was opened read-only (its folder cannot be written): searches work, writes
    # raise IndexUnwritable.
    read_only = False
    # Why the index found at open was damaged and moved aside (a new one was started), or "".
    moved_aside = ""

    def translate(self, error: BaseException) -> Optional[Exception]:
        """The error an engine call raised as IndexCorrupt, IndexBusy or IndexUnwritable, or None when it
        is none of those (a bug: raised as it is)."""
        if isinstance(error, (IndexCorrupt, IndexBusy, IndexUnwritable)):
            return error
        return None

    def check(self) -> None:
        """Read the whole index once and raise IndexCorrupt if any of it is damaged (run in the
        background after a start: a query may never touch the damaged part)."""

    def close(self) -> None:
        raise NotImplementedError


def word_forms(stem: str, words_starting_with: Callable[[str], Iterable[Tuple[str, int]]]) -> List[str]:
    """Indexed words with this light stem ("run" -> run, runs, running), most frequent first.

    `words_starting_with(start)` gives indexed words and their document counts; a word may come
    more than once (once per field), its highest count is used.
    """
    from ..tokens import light_stem

    if len(stem) < 3:
        # A one- or two-letter word is searched as typed: its only other forms would be four-letter
        # plurals such as "axes", and reading every indexed word starting with "p" to find them took
        # 40-150 ms at 100,000 notes (bench_notes_search's notes and query stream, run in process).
        return []
    # Every form starts with the stem, except "-ies" words whose stem ends in "y" (study, studies).
    start = stem[:-1] if stem.endswith("y") and len(stem) > 3 else stem
    counts: Dict[str, int] = {}
    for word, count in words_starting_with(start):
        if light_stem(word) == stem:
            counts[word] = max(counts.get(word, 0), count)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [word for word, _ in ranked[:MAX_FORMS]]


def tag_keys(tags: Iterable[str]) -> List[str]:
    """Folded tags plus their parents ("work/meetings" also files under "work")."""
    return list(_tag_keys(tuple(tags)))


@lru_cache(maxsize=4096)
def _tag_keys(tags: Tuple[str, ...]) -> Tuple[str, ...]:
    # Cached: most notes of a vault share a few tag sets, and a first index asks for every note's.
    from ..tokens import fold

    keys: List[str] = []
    for tag in tags:
        folded = fold(tag).replace("|", "/").strip("/")
        parts = [p for p in folded.split("/") if p]
        for end in range(1, len(parts) + 1):
            key = "/".join(parts[:end])
            if key not in keys:
                keys.append(key)
    return tuple(keys)


def tag_matches(filter_: TagFilter, keys: Iterable[str]) -> bool:
    return any(k.startswith(filter_.tag) if filter_.prefix else k == filter_.tag for k in keys)


def record_to_json(record: NoteRecord) -> str:
    return json.dumps(
        {
            "path": record.path,
            "root": record.root,
            "rel_path": record.rel_path,
            "title": record.title,
            "tags": list(record.tags),
            "aliases": list(record.aliases),
            "mtime_ns": record.mtime_ns,
            "size": record.size,
            "content_hash": record.content_hash,
            "locked": record.locked,
            "headings": [list(h) for h in record.headings],
            "context": list(record.context),
        },
        ensure_ascii=False,
    )


def record_from_json(text: str) -> NoteRecord:
    data = json.loads(text)
    return NoteRecord(
        path=data["path"],
        root=data["root"],
        rel_path=data["rel_path"],
        title=data["title"],
        tags=tuple(data["tags"]),
        aliases=tuple(data["aliases"]),
        mtime_ns=int(data["mtime_ns"]),
        size=int(data["size"]),
        content_hash=data["content_hash"],
        locked=bool(data["locked"]),
        headings=tuple((int(level), str(text)) for level, text in data.get("headings", ())),
        context=tuple(data.get("context", ())),
    )
