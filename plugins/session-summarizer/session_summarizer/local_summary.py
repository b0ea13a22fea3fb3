"""The offline summarizer: builds goal, actions, files, commands, findings, errors and next steps from turns."""

import os
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from . import (
    ask_kinds,
    command_list,
    cues,
    decision_cues,
    decision_intents,
    decision_pairs,
    decision_rank,
    failed_replies,
    final_steps,
    injected,
    loose_ends,
    memo,
    placeholders,
    prose_errors,
    question_choices,
    uncommitted_edits,
    user_answers,
    user_reports,
)
from . import extraction as ex
from . import sections as rules
from .asked_runs import asked_runs
from .chat_commands import chat_commands, commits_shown, handed_to_user
from .chat_edits import exported_writes
from .done_commits import reported_commits
from .done_reports import closing_replies, report_items
from .done_states import is_new_state
from .done_tallies import last_tally
from .error_signatures import message_in as signature_in
from .error_signatures import messages_in as signatures_in
from .error_signatures import shorter_paths
from .error_status import status_of
from .failure_statements import may_report as may_state_failure
from .failure_statements import shortened as shortened_statement
from .failure_statements import states_failure
from .formats import cline_result
from .hidden_calls import hidden_runs
from .language import detect_language
from .redaction import redact_text
from .reported_checks import checks_that_passed
from .session import Session, Turn
from .summary_text import phrase
from .transcript import TurnParts, read_turn
from .worktree import FileCheck, PendingRepository, check_files

LIMITS = {"done": 20, "files": 30, "commands": 20, "findings": 12, "errors": 10, "questions": 6, "next": 10,
          "later_asks": 6}
# The panel and the note stay readable: past this many words the longest sections give up items.
WORD_BUDGET = 1100
# How many of the last assistant turns are read for stubs, tasks handed to the user and deferred work.
OPEN_TAIL_TURNS = 6
# How many of the last assistant turns count as "the end of the session" for next steps and questions.
TAIL_TURNS = 3
_DECORATION_CHARS = " \t-*•>#`_\"'.,:;!?。、！？"


@dataclass
class Section:
    items: List[str] = field(default_factory=list)
    overflow: int = 0
    weak: int = 0  # how many of the last items give way first to the word budget (errors only stated in prose)


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
        key = key if key is not None else _item_key(text)
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


def _item_key(text: str) -> str:
    return " ".join(text.lower().strip(_DECORATION_CHARS).split())


_SOFT_BREAK = re.compile(r"(?<![.!?:;。！？：；\n])\n[ \t]*(?=[^\s\-*•#>|`\d])")
# Lines a merge or a stash left in a pasted ask ("<<<<<<< Updated upstream", "=======", "> > > > > > > Stashed").
_CONFLICT_MARKER = re.compile(r"(?m)^[ \t]*(?:<{7}|={7}|>{7}|(?:> ){6,}>)[^\n]*$")
_LIST_MARK = re.compile(r"(?m)^[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+")
_FENCE = re.compile(r"(?ms)^[ \t]*(`{3,}|~{3,})([^\n`]*)\n(.*?)(?:^[ \t]*\1[ \t]*$|\Z)")


def _ask_units(text: str) -> List[Tuple[str, str]]:
    """The ask's sentences in order, each ("prose", sentence) or ("code", a pasted block's first line).

    A block of code in a source language is the user's code, not words: it is left out.
    """
    units: List[Tuple[str, str]] = []
    position = 0
    for fence in [*_FENCE.finditer(text), None]:
        prose = text[position:fence.start()] if fence else text[position:]
        prose = _LIST_MARK.sub("", _SOFT_BREAK.sub(" ", prose))  # "1. Dates are…": the number says nothing
        units += [("prose", sentence) for sentence in ex.sentences(prose)]
        if fence is None:
            break
        position = fence.end()
        language = fence.group(2).strip().lower()
        lines = [line.strip() for line in fence.group(3).split("\n") if line.strip()]
        if lines and language not in ex.SOURCE_LANGUAGES:
            units += [("code", line) for line in lines]
    return units


def _opening(text: str, limit_chars: int = 300, sentences: int = 2, enough: int = 80) -> str:
    """The opening of an ask, redacted before it is cut to a sentence or two.

    A line break that does not end a sentence is the terminal wrapping what the user typed. A sentence
    that ends on a colon introduces what follows ("we get this error:"), so that comes with it; an ask
    typed wholly inside a fence is read from the fence; merge-conflict lines an exporter left are dropped.
    """
    text = redact_text(text).strip()
    if "<<<<<<<" in text or "=======" in text or "> > > >" in text:
        text = _CONFLICT_MARKER.sub("", text)
    units = _ask_units(text)
    own_words = any(kind == "prose" for kind, _ in units)
    picked: List[str] = []
    size = 0
    read = 0  # units read so far, picked or passed over
    for kind, sentence in units:
        read += 1
        introduced = bool(picked) and picked[-1].endswith((":", "："))
        if kind == "code" and own_words and not introduced:
            continue
        picked.append(sentence)
        size += len(sentence)
        if (size >= enough or len(picked) >= sentences) and not sentence.endswith((":", "：")):
            break
        if len(picked) >= sentences + 2:
            break
    if picked and not any(_TASK_WORDS.search(sentence) or ex.is_question(sentence) for sentence in picked):
        # Context came first ("The smoke tests now hit real APIs."): the request follows within a few lines.
        rest = units[read:read + 6]
        for index, (kind, sentence) in enumerate(rest):
            if kind == "prose" and _TASK_WORDS.search(sentence):
                picked.append(sentence)
                if sentence.endswith((":", "：")) and index + 1 < len(rest):
                    picked.append(rest[index + 1][1])  # "Fix these 3 issues:" and the first of them
                break
    joined = " ".join(" ".join(picked).split())
    if len(joined) > limit_chars:
        joined = joined[: limit_chars - 1].rstrip() + "…"
    return ex.clean_item(joined) if len(joined) <= ex.MAX_ITEM_CHARS else joined


_PASTED_ERROR = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|Traceback|(?i:\berror:)|FAILED|panic|fatal:")


_PASTED_GATE = re.compile(r"rror|xception|Traceback|FAILED|panic|fatal:")


def _maybe_pasted(text: str) -> bool:
    """A cheap gate before _looks_pasted: the words its pattern needs."""
    return bool(_PASTED_GATE.search(text))


def _looks_pasted(line: str) -> bool:
    """A user's own words ("it crashes") are the goal; pasted output ("KeyError: 'id'") is an error hit."""
    return bool(_PASTED_ERROR.search(line))


def _error_key(line: str) -> str:
    return rules.error_key(line)


# A numbered line of a file a tool showed ("163 `Submit failed with status …`"): code, not an error.
_CODE_LINE = re.compile(r"^\d{1,6}\s+(?:[`'\"({\[}]|\w+\s*[=(:]|(?:const|let|var|return|throw|raise|if|def)\b)")


def _error_lines(lines: Iterable[str]) -> Iterable[str]:
    for line in lines:
        stripped = line.strip().lstrip("└⎿│┃ ")  # a tool's output mark is not part of the error
        if (len(stripped) >= 6 and ex.is_error_line(stripped) and not stripped.startswith("Traceback")
                and not (stripped[0].isdigit() and _CODE_LINE.match(stripped))):
            yield stripped


