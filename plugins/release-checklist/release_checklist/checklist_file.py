"""Read and write RELEASE_CHECKLIST.md, a Markdown task list whose items may carry a command.

The format, in one example::

    # Release checklist
    Tag format: `v{version}`
    Release branch: `main`

    - [ ] Working tree is clean: `release-check clean-tree`
    - [ ] Tests pass: `python3 -m pytest -q` #timeout=900
    - [ ] Push the tag: `git push origin {tag}` #terminal #irreversible
    - [ ] Write the release notes: `Draft release notes for {version}.` #agent
    - [ ] Announce it on the blog

Each task item is one step (a file without task items may use a plain "-", "*", "+" or "1." list).
"Title: `command`" gives it a command (the code span must end the item and follow a colon; other
code spans are part of the title). Trailing `#tags` set the kind and flags. Settings lines (Tag
format, Release branch, Version file, Tests, Changelog, Remote) tune what is derived. Errors name
the exact line and column, so the panel can point at them.
"""
from __future__ import annotations

import dataclasses
import re
import shlex
import unicodedata
from typing import Dict, List, Optional, Tuple

from .markdown_lines import BLANK, TEXT, MarkdownLines
from .steps import Step, StepKind
from .versions import is_tag_format

CHECKLIST_FILE_NAME = "RELEASE_CHECKLIST.md"
PLACEHOLDERS: Tuple[str, ...] = ("version", "tag", "previous_tag", "previous_version", "branch", "remote")
DEFAULT_TAG_FORMAT = "v{version}"
FLAG_TAGS: Tuple[str, ...] = ("irreversible", "enter")
MAX_TIMEOUT_SECONDS = 24 * 3600
# A check runs without a shell (so it behaves the same on Windows, macOS and Linux); a token that
# only a shell understands would reach the program as a literal argument, so we refuse it early.
SHELL_OPERATORS = frozenset({"&&", "||", "|", ";", ">", ">>", "<", "<<", "2>", "2>&1", "&>", "&"})

_TASK_ITEM = re.compile(r"^(\s*)([-*+])\s+\[([ xX])\]\s?(.*)$")
# Near misses of "- [ ] title" that a person most likely meant as a step.
_NEAR_TASK_ITEM = re.compile(r"^\s*(?:[-*+]\[[ xX]?\]|[-*+]\s+\[\s*[xX]?\s*\](?!\()|\[[ xX]?\]\s)")
# File-level settings, for what detection cannot know. Lower-case name -> ChecklistSpec field.
SETTINGS: Dict[str, str] = {"tag format": "tag_format", "release branch": "release_branch",
                            "version file": "version_file", "version macro": "version_macro", "tests": "test_command",
                            "changelog": "changelog", "remote": "remote"}
_SETTING = re.compile(r"^\s*(tag format|release branch|version file|version macro|tests|changelog|remote)\s*:\s*(.*)$",
                      re.IGNORECASE)
# A plain list item ("- step", "* step", "+ step", "1. step"), read as a step when the file has no task items.
_LIST_ITEM = re.compile(r"^( {0,3})([-*+]|\d{1,3}[.)])\s+(?:\[([ xX])\]\s?)?(.*)$")
NO_STEPS_MESSAGE = ('The file has no steps. Write each step as a list item, for example '
                    '"- [ ] Tests pass: `make test`", "* Update the changelog" or "1. Push the tag".')
_HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$")
_TRAILING_TAGS = re.compile(r"(?:(?:^|(?<=\s))#[A-Za-z][\w.=:-]*\s*)+$")
_TAG = re.compile(r"#([A-Za-z][\w.=:-]*)")
_PLACEHOLDER = re.compile(r"\{\{([A-Za-z_]\w*)\}\}|\{([A-Za-z_]\w*)\}")
_TIMEOUT = re.compile(r"^(\d+(?:\.\d+)?)(s|m|h)?$")


@dataclasses.dataclass(frozen=True)
class ChecklistProblem:
    """One thing wrong in a checklist file, at a 1-based line and column."""

    line: int
    column: int
    code: str  # stable id, e.g. "unknown-tag"; the panel translates it
    message: str  # English sentence, also used by the ACP agent and in logs
    details: Dict[str, str] = dataclasses.field(default_factory=dict)

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


class ChecklistParseError(ValueError):
    """The checklist file could not be read as a checklist; `problems` lists every error found."""

    def __init__(self, problems: List[ChecklistProblem], path: Optional[str] = None) -> None:
        self.problems = problems
        self.path = path
        where = f"{path}: " if path else ""
        super().__init__(where + "; ".join(str(problem) for problem in problems))


