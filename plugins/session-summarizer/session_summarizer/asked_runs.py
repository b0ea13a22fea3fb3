"""Commands the user tells the agent to run, in a chat export that shows no tool calls (a Copilot chat copied
from VS Code): "Start by running "uv run main.py"", "use 'uv run coverage' to check", "uv add plotly is the way
to add plotly", "`npm test` を実行して", "运行 `npm run build`", "`npm test` 실행해 줘".

In agent mode the agent runs what it is told; the export hides the call. The command counts as run when the
agent's next reply answers without handing it back ("you can run …") or turning it down ("I can't run …").
"""

import re
from typing import List, Optional, Sequence

from . import cues
from . import extraction as ex
from .session import Turn

# A quoted span; an apostrophe inside a word ("don't") opens no quote.
_QUOTED = re.compile(r"(?<![A-Za-z])[\"'`“‘「]([^\"'`”’」\n]{3,120})[\"'`”’」](?![A-Za-z])")
# The sentence tells the agent to run it, in the languages the rules read.
_RUN_CUE = re.compile(r"(?i)\b(?:run|running|execute|executing|use|using|try|launch|start with)\b"
                      r"|実行|走らせ|运行|执行|跑一下|실행|запусти|выполни|ejecuta|corre|execute|rode")
# A bare command that opens the sentence and is named as the way to do something: "uv add plotly is the way to
# add plotly", "npm ci to install".
_LEADING = re.compile(r"^((?:\S+ ){1,4}?\S+) (?:is the way|is how|to (?:add|install|run|execute|start|build|test))\b")
_LEADING_CUE = re.compile(r"\bis the way\b|\bis how\b|\bto (?:add|install|run|execute|start|build|test)\b")
# The reply turns the run down or hands it back.
_REFUSED = re.compile(r"(?i)\b(?:i (?:can(?:no|')t|am unable to|am not able to) (?:run|execute)|you can run"
                      r"|run (?:it|this|the following) (?:yourself|in your terminal))\b"
                      r"|実行できません|无法(?:运行|执行)|不能(?:运行|执行)|실행할 수 없")


# "don't use 'uv pip …'", "instead of `npm i`", "never run …": the command named is the one not to run.
_NEGATED = re.compile(r"(?i)\b(?:don'?t|do not|never|not|avoid|stop|instead of|rather than)\b|しないで|不要|别|하지 마")
# A line a tool printed and the user pasted ("hint: use 'git pull' before pushing again."): not the user's words.
_PRINTED = re.compile(r"(?i)^\s*(?:hint|error|warning|fatal|note|remote|info|npm (?:err!|warn))\b\s*[:!]")


def _named(ask: str) -> List[str]:
    """Commands an ask tells the agent to run."""
    found: List[str] = []
    for sentence in ex.sentences(ex.split_code(ask)[0]):
        if _PRINTED.match(sentence) or _NEGATED.search(sentence):
            continue
        spans = [span.strip() for span in _QUOTED.findall(sentence)
                 if " " in span.strip() and "..." not in span and "…" not in span and ex.is_command_line(span.strip())]
        if spans and _RUN_CUE.search(_QUOTED.sub(" ", sentence)):  # the cue is the user's, not the command's
            found.extend(spans)
            continue
        leading = _LEADING.match(sentence.strip().strip("`"))
        if leading and ex.is_command_line(leading.group(1)):
            found.append(leading.group(1))
    return found


def _reply_after(turns: Sequence[Turn], index: int) -> Optional[str]:
    for turn in turns[index + 1:]:
        if turn.role == "assistant" and turn.text.strip():
            return turn.text
        if turn.role == "user" and turn.text.strip():
            return None
    return None


def asked_runs(turns: Sequence[Turn]) -> List[str]:
    """Commands the user told the agent to run that the agent's next reply answered without handing back."""
    found: List[str] = []
    for index, turn in enumerate(turns):
        head = turn.text[:2000]
        if turn.role != "user" or not (_RUN_CUE.search(head) or _LEADING_CUE.search(head)):
            continue
        named = _named(head)
        if not named:
            continue
        reply = _reply_after(turns, index)
        if reply is None or _REFUSED.search(reply[:1500]):
            continue
        opening = next(iter(ex.sentences(ex.split_code(reply)[0])), "")
        if ex.is_question(opening) or cues.is_user_task(opening):
            continue  # "Shall I run it?", "You need to run … yourself": not run
        found.extend(command for command in named if command not in found)
    return found
