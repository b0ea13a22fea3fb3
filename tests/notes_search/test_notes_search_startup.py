"""Start-up: what the first panel imports (the index, its engines and the note readers come after it, on the worker)."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

from notes_search_helpers import PLUGIN_DIR, write_note

# Modules the first panel ("Opening the notes index…", the folders, the engine choice) does not need
# and that cost it most: together they made its first panel 2.3x the minimal plugin's (bench_runtime
# "First panel" table).
DEFERRED = (
    "dataclasses",
    "shutil",
    "sqlite3",
    "whoosh",
    "notes_search.library",
    "notes_search.engines",
    "notes_search.engines.sqlite_fts",
    "notes_search.engines.whoosh_engine",
    "notes_search.indexer",
    "notes_search.watcher",
    "notes_search.fuzzy",
    "notes_search.snippets",
    "notes_search.ranking",
    "notes_search.related",
    "notes_search.query",
    "notes_search.tokens",
    "notes_search.notes",
    "notes_search.markdown",
    "notes_search.frontmatter",
    "notes_search.safety",
    "notes_search.prompts",
)

# main.py as Agentty runs it, but with activation and panel/open called directly: the modules loaded
# when the first panel is handed to the runtime, and that panel's texts.
PROBE = """
import json, runpy, sys
names = runpy.run_path("main.py", run_name="probe")  # everything but plugin.run()
app, seen = names["app"], {}

def first_panel(tree):
    if not seen:
        seen["modules"] = sorted(sys.modules)
        seen["tree"] = tree

app.plugin.set_panel = first_panel
app.activate(sys.argv[1])
app.panel_opened()
app.shutdown()
print(json.dumps(seen))
"""


def first_panel(tmp_path: Path) -> Dict[str, object]:
    notes = tmp_path / "notes"
    write_note(notes, "a.md", "# A note\n\nwords\n")
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"roots": [str(notes)]}))
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(data)],
        cwd=str(PLUGIN_DIR),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    result: Dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_first_panel_imports_none_of_the_index_modules(tmp_path: Path) -> None:
    seen = first_panel(tmp_path)
    modules: List[str] = seen["modules"]  # type: ignore[assignment]
    assert "notes_search.app" in modules and "notes_search.view" in modules  # the probe did run main.py
    assert sorted(name for name in DEFERRED if name in modules) == []


def test_the_first_panel_says_the_index_is_opening_and_shows_the_folders(tmp_path: Path) -> None:
    shown = json.dumps(first_panel(tmp_path)["tree"], ensure_ascii=False)
    assert "Opening the notes index" in shown  # not "0 notes": nothing is counted yet
    assert str(tmp_path / "notes") in shown  # the configured folder, in the settings section
