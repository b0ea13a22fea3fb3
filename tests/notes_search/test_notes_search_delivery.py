"""delivery.py: which pane may have a note typed in, and which agent and folder a new session gets."""

from pathlib import Path
from typing import Optional

import pytest
from agentty_plugin import Pane
from notes_search.delivery import insert_refusal, session_agent, session_folder
from notes_search.frontmatter import NoteMeta
from notes_search.safety import OpenedNote


def _note(agent: Optional[str] = None, cwd: Optional[str] = None) -> OpenedNote:
    return OpenedNote("/n/a.md", "/n", NoteMeta("A", agent=agent, cwd=cwd), "body", 4)


@pytest.mark.parametrize(
    ("pane", "refusal"),
    [
        (None, "insert_no_pane"),
        (Pane(1, "shell", status="idle", running=True), "insert_not_agent"),
        (Pane(1, "claude", status="idle", running=False), "insert_not_running"),
        (Pane(1, "codex", status="working", running=True), "insert_busy"),
        (Pane(1, "claude", status="question", running=True), "insert_busy"),
        (Pane(1, "claude", status="idle", running=True), None),
        (Pane(1, "codex", status="", running=True), None),
    ],
)
def test_only_an_idle_running_agent_takes_a_note(pane: Optional[Pane], refusal: Optional[str]) -> None:
    assert insert_refusal(pane) == refusal


def test_a_session_runs_the_notes_agent_else_the_focused_one_else_claude() -> None:
    codex = Pane(1, "codex", status="idle", running=True)
    shell = Pane(2, "shell", status="idle", running=True)
    assert session_agent(_note(agent="codex"), shell) == "codex"
    assert session_agent(_note(agent="gemini"), codex) == "codex"  # not an agent Agentty runs
    assert session_agent(_note(), shell) == "claude"
    assert session_agent(_note(), None) == "claude"


def test_a_session_starts_in_the_notes_folder_only_if_it_exists(tmp_path: Path) -> None:
    assert session_folder(_note(cwd=str(tmp_path)), "/focused") == str(tmp_path)
    assert session_folder(_note(cwd=str(tmp_path / "gone")), "/focused") == "/focused"
    assert session_folder(_note(), None) is None