@dataclasses.dataclass(frozen=True)
class ChecklistSpec:
    """A parsed checklist: its steps in order plus the file-level settings."""

    steps: Tuple[Step, ...]
    title: str = "Release checklist"
    tag_format: Optional[str] = None  # None: decided from the repository's existing tags
    release_branch: Optional[str] = None  # None: the remote's default branch, else main/master
    path: Optional[str] = None  # None when derived from the project instead of read from a file
    version_file: Optional[str] = None  # "Version file:" where the version is written
    version_macro: Optional[str] = None  # "Version macro:" the C/C++ #define in the version file holding it
    test_command: Optional[str] = None  # "Tests:" the command the derived test step runs
    changelog: Optional[str] = None  # "Changelog:" its path, or "none" for a project without one
    remote: Optional[str] = None  # "Remote:" where releases are pushed

    @property
    def settings(self) -> Dict[str, str]:
        """The settings the file gave (field name -> value)."""
        return {field: getattr(self, field) for field in SETTINGS.values() if getattr(self, field)}


class _LineProblems:
    """Collects problems for one line, turning 0-based offsets into 1-based columns."""

    def __init__(self, line_number: int, sink: List[ChecklistProblem]) -> None:
        self.line_number = line_number
        self.sink = sink

    def add(self, offset: int, code: str, message: str, **details: str) -> None:
        self.sink.append(ChecklistProblem(self.line_number, offset + 1, code, message, dict(details)))


def parse_checklist(text: str, path: Optional[str] = None) -> ChecklistSpec:
    """Parse checklist text; raise ChecklistParseError listing every problem with its position."""
    problems: List[ChecklistProblem] = []
    steps: List[Step] = []
    used_ids: Dict[str, int] = {}
    title = "Release checklist"
    settings: Dict[str, str] = {}
    list_items: List[Tuple[int, re.Match[str]]] = []  # plain list items, steps if there is no task item
    seen_heading = False
    scanned = MarkdownLines(text)
    for number, line, kind in scanned:
        # Code blocks and HTML comments are documentation, never steps.
        if kind not in (TEXT, BLANK):
            continue
        report = _LineProblems(number, problems)
        heading = _HEADING.match(line)
        if heading and not seen_heading:
            title, seen_heading = heading.group(1), True
            continue
        setting = _SETTING.match(line)
        if setting:
            value = _setting_value(setting.group(2), setting.start(2), report)
            field = SETTINGS[setting.group(1).lower()]
            if value is not None and field == "tag_format" and not is_tag_format(value):
                report.add(setting.start(2), "bad-tag-format",
                           "The tag format must contain {version} (or {major}, {minor} and {patch}), for example "
                           "`v{version}` or `curl-{major}_{minor}_{patch}`.")
            elif value is not None:
                settings[field] = value
            continue
        item = _TASK_ITEM.match(line)
        if item is None:
            near = _NEAR_TASK_ITEM.match(line)
            plain = _LIST_ITEM.match(line)
            if near:
                report.add(len(line) - len(line.lstrip()), "bad-task-marker",
                           'This looks like a step but is not written as "- [ ] title".')
            elif plain and plain.group(4).strip():
                list_items.append((number, plain))
            continue
        step = _parse_item(item.group(4), item.start(4), number, report, used_ids, len(steps) + 1)
        if step is not None:
            steps.append(step)
    if scanned.unclosed_fence is not None:
        problems.append(ChecklistProblem(len(text.splitlines()) or 1, 1, "unclosed-fence",
                                         "A code block (```) is opened but never closed."))
    if not steps and not problems:
        # No task list: a plain list ("-", "*", "+", "1.") is the checklist, read the same way.
        for number, plain in list_items:
            step = _parse_item(plain.group(4), plain.start(4), number, _LineProblems(number, problems), used_ids,
                               len(steps) + 1)
            if step is not None:
                steps.append(step)
    if not steps and not problems and not settings:
        problems.append(ChecklistProblem(1, 1, "no-steps", NO_STEPS_MESSAGE))
    if problems:
        raise ChecklistParseError(problems, path)
    # A file of settings only keeps the derived steps (see load_checklist) and tunes them.
    return ChecklistSpec(tuple(steps), title, path=path, **settings)


def _setting_value(text: str, offset: int, report: _LineProblems) -> Optional[str]:
    """A setting's value is a code span (`main`) or plain text."""
    value = text.strip()
    if value.startswith("`"):
        if len(value) < 2 or not value.endswith("`"):
            report.add(offset, "unclosed-code", "This code span has no closing backtick.")
            return None
        value = value.strip("`").strip()
    if not value:
        report.add(offset, "empty-setting", "This setting has no value.")
        return None
    return value


