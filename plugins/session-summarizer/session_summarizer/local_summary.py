"""The offline summarizer: builds goal, actions, files, commands, findings, errors and next steps from turns."""

import os
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from . import extraction as ex
from .language import detect_language
from .redaction import redact_text
from .session import Session, Turn
from .summary_text import phrase
from .transcript import TurnParts, read_turn
from .worktree import FileCheck, PendingRepository, check_files

LIMITS = {"done": 14, "files": 30, "commands": 15, "findings": 10, "errors": 8, "questions": 6, "next": 8,
          "later_asks": 6}
# How many of the last assistant turns count as "the end of the session" for next steps and questions.
TAIL_TURNS = 3
_DECORATION_CHARS = " \t-*•>#`_\"'.,:;!?。、！？"


@dataclass
class Section:
    items: List[str] = field(default_factory=list)
    overflow: int = 0


@dataclass
class LocalSummary:
    language: str
    agent: str
    turn_count: int
    omitted_turns: int
    goal: str
    later_asks: Section
    done: Section
    files: List[FileCheck]
    files_overflow: int
    commands: Section
    findings: Section
    errors: Section
    questions: Section
    next_steps: Section
    file_groups: List[str] = field(default_factory=list)  # "`folder/` (count): names" for files past the limit
    markdown: str = ""

    @property
    def title(self) -> str:
        return self.goal.split("\n", 1)[0][:90] if self.goal else ""


class _Collector:
    """Keeps unique items in order; when over the limit keeps the first or the newest ones.

    Items are stored raw and cleaned only when kept: a long session yields thousands of candidates.
    """

    def __init__(self, limit: int, keep_newest: bool = False) -> None:
        self.limit = limit
        self.keep_newest = keep_newest
        self.items: Dict[str, str] = {}
        self.seen = 0

    @property
    def full(self) -> bool:
        """One more than the limit is known, so the reader can stop and say "more" without counting.

        Items that share a key (the same error at other lines) count too, up to ten times the limit:
        a session that hits one error a thousand times is not read to its end for that.
        """
        return len(self.items) > self.limit or self.seen > 10 * self.limit

    def add(self, text: str, key: Optional[str] = None) -> None:
        self.seen += 1
        key = key if key is not None else " ".join(text.lower().strip(_DECORATION_CHARS).split())
        if len(key) < 3:
            return
        if key in self.items:
            if not self.keep_newest:
                return
            del self.items[key]  # it happened again, later: move it to the end
        self.items[key] = text

    def section(self, newest_first: bool = False) -> Section:
        """The kept items, oldest first. `newest_first` says the items were added newest first."""
        raw = list(self.items.values())
        kept = raw[-self.limit:] if self.keep_newest else raw[: self.limit]
        if newest_first:
            kept.reverse()
        # Each item is redacted on its own, before it is cut or joined: a secret cut short (a key block
        # without its END line) can then only take itself away, never the items after it.
        cleaned = list(dict.fromkeys(item for item in (ex.clean_item(redact_text(text)) for text in kept)
                                     if len(item) >= 3))
        # A full collector stopped reading: there is more, but it was not counted (-1).
        overflow = -1 if len(self.items) > self.limit and not self.keep_newest else max(0, len(raw) - self.limit)
        return Section(items=cleaned, overflow=overflow)


_SOFT_BREAK = re.compile(r"(?<![.!?:;。！？：；\n])\n[ \t]*(?=[^\s\-*•#>|`\d])")


def _opening(text: str, limit_chars: int = 300) -> str:
    """The opening of an ask, redacted before it is cut to a sentence or two.

    A line break that does not end a sentence is the terminal wrapping what the user typed.
    """
    return ex.first_sentences(_SOFT_BREAK.sub(" ", redact_text(text).strip()), limit_chars)


_PASTED_ERROR = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|Traceback|(?i:\berror:)|FAILED|panic|fatal:")
# Where two error lines differ only in file positions, names in quotes or numbers, they are one error.
_ERROR_NOISE = re.compile(r"\S+:\d+(?::\d+)?:?|'[^']*'|\"[^\"]*\"|\d+")


