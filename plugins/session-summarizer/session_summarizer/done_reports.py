"""The report that closes a piece of work: the lists an agent writes after it acted, in any language.

An agent that was asked to do something and did it ends its last reply with what it achieved: "Implementado."
over a list, "## ✅ Selesai" then "### Yang berubah:", "完了:" over a list. The heading's words vary with the
language and the agent; where the list sits does not. So in the reply that closes a phase whose ask asked for
work (and not a question), a list counts as results when a heading-shaped line leads into it (a `#` heading, a
bold line, a line ending on a colon, a short sentence) and nothing marks that line as what is still to come, a
question, or a task for the user.
"""

import re
from typing import Callable, List, Optional, Sequence, Set

from . import ask_kinds, cues
from . import extraction as ex
from . import sections as rules
from .chat_commands import accepts
from .session import Turn
from .transcript import TurnParts

_ITEM = re.compile(r"^(\s*)(?:[-*•]|\d{1,2}[.)])\s+(.+)$")
# A sentence short enough to lead into a list ("Implementado.", "Sudah diperbaiki.", "已修改。").
_LEAD_WORDS = 12
_LEAD_CHARS = 40
_HEADING_CHARS = 100
# A report is the first few lists of the closing reply; a long reply's later lists are details.
_REPORT_ITEMS = 8
# How much of an ask is read for a question mark or a yes.
_ASK_CHARS = 300
_QUESTION_CHARS = 3000


def _words(line: str) -> str:
    return " ".join(rules._HEADING_MARKS.sub(" ", line).replace("*", " ").replace("#", " ").strip(" :：").split())


def _lead_in(line: str) -> bool:
    """A line shaped like a heading over the list under it."""
    if line.startswith("#"):
        return True
    if len(line) > _HEADING_CHARS:
        return False
    if line.endswith((":", "：")) or (line.startswith("**") and line.rstrip(":：").endswith("**")):
        return True
    if not line.endswith((".", "。", "!", "！")):
        return False
    return len(line.split()) <= _LEAD_WORDS if line.isascii() else len(line) <= _LEAD_CHARS


# A heading over what could not be done ("Not possible:", "无法获取：", "できないこと", "불가능한 것").
_CANNOT = re.compile(r"(?i)\b(?:not|cannot|can't|unable|impossible|limitations?|no se puede|não é possível|нельзя)\b"
                     r"|無理|できない|不可能|无法|不能|不可以|불가|없는|할 수 없")


# A heading over steps for the reader: a purpose to reach ("To preview it:", "Para probar:", "确认方法：",
# "試すには：", "확인하려면:", "Чтобы проверить:") or a request ("Please do the following:", "请按以下步骤").
_STEPS = re.compile(r"(?i)^(?:to|please|para|pour|um|чтобы|пожалуйста|por favor)\b|\b(?:steps?|instructions?|how)\b"
                    r"|には[:：]?$|手順|方法|하려면|단계|방법|请|步骤|如需|要想|шаги|pasos|passos")


def _ahead(words: str) -> bool:
    """A heading over what is still to come, steps for the reader, a question, or a task for the user."""
    return (bool(rules._AHEAD_CUE.search(words)) or bool(_CANNOT.search(words)) or bool(_STEPS.search(words))
            or ex.is_question(words)
            or cues.is_user_task(words) or cues.asks_the_user(words))


