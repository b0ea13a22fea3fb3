"""Builds a one-line excerpt around the densest cluster of matches, with the matches marked."""

import re
from functools import lru_cache
from typing import List, Optional, Sequence, Tuple, Union

from .query import Term
from .tokens import fold_with_offsets, is_cjk, light_stem

OPEN_MARK = "«"
CLOSE_MARK = "»"
SNIPPET_WIDTH = 180
_SCAN_LIMIT = 100_000  # characters of a note looked at for matches
_LEAD = 40  # characters of context shown before the first match
_MAX_SPANS = 40
_SPACES = re.compile(r"\s+")
_MARKUP = re.compile(r"(\*\*|__|`+|^#{1,6}\s|\[\[|\]\])", re.MULTILINE)

Span = Tuple[int, int]


def _cjk_strings(term: Term) -> List[str]:
    """Rebuild the CJK text a bigram phrase stands for (会議 + 議室 -> 会議室)."""
    cjk = [t for t in term.tokens if is_cjk(t)]
    if not cjk:
        return []
    if term.kind == "phrase" and all(is_cjk(t) for t in term.tokens):
        return ["".join(t[0] for t in cjk[:-1]) + cjk[-1]]
    return cjk


class _Matcher:
    """What a query's terms match, prepared once per query and reused for every result's excerpt."""

    __slots__ = ("candidates", "cjk_strings", "exact", "prefixes", "stems")

    def __init__(self, terms: Tuple[Term, ...]) -> None:
        exact = set()
        stems = set()
        prefixes = set()
        self.cjk_strings: List[str] = []
        for term in terms:
            self.cjk_strings.extend(_cjk_strings(term))
            latin = [t for t in term.tokens if not is_cjk(t)]
            for index, token in enumerate(latin):
                is_prefix = term.kind == "prefix" or (term.prefix_last and index == len(latin) - 1)
                if is_prefix:
                    prefixes.add(token)
                else:
                    exact.add(token)
                    stems.add(light_stem(token))
        self.exact, self.stems, self.prefixes = exact, stems, tuple(prefixes)
        self.candidates: Optional[re.Pattern[str]] = None
        if exact or prefixes:
            # A word can only match if it starts with a prefix or with its stem minus one letter
            # (story/stories); the regex finds those candidates in C, Python checks only them.
            starts = sorted(prefixes | {s[: max(1, len(s) - 1)] for s in stems | exact}, key=len, reverse=True)
            # No look-behind for the word start in the pattern: it kept the regex engine from skipping
            # ahead to the first letters and made the scan ~9x slower. A hit inside a word is skipped
            # (str.isalnum() is what [^\W_] means), and it consumes the rest of that word, so nothing is lost.
            self.candidates = re.compile(r"(?:" + "|".join(re.escape(s) for s in starts) + r")[^\W_]*")


@lru_cache(maxsize=64)
def _matcher(terms: Tuple[Term, ...]) -> _Matcher:
    return _Matcher(terms)


def match_spans(folded: str, terms: Sequence[Term]) -> List[Span]:
    """Spans of folded text that match any term (words by exact form, stem or prefix)."""
    matcher = _matcher(tuple(terms))
    spans: List[Span] = []
    if matcher.candidates is not None:
        exact, stems, prefixes = matcher.exact, matcher.stems, matcher.prefixes
        for match in matcher.candidates.finditer(folded):
            start = match.start()
            if start and folded[start - 1].isalnum():
                continue
            word = match.group()
            if word.startswith(prefixes) or word in exact or light_stem(word) in stems:
                spans.append((start, match.end()))
                if len(spans) >= _MAX_SPANS:
                    break  # enough to place one excerpt; a one-letter prefix would match hundreds
    for needle in matcher.cjk_strings:
        position = folded.find(needle)
        while position != -1:
            spans.append((position, position + len(needle)))
            position = folded.find(needle, position + len(needle))
    spans.sort()
    merged: List[Span] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _clean(text: str) -> str:
    return _SPACES.sub(" ", _MARKUP.sub("", text))


def _best_window(spans: List[Span], width: int) -> int:
    """Start of the first span of the window holding the most whole spans (sorted, disjoint spans)."""
    best_start, best_count = spans[0][0], 0
    last = 0  # one past the last span ending inside the current window (ends only grow)
    for index, (start, _) in enumerate(spans):
        last = max(last, index)
        while last < len(spans) and spans[last][1] <= start + width:
            last += 1
        if last - index > best_count:
            best_start, best_count = start, last - index
    return best_start


class PreparedText:
    """A note body with its folded form and offsets, computed once and reused while the user types."""

    __slots__ = ("folded", "offsets", "text")

    def __init__(self, text: str) -> None:
        self.text = text[:_SCAN_LIMIT]
        self.folded, self.offsets = fold_with_offsets(self.text)


def make_snippet(body: Union[str, PreparedText], terms: Sequence[Term], width: int = SNIPPET_WIDTH) -> str:
    """An excerpt of a note body with every match wrapped in « »."""
    prepared = body if isinstance(body, PreparedText) else PreparedText(body)
    text, folded, offsets = prepared.text, prepared.folded, prepared.offsets
    spans = match_spans(folded, terms) if terms else []
    if not spans:
        # Only the start is shown: clean a bounded head, not a note of up to 100,000 characters.
        head = _clean(text[: width * 4]).strip()
        more = len(head) > width or len(text) > width * 4
        return head[:width].rstrip() + ("…" if more else "")
    first = _best_window(spans, width - _LEAD)
    window_start = max(0, first - _LEAD)
    window_end = min(len(folded), window_start + width)
    # Do not cut words in half at the edges.
    while window_start > 0 and folded[window_start - 1].isalnum() and first - window_start < _LEAD + 15:
        window_start -= 1
    while window_end < len(folded) and folded[window_end].isalnum() and window_end - window_start < width + 15:
        window_end += 1
    pieces: List[str] = []
    cursor = offsets[window_start]
    for start, end in spans:
        if end <= window_start or start >= window_end:
            continue
        original_start, original_end = offsets[max(start, window_start)], offsets[min(end, window_end)]
        pieces.append(text[cursor:original_start])
        pieces.append(OPEN_MARK + text[original_start:original_end] + CLOSE_MARK)
        cursor = original_end
    pieces.append(text[cursor : offsets[window_end]])
    # Markup and runs of spaces are cleaned once over the marked excerpt (two regex passes in all,
    # not two per piece); the marks are neither markup nor spaces, so they stay where they are.
    snippet = _clean("".join(pieces)).strip()
    prefix = "…" if window_start > 0 else ""
    suffix = "…" if window_end < len(folded) else ""
    return prefix + snippet + suffix
