"""Whether an error told in words (pasted by the user, or stated in a reply) was fixed later or is still open.

A tool's error gets its status from the step tried again (sections.call_errors). An error only told in prose
has no step: it is fixed when a later reply says a fix for the same thing — it names what the error named (a
file, an identifier, a quoted name) next to a fix word of its language ("fixed", "works now", "修复了",
"修正しました", "해결했습니다") — and still open when the session ends on it: told in the last reply or the
last ask, with nothing after it. Otherwise the session does not say, and no status is claimed.
"""

import re
from typing import List, Sequence, Tuple

from . import cues
from . import extraction as ex
from .sections import FIXED, OPEN

# What an error names that a later fix would name again: code, a file (extraction's paths, by their file name), a
# dotted, underscored or CamelCase name.
_NAMED = re.compile(r"`([^`\n]{3,60})`|\b(\w+_\w+)\b|\b([a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*)\b")
_FIX_SAID = re.compile(
    r"(?i)\b(?:fixed|resolved|solved|works now|now works|is working now|no longer|passes now|now passes"
    r"|corrected|repaired)\b|修复了|已修复|解决了|已解决|修好了|修正しました|修正済|解決しました|解消しました|直しました"
    r"|해결했|해결됨|해결되었|고쳤|수정했습니다|수정 완료")
# A later reply is read this far around the name it shares with the error.
_AROUND = 200


def _names(line: str) -> List[str]:
    placed = []
    for path in ex.find_paths(line):
        name = path.rsplit("/", 1)[-1]
        placed.append((line.find(name), name))
    # A name inside a file's name is that file ("EmojiBubble" of EmojiBubble.jsx), not a name of its own.
    inside = [(start, start + len(name)) for start, name in placed]
    for match in _NAMED.finditer(line):
        if not any(start <= match.start() < end for start, end in inside):
            placed.append((match.start(), next(group for group in match.groups() if group)))
    found = [name for _, name in sorted(placed, key=lambda pair: pair[0])]
    return [name for name in dict.fromkeys(found) if len(name) >= 4][:4]


def status_of(line: str, turns: Sequence[Tuple[str, str]]) -> str:
    """FIXED, OPEN or "" for an error `line` told in the session's `turns` ((role, text) pairs, in order)."""
    head = line.strip()[:40]
    if len(head) < 12:
        return ""
    at = next((index for index, (_, text) in enumerate(turns) if head in text), -1)
    if at < 0:
        return ""
    names = _names(line)
    for role, text in turns[at + 1:]:
        if role != "assistant" or not names:
            continue
        for name in names:
            position = text.find(name)
            if position < 0:
                continue
            window = text[max(0, position - _AROUND):position + len(name) + _AROUND]
            for sentence in ex.sentences(window):
                if (name in sentence and _FIX_SAID.search(sentence) and not ex.is_question(sentence)
                        and not cues.is_hedged(sentence)):
                    return FIXED
    # The session ends on it: told in the last ask with no reply after, or near the end of the last reply (a
    # long last reply that worked through several failures fixed its first ones on the way).
    role, text = turns[at]
    if at >= len(turns) - 2 and all(later == "user" for later, _ in turns[at + 1:]) and (
            role == "user" or text.find(head) >= _LAST_PART * len(text)):
        return OPEN
    return ""


# Where the last part of a reply starts, as a share of its length.
_LAST_PART = 0.6