def _looks_pasted(line: str) -> bool:
    """A user's own words ("it crashes") are the goal; pasted output ("KeyError: 'id'") is an error hit."""
    return bool(_PASTED_ERROR.search(line))


def _error_key(line: str) -> str:
    return " ".join(_ERROR_NOISE.sub(" ", line.lower()).split())


def _error_lines(lines: Iterable[str]) -> Iterable[str]:
    for line in lines:
        stripped = line.strip()
        if len(stripped) >= 6 and ex.is_error_line(stripped) and not stripped.startswith("Traceback"):
            yield stripped


def summarize(session: Session, language: Optional[str] = None,
              file_checker: Optional[Callable[[Sequence[str], str], List[FileCheck]]] = None) -> LocalSummary:
    """Summarize `session` deterministically; `file_checker` defaults to the git/folder check."""
    # Start git first: its processes run while the turns are read below.
    pending = (PendingRepository(os.path.expanduser(session.cwd), since=session.started)
               if file_checker is None and session.cwd else None)
    turns = session.turns
    user_turns = [turn for turn in turns if turn.role == "user" and turn.text.strip()]
    language = language or detect_language(turn.text for turn in user_turns or turns)
    parts = [read_turn(turn.text) if turn.role == "assistant" else None for turn in turns]

    asks = [text for text in (ask_text(turn.text) for turn in user_turns) if text]
    goal = _opening(asks[0]) if asks else ""
    # Later requests: the newest few that differ from the goal, read from the end (no need to read all).
    later = _Collector(LIMITS["later_asks"], keep_newest=True)
    goal_key = " ".join(goal.lower().split())
    for text in reversed(asks[1:]):
        opening = _opening(text)
        if " ".join(opening.lower().split()) != goal_key:
            later.items.setdefault(" ".join(opening.lower().split()), opening)
        if len(later.items) >= LIMITS["later_asks"]:
            break
    later.items = dict(reversed(list(later.items.items())))
    later_section = later.section()
    later_section.overflow = max(0, len(asks) - 1 - len(later_section.items))

    paths: List[str] = []
    edited: Set[str] = set()
    read: Set[str] = set()
    for turn, turn_parts in zip(turns, parts):
        paths.extend(ex.find_paths(turn.text))
        if turn_parts is not None:
            paths.extend(turn_parts.edited + turn_parts.read)
            edited.update(_normal(path) for path in turn_parts.edited)
            read.update(_normal(path) for path in turn_parts.read)
    commands, findings, errors = _read_oldest_first(turns, parts)
    done = _read_done_newest_first(turns, parts)

    questions = _Collector(LIMITS["questions"])
    next_steps = _Collector(LIMITS["next"])
    _collect_ending(turns, parts, language, questions, next_steps)

    unique_paths = _without_absolute_twins(list(dict.fromkeys(path for path in paths if path)))
    if file_checker is not None:
        checks = file_checker(unique_paths, session.cwd) if unique_paths else []
    else:
        checks = check_files(unique_paths, session.cwd, pending) if unique_paths else []
        if pending is not None and not unique_paths:
            pending.result()  # reap the processes
    # Without the session's start, "committed in the last days" is the session's work only if the
    # session says it worked on the file (a tool's edit record or a reported action naming it).
    acted = edited | {_normal(path) for item in done.items for path in ex.find_paths(item)}
    checks = [_with_role(check, edited, read, acted if session.started is None else None) for check in checks]
    # Verified files first: they are what the session really changed; then what its tools edited or read.
    checks.sort(key=lambda check: _FILE_ORDER.get(check.state, 9))
    shown, groups, files_overflow = _fit_files(checks, LIMITS["files"])

    summary = LocalSummary(
        language=language, agent=session.agent, turn_count=session.turn_count,
        omitted_turns=session.omitted_turns, goal=goal, later_asks=later_section, done=done,
        files=shown, files_overflow=files_overflow, commands=commands,
        findings=findings, errors=errors, questions=questions.section(),
        next_steps=next_steps.section(), file_groups=groups,
    )
    summary.markdown = render_markdown(summary)
    return summary


# ---------------------------------------------------------------------------------------------- asks