def summarize(session: Session, language: Optional[str] = None,
              file_checker: Optional[Callable[[Sequence[str], str], List[FileCheck]]] = None) -> LocalSummary:
    """Summarize `session` deterministically; `file_checker` defaults to the git/folder check."""
    # Start git first: its processes run while the turns are read below.
    pending = (PendingRepository(os.path.expanduser(session.cwd), since=session.started)
               if file_checker is None and session.cwd else None)
    turns = session.turns
    memo.forget_all()
    user_turns = [turn for turn in turns if turn.role == "user" and turn.text.strip()]
    language = language or detect_language(turn.text for turn in user_turns or turns)
    parts = [read_turn(turn.text) if turn.role == "assistant" else None for turn in turns]
    exported_writes([turn.text for turn in turns], parts)

    asks = [text for text in (ask_text(turn.text) for turn in user_turns) if text]
    first = _first_real_ask(asks)
    # The first ask is the goal: a little more of it than of the later asks, which only say what changed.
    goal = _with_request(_opening(asks[first], sentences=3, enough=160), asks[first], _GOAL_READ) if asks else ""
    later_section = _later_asks(asks, first, goal)

    paths: List[str] = []
    proposed: Set[str] = set()  # files a reply wrote a whole code block for (Cursor's ```lang:path)
    edited: Set[str] = set()
    read: Set[str] = set()
    root = session.cwd or rules.project_root(parts)
    folders = rules.working_folders(parts, root)
    number = 0
    relocated: Dict[str, str] = {}
    for turn, turn_parts in zip(turns, parts):
        paths.extend(ex.find_paths(turn.text))
        if turn.role == "assistant" and "```" in turn.text and _FENCE_PATH_HINT.search(turn.text):
            for path in _FENCE_PATH.findall(turn.text):
                paths.append(path)
                proposed.add(_normal(path))
        if turn_parts is None:
            continue
        for path in turn_parts.written:  # a chat export's edit without a tool call: its block or report names it
            paths.append(path)
            edited.add(_normal(path))
        # Paths a tool acted on are relative to where it ran (after a `cd`), not to the session's folder.
        for call in turn_parts.calls:
            folder = folders.get(number, "")
            number += 1
            if call.kind in (rules.EDIT, rules.READ) and call.text:
                path = rules.relative_to(call.text, folder, root)
                if path != call.text:
                    relocated[_normal(call.text)] = path
                paths.append(path)
                (edited if call.kind == rules.EDIT else read).add(_normal(path))
            elif call.kind == rules.RUN and folder:
                # A linter or a compiler run in a subfolder prints paths relative to that folder.
                # One pass over the joined lines (a path never spans two), each path placed once.
                for found in dict.fromkeys(ex.find_paths("\n".join(call.output[:200]))):
                    normal = _normal(found)
                    if normal not in relocated:
                        relocated[normal] = rules.relative_to(found, folder, root)
    if not session.cwd and root:
        # A relative path printed by a tool or pasted by the user is the absolute one the tools used.
        moved_to = [path for path in relocated.values() if "/" in path]
        for path in set(paths):
            normal = _normal(path)
            if normal not in relocated and not path.startswith(("/", "~")) and "/" in normal:
                twin = next((other for other in moved_to if other.endswith("/" + normal)), None)
                if twin:
                    relocated[normal] = twin
    if relocated:
        paths = [relocated.get(_normal(path), path) for path in paths]
    explicit = any(turn_parts is not None and turn_parts.calls for turn_parts in parts)
    commands, left_to_run = _commands(turns, parts, explicit, root)
    call_errors = rules.call_errors(parts)
    findings, prose_errors, stated_errors = _read_oldest_first(
        turns, parts, enough_errors=len(call_errors) >= LIMITS["errors"], language=language)
    errors = _errors(call_errors, prose_errors + stated_errors, language, stated=len(stated_errors),
                     turns=[(turn.role, turn.text) for turn in turns])
    done = _read_done_newest_first(turns, parts, language)

    questions = _Collector(LIMITS["questions"])
    next_steps = _Collector(LIMITS["next"])
    for hit in call_errors:
        if hit.status == rules.OPEN:
            next_steps.add(phrase(language, "open_error", text=hit.line), "open error " + hit.key)
    for command in left_to_run + [step for step in loose_ends.publish_handed_over(parts) if step not in left_to_run]:
        next_steps.add(phrase(language, "left_to_run", text="`" + ex.clean_item(command) + "`"), "left " + command)
    for item in final_steps.left_in_final_reply(turns, parts, ask_text, commands.items):
        if not any(command in item for command in left_to_run):
            next_steps.add(phrase(language, "left_to_run", text=item))
    limit = loose_ends.stopped_at_limit(turns)
    if limit:
        next_steps.add(phrase(language, "open.limit", text=limit))
    for item in loose_ends.git_items(turns, parts, lambda key, **values: phrase(language, key, **values)):
        next_steps.add(item)
    after_commit = uncommitted_edits.left_uncommitted(parts)
    if after_commit:
        named = ", ".join("`" + "/".join(path.replace("\\", "/").split("/")[-2:]).replace("`", "'") + "`"
                          for path in after_commit[:_AFTER_COMMIT_SHOWN])
        next_steps.add(phrase(language, "open.edited_after_commit",
                              text=named + (" …" if len(after_commit) > _AFTER_COMMIT_SHOWN else "")))
    _collect_ending(turns, parts, language, questions, next_steps)
    unanswered, cut_off = failed_replies.open_items(turns, ask_text,
                                                    lambda key, **values: phrase(language, key, **values))
    for item in unanswered:
        questions.add(item)
    for item in cut_off:
        next_steps.add(item)
    closing = [turn_parts for turn_parts in parts if turn_parts is not None][-1:]
    if closing and closing[0].prose:
        question_choices.fold(closing[0].prose, questions.items, next_steps.items)
    for item in placeholders.open_items(turns, parts, lambda key, **values: phrase(language, key, **values)):
        next_steps.add(item)
    for sentence in loose_ends.put_off_by_user(asks) + loose_ends.listed_for_later(asks):
        next_steps.add(phrase(language, "open.put_off", text=sentence))

    # A file moved by a command that ran is at its new place now: its old path is not listed (a copy's is).
    ran = [call.text for turn_parts in parts if turn_parts is not None for call in turn_parts.calls
           if call.kind == rules.RUN]
    moved_from = {_normal(source) for verb, source in rules.copies_and_moves(ran).values() if verb == "moved"}
    moved_to = [target for target, (verb, _) in rules.copies_and_moves(ran).items() if verb == "moved"]
    if moved_from:
        paths = [path for path in paths if _normal(path) not in moved_from
                 and not any(_normal(path).endswith("/" + source) for source in moved_from)] + moved_to
    unique_paths = _without_tail_twins(_without_absolute_twins(list(dict.fromkeys(path for path in paths if path))),
                                       edited | read)
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
    checks = [FileCheck(check.path, PROPOSED) if check.state in ("exists", "mentioned") and _has(proposed, check.path)
              else check for check in checks]
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
    _fit_words(summary)
    summary.markdown = render_markdown(summary)
    return summary


# Files named at most in the item for work left uncommitted after the last commit.
_AFTER_COMMIT_SHOWN = 5


def _later_asks(asks: Sequence[str], first: int, goal: str) -> Section:
    """The later asks that changed the goal: those that bring the most the session had not asked for yet.

    A side question ("what does this flag do?") asks something; it does not change the goal. Short
    feedback ("use a new port"), an ask repeated and pasted output add little that is new and give way to
    asks that name new work; the kept ones are shown in the order they came. Asks are ranked on their
    first characters, unredacted and never shown; only the kept ones are redacted and cut to an opening.
    """
    limit = LIMITS["later_asks"]
    seen = _content_words(goal)
    heads = {" ".join(asks[first][:_RANKED_CHARS].lower().split())} if asks else set()
    scored: List[Tuple[int, int, str]] = []
    candidates = 0
    for index, ask in enumerate(asks):
        if index == first or _side_question(ask):
            continue
        candidates += 1
        head = ask[:_RANKED_CHARS]
        key = " ".join(head.lower().split())
        if key in heads:
            continue  # the same ask again
        heads.add(key)
        words = _content_words(head)
        new = len(words - seen)
        seen |= words
        if _maybe_pasted(head) and _looks_pasted(head):
            new //= 4  # a pasted error reports a failure; the ask around it rarely changes the goal
        scored.append((-new, index, ask))
    # The newest ask that brought anything new says where the session went; the rest by what they add.
    newest = next((item for item in reversed(scored) if item[0] < 0), None)
    ranked = [item for item in sorted(scored) if item is not newest][: limit - 1 if newest else limit]
    kept = sorted(ranked + ([newest] if newest else []), key=lambda item: item[1])
    section = _Collector(limit)
    goal_key = " ".join(goal.lower().split())
    for _, _, ask in kept:
        opening = _with_request(_opening(ask, limit_chars=_LATER_CHARS), ask)
        key = " ".join(opening.lower().split())
        if key != goal_key:
            section.items.setdefault(key, opening)
    result = section.section()
    result.overflow = max(0, candidates - len(result.items))
    return result


def _with_request(opening: str, ask: str, read: int = 0) -> str:
    """An opening that only sets the scene ("I don't like that the name gives the answer away.") with the
    sentence after it that asks for the change ("Can you mask it instead?"), looked for in `read` characters."""
    if _TASK_WORDS.search(opening) or ask_kinds.requests_work(opening):
        return opening
    for sentence in ex.sentences(ex.split_code(ask)[0][:read or _RANKED_CHARS * 2]):
        if sentence[:30] not in opening and (ask_kinds.requests_work(sentence) or (read and _TASK_WORDS.search(
                sentence) and not ex.is_question(sentence))):
            return opening + " " + sentence[:_LATER_CHARS // 2]
    return opening


# The first ask can paste a spec before it asks ("<the metrics> --- please write the curl requests"): this much
# of it is read for the sentence that asks.
_GOAL_READ = 2000
# A later ask is shown this long at most: it says what changed, the goal above says the rest.
_LATER_CHARS = 200
# Asks are ranked on this many of their first characters: what they ask for is said at the start.
_RANKED_CHARS = 240
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_./#@-]{3,}")
_WIDE_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[\uac00-\ud7af]{2,}")
_COMMON = frozenset((
    "this", "that", "with", "from", "have", "what", "when", "make", "please", "would", "could", "should", "there",
    "then", "just", "like", "want", "need", "also", "into", "your", "some", "more", "them", "they", "it's", "does",
    "doesn't", "don't", "let's", "lets", "okay", "thanks", "great", "good", "sure", "again", "still", "here", "about",
    "were", "will", "which", "where", "their", "these", "those", "only", "really", "think", "know", "yeah", "look",
    "looks", "sounds", "right", "same", "other", "than", "very", "much", "can't", "isn't", "now,", "well",
))


def _content_words(text: str) -> Set[str]:
    """Words that carry what an ask is about: Latin words of four letters or more that are not filler, Korean
    words, and pairs of Chinese or Japanese characters (those languages do not space their words)."""
    words = {word.lower().rstrip(".,:;!?") for word in _LATIN_WORD.findall(text)} - _COMMON
    if not text.isascii():
        for run in _WIDE_RUN.findall(text):
            if "\uac00" <= run[0] <= "\ud7af":
                words.add(run)
            else:
                words.update(run[position:position + 2] for position in range(max(1, len(run) - 1)))
    return words


_BUG_REPORT = re.compile(r"(?i)\b(?:bug|crash\w*|broken|fails?|failing|doesn'?t work|not working|error|exception"
                         r"|traceback)\b|エラー|バグ|動かない|错误|报错|崩溃|不工作|오류|에러|버그|작동하지")


def _first_real_ask(asks: Sequence[str]) -> int:
    """The first ask, unless it is a short side question and the next ask reports the bug the session is
    about ("what does this script do?" then "it crashes with …"): then that report. Commands the user typed
    to look around first (`cd app`, `ls`, a shell-mode command and its output) are not asks."""
    first = 0
    while first < len(asks) - 1 and _looks_around(asks[first]):
        first += 1
    rest = asks[first:]
    if len(rest) > 1 and _side_question(rest[0]) and len(rest[0].split()) <= 10 and _BUG_REPORT.search(rest[1]):
        return first + 1
    return first


# A shell command typed to look around (`cd app`, `ls -la`, `pwd`), or a shell mode's own report of one
# ("I ran the following shell command: ls …", Gemini CLI): the user's first ask comes after it.
_LOOKING_AROUND = re.compile(r"^(?:cd|ls|dir|pwd|tree|cat|clear|cls|whoami)(?:\s+[^\s;&|]+){0,3}\s*$"
                             r"|^i ran the following shell command:", re.IGNORECASE)


def _looks_around(ask: str) -> bool:
    return bool(_LOOKING_AROUND.match(ask.strip()))


_TASK_WORDS = re.compile(
    r"(?i)\b(?:fix|add|implement|create|build|make|write|change|update|remove|refactor|migrate|set up|deploy"
    r"|please|need|want|should)\b|してください|して下さい|してほしい|实现|修复|添加|请|帮我|해 ?주세요|해줘")


def _side_question(ask: str) -> bool:
    """A short question that asks for an answer, not for work ("what does --force do?")."""
    text = ask.strip()
    if not ex.is_question(text) or "```" in text or "\n" in text:
        return False
    words = len(text.split()) if text.isascii() else len(text) // 3
    return (words <= 25 and not _TASK_WORDS.search(text) and not _PASTED_OUTPUT.search(text)
            and not ask_kinds.requests_work(text))


_PASTED_OUTPUT = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception): |Traceback|(?i:\berror:)|FAILED|fatal:")


