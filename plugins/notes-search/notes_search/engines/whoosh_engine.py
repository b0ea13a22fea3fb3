"""Fallback engine: whoosh (pure Python, from the whoosh-reloaded package) for Pythons without FTS5.

whoosh stores the index (words, positions for phrases, per-note records); the ranking is done here
rather than by whoosh's own scorer, which walked and scored every matching note in Python (263 ms
p95 per keystroke on 10,000 notes). Search mirrors the FTS5 engine:

- each field is indexed once, plus the first two letters of every word (the "starts" field, which
  answers two-letter prefixes); a longer prefix stands for its most frequent indexed words and a
  word for its inflections, both found in the vocabulary at query time. (Edge n-gram and *_stems
  fields made a first index of 10,000 notes take 5 minutes and 1.3 GB.)
- broad queries are ranked among their BROAD_CAP most recently indexed matches (highest document
  numbers: a new or edited note is added at the end), found by reading only the tails of the
  posting lists; the HEADING_CAP most recent notes whose title, alias or tag matches are ranked as
  well, so an old note whose title matches is still found;
- a query with a rare term (or a narrow tag/folder filter) looks its other terms up at the rare
  term's notes only, skipping through their posting lists;
- scores are BM25 with the shared field weights, computed the way FTS5's bm25() does (weighted hit
  counts per query phrase, document length over all fields), ties newest first.
"""

