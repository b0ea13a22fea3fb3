"""A hostile repository must run none of its programs while we read it, and must not lock its index."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List

import pytest
from git_status.diffs import branch_comparison, commit_details, file_diff, staged_diff
from git_status.overview import OverviewReader
from git_status.snapshot import take_snapshot
from git_status_support import commit_all, git, write

HOOK_NAMES = ["pre-commit", "post-checkout", "post-index-change", "post-merge", "pre-push", "reference-transaction",
              "post-rewrite", "fsmonitor-watchman", "pre-auto-gc", "post-commit"]


@pytest.fixture
def markers(tmp_path: Path) -> Path:
    folder = tmp_path / "markers"
    folder.mkdir()
    return folder


@pytest.fixture
def evil(tmp_path: Path, markers: Path) -> Path:
    """A program that leaves a marker file named after its first argument, then passes stdin through."""
    script = write(tmp_path / "evil.sh", f'#!/bin/sh\ntouch "{markers}/$1"\ncat\n')
    script.chmod(0o755)
    return script


def read_everything(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    """Every read the plugin can do: status, each file's diff, staged diff, branch, commit, overview."""
    snap = take_snapshot(str(repo), runner)
    assert snap.ok, snap.detail
    for change in snap.status.files:
        file_diff(snap.location, runner, change)
    staged_diff(snap.location, runner)
    branch_comparison(snap.location, runner, snap.status.branch)
    for commit in snap.commits:
        commit_details(snap.location, runner, commit.sha)
    OverviewReader(runner).read([("1", "w", str(repo))])


def make_dirty(repo: Path) -> None:
    """Leaves staged, unstaged and racy entries so git has to re-read file contents."""
    write(repo / "src" / "app.py", "print('changed')\n")
    write(repo / "README.md", "# staged\n")
    git(repo, "add", "README.md")
    write(repo / "README.md", "# staged then changed\n")
    write(repo / "new.txt", "new\n")


def fired(markers: Path) -> List[str]:
    return sorted(os.listdir(markers))


def test_fsmonitor_never_runs(repo: Path, runner, evil: Path, markers: Path) -> None:  # type: ignore[no-untyped-def]
    make_dirty(repo)  # set-up first: our own set-up commands would run the program too
    git(repo, "config", "core.fsmonitor", f"{evil} fsmonitor")
    read_everything(repo, runner)
    assert fired(markers) == []
    # The same repository does run it with plain git: the test would notice a broken override.
    git(repo, "status")
    assert fired(markers) == ["fsmonitor"]


def test_hooks_never_run(repo: Path, runner, evil: Path, markers: Path) -> None:  # type: ignore[no-untyped-def]
    make_dirty(repo)
    hooks = repo / ".git" / "hooks"
    custom = repo / "custom-hooks"
    for folder in (hooks, custom):
        folder.mkdir(exist_ok=True)
        for name in HOOK_NAMES:
            hook = write(folder / name, f'#!/bin/sh\ntouch "{markers}/{name}"\n')
            hook.chmod(0o755)
    git(repo, "config", "core.hooksPath", str(custom))
    read_everything(repo, runner)
    assert fired(markers) == []


def test_filters_never_run_even_through_an_include(repo: Path, runner, evil: Path, markers: Path) -> None:  # type: ignore[no-untyped-def]
    write(repo / ".gitattributes", "*.py filter=evil\n*.md filter=sneaky\n")
    commit_all(repo, "attributes")
    make_dirty(repo)
    git(repo, "config", "filter.evil.clean", f"{evil} clean")
    git(repo, "config", "filter.evil.required", "true")
    included = write(repo / ".git" / "extra.cfg", f'[filter "sneaky"]\n\tclean = {evil} included-clean\n'
                                                   f'\tprocess = {evil} included-process\n')
    git(repo, "config", "include.path", str(included))
    read_everything(repo, runner)
    assert fired(markers) == []
    git(repo, "diff")
    assert "clean" in fired(markers)


def test_diff_programs_never_run(repo: Path, runner, evil: Path, markers: Path) -> None:  # type: ignore[no-untyped-def]
    write(repo / ".gitattributes", "* diff=evil\n")
    commit_all(repo, "attributes")
    make_dirty(repo)
    git(repo, "config", "diff.external", f"{evil} external")
    git(repo, "config", "diff.evil.command", f"{evil} command")
    git(repo, "config", "diff.evil.textconv", f"{evil} textconv")
    git(repo, "config", "core.pager", f"{evil} pager")
    git(repo, "config", "pager.diff", f"{evil} pager-diff")
    git(repo, "config", "pager.show", f"{evil} pager-show")
    git(repo, "config", "pager.log", f"{evil} pager-log")
    git(repo, "config", "log.showSignature", "true")
    git(repo, "config", "gpg.program", f"{evil} gpg")
    git(repo, "config", "credential.helper", f"!{evil} credential")
    git(repo, "config", "core.askPass", f"{evil} askpass")
    read_everything(repo, runner)
    assert fired(markers) == []


