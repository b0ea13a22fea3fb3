"""Helpers for git-status tests: the plugin folder on sys.path, and real git commands for set-up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "git-status"
if str(PLUGIN_DIR) not in sys.path:
    sys.path.insert(0, str(PLUGIN_DIR))


def git(cwd: Path, *args: str, check: bool = True, env: Optional[Dict[str, str]] = None) -> str:
    """Runs the real git for test set-up (never through the plugin's runner)."""
    completed = subprocess.run(
        ["git", *args], cwd=str(cwd), capture_output=True, text=True, env={**os.environ, **(env or {})}
    )
    if check and completed.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {completed.stderr}")
    return completed.stdout


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