_SLASH = re.compile(r"^/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$")
# Slash commands whose words are an ask to the agent; every other slash command (/undo, /clear, /run,
# /add, /model, …) talks to the tool, not to the agent.
_ASKING_COMMANDS = frozenset(("ask", "code", "architect", "agent", "chat", "plan", "edit", "help-me"))
_SEPARATOR = re.compile(r"^[\s─━═\-=_*~#>•·.]*$")
_COMPACTED = re.compile(
    r"(?i)^\s*(?:this session is being continued from a previous conversation|this conversation (?:was|has been) "
    r"(?:compacted|summari[sz]ed)|summary of (?:the|our) (?:previous|earlier) conversation|<compaction|"
    r"previous conversation summary)"
)
_PRIMARY_REQUEST = re.compile(
    r"(?im)^\s*(?:\d+[.)]\s*)?\**(?:primary request(?: and intent)?|user'?s? (?:request|goal)|goal|task)\**"
    r"\s*[:：]\s*(.*)$"
)
_NEXT_NUMBERED = re.compile(r"^\s*(?:\d+[.)]\s+\**[A-Z]|#+\s)")


# What agents and tools put into the user's turns themselves: reminders, environment blocks, the
# output of local commands, an interruption note, aider's own "fix the lint errors" request.
_INJECTED_BLOCK = re.compile(
    r"<(system-reminder|environment_context|user_instructions|local-command-stdout|local-command-stderr"
    r"|command-message|user-prompt-submit-hook)>[\s\S]*?</\1>", re.I)
_NOT_AN_ASK = re.compile(
    r"(?i)^(?:caveat: the messages below were generated by the user while running local commands"
    r"|\[request interrupted by user|#?\s*fix any errors below|i (?:have )?added these files to the chat"
    r"|here are summaries of some files|<local-command-stdout>|<tool_use_error>|\[?tool_result\b"
    r"|\d{1,6}→)"  # a tool's result handed back in the user's role (Claude Code numbers file lines with →)
)
_COMMAND_TAGS = re.compile(r"<command-name>\s*/?([^<\s]*)\s*</command-name>(?:[\s\S]*?<command-args>([\s\S]*?)"
                           r"</command-args>)?")


def ask_text(text: str) -> str:
    """What the user asked in a turn, or "" when the turn asks nothing (a command, an acknowledgement…).

    A compacted session starts with the summary of what came before; its own "primary request" is the
    ask, the preamble is not.
    """
    if "<" in text:
        command = _COMMAND_TAGS.search(text)
        if command:  # Claude Code records a slash command as tags: /review with its arguments
            text = "/" + command.group(1) + " " + (command.group(2) or "")
        text = _INJECTED_BLOCK.sub("", text)
    text = text.strip()
    if not text or _SEPARATOR.match(text) or _NOT_AN_ASK.match(text):
        return ""
    if _COMPACTED.match(text) or ("Primary Request" in text and "Summary" in text):
        return _primary_request(text)
    slash = _SLASH.match(text)
    if slash:
        rest = (slash.group(2) or "").strip()
        return rest if slash.group(1).lower() in _ASKING_COMMANDS and not ex.is_acknowledgement(rest) else ""
    return "" if ex.is_acknowledgement(text) else text


def _primary_request(text: str) -> str:
    found = _PRIMARY_REQUEST.search(text)
    if not found:
        return ""
    lines = [found.group(1).strip()] if found.group(1).strip() else []
    for line in text[found.end():].split("\n"):
        if not line.strip():
            if lines:
                break
            continue
        if _NEXT_NUMBERED.match(line):
            break
        lines.append(line.strip())
    return " ".join(lines).strip()


# ---------------------------------------------------------------------------------------------- files

# Edited or read by the session's own tools, when git could not say more (no repository, or unchanged).
EDITED, READ = "edited", "read"
_FILE_ORDER = {"changed": 0, "deleted": 0, "committed": 0, EDITED: 1, READ: 2, "exists": 3, "mentioned": 4}
_GROUP_NAMES = 6


