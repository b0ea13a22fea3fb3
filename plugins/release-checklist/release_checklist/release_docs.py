"""Read a repository's own release document (RELEASE-CHECKLIST.md, RELEASING.md, …) as checklist steps.

Such a file is prose written for people: a bullet or numbered list, items wrapped over several
lines, sub-lists and code blocks inside items. Each top-level item becomes a step; its first
sentence is the title and the rest its hint. An item that says to run one command ("Run `cargo
package` and ensure it succeeds.") becomes a terminal step: typed into the user's shell, never run
by the plugin on its own, and confirmed first when it publishes something.
"""
from __future__ import annotations

import dataclasses
import os
import re
from typing import Dict, List, Optional, Tuple

from .checklist_file import _PLACEHOLDER, ChecklistSpec, _slug, _unique_id
from .steps import Step, StepKind

ADOPTED_NAMES = ("RELEASE-CHECKLIST.md", "RELEASING.md", "RELEASE.md", "RELEASE_PROCESS.md", "RELEASE-PROCESS.md")
ADOPTED_FOLDERS = ("", ".github", "docs", "doc")
MAX_TITLE = 120
_ITEM = re.compile(r"^(\s*)([-*+]|\d{1,3}[a-z]?[.)])\s+(?:\[[ xX]\]\s+)?(.*)$")
_PROCEDURE = re.compile(r"(?i)releas|checklist|steps?\b|process|publish|cutting|how to|procedure|prepar|tag")
_POLICY = re.compile(r"(?i)polic|guarantee|compatib|versioning|support|deprecat|note|conflict|branch management")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
_CODE = re.compile(r"(`+)(.+?)\1")
# The start of an item that asks to run exactly the command in its first code span.
_RUN = re.compile(r"^(?:run|execute|type|invoke)\s*(?::\s*)?(`+)(.+?)\1", re.IGNORECASE)
# "Title: `command`", when the code reads as a command line (a program and its arguments).
_TITLED_COMMAND = re.compile(r"^([^`]+?):\s*(`+)([A-Za-z.][^`<>]*\s[^`<>]*?)\2\s*$")
# Commands that publish or rewrite shared history: the panel asks before typing them.
_IRREVERSIBLE = re.compile(r"\b(?:push|publish|upload|release|tag)\b")
_KNOWN_PLACEHOLDERS = {"version": "{version}", "tag": "{tag}", "previous_tag": "{previous_tag}",
                       "branch": "{branch}", "remote": "{remote}"}


def find_release_doc(repo: str) -> Optional[str]:
    """The repository's own release document, if it has one (RELEASE-CHECKLIST.md, RELEASING.md, docs/release*.md)."""
    for folder in ADOPTED_FOLDERS:
        base = os.path.join(repo, folder) if folder else repo
        try:
            entries = {name.lower(): name for name in os.listdir(base)}
        except OSError:
            continue
        for name in ADOPTED_NAMES:
            if name.lower() in entries and os.path.isfile(os.path.join(base, entries[name.lower()])):
                return os.path.join(base, entries[name.lower()])
        if folder == "docs":
            for lower in sorted(entries):
                if lower.startswith("release") and lower.endswith(".md"):
                    return os.path.join(base, entries[lower])
    return None


