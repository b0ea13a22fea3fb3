"""The agent's adapter to the engine: where progress lives, which steps it runs itself, shell detection."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from release_agent import engine
from release_checklist import StepKind


def test_data_dir_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv(engine.DATA_DIR_VARIABLE, raising=False)
    assert engine.default_data_dir() == str(tmp_path / "state" / "agentty-release-agent")
    panel = tmp_path / ".agentty" / "plugin-data" / "release-checklist"
    panel.mkdir(parents=True)
    assert engine.default_data_dir() == str(panel)  # shared with the Agentty panel when it is installed
    monkeypatch.setenv(engine.DATA_DIR_VARIABLE, str(tmp_path / "mine"))
    assert engine.default_data_dir() == str(tmp_path / "mine")


@pytest.mark.parametrize(("command", "shell"), [
    ('git tag -a v1 -m "Release 1.0"', False),
    ("git push origin v1.4.0", False),
    ("npm run build && npm publish", True),
    ("twine upload dist/*", True),
    ("echo $HOME", True),
    ('echo "unbalanced', True),
    (None, False),
])
def test_needs_shell(command: str, shell: bool) -> None:
    assert engine.needs_shell(command) is shell


def test_describe_steps_fills_placeholders_and_says_who_runs_what(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "RELEASE_CHECKLIST.md").write_text(
        "# Release checklist\n\n"
        "- [ ] Clean: `release-check clean-tree`\n"
        "- [ ] Publish: `twine upload dist/*` #terminal #irreversible\n"
        "- [ ] Tag {tag}: `git tag {tag}` #terminal #irreversible\n"
        "- [ ] Notes for {version}: `Write the notes.` #agent\n"
        "- [ ] Announce it\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    release = engine.open_release(str(repo), str(tmp_path / "data"), "2.1.0")
    views = engine.describe_steps(release)
    assert [(view.title, view.kind, view.runs_here, view.needs_shell, view.read_only) for view in views] == [
        ("Clean", StepKind.CHECK, True, False, True),
        ("Publish", StepKind.TERMINAL, False, True, False),
        ("Tag v2.1.0", StepKind.TERMINAL, True, False, False),
        ("Notes for 2.1.0", StepKind.AGENT, False, False, False),
        ("Announce it", StepKind.MANUAL, False, False, False),
    ]
    assert views[2].command == "git tag v2.1.0"
    assert engine.argv_of(release, views[2].id) == ["git", "tag", "v2.1.0"]
    assert engine.find_repo(str(repo)) == str(repo) and engine.find_repo(str(tmp_path)) is None
