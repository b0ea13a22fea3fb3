"""The built-in `release-check` commands on real repositories: tags, upstream, branches, changelog."""
from __future__ import annotations

from release_checklist.command_runner import Outcome, run_command


def check(repo, *args: str):
    return run_command(["release-check", *args], str(repo))


def test_clean_tree_lists_what_is_uncommitted(make_repo):
    repo = make_repo()
    assert check(repo, "clean-tree").outcome == Outcome.PASSED
    repo.write("notes.txt", "draft\n")
    repo.write("README.md", "changed\n")
    result = check(repo, "clean-tree")
    assert result.outcome == Outcome.FAILED
    assert "2 uncommitted change(s)" in result.lines[0]
    assert {"  notes.txt", "  README.md"} <= set(result.lines)


def test_release_branch_and_detached_head(make_repo):
    repo = make_repo()
    assert check(repo, "on-branch", "main").outcome == Outcome.PASSED
    repo.git("checkout", "-q", "-b", "feature")
    wrong = check(repo, "on-branch", "main")
    assert wrong.outcome == Outcome.FAILED and "On branch feature" in wrong.lines[0]
    repo.git("checkout", "-q", "--detach", "HEAD")
    detached = check(repo, "on-branch", "main")
    assert detached.outcome == Outcome.FAILED and "HEAD is detached" in detached.lines[0]
    assert check(repo, "in-sync").outcome == Outcome.FAILED


def test_in_sync_with_upstream(make_repo, with_remote, tmp_path, run_git):
    repo = make_repo()
    no_upstream = check(repo, "in-sync")
    assert no_upstream.outcome == Outcome.FAILED and "has no upstream" in no_upstream.lines[0]
    bare = with_remote(repo)
    assert check(repo, "in-sync").outcome == Outcome.PASSED
    # Someone else pushes: we are behind after the fetch the check does itself.
    other = tmp_path / "other"
    repo.git("clone", "-q", str(bare), str(other))
    git = run_git
    (other / "x.txt").write_text("x\n")
    git(other, "add", "x.txt")
    git(other, "commit", "-q", "-m", "other")
    git(other, "push", "-q", "origin", "main")
    behind = check(repo, "in-sync")
    assert behind.outcome == Outcome.FAILED and "1 commit(s) behind origin/main" in behind.lines[0]
    repo.git("pull", "-q", "--ff-only")
    repo.write("y.txt", "y\n")
    repo.commit("local")
    ahead = check(repo, "in-sync")
    assert ahead.outcome == Outcome.PASSED and "1 local commit(s) will be pushed" in ahead.lines[0]


def test_version_bumped_since_the_last_tag(make_repo):
    repo = make_repo(tags=("v0.9.0", "v1.0.0", "not-a-version"))
    assert check(repo, "version-bumped", "1.1.0", "v1.1.0").outcome == Outcome.PASSED
    same = check(repo, "version-bumped", "1.0.0", "v1.0.0")
    assert same.outcome == Outcome.FAILED and "already released as v1.0.0" in same.lines[0]
    older = check(repo, "version-bumped", "0.9.5", "v0.9.5")
    assert older.outcome == Outcome.FAILED and "older than the last release 1.0.0" in older.lines[0]
    # The project file says 1.1.0: a release of 1.1.0-rc.1 needs it bumped to that first.
    other = check(repo, "version-bumped", "1.1.0-rc.1", "v1.1.0-rc.1")
    assert other.outcome == Outcome.FAILED and "pyproject.toml says 1.1.0, not 1.1.0-rc.1" in other.lines[0]
    repo.write("pyproject.toml", '[project]\nname = "demo"\nversion = "1.1.0-rc.1"\n')
    assert check(repo, "version-bumped", "1.1.0-rc.1", "v1.1.0-rc.1").outcome == Outcome.PASSED


def test_version_bumped_with_no_tags_is_a_first_release(make_repo):
    repo = make_repo(version="0.1.0")
    result = check(repo, "version-bumped", "0.1.0", "v0.1.0")
    assert result.outcome == Outcome.PASSED and "first release" in result.lines[0]
    assert check(repo, "version-bumped", "", "v").outcome == Outcome.FAILED


def test_changelog_entry(make_repo):
    repo = make_repo(changelog="# Changelog\n\n## [1.1.0] - 2026-11-30\n- new\n\n## 1.0.0\n- old\n")
    found = check(repo, "changelog-entry", "1.1.0")
    assert found.outcome == Outcome.PASSED and "line 3" in found.lines[0]
    assert check(repo, "changelog-entry", "1.1").outcome == Outcome.FAILED  # 1.1 is not 1.1.0
    assert check(repo, "changelog-entry", "1.2.0").outcome == Outcome.FAILED
    bare = make_repo()
    missing = check(bare, "changelog-entry", "1.1.0")
    assert missing.outcome == Outcome.FAILED and "No changelog found" in missing.lines[0]


def test_tag_free_here_and_on_the_remote(make_repo, with_remote):
    repo = make_repo(tags=("v1.0.0",))
    assert check(repo, "tag-free", "v1.1.0").outcome == Outcome.PASSED
    assert "already exists here" in check(repo, "tag-free", "v1.0.0").lines[0]
    with_remote(repo)
    repo.git("tag", "v1.1.0")
    repo.git("push", "-q", "origin", "v1.1.0")
    repo.git("tag", "-d", "v1.1.0")
    remote = check(repo, "tag-free", "v1.1.0")
    assert remote.outcome == Outcome.FAILED and "already exists on origin" in remote.lines[0]


def test_unknown_builtin_explains_usage(make_repo):
    result = check(make_repo(), "teleport")
    assert result.exit_code == 2 and "Usage: release-check" in result.lines[0]
