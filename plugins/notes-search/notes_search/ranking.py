"""Orders the candidates an engine found, the same way for both engines: which field matched, and how.

The engines' BM25 finds the candidates (the best body matches plus the notes whose name, aliases,
title, folder, headings or tags match); this module ranks them by what a person typing the name of a
note expects: file name and aliases first, then title, folder, headings (H1 > H2 > H3), tags, body;
within a field an exact word beats a prefix of a longer word, which beats a corrected typo, and a
query that is the whole field (an alias, the file name) beats every partial match. BM25 (mostly the
body) only orders notes whose names and headings match alike. Weights and reasons: README, "Ranking".
"""

from collections import OrderedDict
from threading import Lock
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from .notes import NoteRecord
from .query import ParsedQuery, Term
from .tokens import as_typed, fold, is_cjk, light_stem, query_tokens

# Per matched field, for one query term. A second field matching the same term adds OTHER_FIELDS of
# its weight (a title and a folder both saying "sync" is a better sign than the title alone).
WEIGHTS: Dict[str, float] = {
    "name": 10.0,
    "aliases": 10.0,
    "title": 8.0,
    "folder": 6.0,
    "h1": 5.0,
    "h2": 4.0,
    "h3": 3.0,
    "tags": 2.5,
    "h4": 2.0,
    "h5": 2.0,
    "h6": 2.0,
}
_HEADING_LEVELS = ("h1", "h2", "h3", "h4", "h5", "h6")
# Fields where the typed word order counts (PHRASE): a folder or a tag is not read as a sentence.
_ORDERED_FIELDS = frozenset(("name", "aliases", "title", *_HEADING_LEVELS))
OTHER_FIELDS = 0.2
EXACT = 1.0  # the typed word is a word of the field
STEM = 0.85  # another form of it ("plans" for "plan")
PREFIX_LOW, PREFIX_HIGH = 0.5, 0.8  # a longer word starting with it: more of the word typed, nearer 0.8
FUZZY = 0.5  # a corrected word counts half, in every field alike
# The query is a whole field value (an alias, the file name, a heading): its weight once more per
# query word, since every word of it matching one value is stronger than the words scattered over
# a title and other headings; a still-typed last word: half.
WHOLE_FIELD = 1.0
# Per query term, once per note, when all the query's words stand in its typed order, side by side,
# in a name, alias, title or heading of any level (the last word may still be typed). The same for
# every such field, so their weights still order them; it is larger than a name's weight, so a
# heading saying the whole query ("### Data Descriptor") beats one query word in a name ("Data
# classes"), and "Standard Normal Distribution" beats "Normal Distribution Standard Deviation".
PHRASE = 8.0
# A word that matches with its accents as typed ("spravovať" in a Slovak note, not the Czech
# "spravovat"): its field's weight once more times this. Folding widens what matches; the accents
# typed decide between notes matching alike, never between fields.
AS_TYPED = 0.3
BODY = 2.0  # the engine's BM25, scaled to 0..1 over the candidates
_CACHE_SIZE = 2000  # notes whose field tokens are kept (~1 KB each)

Tokens = Tuple[str, ...]
# Field name -> (its values as token lists, every token of them, their light stems, every token with
# its accents as written): the sets answer most terms at once.
Fields = Dict[str, Tuple[Tuple[Tokens, ...], FrozenSet[str], FrozenSet[str], FrozenSet[str]]]


def _tokens(text: str) -> Tokens:
    # Split as a query is (text.query_tokens), so a query that is a whole field has its very tokens.
    return tuple(query_tokens(fold(text)))


def note_fields(record: NoteRecord) -> Fields:
    """The ranked fields of a note as folded token lists, one per value (each alias, each heading)."""
    fields: Dict[str, List[str]] = {level: [] for level in _HEADING_LEVELS}
    for level, text in record.headings:
        if 1 <= level <= 6:
            fields["h" + str(level)].append(text)
    fields["name"] = [record.name]
    fields["aliases"] = list(record.aliases)
    fields["title"] = [record.title]
    fields["folder"] = [part for part in record.folder.split("/") if part]
    fields["tags"] = [tag.replace("/", " ") for tag in record.tags]
    out: Fields = {}
    for name, texts in fields.items():
        values = tuple(_tokens(text) for text in texts)
        words = frozenset(token for value in values for token in value)
        if words:
            typed = words
            if not all(text.isascii() for text in texts):
                typed = frozenset(token for text in texts for token in query_tokens(as_typed(text)))
            out[name] = (values, words, frozenset(light_stem(word) for word in words), typed)
    return out


