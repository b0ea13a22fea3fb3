"""Fixtures for git-status tests: real git repositories in temp folders, isolated from the user's config."""

from __future__ import annotations

from pathlib import Path

import pytest
from git_status_support import commit_all, git, write


@pytest.fixture(autouse=True)
def isolated_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A private global config: fixed identity, `main` as the first branch, local submodules allowed."""
    home = tmp_path_factory.mktemp("home")
    config = home / ".gitconfig"
    config.write_text(
        "[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"
        "[protocol \"file\"]\n\tallow = always\n[advice]\n\tdetachedHead = false\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_TEST_ASSUME_DIFFERENT_OWNER"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with two committed files on `main`."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q")
    write(path / "README.md", "# demo\n")
    write(path / "src" / "app.py", "print('hello')\n")
    commit_all(path, "initial commit")
    return path


@pytest.fixture
def runner():  # type: ignore[no-untyped-def]
    from git_status.runner import GitRunner

    return GitRunner(timeout=20.0)
