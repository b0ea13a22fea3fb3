"""Writes the transcripts this repository may not commit into bench/.data/session_corpus/, checked by sha256.

    SUMMARIZER_BENCH_SESSIONS=/path/to/sources python bench/session_corpus/materialize.py

The folder holds the source repositories, one per `owner+name` sub-folder, each either a git
directory (bare, like the `fetch` mirrors: `<owner+name>/repo`) or a work tree with `.git`. For every
session whose transcript is not committed, the file is read at the recorded commit and path (and
line range), and written only if its sha256 is the recorded one. Nothing is fetched over the network.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from session_facts import COMMITTED, MATERIALIZED, load_facts, sha256_text  # type: ignore[import-not-found]


def _git_dir(root: Path, repo: str) -> Optional[Path]:
    folder = root / repo.replace("/", "+")
    for candidate in (folder / "repo", folder / ".git", folder):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def cut(text: str, lines: Any) -> str:
    """Lines [first, last] (1-based, inclusive) of `text`, or all of it."""
    if not lines:
        return text
    first, last = lines
    return "\n".join(text.split("\n")[first - 1:last]) + "\n"


def source_text(root: Path, session: Dict[str, Any]) -> Optional[str]:
    source = session["source"]
    git_dir = _git_dir(root, source["repo"])
    if git_dir is None:
        return None
    shown = subprocess.run(["git", "--git-dir", str(git_dir), "show", source["commit"] + ":" + source["path"]],
                           capture_output=True, check=False)
    if shown.returncode != 0:
        return None
    return cut(shown.stdout.decode("utf-8"), source.get("lines"))


def main() -> int:
    folder = os.environ.get("SUMMARIZER_BENCH_SESSIONS", "")
    if not folder:
        print("Set SUMMARIZER_BENCH_SESSIONS to the folder that holds the source repositories (see the docstring).")
        return 2
    root = Path(folder).expanduser()
    MATERIALIZED.mkdir(parents=True, exist_ok=True)
    written = missing = 0
    for session in load_facts():
        name = session["id"] + session.get("ext", ".md")
        if (COMMITTED / name).is_file():
            continue
        text = source_text(root, session)
        if text is None:
            print(f"missing: {session['id']} ({session['source']['repo']} @ {session['source']['commit'][:10]} "
                  f"{session['source']['path']})")
            missing += 1
            continue
        if sha256_text(text) != session["source"]["sha256"]:
            print(f"sha256 differs, not written: {session['id']}")
            missing += 1
            continue
        (MATERIALIZED / name).write_bytes(text.encode("utf-8"))
        written += 1
    print(f"{written} transcripts written to {MATERIALIZED}, {missing} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
