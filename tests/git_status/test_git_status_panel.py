"""Panel trees, translations, focus rules and hand-off targets, without starting a plugin process."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from agentty_plugin import Context, Pane, Workspace, ui
from git_status.focus import Session, reveal_target
from git_status.handoff import choose_target
from git_status.snapshot import STATES, RepoSnapshot, take_snapshot
from git_status.text import CATALOGS, TEXT
from git_status.text import key as catalog_key
from git_status.view import State, badge_text, render
from git_status_support import git, write

LANGUAGES = ("en", "ja", "ko", "zh")


def test_every_language_has_every_key_with_the_same_placeholders() -> None:
    assert TEXT.missing() == {"ja": [], "ko": [], "zh": []}
    for key, english in CATALOGS["en"].items():
        wanted = set(re.findall(r"{(\w+)}", english))
        for language in LANGUAGES[1:]:
            assert set(re.findall(r"{(\w+)}", CATALOGS[language][key])) == wanted, (language, key)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("state", [s for s in STATES if s != "ok"])
def test_every_problem_state_renders_a_message(state: str, language: str) -> None:
    tree = render(State(snapshot=RepoSnapshot(state, "/some/folder", detail="git said so")),
                  TEXT.for_language(language))
    ui.validate(tree)
    message = TEXT.get(language, catalog_key("state", state), folder="/some/folder")
    assert message in ui.texts(tree) and ui.find(tree, "toolbar.refresh") is not None


def test_huge_repository_stays_under_the_element_limit(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    for n in range(400):
        write(repo / f"staged{n}.txt", "x\n")
    git(repo, "add", ".")
    for n in range(400):
        write(repo / f"staged{n}.txt", "changed\n")
        write(repo / f"untracked{n}.txt", "x\n")
    snapshot = take_snapshot(str(repo), runner)
    tree = render(State(snapshot=snapshot), TEXT.for_language("en"))
    ui.validate(tree)
    assert ui.count_elements(tree) < 1000
    assert "and 340 more" in ui.texts(tree) and badge_text(snapshot) == "800"


def test_badge_is_cleared_when_clean_or_not_a_repository(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    assert badge_text(take_snapshot(str(repo), runner)) == ""
    assert badge_text(RepoSnapshot("not-repo", str(repo))) == ""
    assert badge_text(None) == ""


def test_overview_and_operation_render_in_every_language(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    git(repo, "bisect", "start")
    snapshot = take_snapshot(str(repo), runner)
    for language in LANGUAGES:
        tree = render(State(snapshot=snapshot), TEXT.for_language(language))
        assert TEXT.get(language, "op_bisect") in ui.texts(tree)
        ui.validate(render(State(mode="workspaces", overview=[]),
                           TEXT.for_language(language)))


def pane(pane_id: int, status: str = "idle", kind: str = "claude", cwd: str = "/repo") -> Pane:
    return Pane(id=pane_id, kind=kind, status=status, cwd=cwd, running=True)


def test_hand_off_prefers_the_focused_idle_agent() -> None:
    focused = pane(1)
    assert choose_target(focused, [Workspace(id=1, panes=[focused])], "/repo").pane_id == 1


@pytest.mark.parametrize("busy", ["working", "thinking", "permission", "question"])
def test_hand_off_never_picks_a_busy_agent(busy: str) -> None:
    focused = pane(1, busy)
    other_idle = pane(2)
    assert choose_target(focused, [Workspace(id=1, panes=[focused, other_idle])], "/repo").pane_id == 2
    target = choose_target(focused, [Workspace(id=1, panes=[focused])], "/repo")
    assert (target.target, target.reason, target.cwd) == ("newTab", "busy", "/repo")
    codex = pane(3, busy, kind="codex")
    assert choose_target(None, [Workspace(id=1, panes=[codex])], "/repo").agent == "codex"  # the same kind of agent


def test_hand_off_skips_shells_exited_agents_and_other_repositories() -> None:
    panes = [pane(1, kind="shell"), pane(2, "exited"), pane(3, cwd="/elsewhere")]
    target = choose_target(None, [Workspace(id=1, panes=panes)], "/repo")
    assert (target.target, target.reason, target.cwd, target.agent) == ("newTab", "no-agent", "/repo", "claude")
    assert choose_target(None, [Workspace(id=1, panes=[pane(4, cwd="/repo/src")])], "/repo").pane_id == 4


def test_session_follows_focus_unless_pinned() -> None:
    session = Session()
    context = Context(workspace=Workspace(id=1, cwd="/ws"), pane=pane(1, cwd="/ws/pane"), language="en")
    assert session.folder_for(context) == "/ws/pane"
    assert session.folder_for(Context(workspace=Workspace(id=1, cwd="/ws"), pane=None, language="en")) == "/ws"
    session.pinned_folder = "/pinned"
    assert session.folder_for(context) == "/pinned"


def test_session_notices_an_agent_that_stopped() -> None:
    session = Session()
    working = Context(workspace=None, pane=pane(1, "working"), language="en")
    idle = Context(workspace=None, pane=pane(1, "idle"), language="en")
    assert not session.agent_stopped(working)
    assert session.agent_stopped(idle)
    assert not session.agent_stopped(idle)


def test_reveal_target_falls_back_to_an_existing_folder(tmp_path: Path) -> None:
    write(tmp_path / "a" / "b.txt", "x")
    assert reveal_target(str(tmp_path), "a/b.txt") == str(tmp_path / "a" / "b.txt")
    assert reveal_target(str(tmp_path), "a/gone/c.txt") == str(tmp_path / "a")
    assert reveal_target(str(tmp_path), "gone/c.txt") == str(tmp_path)