def _commands(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]],
              explicit: bool, root: str = "") -> Tuple[Section, List[str]]:
    """Commands that ran, in order, and the steps left for the user to run. With tool calls: the calls
    that run or act (MCP, pushes), `/run` lines and `$`-prompted lines; without any (a chat export),
    the blocks the evidence says ran (chat_commands). Never commands only offered to the user."""
    found: List[str] = []
    left: List[str] = []
    if not explicit:
        found, left = chat_commands(turns, parts)
        found.extend(command for command in asked_runs(turns) if command not in found)
        left = [command for command in left if command not in found]
    else:
        left = handed_to_user(turns, parts)
    prose_found = 0
    for turn, turn_parts in zip(turns, parts):
        if turn_parts is None:
            ran = _RUN_COMMAND.match(turn.text.strip())
            if ran and "\n" not in ran.group(1):
                found.append(ran.group(1).strip())
            continue
        if not explicit:
            continue
        for call in turn_parts.calls:
            if call.kind == rules.RUN:
                found.append(call.text)
            elif call.kind == rules.EXTERNAL:
                found.append(call.text if "(" in call.text else call.text + " (tool)")
        if prose_found < _PROSE_COMMANDS:  # commands named in prose: the first ones are enough
            blocks = [(language, "\n".join(line for line in code.split("\n") if _PROMPTED.match(line)))
                      for language, code in turn_parts.blocks if "$" in code]
            # A list the reply says passed ("Validações OK:") reports runs the export folded away.
            from_prose = ex.find_commands(turn_parts.prose, blocks) + checks_that_passed(turn_parts.prose)
            prose_found += len(from_prose)
            found.extend(from_prose)
    shown_commits = commits_shown(turns, parts)
    if shown_commits and not any(command.lstrip().startswith(("git commit", "git push")) for command in found):
        found.extend(shown_commits)  # made by a hidden tool or by the agent itself (aider): their hashes say so
    if not explicit:  # an export that dropped its calls left a gap after each lead-in that announced one
        replies = [turn.text for turn in turns if turn.role == "assistant"]
        found.extend(command for command in hidden_runs(replies, found) if command not in found)
    # A long session runs the same few commands again and again: each distinct one is read once.
    cleaned = [rules.clean_command(command) for command in dict.fromkeys(found) if not rules.is_id_only(command)]
    if len(root) > 1:  # paths inside the project read as the reviewer would write them: relative
        prefix = root.rstrip("/") + "/"
        cleaned = [command.replace(prefix, "") for command in cleaned]
    items, overflow = command_list.pick(cleaned, LIMITS["commands"])
    return Section(items=[ex.clean_item(redact_text(item)) for item in items], overflow=overflow), left


_PROMPTED = re.compile(r"^\s*\$\s+\S")
_PROSE_COMMANDS = 10 * LIMITS["commands"]


def _errors(call_errors: Sequence["rules.ErrorHit"], prose_errors: Sequence[str], language: str,
            stated: int = 0, turns: Sequence[Tuple[str, str]] = ()) -> Section:
    """Errors from tool output first (each with its step and whether it was fixed or is still open), then
    errors pasted or reported in prose; the same error (other positions, names or numbers) counts once."""
    # Keyed first and written out only for the items kept: a long session hits one error hundreds of times.
    hits: Dict[str, rules.ErrorHit] = {}
    for hit in call_errors:
        key = _error_key(hit.line)
        if key not in hits or hit.status:  # the newest try with a status says where it stands
            hits[key] = hit
    prose: Dict[str, str] = {}
    # A reply that retells an error the output printed ("This is why it failed with Cannot find module …") adds
    # nothing to the printed line: its message, past the type, is read inside the prose.
    printed = [core for core in (_ERROR_HEAD.sub("", hit.line)[:30].lower() for hit in hits.values())
               if len(core) >= 12]
    told: List[Set[str]] = []
    same_file: List[Tuple[FrozenSet[str], FrozenSet[str]]] = []
    for line in prose_errors:
        key = _error_key(line)
        if key in hits or key in prose or any(core in line.lower() for core in printed):
            continue
        # The same failure told again in other words ("the setup failed due to…", "the setup is still failing
        # due to…") is one error: the first telling stays.
        words = _content_words(line) | {"§" + status for status in rules.http_statuses(line)}
        if len(words) >= 4 and any(len(words & earlier) >= 0.6 * min(len(words), len(earlier))
                                   and _statuses(words) == _statuses(earlier) for earlier in told):
            continue  # (a 404 and then a 422 from the same request are two failures)
        # "It failed: it couldn't find `data/train.csv`" and "Error: data/train.csv not found." name one file and
        # no other kind of error: one failure.
        named = (frozenset(_PATH_TOKEN.findall(line)), frozenset(_ERROR_TYPE.findall(line)))
        if named[0] and any(named[0] & paths and (not kinds or not named[1] or kinds == named[1])
                            for paths, kinds in same_file):
            continue
        same_file.append(named)
        told.append(words)
        prose[key] = line
    still = [key for key, hit in hits.items() if hit.status == rules.OPEN]
    # A search or a listing that failed (a mistyped pattern, a folder that is not there) mattered least.
    looking = [key for key, hit in hits.items() if key not in still and rules.LOOKING_STEP.match(hit.key)]
    rest = [key for key in list(hits) + list(prose) if key not in still and key not in looking] + looking
    kept = still + rest[: max(0, LIMITS["errors"] - len(still))]
    order = {key: index for index, key in enumerate(list(hits) + list(prose))}
    kept.sort(key=lambda key: (key in looking, order[key]))  # searches last: the first to give way to the budget
    values = [_error_item(hits[key], language) if key in hits
              else _with_status(_cut(shorter_paths(redact_text(prose[key]).lstrip("└⎿│┃ "))),
                                status_of(prose[key], turns) if turns else "", language) for key in kept]
    cleaned = [ex.clean_item(value) for value in values[: LIMITS["errors"]]]
    # The last `stated` of prose_errors are failures only stated in replies: kept last, and first to give way.
    weak_keys = {_error_key(line) for line in prose_errors[len(prose_errors) - stated:]} if stated else set()
    weak = sum(1 for key in kept[: len(cleaned)] if key in weak_keys and key in prose)
    if weak:
        strong = [(key, item) for key, item in zip(kept, cleaned) if key not in weak_keys or key not in prose]
        cleaned = [item for _, item in strong] + [item for key, item in zip(kept, cleaned) if (key, item) not in strong]
    return Section(items=cleaned, overflow=max(0, len(hits) + len(prose) - len(cleaned)), weak=weak)








def _statuses(words: Set[str]) -> Set[str]:
    return {word for word in words if word.startswith("§")}


# An error line is cut here: its head says what went wrong; the rest is the scorer's and the reader's cost.
_ERROR_CHARS = 120


_PATH_TOKEN = re.compile(r"[\w.-]*[/\\][\w./\\-]*\.\w{1,5}\b|\b[\w-]+\.(?:py|js|ts|tsx|jsx|go|rs|rb|java|json|csv|ya?ml"
                         r"|toml|md|sh|php|c|cpp|h|cs|kt|swift)\b")
_ERROR_TYPE = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b")
_ERROR_HEAD = re.compile(r"^(?:[\w.]*(?:Error|Exception)|error|fatal|FAIL(?:ED)?)\W+", re.I)
# A report in prose says what failed and why in its first clause or two; the rest costs the summary's words.
_PROSE_ERROR_CHARS = 160


# A Markdown link's target ("[train.py](cci:7://file:///d:/app/train.py:0:0-0:0)") repeats its text at length.
_LINK = re.compile(r"\[([^\]\n]{1,80})\]\([^)\s]{1,300}\)")


def _cut(text: str) -> str:
    text = _LINK.sub(r"\1", text) if "](" in text else text
    return text if len(text) <= _PROSE_ERROR_CHARS else text[:_PROSE_ERROR_CHARS - 1].rstrip() + "…"


def _with_status(text: str, status: str, language: str) -> str:
    return text + "; " + phrase(language, "error." + status) if status else text


def _error_item(hit: "rules.ErrorHit", language: str) -> str:
    line = shorter_paths(redact_text(hit.line))
    if len(line) > _ERROR_CHARS:
        line = line[:_ERROR_CHARS - 1] + "…"
    source = rules.clean_command(redact_text(hit.source))[:50]
    text = line + " — `" + source.replace("`", "'") + "`" if source and source.lower() not in line.lower() else line
    if hit.status:
        text += "; " + phrase(language, "error." + hit.status)
    return text


# ---------------------------------------------------------------------------------------------- asks

_SLASH = re.compile(r"^/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$")
# Slash commands whose words are an ask to the agent; every other slash command (/undo, /clear, /run,
# /add, /model, …) talks to the tool, not to the agent.
_AFTER_COMMAND_RESULT = re.compile(r"^/[A-Za-z][\w-]*[^\n]*(?:\n[ \t\xa0]*⎿[^\n]*)+\n[ \t\xa0]*\n")
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
    r"|.{0,200}\(Y\)es/\(N\)o"  # aider's own prompt, answered
    r"|\[\w+ for '[^\n]*'\] Result:"  # Cline hands a tool's result back in the user's role
    r"|\d{1,6}→)"  # a tool's result handed back in the user's role (Claude Code numbers file lines with →)
)
_COMMAND_TAGS = re.compile(r"<command-name>\s*/?([^<\s]*)\s*</command-name>(?:[\s\S]*?<command-args>([\s\S]*?)"
                           r"</command-args>)?")


