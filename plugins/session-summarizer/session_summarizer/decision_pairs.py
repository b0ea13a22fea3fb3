"""A choice in one sentence and its reason in the next, tied by what they both name: "There's no reason to
install `hwloc` on the storage node. `hwloc` is needed because `slurmd` was built against it." The reason
sentence names a thing of the choice (a code name, a path, an identifier) or opens by pointing back at it
("It belongs with the WebSocket phase, not the MVP", "これは…ため", "这是因为…", "이는 … 때문입니다")."""

import re
from typing import Set

from . import cues
from . import extraction as ex

# Names a reader can follow from one sentence to the next: `code`, paths and dotted or snake_case names,
# CamelCase and ALLCAPS words (never "I", "OK" or the first word's capital).
_CODE = re.compile(r"`([^`\n]{2,60})`")
_NAME = re.compile(r"(?<![\w.])(?:[A-Za-z][\w-]*[._/][\w./-]*\w|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Z]{3,}\d*)"
                   r"(?![\w])")
# A reason sentence that points back at the one before it.
_POINTS_BACK = re.compile(
    r"(?i)^(?:it|this|that|these|those|they)\b(?! (?:is|was) (?:not )?(?:clear|possible|likely|unclear))"
    r"|^(?:これ|それ|この|その|这|此|它|该|이는|이것|그것|이 )")
_SHORT = 16


def _names(sentence: str) -> Set[str]:
    names = {found.strip().lower() for found in _CODE.findall(sentence)}
    names.update(found.lower() for found in _NAME.findall(sentence.replace("`", " ")))
    return {name for name in names if len(name) >= 3}


def joined_reason(choice: str, reason: str) -> bool:
    """`reason` gives the reason for the choice `choice` made, or names the way it turned down."""
    if len(choice) < _SHORT or len(reason) < _SHORT or not cues.has_choice(choice):
        return False
    if not (cues.has_reason(reason) or cues.names_alternative(reason)):
        return False
    if not (_POINTS_BACK.match(reason.lstrip("-*• ")) or _names(choice) & _names(reason)):
        return False
    return not any(ex.is_question(part) or cues.is_hedged(part) or cues.is_user_task(part) for part in (choice, reason))