import errno
import heapq
import os
import shutil
import threading
import time
import traceback
from collections import OrderedDict
from itertools import islice
from math import log
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from ..focus import context_keys
from ..notes import IndexDocument, NoteRecord
from ..query import ParsedQuery, Term
from ..ranking import name_keys, query_key, rank
from ..tokens import is_cjk, light_stem
from .base import (
    BM25_POSTINGS,
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

# 6: name, folder, headings and links fields, headings in the record; 7: context_keys; 8: name_keys
SCHEMA_VERSION = "9"  # 9: combining marks inside words (tokens.py), H4-H6 headings
# A query matching more notes than this is ranked among its most recently indexed BROAD_CAP matches
# only: reading a posting list costs ~2 µs per note in whoosh, so a two-letter prefix or a word in
# nearly every note would otherwise read and score all 10,000 notes on each keystroke.
BROAD_CAP = 400
_PREFIX_WORDS = 16  # words a prefix stands for, per field: the most frequent ones
_PHRASE_PREFIX_WORDS = 8  # the same for the last word of a phrase still being typed
# Narrower queries look their other terms up at these notes instead of reading their posting lists.
_PROBE_LIMIT = 400
_K1, _B = 1.2, 0.75  # FTS5's bm25() constants
WRITE_LOCK_SECONDS = 5.0
_WORD_FIELDS = ("name", "title", "headings", "body")  # where other forms of a word and typo fixes are looked up
_CACHED_POSTINGS = 300_000  # postings kept between keystrokes (a few tens of MB at most)

# A word (str) or a phrase (tuple of words) in a whoosh field,
Key = Tuple[str, Union[str, Tuple[str, ...]]]
# ...and the field its hits count for: a word is looked up in its own field, except the first two
# letters of words, which all are in the "starts" field.
Leaf = Tuple[str, Key]
Postings = Dict[int, float]  # document number -> occurrences


def discard(directory: str, keep: bool) -> None:
    """Remove an index folder, or with `keep` move it aside as <folder>.corrupt-<time> for inspection
    (replacing an older damaged copy: a second one would only fill the disk)."""
    if not os.path.isdir(directory):
        return
    if not keep:
        shutil.rmtree(directory)
        return
    parent, name = os.path.split(directory)
    for old in os.listdir(parent):
        if old.startswith(name + ".corrupt-"):
            shutil.rmtree(os.path.join(parent, old), ignore_errors=True)
    os.replace(directory, f"{directory}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")


def whoosh_available() -> bool:
    try:
        import whoosh.index  # noqa: F401
    except ImportError:
        return False
    return True


def _schema() -> Any:
    from whoosh import analysis, columns, fields

    space = analysis.SpaceSeparatedTokenizer()
    lines = analysis.RegexTokenizer(r"[^\n]+")

    # Field weights are applied when ranking (see _View), so postings hold plain occurrence counts.
    def text() -> Any:
        return fields.TEXT(analyzer=space, phrase=True)

    return fields.Schema(
        path=fields.ID(stored=True, unique=True),
        name=text(),
        aliases=text(),
        title=text(),
        folder=text(),
        headings=text(),
        tags=text(),
        links=text(),
        body=text(),
        # The first two letters of every word, marked with its field's number in RAW_FIELDS: "3pl" for
        # a body word starting with "pl". A two-letter prefix is then one list of notes and hit counts
        # per field, instead of the hundreds of words it can stand for (finding those in the
        # vocabulary of every segment took ~40 ms). Longer prefixes stand for fewer words; indexing
        # three-letter starts too made a first index ~35% slower.
        starts=fields.KEYWORD(analyzer=space),
        tag_keys=fields.KEYWORD(analyzer=lines),
        folder_keys=fields.KEYWORD(analyzer=lines),
        context_keys=fields.KEYWORD(analyzer=lines),  # front matter cwd/project (focus.context_keys)
        name_keys=fields.KEYWORD(analyzer=lines),  # whole file name, aliases and title (ranking.name_keys)
        # Columns only: a NUMERIC field would also index 16 trie terms per note.
        mtime=fields.COLUMN(columns.NumericColumn("q")),
        length=fields.COLUMN(columns.NumericColumn("I")),  # words in all the text fields
        record=fields.STORED(),
    )


START = 2  # letters of a word start indexed in the "starts" field


def _word_count(text: str) -> int:
    return text.count(" ") + 1 if text else 0


def _starts(fields: Dict[str, str]) -> str:
    parts: List[str] = []
    for number, name in enumerate(RAW_FIELDS):
        marker = str(number)
        parts.extend(marker + word[:START] for word in fields[name].split() if len(word) >= START)
    return " ".join(parts)


class _Unit:
    """One FTS5 "phrase" of a query: its weighted hits in every field make one BM25 term."""

    __slots__ = ("leaves", "multiplier", "idf")

    def __init__(self, leaves: List[Leaf], multiplier: float = 1.0) -> None:
        self.leaves = leaves
        self.multiplier = multiplier
        self.idf = 0.0


class _View:
    """One searcher (one committed state of the index) and what queries learned from it.

    A write makes a new searcher and so a new view: cached postings and word lists never go stale.
    Document numbers are global (segment offset + number in the segment); a note added or edited
    later gets a higher one.
    """

    def __init__(self, searcher: Any) -> None:
        self.searcher = searcher
        self.reader = searcher.reader()
        self.segments: List[Tuple[Any, int, int]] = []
        for sub, offset in searcher.leaf_searchers():
            self.segments.append((sub, offset, sub.reader().doc_count_all()))
        self.end = self.reader.doc_count_all()
        self.docs = max(1, searcher.doc_count())
        total = sum(self.reader.field_length(name) for name in RAW_FIELDS)
        self.average_length = max(1.0, total / self.docs)
        self._lengths = self.reader.column_reader("length") if self.reader.has_column("length") else None
        self._length_of: Dict[int, int] = {}
        self._postings: OrderedDict[Key, Tuple[int, Postings]] = OrderedDict()
        self._cached = 0
        self._words: Dict[Tuple[str, str], List[Tuple[str, int]]] = {}
        self._forms: Dict[str, List[str]] = {}
        self._frequency: Dict[Key, int] = {}
        self._filters: Dict[Any, Set[int]] = {}
        self._records: Dict[int, NoteRecord] = {}

    # -- vocabulary ------------------------------------------------------------------------------

    def words(self, field: str, prefix: str) -> List[Tuple[str, int]]:
        """Indexed words of a field starting with `prefix`, most frequent first, with document counts."""
        key = (field, prefix)
        found = self._words.get(key)
        if found is not None:
            return found
        # Typing "plan" after "pla": filter the shorter prefix's list instead of reading the vocabulary.
        for end in range(len(prefix) - 1, 0, -1):
            shorter = self._words.get((field, prefix[:end]))
            if shorter is not None:
                found = [(word, count) for word, count in shorter if word.startswith(prefix)]
                break
        else:
            counts: Dict[str, int] = {}
            for sub, _offset, _size in self.segments:
                for raw, info in sub.reader().iter_prefix(field, prefix):
                    word = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
                    counts[word] = counts.get(word, 0) + info.doc_frequency()
            found = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        if len(self._words) > 4000:
            self._words.clear()
        self._words[key] = found
        return found

    def first_words(self, field: str, prefix: str, limit: int) -> List[Tuple[str, int]]:
        """The first `limit` words (alphabetically) of a field starting with `prefix`, with document
        counts; reads no further than that (typo correction asks whether a word exists at all)."""
        known = self._words.get((field, prefix))
        if known is not None:
            return sorted(known)[:limit]
        counts: Dict[str, int] = {}
        for sub, _offset, _size in self.segments:
            # A word among the first `limit` overall is among the first `limit` of every segment.
            for raw, info in islice(sub.reader().iter_prefix(field, prefix), limit):
                word = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
                counts[word] = counts.get(word, 0) + info.doc_frequency()
        return sorted(counts.items())[:limit]

    def forms(self, stem: str) -> List[str]:
        """Indexed words (titles and bodies) with this light stem, most frequent first, as in FTS5."""
        if len(stem) < 3:
            # Every stem of a longer word has 2 letters or more, and one of 2 ("ax" for "axes") would
            # mean reading every word starting with those letters on each keystroke.
            return []
        cached = self._forms.get(stem)
        if cached is None:
            cached = self._forms[stem] = word_forms(
                stem, lambda start: [w for name in _WORD_FIELDS for w in self.words(name, start)]
            )
        return cached

    def frequency(self, key: Key) -> int:
        """Documents containing a word (for a phrase, its rarest word: an upper bound)."""
        known = self._frequency.get(key)
        if known is not None:
            return known
        field, text = key
        words = (text,) if isinstance(text, str) else text
        count = int(min(self.reader.doc_frequency(field, word) for word in words)) if words else 0
        self._frequency[key] = count
        return count

    # -- postings --------------------------------------------------------------------------------

    def postings(self, key: Key, low: int) -> Postings:
        """Occurrences of a word in every document numbered `low` or more (others may be included).

        Lists are read from their tail and kept: the next keystroke usually needs them again.
        """
        cached = self._postings.get(key)
        if cached is not None:
            self._postings.move_to_end(key)
            if cached[0] <= low:
                return cached[1]
            found, high = cached[1], cached[0]
        else:
            found, high = {}, self.end
        size = len(found)
        self._read(key, low, high, found)
        self._cached += len(found) - size
        self._postings[key] = (low, found)
        while self._cached > _CACHED_POSTINGS and len(self._postings) > 1:
            _, (_, dropped) = self._postings.popitem(last=False)
            self._cached -= len(dropped)
        return found

    def _read(self, key: Key, low: int, high: int, out: Postings) -> None:
        """Add the occurrences in documents low..high-1 to `out`."""
        from whoosh import query as q
        from whoosh.reading import TermNotFound

        field, text = key
        for sub, offset, size in self.segments:
            start, stop = max(0, low - offset), min(size, high - offset)
            if start >= stop:
                continue
            if isinstance(text, str):
                try:
                    matcher = sub.reader().postings(field, text)  # skips deleted documents
                except TermNotFound:
                    continue
                phrase = False
            else:
                matcher = q.Phrase(field, list(text)).matcher(sub)
                phrase = True
            if not matcher.is_active():
                continue
            if start:
                matcher.skip_to(start)  # whole blocks of postings are skipped unread
            while matcher.is_active():
                docnum = matcher.id()
                if docnum >= stop:
                    break
                # A phrase matcher's weight() is not a count of occurrences; its spans are.
                out[docnum + offset] = float(len(matcher.spans())) if phrase else matcher.weight()
                matcher.next()

    def length(self, docnum: int) -> int:
        known = self._length_of.get(docnum)
        if known is None:
            known = int(self._lengths[docnum]) if self._lengths is not None else 0
            self._length_of[docnum] = known
        return known

    def allowed(self, query: ParsedQuery, filter_query: Any) -> Optional[Set[int]]:
        """Documents passing the query's tag and folder filters (None: no filter)."""
        if filter_query is None:
            return None
        key = (query.tags, query.folders)
        found = self._filters.get(key)
        if found is None:
            found = set(self.searcher.docs_for_query(filter_query))
            if len(self._filters) > 64:
                self._filters.clear()
            self._filters[key] = found
        return found

    def record(self, docnum: int) -> NoteRecord:
        known = self._records.get(docnum)
        if known is None:
            known = record_from_json(self.searcher.stored_fields(docnum)["record"])
            self._records[docnum] = known
        return known

    # -- queries ---------------------------------------------------------------------------------

    def units(self, term: Term) -> List[_Unit]:
        """The FTS5 phrases a query term stands for (see sqlite_fts._term_expression)."""
        if term.kind == "prefix":
            prefix = term.tokens[0]
            leaves: List[Leaf] = []
            for number, field in enumerate(RAW_FIELDS):
                if len(prefix) == START:
                    leaves.append((field, ("starts", str(number) + prefix)))
                else:
                    words = self.words(field, prefix)[:_PREFIX_WORDS]
                    leaves.extend((field, (field, word)) for word, _ in words)
            return [_Unit(leaves)]
        if term.kind == "word":
            token = term.tokens[0]
            exact: List[Leaf] = [(field, (field, token)) for field in RAW_FIELDS]
            if is_cjk(token) or not (token.isascii() and token.isalpha()):
                return [_Unit(exact)]
            forms = [form for form in self.forms(light_stem(token)) if form != token]
            if not forms:
                return [_Unit(exact)]
            # The typed word counts twice (alone and among its forms), so it ranks above "runs" or "ran".
            others = [_Unit([(field, (field, form)) for field in RAW_FIELDS]) for form in forms]
            return [_Unit(exact, 2.0), *others]
        tokens = tuple(term.tokens)
        if not term.prefix_last:
            return [_Unit([(field, (field, tokens)) for field in RAW_FIELDS])]
        # A phrase whose last word is still being typed: one phrase per word it may become.
        head, last = tokens[:-1], tokens[-1]
        leaves = []
        for field in RAW_FIELDS:
            for word, _ in self.words(field, last)[:_PHRASE_PREFIX_WORDS]:
                leaves.append((field, (field, (*head, word)) if head else (field, word)))
        return [_Unit(leaves)]

    def idf(self, unit: _Unit) -> float:
        """FTS5's IDF, from the documents matching the unit in its most frequent field (an estimate)."""
        per_field: Dict[str, int] = {}
        for field, key in unit.leaves:
            per_field[field] = per_field.get(field, 0) + self.frequency(key)
        hits = min(self.docs, max(per_field.values(), default=0))
        value = log((self.docs - hits + 0.5) / (hits + 0.5))
        return value if value > 0 else 1e-6  # as FTS5: a word in most notes still counts a little

    def matching(self, units: List[_Unit], low: int, fields: Sequence[str]) -> Set[int]:
        """Documents numbered `low` or more where one of the units matches in one of `fields`."""
        found: Set[int] = set()
        for unit in units:
            for field, key in unit.leaves:
                if field in fields:
                    found.update(self.postings(key, low))
        if low > 0:
            found = {docnum for docnum in found if docnum >= low}
        return found

    def probe(self, key: Key, docnums: List[int]) -> Postings:
        """Occurrences of a word in the given documents only (sorted): whoosh skips to each of them,
        which for a few documents costs far less than reading a list that holds most of the index."""
        from whoosh import query as q
        from whoosh.reading import TermNotFound

        field, text = key
        out: Postings = {}
        for sub, offset, size in self.segments:
            wanted = [docnum - offset for docnum in docnums if offset <= docnum < offset + size]
            if not wanted:
                continue
            if isinstance(text, str):
                try:
                    matcher = sub.reader().postings(field, text)
                except TermNotFound:
                    continue
            else:
                matcher = q.Phrase(field, list(text)).matcher(sub)
            phrase = not isinstance(text, str)
            for docnum in wanted:
                if not matcher.is_active():
                    break
                if matcher.id() < docnum:
                    matcher.skip_to(docnum)
                    if not matcher.is_active():
                        break
                if matcher.id() == docnum:
                    out[docnum + offset] = float(len(matcher.spans())) if phrase else matcher.weight()
        return out

    def search(self, query: ParsedQuery, filter_query: Any, limit: int, broad_cap: int) -> List[EngineHit]:
        terms = [self.units(term) for term in query.terms]
        # Upper bounds of the notes each term matches: one that matches none settles the query.
        sizes = [min(self.docs, sum(self.frequency(key) for u in units for _, key in u.leaves)) for units in terms]
        allowed = self.allowed(query, filter_query)
        if min(sizes) == 0 or (allowed is not None and not allowed):
            return []
        cap = max(broad_cap, limit + TIE_MARGIN)
        for units in terms:
            for unit in units:
                unit.idf = self.idf(unit) * unit.multiplier

        probed: Dict[Key, Postings] = {}
        rarest = min(range(len(terms)), key=sizes.__getitem__)
        low = 0
        if allowed is not None and len(allowed) <= _PROBE_LIMIT:
            # A narrow filter ("#project plan"): look the terms up in its notes only.
            matches = self._probe_terms(terms, set(allowed), probed)
        elif sizes[rarest] <= _PROBE_LIMIT and len(terms) > 1:
            # A rare word and a common one ("zebra pl"): the rare one's notes are the candidates.
            first = self.matching(terms[rarest], 0, RAW_FIELDS)
            if allowed is not None:
                first &= allowed
            others = [units for number, units in enumerate(terms) if number != rarest]
            matches = self._probe_terms(others, first, probed)
        else:
            low, matches = self._recent_matches(terms, allowed, cap, sizes[rarest], RAW_FIELDS)

        floor = heading_low = 0
        if low > 0 or len(matches) > cap:
            window = heapq.nlargest(cap, matches)
            floor = heading_low = window[-1]
            matches = set(window)
            # The window holds recent notes only; a note whose title, alias or tag matches every term
            # is ranked however old (the HEADING_CAP most recent of them, as in the FTS5 engine).
            heading_sizes = [
                sum(self.frequency(key) for u in units for field, key in u.leaves if field in HEADING_FIELDS)
                for units in terms
            ]
            if min(heading_sizes):
                heading_low, heading = self._recent_matches(
                    terms, allowed, HEADING_CAP, min(heading_sizes), HEADING_FIELDS
                )
                matches.update(heapq.nlargest(HEADING_CAP, heading))
        scores, heading_scores = self._score(terms, matches, floor, min(floor, heading_low), probed)
        if sum(sizes) > BM25_POSTINGS:
            # As the FTS5 engine, whose bm25() would count that many entries first: newest first.
            scores = dict.fromkeys(scores, 0.0)
            heading_scores = dict.fromkeys(heading_scores, 0.0)
        # The candidates ranking.rank() orders, as in the FTS5 engine: the best matches overall, and
        # the best of those matching every term in a name, alias, title, folder, heading or tag.
        best = heapq.nlargest(max(BODY_CANDIDATES, limit + TIE_MARGIN), scores, key=lambda d: (scores[d], d))
        chosen = set(best)
        chosen.update(heapq.nlargest(HEADING_CANDIDATES, heading_scores, key=lambda d: (heading_scores[d], d)))
        chosen.update(self.named(query, allowed))
        body_scores = {d: (scores[d] if d in best or d >= floor else 0.0) for d in chosen}
        candidates = [(self.record(docnum), body_scores[docnum]) for docnum in chosen]
        return [EngineHit(record, score) for record, score in rank(query, candidates, limit)]

    def named(self, query: ParsedQuery, allowed: Optional[Set[int]]) -> List[int]:
        """The newest notes whose whole file name, alias or title is the query and, with the last word
        still typed, the newest that start like it (as the FTS5 engine's _named)."""

        found = query_key(query)
        if found is None:
            return []
        key, is_prefix = found
        docs = heapq.nlargest(NAMED_CANDIDATES, self._allowed_docs([key], allowed))
        if is_prefix:
            # The first keys starting like the query, in key order (as the FTS5 engine reads them),
            # looked up together: each lookup of its own cost a quarter of a millisecond.
            keys = sorted(
                raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
                for sub, _offset, _size in self.segments
                for raw, _info in islice(sub.reader().iter_prefix("name_keys", key), NAMED_CANDIDATES)
            )
            others = [other for other in keys[:NAMED_CANDIDATES] if other != key]
            if others:
                docs.extend(self._allowed_docs(others, allowed)[:NAMED_CANDIDATES])
        return docs

    def _allowed_docs(self, keys: Sequence[str], allowed: Optional[Set[int]]) -> List[int]:
        from whoosh import query as q

        lookup = q.Or([q.Term("name_keys", key) for key in keys]) if len(keys) > 1 else q.Term("name_keys", keys[0])
        return [d for d in self.searcher.docs_for_query(lookup) if allowed is None or d in allowed]

    def _probe_terms(self, terms: List[List[_Unit]], candidates: Set[int], probed: Dict[Key, Postings]) -> Set[int]:
        """The candidates every term matches; body postings looked up at the candidates only."""
        matches = candidates
        for units in terms:
            if not matches:
                break
            ordered = sorted(matches)
            docs: Set[int] = set()
            for unit in units:
                for _field, key in unit.leaves:
                    # A list hardly longer than the candidates is read in full (and kept): skipping
                    # costs ~10x more per document than reading.
                    if self.frequency(key) <= 10 * len(ordered):
                        found = self.postings(key, 0)
                    else:
                        found = probed[key] = self.probe(key, ordered)
                    docs.update(matches.intersection(found))
            matches = matches & docs
        return matches

    def _recent_matches(
        self, terms: List[List[_Unit]], allowed: Optional[Set[int]], cap: int, rarest: int, fields: Sequence[str]
    ) -> Tuple[int, Set[int]]:
        """(low, every match in `fields` numbered low or more), with `cap` matches at least unless
        low is 0.

        The tails of the posting lists are read, widened until they hold `cap` matches. The first
        guess follows the rarest term: a rare word is read in full at once, a word in every note
        only ~cap notes deep.
        """
        span = int(cap * 1.5 * self.docs / max(1, rarest)) + 256
        while True:
            low = max(0, self.end - span)
            matches: Set[int] = set()
            for number, units in enumerate(terms):
                docs = self.matching(units, low, fields)
                matches = docs if number == 0 else matches & docs
                if not matches:
                    break
            if allowed is not None:
                matches &= allowed
            if len(matches) >= cap or low == 0:
                return low, matches
            span = max(span * 2, int(span * cap * 1.5 / max(1, len(matches))))

    def _score(
        self,
        terms: List[List[_Unit]],
        candidates: Set[int],
        floor: int,
        heading_floor: int,
        probed: Dict[Key, Postings],
    ) -> Tuple[Dict[int, float], Dict[int, float]]:
        """BM25 the way FTS5's bm25() computes it: per query phrase, hits weighted by field and
        summed, document length over all fields. Below `floor` (outside the window of recent
        matches) only heading-field hits count, as in the FTS5 engine's separate heading query;
        those are read down to `heading_floor`, below which no candidate is. Also returns the
        heading-field part of the score of the notes matching every term in heading fields.
        """
        scores: Dict[int, float] = dict.fromkeys(candidates, 0.0)
        heading_scores: Dict[int, float] = dict.fromkeys(candidates, 0.0)
        heading_matches: Optional[Set[int]] = None
        average = self.average_length
        norm = {docnum: _K1 * (1 - _B + _B * self.length(docnum) / average) for docnum in candidates}
        for units in terms:
            term_heading: Set[int] = set()
            for unit in units:
                hits: Dict[int, float] = {}
                heading_hits: Dict[int, float] = {}
                for field, key in unit.leaves:
                    weight = FIELD_WEIGHTS[field]
                    in_heading = field in HEADING_FIELDS
                    low = heading_floor if field in HEADING_FIELDS else floor
                    postings = probed[key] if key in probed else self.postings(key, low)
                    if len(postings) < len(scores):
                        pairs: Iterable[Tuple[int, float]] = (
                            (d, n) for d, n in postings.items() if d >= low and d in scores
                        )
                    else:
                        pairs = ((d, postings[d]) for d in scores if d >= low and d in postings)
                    for docnum, count in pairs:
                        hits[docnum] = hits.get(docnum, 0.0) + weight * count
                        if in_heading:
                            heading_hits[docnum] = heading_hits.get(docnum, 0.0) + weight * count
                idf = unit.idf
                for docnum, freq in hits.items():
                    scores[docnum] += idf * freq * (_K1 + 1) / (freq + norm[docnum])
                for docnum, freq in heading_hits.items():
                    heading_scores[docnum] += idf * freq * (_K1 + 1) / (freq + norm[docnum])
                term_heading.update(heading_hits)
            heading_matches = term_heading if heading_matches is None else heading_matches & term_heading
        kept = heading_matches or set()
        return scores, {docnum: heading_scores[docnum] for docnum in kept}


class WhooshEngine(SearchEngine):
    name = "whoosh"
    # Each whoosh commit writes a segment, and merging large segments later rewrites them in Python
    # (over a minute for 10,000 notes), so they are never merged; but every search reads every
    # segment (a prefix's words are looked up in each). So the batches of a first index double, up
    # to MAX_BATCH: the first notes are searchable soon, and 10,000 notes make four segments.
    batch_size = 1000
    MAX_BATCH = 8000
    broad_cap = BROAD_CAP

    def __init__(self, directory: str) -> None:
        from whoosh import index

        self.directory = directory
        self._lock = threading.RLock()  # the searcher and its view: searches run one at a time
        self._write_lock = threading.Lock()  # writers; searches go on while a batch is written
        self._closed = False
        self._view: Optional[_View] = None
        self.unwritable: Optional[IndexUnwritable] = None  # why, when opened read-only
        version_file = os.path.join(directory, "schema-version")
        try:
            with open(version_file, encoding="utf-8") as handle:
                stored_version = handle.read().strip()
        except OSError:
            stored_version = ""
        try:
            if stored_version == SCHEMA_VERSION and index.exists_in(directory):
                self._index = index.open_dir(directory)
                self._note_read_only()
            else:
                self._index = self._create(version_file)
            self._searcher = self._index.searcher()
        except Exception as error:  # whoosh raises many kinds of errors on damaged files
            raise (self.translate(error) or IndexCorrupt(str(error))) from error

    def _note_read_only(self) -> None:
        """A folder that cannot be written keeps its index searchable: only writes are refused."""
        reason = ""
        try:
            if os.statvfs(self.directory).f_flag & getattr(os, "ST_RDONLY", 1):
                reason = "read_only"
        except (OSError, AttributeError):
            pass
        if not reason and not os.access(self.directory, os.W_OK):
            reason = "permission"
        if reason:
            self.read_only = True
            self.unwritable = IndexUnwritable(reason, self.directory)

    def translate(self, error: BaseException) -> Optional[Exception]:
        """whoosh raises whatever its readers meet on a damaged file (struct.error, EOFError, KeyError,
        ValueError, zlib.error...): an error raised inside whoosh while reading is taken as damage,
        an OSError of a full, read-only or unwritable folder never is."""
        from whoosh.index import LockError

        if isinstance(error, (IndexCorrupt, IndexBusy, IndexUnwritable)):
            return error
        if isinstance(error, LockError):
            return IndexBusy(str(error) or "whoosh write lock is held")
        if isinstance(error, OSError):
            reason = os_reason(error)
            if reason == "io" and disk_is_full(self.directory):
                reason = "disk_full"
            if reason != "io" or error.errno == errno.EIO:
                return IndexUnwritable(reason, self.directory, str(error))
            return IndexCorrupt(str(error))  # a segment file gone or unreadable
        if isinstance(error, (MemoryError, KeyboardInterrupt, SystemExit)):
            return None
        frames = traceback.extract_tb(error.__traceback__)
        if frames and os.sep + "whoosh" + os.sep in frames[-1].filename:
            return IndexCorrupt(f"{type(error).__name__}: {error}")
        return None

    def _create(self, version_file: str) -> Any:
        from whoosh import index

        if os.path.isdir(self.directory):
            shutil.rmtree(self.directory)
        os.makedirs(self.directory)
        created = index.create_in(self.directory, _schema())
        from agentty_plugin.files import atomic_write_text

        atomic_write_text(version_file, SCHEMA_VERSION)  # a full disk leaves no empty marker behind
        return created

    # -- writing ---------------------------------------------------------------------------------

    def _add(self, writer: Any, document: IndexDocument) -> None:
        record = document.record
        fields = document.fields
        writer.update_document(
            path=record.path,
            **{name: fields[name] for name in RAW_FIELDS},
            starts=_starts(fields),
            tag_keys="\n".join(tag_keys(record.tags)),
            folder_keys="\n".join(record.folder_keys),
            context_keys="\n".join(context_keys(record.context)),
            name_keys="\n".join(name_keys(record)),
            mtime=record.mtime_ns,
            length=sum(_word_count(fields[name]) for name in RAW_FIELDS),
            record=record_to_json(record),
        )

    def write(self, upserts: Sequence[IndexDocument], deletes: Iterable[str] = ()) -> None:
        from whoosh.index import LockError

        with self._write_lock:
            if self.unwritable is not None:
                raise self.unwritable
            try:
                # Waits for the lock as SQLite does (5 s): a second instance's batches then take turns
                # with the first one's instead of failing and being parsed again on every retry.
                writer = self._index.writer(limitmb=128, timeout=WRITE_LOCK_SECONDS)
            except LockError as error:
                raise IndexBusy(str(error) or "whoosh write lock is held") from error
            try:
                for path in deletes:
                    writer.delete_by_term("path", path)
                # One document per path (update_document() does not see the batch's own documents),
                # oldest first: within a batch, the newest note gets the highest document number.
                unique = {document.record.path: document for document in upserts}.values()
                for document in sorted(unique, key=lambda d: d.record.mtime_ns):
                    self._add(writer, document)
            except BaseException:
                writer.cancel()
                raise
            # whoosh's default merge folds only small segments (those of a few edited notes) into the
            # new one, which is cheap; the large ones of a first index are left alone.
            try:
                writer.commit()
            except BaseException:
                try:
                    writer.cancel()  # a commit that failed (a full disk) must not keep the write lock
                except Exception:
                    pass
                raise
            if len(upserts) >= self.batch_size:
                self.batch_size = min(self.MAX_BATCH, self.batch_size * 2)
            fresh = self._index.searcher()
            with self._lock:
                old, self._searcher, self._view = self._searcher, fresh, None
                old.close()

    def clear(self) -> None:
        with self._write_lock, self._lock:
            if self.unwritable is not None:
                raise self.unwritable
            self._searcher.close()
            self._index.close()
            self._index = self._create(os.path.join(self.directory, "schema-version"))
            self._searcher = self._index.searcher()
            self._view = None

    # -- reading ---------------------------------------------------------------------------------

    def _current(self) -> _View:
        if self._view is None:
            self._view = _View(self._searcher)
        return self._view

    def known_files(self) -> Dict[str, FileState]:
        with self._lock:
            stored = list(self._searcher.all_stored_fields())
        result: Dict[str, FileState] = {}
        for fields in stored:
            record = record_from_json(fields["record"])
            result[record.path] = FileState(record.mtime_ns, record.size, record.content_hash)
        return result

    def _filter(self, query: ParsedQuery) -> Optional[Any]:
        from whoosh import query as q

        parts: List[Any] = []
        for tag in query.tags:
            parts.append(q.Prefix("tag_keys", tag.tag) if tag.prefix else q.Term("tag_keys", tag.tag))
        parts.extend(q.Prefix("folder_keys", folder) for folder in query.folders)
        return q.And(parts) if parts else None

    def search(self, query: ParsedQuery, limit: int) -> List[EngineHit]:
        if query.is_empty:
            return []
        with self._lock:
            return self._current().search(query, self._filter(query), limit, self.broad_cap)

    def recent(self, query: ParsedQuery, limit: int) -> List[NoteRecord]:
        from whoosh import query as q

        with self._lock:
            results = self._searcher.search(
                q.Every(), filter=self._filter(query), sortedby="mtime", reverse=True, limit=limit
            )
            records = [record_from_json(hit["record"]) for hit in results]
        records.sort(key=lambda r: (-r.mtime_ns, r.path))
        return records

    def related(self, keys: Sequence[str], limit: int) -> List[NoteRecord]:
        from whoosh import query as q

        if not keys:
            return []
        with self._lock:
            results = self._searcher.search(
                q.Or([q.Term("context_keys", key) for key in keys]), sortedby="mtime", reverse=True, limit=limit
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

    def has_match(self, term: Term) -> bool:
        """From the vocabulary's document counts: no search (typo correction asks for every word)."""
        with self._lock:
            view = self._current()
            return any(view.frequency(key) > 0 for unit in view.units(term) for _field, key in unit.leaves)

    def terms_starting_with(self, prefix: str, limit: int, headings_only: bool = False) -> List[Tuple[str, int]]:
        found: Dict[str, int] = {}
        with self._lock:
            view = self._current()
            for name in HEADING_FIELDS if headings_only else _WORD_FIELDS:
                for word, count in view.first_words(name, prefix, limit):
                    found[word] = max(found.get(word, 0), count)
        return sorted(found.items())[:limit]

    def close(self) -> None:
        with self._write_lock, self._lock:
            if self._closed:
                return
            self._closed = True
            self._searcher.close()
            self._index.close()