# Codex's prompt area: the placeholder and the status line after it ("51% context left · ? for shortcuts").
_CODEX_STATUS = re.compile(r"(?m)^.*(?:\d+% context left|\? for shortcuts|⏎ send).*$")


# ask_text is read several times per user turn (goal, later asks, choices, done, the pending ask): the answer
# for a text is kept while one summary is built. It is a pure function, so a shared cache only saves work;
# summarize empties it, and it never holds more than a session's asks.
_ASKS: "memo.SummaryMemo[str, str]" = memo.SummaryMemo(4096)


def ask_text(text: str) -> str:
    """What the user asked in a turn, or "" when the turn asks nothing (a command, an acknowledgement…).

    A compacted session starts with the summary of what came before; its own "primary request" is the
    ask, the preamble is not.
    """
    return _ASKS.of(text, _read_ask)


def _read_ask(text: str) -> str:
    if "<" in text:
        command = _COMMAND_TAGS.search(text)
        if command:  # Claude Code records a slash command as tags: /review with its arguments
            text = "/" + command.group(1) + " " + (command.group(2) or "")
        text = _INJECTED_BLOCK.sub("", text)
    text = injected.without_injected(text)
    if "context left" in text or "for shortcuts" in text:
        text = _CODEX_STATUS.sub("", text)
    text = ask_kinds.without_shell_reports(text.strip())
    if not text or _SEPARATOR.match(text) or _NOT_AN_ASK.match(text) or ask_kinds.is_retry(text):
        return ""
    if _COMPACTED.match(text) or ("Primary Request" in text and "Summary" in text):
        return _primary_request(text)
    slash = _SLASH.match(text)
    if slash:
        rest = (slash.group(2) or "").strip()
        if slash.group(1).lower() in _ASKING_COMMANDS:
            return "" if ex.is_acknowledgement(rest) else rest
        # A terminal copy puts a tool command, its "⎿" result and the next prompt in one turn: the prompt asks.
        after = _AFTER_COMMAND_RESULT.match(text)
        return _read_ask(text[after.end():]) if after else ""
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
PROPOSED = "proposed"
_FILE_ORDER = {"changed": 0, "deleted": 0, "committed": 0, EDITED: 1, PROPOSED: 2, READ: 2, "exists": 3, "mentioned": 4}
_GROUP_NAMES = 6


def _without_absolute_twins(paths: List[str]) -> List[str]:
    """`/Users/me/app/src/a.py` next to `src/a.py` is one file said twice (tools print absolute paths)."""
    relative = [path for path in paths if not path.startswith(("/", "~"))]
    return [path for path in paths
            if not path.startswith(("/", "~")) or not any(path.endswith("/" + other) for other in relative)]


# Cursor names the file a code block is for in the fence itself: ```typescript:src/components/ui/sidebar.tsx
_FENCE_PATH_HINT = re.compile(r"```[\w+#-]+:")  # a literal start: the engine skips to each fence
_FENCE_PATH = re.compile(r"(?m)^\s*```[\w+#-]+:([^\s`:]+\.[A-Za-z0-9]{1,8})\s*$")


def _without_tail_twins(paths: List[str], acted: Set[str]) -> List[str]:
    """`src/core/redis.ts` in prose next to `cody-fastify/src/core/redis.ts` that a tool edited is that file,
    named from the folder the agent was thinking in: shown once, where the tool said."""
    longer = [path for path in acted if "/" in path and not path.startswith(("/", "~"))]
    if not longer:
        return paths
    return [path for path in paths if path.startswith(("/", "~")) or _normal(path) in acted
            or not any(other.endswith("/" + _normal(path)) for other in longer)]


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

def _read_oldest_first(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]],
                       enough_errors: bool = False, language: str = "en") -> Tuple[Section, List[str], List[str]]:
    """Decisions and findings, and errors that prose or pasted output report, in the order they came up.

    Decisions (a choice with its reason or rejected alternative) come first; findings fill what is left.
    A guess ("it might be the cache") is neither a finding nor an error.
    """
    # Decisions are gathered past the section's size and ranked by how surely each records a choice: a long
    # session's first dozen "instead of"s are rarely its dozen choices.
    decisions = _Collector(LIMITS["findings"] * _DECISION_POOL)
    strength: Dict[str, int] = {}

    # Decisions said again since the last new one: an agent that repeats one choice a hundred times has
    # nothing more to tell, but a repeat early on must not end the reading while new choices still come.
    repeats = [0]

    def decide(text: str, score: int) -> None:
        key = _item_key(text)
        repeats[0] = repeats[0] + 1 if key in decisions.items else 0
        decisions.add(text)
        strength[key] = max(strength.get(key, 0), score)

    def decisions_full() -> bool:
        # Like a full collector of the section's size: a decision said a hundred times is not read to the end.
        # A dozen strong choices early do not end it either: the ranking spreads a long session's picks.
        return len(decisions.items) > decisions.limit or repeats[0] > 10 * LIMITS["findings"]

    findings = _Collector(LIMITS["findings"])
    limits = _Collector(LIMITS["findings"])  # limits the work met, with their reason: after the other findings
    errors = _Collector(LIMITS["errors"])
    if enough_errors:  # tool output already gave more errors than the agent's prose would add
        errors.seen = 10 * LIMITS["errors"] + 1
    pasted = _Collector(LIMITS["errors"])  # what the user pasted is read anyway: the tools never printed it
    # Failures the replies only state (a chat export keeps no tool output): after every printed or pasted error.
    stated = _Collector(_STATED_ERRORS)
    judged: Dict[str, Tuple[bool, bool, bool]] = {}  # verdicts of sentences already read (agents repeat)
    offer = replied = ""  # the assistant's last reply before the user's turn (its prose; its whole text)
    for turn, turn_parts in zip(turns, parts):
        if decisions_full() and findings.full and errors.full:
            break
        if turn_parts is None:  # the user's turn: pasted errors, and choices the user made
            _read_user_turn(turn.text, pasted)
            chosen = ""
            if (offer or replied) and len(turn.text) <= 300 and not decisions_full():
                # A bare label ("(b)") asks nothing new, so it is no ask: the turn's own text is the answer.
                chosen = user_answers.picked(turn.text, ask_text(turn.text), offer, replied)
            if chosen:
                decide(phrase(language, "decision.user_chose", choice=chosen), 3)
            offer = replied = ""
            own = _own_words(turn.text)
            if own and not decisions_full() and (cues.may_hold_decision(own) or cues.rejects_and_replaces(own)
                                                 or cues.states_rule(own) or cues.has_contrast(own)
                                                 or decision_cues.states_preference(own)):
                for sentence in ex.sentences(own):
                    # A line of pasted output (a log line, an error message) is what a tool said, not a choice.
                    if rules.is_user_choice(sentence) and not (_OUTPUT_START.match(sentence)
                                                               or _OUTPUT_LINE.search(sentence)):
                        decide(sentence, rules.user_choice_strength(sentence))
            continue
        if not errors.full:
            # (the block's language is its own name: the summary's `language` must survive this loop)
            for block_language, code in turn_parts.blocks:
                if block_language not in ex.SOURCE_LANGUAGES and (not code.isascii() or ex.has_error_words(code)
                                                              or "E" in code):
                    for line in _error_lines(code.split("\n")):
                        errors.add(line, _error_key(line))
            if not turn_parts.calls:  # output not tied to a call (aider's, a plain transcript's)
                for line in _error_lines(turn_parts.output):
                    errors.add(line, _error_key(line))
        prose = turn_parts.prose
        replied = turn.text  # a reply written whole inside a fence still lists the options
        if prose.strip():
            offer = prose  # the options the user may pick from next
        # Turn-level gates: most turns hold no finding, choice or error words at all.
        ascii_prose = prose.isascii()
        maybe_finding = not findings.full and (not ascii_prose or ex.has_finding_words(prose.lower()))
        maybe_error = not errors.full and (not ascii_prose or ex.has_error_words(prose)
                                           or prose_errors.may_report(prose) or may_state_failure(prose))
        maybe_decision = not decisions_full() and (cues.may_hold_decision(prose) or decision_intents.may_hold(prose))
        if not findings.full:
            for item in heading_findings(prose):
                findings.add(item)
        if not decisions_full():
            for item in decision_cues.labeled_decisions(prose):
                decide(item, 2)  # the agent labelled it its decision
        consequences = not decisions_full() and decision_cues.may_draw_consequence(prose)
        if not (maybe_finding or maybe_error or maybe_decision or consequences):
            continue
        previous = ""
        pairs = maybe_decision and cues.may_give_reason_for_previous(prose)
        for sentence in ex.sentences(rules.without_guess_lists(prose) if maybe_error else prose):
            verdict = judged.get(sentence)
            if verdict is None:
                verdict = judged[sentence] = _judge(sentence, maybe_decision, maybe_finding, maybe_error)
            choice, previous = previous, sentence
            if (pairs and not verdict[0] and choice and not judged.get(choice, (False,))[0]
                    and rules.is_decision_pair(choice, sentence)):
                pair = choice + " " + sentence  # the reason sits in the sentence after the choice
                decide(pair, max(2, rules.decision_strength(pair)))
                continue
            if (maybe_decision and choice and not verdict[0] and not judged.get(choice, (False,))[0]
                    and decision_pairs.joined_reason(choice, sentence)):
                pair = choice + " " + sentence  # the reason, tied to the choice by what both name
                decide(pair, max(2, rules.decision_strength(pair)))
                continue
            if consequences and choice and not verdict[0] and rules.is_consequence_pair(choice, sentence):
                pair = choice + " " + sentence  # a finding, and the choice it led to
                decide(pair, max(2, rules.decision_strength(pair)))
                continue
            if verdict[0]:
                decide(sentence, rules.decision_strength(sentence))
            elif verdict[1]:
                findings.add(sentence)
            elif maybe_finding and not limits.full and rules.is_limit_finding(sentence) and not ex.is_action(sentence):
                limits.add(sentence)
            # The message itself, where the reply quotes it: the telling line without the words around it.
            quoted = prose_errors.quoted_error(sentence) if maybe_error else ""
            if quoted:
                errors.add(quoted, _error_key(quoted))
            elif verdict[2] and not prose_errors.repeats_earlier(sentence):
                errors.add(sentence, _error_key(sentence))
            elif maybe_error and not verdict[0] and not stated.full and states_failure(sentence):
                stated.add(shortened_statement(sentence), _error_key(sentence))  # a failure told as a fact
    merged = _Collector(LIMITS["findings"])
    order = list(decisions.items)
    ranked = sorted(range(len(order)), key=lambda index: (-strength.get(order[index], 1), index))
    texts = [decisions.items[key] for key in order]
    scores = [strength.get(key, 1) for key in order]
    for index in sorted(decision_rank.spread(decision_rank.distinct(texts, ranked), scores, LIMITS["findings"])):
        merged.items.setdefault(order[index], decisions.items[order[index]])
    for key, text in list(findings.items.items()) + list(limits.items.items()):
        if len(merged.items) < LIMITS["findings"]:
            merged.items.setdefault(key, text)
    section = merged.section()
    section.items = [decision_cues.shortened(item) for item in section.items]
    hidden = len(decisions.items) + len(findings.items) + len(limits.items) - len(section.items)
    section.overflow = -1 if (decisions_full() or findings.full) else max(0, hidden)
    return section, list(pasted.items.values()) + list(errors.items.values()), list(stated.items.values())


