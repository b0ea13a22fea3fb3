"""Turns real transcripts (aider, SpecStory, Claude Code and Codex terminal text) into `session/get` answers.

Agentty hands the summarizer a list of user and assistant turns. Committed transcripts are one text
file each; this splits them at the user's messages the way each tool writes them, and leaves the
assistant's part as the tool printed it (tool calls, outputs, diffs and all).
"""

import json
import re
from pathlib import Path
from typing import Any, Dict, List

CORPUS = Path(__file__).resolve().parent / "corpus"


def _flush(turns: List[Dict[str, str]], role: str, lines: List[str]) -> None:
    text = "\n".join(lines).strip()
    if text:
        turns.append({"role": role, "text": text})


def aider_turns(text: str) -> List[Dict[str, str]]:
    """aider's .aider.chat.history.md: `#### ` lines are the user's, the rest is the reply and tool output."""
    turns: List[Dict[str, str]] = []
    role, lines = "assistant", []  # what comes before the first ask is aider's start-up output
    for line in text.split("\n"):
        if line.startswith("# aider chat started at"):
            continue
        is_user = line.startswith("####")
        if is_user != (role == "user"):
            _flush(turns, role, lines)
            role, lines = ("user" if is_user else "assistant"), []
        lines.append(line[5:] if is_user else line)
    _flush(turns, role, lines)
    while turns and turns[0]["role"] != "user":
        turns.pop(0)
    return turns


_SPECSTORY_ROLE = re.compile(r"^_\*\*(User|Assistant)\*\*_\s*$")


def specstory_turns(text: str) -> List[Dict[str, str]]:
    """SpecStory exports: `_**User**_` / `_**Assistant**_` lines open each turn, `---` lines close them."""
    turns: List[Dict[str, str]] = []
    role, lines = "", []
    for line in text.split("\n"):
        found = _SPECSTORY_ROLE.match(line.strip())
        if found:
            if role:
                _flush(turns, role, lines)
            role, lines = found.group(1).lower(), []
        elif role and line.strip() != "---":
            lines.append(line)
    if role:
        _flush(turns, role, lines)
    return turns


def prompt_turns(text: str, prompt: str) -> List[Dict[str, str]]:
    """Terminal transcripts (Claude Code `> `, Codex `› `): a line starting with the prompt mark is the user's.

    Indented continuation lines right after a prompt line belong to the same ask.
    """
    turns: List[Dict[str, str]] = []
    role, lines = "", []
    for line in text.split("\n"):
        if line.startswith(prompt):
            if role != "user":
                if role:
                    _flush(turns, role, lines)
                role, lines = "user", []
            lines.append(line[len(prompt):])
        elif role == "user" and (line.startswith("  ") or not line.strip()):
            lines.append(line.strip())  # the ask goes on, indented, blank lines and all
        else:
            if role != "assistant":
                if role:
                    _flush(turns, role, lines)
                role, lines = "assistant", []
            lines.append(line)
    if role:
        _flush(turns, role, lines)
    return turns


PARSERS = {
    "aider": aider_turns,
    "specstory": specstory_turns,
    "claude-code": lambda text: prompt_turns(text, "> "),
    "codex": lambda text: prompt_turns(text, "› "),
}


def load_cases() -> List[Dict[str, Any]]:
    cases = json.loads((CORPUS / "cases.json").read_text(encoding="utf-8"))
    for case in cases:
        text = (CORPUS / case["file"]).read_text(encoding="utf-8")
        turns = PARSERS[case["format"]](text)
        case["session"] = {"paneId": 11, "agent": case.get("agent", "claude"), "sessionId": case["id"],
                           "title": case["id"], "cwd": "", "status": "idle", "turnCount": len(turns),
                           "turns": turns}
    return cases
