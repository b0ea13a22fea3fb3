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
from typing import Dict, List, Optional, Sequence, Tuple

from .checklist_file import _PLACEHOLDER, ChecklistSpec, _slug, _unique_id
from .doc_placeholders import fill_item
from .guide_sections import guide_candidates, release_section
from .markdown_lines import BLANK, CODE, COMMENT, FENCE_CLOSE, FENCE_OPEN, MarkdownLines
from .repo_text import read_text
from .steps import Step, StepKind

# (a project's tooling folder keeps it next to the scripts it runs: utils/release-checklist.rst)
ADOPTED_FOLDERS = ("", ".github", "docs", "doc", "utils", "tools", "scripts", "dev")
DOC_SUFFIXES = (".md", ".rst", ".txt", "")
MAX_DOC_DEPTH = 3  # docs/html/development/release-process.rst
MAX_TITLE = 120
# Names of release documents: RELEASING.md, RELEASE-CHECKLIST.md, docs/RELEASE-PROCEDURE.md, release_process.md…
_DOC_NAME = re.compile(r"(?i)^(?:releasing|release|releases|how[-_]?to[-_]?release|cutting[-_]a[-_]release|"
                       r"release[-_ ]?(?:checklist|process|procedure|guide|steps|instructions|howto))$")
_ITEM = re.compile(r"^(\s*)([-*+]|\d{1,3}[a-z]?[.)]|#\.)\s+(?:\[[ xX]\]\s+)?(.*)$")
_POLICY = re.compile(r"(?i)polic|guarantee|compatib|versioning|support|deprecat|branch management|cycle|cadence|"
                     r"schedule|end[- ]of[- ]life|\blts\b|backport|experimental|edge cases|pre[- ]?releases?$")
# What a procedure does: tag, push, publish, bump. A policy page names none of them as actions.
_SIGNALS = {
    "tag": re.compile(r"(?i)\bgit tag\b|\btag (?:the|a|it|this|that)\b|"
                      r"\b(?:create|push|sign|make)\b[^.\n]{0,40}\btags?\b|\bsigned tag"),
    "push": re.compile(r"(?i)\bgit push\b|\bpush (?:it|them|the (?:branch|commit|changes)|to (?:origin|upstream|main|"
                       r"master))"),
    "publish": re.compile(r"(?i)\b(?:cargo|npm|pnpm|yarn|uv|flit|poetry|hatch|pdm) publish\b|\btwine upload\b|"
                          r"\bpush(?:es)? (?:it |them |the \w+ )?to (?:rubygems|pypi|npm|crates\.io|hex|nuget)|"
                          r"\bgh release\b|publish (?:the |a )?(?:new )?(?:release|package|crate|gem|wheel|"
                          r"tarball|draft)|(?:upload|publish) (?:it |them )?to (?:pypi|npm|crates\.io)|"
                          r"\bgithub release\b|release (?:page|notes) on github|\bupload\b"),
    "bump": re.compile(r"(?i)\bbump\b|\bupdate (?:the )?`?[\w./-]*version|\bversion (?:number|bump)|"
                       r"\bset (?:the )?(?:new )?version|\bedit `?[\w./-]+`? to (?:set|bump)|\bchange the version"),
}
# Programs a release is run with, in a code span or at the start of a code block's line.
_PROGRAMS = (r"(?:git|make|cargo|npm|npx|pnpm|yarn|node|python3?|uv|tox|nox|twine|gh|just|go|rake|bundle|gem|invoke|"
             r"pipenv|poetry|hatch|pdm|bazel|gradlew?|mvnw?|dotnet|mix|ruby|bash|sh|\./|\.\./|scripts?/|bin/|tools/)")