# Failures stated in prose that a summary lists at most: each costs a sentence of the shared word budget.
_STATED_ERRORS = 4


# Decisions gathered before ranking: this many times the section's size.
_DECISION_POOL = 4


def _judge(sentence: str, maybe_decision: bool, maybe_finding: bool, maybe_error: bool) -> Tuple[bool, bool, bool]:
    """(a decision, a finding, an error) for one sentence of the agent's prose."""
    if ex.is_question(sentence):
        return False, False, False
    decision = maybe_decision and rules.is_decision(sentence)
    # Reported work ("Fixed X because Y") goes to "done", which is read separately.
    finding = (not decision and maybe_finding and ex.is_finding(sentence) and not ex.is_action(sentence)
               and not rules.is_possible_cause(sentence))
    # A sentence that ends on a colon introduces what follows (the output, the fix): it is not the error.
    # A sentence with escaped line breaks is a tool's JSON input (a file's text), not the agent's words.
    error = (maybe_error and not sentence.rstrip().endswith((":", "：")) and "\\n" not in sentence
             and not (sentence[:1].isdigit() and _CODE_LINE.match(sentence))
             and (ex.is_failure_tally(sentence) or (ex.is_error_sentence(sentence)
                                                    and bool(_ERROR_EVENT.search(sentence)))
                  or prose_errors.reports_failure(sentence))
             and not ex.is_action(sentence) and not ex.is_next_step(sentence)
             and not rules.is_possible_cause(sentence))
    return decision, finding, error


# In prose an error is reported as something that happened: a type with its message, or a verb of
# failing; "should catch SSLError" or "HIGH — X crashes" (a review comment) name errors without one.
_ERROR_EVENT = re.compile(
    r"\b[A-Z][A-Za-z]*(?:Error|Exception): \S|\b(?:got|getting|hit|raised|throws|threw|thrown|failed with"
    r"|fails with|returned|returns|printed|shows?|showed|reported|crashed|error:|failed:)\b|Traceback|FAILED"
    r"|発生|出ます|出ました|になりました|返され|报错|出现|抛出|返回了|발생|났습니다|뜹니다"
    # The agent's host reporting its own failure: "✕ [API Error: read ECONNRESET]", "API Error: 529 Overloaded".
    r"|\bAPI Error\b|^[✕✗✘×]\s"
    # A tool's own failure line that the exporter wrote into the reply ("Unable to write file '…' (Error: …)").
    r"|^(?:Unable to|Failed to|Could not) \w+")


_RUN_COMMAND = re.compile(r"^(?:/run|/test|/lint|!)\s*(.+)$")


# A user turn this long is a brief or a spec: the failures it lists are the starting state, not errors
# the session ran into.
_BRIEF_CHARS = 2500


# A line of pasted output rather than the user's words: a stack frame, or a line that points at a
# file position ("at f (file:///a.js:12:3)", "  File \"a.py\", line 3", "src/a.ts:4:1").
_OUTPUT_LINE = re.compile(r"^\s*(?:at\s+\S|File \"[^\"]+\", line \d)|\S:\d+:\d+\b|^\S+ @ \S+:\d+"  # a browser's frame
                          # a terminal's lines: a tagged log line, a prompt, a timestamp, an npm script header
                          r"|^\s*(?:\[[^\]\n]{1,40}\]|\$ |❯ |> \S|\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d)")


# The user's own words of each ask this summary read: the error and the decision readers both want them.
# summarize empties it, like _ASKS.
_OWN: "memo.SummaryMemo[str, str]" = memo.SummaryMemo(4096)


def _own_words(text: str) -> str:
    """What the user wrote in an ask, without pasted code or output; "" for a brief (its rules are the task,
    not choices made along the way) or a turn that asks nothing. An ask typed inside a fence is the ask."""
    return _OWN.of(text, _read_own_words)


def _read_own_words(text: str) -> str:
    ask = ask_text(text)
    if not ask:
        return ""
    prose, blocks = ex.split_code(ask)
    if not prose.strip() and len(blocks) == 1 and not blocks[0][0] and len(blocks[0][1]) < 600:
        prose = _SOFT_BREAK.sub(" ", blocks[0][1])  # some users wrap every ask in a fence, and its lines
    return "" if _own_words_chars(prose) > _RULES_BRIEF_CHARS else prose


# Past this many characters of the user's own words an ask is a brief: its "must"s are the task itself.
_RULES_BRIEF_CHARS = 1500


# How a line of output starts, unlike the user's own sentence that names an error ("Please don't leave a
# NotImplementedError"): an error's type or word, a log tag, a program's name and a colon, a file position.
_OUTPUT_START = re.compile(
    r"^[\s>⎿└│●✗✘×•*\-\"'{]*(?:[\w.]*(?:Error|Exception)\b|(?i:error|fatal|fail|panic|traceback|uncaught|unhandled)"
    r"|npm ERR!|E[A-Z]{3,}|\[[^\]\n]{1,40}\]|[a-z][\w./\\-]*:\s|[\w./\\-]+:\d+|\S+\(\d+,\d+\))")
# A shell prompt with the command after it: "user@host:~/app$ npm test", "@kim ➜ /workspaces/app (main) $ make",
# "PS C:\\app> dotnet build", "$ cargo test".
_PROMPT_LINE = re.compile(r"^(?:\S+@\S+[^\n]{0,120}?[$#%]|[^\n]{0,120}?➜[^\n]{0,120}?[$%]?"
                          r"|PS [A-Z]:\\[^\n>]{0,120}>|\$)[ \t]+\S")


def _own_words_chars(prose: str) -> int:
    """How much of a user's turn the user wrote: a long stack trace pasted under one line is a report of
    an error, not a brief."""
    return sum(len(line) for line in prose.split("\n") if not _OUTPUT_LINE.search(line))


_INTERRUPTED = re.compile(r"^\s*\[Request interrupted by user[^\]\n]*\]\s*")


def _read_user_turn(text: str, errors: "_Collector") -> None:
    tool_result = cline_result(text.strip())
    if tool_result is not None:  # a tool's output handed back in the user's role (Cline)
        for line in _error_lines(tool_result[1]):
            errors.add(line, _error_key(line))
        return
    # The user stopped a tool and pasted what their own terminal printed, in the same turn.
    text = _INTERRUPTED.sub("", text, count=1)
    if not ask_text(text):
        return
    own = _own_words(text)
    if own and not errors.full:  # a symptom told in the user's own words ("the modal closes at once")
        for report in user_reports.reports(own):
            report = signature_in(report) or report  # a report quoting the message: the message
            errors.add(report, _error_key(report))
    if errors.full or (text.isascii() and not ex.has_error_words(text) and "E" not in text):
        return
    lead_ins = set()
    for lead_in, line in pasted_after_lead_in(text):
        lead_ins.add(lead_in)
        errors.add(line, _error_key(line))
    prose, blocks = ex.split_code(text)
    pasted = [line for language, code in blocks if language not in ex.SOURCE_LANGUAGES
              for line in _error_lines(code.split("\n"))]
    if _own_words_chars(prose) <= _BRIEF_CHARS or _PROMPT_LINE.match(prose.lstrip()):  # a brief's failures are
        # where the work starts; a turn that opens on a shell prompt is a terminal's output, however long
        pasted += [line.strip() for line in prose.split("\n")  # users paste output without a fence too
                   if (ex.is_error_sentence(line) and (not ex.is_question(line) or _OUTPUT_LINE.search(line))
                       and (_OUTPUT_START.match(line) or ex.is_logged_error(line))
                       and (_looks_pasted(line) or (line.isascii() and ex.is_error_line(line.strip())))
                       and line.strip() not in lead_ins) or ex.is_failure_tally(line)]
    if pasted:
        # What the user pasted is read like a tool's output: its telling lines, not every echo of them.
        paste = rules.Call(rules.RUN, "")
        paste.output = pasted
        for line in rules.call_error_lines(paste) or pasted[:1]:
            line = signature_in(line) or line  # from where the message starts, paths cut short
            errors.add(line, _error_key(line))
    elif _own_words_chars(prose) <= _BRIEF_CHARS:
        # No output pasted on lines of its own: a message the user quoted inside a sentence, in any language.
        for message in signatures_in(prose)[:_QUOTED_PER_TURN]:
            errors.add(message, _error_key(message))


# A user's turn that quotes messages in its sentences reports one or two; more is a paste read above.
_QUOTED_PER_TURN = 2