def _placeholders(text: str) -> str:
    """{VERSION} -> {version}; any other {NAME}, and a shell's ${NAME}, stay literal ({{NAME}}), read the way
    the checklist format reads placeholders, so nothing half-fills and the adopted file reads back."""
    def replace(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return match.group(0)  # already literal
        name = match.group(2)
        shell = match.start() > 0 and text[match.start() - 1] == "$"
        known = None if shell else _KNOWN_PLACEHOLDERS.get(name.lower())
        return known or "{{" + name + "}}"

    return _PLACEHOLDER.sub(replace, text)


Item = Tuple[int, str, List[str]]  # (line, item text, detail lines)


@dataclasses.dataclass
class _Section:
    heading: str
    numbered: bool = False
    items: List[Item] = dataclasses.field(default_factory=list)


def _sections(text: str) -> Tuple[str, List[_Section]]:
    """(title of the document, its sections with their top-level list items)."""
    title = ""
    sections = [_Section("")]
    items: List[Item] = sections[0].items
    base: Optional[int] = None  # indentation of the current list's top-level items
    fence: Optional[str] = None
    fence_kept = False  # the open code block belongs to the last item
    in_comment = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if fence is not None:
            if fence_kept:
                items[-1][2].append(stripped)
            if stripped.startswith(fence):
                fence = None
            continue
        if in_comment:
            in_comment = "-->" not in line
            continue
        if not stripped:
            continue
        if stripped.startswith("<!--"):
            in_comment = "-->" not in stripped[4:]
            continue
        inside = bool(items) and base is not None and indent > base
        if stripped.startswith(("```", "~~~")):
            fence, fence_kept = stripped[:3], inside
            if inside:
                items[-1][2].append(stripped)
            continue
        heading = _HEADING.match(line)
        if heading:
            title, base = title or heading.group(1), None
            sections.append(_Section(heading.group(1)))
            items = sections[-1].items
            continue
        item = _ITEM.match(line)
        if item and not inside:
            base = indent
            sections[-1].numbered = sections[-1].numbered or item.group(2)[0].isdigit()
            items.append((number, item.group(3).strip(), []))
        elif inside and not item and not items[-1][2] and not stripped.startswith((">", "|")):
            first, body, detail = items[-1]
            items[-1] = (first, body + " " + stripped, detail)  # a wrapped line of the item
        elif inside:
            items[-1][2].append(stripped)  # a sub-list, a quote or a later paragraph of the item
        else:
            base = None  # prose between lists
    return title, [section for section in sections if section.items]


def _procedure(sections: List[_Section]) -> List[Item]:
    """The items of the sections that read as a procedure (numbered, or headed "Release", "Steps"…);
    policy sections ("Versioning", "Compatibility guarantees") are left out. One section: all of it."""
    if len(sections) <= 1:
        return [item for section in sections for item in section.items]
    chosen = [section for section in sections
              if (section.numbered or _PROCEDURE.search(section.heading)) and not _POLICY.search(section.heading)]
    return [item for section in (chosen or sections) for item in section.items]


def _first_sentence(text: str) -> Tuple[str, str]:
    """Split "Do this. Then that." into ("Do this", "Then that."), keeping code spans whole."""
    masked = _CODE.sub(lambda match: "x" * len(match.group(0)), text)
    end = re.search(r"[.!?](?:\s|$)", masked)
    cut = end.start() if end else len(text)
    if cut > MAX_TITLE:
        space = masked.rfind(" ", 0, MAX_TITLE)
        cut = space if space > 20 else MAX_TITLE
        return text[:cut].rstrip(" ,;:") + "…", text[cut:].strip()
    return text[:cut].rstrip(), text[cut + 1:].strip()


def read_release_doc(text: str, path: str) -> Optional[ChecklistSpec]:
    """The document's list as steps, or None when it has no list to follow."""
    title, sections = _sections(text)
    items = _procedure(sections)
    steps: List[Step] = []
    used: Dict[str, int] = {}
    for number, body, detail in items:
        body = _placeholders(body)
        command: Optional[str] = None
        titled = _TITLED_COMMAND.match(body)
        run = _RUN.match(body)
        if titled:
            step_title, command = titled.group(1).strip(), titled.group(3).strip()
        else:
            step_title = _first_sentence(body)[0]
            command = run.group(2).strip() if run else None
        step_title = step_title.rstrip(":").rstrip()
        if not step_title:
            continue
        step_id = _unique_id(_slug(step_title) or f"step-{len(steps) + 1}", used)
        if command:
            steps.append(Step(step_id, step_title, StepKind.TERMINAL, command,
                              irreversible=_IRREVERSIBLE.search(command) is not None, line=number))
        else:
            full = body + ("\n" + "\n".join(_placeholders(line) for line in detail) if detail else "")
            steps.append(Step(step_id, step_title, StepKind.MANUAL,
                              full[:2000] if len(body) > len(step_title) + 1 or detail else None, line=number))
    if not steps:
        return None
    return ChecklistSpec(tuple(steps), title or "Release checklist", path=path)