class _FieldCache:
    """Token lists of recently ranked notes: typing a word ranks the same notes keystroke after keystroke."""

    def __init__(self) -> None:
        self._items: OrderedDict[Tuple[str, int, int], Fields] = OrderedDict()
        self._lock = Lock()

    def get(self, record: NoteRecord) -> Fields:
        key = (record.path, record.mtime_ns, record.size)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        found = note_fields(record)
        with self._lock:
            self._items[key] = found
            while len(self._items) > _CACHE_SIZE:
                self._items.popitem(last=False)
        return found


_CACHE = _FieldCache()


def _prefix_quality(typed: str, word: str) -> float:
    return PREFIX_LOW + (PREFIX_HIGH - PREFIX_LOW) * len(typed) / max(len(word), 1)


def _single(term: Term, value: Tokens) -> float:
    token = term.tokens[0]
    if token in value:
        return EXACT
    best = 0.0
    if term.kind == "prefix":
        for word in value:
            if word.startswith(token):
                best = max(best, _prefix_quality(token, word))
    else:
        stem = light_stem(token)
        if any(light_stem(word) == stem for word in value):
            best = STEM
    return best


def _phrase(term: Term, value: Tokens) -> float:
    wanted = term.tokens
    size = len(wanted)
    best = 0.0
    for start in range(len(value) - size + 1):
        if value[start : start + size - 1] != wanted[:-1]:
            continue
        last = value[start + size - 1]
        if last == wanted[-1]:
            return EXACT
        if term.prefix_last and last.startswith(wanted[-1]):
            best = max(best, _prefix_quality(wanted[-1], last))
    return best


def term_match(term: Term, value: Tokens) -> float:
    """How well one query term matches one field value: EXACT, STEM, a prefix quality or 0."""
    if not value:
        return 0.0
    quality = _phrase(term, value) if term.kind == "phrase" else _single(term, value)
    return quality * (FUZZY if term.corrected else 1.0)


def _whole_field(query_tokens: Tokens, last_is_prefix: bool, value: Tokens) -> float:
    if value == query_tokens:
        return WHOLE_FIELD
    same_start = len(value) == len(query_tokens) and value[:-1] == query_tokens[:-1]
    if last_is_prefix and same_start and value[-1].startswith(query_tokens[-1]):
        return WHOLE_FIELD / 2
    return 0.0


def _as_typed(term: Term, typed_words: FrozenSet[str]) -> bool:
    """True when the field holds the term's words with their accents as typed."""
    typed = term.typed or term.tokens
    if term.kind == "prefix" or term.prefix_last:
        last = typed[-1]
        return all(word in typed_words for word in typed[:-1]) and (
            last in typed_words or any(word.startswith(last) for word in typed_words)
        )
    return all(word in typed_words for word in typed)


def _field_match(
    term: Term, values: Tuple[Tokens, ...], words: FrozenSet[str], stems: FrozenSet[str], typed: FrozenSet[str]
) -> float:
    quality = _plain_field_match(term, values, words, stems)
    if quality > 0 and _as_typed(term, typed):
        quality *= 1.0 + AS_TYPED
    return quality


def _plain_field_match(term: Term, values: Tuple[Tokens, ...], words: FrozenSet[str], stems: FrozenSet[str]) -> float:
    if term.kind != "phrase":
        # One word: the field's sets of words and stems answer it without looking at each value.
        token = term.tokens[0]
        if token in words:
            quality = EXACT
        elif term.kind == "prefix":
            quality = 0.0
            for word in words:
                if word.startswith(token):
                    quality = max(quality, _prefix_quality(token, word))
        else:
            quality = STEM if light_stem(token) in stems else 0.0
        return quality * FUZZY if term.corrected else quality
    if term.tokens[0] not in words:
        return 0.0
    return max(term_match(term, value) for value in values)


def _without_single_cjk(tokens: Tokens) -> Tokens:
    # The index adds a CJK run's last character alone ("会議" -> 会議, 議): words side by side in a
    # name are side by side without these.
    return tuple(token for token in tokens if not (len(token) == 1 and is_cjk(token)))


def in_typed_order(query_tokens: Tokens, last_is_prefix: bool, value: Tokens) -> bool:
    """True when the query's tokens stand side by side, in the typed order, in this field value."""
    wanted, value = _without_single_cjk(query_tokens), _without_single_cjk(value)
    size = len(wanted)
    if size < 2 or len(value) < size:
        return False
    for start in range(len(value) - size + 1):
        if value[start : start + size - 1] != wanted[:-1]:
            continue
        last = value[start + size - 1]
        if last == wanted[-1] or (last_is_prefix and last.startswith(wanted[-1])):
            return True
    return False


