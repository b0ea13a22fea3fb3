"""The Codex app's Markdown copy of a task: progress notes folded in `<details>` blocks, read into typed calls.

The app folds the agent's notes between asks into `<details><summary>44 previous messages</summary>`, each
note a `> ` quote, and inside it folds each group of steps again (`> <details><summary>Ran 2 commands
</summary>`) as one line per step: ``- Ran `git status` ``, ``- Read `./a.hs` ``, ``- Wrote `./b.js` (+3 -0)``,
``- Searched for `x` in `src` ``, `- Listed files`, `Searched the web for …`. The notes are the agent's words
(what failed, what it chose); the step lines are its calls. Read whole, neither is lost to a folded block.
"""

import re
from typing import Any, List

from .formats import EDIT, READ, RUN, SEARCH

# A folded block whose notes are quoted: the app's own shape (SpecStory's blocks are never quoted).
_QUOTED_FOLD = re.compile(r"(?m)^(?:>[ \t]?)+<details><summary>")
_FOLD_LINE = re.compile(r"^<details><summary>[^\n]*?</summary>|^</details>")
_STEP = re.compile(r"^[-*][ \t]+(Ran|Read|Wrote|Edited|Created|Added|Deleted|Updated|Searched for|Listed)\b[ \t]*(.*)$")
_WEB = re.compile(r"^Searched the web\b")
_CODE = re.compile(r"`([^`\n]+)`")
_EDITS = frozenset(("Wrote", "Edited", "Created", "Added", "Deleted", "Updated"))


def holds_progress(text: str) -> bool:
    """Whether the turn holds the app's quoted, folded progress notes."""
    return "<details><summary>" in text and bool(_QUOTED_FOLD.search(text))


def _unquoted(line: str) -> str:
    while line.startswith(">"):
        line = line[2:] if line.startswith("> ") else line[1:]
    return line


def progress_calls(text: str, parts: Any) -> str:
    """Take the folded notes' step lines out of `text` as calls; the notes stay, unquoted, as prose."""
    kept: List[str] = []
    for line in text.split("\n"):
        body = _unquoted(line.strip()).strip()
        if _FOLD_LINE.match(body):
            kept.append("")
            continue
        quoted = line.lstrip().startswith(">")
        step = _STEP.match(body) if quoted else None  # the answer after the notes is not quoted: its lists stay
        if step is None:
            if quoted and _WEB.match(body):
                parts.call(SEARCH, body[:120])
                parts.close_call()
                kept.append("")
            else:
                kept.append(_unquoted(line.lstrip()) if quoted else line)
            continue
        verb, rest = step.group(1), step.group(2)
        code = _CODE.search(rest)
        target = code.group(1).strip() if code else ""
        if verb == "Ran" and target:
            parts.call(RUN, target)
        elif verb == "Read" and target:
            parts.call(READ, target)
        elif verb in _EDITS and target:
            parts.call(EDIT, target)
        else:
            parts.call(SEARCH, (verb + " " + rest).strip()[:120])
        parts.close_call()
        kept.append("")
    return "\n".join(kept)
