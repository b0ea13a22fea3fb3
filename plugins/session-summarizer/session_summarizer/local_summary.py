"""The offline summarizer: builds goal, actions, files, commands, findings, errors and next steps from turns."""

import os
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from . import extraction as ex
from .language import detect_language
from .redaction import redact_text
from .session import Session, Turn
from .summary_text import phrase
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

    @property
    def full(self) -> bool:
        """One more than the limit is known, so the reader can stop and say "more" without counting."""
        return len(self.items) > self.limit

    def add(self, text: str) -> None:
        key = " ".join(text.lower().strip(_DECORATION_CHARS).split())
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
        overflow = -1 if self.full and not self.keep_newest else max(0, len(raw) - self.limit)
        return Section(items=cleaned, overflow=overflow)


def _opening(text: str, limit_chars: int = 300) -> str:
    """The opening of an ask, redacted before it is cut to a sentence or two."""
    return ex.first_sentences(redact_text(text), limit_chars)


def _error_lines(text: str) -> Iterable[str]:
    for line in text.split("\n"):
        stripped = line.strip()
        if len(stripped) >= 6 and ex.is_error_line(stripped) and not stripped.startswith("Traceback"):
            yield stripped


_PASTED_ERROR = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|Traceback|(?i:\berror:)|FAILED|panic|fatal:")


def _looks_pasted(line: str) -> bool:
    """A user's own words ("it crashes") are the goal; pasted output ("KeyError: 'id'") is an error hit."""
    return bool(_PASTED_ERROR.search(line))


def summarize(session: Session, language: Optional[str] = None,
              file_checker: Optional[Callable[[Sequence[str], str], List[FileCheck]]] = None) -> LocalSummary:
    """Summarize `session` deterministically; `file_checker` defaults to the git/folder check."""
    # Start git first: its processes run while the turns are read below.
    pending = PendingRepository(os.path.expanduser(session.cwd)) if file_checker is None and session.cwd else None
    turns = session.turns
    user_turns = [turn for turn in turns if turn.role == "user" and turn.text.strip()]
    language = language or detect_language(turn.text for turn in user_turns or turns)

    asks = [turn for turn in user_turns if not ex.is_acknowledgement(turn.text)]
    goal = _opening(asks[0].text) if asks else ""
    # Later requests: the newest few that differ from the goal, read from the end (no need to read all).
    later = _Collector(LIMITS["later_asks"], keep_newest=True)
    goal_key = " ".join(goal.lower().split())
    for turn in reversed(asks[1:]):
        opening = _opening(turn.text)
        if " ".join(opening.lower().split()) != goal_key:
            later.items.setdefault(" ".join(opening.lower().split()), opening)
        if len(later.items) >= LIMITS["later_asks"]:
            break
    later.items = dict(reversed(list(later.items.items())))
    later_section = later.section()
    later_section.overflow = max(0, len(asks) - 1 - len(later_section.items))

    paths: List[str] = []
    for turn in turns:
        paths.extend(ex.find_paths(turn.text))
    commands, findings, errors = _read_oldest_first(turns)
    done = _read_done_newest_first(turns)

    questions = _Collector(LIMITS["questions"])
    next_steps = _Collector(LIMITS["next"])
    _collect_ending(turns, language, questions, next_steps)

    unique_paths = list(dict.fromkeys(paths))
    if file_checker is not None:
        checks = file_checker(unique_paths, session.cwd) if unique_paths else []
    else:
        checks = check_files(unique_paths, session.cwd, pending) if unique_paths else []
        if pending is not None and not unique_paths:
            pending.result()  # reap the processes
    # Verified files first: they are what the session really changed.
    checks.sort(key=lambda check: 0 if check.verified else 1)
    files_overflow = max(0, len(checks) - LIMITS["files"])

    summary = LocalSummary(
        language=language, agent=session.agent, turn_count=session.turn_count,
        omitted_turns=session.omitted_turns, goal=goal, later_asks=later_section, done=done,
        files=checks[: LIMITS["files"]], files_overflow=files_overflow, commands=commands,
        findings=findings, errors=errors, questions=questions.section(),
        next_steps=next_steps.section(),
    )
    summary.markdown = render_markdown(summary)
    return summary


def _read_oldest_first(turns: Sequence[Turn]) -> Tuple[Section, Section, Section]:
    """Commands, findings and errors in the order they came up; reading stops once every list is full."""
    commands = _Collector(LIMITS["commands"])
    findings = _Collector(LIMITS["findings"])
    errors = _Collector(LIMITS["errors"])
    for turn in turns:
        if commands.full and findings.full and errors.full:
            break
        prose, blocks = ex.split_code(turn.text)
        if not commands.full:
            for command in ex.find_commands(prose, blocks):
                commands.add(command)
        if not errors.full:
            for _, code in blocks:
                for line in _error_lines(code):
                    errors.add(line)
        if turn.role == "user":
            if not errors.full:
                for line in prose.split("\n"):  # users paste error output too
                    if ex.is_error_sentence(line) and not ex.is_question(line) and _looks_pasted(line):
                        errors.add(line)
            continue
        # Turn-level gates: most turns hold no finding or error words at all.
        ascii_prose = prose.isascii()
        maybe_finding = not findings.full and (not ascii_prose or ex.has_finding_words(prose.lower()))
        maybe_error = not errors.full and (not ascii_prose or ex.has_error_words(prose))
        if not (maybe_finding or maybe_error):
            continue
        for sentence in ex.sentences(prose):
            # Reported work ("Fixed X because Y") goes to "done", which is read separately.
            if maybe_finding and ex.is_finding(sentence) and not ex.is_action(sentence):
                findings.add(sentence)
            if (maybe_error and ex.is_error_sentence(sentence) and not ex.is_action(sentence)
                    and not ex.is_next_step(sentence)):
                errors.add(sentence)
    return commands.section(), findings.section(), errors.section()


def _read_done_newest_first(turns: Sequence[Turn]) -> Section:
    """Work reported by the assistant, newest first until the list is full: where the work stands now."""
    done = _Collector(LIMITS["done"])
    for turn in reversed(turns):
        if turn.role != "assistant":
            continue
        prose, _ = ex.split_code(turn.text)
        actions = [sentence for sentence in ex.sentences(prose) if ex.is_action(sentence)]
        for sentence in reversed(actions):
            done.add(sentence)
        if done.full:
            break
    return done.section(newest_first=True)


def _collect_ending(turns: Sequence[Turn], language: str, questions: _Collector, next_steps: _Collector) -> None:
    """Questions and next steps come from the end of the session, where the work stands now."""
    last_assistant = [index for index, turn in enumerate(turns) if turn.role == "assistant"][-TAIL_TURNS:]
    for position, index in enumerate(last_assistant):
        prose, _ = ex.split_code(turns[index].text)
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
                if ex.is_question(sentence):
                    # Only the very last reply's questions are still open; earlier ones were answered.
                    if position == len(last_assistant) - 1:
                        questions.add(sentence)
                elif ex.is_next_step(sentence) and not ex.is_action(sentence):
                    next_steps.add(sentence)
    if turns and turns[-1].role == "user" and turns[-1].text.strip():
        questions.add(phrase(language, "reply_pending", text=_opening(turns[-1].text, 200)))


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
        if summary.files_overflow:
            lines.append("- " + phrase(language, "more", count=summary.files_overflow))
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