def test_submodule_with_its_own_evil_config(tmp_path: Path, repo: Path, runner, evil: Path, markers: Path) -> None:  # type: ignore[no-untyped-def]
    library = tmp_path / "library"
    library.mkdir()
    git(library, "init", "-q")
    write(library / "lib.txt", "v1\n")
    write(library / ".gitattributes", "*.txt filter=subfilter diff=subdiff\n")
    commit_all(library, "lib")
    git(repo, "submodule", "add", "-q", str(library), "libs/sub")
    commit_all(repo, "submodule")
    sub = repo / "libs" / "sub"
    git(sub, "config", "filter.subfilter.clean", f"{evil} submodule-clean")
    git(sub, "config", "core.fsmonitor", f"{evil} submodule-fsmonitor")
    git(sub, "config", "diff.subdiff.textconv", f"{evil} submodule-textconv")
    write(sub / "lib.txt", "v2\n")
    git(repo, "config", "diff.submodule", "diff")  # would show the submodule's own diff (and textconv)
    read_everything(repo, runner)
    assert fired(markers) == []
    git(repo, "diff")
    assert "submodule-textconv" in fired(markers)  # plain git does run it: the set-up is real


def test_reading_never_takes_or_rewrites_the_index(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    index = repo / ".git" / "index"
    # Touch files so the index's stat data is stale: a plain `git status` would refresh and rewrite it.
    for path in (repo / "README.md", repo / "src" / "app.py"):
        os.utime(path, (1_900_000_000, 1_900_000_000))
    before = index.stat().st_mtime_ns
    read_everything(repo, runner)
    assert index.stat().st_mtime_ns == before
    assert not (repo / ".git" / "index.lock").exists()
    git(repo, "status")
    assert index.stat().st_mtime_ns != before  # proves the stale-index set-up was real


def test_no_git_processes_are_left_running(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    make_dirty(repo)
    read_everything(repo, runner)
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid() and fields[0] != "Z":
                children.append(entry)
    assert children == []  # no persistent `git cat-file --batch` like GitPython's Repo keeps


def test_untracked_symlink_is_never_followed(tmp_path: Path, repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    secret = write(tmp_path / "secret.txt", "TOP SECRET KEY\n")
    (repo / "innocent.txt").symlink_to(secret)
    snap = take_snapshot(str(repo), runner)
    change = next(f for f in snap.status.files if f.display == "innocent.txt")
    diff = file_diff(snap.location, runner, change)
    assert "TOP SECRET" not in diff.text and "symlink" in diff.text


def test_file_names_are_never_options_or_globs(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    write(repo / "--output=stolen.txt", "x\n")
    write(repo / "*", "star\n")
    commit_all(repo, "odd names")
    write(repo / "*", "star changed\n")
    write(repo / "--output=stolen.txt", "y\n")
    write(repo / "README.md", "# other change\n")
    snap = take_snapshot(str(repo), runner)
    star = next(f for f in snap.status.files if f.display == "*")
    diff = file_diff(snap.location, runner, star)
    assert "star changed" in diff.text and "other change" not in diff.text
    odd = next(f for f in snap.status.files if f.display.startswith("--output"))
    file_diff(snap.location, runner, odd)
    assert not (repo / "stolen.txt").exists()
    with pytest.raises(ValueError):
        commit_details(snap.location, runner, "--output=stolen.txt")


def test_filter_name_that_cannot_be_overridden_is_refused(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    with open(repo / ".git" / "config", "a", encoding="utf-8") as handle:
        handle.write('[filter "a=b"]\n\tclean = touch /tmp/never\n')
    snap = take_snapshot(str(repo), runner)
    assert snap.state == "unsafe"


def test_a_worktree_entry_pointing_at_another_repository_is_not_read(repo: Path, runner, evil: Path,
                                                                     markers: Path) -> None:  # type: ignore[no-untyped-def]
    from git_status.location import locate
    from git_status.worktrees import WorktreeReader

    # A repository ships a nested one with a filter program, and a worktree record pointing at it.
    nested = repo / "vendor" / "trap"
    nested.mkdir(parents=True)
    git(nested, "init", "-q")
    write(nested / ".gitattributes", "*.py filter=trap\n")
    write(nested / "a.py", "x = 1\n")
    commit_all(nested, "trap")
    git(nested, "config", "filter.trap.clean", f"{evil} trap-clean")
    write(nested / "a.py", "x = 2\n")
    record = repo / ".git" / "worktrees" / "trap"
    write(record / "gitdir", str(nested / ".git") + "\n")
    write(record / "HEAD", git(repo, "rev-parse", "HEAD"))
    write(record / "commondir", "../..\n")
    git(repo, "worktree", "add", "-q", "-b", "honest", str(repo.parent / "honest"))
    report = WorktreeReader(runner).read(locate(str(repo), runner))
    states = {w.path: w.state for w in report.worktrees}
    assert states[str(nested)] == "foreign" and states[str(repo.parent / "honest")] == "ok"
    assert fired(markers) == []
    git(nested, "status")  # the trap is real: git run there the ordinary way fires it
    assert "trap-clean" in fired(markers)
