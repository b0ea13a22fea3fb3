"""The workspaces overview and the cheap change detection that drives refreshes."""

from __future__ import annotations

import time
from pathlib import Path

from git_status.fingerprint import fingerprint
from git_status.location import locate
from git_status.overview import OverviewReader
from git_status_support import commit_all, git, write


def test_overview_rows_keep_order_and_states(tmp_path: Path, repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    write(repo / "README.md", "# dirty\n")
    write(repo / "new.txt", "new\n")
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    write(other / "a.txt", "a\n")
    commit_all(other, "a")
    git(other, "checkout", "-q", "-b", "agent-branch")
    plain = tmp_path / "plain"
    plain.mkdir()
    rows = OverviewReader(runner).read([
        ("1", "first", str(repo)), ("2", "second", str(other)), ("3", "third", str(plain)),
        ("4", "fourth", None), ("5", "fifth", str(tmp_path / "deleted")),
    ])
    assert [r.workspace_id for r in rows] == ["1", "2", "3", "4", "5"]
    assert rows[0].state == "ok" and rows[0].dirty == 2 and rows[0].branch.head == "main"
    assert rows[1].state == "ok" and rows[1].dirty == 0 and rows[1].branch.head == "agent-branch"
    assert [r.state for r in rows[2:]] == ["not-repo", "no-folder", "gone"]


def test_overview_cache_is_refreshed_when_metadata_changes(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    reader = OverviewReader(runner)
    assert reader.read([("1", "w", str(repo))])[0].dirty == 0
    calls = runner.calls
    reader.read([("1", "w", str(repo))])
    assert runner.calls == calls  # no git call at all: location and status came from the caches
    write(repo / "added.txt", "x\n")  # a new top-level entry changes the root folder's stamp
    assert reader.read([("1", "w", str(repo))])[0].dirty == 1


def test_fingerprint_changes_on_git_activity(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    location = locate(str(repo), runner)
    first = fingerprint(location)
    assert fingerprint(location) == first
    time.sleep(0.01)
    write(repo / "src" / "app.py", "print('changed')\n")
    git(repo, "add", "src/app.py")
    second = fingerprint(location)
    assert second != first
    git(repo, "commit", "-q", "-m", "change")
    third = fingerprint(location)
    assert third != second
    git(repo, "checkout", "-q", "-b", "other")
    assert fingerprint(location) != third