def _code_spans(body: str, offset: int, report: _LineProblems) -> Optional[List[Tuple[int, int, str]]]:
    """Find `code` spans as (start, end, content); None (with a problem) if one is unclosed."""
    spans: List[Tuple[int, int, str]] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body) and body[index + 1] in "`#":
            index += 2
            continue
        if char != "`":
            index += 1
            continue
        run = len(body[index:]) - len(body[index:].lstrip("`"))
        fence = "`" * run
        search = index + run
        close = -1
        while True:
            found = body.find(fence, search)
            if found < 0:
                break
            after = found + run
            if after < len(body) and body[after] == "`":
                search = after + len(body[after:]) - len(body[after:].lstrip("`"))
                continue
            close = found
            break
        if close < 0:
            report.add(offset + index, "unclosed-code", "This code span has no closing backtick.")
            return None
        content = body[index + run:close]
        if len(content) >= 2 and content.startswith(" ") and content.endswith(" ") and content.strip():
            content = content[1:-1]
        spans.append((index, close + run, content))
        index = close + run
    return spans


def _parse_item(body: str, offset: int, number: int, report: _LineProblems,
                used_ids: Dict[str, int], position: int) -> Optional[Step]:
    problems_before = len(report.sink)
    spans = _code_spans(body, offset, report)
    if spans is None:
        return None
    tail_start = spans[-1][1] if spans else 0
    rest = body[tail_start:].rstrip()
    trailing = _TRAILING_TAGS.search(rest)
    core_end = tail_start + (trailing.start() if trailing else len(rest))
    core = body[:core_end].rstrip()

    command: Optional[str] = None
    command_offset = 0
    title_text = core
    if spans and spans[-1][1] == len(core) and core[:spans[-1][0]].rstrip().endswith(":"):
        start, _end, content = spans[-1]
        # The span's content as CommonMark reads it (one padding space each side already removed):
        # stripping more would lose a space the writer kept, so `0 ` would read back as `0`.
        command = content if content.strip() else ""
        command_offset = offset + start + 1
        title_text = core[:start].rstrip()[:-1]
    title = title_text.strip().replace("\\#", "#").replace("\\`", "`")
    if not title:
        report.add(offset, "empty-title", "This step has no title.")

    kind: Optional[str] = None
    flags = {"irreversible": False, "enter": False}
    timeout: Optional[float] = None
    if trailing:
        for match in _TAG.finditer(rest, trailing.start()):
            tag = match.group(1)
            column = offset + tail_start + match.start()
            name, _, value = tag.partition("=")
            lowered = name.lower()
            if lowered in StepKind.ALL and not value:
                if kind is not None and kind != lowered:
                    report.add(column, "two-kinds", f"A step has one kind, but this one says #{kind} "
                               f"and #{lowered}.", first=kind, second=lowered)
                kind = lowered
            elif lowered in FLAG_TAGS and not value:
                flags[lowered] = True
            elif lowered == "timeout":
                timeout = _parse_timeout(value, column, report)
            else:
                import difflib  # only needed for a mistake, so not at every start

                known = [*StepKind.ALL, *FLAG_TAGS, "timeout=SECONDS"]
                guess = difflib.get_close_matches(lowered, known, n=1)
                hint = f" Did you mean #{guess[0]}?" if guess else f" Known tags: #{', #'.join(known)}."
                report.add(column, "unknown-tag", f"Unknown tag #{tag}.{hint}", tag=tag,
                           suggestion=guess[0] if guess else "")
    if kind is None:
        kind = StepKind.CHECK if command else StepKind.MANUAL
    if kind in (StepKind.CHECK, StepKind.TERMINAL) and not command:
        report.add(offset + len(core), "needs-command",
                   f'A #{kind} step needs a command: write "{title or "Title"}: `command`".', kind=kind)
    for text, text_offset in ((title_text, offset), (command or "", command_offset)):
        _check_placeholders(text, text_offset, report)
    if command and kind == StepKind.CHECK:
        _check_runnable(command, command_offset, report)
    if len(report.sink) > problems_before:
        return None
    step_id = _unique_id(_slug(title) or f"step-{position}", used_ids)
    return Step(step_id, title, kind, command, flags["irreversible"], timeout, flags["enter"], number)


def _parse_timeout(value: str, column: int, report: _LineProblems) -> Optional[float]:
    match = _TIMEOUT.match(value.strip().lower())
    seconds = None
    if match:
        seconds = float(match.group(1)) * {"s": 1, "m": 60, "h": 3600}[match.group(2) or "s"]
    if seconds is None or not 0 < seconds <= MAX_TIMEOUT_SECONDS:
        report.add(column, "bad-timeout", f"#timeout={value} is not a number of seconds, minutes (10m) "
                   "or hours (1h) up to 24 hours.", value=value)
        return None
    return seconds


