"""Every repository state the panel distinguishes, read from real repositories built in temp folders."""

from __future__ import annotations

import shutil
from pathlib import Path

from git_status.snapshot import take_snapshot
from git_status_support import commit_all, git, write


def paths(files):  # type: ignore[no-untyped-def]
    return sorted(f.display for f in files)


def test_clean_repository(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    snap = take_snapshot(str(repo), runner)
    assert snap.state == "ok"
    assert snap.location is not None and Path(snap.location.root) == repo
    assert snap.status.branch.head == "main"
    assert snap.status.files == []
    assert [c.subject for c in snap.commits] == ["initial commit"]
    assert snap.operation is None and snap.stashes == 0


def test_subdirectory_finds_work_tree_root(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    snap = take_snapshot(str(repo / "src"), runner)
    assert snap.ok and Path(snap.location.root) == repo


def test_staged_changed_untracked_deleted_renamed(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    write(repo / "docs" / "guide.md", "guide\n")
    write(repo / "old name.txt", "rename me\n" * 20)
    commit_all(repo, "more files")
    write(repo / "staged.txt", "new and staged\n")
    git(repo, "add", "staged.txt")
    write(repo / "README.md", "# demo\nchanged but not staged\n")
    write(repo / "src" / "app.py", "print('staged')\n")
    git(repo, "add", "src/app.py")
    write(repo / "src" / "app.py", "print('staged then changed')\n")
    git(repo, "mv", "old name.txt", "new name.txt")
    (repo / "docs" / "guide.md").unlink()
    write(repo / "notes" / "日本語 メモ.md", "メモ\n")
    write(repo / "scratch.txt", "x\n")

    snap = take_snapshot(str(repo), runner)
    status = snap.status
    assert paths(status.staged) == ["new name.txt", "src/app.py", "staged.txt"]
    assert paths(status.changed) == ["README.md", "docs/guide.md", "src/app.py"]
    assert paths(status.untracked) == ["notes/", "scratch.txt"]
    letters = {f.display: f.index + f.worktree for f in status.files}
    assert letters["src/app.py"] == "MM" and letters["staged.txt"] == "A." and letters["docs/guide.md"] == ".D"
    renamed = next(f for f in status.files if f.kind == "renamed")
    assert (renamed.orig_display, renamed.display) == ("old name.txt", "new name.txt")
    assert status.dirty_count == 7


def test_untracked_non_ascii_file_names_are_exact(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    write(repo / "日本語 メモ.md", "x\n")
    write(repo / 'quote " and\ttab.txt', "x\n")
    snap = take_snapshot(str(repo), runner)
    assert paths(snap.status.untracked) == ["quote \" and\ttab.txt", "日本語 メモ.md"]


def test_conflicted_mid_merge(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo / "README.md", "# feature side\n")
    commit_all(repo, "feature edit")
    git(repo, "checkout", "-q", "main")
    write(repo / "README.md", "# main side\n")
    commit_all(repo, "main edit")
    git(repo, "merge", "feature", check=False)
    snap = take_snapshot(str(repo), runner)
    assert snap.operation is not None and snap.operation.kind == "merge"
    assert [(f.display, f.conflict) for f in snap.status.conflicted] == [("README.md", "both-modified")]


def test_rebase_in_progress(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    git(repo, "checkout", "-q", "-b", "topic")
    write(repo / "README.md", "# topic 1\n")
    commit_all(repo, "topic 1")
    write(repo / "other.txt", "two\n")
    commit_all(repo, "topic 2")
    git(repo, "checkout", "-q", "main")
    write(repo / "README.md", "# main moved\n")
    commit_all(repo, "main moved")
    git(repo, "checkout", "-q", "topic")
    git(repo, "rebase", "main", check=False)
    snap = take_snapshot(str(repo), runner)
    assert snap.operation is not None and snap.operation.kind == "rebase"
    assert snap.operation.onto == "topic" and snap.operation.total == 2 and snap.operation.step == 1
    assert snap.status.branch.detached
    assert paths(snap.status.conflicted) == ["README.md"]


def test_cherry_pick_revert_and_bisect(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    git(repo, "checkout", "-q", "-b", "side")
    write(repo / "README.md", "# side\n")
    commit_all(repo, "side edit")
    side = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "main")
    write(repo / "README.md", "# main\n")
    commit_all(repo, "main edit")
    git(repo, "cherry-pick", side, check=False)
    assert take_snapshot(str(repo), runner).operation.kind == "cherry-pick"
    git(repo, "cherry-pick", "--abort")
    write(repo / "README.md", "# main again\n")
    commit_all(repo, "main again")
    git(repo, "revert", "--no-edit", "HEAD~1", check=False)
    assert take_snapshot(str(repo), runner).operation.kind == "revert"
    git(repo, "revert", "--abort")
    git(repo, "bisect", "start")
    assert take_snapshot(str(repo), runner).operation.kind == "bisect"


def test_detached_head(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    sha = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "--detach")
    snap = take_snapshot(str(repo), runner)
    assert snap.status.branch.detached and snap.status.branch.oid == sha and snap.status.branch.head is None


def test_ahead_and_behind_a_local_bare_upstream(tmp_path: Path, repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "-u", "origin", "main")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(bare), str(other))
    for n in range(2):
        write(other / f"theirs{n}.txt", "x\n")
        commit_all(other, f"theirs {n}")
    git(other, "push", "-q")
    git(repo, "fetch", "-q")
    for n in range(3):
        write(repo / f"mine{n}.txt", "x\n")
        commit_all(repo, f"mine {n}")
    branch = take_snapshot(str(repo), runner).status.branch
    assert (branch.upstream, branch.ahead, branch.behind) == ("origin/main", 3, 2)


def test_upstream_gone(tmp_path: Path, repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "-u", "origin", "main")
    git(repo, "update-ref", "-d", "refs/remotes/origin/main")
    branch = take_snapshot(str(repo), runner).status.branch
    assert branch.upstream == "origin/main" and branch.upstream_gone


def test_submodule_moved_and_modified(tmp_path: Path, repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    library = tmp_path / "library"
    library.mkdir()
    git(library, "init", "-q")
    write(library / "lib.txt", "v1\n")
    commit_all(library, "lib v1")
    git(repo, "submodule", "add", "-q", str(library), "libs/sub")
    commit_all(repo, "add submodule")
    sub = repo / "libs" / "sub"
    write(sub / "lib.txt", "v2\n")
    commit_all(sub, "lib v2")
    write(sub / "lib.txt", "v3 uncommitted\n")
    snap = take_snapshot(str(repo), runner)
    entry = next(f for f in snap.status.files if f.display == "libs/sub")
    assert entry.submodule is not None and entry.submodule_notes == ["commit", "modified"]
    inside = take_snapshot(str(sub), runner)
    assert inside.ok and Path(inside.location.root) == sub and Path(inside.location.superproject) == repo


def test_linked_worktree(tmp_path: Path, repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    tree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "wt-branch", str(tree))
    write(tree / "README.md", "# changed in the worktree\n")
    snap = take_snapshot(str(tree), runner)
    assert snap.ok and snap.location.is_linked_worktree
    assert snap.status.branch.head == "wt-branch" and paths(snap.status.changed) == ["README.md"]
    main_snap = take_snapshot(str(repo), runner)
    assert main_snap.status.files == [] and not main_snap.location.is_linked_worktree


def test_operation_is_per_worktree(tmp_path: Path, repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    tree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "wt-branch", str(tree))
    git(tree, "bisect", "start")
    assert take_snapshot(str(tree), runner).operation.kind == "bisect"
    assert take_snapshot(str(repo), runner).operation is None


def test_empty_repository_has_no_commits(tmp_path: Path, runner) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "empty"
    path.mkdir()
    git(path, "init", "-q")
    write(path / "a.txt", "a\n")
    git(path, "add", "a.txt")
    write(path / "b.txt", "b\n")
    snap = take_snapshot(str(path), runner)
    assert snap.ok and snap.empty_repository and snap.commits == []
    assert snap.status.branch.head == "main" and snap.status.branch.oid is None
    assert paths(snap.status.staged) == ["a.txt"] and paths(snap.status.untracked) == ["b.txt"]


def test_stash_count(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    for n in range(2):
        write(repo / "README.md", f"stash me {n}\n")
        git(repo, "stash", "-q")
    assert take_snapshot(str(repo), runner).stashes == 2


def test_not_a_repository(tmp_path: Path, runner, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    plain = tmp_path / "plain" / "sub"
    plain.mkdir(parents=True)
    # A ceiling keeps git from finding any repository above the temp folder.
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    snap = take_snapshot(str(plain), runner)
    assert snap.state == "not-repo" and "not a git repository" in snap.detail


def test_bare_repository(tmp_path: Path, runner) -> None:  # type: ignore[no-untyped-def]
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    assert take_snapshot(str(bare), runner).state == "bare"


def test_inside_the_git_folder_shows_its_work_tree(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    snap = take_snapshot(str(repo / ".git" / "refs"), runner)
    assert snap.ok and Path(snap.location.root) == repo


def test_no_folder_and_missing_folder(tmp_path: Path, runner) -> None:  # type: ignore[no-untyped-def]
    assert take_snapshot(None, runner).state == "no-folder"
    assert take_snapshot(str(tmp_path / "nope"), runner).state == "gone"


def test_repository_deleted_while_shown(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    assert take_snapshot(str(repo), runner).ok
    shutil.rmtree(repo)
    assert take_snapshot(str(repo), runner).state == "gone"


def test_git_folder_deleted_while_shown(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    shutil.rmtree(repo / ".git")
    assert take_snapshot(str(repo), runner).state == "not-repo"


def test_missing_git_binary(repo: Path) -> None:
    from git_status.runner import GitRunner

    snap = take_snapshot(str(repo), GitRunner(executable=str(repo / "no-such-git")))
    assert snap.state == "no-git"


def test_safe_directory_refusal(repo: Path, runner, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # git's own test switch makes it treat the repository as owned by someone else.
    monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")
    snap = take_snapshot(str(repo), runner)
    assert snap.state == "unsafe" and "safe.directory" in snap.detail


def test_every_call_has_a_timeout(tmp_path: Path, repo: Path) -> None:
    from git_status.runner import GitRunner

    slow_git = write(tmp_path / "slow-git", "#!/bin/sh\nsleep 30\n")
    slow_git.chmod(0o755)
    snap = take_snapshot(str(repo), GitRunner(timeout=0.5, executable=str(slow_git)))
    # Ended by the 0.5 s timeout, not by git: the fake git would take 30 s (a bound no load reaches).
    assert snap.state == "timeout" and snap.seconds < 30
