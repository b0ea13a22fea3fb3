"""Text pipeline shared by both engines: Unicode folding, tokens, CJK bigrams and a light English stemmer.

Both engines index the tokens made here (joined by spaces) instead of running their own analyzers, so
a query behaves the same on SQLite FTS5 and on whoosh, and CJK text is searchable on either.
"""

import re
import unicodedata
from array import array
from functools import lru_cache
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

from .marks import MARK_RANGES

# Letters and digits of any script; "_" and punctuation separate tokens (as in FTS5's unicode61).
_WORD = re.compile(r"[^\W_]+")
# ...with the combining marks inside words (the index's FTS5 tokenizer keeps them too: categories
# 'L* N* Co M*'). Text without marks, nearly all of it, takes _WORD: one class is faster in C.
_MARK = re.compile("[" + MARK_RANGES + "]")
_MARKED_WORD = re.compile("(?:[^\\W_]|[" + MARK_RANGES + "])+")

# Scripts written without spaces between words (or, for Hangul, with particles glued to words):
# kana, CJK ideographs (with extensions) and Hangul. Runs of these are cut into overlapping bigrams.
_CJK_RANGES = (
    "\u3040-\u30ff"  # hiragana, katakana (with the prolonged sound mark)
    "\u31f0-\u31ff"  # katakana phonetic extensions
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"  # Hangul jamo, compatibility jamo, syllables
    "\U00020000-\U0003134f"  # CJK extensions B and later
)
_CJK_RUN = re.compile("[" + _CJK_RANGES + "]+")
_HAS_CJK = _CJK_RUN
# Either a CJK run (group 1) or a run of other letters/digits (group 2): "abc会議def" -> "abc", "会議", "def".
_WORD_OR_CJK_RUN = re.compile("([" + _CJK_RANGES + "]+)|((?:[^\\W_" + _CJK_RANGES + "]|[" + MARK_RANGES + "])+)")

# Latin letters that may carry diacritics. Only these lose their marks: stripping marks from kana
# (が -> か) or decomposing Hangul syllables would change the words.
_LATIN_WITH_MARKS = re.compile("[\u00c0-\u024f\u1e00-\u1eff]")


@lru_cache(maxsize=4096)
def _strip_marks(char: str) -> str:
    decomposed = unicodedata.normalize("NFD", char)
    return "".join(c for c in decomposed if not unicodedata.combining(c)) or char


# Marks a writer may leave out: Hebrew points and cantillation, Arabic harakat and Quranic marks.
# Like Latin accents they are folded away (an Indic vowel sign is part of the word and stays).
_OPTIONAL_MARKS = re.compile(
    "[\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7"  # Hebrew
    "\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed]"  # Arabic
)


def fold(text: str) -> str:
    """Fold text for matching: NFKC (full/half width), case folding, Latin diacritics and optional
    Hebrew and Arabic marks removed."""
    if text.isascii():
        return text.lower()
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = _LATIN_WITH_MARKS.sub(lambda m: _strip_marks(m.group()), folded)
    return _OPTIONAL_MARKS.sub("", folded) if _OPTIONAL_MARKS.search(folded) else folded


def as_typed(text: str) -> str:
    """Text as typed for comparing accents: NFKC and case folding only (fold() without removing marks)."""
    return text.lower() if text.isascii() else unicodedata.normalize("NFKC", text).casefold()


def words(text: str) -> List[str]:
    """The words of folded text without CJK runs (letters and digits with the marks inside them)."""
    return _WORD.findall(text) if text.isascii() or _MARK.search(text) is None else _MARKED_WORD.findall(text)


# ASCII stretches, and otherwise one character with the combining marks that follow it.
_ASCII_OR_CLUSTER = re.compile(
    r"[\x00-\x7f]+|[^\x00-\x7f][\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u3099\u309a]*"
)


@lru_cache(maxsize=8192)
def _fold_cluster(cluster: str) -> str:
    return fold(cluster)


# Per-character folds for str.translate(), learnt as characters are met; and the characters whose
# fold is not one character long (ß -> ss), which need offsets of their own.
_FOLD_TABLE: Dict[int, str] = {}
_IRREGULAR: Set[str] = set()
# Text whose whole-text NFKC could differ from folding character by character: combining marks and
# conjoining Hangul jamo compose with their neighbours.
_COMPOSING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u3099\u309a\u1100-\u11ff]")


def _fold_by_character(text: str) -> Optional[Tuple[str, Sequence[int]]]:
    """fold_with_offsets() done in C (str.translate) for text without composing characters."""
    if _COMPOSING.search(text) is not None:
        return None
    characters = set(text)
    for character in characters:
        if ord(character) not in _FOLD_TABLE:
            folded = fold(character)
            _FOLD_TABLE[ord(character)] = folded
            if len(folded) != 1:
                _IRREGULAR.add(character)
    folded_text = text.translate(_FOLD_TABLE)
    irregular = characters & _IRREGULAR
    if not irregular:
        return folded_text, range(len(text) + 1)
    offsets = array("I")
    position = 0
    for match in re.finditer("[" + re.escape("".join(sorted(irregular))) + "]", text):
        offsets.extend(range(position, match.start()))
        offsets.extend([match.start()] * len(_FOLD_TABLE[ord(match.group())]))
        position = match.end()
    offsets.extend(range(position, len(text) + 1))
    return folded_text, offsets