# (a program then `:` is a cross-reference target, reStructuredText's :exc:`python:DeprecationWarning`)
_CODE_COMMAND = re.compile(rf"`+\s*(?:\$ )?{_PROGRAMS}(?!:)[^`]*`+|^\s*(?:\$ )?{_PROGRAMS}(?!:)\S*\s", re.MULTILINE)
# A command that makes the release itself (`pipenv run invoke release.release`, `npm run release`).
_RELEASE_COMMAND = re.compile(r"(?i)\b(?:releas|publish|deploy)")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^\s*([=\-~^*#+\"'`])\1{2,}\s*$")
_CODE = re.compile(r"(`+)(.+?)\1")
# The start of an item that asks to run exactly the command in its first code span.
_RUN = re.compile(r"^(?:run|execute|type|invoke)\s*(?::\s*)?(`+)(.+?)\1", re.IGNORECASE)
# "Title: `command`", when the code reads as a command line (a program and its arguments).
_TITLED_COMMAND = re.compile(r"^([^`]+?):\s*(`+)([A-Za-z.][^`<>]*\s[^`<>]*?)\2\s*$")
# Commands that publish or rewrite shared history: the panel asks before typing them.
_IRREVERSIBLE = re.compile(r"\b(?:push|publish|upload|release|tag)\b")
_KNOWN_PLACEHOLDERS = {"version": "{version}", "tag": "{tag}", "previous_tag": "{previous_tag}",
                       "previous_version": "{previous_version}", "branch": "{branch}", "remote": "{remote}"}


def doc_signals(text: str) -> Dict[str, bool]:
    """Which release actions a document describes, and whether it holds commands or a list of steps."""
    found = {name: pattern.search(text) is not None for name, pattern in _SIGNALS.items()}
    found["commands"] = _CODE_COMMAND.search(text) is not None
    return found


def is_procedure(text: str, named_for_it: bool = False) -> bool:
    """A document is a release procedure when it describes the steps of a release: tagging, pushing,
    publishing or bumping, with commands in a list of steps (or two of those actions); a policy page
    (support windows, schedules, versioning rules) is not one. named_for_it: the file's name says it is how
    to release (RELEASING.md, a release tool's README): then the command that makes a release is enough
    ("To create a new release: `pipenv run invoke release.release`")."""
    found = doc_signals(text)
    actions = sum(found[name] for name in ("tag", "push", "publish", "bump"))
    has_list = len([line for line in text.splitlines() if _ITEM.match(line)]) >= 2
    # Named for it, a document still has to say how to release: some action, or a command that releases
    # (a versioning and deprecation page named release-process.rst only shows how to build the docs).
    releasing = actions >= 1 or any(_RELEASE_COMMAND.search(match.group(0)) for match in _CODE_COMMAND.finditer(text))
    if named_for_it and found["commands"] and releasing and not _POLICY.search(_title_of(text)):
        return True
    return (actions >= 2 and (found["commands"] or has_list)) or (actions >= 1 and found["commands"] and has_list)


# Names that say a document is how to release (not "release"/"releases": a policy page or notes may be named so).
_HOW_NAME = re.compile(r"(?i)^(?:releasing|how[-_]?to[-_]?release|cutting[-_]a[-_]release|"
                       r"release[-_ ]?(?:checklist|process|procedure|guide|steps|instructions|howto))$")


def _named_for_it(path: str) -> bool:
    stem = os.path.splitext(os.path.basename(path))[0]
    folder = os.path.basename(os.path.dirname(path))
    return bool(_HOW_NAME.match(stem) or (_README.match(os.path.basename(path)) and _DOC_NAME.match(folder)))


def _title_of(text: str) -> str:
    heading = next((match.group(1) for match in map(_HEADING.match, text.splitlines()[:20]) if match), "")
    return heading


def _candidates(repo: str) -> List[str]:
    """Files named like release documents at the root, in .github/, and in docs/ and doc/ (a few levels deep)."""
    found: List[str] = []
    for folder in ADOPTED_FOLDERS:
        base = os.path.join(repo, folder) if folder else repo
        walker = os.walk(base) if folder in ("docs", "doc") else [(base, [], _names(base))]
        for current, folders, files in walker:
            depth = os.path.relpath(current, base).count(os.sep) + (os.path.relpath(current, base) != ".")
            folders[:] = sorted(name for name in folders if not name.startswith(".")) if depth < MAX_DOC_DEPTH else []
            for name in sorted(files):
                stem, suffix = os.path.splitext(name)
                if suffix.lower() in DOC_SUFFIXES and _DOC_NAME.match(stem) and \
                        os.path.isfile(os.path.join(current, name)):
                    found.append(os.path.join(current, name))
    return found + [path for path in _other_candidates(repo) if path not in found]


# Where else a release procedure is kept: GitHub's pull request and issue templates for a release
# (.github/PULL_REQUEST_TEMPLATE/release.md, the checklist a release PR is opened with), and the README of a
# folder of release tooling (release/README.md, scripts/release/README.md).
_TEMPLATE_FOLDERS = ("pull_request_template", "issue_template")
_TOOL_PARENTS = ("", "scripts", "script", "tools", "tooling", "dev", "build", ".github")
_README = re.compile(r"(?i)^(?:readme|index)\.(?:md|rst|txt)$")


def _other_candidates(repo: str) -> List[str]:
    found: List[str] = []
    github = os.path.join(repo, ".github")
    for folder in sorted(_names(github)):
        if folder.lower() in _TEMPLATE_FOLDERS and os.path.isdir(os.path.join(github, folder)):
            for name in sorted(_names(os.path.join(github, folder))):
                stem, suffix = os.path.splitext(name)
                if suffix.lower() in (".md", ".rst", ".txt") and _DOC_NAME.match(stem):
                    found.append(os.path.join(github, folder, name))
    for parent in _TOOL_PARENTS:
        base = os.path.join(repo, parent) if parent else repo
        for folder in sorted(_names(base)):
            if not _DOC_NAME.match(folder) or not os.path.isdir(os.path.join(base, folder)):
                continue
            found += [os.path.join(base, folder, name) for name in sorted(_names(os.path.join(base, folder)))
                      if _README.match(name) and os.path.isfile(os.path.join(base, folder, name))]
    return found


def _names(folder: str) -> List[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


# How much of a release document or guide is read: real ones are a few pages.
_DOC_CHARS = 1_000_000


def find_release_doc(repo: str) -> Optional[str]:
    """The repository's own release procedure, if it has one (RELEASE-CHECKLIST.md, RELEASING.rst,
    docs/RELEASE-PROCEDURE.md, docs/…/release-process.rst, …); policy pages are passed over."""
    for path in _candidates(repo):
        text = read_text(path, _DOC_CHARS)
        if text is not None and is_procedure(text, _named_for_it(path)) and not is_changelog(text):
            return path
    for path in guide_candidates(repo):
        guide = read_text(path, _DOC_CHARS)
        if guide is None:
            continue
        section = release_section(guide)
        # A guide's section is the procedure only when it has the release tagged and pushed, with commands: a
        # paragraph saying to run the project's release script (lerna), what a release PR holds (httpx) or how
        # to publish one crate of a workspace with its script (tracing) is guidance around a tool, not steps.
        said = doc_signals(section or "")
        if section and said["commands"] and said["tag"] and said["push"]:
            return path
    return None


_VERSION_IN_HEADING = re.compile(r"\bv?\d+\.\d+(?:\.\d+)?\b")


def is_changelog(text: str) -> bool:
    """Most headings name a version ("# Release rayon 1.12.0 (date)", "3.0.2 (2024-10-28)"): the file is the
    project's release history (RELEASES.md, RELEASES.rst), not how to make a release."""
    lines = text.splitlines()
    underlined = [heading for heading in _underlined_headings(lines).values() if heading]
    headings = [match.group(1) for match in map(_HEADING.match, lines) if match] + underlined
    versioned = sum(1 for heading in headings if _VERSION_IN_HEADING.search(heading))
    return versioned >= 3 and versioned * 2 > len(headings)


def _placeholders(text: str) -> str:
    """{VERSION} -> {version}; any other {NAME}, and a shell's ${NAME}, stay literal ({{NAME}}), read the way
    the checklist format reads placeholders, so nothing half-fills and the adopted file reads back.
    (The document's own ways of writing the version, vX.Y.Z, $VERSION, <version>, are doc_placeholders'.)"""
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


def _underlined_headings(lines: List[str]) -> Dict[int, str]:
    """Setext and reStructuredText headings: 0-based line -> heading text; their under/overlines map to ""."""
    found: Dict[int, str] = {}
    for index in range(len(lines) - 1):
        line, below = lines[index], lines[index + 1]
        if index in found or not line.strip() or line[:1].isspace() or _UNDERLINE.match(line):
            continue
        if _ITEM.match(line) or line.lstrip().startswith(("```", "~~~", "..", "|")):
            continue
        if _UNDERLINE.match(below) and len(below.strip()) >= min(len(line.strip()), 3) and \
                below.strip() not in ("```", "~~~"):  # a code fence, not an underline
            found[index] = line.strip()
            found[index + 1] = ""
            if index and _UNDERLINE.match(lines[index - 1]):
                found[index - 1] = ""  # an overline
    return found


def _sections(text: str) -> Tuple[str, List[_Section]]:
    """(title of the document, its sections with their top-level list items)."""
    title = ""
    sections = [_Section("")]
    items: List[Item] = sections[0].items
    base: Optional[int] = None  # indentation of the current list's top-level items
    fence_kept = False  # the open code block belongs to the last item
    scanned = MarkdownLines(text)
    underlined = _underlined_headings([line for _number, line, _kind in scanned])
    for number, line, kind in scanned:
        stripped = line.strip()
        if kind in (CODE, FENCE_CLOSE):
            if fence_kept:
                items[-1][2].append(stripped)
            continue
        if kind in (COMMENT, BLANK):
            continue
        if (number - 1) in underlined:
            if underlined[number - 1]:
                title, base = title or underlined[number - 1], None
                sections.append(_Section(underlined[number - 1]))
                items = sections[-1].items
            continue
        indent = len(line) - len(line.lstrip())
        inside = bool(items) and base is not None and indent > base
        if kind == FENCE_OPEN:
            fence_kept = inside
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
        elif inside and not item and not items[-1][2] and not stripped.startswith((">", "|", ".. ")):
            # (a reStructuredText directive, `.. code-block:: bash`, starts the item's detail)
            first, body, detail = items[-1]
            items[-1] = (first, body + " " + stripped, detail)  # a wrapped line of the item
        elif inside:
            items[-1][2].append(stripped)  # a sub-list, a quote or a later paragraph of the item
        else:
            base = None  # prose between lists
    return title, [section for section in sections if section.items]


# Headings of sections that are alternative ways to release (pip's "Creating a new release" / "Creating a bug-fix
# release", pydantic's "Semi-automated Release Process" / "Manual Release Process"): a qualifier before "release".
_ALTERNATIVE = re.compile(r"(?i)\b(?:semi[- ]?automated|automated|automatic|manual|scripted|new|major|minor|patch|"
                          r"bug[- ]?fix|bugfix|hotfix|point|maintenance|feature|regular|normal|stable|final|"
                          r"pre[- ]?release|alpha|beta|rc|security)\b[\w -]{0,20}\b(?:releas|version)")
_PATCH_KIND = re.compile(r"(?i)\b(?:patch|bug[- ]?fix|bugfix|hotfix|point|maintenance|security)\b")
_MINOR_KIND = re.compile(r"(?i)\b(?:new|major|minor|feature|regular|normal|final)\b")
_PRE_KIND = re.compile(r"(?i)\b(?:pre[- ]?release|alpha|beta|rc)\b")
_MANUAL = re.compile(r"(?i)^\W*manual\b")


def _one_alternative(chosen: List[_Section], patch: Optional[bool]) -> List[_Section]:
    """Of two or more sections that are alternative procedures, the one for this release: by its kind (a patch
    release's bug-fix procedure, a new release's for the others; never a pre-release's), else the first that is
    not the manual fallback. The sections that are no alternative (preparation, afterwards) stay."""
    # Alternatives are parallel: the same heading but for the qualifier ("Creating a new release", "Creating a
    # bug-fix release"); "Prepare a new release" then "Publish the final release" are two parts of one.
    groups: Dict[str, List[_Section]] = {}
    for section in chosen:
        if _ALTERNATIVE.search(section.heading):
            groups.setdefault(_without_qualifier(section.heading), []).append(section)
    alternatives = next((group for group in groups.values() if len(group) >= 2), [])
    if len(alternatives) < 2:
        return chosen
    finals = [section for section in alternatives if not _PRE_KIND.search(section.heading)] or alternatives
    kind = _PATCH_KIND if patch else _MINOR_KIND if patch is not None else None
    by_kind = [section for section in finals if kind is not None and kind.search(section.heading)]
    if patch and not by_kind:
        by_kind = [section for section in finals if _MINOR_KIND.search(section.heading)]
    pick = (by_kind or [section for section in finals if not _MANUAL.search(section.heading)] or finals)[0]
    position = next(index for index, section in enumerate(alternatives) if section is pick)
    continued = _CONTINUE_AT.search(pick.items[-1][1]) if pick.items else None
    whole = pick
    if continued and position > 0:
        # "… and follow the above release process starting with step 5": its steps from there on follow.
        whole = dataclasses.replace(pick, items=pick.items + alternatives[position - 1].items[
            int(continued.group(1)) - 1:])
    others = [id(section) for section in alternatives if section is not pick]
    return [whole if section is pick else section for section in chosen if id(section) not in others]


_QUALIFIER = re.compile(_ALTERNATIVE.pattern.split(r")\b[\w -]")[0] + r")\b|\b(?:a|an|the)\b", re.IGNORECASE)


def _without_qualifier(heading: str) -> str:
    return " ".join(_QUALIFIER.sub(" ", heading.lower()).replace("-", " ").split())


# A procedure that ends in another's steps: "follow the above release process starting with step 5".
_CONTINUE_AT = re.compile(r"(?i)\bfollow\w*\s+the\s+(?:above|previous|preceding|same|other|regular|normal)\b"
                          r"[^.]{0,60}?\b(?:starting|beginning|continuing|from)\s+(?:with|at|from)?\s*step\s+(\d{1,2})\b")


def _procedure(sections: List[_Section], patch: Optional[bool] = None) -> List[Item]:
    """The items of every section but the policy ones: a section headed like policy ("Release Cycle",
    "Supported Versions", "Compatibility guarantees") whose items do not tag, push, publish or bump; of
    alternative procedures only the one for this release (patch: whether it is a patch release)."""
    def policy(section: _Section) -> bool:
        if not _POLICY.search(section.heading):
            return False
        text = "\n".join(body + "\n" + "\n".join(detail) for _line, body, detail in section.items)
        found = doc_signals(text)
        return not any(found[name] for name in ("tag", "push", "publish", "bump"))

    chosen = _one_alternative([section for section in sections if not policy(section)
                               and _steps_of_a_procedure(section)], patch)
    return [item for section in (chosen or sections) for item in section.items]


# How a step of a procedure starts: an instruction ("Update the CHANGELOG", "Run `cargo package`"), maybe after
# a condition ("Once CI finishes, push the tag", "If needed, edit …").
_IMPERATIVE = re.compile(
    r"(?i)^(?:\*\*)?(?:(?:once|when|after|if|then|optionally|finally|next|now)\b[^.]*?[,:]\s*)?(?:please\s+)?"
    r"(?:add|announce|approve|build|bump|change|check|choose|close|commit|confirm|copy|create|delete|deploy|do|"
    r"download|edit|enable|ensure|fill|generate|go|install|make|mark|merge|move|open|pick|post|prepare|publish|"
    r"pull|push|put|rebase|regenerate|remove|rename|replace|review|run|send|set|sign|start|submit|switch|"
    r"sync|tag|test|tweet|update|upload|verify|wait|write|bump)\b")


def _steps_of_a_procedure(section: _Section) -> bool:
    """Most of the section's items are instructions or commands (not descriptions, dates or rules)."""
    procedural = sum(1 for _line, body, _detail in section.items
                     if _IMPERATIVE.match(body) or _RUN.match(body) or _TITLED_COMMAND.match(body))
    return procedural * 2 >= len(section.items)


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


_COMMAND_LINE = re.compile(rf"^\s*(?:\$ )?({_PROGRAMS}\S*(?:\s.*)?)$")
MAX_BLOCK_COMMANDS = 3  # more command lines than this, without a list, are examples rather than the way to release


def _code_block_commands(text: str) -> List[Item]:
    """A document without a list whose code blocks hold the release command ("To create a new release:" then
    `pipenv run invoke release.release` in a block): each command line as an item that runs it."""
    found: List[Item] = []
    for number, line, kind in MarkdownLines(text):
        match = _COMMAND_LINE.match(line) if kind == CODE else None
        if match and not line.strip().startswith("#"):
            command = match.group(1).strip()
            found.append((number, f"Run `{command}`", []))
    return found if len(found) <= MAX_BLOCK_COMMANDS else []


def _heading_steps(text: str) -> List[Item]:
    """A procedure written as one heading per step with prose under it ("### Release notes", then what to do):
    each heading that has text of its own becomes a step, its first paragraph the hint; the title, policy
    headings and headings that only group the next ones are not steps."""
    lines = text.splitlines()
    underlined = _underlined_headings(lines)
    found: List[Item] = []
    current: Optional[Tuple[int, str, List[str]]] = None
    seen_title = False
    for index, line in enumerate(lines):
        heading = _HEADING.match(line)
        said = heading.group(1) if heading else underlined.get(index)
        if said is not None and index in underlined and not said:
            continue  # an under/overline
        if said:
            if current and current[2]:
                found.append(current)
            current = None
            if seen_title and not _POLICY.search(said):
                current = (index + 1, said.strip(), [])
            seen_title = True
            continue
        if current is not None and line.strip() and (not current[2] or lines[index - 1].strip()):
            current[2].append(line.strip())  # the first paragraph only
    if current and current[2]:
        found.append(current)
    # The steps themselves must do at least two release actions (tag, push, publish, bump); sections about
    # kinds of releases ("Major Releases", "Hotfix Releases") describe rules, not steps.
    said = doc_signals("\n".join(heading + "\n" + "\n".join(body) for _line, heading, body in found))
    actions = sum(said[name] for name in ("tag", "push", "publish", "bump"))
    return found if len(found) >= 3 and actions >= 2 else []


def read_release_doc(text: str, path: str, tags: Sequence[str] = (),
                     patch: Optional[bool] = None) -> Optional[ChecklistSpec]:
    """The document's list as steps, or None when it has no list to follow. tags: the repository's release
    tags, so that an earlier release written into a command as an example is read as this release; patch:
    whether this release is a patch release (picks between a document's alternative procedures)."""
    title, sections = _sections(text)
    items = _procedure(sections, patch) or _code_block_commands(text) or _heading_steps(text)
    steps: List[Step] = []
    used: Dict[str, int] = {}
    for number, body, detail in items:
        body, detail = fill_item(body, detail, tags)
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
