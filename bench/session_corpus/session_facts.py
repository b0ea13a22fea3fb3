"""The real-session corpus: each session's facts file, its transcript (committed or materialized), its half.

A session is `facts/<id>.json` (source, agent, language, split, facts, traps; see README.md). Its
transcript is `transcripts/<id>.<ext>` when the source's licence lets us commit it, else the file
`materialize.py` wrote to `bench/.data/session_corpus/<id>.<ext>` from a folder you pass in. Either
way its sha256 must match the one recorded, so a summary is always scored on the text the facts were
written for.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from session_formats import split_turns  # type: ignore[import-not-found]

HERE = Path(__file__).resolve().parent
FACTS = HERE / "facts"
COMMITTED = HERE / "transcripts"
MATERIALIZED = HERE.parent / ".data" / "session_corpus"
SPLITS = ("dev", "heldout")


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def split_rank(session_id: str) -> str:
    """The hash that orders sessions when the split is drawn (see README.md, "The split")."""
    return hashlib.sha256(("summarizer-split-v1:" + session_id).encode("utf-8")).hexdigest()


def load_facts(folder: Path = FACTS) -> List[Dict[str, Any]]:
    sessions = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("id") != path.stem:
            raise ValueError(f"{path.name}: its id is {data.get('id')!r}, not the file's name")
        sessions.append(data)
    return sessions


def transcript_path(session: Dict[str, Any]) -> Optional[Path]:
    """Where the session's transcript is on this machine (committed first), or None."""
    name = session["id"] + session.get("ext", ".md")
    for folder in (COMMITTED, Path(os.environ.get("SUMMARIZER_BENCH_DATA", str(MATERIALIZED)))):
        if (folder / name).is_file():
            return folder / name
    return None


def read_transcript(session: Dict[str, Any]) -> Tuple[Optional[str], str]:
    """(text, "") when the transcript is here and matches its recorded sha256, else (None, why not)."""
    path = transcript_path(session)
    if path is None:
        return None, "not committed and not materialized (run bench/session_corpus/materialize.py)"
    text = path.read_bytes().decode("utf-8")  # as written: no newline translation (some exports use CRLF)
    if sha256_text(text) != session["source"]["sha256"]:
        return None, f"{path} does not match the recorded sha256"
    return text, ""


def as_session(session: Dict[str, Any], text: str) -> Dict[str, Any]:
    """The `session/get` answer the host would send for this transcript (no cwd: no git check)."""
    turns = split_turns(text, session["format"], **session.get("format_options", {}))
    return {"paneId": 11, "agent": session["agent"], "sessionId": session["id"], "title": session["id"],
            "cwd": "", "status": "idle", "turnCount": len(turns), "turns": turns}


def in_half(session: Dict[str, Any], split: str) -> bool:
    """Whether `session` is scored in the `split` run ("dev", "heldout" or "all")."""
    # A validation draw (misses_hidden) is scored with the development half, its misses unprinted, even while
    # it is still marked held out: that lasts only until a fresh held-out draw replaces it.
    if split == "dev" and session.get("misses_hidden"):
        return True
    return split == "all" or session["split"] == split


def load(split: str = "heldout") -> Tuple[List[Dict[str, Any]], List[Tuple[str, str]]]:
    """(sessions of `split` ("dev", "heldout" or "all") with their `session/get` answer, skipped (id, why))."""
    ready, skipped = [], []
    for session in load_facts():
        if not in_half(session, split):
            continue
        if not any(session["facts"].values()):
            skipped.append((session["id"], "facts not written yet (the summarizer must not read it before)"))
            continue
        text, why = read_transcript(session)
        if text is None:
            skipped.append((session["id"], why))
            continue
        ready.append(dict(session, session=as_session(session, text)))
    return ready, skipped
