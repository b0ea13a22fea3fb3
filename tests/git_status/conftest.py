"""Fixtures for git-status tests: real git repositories in temp folders, isolated from the user's config."""

from __future__ import annotations

import shutil
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


@pytest.fixture
def team_repo(repo: Path, tmp_path: Path) -> dict:  # type: ignore[type-arg]
    """The `repo` plus worktrees as agents leave them: feature-a edits src/app.py (uncommitted),
    feature-b committed its own edit of src/app.py and has docs.md changed, clean-c is clean, and
    gone-d's folder was deleted by hand (git calls it prunable)."""
    write(repo / "docs.md", "docs\n")
    commit_all(repo, "docs")
    paths = {"main": repo}
    for name, branch in (("wt-a", "feature-a"), ("wt-b", "feature-b"), ("wt-c", "clean-c"), ("wt-d", "gone-d")):
        paths[branch] = tmp_path / name
        git(repo, "worktree", "add", "-q", "-b", branch, str(paths[branch]))
    write(paths["feature-a"] / "src" / "app.py", "print('agent a')\n")
    write(paths["feature-b"] / "src" / "app.py", "print('agent b')\n")
    commit_all(paths["feature-b"], "agent b: greet differently")
    write(paths["feature-b"] / "docs.md", "docs, edited by b\n")
    shutil.rmtree(paths["gone-d"])
    return paths
