"""Typo tolerance: when a query finds nothing, replace unknown words with the nearest indexed word."""

from typing import Dict, Iterable, List, Optional, Tuple

from .engines.base import SearchEngine
from .query import ParsedQuery, Term
from .tokens import is_cjk

_CANDIDATES_PER_START = 20_000


def allowed_distance(word: str) -> int:
    """Short words are left alone: "cat" -> "car" would be a guess, not a correction."""
    if len(word) < 4:
        return 0
    return 1 if len(word) < 8 else 2


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance with adjacent transpositions; stops early and returns limit + 1
    as soon as the distance must exceed `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous_previous: List[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        row_best = current[0]
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, previous_previous[j - 2] + 1)
            current[j] = value
            row_best = min(row_best, value)
        if row_best > limit:
            return limit + 1
        previous_previous, previous = previous, current
    return previous[-1]




def _trimmed(a: str, b: str) -> Tuple[str, str]:
    """a and b without their common start and end (where edits cannot be)."""
    start = 0
    shortest = min(len(a), len(b))
    while start < shortest and a[start] == b[start]:
        start += 1
    end = 0
    while end < shortest - start and a[-1 - end] == b[-1 - end]:
        end += 1
    return a[start : len(a) - end], b[start : len(b) - end]


def within(a: str, b: str, limit: int) -> int:
    """edit_distance(a, b, limit), computed on what differs only: one edit is recognised at once."""
    a, b = _trimmed(a, b)
    if len(a) <= 1 and len(b) <= 1:
        return max(len(a), len(b))
    if len(a) == len(b) == 2 and a == b[::-1]:
        return 1  # two letters swapped
    if limit <= 1:
        return limit + 1
    return edit_distance(a, b, limit)


def _candidates(
    engine: SearchEngine, starts: Iterable[str], word: str, limit: int, headings_only: bool, prefix: bool
) -> Dict[str, int]:
    found: Dict[str, int] = {}
    for start in starts:
        for term, docs in engine.terms_starting_with(start, _CANDIDATES_PER_START, headings_only):
            if term == word or not term.isalpha():
                continue
            if prefix:
                # A word still being typed is compared with the starts of indexed words: "meetn" is one
                # edit from "meeti", the start of "meeting".
                for size in {len(word) - 1, len(word), len(word) + 1}:
                    if 0 < size <= len(term):
                        found[term[:size]] = max(docs, found.get(term[:size], 0))
            elif abs(len(term) - len(word)) <= limit:
                found[term] = max(docs, found.get(term, 0))
    found.pop(word, None)
    return found


def _best(word: str, candidates: Dict[str, int], limit: int) -> Optional[Tuple[int, int, str]]:
    """The nearest candidate as (edits, -notes, word). One edit is looked for first, which needs no
    table of distances; only when no word is one edit away are two edits computed."""
    for allowed in range(1, limit + 1):
        best: Optional[Tuple[int, int, str]] = None
        for term, docs in candidates.items():
            distance = within(word, term, allowed)
            if distance > allowed:
                continue
            key = (distance, -docs, term)
            if best is None or key < best:
                best = key
        if best is not None:
            return best
    return None


def nearest_word(engine: SearchEngine, word: str, prefix: bool = False) -> Optional[str]:
    """The closest indexed word (fewest edits, then most notes, then alphabetical), or None; with
    `prefix`, the closest start of an indexed word (the last word of a query is still being typed).

    Most typos are past the second letter, or swap the second and third ("bolck"): words starting
    with the typed first two letters, or with the first and third, are looked at first. Only when
    none is one edit away are all words sharing the first letter, or starting with the second,
    compared (a wrong or missing second letter). The words of names, titles and headings come
    first: their lists are short to read, and a known note's name is what most queries mean."""
    limit = allowed_distance(word)
    if limit == 0 or not word.isalpha():
        return None
    found: List[Tuple[int, int, str]] = []
    for headings_only in (True, False):
        for starts in ({word[:2], word[0] + word[2]}, {word[0], word[1]}):
            candidates = _candidates(engine, starts, word, limit, headings_only, prefix)
            best = _best(word, candidates, limit)
            if best is not None:
                if best[0] == 1:
                    return best[2]
                found.append(best)
    return min(found)[2] if found else None


def correct_query(
    engine: SearchEngine, query: ParsedQuery
) -> Optional[Tuple[ParsedQuery, List[Tuple[str, str]]]]:
    """A corrected query and the (typed, used) word pairs, or None when nothing could be corrected."""
    changed: List[Tuple[str, str]] = []
    terms: List[Term] = []
    for term in query.terms:
        single = term.kind in ("word", "prefix") and not is_cjk(term.tokens[0])
        if single and not engine.has_match(term):
            replacement = nearest_word(engine, term.tokens[0], prefix=term.kind == "prefix")
            if replacement:
                changed.append((term.tokens[0], replacement))
                # The last word keeps its prefix meaning: "code bolck" searches "code block*", as typed right.
                terms.append(Term(term.kind, (replacement,), corrected=True))
                continue
        terms.append(term)
    if not changed:
        return None
    return query.with_terms(tuple(terms)), changed
