"""Fixtures for the ACP agent tests: real git repositories in temp folders (the harness is release_agent_harness)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Callable, Optional

import pytest

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"
if str(PLUGIN_DIR) not in sys.path:
    sys.path.insert(0, str(PLUGIN_DIR))
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

if importlib.util.find_spec("acp") is None:  # the agent needs Python 3.10+ and its ACP library
    # Without it only the agent's pure parts are tested (requests, messages); they run on 3.9 too.
    collect_ignore_glob = [f"test_release_agent_{name}.py" for name in ("protocol", "check", "release", "cancel",
                                                                       "golden")]
else:
    from release_agent_harness import git


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[..., Path]:
    """A repository with an origin (a bare repository next to it), pushed, on main, with user identity set."""

    def make(checklist_text: Optional[str] = None, version: str = "1.4.0", changelog: bool = True,
             name: str = "work") -> Path:
        root = tmp_path / name
        root.mkdir()
        origin = tmp_path / f"{name}-origin.git"
        git(tmp_path, "init", "--bare", "-b", "main", str(origin))
        git(root, "init", "-b", "main")
        git(root, "config", "user.name", "Test")
        git(root, "config", "user.email", "test@example.invalid")
        git(root, "config", "tag.gpgSign", "false")
        (root / "VERSION").write_text(version + "\n", encoding="utf-8")
        if changelog:
            (root / "CHANGELOG.md").write_text(f"# Changelog\n\n## {version}\n- New things.\n", encoding="utf-8")
        if checklist_text is not None:
            (root / "RELEASE_CHECKLIST.md").write_text(checklist_text, encoding="utf-8")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "first")
        git(root, "remote", "add", "origin", str(origin))
        git(root, "push", "-q", "-u", "origin", "main")
        return root

    return make
