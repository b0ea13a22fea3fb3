"""Who changed what, as a hint: the files an agent's session says it edited, matched to a worktree's changed files."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Set, Tuple

from .worktrees import PaneTag, WorktreeReport, WorktreeState

# A line counts as "editing" a path only when it also says so. Claude Code's tool lines
# ("Update(src/a.py)", "Write(...)"), Codex's patch headers ("*** Update File: a.py") and prose
# ("I fixed src/a.py") all do; "Read(src/a.py)" or "see src/a.py" do not.
_EDIT_WORDS = re.compile(
    r"\b(?:edit(?:s|ed|ing)?|updat(?:e|es|ed|ing)|writ(?:e|es|ing|ten)|wrote|creat(?:e|es|ed|ing)|"
    r"modif(?:y|ies|ied|ying)|chang(?:e|es|ed|ing)|fix(?:es|ed|ing)?|add(?:s|ed|ing)?|replac(?:e|es|ed|ing)|"
    r"renam(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|remov(?:e|es|ed|ing)|refactor(?:s|ed|ing)?|patch(?:es|ed|ing)?|"
    r"rewr(?:ite|ites|ote|itten|iting)|implement(?:s|ed|ing)?|insert(?:s|ed|ing)?|apply_patch|multiedit)\b"
    r"|修正|変更|編集|追加|作成|更新|削除|書き換|수정|변경|편집|추가|작성|생성|삭제|修改|编辑|添加|创建|删除|改动",
    re.IGNORECASE)
# Path-shaped tokens. ASCII-only as well as any-character tokens: in Japanese or Chinese prose a
# path is glued to the words around it ("src/app.pyを修正").
_TOKEN = re.compile(r"[^\s`'\"()\[\]{}<>,;|*]+")
_ASCII_TOKEN = re.compile(r"[A-Za-z0-9_./@+~\-]+")
_WIDE = re.compile("[\u2e80-\uffff]")  # CJK and the like: only then are paths glued to words
_LINE_NUMBER = re.compile(r":\d+(?::\d+)?$")
MAX_TURNS = 200
MAX_TEXT_CHARS = 400_000  # per session: a huge pasted log must not cost seconds


@dataclass
class SessionResult:
    """What reading one pane's session gave: its text, or why not."""

    pane_id: Any
    kind: str
    state: str  # ok | refused | timeout | no-session | error
    cwd: Optional[str] = None
    turns: List[Mapping[str, Any]] = field(default_factory=list)
    _mentions: Optional[List[str]] = None  # worked out once: a cached session is matched on every refresh

    @property
    def mentions(self) -> List[str]:
        if self._mentions is None:
            self._mentions = list(dict.fromkeys(edited_mentions(self.turns)))  # each once: resolving costs
        return self._mentions


@dataclass
class Attribution:
    """Tags per (worktree path, repo-relative file) and whether reading sessions worked."""

    tags: Dict[Tuple[str, str], List[PaneTag]] = field(default_factory=dict)
    state: str = "ok"  # ok | refused | timeout | error | none (no agent panes)
    ignored_outside: int = 0  # mentions of paths outside the repository, skipped

    def for_file(self, worktree_path: str, path: str) -> List[PaneTag]:
        return self.tags.get((worktree_path, path), [])


def _candidates(token: str) -> Iterable[str]:
    token = _LINE_NUMBER.sub("", token.rstrip(".:"))
    if not token or ("/" not in token and "." not in token):
        return []
    forms = [token]
    if token.startswith("./"):
        forms.append(token[2:])
    if token[:2] in ("a/", "b/"):
        forms.append(token[2:])  # diff headers
    return forms


def edited_mentions(turns: Iterable[Mapping[str, Any]]) -> List[str]:
    """Path-shaped tokens on lines of the agent's own turns that say something was edited."""
    found: List[str] = []
    budget = MAX_TEXT_CHARS
    for turn in turns:
        if not isinstance(turn, Mapping) or turn.get("role") != "assistant":
            continue
        text = turn.get("text")
        if not isinstance(text, str) or budget <= 0:
            continue
        text = text[:budget]
        budget -= len(text)
        for line in text.splitlines():
            if not _EDIT_WORDS.search(line):
                continue
            tokens: Set[str] = set(_ASCII_TOKEN.findall(line))
            if not line.isascii() and _WIDE.search(line):
                tokens.update(_TOKEN.findall(line))
            for token in tokens:
                if "/" in token or "." in token:  # only these can name a file; most words are skipped here
                    found.extend(_candidates(token))
    return found


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def attribute(report: WorktreeReport, sessions: Iterable[SessionResult]) -> Attribution:
    """Matches each session's edited paths against the changed files of the worktrees of this repository."""
    result = Attribution(state="none")
    states: Set[str] = set()
    roots: List[Tuple[str, WorktreeState]] = []
    for worktree in report.worktrees:
        if worktree.state == "ok":
            for form in {os.path.normpath(worktree.path), os.path.realpath(worktree.path)}:
                roots.append((form, worktree))
    for session in sessions:
        states.add(session.state)
        if session.state != "ok":
            continue
        home = report.worktree_for(session.cwd)
        # Where the pane works, relative to its worktree: computed once, then every mention is
        # resolved with string operations (a session can name thousands of paths).
        below = os.path.relpath(os.path.realpath(session.cwd), os.path.realpath(home.path)) \
            if home is not None and session.cwd else None
        tag = PaneTag(session.pane_id, session.kind, "")
        for mention in session.mentions:
            target = _resolve(mention, below, home, roots)
            if target is None:
                if os.path.isabs(mention) or mention.startswith("~/"):
                    result.ignored_outside += 1
                continue
            worktree, relative = target
            if relative not in worktree.changed_paths:
                continue  # mentioned, but git says it is not changed there: git wins
            tags = result.tags.setdefault((worktree.path, relative), [])
            if all(t.pane_id != tag.pane_id for t in tags):
                tags.append(tag)
    for state in ("refused", "timeout", "error"):
        if state in states:
            result.state = state
            break
    else:
        result.state = "ok" if "ok" in states else "none"
    return result


def _resolve(mention: str, below: Optional[str], home: Optional[WorktreeState],
             roots: List[Tuple[str, WorktreeState]]) -> Optional[Tuple[WorktreeState, str]]:
    """(worktree, path relative to it) for a mention, or None when it is outside this repository."""
    if mention.startswith("~/"):
        mention = os.path.expanduser(mention)
    if os.path.isabs(mention):
        absolute = os.path.normpath(mention)
        best = max((r for r in roots if _inside(absolute, r[0])), key=lambda r: len(r[0]), default=None)
        if best is None:
            return None
        return best[1], os.path.relpath(absolute, best[0]).replace(os.sep, "/")
    if home is None:
        return None
    if below is not None and below != ".":
        joined = os.path.normpath(os.path.join(below, mention)).replace(os.sep, "/")
        if not joined.startswith("../") and joined in home.changed_paths:
            return home, joined
    # Agents often name files from the repository root even when working in a subfolder.
    normalized = os.path.normpath(mention).replace(os.sep, "/")
    if normalized.startswith("../") or normalized == "..":
        return None
    return home, normalized