# A line that introduces pasted output ("For the code present, we get this error:", "报错如下：",
# "エラーが出ました:") names no error itself: the block under it is the error, in whatever words or language.
_LEAD_IN_FENCE = re.compile(
    r"(?im)^([^\n`]{0,200}?(?:error|exception|fail\w*|traceback|crash\w*|エラー|例外|失敗|错误|報錯|报错|异常|失败"
    r"|오류|에러|실패|예외|ошибк\w*|erro|falla|fallo)[^\n`]{0,80}[:：])[ \t]*\n"
    r"(?:[ \t]*(?:(?:<{7}|={7}|>{7}|(?:> ){3,})[^\n]*)?\n)*"  # blank lines, or a merge's conflict markers
    r"[ \t]*(```|~~~)([^\n]*)\n"
    r"([\s\S]*?)^[ \t]*\2")


def pasted_after_lead_in(text: str) -> List[Tuple[str, str]]:
    """(lead-in line, error) for each block that a lead-in line introduces: the block's first error line,
    else its first line."""
    found: List[Tuple[str, str]] = []
    if "```" not in text and "~~~" not in text:
        return found
    for match in _LEAD_IN_FENCE.finditer(text):
        if match.group(3).strip().split(" ", 1)[0].lower() in ex.SOURCE_LANGUAGES:
            continue  # code to write ("the test should expect an error:" + a test), not output
        lines = [line.strip() for line in match.group(4).split("\n") if line.strip()]
        if not lines:
            continue
        telling = next((line for line in lines[:6] if len(line) >= 6 and ex.is_error_line(line)), lines[0])
        if len(telling) >= 4:
            found.append((match.group(1).strip(), telling[:200]))
    return found


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


def _read_done_newest_first(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]], language: str) -> Section:
    """Results reported by the assistant over the whole session, shown in the order they came.

    The agent's own lists under a results heading, reported actions that say what they achieved, and
    what tool output shows was done: commits, pushes, acting tool calls. Each reply's results keep its
    own order (the headline first) and only its first few count. The session is read by phase (an ask and
    the replies that answer it), newest first; the section takes the first result of each phase, then the
    second of each, and so on, so each accomplished ask gets its result and a feature built early is not
    crowded out by the long list of the last phase; within a phase the reply that closes it (the last
    one before the next ask) comes first at each depth, since that is where agents sum up. Edit
    records ("Updated x with 8 additions") are evidence, not items: when the session reports few
    results, the files its tools edited are named once, grouped by folder.
    """
    limit = LIMITS["done"]
    undone = {commit for turn_parts in parts if turn_parts is not None for commit in turn_parts.undone}
    # Each phase (an ask and the replies that answer it, newest phase first) holds its replies' results,
    # newest reply first.
    phases: List[List[List[str]]] = []
    phase: List[List[str]] = []
    seen: Set[str] = set()
    subjects: Set[str] = set()  # messages of the commits read
    acted: Dict[str, Tuple[str, int]] = {}  # acting tool calls by name: (as first shown, how many)
    read = 0  # results read, a closed phase counting at most _DONE_PER_PHASE_READ of its own
    stopped = False  # replies older than the ones read hold more results, not counted
    closes = True  # the newest reply with words closes the last phase
    phase_edited = reported = False  # the phase being read (back to its ask) edited files / reported a result
    tallied = False  # the phase being read showed its newest test tally
    quiet: List[Tuple[int, str]] = []  # (which phase, the ask) of phases that edited and said nothing
    reports = closing_replies(turns, parts, _asks_for_work, ask_text)  # replies that close asked-for work
    for back, (turn, turn_parts) in enumerate(zip(reversed(turns), reversed(parts))):
        if turn_parts is None:
            ask = ask_text(turn.text)
            if ask and phase_edited and not reported and _asks_for_work(ask):
                # Replies that say only "Made changes.": the ask the edits answered is the result; it only
                # fills what the reported results leave.
                quiet.append((len(phases), phrase(language, "done.edited_for", ask=_opening(ask, _EDITED_FOR_CHARS))))
            if ask:
                phase_edited = reported = tallied = False
                phases.append(phase)  # an ask closes its phase even when it reported nothing
                read += min(_DONE_PER_PHASE_READ, sum(len(group) for group in phase))
                phase = []
            closes = closes or bool(ask)
            continue
        prose = _reply_words(turn_parts)
        # A results list needs a heading: a `#` line, a bold line or a line that ends on a colon,
        # or a short sentence that announces it ("Done.", "Готово.", "完了しました。") over a list.
        headed = ":" in prose or "#" in prose or "**" in prose or "：" in prose or "\n- " in prose
        found = [(_position(prose, item), item) for item in rules.result_lists(prose)] if headed else []
        listed_keys = {" ".join(ex.clean_item(item).lower().split()) for _, item in found}
        # Reported actions anywhere; in the reply that closes a phase, also where the work ended up ("The
        # import screen is done", "842 passed, 0 failed"): that is where agents sum up.
        # Its first statement of the new state ("The chart now uses …", "test.html has been created") too.
        outcome: Tuple[int, str] = (-1, "")
        stated = False
        for sentence in ex.sentences(prose):
            if ex.is_action(sentence) and rules.is_result(sentence):
                kind = "action"
            elif closes and rules.is_outcome(sentence):
                kind = "outcome"
            elif closes and not stated and is_new_state(sentence):
                kind, stated = "state", True
            else:
                continue
            if listed_keys and " ".join(ex.clean_item(sentence).lower().split()) in listed_keys:
                continue  # already read as an item of a results list
            if kind != "outcome":
                found.append((prose.find(sentence), sentence))
            else:
                outcome = (prose.find(sentence), sentence)  # the last one: where the phase ended up
        if outcome[1]:
            found.append(outcome)
        found.sort(key=lambda pair: pair[0])
        if not listed_keys and len(turns) - 1 - back in reports:
            # The report after the work, under a heading whose words the cues do not read: its first list.
            found += [(0, item) for item in report_items(prose) if not any(item == other for _, other in found)]
        tools: List[str] = []
        for call in turn_parts.calls:
            kind, what, where = rules.acted(call)
            if kind == "committed":
                tools.append(phrase(language, "done.committed", commit=what))
            elif kind == "pushed":
                tools.append(phrase(language, "done.pushed", ref=what, remote=where))
        # aider's own commits, shown with their hash as a reviewer cites them.
        for commit, record in turn_parts.commit_of:
            if commit not in undone and record.lower() not in subjects:  # a commit made again: one result
                subjects.add(record.lower())
                tools.append(phrase(language, "done.committed", commit=commit[:7] + " " + record))
        for commit, subject in reported_commits(prose):
            if not any(commit in item for item in tools) and (not subject or subject.lower() not in subjects):
                subjects.add(subject.lower())
                tools.append(phrase(language, "done.committed", commit=(commit + " " + subject).strip()))
        if turn_parts.blocks:
            subject = rules.commit_message(turn.text, turn_parts.blocks)
            if subject:
                tools.append(phrase(language, "done.commit_message", subject=subject))
        reported = reported or bool(found or tools)
        phase_edited = phase_edited or bool(turn_parts.made_changes) or any(
            call.kind == rules.EDIT for call in turn_parts.calls)
        group = []
        # What tool output shows was done (a commit, a push) leads: the reply's words come after it.
        # The newest tally of the phase's test runs comes after the reply's own words.
        tally = None if tallied else last_tally(turn_parts.calls)
        tallied = tallied or bool(tally)
        tail = [phrase(language, "done.tests", tally=tally)] if tally else []
        for item in tools + [item for _, item in found][:_DONE_PER_REPLY] + tail:
            key = " ".join(item.lower().strip(_DECORATION_CHARS).split())
            if len(key) >= 3 and key not in seen:
                seen.add(key)
                group.append(item)
        if group:
            phase.append(group)
        if re.search(r"\w{3,}", prose):
            closes = False
        # A long session's older phases still count (a feature built early), each for a few results; one
        # long phase is read until it alone holds enough.
        if read + sum(len(group) for group in phase) > _DONE_READ * limit:
            stopped = True
            break
    if phase:
        phases.append(phase)
    # Acting tool calls (MCP pushes and the like) over the whole session, however far back the results were read:
    # counted by the tool's name, shown with the arguments of its first call.
    for turn_parts in parts:
        for call in turn_parts.calls if turn_parts is not None else ():
            if call.kind == rules.EXTERNAL:
                kind, what, _ = rules.acted(call)
                if kind == "acted":
                    name = what.split(": ", 1)[0]
                    shown, count = acted.get(name, (what, 0))
                    acted[name] = (shown, count + 1)
    done = _Collector(limit)
    if acted:  # named once for the session, with how often each ran, and shown first
        names = ", ".join(shown + (" ×" + str(count) if count > 1 else "") for shown, count in acted.values())
        key = "done.acted_push" if any("push" in name.lower() for name in acted) else "done.acted"
        done.add(phrase(language, key, names=names))
    # Rank: depth first (within its phase), then the ends of the session; show in session order. The newest
    # phases and, when the whole session was read, the oldest: a feature built early counts.
    last = len(phases) - 1 if not stopped else 10 ** 9
    ranked = [(depth, min(number, last - number), number, item)
              for number, replies in enumerate(phases) for depth, item in enumerate(_phase_results(replies))]
    # A session whose replies report (almost) nothing, such as a chat whose replies say only "Made changes.":
    # the asks its edits answered stand for its results.
    if sum(len(replies) for replies in phases) < _QUIET_RESULTS:
        ranked += [(_QUIET_DEPTH, min(number, last - number), number, item) for number, item in quiet]
    ranked.sort()
    # The section shares the summary's words: results are taken in rank order while they fit its share, so
    # the details of a busy phase give way, not another section's items.
    kept: List[Tuple[int, int, int, str]] = []
    words = sum(count_words(item) for item in done.items)
    for depth, end, number, item in ranked:
        if len(kept) >= limit - len(done.items):
            break
        item = _short(item, _DONE_ITEM_CHARS)
        size = count_words(item)
        if words + size > _DONE_WORDS and kept:
            continue
        words += size
        kept.append((depth, end, number, item))
    picked = sorted(kept, key=lambda entry: (-entry[2], entry[0]))
    for _, _, _, item in picked:
        done.add(item)
    candidates = len(ranked)
    section = done.section()
    section.overflow = -1 if stopped else max(0, candidates - len(picked))
    edited = rules.edited_evidence(parts)
    if edited and (len(section.items) < _DONE_WITH_EVIDENCE or _named_share(section.items, edited) < 0.5):
        # Few results, or results that never say where the work went: the edited files are the evidence.
        section.items.append(phrase(language, "done.edited", files=rules.group_by_folder(edited)))
    return section