def report_items(prose: str) -> List[str]:
    """Own-level items of the first list that a heading-shaped line leads into, outside sections of what is to
    come."""
    items: List[str] = []
    lead = ""  # the line right before the current line, when it is a lead-in
    blocked = False  # inside a `#` section over what is still to come
    top = -1  # the indent of the current list's own items, -1 outside a taken list
    labelled = ""  # the last item taken, while it is a bare label waiting for its first detail
    for line in prose.split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        item = _ITEM.match(line)
        if item is None:
            if top >= 0 and items:
                if labelled and items[-1] == labelled:
                    items.pop()
                break  # the first list under a lead-in is the report; later lists are how to try it, what is next
            top = -1
            if stripped.startswith("#"):
                blocked = _ahead(_words(stripped))
            lead = stripped if _lead_in(stripped) and not _ahead(_words(stripped)) else ""
            continue
        indent = len(item.group(1).expandtabs(4))
        if top < 0:
            if not lead or blocked:
                lead = ""
                continue
            top = indent
        lead = ""
        text = item.group(2).strip()
        if indent > top:
            # A detail of the item above; a bare label ("**Registration**") takes its first detail as its result.
            if labelled and items and items[-1] == labelled:
                items[-1] = labelled.rstrip(":：") + ": " + text
            labelled = ""
            continue
        if labelled and items and items[-1] == labelled:
            items.pop()  # a label with no detail under it says nothing
        labelled = ""
        if len(items) >= _REPORT_ITEMS:
            break
        if ((rules._is_result_item(text) or _label(text)) and not ex.is_question(text)
                and not cues.is_user_task(text)):
            items.append(text)
            labelled = text if _label(text) else ""
    if labelled and items and items[-1] == labelled:
        items.pop()
    return rules._dense(items)


# An item that only names what its sub-items tell: a bold name, maybe with its file ("**Registration**",
# "**Seed data** (`seed.py`)"), or a short name on a colon ("Backend:", "登录：").
_LABEL = re.compile(r"^\*\*[^*]{1,60}\*\*\s*(?:\([^)]{0,80}\))?\s*[:：]?$|^[^:：]{1,40}[:：]$")


def _label(text: str) -> bool:
    return bool(_LABEL.match(text.strip()))


def _asks_questions(ask: str) -> bool:
    """An ask that holds a question that does not ask the agent to act ("which format is best?")."""
    if "?" not in ask and "？" not in ask:
        return False
    return any(ex.is_question(sentence) and not ask_kinds.requests_work(sentence)
               for sentence in ex.sentences(ask[:_QUESTION_CHARS]))


# An exporter's record of a tool that acted, printed without its input ("**Tool: edit**", "Tool: bash"), and a
# folded block of the agent's hidden steps ("<details><summary>32 previous messages").
_TOOL_MARK = re.compile(r"(?im)^[ \t]*(?:\*\*)?tool:\s*(?:edit|write|patch|bash|shell|apply_patch|multiedit)\b")


def _acted(turn: Turn, turn_parts: TurnParts) -> bool:
    """Whether a reply shows work done by a tool: an acting call, an edit record, a commit, hidden tool steps."""
    if turn_parts.made_changes or turn_parts.written or turn_parts.commit_of or turn_parts.ran_blocks:
        return True
    if any(call.kind in (rules.EDIT, rules.RUN, rules.EXTERNAL) for call in turn_parts.calls):
        return True
    return "<details" in turn.text or bool(_TOOL_MARK.search(turn.text))


def closing_replies(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]],
                    asks_for_work: Callable[[str], bool], ask_text: Callable[[str], str]) -> Set[int]:
    """Indexes of the replies that close a phase whose ask asked for work and whose replies show work done: the
    last reply with words before the next ask."""
    closing: Set[int] = set()
    last = -1
    asked = acted = False
    for index, (turn, turn_parts) in enumerate(zip(turns, parts)):
        if turn_parts is None:
            ask = ask_text(turn.text)
            if ask:
                if asked and acted and last >= 0:
                    closing.add(last)
                acted = False
                # A question's answer lists explanations; a bare yes goes on with the work it accepted.
                asked = (asks_for_work(ask) and not _asks_questions(ask)) or (len(ask) <= _ASK_CHARS and accepts(ask))
                last = -1
            continue
        acted = acted or _acted(turn, turn_parts)
        if re.search(r"\w{3,}", turn_parts.prose):
            last = index
    if asked and acted and last >= 0:
        closing.add(last)
    return closing