def _without_absolute_twins(paths: List[str]) -> List[str]:
    """`/Users/me/app/src/a.py` next to `src/a.py` is one file said twice (tools print absolute paths)."""
    relative = [path for path in paths if not path.startswith(("/", "~"))]
    return [path for path in paths
            if not path.startswith(("/", "~")) or not any(path.endswith("/" + other) for other in relative)]


def _normal(path: str) -> str:
    path = path.strip().strip("`'\"").replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def _has(paths: Set[str], shown: str) -> bool:
    return shown in paths or any(shown.endswith("/" + path) or path.endswith("/" + shown) for path in paths)


def _with_role(check: FileCheck, edited: Set[str], read: Set[str], acted: Optional[Set[str]] = None) -> FileCheck:
    was_edited = _has(edited, check.path) if edited else False
    if check.state in ("exists", "mentioned") and was_edited:
        return FileCheck(check.path, EDITED)
    was_read = _has(read, check.path) if read else False
    # A recent commit of a file the session only read is someone else's commit, not the session's work.
    if was_read and not was_edited and check.state in ("exists", "mentioned", "committed"):
        return FileCheck(check.path, READ)
    if check.state == "committed" and acted is not None and not _has(acted, check.path):
        return FileCheck(check.path, "exists")
    return check


def _fit_files(checks: List[FileCheck], limit: int) -> Tuple[List[FileCheck], List[str], int]:
    """The first `limit` files by rank; the rest grouped by folder with counts, never silently cut."""
    if len(checks) <= limit:
        return checks, [], 0
    shown, rest = checks[:limit], checks[limit:]
    folders: Dict[str, List[str]] = {}
    for check in rest:
        folder, _, name = check.path.rpartition("/")
        folders.setdefault(folder + "/" if folder else "./", []).append(name)
    groups = []
    for folder, names in sorted(folders.items(), key=lambda item: (-len(item[1]), item[0])):
        listed = ", ".join(names[:_GROUP_NAMES]) + (", …" if len(names) > _GROUP_NAMES else "")
        groups.append((folder, len(names), listed))
    return shown, ["`" + folder + "` (" + str(count) + "): " + listed for folder, count, listed in groups], len(rest)


# ---------------------------------------------------------------------------------------------- reading turns

def _read_oldest_first(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]]) -> Tuple[Section, Section, Section]:
    """Commands, findings and errors in the order they came up; reading stops once every list is full."""
    commands = _Collector(LIMITS["commands"])
    findings = _Collector(LIMITS["findings"])
    errors = _Collector(LIMITS["errors"])
    for turn, turn_parts in zip(turns, parts):
        if commands.full and findings.full and errors.full:
            break
        if turn_parts is None:  # the user's turn: commands given to the tool, pasted errors
            _read_user_turn(turn.text, commands, errors)
            continue
        if not commands.full:
            for command in turn_parts.commands + ex.find_commands(turn_parts.prose, turn_parts.ran_blocks):
                commands.add(command)
        if not errors.full:
            for line in _error_lines(turn_parts.output):
                errors.add(line, _error_key(line))
            for language, code in turn_parts.blocks:
                if language not in ex.SOURCE_LANGUAGES and (not code.isascii() or ex.has_error_words(code)
                                                              or "E" in code):
                    for line in _error_lines(code.split("\n")):
                        errors.add(line, _error_key(line))
        prose = turn_parts.prose
        # Turn-level gates: most turns hold no finding or error words at all.
        ascii_prose = prose.isascii()
        maybe_finding = not findings.full and (not ascii_prose or ex.has_finding_words(prose.lower()))
        maybe_error = not errors.full and (not ascii_prose or ex.has_error_words(prose))
        if not findings.full:
            for item in heading_findings(prose):
                findings.add(item)
        if not (maybe_finding or maybe_error):
            continue
        for sentence in ex.sentences(prose):
            # Reported work ("Fixed X because Y") goes to "done", which is read separately.
            if (maybe_finding and ex.is_finding(sentence) and not ex.is_action(sentence)
                    and not ex.is_question(sentence)):
                findings.add(sentence)
            if (maybe_error and ex.is_error_sentence(sentence) and not ex.is_action(sentence)
                    and not ex.is_next_step(sentence)):
                errors.add(sentence, _error_key(sentence))
    return commands.section(), findings.section(), errors.section()


