"""Files a session that works with git changed after its last commit and never committed, reverted or showed in
a later `git status`: in a session whose agent commits (or reverts with git), what it left uncommitted at the end.

It reads the typed tool calls only (edits, and the git commands that ran and what they printed), never wording.
"""

import re
from typing import Dict, List, Optional, Sequence

from . import extraction as ex
from .formats import EDIT, EXTERNAL, RUN
from .transcript import TurnParts

_COMMIT = re.compile(r"\bgit\b(?:\s+-\S+(?:\s+\S+)?)*\s+commit\b")
# A commit shown by the tool that made it: git's "[main 0dc6ae4] message", aider's "Commit 0dc6ae4 message".
_COMMITTED = re.compile(r"^\s*(?:>\s*)?(?:\[[\w./-]+(?: \(root-commit\))? [0-9a-f]{7,40}\]|Commit [0-9a-f]{7,40}) ")
# `git checkout -- a b`, `git restore a`, `git checkout a`: the named files are back at their committed state.
_REVERT_FILES = re.compile(r"\bgit\s+(?:checkout(?:\s+HEAD)?(?:\s+--)?|restore(?:\s+--\S+)*(?:\s+--)?)\s+([^&|;()]+)")
# `git reset --hard`, `git stash`, `git checkout .`: every change is taken back.
_REVERT_ALL = re.compile(r"\bgit\s+(?:reset\s+--hard|stash(?:\s+(?:push|save))?\s*(?:$|[&|;])"
                         r"|checkout\s+(?:--\s+)?\.\s*(?:$|[&|;])|restore\s+\.)")
_STATUS = re.compile(r"\bgit\s+status\b")
# An acting tool that commits or pushes files for the agent (an MCP `push_files`, `create_or_update_file`).
_ACTING_COMMIT = re.compile(r"(?i)push_files|create_or_update_file|commit")


def _name(path: str) -> str:
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def _failed(output: Sequence[str]) -> bool:
    return any(ex.is_error_line(line) for line in output[:20])


def left_uncommitted(parts: Sequence[Optional[TurnParts]]) -> List[str]:
    """The files edited after the session's last commit, in the order they were first edited then; empty when
    the session never committed nor reverted with git, or a `git status` ran after the last edit (it says more)."""
    pending: Dict[str, str] = {}  # file name -> the path as the edit named it
    committed = reverted = False
    status_after = False
    for turn_parts in parts:
        if turn_parts is None:
            continue
        for call in turn_parts.calls:
            if call.kind == EDIT and call.text:
                pending.setdefault(_name(call.text), call.text)
                status_after = False
            elif call.kind == RUN and "git" in call.text:
                if _COMMIT.search(call.text) and not _failed(call.output):
                    pending, committed = {}, True
                elif _REVERT_ALL.search(call.text) and not _failed(call.output):
                    pending, reverted = {}, True
                else:
                    files = _REVERT_FILES.search(call.text)
                    if files and not _failed(call.output):
                        reverted = True
                        for word in files.group(1).split():
                            pending.pop(_name(word.strip("'\"`")), None)
                if _STATUS.search(call.text):
                    status_after = True
            elif call.kind == EXTERNAL and _ACTING_COMMIT.search(call.text) and not _failed(call.output):
                pending, committed = {}, True
            if any("ommit" in line and _COMMITTED.match(line) for line in call.output[:8]):
                pending, committed = {}, True
        if turn_parts.commit_of:  # aider commits the turn's edits itself
            pending, committed = {}, True
    if not (committed or reverted) or status_after:
        return []
    return list(pending.values())