def _short(item: str, limit: int) -> str:
    """A result cut to about `limit` characters, at a word: its head names the result, the rest is detail."""
    if len(item) <= limit:
        return item
    cut = item[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:—-") + "…"


def _phase_results(replies: Sequence[List[str]]) -> List[str]:
    """A phase's results in the order they count: the first of each reply, then the second of each, and so
    on; at each depth the newest reply first (the one that closes the phase, where agents sum up)."""
    out: List[str] = []
    for depth in range(max((len(group) for group in replies), default=0)):
        out.extend(group[depth] for group in replies if depth < len(group))
    return out


def _reply_words(turn_parts: TurnParts) -> str:
    """The reply's own words; a reply an exporter wrapped whole in an unlabelled fence is read from the fence
    when what it holds reads as prose (sentences and list items, not code or output)."""
    if turn_parts.prose.strip() or len(turn_parts.blocks) != 1:
        return turn_parts.prose
    language, code = turn_parts.blocks[0]
    lines = [line.strip() for line in code.split("\n") if line.strip()]
    if language.strip() or not lines:
        return turn_parts.prose
    wordy = sum(1 for line in lines if len(line.split()) >= 6 and re.search(r"[.:!?。：]$|^(?:[-*•]|\d+[.)]) ", line))
    return code if wordy * 2 >= len(lines) else turn_parts.prose


def _position(prose: str, item: str) -> int:
    """Where an item sits in its reply (a bullet made of joined fields: where its first field sits)."""
    at = prose.find(item)
    return at if at >= 0 else prose.find(item.split("; ", 1)[0])


def _named_share(items: Sequence[str], paths: Sequence[str]) -> float:
    """How many of the files the items name (by a file's name, wherever it sits), as a share."""
    names = {path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] for path in paths} - {""}
    text = " ".join(items)
    return sum(1 for name in names if name in text) / len(names) if names else 1.0


# An ask shown as the result of the edits made for it is cut to this many characters, and ranks after every
# result a reply reported.
_EDITED_FOR_CHARS = 160
_QUIET_DEPTH = 1000
_QUIET_RESULTS = 3


def _asks_for_work(ask: str) -> bool:
    """An ask that names work ("add a dark mode toggle", in any language), not feedback ("bigger", "still
    blank"), a question or pasted output."""
    head = ask[:_RANKED_CHARS]
    words = len(head.split()) if head.isascii() else len(head) // 3
    return (words >= 4 and not _side_question(head) and not _looks_pasted(head) and not ex.is_question(head.strip())
            and not ex.is_acknowledgement(head))
# How far back "done" reads: replies until this many times the section's size in results.
_DONE_READ = 4
# A result is cut to this many characters: the section shares the summary's words with the others.
_DONE_ITEM_CHARS = 160
# The words "done" takes of the summary at most (its first result always shows).
_DONE_WORDS = 220
# A phase already read counts for this many of its results in how far back "done" reads.
_DONE_PER_PHASE_READ = 2
# A reply's first results say what it achieved; the rest of a long list are details.
_DONE_PER_REPLY = 5
# With fewer results than this, the files the session's tools edited are named as evidence.
_DONE_WITH_EVIDENCE = 5


# An offer to do more is a question to the user ("If you want, I can outline the trims…").
_OFFER = re.compile(
    r"(?i)^(?:if you(?:'d)? (?:want|like|prefer)|would you like|do you want|want me to|shall i|should i"
    r"|let me know if you(?:'d)? (?:want|like))\b|もしよろしければ|如果你需要|如果需要.{0,6}我可以|원하시면"
)


def _collect_ending(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]], language: str,
                    questions: "_Collector", next_steps: "_Collector") -> None:
    """Questions and next steps come from the end of the session, where the work stands now.

    The last replies' next-step lists and sentences, the last reply's questions to the user, and from
    the last few replies: stubs left in place, tasks handed to the user and work deferred.
    """
    assistant = [index for index, turn in enumerate(turns) if turn.role == "assistant"]
    last_assistant = assistant[-TAIL_TURNS:]
    for sentence in _deferred_mid_session(turns, parts, assistant[-_DEFER_WINDOW:-OPEN_TAIL_TURNS]):
        next_steps.add(sentence)
    for index in assistant[-OPEN_TAIL_TURNS:-TAIL_TURNS] if len(assistant) > TAIL_TURNS else []:
        turn_parts = parts[index]
        for sentence in ex.sentences(turn_parts.prose if turn_parts is not None else ""):
            if not ex.is_question(sentence) and rules.open_kind(sentence) in ("stub", "deferred") and not (
                    _announced_now(sentence)):
                next_steps.add(sentence)
    for position, index in enumerate(last_assistant):
        turn_parts = parts[index]
        prose = failed_replies.before_notice(turn_parts.prose) if turn_parts is not None else ""
        for item in loose_ends.next_list(prose, turns[index + 1:], _content_words):
            next_steps.add(item)
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
            # "**Want me to apply it?** I can …": bold marks around a question hide its end from the splitter.
            for sentence in ex.sentences(stripped.replace("**", "") if "**" in stripped else stripped):
                if ex.is_question(sentence) and (not ex.is_open_question(sentence) or stripped.startswith("#")):
                    continue  # a tool's permission prompt, a quoted row, or a heading ("## Why does X happen?")
                if ex.is_question(sentence) or _OFFER.match(ex.clean_item(sentence)):
                    # Only the very last reply's questions are still open; earlier ones were answered.
                    if position == len(last_assistant) - 1:
                        questions.add(sentence)
                elif _announced_now(sentence):
                    continue  # "Let me clean up the placeholder": done in the same reply, not left
                elif (ex.is_next_step(sentence) and not ex.is_action(sentence)) or rules.open_kind(sentence):
                    next_steps.add(sentence)
    pending = _pending_ask(turns, parts) or loose_ends.picked_option(turns)
    if pending:
        questions.add(phrase(language, "reply_pending", text=_opening(pending, 200)))
        return
    tally = loose_ends.prose_tally(parts) or _failing_tally(parts)
    if tally and not any(" ".join(tally[0].split()) in " ".join(item.split()) for item in next_steps.items.values()):
        next_steps.add(phrase(language, "open.tests_fail", text=tally[0], command=tally[1]))
    last = _last_reply(turns, parts)
    if last < 0:
        return
    announced = _announced_at_end(parts[last])
    if announced:
        next_steps.add(phrase(language, "open.announced", text=announced))
    unconfirmed = _unconfirmed_fix(turns, parts, last)
    if unconfirmed:
        next_steps.add(phrase(language, "open.unconfirmed", text=unconfirmed))
        return
    asked = max((index for index in range(last) if parts[index] is None and ask_text(turns[index].text)), default=-1)
    untested = loose_ends.untested_at_end(parts, asked + 1, last)
    named = [name for name in untested if name != "…"]  # "…": a chat export's "Made changes." names no file
    if named:
        shown = ", ".join("`" + name.replace("`", "'") + "`" for name in named[:3]) + (" …" if len(named) > 3 else "")
        next_steps.add(phrase(language, "open.untested", text=shown))
    elif untested:
        next_steps.add(phrase(language, "open.untested_unnamed"))


# A test runner's tally: "Tests  10 failed | 12 passed (22)" (vitest), "Tests: 3 failed, 12 passed" (jest),
# "=== 3 failed, 12 passed in 1.2s ===" (pytest), "test result: FAILED. 3 passed; 1 failed" (cargo),
# "3 failing" (mocha), "15 examples, 3 failures" (rspec), "FAILED (failures=3)" (unittest).
_TALLY = re.compile(r"(?i)\b([1-9]\d*)\s+(?:failed|failing|failures?)\b|\bfailures=([1-9]\d*)")


def _failing_tally(parts: Sequence[Optional[TurnParts]]) -> Optional[Tuple[str, str]]:
    """(the tally line, the command) when the session's last test run that printed a tally still had failures."""
    for turn_parts in reversed(parts):
        if turn_parts is None:
            continue
        for call in reversed(turn_parts.calls):
            if call.kind != rules.RUN or not call.output:
                continue
            lines = [line for line in call.output[-40:] if "fail" in line.lower() and _TALLY.search(line)]
            passed = [line for line in call.output[-40:] if re.search(r"(?i)\b\d+\s+passed\b", line)]
            if lines:
                shown = " ".join(lines[-1].strip(" │|║┃").split())[:120]
                return shown, "`" + rules.clean_command(call.text).replace("`", "'")[:80] + "`"
            if passed:
                return None  # the last tally passed
    return None


def _announced_now(sentence: str) -> bool:
    """Work the agent announces and does in the same reply ("Let me clean up the placeholder"), unless it puts
    the work off ("I'll leave it as a stub for now") or hands it to the user."""
    return cues.announces_work(sentence) and rules.open_kind(sentence) in ("", "stub") and not cues.has_deferral(
        sentence)


def _last_reply(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]]) -> int:
    """The assistant's last turn when no ask came after it (the session ends on its reply), else -1."""
    for index in range(len(turns) - 1, -1, -1):
        if parts[index] is None:
            if ask_text(turns[index].text):
                return -1
            continue
        turn_parts = parts[index]
        if turn_parts is not None and (turn_parts.prose.strip() or turn_parts.calls):
            return index
    return -1


def _announced_at_end(turn_parts: Optional[TurnParts]) -> str:
    """The reply's last sentence when it announces work ("I'll move the spec to …:", "让我来更新这个组件："):
    the session stopped before that work was shown done."""
    lines = [line.strip() for line in (turn_parts.prose if turn_parts is not None else "").split("\n")
             if re.search(r"\w{2,}", line) and not loose_ends.is_chrome(line)]
    if not lines:
        return ""
    last = list(ex.sentences(lines[-1]))
    sentence = last[-1] if last else ""
    return sentence if sentence and cues.announces_work(sentence) and not ex.is_question(sentence) else ""


