"""One Markdown line scanner for the checklist file and the release documents: code fences and HTML comments.

Both readers walk a file line by line and must agree on what is prose and what is code or a comment (a
step inside a ``` block is documentation, never a step). Each line gets a kind; the readers decide what
a code block means to them (the checklist skips it, a release document keeps it as an item's detail).
"""
from __future__ import annotations

import re
from typing import Iterator, List, Optional, Tuple

TEXT = "text"
BLANK = "blank"
FENCE_OPEN = "fence-open"  # ``` or ~~~ opening a code block
CODE = "code"  # a line inside a code block
FENCE_CLOSE = "fence-close"
COMMENT = "comment"  # a line of an HTML comment (<!-- … -->)


_BULLET_FENCE = re.compile(r"^(?:[-*+]|\d{1,3}[.)])\s+(```|~~~)")


class MarkdownLines:
    """The lines of a text with their kinds; unclosed_fence is the 1-based line of a fence never closed."""

    def __init__(self, text: str) -> None:
        self.lines: List[Tuple[int, str, str]] = []  # (1-based number, line without "\r", kind)
        self.unclosed_fence: Optional[int] = None
        fence: Optional[str] = None
        in_comment = False
        for number, raw_line in enumerate(text.splitlines(), start=1):
            line = raw_line.rstrip("\r")
            stripped = line.strip()
            if fence is not None:
                closes = stripped.startswith(fence)
                self.lines.append((number, line, FENCE_CLOSE if closes else CODE))
                fence = None if closes else fence
                continue
            if in_comment:
                in_comment = "-->" not in line
                self.lines.append((number, line, COMMENT))
                continue
            opened = _BULLET_FENCE.match(stripped)
            if stripped.startswith(("```", "~~~")) or (opened and stripped.count(opened.group(1)) == 1):
                # (a list item may open a code block on its own line: "  * ```")
                fence = opened.group(1) if opened else stripped[:3]
                self.unclosed_fence = number
                self.lines.append((number, line, FENCE_OPEN))
                continue
            if stripped.startswith("<!--"):
                in_comment = "-->" not in stripped[4:]
                self.lines.append((number, line, COMMENT))
                continue
            self.lines.append((number, line, TEXT if stripped else BLANK))
        if fence is None:
            self.unclosed_fence = None

    def __iter__(self) -> Iterator[Tuple[int, str, str]]:
        return iter(self.lines)
