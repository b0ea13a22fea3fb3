"""Adds a session to the corpus: records its source and sha256, draws its half, writes a facts skeleton.

    python bench/session_corpus/add_session.py ID GIT_DIR COMMIT PATH FORMAT AGENT LANGUAGE LICENCE \
        [--lines FIRST:LAST] [--ext .md] [--commit-transcript]

`--commit-transcript` copies the transcript into transcripts/ (only for a licence that allows it);
otherwise it goes to bench/.data/session_corpus/ like materialize.py would write it. The half is drawn
once, when the session is added, and never changes (see README.md, "The split").
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
from materialize import cut  # type: ignore[import-not-found]
from session_facts import COMMITTED, FACTS, MATERIALIZED, as_session, load_facts, sha256_text, split_rank  # type: ignore[import-not-found]
from session_scoring import SECTIONS  # type: ignore[import-not-found]


def draw_split(session_id: str, agent: str, language: str, existing: List[Dict[str, Any]]) -> str:
    """The half with fewer sessions of this agent; then of this language; then the id's hash decides."""
    for key, value in (("agent", agent), ("language", language)):
        counts = {split: sum(1 for s in existing if s[key] == value and s["split"] == split)
                  for split in ("dev", "heldout")}
        if counts["dev"] != counts["heldout"]:
            return "dev" if counts["dev"] < counts["heldout"] else "heldout"
    return "dev" if int(split_rank(session_id)[:8], 16) % 2 == 0 else "heldout"


def main() -> int:
    parser = argparse.ArgumentParser()
    for name in ("id", "git_dir", "commit", "path", "format", "agent", "language", "licence"):
        parser.add_argument(name)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--lines", default="")
    parser.add_argument("--ext", default=".md")
    parser.add_argument("--commit-transcript", action="store_true")
    parser.add_argument("--split", choices=("draw", "dev", "heldout"), default="heldout",
                        help="heldout (default: the second draw holds out every new session), dev, or draw "
                             "(the first draw's balancing rule)")
    parser.add_argument("--user", default="", help="the user's login (copilot-copy) or label line (labelled)")
    parser.add_argument("--assistant", default="", help="the assistant's label line (labelled)")
    args = parser.parse_args()
    target = FACTS / (args.id + ".json")
    if target.exists():
        print(f"{target} exists")
        return 1
    raw = subprocess.run(["git", "--git-dir", args.git_dir, "show", args.commit + ":" + args.path], capture_output=True,
                         check=True).stdout.decode("utf-8")
    lines = [int(part) for part in args.lines.split(":")] if args.lines else None
    text = cut(raw, lines)
    folder = COMMITTED if args.commit_transcript else MATERIALIZED
    folder.mkdir(parents=True, exist_ok=True)
    (folder / (args.id + args.ext)).write_bytes(text.encode("utf-8"))
    existing = load_facts()
    source: Dict[str, Any] = {"repo": args.repo, "commit": args.commit, "path": args.path, "licence": args.licence,
                              "sha256": sha256_text(text)}
    if lines:
        source["lines"] = lines
    session: Dict[str, Any] = {"id": args.id, "source": source, "agent": args.agent, "format": args.format,
                               "language": args.language, "ext": args.ext,
                               "split": draw_split(args.id, args.agent, args.language, existing)
                               if args.split == "draw" else args.split}
    if args.user:
        session["format_options"] = {"user": args.user}
    if args.assistant:
        session["format_options"]["assistant"] = args.assistant
    session["turns"] = len(as_session(session, text)["turns"])
    session.update({"ends": "", "facts": {section: [] for section in SECTIONS}, "traps": []})
    target.write_text(json.dumps(session, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{args.id}: {session['turns']} turns, {session['split']}, {len(text):,} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