_RUN_COMMAND = re.compile(r"^(?:/run|/test|/lint|!)\s*(.+)$")


def _read_user_turn(text: str, commands: "_Collector", errors: "_Collector") -> None:
    stripped = text.strip()
    if stripped[:1] in "/!":
        ran = _RUN_COMMAND.match(stripped)
        if ran and "\n" not in ran.group(1) and not commands.full:
            commands.add(ran.group(1).strip())
    if errors.full or (text.isascii() and not ex.has_error_words(text) and "E" not in text):
        return
    prose, blocks = ex.split_code(text)
    for language, code in blocks:
        if language not in ex.SOURCE_LANGUAGES:
            for line in _error_lines(code.split("\n")):
                errors.add(line, _error_key(line))
    for line in prose.split("\n"):  # users paste error output too
        if ex.is_error_sentence(line) and not ex.is_question(line) and _looks_pasted(line):
            errors.add(line, _error_key(line))


# A heading over a list of causes or findings makes each item a finding, whatever its words.
_FINDING_HEADING = re.compile(
    r"(?i)\b(?:causes?|findings?|reasons?|why|diagnos\w*|conclusions?|decisions?|takeaways?|root cause|notes"
    r"|analysis|what i found)\b|原因|結論|発見|判明|결론|원인|发现|结论|分析"
)
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+(.+)$")


def _is_heading(line: str) -> bool:
    stripped = line.strip()
    if stripped.startswith("#") or (stripped.startswith("**") and stripped.endswith(("**", "**:"))):
        return True
    words = stripped.rstrip(":").split()
    return (0 < len(words) <= 5 and len(stripped) <= 48 and stripped[0].isupper() and not _LIST_ITEM.match(stripped)
            and not re.search(r"[.!?,;]$", stripped))


_FINDING_HEADING_WORDS = ("cause", "finding", "reason", "why", "diagnos", "conclusion", "decision", "takeaway",
                          "notes", "analysis", "what i found")


def heading_findings(prose: str) -> List[str]:
    """List items under a heading that names causes, findings or decisions."""
    lowered = prose.lower()
    if prose.isascii() and not any(word in lowered for word in _FINDING_HEADING_WORDS):
        return []
    found: List[str] = []
    under = False
    for line in prose.split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        if under and stripped[0] in "-*•0123456789":
            item = _LIST_ITEM.match(stripped)
            if item:
                found.append(item.group(1))
                continue
        under = len(stripped) <= 60 and bool(_FINDING_HEADING.search(stripped)) and _is_heading(stripped)
    return found


def _read_done_newest_first(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]]) -> Section:
    """Work reported by the assistant, newest first until the list is full: where the work stands now."""
    done = _Collector(LIMITS["done"])
    undone = {commit for turn_parts in parts if turn_parts is not None for commit in turn_parts.undone}
    taken_back = {record for turn_parts in parts if turn_parts is not None
                  for commit, record in turn_parts.commit_of if commit in undone}
    for turn_parts in reversed(parts):
        if turn_parts is None:
            continue
        # Two words ("Cleaned Up") are a heading over the work, not a report of it.
        actions = [sentence for sentence in ex.sentences(turn_parts.prose) if ex.is_action(sentence)
                   and (len(ex.clean_item(sentence).split()) > 2 or not ex.clean_item(sentence).isascii())]
        records = [record for record in turn_parts.records if record not in taken_back]
        for item in reversed(actions + records):
            done.add(item)
        if done.full:
            break
    return done.section(newest_first=True)


# An offer to do more is a question to the user ("If you want, I can outline the trims…").
_OFFER = re.compile(
    r"(?i)^(?:if you(?:'d)? (?:want|like|prefer)|would you like|do you want|want me to|shall i|should i"
    r"|let me know if you(?:'d)? (?:want|like))\b|もしよろしければ|如果你需要|如果需要.{0,6}我可以|원하시면"
)