def _check_placeholders(text: str, offset: int, report: _LineProblems) -> None:
    for match in _PLACEHOLDER.finditer(text):
        name = match.group(2)
        if name is not None and name not in PLACEHOLDERS:
            report.add(offset + match.start(), "unknown-placeholder",
                       f"Unknown placeholder {{{name}}}; known: {{{'}, {'.join(PLACEHOLDERS)}}}.", name=name)


def _check_runnable(command: str, offset: int, report: _LineProblems) -> None:
    try:
        tokens = shlex.split(command)
    except ValueError:
        report.add(offset, "bad-quotes", "The quotes in this command are not balanced.")
        return
    if not tokens:
        report.add(offset, "needs-command", "The command is empty.", kind=StepKind.CHECK)
    for token in tokens:
        if token in SHELL_OPERATORS:
            where = command.find(token)
            report.add(offset + max(where, 0), "shell-operator",
                       f'"{token}" needs a shell; a check runs one program without a shell. '
                       "Split it into two steps, or mark it #terminal.", operator=token)
            return


def _slug(title: str) -> str:
    """A stable id from a title; placeholders are left out so a new version keeps the same ids."""
    title = _PLACEHOLDER.sub(" ", title)
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")
    return slug[:48].rstrip("-")


def _unique_id(base: str, used: Dict[str, int]) -> str:
    count = used.get(base, 0) + 1
    used[base] = count
    return base if count == 1 else f"{base}-{count}"


def fill_placeholders(text: str, values: Dict[str, str]) -> str:
    """Replace {version} and friends; {{name}} stays as a literal {name}; unknown names stay."""

    def replace(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return "{" + match.group(1) + "}"
        return values.get(match.group(2), match.group(0))

    return _PLACEHOLDER.sub(replace, text)


FORMAT_HELP = """<!--
How this file works (read by the release-checklist plugin for Agentty; edit it freely):
- Each "- [ ]" item is one step, in order. The ticks in this file are not used: the plugin keeps
  progress per release version.
- "Title: `command`" gives a step a command. Other `code` in a title is just text.
- Tags at the end of an item:
    #check      (default when there is a command) the plugin runs it itself; exit code 0 passes.
                One program and its arguments: no shell operators such as && | > (make two steps).
    #terminal   the command is typed into your terminal; add #enter to also press Enter.
    #agent      the text is handed to an idle agent pane as a prompt.
    #manual     (default without a command) you tick it off yourself.
    #irreversible  the panel asks before doing it.   #timeout=600  seconds (or 10m) for a check.
- Placeholders: {version} {tag} {previous_tag} {previous_version} {branch} {remote}; {{name}} is a literal {name}.
- `release-check NAME` runs a built-in check: clean-tree, on-branch, in-sync, version-bumped,
  changelog-entry, tag-free.
- Settings, one per line, each optional: Tag format (`v{version}`, or `curl-{major}_{minor}_{patch}`),
  Release branch, Version file, Version macro (a #define in the version file), Tests,
  Changelog (a path, or none), Remote. A file with settings and no steps keeps the derived steps.
-->"""


def format_checklist(spec: ChecklistSpec) -> str:
    """Write a spec as checklist Markdown that parse_checklist reads back to the same steps."""
    lines = [f"# {spec.title}", "", FORMAT_HELP, ""]
    names = {field: name for name, field in SETTINGS.items()}
    for field, value in spec.settings.items():
        lines.append(f"{names[field].capitalize()}: {_code_span(value)}")
    if spec.settings:
        lines.append("")
    for step in spec.steps:
        lines.append(format_step(step))
    return "\n".join(lines) + "\n"


def format_step(step: Step) -> str:
    """One step as a task item line."""
    title = step.title.replace("`", "\\`").replace("#", "\\#")
    text = f"- [ ] {title}"
    if step.command:
        text += f": {_code_span(step.command)}"
    default_kind = StepKind.CHECK if step.command else StepKind.MANUAL
    tags = [] if step.kind == default_kind else [f"#{step.kind}"]
    if step.irreversible:
        tags.append("#irreversible")
    if step.press_enter:
        tags.append("#enter")
    if step.timeout is not None:
        seconds = step.timeout
        tags.append(f"#timeout={int(seconds) if seconds == int(seconds) else seconds}")
    return text + "".join(" " + tag for tag in tags)


def _code_span(content: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    fence = "`" * (longest + 1)
    if longest or content.startswith(" ") or content.endswith(" "):
        return f"{fence} {content} {fence}"
    return f"{fence}{content}{fence}"
