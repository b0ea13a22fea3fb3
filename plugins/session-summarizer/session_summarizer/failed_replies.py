"""Replies the agent's client cut off with its own failure notice (an API error, an exhausted quota, a dropped
stream) at the end of a session: the asks they were to answer are still waiting, and the work they began stopped.

The notices are the clients' own (Claude Code's and Gemini CLI's "API Error", Codex's "stream error", a quota or
overload message): they read the same whatever the session's language.
"""

import re
from typing import Callable, List, Optional, Sequence, Tuple

from .session import Turn

# The client's notice that the model call failed: "API Error: 400 {…}", "✕ [API Error: read ECONNRESET]",
# "[Response interrupted by API Error]", "■ stream error: …", "stream disconnected before completion",
# "You exceeded your current quota", "Overloaded", "Internal server error".
_NOTICE = re.compile(
    r"^[\s✕✗×■⚠!>\[]*(?:API Error\b|Response interrupted by API Error|stream (?:error|disconnected)\b"
    r"|You exceeded your current quota)"
    # The bare forms ("Overloaded", "Internal server error") only as a notice line of their own, never prose.
    r"|^[\s✕✗×■⚠\[]*(?:Error: )?(?:Overloaded|Internal server error|Service Unavailable|Connection error"
    r"|Request timed out)\.?\]?\s*$", re.I)
# A client command the user types to leave (`/quit`, `/exit`): what the client prints after it is no reply.
_LEAVE = re.compile(r"^\s*/(?:quit|exit|q)\s*$", re.I)
# How many turns from the end a leave command is looked for (it is followed only by the client's exit summary).
_LEAVE_TURNS = 4


def notice_line(line: str) -> bool:
    """Whether a line opens the client's notice that the model call failed."""
    return bool(_NOTICE.match(line))


def _paragraphs(text: str) -> List[str]:
    return [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()]


def only_failure(text: str) -> bool:
    """A reply that is nothing but the client's failure notice: it answered nothing."""
    blocks = _paragraphs(text)
    return bool(blocks) and notice_line(blocks[0].split("\n", 1)[0]) and len(text) < _NOTICE_CHARS


def ends_on_failure(text: str) -> Tuple[str, str]:
    """(the notice's first line, the reply's last sentence of its own before it) when the reply ends on the
    client's failure notice after work of its own; ("", "") otherwise."""
    lines = text.rstrip().split("\n")
    for back in range(1, min(len(lines), _NOTICE_LINES) + 1):
        line = lines[-back]
        if not line.strip():
            break  # the notice is the reply's last paragraph: a paragraph after it is the reply going on
        if notice_line(line):
            # The reply's own words before the notice (a tool's drawn box is not), its last two paragraphs:
            # where it said what it was about to do.
            own = "\n".join(kept for kept in lines[:-back] if not kept.lstrip().startswith(_BOX))
            kept = [block.lstrip("✦•● ") for block in _paragraphs(own)]
            said = " ".join(kept[-1].split()) if kept else ""
            if len(kept) > 1 and len(said) + len(kept[-2]) < _SAID_CHARS:  # "First, let me read it." says little
                said = " ".join(kept[-2].split()) + " " + said
            said = said[:_SAID_CHARS]
            return line.strip(), said
    return "", ""


def before_notice(text: str) -> str:
    """The reply's text without the failure notice it ends on (the notice's "please check your plan" is the
    client's, not a task the agent handed over)."""
    lines = text.rstrip().split("\n")
    for back in range(1, min(len(lines), _NOTICE_LINES) + 1):
        if not lines[-back].strip():
            break
        if notice_line(lines[-back]):
            return "\n".join(lines[:-back])
    return text


def last_reply(turns: Sequence[Turn]) -> int:
    """The index of the session's last assistant turn, not counting what the client printed after the user
    left it (`/quit` and its exit summary); -1 when none."""
    end = len(turns)
    for index in range(len(turns) - 1, max(-1, len(turns) - 1 - _LEAVE_TURNS), -1):  # a leave ends the session
        if turns[index].role == "user" and _LEAVE.match(turns[index].text):
            end = index
    for index in range(end - 1, -1, -1):
        if turns[index].role == "assistant" and turns[index].text.strip():
            return index
    return -1


