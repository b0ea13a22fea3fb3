"""Typo tolerance: when a query finds nothing, replace unknown words with the nearest indexed word."""

from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

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
    engine: SearchEngine,
    starts: Iterable[str],
    word: str,
    limit: int,
    headings_only: bool,
    prefix: bool,
    third_and_fourth: Sequence[str] = (),
) -> Dict[str, int]:
    """Indexed words (or, with `prefix`, their starts) starting with one of `starts` that could be
    within `limit` edits of `word`; with `third_and_fourth`, only words whose third and fourth letters
    are one of these (the engine filters them: a first letter alone starts thousands of words)."""
    found: Dict[str, int] = {}
    for start in starts:
        if third_and_fourth:
            listed = engine.terms_by_letters(start, third_and_fourth, _CANDIDATES_PER_START, headings_only)
        else:
            listed = engine.terms_starting_with(start, _CANDIDATES_PER_START, headings_only)
        for term, docs in listed:
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


# Corrections tried per typed word: the nearest indexed words, each checked against the whole query.
CHOICES = 6
# Notes counted per tried correction (enough to tell a word that goes with the others from one that does not).
MATCH_CAP = 50
BOTH = (True, False)  # nearest_words reads the words of names, titles and headings, then the body's
# Words tried, rarest first, when every word is in some note but no note holds them all; only words
# in this few notes are taken for a misspelling (a word in many notes is most likely meant as typed).
_CORRECT_ONE_WORDS = 2
RARE_TYPO_NOTES = 3


def nearest_words(
    engine: SearchEngine, word: str, prefix: bool = False, most_edits: int = 2, names_first: bool = False
) -> List[Tuple[int, int, str]]:
    """The indexed words (with `prefix`, starts of words: the last word is still being typed) within
    allowed_distance(word) edits, as (edits, -notes, word), nearest first, then in most notes.

    Most typos are past the second letter, or swap the second and third ("bolck"): words starting
    with the typed first two letters, or with the first and third, are all compared. Among the words
    sharing only the first letter, those a dropped or wrong second letter explains are ("lgin" for
    "login", even when "lin" is one edit away too); words starting with the second letter (a wrong
    first one) only when no word is one edit away, as they are the most to compare. The words of
    names, titles and headings are read first, then the body's."""
    limit = min(allowed_distance(word), most_edits)
    if limit == 0 or not word.isalpha():
        return []
    # term -> (0 for a word of a name, title or heading else 1, its notes)
    seen: Dict[str, Tuple[int, int]] = {}
    # term -> (edits, 0 for a word of a name, title or heading else 1, letters more or fewer, -notes)
    found: Dict[str, Tuple[int, int, int, int]] = {}

    def compare(starts: Set[str], third_and_fourth: Sequence[str] = (), sources: Sequence[bool] = BOTH) -> None:
        for headings_only in sources:
            for term, docs in _candidates(engine, starts, word, limit, headings_only, prefix, third_and_fourth).items():
                known = seen.get(term)
                if known is None or (0 if headings_only else 1, -docs) < (known[0], -known[1]):
                    seen[term] = (0 if headings_only else 1, docs)

    def measure(allowed: int) -> None:
        # One edit is recognised without a table of distances (within); two are computed only when no
        # word is one edit away: for a long word that is thousands of tables (40-250 ms).
        for term, (body, docs) in seen.items():
            distance = within(word, term, allowed)
            if distance <= allowed:
                found[term] = (distance, body, abs(len(term) - len(word)), -docs)

    # A dropped or wrong second letter ("lgin", "lxgin" for login): the word's third and fourth letters
    # are the typed second and third, or third and fourth.
    dropped = sorted({word[1:3], word[2:4]})
    if names_first:
        # A word alone: a word of a name, title or heading one edit away wins over any body word (see
        # the order below), so the body's words, many more, are read only when there is none.
        compare({word[:2], word[0] + word[2]}, sources=(True,))
        compare({word[0]}, dropped, sources=(True,))
        measure(1)
        if not found:
            compare({word[:2], word[0] + word[2]}, sources=(False,))
            compare({word[0]}, dropped, sources=(False,))
    else:
        compare({word[:2], word[0] + word[2]})
        compare({word[0]}, dropped)
    measure(1)
    if not found:
        compare({word[1]})  # a wrong or extra first letter: the most words to compare, so last
        measure(limit)
    # A note's name beats body words ("massacn": «masscan», a note, not «massac», the start of a body
    # word), then a word as long as the typed one (a swap or a wrong letter are the commonest typos).
    ranked = sorted((key, term) for term, key in found.items())
    return [(key[0], key[3], term) for key, term in ranked[:CHOICES]]


