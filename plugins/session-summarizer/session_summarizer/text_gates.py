"""Substring gates over whole turns that look for each word only where its rarest character is.

A one-character test is a memchr, many times cheaper than a search for a word; a word whose rarest
character ("Y" of "Your branch", "O" of "OMMIT") is not in the turn cannot be there either, so the
answer is the same as testing every word, and most turns of a long session are ruled out at that cost.
"""

from typing import Sequence, Tuple

# Characters of English prose and code, most frequent first (lower case, then marks and digits, then
# capitals); any other character (another script, a rare mark) counts as rarer than all of them.
_COMMON = " etaoinsrhldcumfpgwybvkxjqz\n.,-/:'\"()_0123456789TAISWCBPHFMDRLENGOUVYKJQXZ"

Gate = Tuple[Tuple[str, str], ...]


def _rarest(word: str) -> str:
    return max(word, key=lambda char: _COMMON.find(char) if char in _COMMON else len(_COMMON))


def gate(words: Sequence[str]) -> Gate:
    """Each word with the character to look for first."""
    return tuple((_rarest(word), word) for word in words)


def holds_any(text: str, words: Gate) -> bool:
    """Whether `text` holds any of the gate's words: the same answer as `any(word in text …)`."""
    for char, word in words:  # noqa: SIM110 - a loop: asked of every turn, no generator each time
        if char in text and word in text:
            return True
    return False
