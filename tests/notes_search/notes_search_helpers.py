"""Helpers shared by the notes-search tests (a uniquely named module, so it never clashes with the
conftest.py of another test folder): the plugin folder on sys.path, and note writers."""

import os
import sys
from pathlib import Path

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "notes-search"
if str(PLUGIN_DIR) not in sys.path:
    sys.path.insert(0, str(PLUGIN_DIR))


ENGINES = ("sqlite", "whoosh")

# Filler notes give the corpus realistic word statistics, so BM25's inverse document frequency is
# meaningful for the crafted notes (with two documents every common word would score zero).
FILLER_WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
    "november",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
    "uniform",
    "victor",
    "whiskey",
    "xray",
    "yankee",
    "zulu",
]


def write_note(root: Path, relative: str, text: str, mtime: float = 0.0) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if mtime:
        os.utime(path, (mtime, mtime))
    return path


def add_filler(root: Path, count: int = 12) -> None:
    for index in range(count):
        words = " ".join(FILLER_WORDS[(index + k) % len(FILLER_WORDS)] for k in range(40))
        write_note(root, f"filler/filler-{index:02d}.md", f"# Filler {index}\n\n{words}\n", mtime=1_000_000 + index)


def write_broad_notes(root: Path) -> None:
    """An old note with "planning" in its title, an older one with "plans" in its body only, and 30
    newer notes with "plans"/"plan" in their bodies: for the windows of recently indexed matches."""
    write_note(root, "a-old.md", "# Planning old\n\nplanning in the title of the oldest note\n", mtime=1000)
    write_note(root, "a-older.md", "# Old body\n\nan old note that only plans in its body\n", mtime=900)
    for index in range(30):
        write_note(root, f"b-{index:02d}.md", f"# Body {index}\n\nsome plans and a plan {index}\n", mtime=2000 + index)


def titles(outcome: object) -> list:
    return [item.record.title for item in outcome.items]  # type: ignore[attr-defined]


def sqlite_library(tmp_path: Path, root: Path):  # -> NotesLibrary (imported late: sys.path is set above)
    """A library over the notes in `root` with the FTS5 engine, its data in tmp_path/data."""
    from notes_search.library import NotesLibrary
    from notes_search.settings import Settings

    return NotesLibrary(str(tmp_path / "data"), Settings(roots=(str(root),), engine="sqlite"))
