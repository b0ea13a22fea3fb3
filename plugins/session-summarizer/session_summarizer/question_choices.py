"""A question the closing reply asks the user together with the choices it lists under it ("Which part should I
start with? - the config file - the domain model …"): one open question, its choices inside it, not a question
followed by loose fragments.

It reads the reply's layout (a line that asks, then the list right under it), in any language.
"""

import re
from typing import Dict, List, Sequence, Tuple

from . import extraction as ex

_ITEM = re.compile(r"^(?:[-*•]|\d{1,2}[.)）]|[A-Za-z][.)])\s+(\S.*)$")


def asked_with_choices(prose: str) -> List[Tuple[str, List[str]]]:
    """(the question line, the choices listed right under it) for each question line of the reply that a list
    follows; a choice is the item's first line."""
    lines = [line.strip() for line in prose.split("\n")]
    found: List[Tuple[str, List[str]]] = []
    for index, line in enumerate(lines):
        if not line or _ITEM.match(line) or not ex.is_question(line.replace("**", "")):
            continue
        choices: List[str] = []
        for following in lines[index + 1:]:
            if not following and not choices:
                continue
            item = _ITEM.match(following)
            if not item:
                break
            choices.append(" ".join(item.group(1).replace("**", "").split()))
        if len(choices) >= 2:
            found.append((" ".join(line.replace("**", "").split()), choices[:_CHOICES]))
    return found


def merged(item: str, choices: Sequence[str]) -> str:
    """The question with its choices after it, each cut short: the question leads, the choices say what it offers."""
    shown = " / ".join(choice[:_CHOICE_CHARS] for choice in choices)
    return item.rstrip() + " (" + shown + ")"


_CHOICES = 6
_CHOICE_CHARS = 60


def fold(prose: str, questions: Dict[str, str], next_steps: Dict[str, str]) -> None:
    """Put each question's listed choices inside the question item (`questions`, key -> text) and take the
    choices out of both collected sections, where they were read as questions or steps of their own."""
    for line, choices in asked_with_choices(prose):
        key = next((key for key, text in questions.items() if text.strip() and text.strip() in line), None)
        if key is None:
            continue
        questions[key] = merged(questions[key], choices)
        flat = {" ".join(ex.clean_item(choice).split()) for choice in choices}
        for section in (questions, next_steps):
            for other in [other for other, text in section.items()
                          if other != key and " ".join(ex.clean_item(text).split()) in flat]:
                del section[other]
