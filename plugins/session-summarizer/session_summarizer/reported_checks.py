"""Commands a reply lists under a line that says they passed ("Validações OK:", "All checks pass:", "✅ 通过的检查：",
"検証 OK:"): the agent's report of the checks it ran, one command per item, in sessions whose export hides the
runs themselves."""

import re
from typing import List

from . import extraction as ex
from . import sections as rules

# The lead-in says the checks passed: a pass word or mark, in the languages the rules read.
_PASSED = re.compile(r"(?i)\b(?:ok|pass(?:ed|es|ing)?|green|succeeded|successful|verde|passam|passaram"
                     r"|прошли|пройдены)\b|✅|✓|✔|通过|成功|通った|パス|통과|성공")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+`([^`\n]{2,200})`")
_LEAD_CHARS = 80


def checks_that_passed(prose: str) -> List[str]:
    """Inline commands that open the items of a list whose lead-in line says they passed."""
    found: List[str] = []
    passed = False  # the list being read sits under a line that says it passed
    for line in prose.split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        item = _ITEM.match(line)
        if item is None:
            if rules._LIST_ITEM.match(line) is None:
                passed = (len(stripped) <= _LEAD_CHARS and stripped.endswith((":", "："))
                          and bool(_PASSED.search(stripped)) and not rules._AHEAD_CUE.search(stripped))
            continue
        command = item.group(1).strip()
        if passed and ex.is_command_line(command):
            found.append(command)
    return found
