"""Typo tolerance: when a query finds nothing, replace unknown words with the nearest indexed word."""

from typing import Dict, List, Optional, Tuple

from .engines.base import SearchEngine
from .query import ParsedQuery, Term
from .text import is_cjk

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


def _known(engine: SearchEngine, term: Term) -> bool:
    token = term.tokens[0]
    found = engine.terms_starting_with(token, 1)
    if term.kind == "prefix":
        return bool(found)
    return bool(found) and found[0][0] == token


def nearest_word(engine: SearchEngine, word: str) -> Optional[str]:
    """The closest indexed word (fewest edits, then most notes, then alphabetical), or None."""
    limit = allowed_distance(word)
    if limit == 0 or not word.isalpha():
        return None
    candidates: Dict[str, int] = {}
    # Words sharing the first letter, or starting with the second (covers a wrong first letter
    # pair such as "teh" -> "the" and a missing first letter).
    for start in {word[0], word[1]}:
        for term, docs in engine.terms_starting_with(start, _CANDIDATES_PER_START):
            candidates[term] = max(docs, candidates.get(term, 0))
    best: Optional[Tuple[int, int, str]] = None
    for term, docs in candidates.items():
        if term == word or not term.isalpha():
            continue
        distance = edit_distance(word, term, limit)
        if distance > limit:
            continue
        key = (distance, -docs, term)
        if best is None or key < best:
            best = key
    return best[2] if best else None


def correct_query(
    engine: SearchEngine, query: ParsedQuery
) -> Optional[Tuple[ParsedQuery, List[Tuple[str, str]]]]:
    """A corrected query and the (typed, used) word pairs, or None when nothing could be corrected."""
    changed: List[Tuple[str, str]] = []
    terms: List[Term] = []
    for term in query.terms:
        single = term.kind in ("word", "prefix") and not is_cjk(term.tokens[0])
        if single and not _known(engine, term):
            replacement = nearest_word(engine, term.tokens[0])
            if replacement:
                changed.append((term.tokens[0], replacement))
                terms.append(Term("word", (replacement,)))
                continue
        terms.append(term)
    if not changed:
        return None
    return query.with_terms(tuple(terms)), changed
