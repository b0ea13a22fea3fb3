"""Start-up: what main.py imports before the first panel (the readers come later, on the handler thread)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Set

from git_status_support import PLUGIN_DIR

# Modules the first panel ("Reading the repository…") does not need and that cost it most: together
# they made git-status's first panel 3x the minimal plugin's (bench_runtime "First panel" table).
DEFERRED = ("asyncio", "concurrent.futures", "dataclasses", "subprocess", "git", "git_status.readers",
            "git_status.snapshot", "git_status.worktrees", "git_status.sessions", "git_status.handoff",
            "git_status.diffs", "git_status.prompts", "git_status.team", "git_status.runner")

PROBE = """
import json, runpy, sys
runpy.run_path("main.py", run_name="probe")  # everything but plugin.run()
print(json.dumps(sorted(sys.modules)))
"""


def imported_by_main() -> Set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=str(PLUGIN_DIR), capture_output=True, text=True,
                          check=True, timeout=60)
    return set(json.loads(done.stdout))


def test_main_imports_only_what_the_first_panel_needs() -> None:
    modules = imported_by_main()
    assert "git_status.app" in modules and "git_status.view" in modules  # the probe did run main.py
    assert sorted(name for name in DEFERRED if name in modules) == []