def nearest_word(engine: SearchEngine, word: str, prefix: bool = False) -> Optional[str]:
    """The closest indexed word (fewest edits, then most notes, then alphabetical), or None."""
    found = nearest_words(engine, word, prefix)
    return found[0][2] if found else None


def _choose(engine: SearchEngine, query: ParsedQuery, index: int, choices: List[Tuple[int, int, str]]) -> str:
    """The correction of term `index` that makes the whole query match: of those, the fewest edits, then
    the one most of whose notes hold the other words ("suite macth": "match", the word that goes with
    "suite", not "math", one edit away too and in more notes), then nearest_words' order."""
    if len(choices) == 1 or len(query.terms) == 1:
        return choices[0][2]  # alone, a word has no others to go with: nearest_words' order decides
    term = query.terms[index]
    best: Optional[Tuple[bool, int, float, int, str]] = None
    for order, (edits, negative_docs, word) in enumerate(choices):
        if best is not None and not best[0] and edits > best[1]:
            break  # a nearer word already makes the query match (choices come nearest first)
        terms = list(query.terms)
        terms[index] = Term(term.kind, (word,), corrected=True)
        matches = engine.match_count(query.with_terms(tuple(terms)), MATCH_CAP)
        docs = max(-negative_docs, matches, 1)
        key = (matches == 0, edits, -matches / docs, order, word)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[-1]


def correct_query(
    engine: SearchEngine, query: ParsedQuery
) -> Optional[Tuple[ParsedQuery, List[Tuple[str, str]]]]:
    """A corrected query and the (typed, used) word pairs, or None when nothing could be corrected.

    Each word in no note is replaced by the nearest indexed word that makes the whole query match
    (_choose); the words after it that are in no note either are left out while it is chosen."""
    single = [
        number
        for number, term in enumerate(query.terms)
        if term.kind in ("word", "prefix") and not is_cjk(term.tokens[0])
    ]
    correctable = [number for number in single if allowed_distance(query.terms[number].tokens[0])]
    missing = [number for number in single if not engine.has_match(query.terms[number])]
    unmatched = [number for number in missing if number in correctable]
    if not missing and len(query.terms) > 1 and all(
        term.kind != "phrase" or engine.has_match(term) for term in query.terms
    ):
        # Every word is in some note, but no note holds them all: one of them is a typo that happens to
        # be in a note too ("bound varaible"). The rarest such words are tried.
        return _correct_one(engine, query, correctable)
    changed: List[Tuple[str, str]] = []
    terms = list(query.terms)
    for position, number in enumerate(unmatched):
        term = query.terms[number]
        choices = nearest_words(
            engine, term.tokens[0], prefix=term.kind == "prefix", names_first=len(query.terms) == 1
        )
        if not choices:
            continue
        later = set(unmatched[position + 1 :])
        context = query.with_terms(tuple(t for n, t in enumerate(terms) if n not in later))
        index = [n for n in range(len(terms)) if n not in later].index(number)
        replacement = _choose(engine, context, index, choices)
        changed.append((term.tokens[0], replacement))
        # The last word keeps its prefix meaning: "code bolck" searches "code block*", as typed right.
        terms[number] = Term(term.kind, (replacement,), corrected=True)
    if not changed:
        return None
    return query.with_terms(tuple(terms)), changed


def _correct_one(
    engine: SearchEngine, query: ParsedQuery, correctable: List[int]
) -> Optional[Tuple[ParsedQuery, List[Tuple[str, str]]]]:
    """The one correction that makes the whole query match, of the words in the fewest notes first (a
    misspelling that happens to be in a note is in few: "approxmiation", not "natural")."""
    counted = [(engine.match_count(query.with_terms((query.terms[n],)), MATCH_CAP), n) for n in reversed(correctable)]
    rarest = [number for notes, number in sorted(counted) if notes <= RARE_TYPO_NOTES]
    for number in rarest[:_CORRECT_ONE_WORDS]:
        term = query.terms[number]
        # One edit only: the word is in some note as typed, so a farther word is a guess (and costly).
        choices = nearest_words(engine, term.tokens[0], term.kind == "prefix", most_edits=1)
        if not choices:
            continue
        replacement = _choose(engine, query, number, choices)
        terms = list(query.terms)
        terms[number] = Term(term.kind, (replacement,), corrected=True)
        corrected = query.with_terms(tuple(terms))
        if engine.match_count(corrected, 1):
            return corrected, [(term.tokens[0], replacement)]
    return None
