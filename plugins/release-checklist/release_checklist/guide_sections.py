"""The release section of a contributor or developer guide (docs/contributing.rst, docs/development.rst).

Many projects keep their release procedure as one section of the guide for contributors ("Making a new
release" in twine's docs/contributing.rst, "Creating a new release" in tox's docs/development.rst) rather than
in a file of its own. Only that section is the procedure: the guide's other sections (setting up, running the
tests) are not release steps.
"""
from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Tuple

from .markdown_lines import CODE, FENCE_CLOSE, FENCE_OPEN, MarkdownLines

# Guides for the people who work on the project, where a release section may live.
GUIDE_NAME = re.compile(r"(?i)^(?:contributing|development|developing|developers?|developer[-_ ]?guide|hacking|"
                        r"maintainers?|maintaining|maintainer[-_ ]?guide)$")
GUIDE_FOLDERS = ("", ".github", "docs", "doc")
GUIDE_SUFFIXES = (".md", ".rst", ".txt")
# A heading that says how a release is made (not "Release notes", "Release policy", "Supported releases").
_RELEASE_HEADING = re.compile(
    r"(?i)^(?:how\s+to\s+)?(?:(?:making|creating|cutting|doing|preparing|publishing|make|create|cut|prepare|publish)"
    r"\s+(?:a\s+|the\s+)?(?:new\s+)?(?:release|version)s?|releasing(?:\s+(?:a\s+)?new\s+versions?)?|"
    r"(?:the\s+)?release\s+(?:process|procedure|steps|checklist|instructions|guide|workflow))\W*$")
_MARKDOWN_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^\s*([=\-~^*#+\"'`])\1{2,}\s*$")


def guide_candidates(repo: str) -> List[str]:
    """Contributor and developer guides at the root, in .github/, docs/ and doc/."""
    found: List[str] = []
    for folder in GUIDE_FOLDERS:
        base = os.path.join(repo, folder) if folder else repo
        try:
            names = sorted(os.listdir(base))
        except OSError:
            continue
        for name in names:
            stem, suffix = os.path.splitext(name)
            if suffix.lower() in GUIDE_SUFFIXES and GUIDE_NAME.match(stem) and os.path.isfile(os.path.join(base, name)):
                found.append(os.path.join(base, name))
    return found


def is_guide(path: str) -> bool:
    return GUIDE_NAME.match(os.path.splitext(os.path.basename(path))[0]) is not None


def _headings(text: str) -> List[Tuple[int, int, str]]:
    """(0-based line, level, title) of the text's headings outside code: Markdown's by their #'s, the
    underlined ones (reStructuredText, setext) by the order their underline styles first appear."""
    lines = text.splitlines()
    kinds = {number - 1: kind for number, _line, kind in MarkdownLines(text)}
    styles: Dict[str, int] = {}
    found: List[Tuple[int, int, str]] = []
    for index, line in enumerate(lines):
        if kinds.get(index) in (CODE, FENCE_OPEN, FENCE_CLOSE) or not line.strip():
            continue
        marked = _MARKDOWN_HEADING.match(line)
        if marked:
            found.append((index, len(marked.group(1)), marked.group(2)))
            continue
        below = lines[index + 1] if index + 1 < len(lines) else ""
        if line[:1].isspace() or _UNDERLINE.match(line) or not _UNDERLINE.match(below) or \
                len(below.strip()) < min(len(line.strip()), 3):
            continue
        overlined = index > 0 and lines[index - 1].strip() == below.strip()
        style = ("over" if overlined else "") + below.strip()[0]
        found.append((index, styles.setdefault(style, len(styles) + 1), line.strip()))
    return found


def release_section(text: str) -> Optional[str]:
    """The text of the first section whose heading says how to release, with its subsections; None if none."""
    headings = _headings(text)
    lines = text.splitlines()
    for position, (start, level, title) in enumerate(headings):
        if not _RELEASE_HEADING.match(title.strip("*_` ")):
            continue
        end = next((index for index, other, _title in headings[position + 1:] if other <= level), len(lines))
        return "\n".join(lines[start:end])
    return None


def procedure_text(path: str, text: str) -> str:
    """What of a release document is its procedure: a guide's release section, any other document whole."""
    return (release_section(text) or text) if is_guide(path) else text