def field_score(query: ParsedQuery, fields: Fields) -> float:
    """The note's score from its name, aliases, title, folder, headings and tags (no body)."""
    total = 0.0
    for term in query.terms:
        best = summed = 0.0
        for name, (values, words, stems, typed) in fields.items():
            quality = _field_match(term, values, words, stems, typed)
            if quality > 0:
                weighted = WEIGHTS[name] * quality
                summed += weighted
                best = max(best, weighted)
        total += best + OTHER_FIELDS * (summed - best)
    query_tokens = tuple(token for term in query.terms for token in term.tokens)
    if query_tokens:
        last = query.terms[-1]
        last_is_prefix = last.kind == "prefix" or last.prefix_last
        whole = [
            WEIGHTS[name] * max(_whole_field(query_tokens, last_is_prefix, v) for v in values)
            for name, (values, words, _stems, _typed) in fields.items()
            if query_tokens[0] in words
        ]
        fuzzy = FUZZY if any(term.corrected for term in query.terms) else 1.0
        total += fuzzy * len(query_tokens) * max(whole, default=0.0)
        if len(query.terms) > 1 and any(
            name in _ORDERED_FIELDS
            and query_tokens[0] in words
            and any(in_typed_order(query_tokens, last_is_prefix, value) for value in values)
            for name, (values, words, _stems, _typed) in fields.items()
        ):
            total += fuzzy * PHRASE * len(query.terms)
    return total


def rank(
    query: ParsedQuery, candidates: Sequence[Tuple[NoteRecord, float]], limit: int
) -> List[Tuple[NoteRecord, float]]:
    """The best `limit` candidates (record, engine score higher-is-better), best first; ties newest first."""
    unique: Dict[str, Tuple[NoteRecord, float]] = {}
    for record, score in candidates:
        known: Optional[Tuple[NoteRecord, float]] = unique.get(record.path)
        if known is None or score > known[1]:
            unique[record.path] = (record, score)
    if not unique:
        return []
    top = max(score for _, score in unique.values())
    low = min(score for _, score in unique.values())
    spread = (top - low) or 1.0
    scored = []
    for record, score in unique.values():
        body = BODY * ((score - low) / spread if top != low else 1.0)
        scored.append((field_score(query, _CACHE.get(record)) + body, record))
    scored.sort(key=lambda item: (-item[0], -item[1].mtime_ns, item[1].path))
    return [(record, score) for score, record in scored[:limit]]


_NAMING_FIELDS = ("name", "aliases", "title", "folder", "tags")
_KEY_LIMIT = 200  # characters of a name key
PREFIX_KEY_LENGTH = 4  # a shorter query starts too many names to look them up by their start


def name_keys(record: NoteRecord) -> List[str]:
    """The note's file name, aliases and title as whole-field keys (tokens joined by spaces): the
    engines look a query up among them, so a note named exactly like the query is a candidate
    however many newer notes mention its words ("Obsidian" in a vault about Obsidian)."""
    keys: List[str] = []
    for value in (record.name, *record.aliases, record.title):
        key = " ".join(_tokens(value))[:_KEY_LIMIT]
        if key and key not in keys:
            keys.append(key)
    return keys


def query_key(query: ParsedQuery) -> Optional[Tuple[str, bool]]:
    """(the query as a name key, True when its last word is still a prefix), or None."""
    if not query.terms or any(term.corrected for term in query.terms):
        return None
    key = " ".join(token for term in query.terms for token in term.tokens)[:_KEY_LIMIT]
    last = query.terms[-1]
    still_typed = (last.kind == "prefix" or last.prefix_last) and len(key) >= PREFIX_KEY_LENGTH
    return (key, still_typed) if key else None


def naming_fields_match(query: ParsedQuery, record: NoteRecord) -> float:
    """How well every query term matches the note's file name, aliases, title, folder or tags (the
    weakest term decides; headings and body do not count)."""
    fields = _CACHE.get(record)
    weakest = EXACT
    for term in query.terms:
        best = 0.0
        for name in _NAMING_FIELDS:
            if name in fields:
                best = max(best, _field_match(term, *fields[name]))
        weakest = min(weakest, best)
    return weakest if query.terms else 0.0
