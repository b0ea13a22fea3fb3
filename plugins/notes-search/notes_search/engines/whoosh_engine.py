"""Fallback engine: whoosh (pure Python, from the whoosh-reloaded package) for Pythons without FTS5.

whoosh expands a short prefix such as "co*" over every matching word, which took seconds on 10,000
notes (libs.md §1.3), so as-you-type prefixes use edge n-gram fields: a prefix is one term lookup.
"""

import os
import shutil
import threading
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ..notes import IndexDocument, NoteRecord
from ..query import ParsedQuery, Term
from ..text import is_cjk, light_stem
from .base import (
    FIELD_WEIGHTS,
    RAW_FIELDS,
    EngineHit,
    FileState,
    IndexBusy,
    IndexCorrupt,
    SearchEngine,
    record_from_json,
    record_to_json,
    tag_keys,
)

SCHEMA_VERSION = "4"
_MERGE_FROM_SEGMENTS = 40
EDGE_MIN = 2
EDGE_MAX = 12  # longer prefixes are rare and expand to few words: a plain Prefix query is fine


def whoosh_available() -> bool:
    try:
        import whoosh.index  # noqa: F401
    except ImportError:
        return False
    return True


def _schema() -> Any:
    from whoosh import analysis, fields

    space = analysis.SpaceSeparatedTokenizer()
    edges = analysis.SpaceSeparatedTokenizer() | analysis.NgramFilter(EDGE_MIN, EDGE_MAX, at="start")
    lines = analysis.RegexTokenizer(r"[^\n]+")

    def text(name: str, phrase: bool = True) -> Any:
        return fields.TEXT(analyzer=space, phrase=phrase, field_boost=FIELD_WEIGHTS[name])

    return fields.Schema(
        path=fields.ID(stored=True, unique=True),
        title=text("title"),
        aliases=text("aliases"),
        tags=text("tags"),
        body=text("body"),
        title_stems=text("title_stems", phrase=False),
        body_stems=text("body_stems", phrase=False),
        # Prefix fields: title+aliases and body+tags, weighted like their raw fields.
        title_edges=fields.TEXT(analyzer=edges, phrase=False, field_boost=FIELD_WEIGHTS["title"]),
        body_edges=fields.TEXT(analyzer=edges, phrase=False, field_boost=FIELD_WEIGHTS["body"]),
        tag_keys=fields.KEYWORD(analyzer=lines),
        folder_keys=fields.KEYWORD(analyzer=lines),
        mtime=fields.NUMERIC(numtype=int, bits=64, stored=True, sortable=True),
        record=fields.STORED(),
    )


def _distinct(joined: str) -> List[str]:
    return list(dict.fromkeys(joined.split()))


