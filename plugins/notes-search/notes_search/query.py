"""Parses what the user types: words (AND), "quoted phrases", tag:x / #x, in:folder, and the
as-you-type prefix on the last word."""

import re
from dataclasses import dataclass, field, replace
from typing import List, Tuple

from .tokens import as_typed, fold, is_cjk, query_tokens

MIN_PREFIX_LENGTH = 2
MAX_QUERY_LENGTH = 500
MAX_TERMS = 16

_PIECE = re.compile(
    r"""(?P<filter>(?P<key>tag|in|folder):(?P<value>"[^"]*"?|\S*))"""
    r"""|(?P<phrase>"[^"]*"?)"""
    r"""|(?P<hashtag>\#[^\s#]+)"""
    r"""|(?P<word>[^\s"]+)""",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Term:
    """One condition on the text. kind: "word" (exact or same stem), "prefix", or "phrase"
    (tokens adjacent; `prefix_last` lets the last token be a prefix)."""

    kind: str
    tokens: Tuple[str, ...]
    prefix_last: bool = False
    corrected: bool = False  # a typo correction: ranked as typed, at FUZZY weight (ranking.py)
    # The tokens with the accents as typed (tokens.as_typed), when they split like `tokens`: a note
    # holding the word as typed ranks above one holding its folded form (ranking.py).
    typed: Tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        inner = " ".join(self.tokens) + ("*" if self.kind == "prefix" or self.prefix_last else "")
        return f'"{inner}"' if self.kind == "phrase" else inner


@dataclass(frozen=True)
class TagFilter:
    tag: str  # folded
    prefix: bool = False  # still being typed


@dataclass(frozen=True)
class ParsedQuery:
    terms: Tuple[Term, ...] = ()
    tags: Tuple[TagFilter, ...] = ()
    folders: Tuple[str, ...] = ()  # folded, "/" separated, no leading or trailing "/"
    text: str = ""
    notes: Tuple[str, ...] = field(default=(), compare=False)  # what was dropped, for the panel

    @property
    def is_empty(self) -> bool:
        """No text condition: the panel lists recent notes (filters still apply)."""
        return not self.terms

    def with_terms(self, terms: Tuple[Term, ...]) -> "ParsedQuery":
        return replace(self, terms=terms)

    @property
    def words(self) -> List[str]:
        """Every token the query looks for (for snippets)."""
        return [t for term in self.terms for t in term.tokens]


def _strip_quotes(value: str) -> str:
    if value.startswith('"'):
        value = value[1:]
        if value.endswith('"'):
            value = value[:-1]
    return value


def _with_typed(terms: List[Term], raw: str) -> List[Term]:
    """The terms with the accents as typed, when the typed text has any."""
    if raw.isascii() or len(terms) != 1:
        return terms
    typed = tuple(query_tokens(as_typed(raw)))
    term = terms[0]
    if len(typed) != len(term.tokens) or typed == term.tokens:
        return terms
    return [replace(term, typed=typed)]


def _word_term(raw: str, is_last: bool) -> List[Term]:
    return _with_typed(_plain_word_term(raw, is_last), raw)


def _plain_word_term(raw: str, is_last: bool) -> List[Term]:
    parts = query_tokens(fold(raw))
    if not parts:
        return []
    single_cjk_char = len(parts) == 1 and is_cjk(parts[0]) and len(parts[0]) == 1
    if single_cjk_char:
        # One kana/kanji matches every bigram starting with it (see text.cjk_bigrams).
        return [Term("prefix", (parts[0],))]
    if len(parts) == 1 and is_cjk(parts[0]):
        return [Term("word", (parts[0],))]
    if len(parts) == 1:
        token = parts[0]
        if is_last and len(token) >= MIN_PREFIX_LENGTH:
            return [Term("prefix", (token,))]
        return [Term("word", (token,))]
    # "e-mail", "notes_search", "会議室": the pieces must be adjacent.
    last_is_latin = not is_cjk(parts[-1])
    return [
        Term(
            "phrase",
            tuple(parts),
            prefix_last=is_last and last_is_latin and len(parts[-1]) >= MIN_PREFIX_LENGTH,
        )
    ]


def _folder_key(value: str) -> str:
    cleaned = fold(value).replace("\\", "/").strip("/ ")
    return "/".join(part for part in cleaned.split("/") if part and part not in (".", ".."))


def parse_query(text: str) -> ParsedQuery:
    """Parse a query. Never raises: anything unusable is dropped and mentioned in `notes`."""
    text = (text or "")[:MAX_QUERY_LENGTH]
    still_typing = bool(text) and not text[-1].isspace()
    pieces = list(_PIECE.finditer(text))
    terms: List[Term] = []
    tags: List[TagFilter] = []
    folders: List[str] = []
    notes: List[str] = []
    for index, piece in enumerate(pieces):
        is_last = still_typing and index == len(pieces) - 1
        if piece.group("filter"):
            key = piece.group("key").lower()
            value = _strip_quotes(piece.group("value"))
            if not value.strip():
                continue
            if key == "tag":
                tags.append(TagFilter(fold(value.strip().lstrip("#")), prefix=is_last))
            else:
                folder = _folder_key(value)
                if folder:
                    folders.append(folder)
        elif piece.group("hashtag"):
            tag = fold(piece.group("hashtag").lstrip("#")).rstrip(".,;:!?")
            if tag and not any(character.isalpha() for character in tag):
                # Obsidian's tags hold a letter: "#1" (a heading "Crack #1", an issue "#4711") is text.
                terms.extend(_word_term(tag, is_last))
            elif tag:
                tags.append(TagFilter(tag, prefix=is_last))
        elif piece.group("phrase"):
            raw = piece.group("phrase")
            unterminated = not (len(raw) >= 2 and raw.endswith('"'))
            parts = query_tokens(fold(_strip_quotes(raw)))
            if len(parts) == 1 and not is_cjk(parts[0]):
                terms.extend(_with_typed([Term("word", (parts[0],))], _strip_quotes(raw)))
            elif parts:
                phrase = Term("phrase", tuple(parts), prefix_last=is_last and unterminated)
                terms.extend(_with_typed([phrase], _strip_quotes(raw)))
        else:
            terms.extend(_word_term(piece.group("word"), is_last))
    if len(terms) > MAX_TERMS:
        notes.append("too_many_terms")
        terms = terms[:MAX_TERMS]
    return ParsedQuery(tuple(terms), tuple(tags), tuple(folders), text, tuple(notes))