def fold_with_offsets(text: str) -> Tuple[str, Sequence[int]]:
    """Fold like fold() and also return, for each folded character, its index in the original text.

    Folding works per character (in C) or, where characters compose, per ASCII stretch or base
    character plus its combining marks, which keeps the mapping exact for snippets; offsets has one
    extra entry (len(text)) so spans map back as [start, end).
    """
    if text.isascii():
        return text.lower(), range(len(text) + 1)  # identity mapping, without a list of ints to keep
    fast = _fold_by_character(text)
    if fast is not None:
        return fast
    pieces: List[str] = []
    offsets: List[int] = []
    for match in _ASCII_OR_CLUSTER.finditer(text):
        piece = match.group()
        start = match.start()
        if piece.isascii():
            pieces.append(piece.lower())
            offsets.extend(range(start, match.end()))
        else:
            folded = _fold_cluster(piece)
            pieces.append(folded)
            offsets.extend([start] * len(folded))
    offsets.append(len(text))
    # Kept while excerpts are built (the library caches hundreds): 4 bytes an entry, not ~36.
    return "".join(pieces), array("I", offsets)


def is_cjk(token: str) -> bool:
    """True when the token is made of CJK/kana/Hangul characters (a bigram or a single character)."""
    return bool(token) and _CJK_RUN.fullmatch(token) is not None


def cjk_bigrams(run: str) -> List[str]:
    """Index-side split of a CJK run: overlapping bigrams plus the last character alone.

    The trailing single character makes every position the start of some token, so a one-character
    query can be answered as a prefix query.
    """
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)] + [run[-1]]


def query_bigrams(run: str) -> List[str]:
    """Query-side split of a CJK run: bigrams only (matched as a phrase against the index tokens)."""
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def tokens(folded: str, for_query: bool = False) -> List[str]:
    """Tokens of already folded text: words of letters/digits, CJK runs cut into bigrams."""
    if folded.isascii() or _HAS_CJK.search(folded) is None:
        return words(folded)  # the common case, done entirely in C
    split = query_bigrams if for_query else cjk_bigrams
    out: List[str] = []
    for run, word in _WORD_OR_CJK_RUN.findall(folded):  # only the CJK runs need more work
        if run:
            out.extend(split(run))
        else:
            out.append(word)
    return out


def query_tokens(folded: str) -> List[str]:
    """Tokens of a query piece whose words must stay adjacent: as tokens(for_query=True), except that a
    CJK run followed by more text keeps the index's trailing single character ("への" + "obsidian"
    is への, の, obsidian in the index), so a phrase across scripts still matches."""
    if folded.isascii() or _HAS_CJK.search(folded) is None:
        return words(folded)
    runs = _WORD_OR_CJK_RUN.findall(folded)
    out: List[str] = []
    for number, (run, word) in enumerate(runs):
        if run:
            out.extend(cjk_bigrams(run) if number < len(runs) - 1 and len(run) > 1 else query_bigrams(run))
        else:
            out.append(word)
    return out


# Characters that FTS5's unicode61 tokenizer and tokens() agree on, besides ASCII (checked against
# every code point: Latin-1 to Latin Extended-B after folding, general punctuation such as curly
# quotes and dashes, CJK punctuation). Combining marks are not among them: unicode61 keeps them
# inside a word, tokens() splits there.
_SPLITS_ALIKE = re.compile("[\x00-\u024f\u2000-\u2064\u3000-\u3037\u303b-\u303f]*")


def unsplit_for_fts5(folded: str) -> Optional[str]:
    """Folded text ready for FTS5 to split in C exactly as tokens() would, or None if it cannot be.

    CJK runs are replaced by their bigrams (unicode61 would keep a run as one word); everything else
    is left for the tokenizer. None when the text has characters the two split differently.
    """
    if folded.isascii():
        return folded
    if _SPLITS_ALIKE.fullmatch(_CJK_RUN.sub(" ", folded)) is None:
        return None
    return _CJK_RUN.sub(lambda run: " " + " ".join(cjk_bigrams(run.group())) + " ", folded)


def word_spans(folded: str) -> Iterator[Tuple[int, int]]:
    """Start/end of each letter/digit run in folded text (CJK runs are not split here)."""
    words = _WORD if folded.isascii() or _MARK.search(folded) is None else _MARKED_WORD
    for match in words.finditer(folded):
        yield match.start(), match.end()


_DOUBLE_CONSONANT_END = re.compile(r"([bdfgkmnprt])\1$")
_VOWEL = re.compile(r"[aeiouy]")


@lru_cache(maxsize=65536)
def light_stem(token: str) -> str:
    """A small, predictable English stemmer (plurals, -ing, -ed, -ly).

    Deliberately light: it only has to map inflections onto one form on both the index and the
    query side, and a prefix of the word stays a prefix of its stem for as-you-type search.
    """
    if len(token) <= 3 or not token.isascii() or not token.isalpha():
        return token
    word = token
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "xes", "ches", "shes", "zzes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ingly", "edly", "ing", "ed", "ly"):
        if word.endswith(suffix):
            base = word[: -len(suffix)]
            shortest = 4 if suffix.endswith("ly") else 3
            if len(base) >= shortest and _VOWEL.search(base) and not (suffix == "ed" and base.endswith("e")):
                word = base
                if _DOUBLE_CONSONANT_END.search(word):
                    word = word[:-1]
            break
    if word.endswith("e") and len(word) >= 5:
        word = word[:-1]
    return word