def unanswered_asks(turns: Sequence[Turn], ask_of: Callable[[str], str]) -> List[str]:
    """The user's asks at the end of the session whose every reply was only a failure notice, oldest first; an
    ask the user sent again is listed once (its newest wording). `ask_of(text)` is the ask in a user turn."""
    last = last_reply(turns)
    if last < 0 or not only_failure(turns[last].text):
        return []
    asks: List[str] = []
    for index in range(last, -1, -1):
        turn = turns[index]
        if turn.role == "assistant":
            if turn.text.strip() and not only_failure(turn.text):
                break
            continue
        ask = ask_of(turn.text)
        if ask and not any(_same_ask(ask, newer) for newer in asks):
            asks.append(ask)
    return asks[::-1]


def _same_ask(older: str, newer: str) -> bool:
    """An ask sent again, perhaps with a few words put in front ("no need to read the pdf, so …")."""
    a, b = " ".join(older.split()), " ".join(newer.split())
    shorter, longer = sorted((a, b), key=len)
    return bool(shorter) and shorter[len(shorter) // 3:] in longer


def cut_off_work(turns: Sequence[Turn]) -> Optional[Tuple[str, str]]:
    """(the notice, the last thing the reply said it was doing) when the session's last reply did work of its own
    and then ended on the client's failure notice: that work stopped where the notice is."""
    last = last_reply(turns)
    if last < 0 or only_failure(turns[last].text):
        return None
    notice, before = ends_on_failure(turns[last].text)
    return (notice, before) if notice else None


# A reply longer than this is more than a notice (a notice quotes the API's JSON answer, a few hundred characters).
_NOTICE_CHARS = 1200
# How many of a reply's last lines a notice may span (a quota notice wraps over several).
_NOTICE_LINES = 12
_SAID_CHARS = 160
# The frame a terminal client draws around a tool call.
_BOX = ("╭", "│", "╰", "⎿", "└", "┌", "┃")


def open_items(turns: Sequence[Turn], ask_of: Callable[[str], str],
               phrase_of: Callable[..., str]) -> Tuple[List[str], List[str]]:
    """(questions, next steps) the failed replies at the end leave open, in the session's language
    (`phrase_of(key, **values)`): each ask no reply answered, and the work the last reply was doing when cut off."""
    last = last_reply(turns)
    if last < 0:
        return [], []
    if only_failure(turns[last].text):
        notice = _short_notice(turns[last].text)
        asks = unanswered_asks(turns, ask_of)[-_ASKS_SHOWN:]
        # The newest ask carries the notice; the older ones only say they wait (the notice is the same).
        return [phrase_of("reply_pending", text=_cut(ask, older=True)) for ask in asks[:-1]] + [
            phrase_of("open.no_answer", notice=notice, text=_cut(ask)) for ask in asks[-1:]], []
    cut = cut_off_work(turns)
    if cut and cut[1]:
        return [], [phrase_of("open.cut_off", notice=_short_notice(cut[0]), text=cut[1])]
    return [], []


def _short_notice(text: str) -> str:
    """The notice's head: what failed, without the request ids and JSON around it."""
    line = " ".join(text.strip().split("\n", 1)[0].strip(" ✕✗×■[]").split())
    # "API Error: 400 {"error":{…,"message":"…"}}": the status and the API's message, not its JSON.
    message = re.search(r'"message"\s*:\s*"([^"]{3,})', line)
    if "{" in line and message:
        line = line.split("{", 1)[0].strip() + " " + re.sub(r"\s*\(request id: [^)]*\)", "", message.group(1))
    return line[:_NOTICE_SHOWN] + ("…" if len(line) > _NOTICE_SHOWN else "")


def _cut(text: str, older: bool = False) -> str:
    """A long ask cut in its middle: its opening says what it is about, its end holds the question itself (an
    older ask, which the newest one followed up, is cut shorter)."""
    flat = " ".join(text.split())
    wide = sum(1 for char in flat if ord(char) > 0x2E80)
    limit = _ASK_SHOWN_WIDE if wide * 3 > len(flat) else _ASK_SHOWN  # a Chinese character is half a word
    limit = limit * 2 // 3 if older else limit
    if len(flat) <= limit:
        return flat
    return flat[:limit // 2].rstrip() + " … " + flat[-(limit // 2):].lstrip()


_NOTICE_SHOWN = 60
_ASK_SHOWN = 220
_ASK_SHOWN_WIDE = 90
# Asks listed: the newest only (the user asks again what went unanswered; the words go to other sections).
_ASKS_SHOWN = 1