class WhooshEngine(SearchEngine):
    name = "whoosh"
    batch_size = 500  # each whoosh commit writes a segment; fewer, larger batches build faster

    def __init__(self, directory: str) -> None:
        from whoosh import index

        self.directory = directory
        self._lock = threading.RLock()
        self._closed = False
        version_file = os.path.join(directory, "schema-version")
        try:
            with open(version_file, encoding="utf-8") as handle:
                stored_version = handle.read().strip()
        except OSError:
            stored_version = ""
        try:
            if stored_version == SCHEMA_VERSION and index.exists_in(directory):
                self._index = index.open_dir(directory)
            else:
                self._index = self._create(version_file)
            self._searcher = self._index.searcher()
        except Exception as error:  # whoosh raises many kinds of errors on damaged files
            raise IndexCorrupt(str(error)) from error

    def _create(self, version_file: str) -> Any:
        from whoosh import index

        if os.path.isdir(self.directory):
            shutil.rmtree(self.directory)
        os.makedirs(self.directory)
        created = index.create_in(self.directory, _schema())
        with open(version_file, "w", encoding="utf-8") as handle:
            handle.write(SCHEMA_VERSION)
        return created

    # -- writing ---------------------------------------------------------------------------------

    def _add(self, writer: Any, document: IndexDocument) -> None:
        record = document.record
        fields = document.fields
        writer.update_document(
            path=record.path,
            title=fields["title"],
            aliases=fields["aliases"],
            tags=fields["tags"],
            body=fields["body"],
            title_stems=fields["title_stems"],
            body_stems=fields["body_stems"],
            # Each distinct word once: prefix matches rank by field, and the n-grams stay few.
            title_edges=" ".join(_distinct(fields["title"] + " " + fields["aliases"])),
            body_edges=" ".join(_distinct(fields["body"] + " " + fields["tags"])),
            tag_keys="\n".join(tag_keys(record.tags)),
            folder_keys="\n".join(record.folder_keys),
            mtime=record.mtime_ns,
            record=record_to_json(record),
        )

    def write(self, upserts: Sequence[IndexDocument], deletes: Iterable[str] = ()) -> None:
        from whoosh.index import LockError

        with self._lock:
            try:
                writer = self._index.writer(limitmb=128)
            except LockError as error:
                raise IndexBusy(str(error) or "whoosh write lock is held") from error
            try:
                for path in deletes:
                    writer.delete_by_term("path", path)
                for document in upserts:
                    self._add(writer, document)
            except BaseException:
                writer.cancel()
                raise
            # whoosh's default merge on every commit rewrote the whole edge-n-gram index again and
            # again (a 10,000-note build stalled for minutes); segments are merged only when many.
            writer.commit(merge=len(self._index._segments()) >= _MERGE_FROM_SEGMENTS)
            # A fresh searcher sees the new segments (refresh() fails on a searcher of an empty index).
            self._searcher.close()
            self._searcher = self._index.searcher()

    def clear(self) -> None:
        with self._lock:
            self._searcher.close()
            self._index.close()
            self._index = self._create(os.path.join(self.directory, "schema-version"))
            self._searcher = self._index.searcher()

    # -- reading ---------------------------------------------------------------------------------

    def known_files(self) -> Dict[str, FileState]:
        with self._lock:
            stored = list(self._searcher.all_stored_fields())
        result: Dict[str, FileState] = {}
        for fields in stored:
            record = record_from_json(fields["record"])
            result[record.path] = FileState(record.mtime_ns, record.size, record.content_hash)
        return result

    def _term_query(self, term: Term) -> Any:
        from whoosh import query as q

        if term.kind == "prefix":
            token = term.tokens[0]
            if EDGE_MIN <= len(token) <= EDGE_MAX:
                return q.Or([q.Term("title_edges", token), q.Term("body_edges", token)])
            return q.Or([q.Prefix(name, token) for name in RAW_FIELDS])
        if term.kind == "word":
            token = term.tokens[0]
            exact: List[Any] = [q.Term(name, token) for name in RAW_FIELDS]
            if not is_cjk(token) and token.isascii() and token.isalpha():
                stem = light_stem(token)
                exact += [q.Term("title_stems", stem), q.Term("body_stems", stem)]
            return q.Or(exact)
        tokens = list(term.tokens)
        if term.prefix_last:
            head = tokens[:-1]
            last = self._term_query(Term("prefix", (tokens[-1],)))
            if len(head) == 1:
                return q.And([q.Or([q.Term(name, head[0]) for name in RAW_FIELDS]), last])
            return q.And([q.Or([q.Phrase(name, head) for name in RAW_FIELDS]), last])
        return q.Or([q.Phrase(name, tokens) for name in RAW_FIELDS])

    def _filter(self, query: ParsedQuery) -> Optional[Any]:
        from whoosh import query as q

        parts: List[Any] = []
        for tag in query.tags:
            parts.append(q.Prefix("tag_keys", tag.tag) if tag.prefix else q.Term("tag_keys", tag.tag))
        parts.extend(q.Prefix("folder_keys", folder) for folder in query.folders)
        return q.And(parts) if parts else None

    def search(self, query: ParsedQuery, limit: int) -> List[EngineHit]:
        from whoosh import query as q

        if query.is_empty:
            return []
        text_query = q.And([self._term_query(term) for term in query.terms])
        with self._lock:
            results = self._searcher.search(text_query, limit=limit, filter=self._filter(query))
            hits = [EngineHit(record_from_json(hit["record"]), float(hit.score)) for hit in results]
        # Same tie-break as FTS5: equal scores go newest first.
        hits.sort(key=lambda h: (-round(h.score, 9), -h.record.mtime_ns))
        return hits

    def recent(self, query: ParsedQuery, limit: int) -> List[NoteRecord]:
        from whoosh import query as q

        with self._lock:
            results = self._searcher.search(
                q.Every(), filter=self._filter(query), sortedby="mtime", reverse=True, limit=limit
            )
            records = [record_from_json(hit["record"]) for hit in results]
        records.sort(key=lambda r: (-r.mtime_ns, r.path))
        return records

    def get(self, path: str) -> Optional[NoteRecord]:
        with self._lock:
            fields = self._searcher.document(path=path)
        return record_from_json(fields["record"]) if fields else None

    def count(self) -> int:
        with self._lock:
            return int(self._searcher.doc_count())

    def terms_starting_with(self, prefix: str, limit: int) -> List[Tuple[str, int]]:
        found: Dict[str, int] = {}
        with self._lock:
            reader = self._searcher.reader()
            for name in ("title", "body"):
                for raw in reader.expand_prefix(name, prefix):
                    term = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
                    found[term] = max(found.get(term, 0), reader.doc_frequency(name, raw))
                    if len(found) >= limit:
                        break
        return sorted(found.items())[:limit]

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._searcher.close()
            self._index.close()