def _collect_ending(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]], language: str,
                    questions: "_Collector", next_steps: "_Collector") -> None:
    """Questions and next steps come from the end of the session, where the work stands now."""
    last_assistant = [index for index, turn in enumerate(turns) if turn.role == "assistant"][-TAIL_TURNS:]
    for position, index in enumerate(last_assistant):
        turn_parts = parts[index]
        prose = turn_parts.prose if turn_parts is not None else ""
        in_next_list = False
        for line in prose.split("\n"):
            stripped = line.strip()
            if not stripped:
                continue
            if ex.is_next_heading(stripped):
                in_next_list = True
                continue
            is_list_item = bool(re.match(r"^(?:[-*•]|\d{1,2}[.)])\s", stripped))
            if in_next_list and is_list_item:
                next_steps.add(stripped)
                continue
            in_next_list = in_next_list and is_list_item
            for sentence in ex.sentences(stripped):
                if ex.is_question(sentence) and not ex.is_open_question(sentence):
                    continue  # a tool's permission prompt or a quoted row
                if ex.is_question(sentence) or _OFFER.match(ex.clean_item(sentence)):
                    # Only the very last reply's questions are still open; earlier ones were answered.
                    if position == len(last_assistant) - 1:
                        questions.add(sentence)
                elif ex.is_next_step(sentence) and not ex.is_action(sentence):
                    next_steps.add(sentence)
    pending = _pending_ask(turns, parts)
    if pending:
        questions.add(phrase(language, "reply_pending", text=_opening(pending, 200)))


def _pending_ask(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]]) -> str:
    """The user's last ask when nothing answered it: the session ends on it, or only tool output followed."""
    for index in range(len(turns) - 1, -1, -1):
        turn, turn_parts = turns[index], parts[index]
        if turn.role == "user":
            return ask_text(turn.text)
        if turn_parts is not None and re.search(r"\w{3,}", turn_parts.prose):
            return ""  # the agent said something after it
    return ""


def _bullets(section: Section, language: str, code: bool = False) -> List[str]:
    if not section.items:
        return ["- " + phrase(language, "none")]
    lines = ["- `" + item.replace("`", "'") + "`" if code else "- " + item for item in section.items]
    if section.overflow > 0:
        lines.append("- " + phrase(language, "more", count=section.overflow))
    elif section.overflow < 0:
        lines.append("- " + phrase(language, "more_uncounted"))
    return lines


def render_markdown(summary: LocalSummary) -> str:
    """The summary as Markdown with headings in the session's language; secrets redacted."""
    language = summary.language

    def heading(key: str) -> str:
        return "## " + phrase(language, key)

    lines = ["# " + phrase(language, "title"), ""]
    stats = phrase(language, "stats", turns=summary.turn_count, agent=summary.agent or "agent")
    if summary.omitted_turns:
        stats += " · " + phrase(language, "stats.omitted", count=summary.omitted_turns)
    lines += ["_" + stats + "_", "", heading("goal"), "", summary.goal or phrase(language, "none"), ""]
    if summary.later_asks.items:
        lines += ["**" + phrase(language, "later_asks") + "**", "", *_bullets(summary.later_asks, language), ""]
    lines += [heading("done"), "", *_bullets(summary.done, language), ""]
    lines += [heading("files"), ""]
    if summary.files:
        for check in summary.files:
            mark = "✓ " if check.verified else ""
            lines.append("- " + mark + "`" + redact_text(check.path) + "` — " + phrase(language, "file." + check.state))
        if summary.file_groups:
            lines.append("- " + phrase(language, "files.more", count=summary.files_overflow))
            lines += ["  - " + redact_text(group) for group in summary.file_groups]
    else:
        lines.append("- " + phrase(language, "none"))
    lines.append("")
    lines += [heading("commands"), "", *_bullets(summary.commands, language, code=True), ""]
    lines += [heading("findings"), "", *_bullets(summary.findings, language), ""]
    lines += [heading("errors"), "", *_bullets(summary.errors, language), ""]
    lines += [heading("questions"), "", *_bullets(summary.questions, language), ""]
    lines += [heading("next"), "", *_bullets(summary.next_steps, language)]
    # Every item was redacted on its own (see _Collector.section and _opening): nothing here is redacted
    # again as a whole, where one cut secret could swallow the sections after it.
    return "\n".join(lines).rstrip() + "\n"
