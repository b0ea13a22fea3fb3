"""Shared pieces of the runtime's tests: the probe plugin's folder and a small simulated world."""

from __future__ import annotations

import os

from agentty_plugin.testing import PaneSpec, WorkspaceSpec, World

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugins", "probe")


def make_world(tmp_path: str, language: str = "en") -> World:
    return World(
        workspaces=[
            WorkspaceSpec(
                id=1, name="project", cwd=str(tmp_path),
                panes=[
                    PaneSpec(id=11, kind="claude", status="idle", cwd=str(tmp_path), title="Claude Code",
                             session={"sessionId": "s-1", "title": "Fix the bug",
                                      "turns": [{"role": "user", "text": f"turn {n}"} for n in range(300)]}),
                    PaneSpec(id=12, kind="shell", status="shell", cwd=str(tmp_path)),
                    PaneSpec(id=13, kind="codex", status="working", cwd=str(tmp_path)),
                ],
            )
        ],
        focused_pane=11,
        language=language,
    )
