"""Turns a raw `session/get` answer into a tidy, size-capped Session that the summarizers read."""

import datetime
import re
from dataclasses import dataclass, field
from typing import Any, List, Optional

from .extraction import has_error_words, is_error_line

# A single turn can be a megabyte of tool output. Summaries only need its start and its end,
# so longer turns are cut in the middle; the cut is marked so nobody mistakes it for the whole.
TURN_HEAD_CHARS = 12_000
TURN_TAIL_CHARS = 4_000
# One assistant turn of an export often holds a whole agent loop: dozens of tool calls, the replies
# between them and every result. Cutting it in the middle loses most of the session (on the corpus of
# bench/session_corpus, 21 of 44 sessions have a turn over 24,000 characters, up to 398,000). So a
# long turn is first thinned: long runs of tool output keep their first and last lines and their
# error lines; the calls and the agent's own words between them stay whole. Only what is still over
# THINNED_MAX_CHARS is then cut in the middle.
THINNED_MAX_CHARS = 160_000
_RUN_HEAD, _RUN_TAIL, _RUN_ERRORS = 6, 3, 4
# Lines of tool output: inside a fence, in a box, indented, or numbered code.
_BOXED = re.compile(r"^\s*[│┃|]")
_NUMBERED = re.compile(r"^\s*\d+[ |:→\t]")
# A line that starts a tool call or reports one, whatever the agent: kept even inside output.
_CALL_LINE = re.compile(r"^\s*(?:[│┃|]\s*)?(?:[✓✔✗✖⊶⏺●•⎿]\s|Tool use:|<details|</details>|<tool-use|Ran |Run |Edited"
                        r" |Read |Searched |Made changes|Applied edit|\$ |> Running|╭|╰)")


@dataclass(frozen=True)
class Turn:
    role: str  # "user" or "assistant"
    text: str
    original_length: int


@dataclass
class Session:
    pane_id: Optional[int] = None
    agent: str = ""
    session_id: str = ""
    title: str = ""
    cwd: str = ""
    status: str = ""
    turn_count: int = 0
    turns: List[Turn] = field(default_factory=list)
    started: Optional[float] = None  # when the session began (epoch seconds), if the host says

    @property
    def is_empty(self) -> bool:
        return not any(turn.text.strip() for turn in self.turns)

    @property
    def omitted_turns(self) -> int:
        """Turns the host had but did not send (it sends at most the newest maxTurns)."""
        return max(0, self.turn_count - len(self.turns))


def cap_turn_text(text: str, head: int = TURN_HEAD_CHARS, tail: int = TURN_TAIL_CHARS) -> str:
    if len(text) <= head + tail:
        return text
    omitted = len(text) - head - tail
    return text[:head] + "\n[… " + str(omitted) + " characters omitted …]\n" + text[-tail:]


def _thin_run(run: List[str], kept: List[str]) -> None:
    if len(run) <= _RUN_HEAD + _RUN_TAIL + 2:
        kept.extend(run)
        return
    middle = run[_RUN_HEAD:-_RUN_TAIL]
    # Kept for the error rules to judge later: any line with their error words (extraction's own gates).
    errors = [line for line in middle if has_error_words(line) or is_error_line(line)][:_RUN_ERRORS]
    kept.extend(run[:_RUN_HEAD])
    kept.append("… " + str(len(middle) - len(errors)) + " lines of output omitted …")
    kept.extend(errors)
    kept.extend(run[-_RUN_TAIL:])


def thin_turn_text(text: str) -> str:
    """A long turn with its tool calls and prose whole and its long output runs shortened (see above)."""
    if len(text) <= TURN_HEAD_CHARS + TURN_TAIL_CHARS:
        return text
    kept: List[str] = []
    run: List[str] = []
    fenced = False
    for line in text.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            _thin_run(run, kept)
            run = []
            kept.append(line)
            continue
        output = fenced or bool(_BOXED.match(line)) or line.startswith(("  ", "\t")) or bool(_NUMBERED.match(line))
        if output and not _CALL_LINE.match(line):
            run.append(line)
            continue
        _thin_run(run, kept)
        run = []
        kept.append(line)
    _thin_run(run, kept)
    thinned = "\n".join(kept)
    if len(thinned) <= THINNED_MAX_CHARS:
        return thinned
    return cap_turn_text(thinned, THINNED_MAX_CHARS * 3 // 4, THINNED_MAX_CHARS // 4)


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, list):  # content blocks, in case a host sends them
        return "\n".join(_as_text(part.get("text") if isinstance(part, dict) else part) for part in value)
    return str(value)


def _as_int(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _as_epoch(value: Any) -> Optional[float]:
    """Seconds since the epoch from a number (seconds or milliseconds) or an ISO 8601 text."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value) / 1000.0 if value > 10_000_000_000 else float(value)
    if isinstance(value, str) and value.strip():
        try:
            moment = datetime.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=datetime.timezone.utc)
        return moment.timestamp()
    return None


def parse_session(raw: Any) -> Session:
    """Build a Session from the host's answer, tolerating missing or odd fields."""
    if not isinstance(raw, dict):
        return Session()
    turns: List[Turn] = []
    raw_turns = raw.get("turns")
    for item in raw_turns if isinstance(raw_turns, list) else []:
        if not isinstance(item, dict):
            continue
        role = str(item.get("role") or "").lower()
        role = "user" if role in ("user", "human") else "assistant"
        text = _as_text(item.get("text", item.get("content"))).replace("\r\n", "\n")
        turns.append(Turn(role=role, text=thin_turn_text(text), original_length=len(text)))
    turn_count = _as_int(raw.get("turnCount"))
    return Session(
        pane_id=_as_int(raw.get("paneId")),
        agent=str(raw.get("agent") or ""),
        session_id=str(raw.get("sessionId") or ""),
        title=str(raw.get("title") or ""),
        cwd=str(raw.get("cwd") or ""),
        status=str(raw.get("status") or ""),
        turn_count=max(turn_count or 0, len(turns)),
        turns=turns,
        started=_as_epoch(raw.get("startedAt", raw.get("createdAt"))),
    )
