"""Start-up: what main.py and the first panel ("Reading the checklist…") import; the engine comes after it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Set

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"

# The release engine and what it pulls in: none of it is needed to draw the first panel, and together
# it made release-checklist's first panel 2.2x the minimal plugin's (bench_runtime "First panel" table).
ENGINE = ("release_session", "command_runner", "checklist_file", "run_store", "project_files", "versions",
          "git_repo", "default_checklist", "release_docs", "couldnt_check", "builtin_checks", "push_preview",
          "chosen_versions", "steps", "view_release", "prompts")
DEFERRED = ("dataclasses", "subprocess", "shlex", "uuid", "hashlib", *("release_checklist." + name for name in ENGINE))

PROBE = """
import json, runpy, sys
namespace = runpy.run_path("main.py", run_name="probe")  # everything but plugin.run()
from release_checklist.view import State
from release_checklist.text import TEXT
from release_checklist.view import badge_text, render
state = State(folder="/some/repo", loading=True)  # what App.load draws before it reads the repository
tree = render(state, TEXT.for_language("en"))
assert "Reading the checklist" in json.dumps(tree, ensure_ascii=False), tree
badge_text(state)
print(json.dumps(sorted(sys.modules)))
"""


def imported_by_first_panel() -> Set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=str(PLUGIN_DIR), capture_output=True, text=True,
                          check=True, timeout=60)
    return set(json.loads(done.stdout))


def test_the_first_panel_imports_none_of_the_engine() -> None:
    modules = imported_by_first_panel()
    assert "release_checklist.app" in modules and "release_checklist.view" in modules  # the probe did run
    assert sorted(name for name in DEFERRED if name in modules) == []
