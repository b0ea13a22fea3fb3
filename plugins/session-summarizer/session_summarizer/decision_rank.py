"""How surely a decision sentence records a choice made, beyond the English cues: an option only offered
("Option 1 … (recommended)") ranks low until the user takes it, and whoever chose is read in Chinese,
Japanese and Korean too ("我们应该…", "…していきます", "…하겠습니다"), where the subject is a verb ending."""

import re
from typing import List, Set

from . import cues

# Who chooses in the languages that mark it by a subject pronoun with a modal (zh) or by the verb's ending
# (ja, ko, where the subject is left out): the agent commits to a way, it does not describe one.
_CHOOSER_WIDE = re.compile(
    r"(?:^(?:[-*•]\s*)?|[，,；;：:]\s*)(?:我们?|咱们)(?:将|会|就|来|先|应该|应当|决定|选择|采用|改用|直接|打算|需要|要)"
    r"|^(?:[-*•]\s*)?(?:让我们|我来)"
    r"|(?:することにし(?:ます|ました)|ことにしました|にします|にしました|していきます|しましょう|いたします"
    r"|を採用します|を使います|を使用します)[。：:！!]?\s*$"
    r"|(?:하겠습니다|하기로 했습니다|하기로 합니다|합시다|하겠어요|할게요|진행합니다|사용합니다"
    r"|적용합니다)[.:：!]?\s*$")


def offered_only(sentence: str) -> bool:
    """An option line marked recommended is an offer: the choice is made when someone takes it."""
    return cues.marks_recommended(sentence) and not cues.gives_verdict(sentence)


def chooser_wide(sentence: str) -> bool:
    """The agent commits to a way in Chinese, Japanese or Korean (never true for ASCII text)."""
    return not sentence.isascii() and bool(_CHOOSER_WIDE.search(sentence.strip()))


_WORD = re.compile(r"\w+")


def _shingles(text: str) -> Set[str]:
    """Words of spaced text; character pairs of Chinese, Japanese and Korean runs (their words are not spaced)."""
    found: Set[str] = set()
    for run in _WORD.findall(text.lower()):
        if run.isascii():
            found.add(run)
        else:
            found.update(run[index:index + 2] for index in range(max(1, len(run) - 1)))
    return found


# Two decisions this alike are one choice told twice ("the file is large, so I push it with the API" and
# "the file is large, so I push it from the terminal"): the later one adds nothing to the summary.
_ALIKE = 0.45


def distinct(texts: List[str], order: List[int], limit: int = 0) -> List[int]:
    """The first `limit` (0: all) indices of `order` whose text is not mostly the words of one already taken."""
    taken: List[int] = []
    kept: List[Set[str]] = []
    for index in order:
        words = _shingles(texts[index])
        if words and any(len(words & other) >= _ALIKE * len(words | other) for other in kept):
            continue
        taken.append(index)
        kept.append(words)
        if len(taken) == limit:
            break
    return taken


# A tier this many times the room left is a long session's: its picks are spread over the session.
_SPREAD_FROM = 2


def spread(order: List[int], strength: List[int], limit: int) -> List[int]:
    """`limit` of the ranked indices `order`: whole strength tiers while they fit, then from the tier that
    does not fit, picks evenly spaced over the session (indices are positions), so a long session's later
    choices are not all crowded out by its first ones."""
    taken: List[int] = []
    tiers: List[List[int]] = []
    for index in order:
        if tiers and strength[tiers[-1][0]] == strength[index]:
            tiers[-1].append(index)
        else:
            tiers.append([index])
    for tier in tiers:
        room = limit - len(taken)
        if room <= 0:
            break
        if len(tier) <= room:
            taken.extend(tier)
            continue
        # A few more than fit, or the weakest kind (an alternative named without a choice): the first ones.
        if len(tier) < _SPREAD_FROM * room or strength[tier[0]] < 2:
            taken.extend(tier[:room])
            continue
        placed = sorted(tier)
        taken.extend(placed[(step * len(placed)) // room] for step in range(room))
    return taken
