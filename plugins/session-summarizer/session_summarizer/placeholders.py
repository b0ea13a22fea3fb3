"""Placeholders the agent wrote into files and left there ("Copyright (c) 2025 Your Name", `YOUR_API_KEY_HERE`,
`git clone [repository URL]`): each is a value the user still has to fill in.

A placeholder is read from what an edit wrote (the turn's text outside its prose and outside what other tools
printed) in the shapes templates use everywhere: an upper-case YOUR_ name (a lower-case one only as
`your_…_here`: else it is an ordinary variable), a bracketed or angled "your …"/"repository …" slot, "Your Name"
after a year. Template files (.example, .sample, .template) hold placeholders on purpose and are not read.
"""

import re
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from .formats import EDIT
from .session import Turn
from .transcript import TurnParts

_PLACEHOLDER = re.compile(
    r"\bYOUR[_-][A-Z0-9][A-Z0-9_-]{1,40}\b|\byour_[a-z0-9_]{2,40}_here\b"
    r"|(?i:<your[-_ ][^<>\n]{1,40}>|\[your[-_ ][^\[\]\n]{1,40}\]"
    r"|\[(?:repository|repo|project|github) (?:url|name|directory|link)\])"
    r"|(?<=\d{4} )Your Name\b")
# Substrings one of _PLACEHOLDER's forms always holds: a turn with none of them is not searched.
_HINTS = ("YOUR", "your_", "<your", "<Your", "[your", "[Your", "epository ", "[repo", "[Repo", "[project", "[Github",
          "[Project", "[github", "[GitHub", "[GITHUB", "[REPO", "[PROJECT", "Your Name")
_SHELL = ("bash", "sh", "shell", "zsh", "console", "powershell", "ps1", "cmd", "terminal", "fish")
# The marks before a quoted or printed line: aider's "> ", Claude Code's "⎿", Codex's "└".
_MARKS = "> ⎿└│\t"
_TEMPLATE_FILES = (".example", ".sample", ".template", ".dist", ".tmpl")


def _path_before(text: str, at: int, paths: Sequence[str]) -> str:
    """The edited path named last before position `at` in the turn's text (where that edit's content starts)."""
    best, where = "", -1
    for path in paths:
        found = text.rfind(path.replace("\\", "/").rsplit("/", 1)[-1], 0, at)
        if found > where:
            best, where = path, found
    return best or (paths[0] if paths else "")


def left_in_files(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]]) -> List[Tuple[str, str]]:
    """(placeholder, file) for each placeholder an edit wrote, unless a later user turn names it (the user gave
    the value or asked about it)."""
    written: Dict[str, Tuple[int, str]] = {}  # placeholder -> (turn, file)
    for index, (turn, turn_parts) in enumerate(zip(turns, parts)):
        text = turn.text
        if turn_parts is None:
            for token in list(written):
                if token.lower() in text.lower():
                    del written[token]  # the user speaks of it: given, or asked about
            continue
        edits = [call.text for call in turn_parts.calls if call.kind == EDIT] + list(turn_parts.written)
        if not edits or not any(hint in text for hint in _HINTS) or not _PLACEHOLDER.search(text):
            continue
        shown: Set[str] = {line.strip().lstrip(_MARKS).strip() for call in turn_parts.calls if call.kind != EDIT
                           for line in call.output if line.strip()}
        # A shell block in the reply is a step shown to the user ("export TOKEN=your_token_here"), not a file.
        shown |= {line.strip() for language, code in turn_parts.blocks if language.strip().lower() in _SHELL
                  for line in code.split("\n") if line.strip()}
        for found in _PLACEHOLDER.finditer(text):
            token = found.group(0)
            line_start = text.rfind("\n", 0, found.start()) + 1
            line_end = text.find("\n", found.end())
            line = text[line_start:line_end if line_end >= 0 else len(text)].strip().lstrip(_MARKS).strip()
            if line in shown or (line and line in turn_parts.prose):
                continue  # printed by a tool (a file read) or said in the reply, not written
            path = _path_before(text, found.start(), edits)
            if path.lower().endswith(_TEMPLATE_FILES) or "example" in path.lower().rsplit("/", 1)[-1]:
                continue
            written[token] = (index, path)
    return [(token, path) for token, (_, path) in written.items()][:_SHOWN]


def open_items(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]],
               phrase_of: Callable[..., str]) -> List[str]:
    """The placeholders left in files, in the session's language (`phrase_of(key, **values)`)."""
    return [phrase_of("open.placeholder", text="`" + token.replace("`", "'") + "`",
                      file="`" + path.replace("`", "'") + "`")
            for token, path in left_in_files(turns, parts)]


_SHOWN = 3