def _unconfirmed_fix(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]], last: int) -> str:
    """The problem the user last reported, when the session ends on the agent's fix for it and nothing ran
    after the fix (no test, no build, no word from the user): whether it works is not known."""
    asks = [(index, ask_text(turns[index].text)) for index in range(last) if parts[index] is None]
    asks = [(index, ask) for index, ask in asks if ask]
    if not asks:
        return ""
    index, ask = asks[-1]
    reported = _reports_problem(ask) or any(cues.reports_persisting_problem(earlier) for _, earlier in asks[-2:])
    if not reported:
        return ""
    # Named by the first error line the user pasted, else by the ask's opening.
    prose, blocks = ex.split_code(ask)
    pasted = [code for language, code in blocks if _block_language(language) not in ex.SOURCE_LANGUAGES] + [prose]
    error = next((line.strip() for text in pasted for line in text.split("\n")
                  if len(line.strip()) >= 6 and ex.is_error_line(line.strip())), "")
    replies = [turn_parts for turn_parts in parts[index + 1:last + 1] if turn_parts is not None]
    if any(call.kind in (rules.RUN, rules.EXTERNAL) for reply in replies for call in reply.calls) or any(
            reply.ran_blocks for reply in replies):
        return ""  # something ran after the fix (a test, a build): the session saw how it went
    changed = any(call.kind == rules.EDIT for reply in replies for call in reply.calls) or any(
        reply.made_changes or any(_block_language(language) in ex.SOURCE_LANGUAGES or not language
                                  for language, _ in reply.blocks)
        for reply in replies)
    if not changed:
        return ""
    return error[:160] if error else _opening(_with_pasted_line(ask, turns[index].text), 200)


def _block_language(language: str) -> str:
    """"typescript:src/app.tsx" (Cursor names the file after the language) is typescript."""
    return language.split(":", 1)[0].strip().lower()


def _reports_problem(ask: str) -> bool:
    """The user reports a failure: in their own words, or as output pasted in a block that is not source code
    (a docstring's "Raises: ValueError" in pasted code is not one)."""
    prose, blocks = ex.split_code(ask)
    if _BUG_REPORT.search(prose) or _looks_pasted(prose):
        return True
    return any(_block_language(language) not in ex.SOURCE_LANGUAGES and _looks_pasted(code)
               for language, code in blocks)


_NAME = re.compile(r"`([^`]{2,40})`|\b([A-Z][A-Za-z0-9]{2,})\b")


def _deferred_mid_session(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]],
                          earlier: Sequence[int]) -> List[str]:
    """Work the agent put off to later before the end of the session (the end is read separately), unless
    the user asked about that work again afterwards: then it was picked up, not left."""
    found: List[str] = []
    for index in earlier:
        turn_parts = parts[index]
        prose = turn_parts.prose if turn_parts is not None else ""
        if not prose or not cues.defers_work(prose):
            continue
        for sentence in ex.sentences(prose):
            if ex.is_question(sentence) or not cues.defers_work(sentence):
                continue
            names = {(match.group(1) or match.group(2)).lower() for match in _NAME.finditer(sentence)}
            later_asks = " ".join(turn.text.lower() for turn in turns[index + 1:] if turn.role == "user")
            if not any(name in later_asks for name in names):
                found.append(sentence)
        if len(found) >= _DEFERRED_ITEMS:
            break
    return found[:_DEFERRED_ITEMS]


# At most this many pieces of work put off mid-session are listed: the end of the session says more.
_DEFERRED_ITEMS = 2
# How many replies back work put off is looked for: further back, it was most likely overtaken.
_DEFER_WINDOW = 200


def _with_pasted_line(ask: str, text: str) -> str:
    """The ask with the first line of the output pasted under it ("we get this error:" + the error), so the
    open report says what went wrong and not only that something did."""
    if not ask:
        return ask
    for language, code in ex.split_code(text)[1]:
        if language in ex.SOURCE_LANGUAGES:
            continue
        line = next((line.strip() for line in code.split("\n") if line.strip()), "")
        if line and line not in ex.split_code(ask)[0]:
            return line[:160] + " — " + ask
    return ask


def _pending_ask(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]]) -> str:
    """The user's last ask when nothing answered it: the session ends on it, or only tool output followed."""
    for index in range(len(turns) - 1, -1, -1):
        turn, turn_parts = turns[index], parts[index]
        if turn.role == "user":
            return _with_pasted_line(ask_text(turn.text), turn.text)
        if turn_parts is not None and loose_ends.reply_cancelled(turn.text):
            continue  # the user stopped this reply: it answered nothing
        if turn_parts is not None and (re.search(r"\w{3,}", turn_parts.prose)
                                       or any(re.search(r"\w{3,}", code) for _, code in turn_parts.blocks)):
            return ""  # the agent said or wrote something after it (a reply can be only a block: a commit message)
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


_WORD = re.compile(r"\w+")
_HAN_KANA = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def count_words(text: str) -> int:
    """Words as a reader counts them: each run of letters and digits (so `src/a.py` is three), and one
    per two Chinese or Japanese characters."""
    words = 0
    for run in _WORD.findall(text):
        if run.isascii():
            words += 1
        else:
            han = len(_HAN_KANA.findall(run))
            words += (han + 1) // 2 if han else 1
    return words


def _fit_words(summary: LocalSummary) -> None:
    """Keep the summary under WORD_BUDGET words: the section with the most words gives up its last item
    (counted as "… and N more"), again and again; past WORD_CAP, the longest texts are cut short too."""
    trimmable = [summary.commands, summary.findings, summary.done, summary.errors, summary.next_steps,
                 summary.later_asks, summary.questions]
    total = count_words(render_markdown(summary))
    while total > WORD_BUDGET and summary.errors.weak:  # failures only stated in replies give way first
        summary.errors.weak -= 1
        summary.errors.overflow += 1
        total -= count_words(summary.errors.items.pop()) + 1
    _drop_items(summary, trimmable, total)
    # The count above is kept by subtraction and can drift (an item's words differ from its bullet's once
    # rendered): a summary whose rendered text still passes the hard cap is trimmed again from its rendered
    # count, and its longest texts are cut short.
    rendered = count_words(render_markdown(summary))
    while rendered > WORD_CAP:
        _drop_items(summary, trimmable, rendered)
        _shorten_longest(summary, trimmable)
        again = count_words(render_markdown(summary))
        if again >= rendered:
            return
        rendered = again


# The cap a reader is promised (issue 25); WORD_BUDGET leaves room under it for the subtraction's drift.
WORD_CAP = 1200
# Words an item keeps at least when the summary must still shrink once every section is down to one item.
_SHORTEST_CUT = 30


def _drop_items(summary: LocalSummary, trimmable: Sequence[Section], total: int) -> None:
    """From `total` words down to WORD_BUDGET: the section with the most words, or the file list, gives up its
    last item, again and again, while any section holds more than one."""
    while total > WORD_BUDGET:
        sizes = [(sum(count_words(item) for item in section.items), position)
                 for position, section in enumerate(trimmable) if len(section.items) > 1]
        files_words = sum(count_words(check.path) + 3 for check in summary.files) + sum(
            count_words(group) for group in summary.file_groups)
        if summary.file_groups and files_words >= max([size for size, _ in sizes] or [0]):
            total -= count_words(summary.file_groups.pop())
            continue
        if len(summary.files) > 10 and files_words >= max([size for size, _ in sizes] or [0]):
            dropped = summary.files.pop()
            summary.files_overflow += 1
            total -= count_words(dropped.path) + 3
            continue
        if not sizes:
            return
        _, position = max(sizes)
        section = trimmable[position]
        # Commands give up what only looked before what acted; other sections their newest item.
        dropped_item = section.items.pop(command_list.least_important(section.items)
                                         if section is summary.commands else -1)
        if section.overflow >= 0:
            section.overflow += 1
        total -= count_words(dropped_item) + 1


def _shorten_longest(summary: LocalSummary, trimmable: Sequence[Section]) -> None:
    """Every section is down to its last item and the summary is still over the budget (a few very long
    items: an ask pasted as a wall of text, an error with a whole log line): the longest text, the goal
    included, is cut short, again and again, so the budget holds whatever the session holds."""
    total = count_words(render_markdown(summary))
    while total > WORD_BUDGET:
        texts = [(count_words(item), position, index) for position, section in enumerate(trimmable)
                 for index, item in enumerate(section.items)]
        texts.append((count_words(summary.goal), -1, 0))
        words, position, index = max(texts)
        if words <= _SHORTEST_CUT:
            return
        keep = max(_SHORTEST_CUT, words - (total - WORD_BUDGET))
        if position < 0:
            summary.goal = first_words(summary.goal, keep)
        else:
            trimmable[position].items[index] = first_words(trimmable[position].items[index], keep)
        total = count_words(render_markdown(summary))


def first_words(text: str, limit: int) -> str:
    """`text` cut after its `limit`-th word (counted as count_words counts), with "…" when it was cut."""
    words = 0
    for found in _WORD.finditer(text):
        run = found.group(0)
        han = 0 if run.isascii() else len(_HAN_KANA.findall(run))
        words += (han + 1) // 2 if han else 1
        if words >= limit:
            return text[:found.end()].rstrip() + " …" if text[found.end():].strip() else text
    return text


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
    lines += [heading("commands"), "", *_bullets(Section(command_list.bullets(summary.commands.items),
                                                         summary.commands.overflow), language), ""]
    lines += [heading("findings"), "", *_bullets(summary.findings, language), ""]
    lines += [heading("errors"), "", *_bullets(summary.errors, language), ""]
    lines += [heading("questions"), "", *_bullets(summary.questions, language), ""]
    lines += [heading("next"), "", *_bullets(summary.next_steps, language)]
    # Every item was redacted on its own (see _Collector.section and _opening): nothing here is redacted
    # again as a whole, where one cut secret could swallow the sections after it.
    return "\n".join(lines).rstrip() + "\n"
