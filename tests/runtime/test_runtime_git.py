"""agentty_plugin.git: no program a repository names ever runs, the user's own config still applies,
git's refusals are states, and the walk to a repository's root is the same for everyone."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest
from agentty_plugin.git import SafeGit, find_repository, overrides_for, parse_config_listing
from git_traps import ROUTES, fired, git, make_trapped_repository, plain_git_fires, use_isolated_git, users_own_program

READS = (
    ["status", "--porcelain=v2", "-z", "--untracked-files=all"],
    ["diff"],
    ["diff", "--cached"],
    ["diff", "HEAD", "--stat"],
    ["log", "-3", "-p"],
    ["show", "HEAD"],
    ["rev-parse", "--show-toplevel", "--git-dir", "--git-common-dir"],
    ["worktree", "list", "--porcelain"],
    ["ls-remote", "origin"],
    ["fetch", "--dry-run", "origin"],
)


@pytest.fixture
def env(tmp_path, monkeypatch):
    return use_isolated_git(monkeypatch, tmp_path / "home")


@pytest.fixture
def markers(tmp_path):
    folder = tmp_path / "markers"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("route", ROUTES)
def test_no_planted_program_runs_through_any_route(tmp_path, env, markers, route):
    repo = make_trapped_repository(tmp_path / "work", route, env, markers)
    control = plain_git_fires(repo, env, markers)
    assert {"clean", "textconv"} <= set(control) or {"fsmonitor"} <= set(control), control  # the traps are live
    safe = SafeGit()
    results = [safe.run(str(repo), args, network=args[0] in ("ls-remote", "fetch"), ok_statuses=(0, 1, 128))
               for args in READS]
    assert fired(markers) == []
    status = results[0]
    assert status.ok and "app.py" in status.text  # and the reads still give real answers
    assert "two" in results[1].text or "app.py" in results[1].text


def test_the_users_own_filter_still_runs(tmp_path, env, markers):
    """A filter the user configured globally (their git-lfs) is theirs: it is not switched off."""
    repo = make_trapped_repository(tmp_path / "work", "direct", env, markers)
    own = users_own_program(tmp_path, markers)
    with open(Path(env["HOME"]) / ".gitconfig", "a", encoding="utf-8") as handle:
        handle.write(f'[filter "mine"]\n\tclean = {own} clean\n')
    (repo / ".gitattributes").write_text("* filter=evil diff=evil\n*.txt filter=mine -diff\n")
    (repo / "notes.txt").write_text("mine\n")
    subprocess.run(["git", "-C", str(repo), "add", "notes.txt"], env=env, check=True, capture_output=True)
    for name in fired(markers):
        os.unlink(markers / name)
    (repo / "notes.txt").write_text("mine, changed\n")
    assert SafeGit().run(str(repo), ["diff", "--stat", "--", "notes.txt"]).ok
    assert fired(markers) == ["own-clean"]


def test_a_repository_that_redefines_the_users_filter_gets_the_users_program_back(tmp_path, env, markers):
    repo = make_trapped_repository(tmp_path / "work", "direct", env, markers)
    own = users_own_program(tmp_path, markers)
    with open(Path(env["HOME"]) / ".gitconfig", "a", encoding="utf-8") as handle:
        handle.write(f'[filter "evil"]\n\tclean = {own} clean\n')
    assert SafeGit().run(str(repo), ["diff"]).ok
    assert fired(markers) == ["own-clean"]  # the user's program, never the repository's


def test_an_include_created_after_the_first_call_is_seen(tmp_path, env, markers):
    """The overrides are cached per repository, but a file an include names is watched even before it exists."""
    repo = make_trapped_repository(tmp_path / "work", "direct", env, markers)
    (repo / ".git" / "config").write_text((repo / ".git" / "config").read_text().split("[core]")[0]
                                          + "[include]\n\tpath = later.inc\n")
    safe = SafeGit()
    assert safe.run(str(repo), ["status"]).ok
    calls = safe.calls
    assert safe.run(str(repo), ["status"]).ok
    assert safe.calls == calls + 1  # the second call used the cached overrides
    program = tmp_path / "work" / "trap.sh"
    (repo / ".git" / "later.inc").write_text(f"[core]\n\tfsmonitor = {program} fsmonitor\n"
                                             f"[filter \"evil\"]\n\tclean = {program} clean\n")
    safe.run(str(repo), ["status"])
    safe.run(str(repo), ["diff"])
    assert fired(markers) == []


def test_a_driver_name_that_cannot_be_overridden_refuses_to_run(tmp_path, env, markers):
    repo = make_trapped_repository(tmp_path / "work", "direct", env, markers)
    with open(repo / ".git" / "config", "a", encoding="utf-8") as handle:
        handle.write(f'[filter "a=b"]\n\tclean = {tmp_path / "work" / "trap.sh"} clean\n')
    result = SafeGit().run(str(repo), ["status"])
    assert result.state == "unsafe-config" and "filter.a=b.clean" in result.stderr
    assert fired(markers) == []


def test_dubious_ownership_is_its_own_state(tmp_path, env):
    if os.geteuid() != 0:
        pytest.skip("changing a folder's owner needs root")
    repo = tmp_path / "theirs"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    os.chown(repo, 65534, 65534)
    result = SafeGit().run(str(repo), ["status"])
    assert result.state == "refused", result
    assert "dubious ownership" in result.first_error_line


def test_states_for_a_missing_folder_a_plain_folder_and_no_git(tmp_path, env, monkeypatch):
    assert SafeGit().run(str(tmp_path / "nowhere"), ["status"]).state == "gone"
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert SafeGit().run(str(plain), ["status"]).state == "not-repo"
    missing = SafeGit(executable=str(tmp_path / "no-such-git"))
    assert missing.run(str(plain), ["status"]).state == "no-git"


@pytest.fixture
def stuck_git(tmp_path):
    """A "git" that never ends and starts a child of its own, as ssh under git does."""
    script = tmp_path / "stuck-git"
    pids = tmp_path / "pids"
    script.write_text(f'#!/bin/sh\nif [ "$1" = "--no-pager" ] && [ "$4" = "config" ]; then exit 0; fi\n'
                      f'sleep 600 & echo $! > "{pids}"\nwait\n')
    script.chmod(0o755)
    return script, pids


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes: it runs nothing.
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def test_cancel_kills_git_and_its_children(tmp_path, stuck_git):
    script, pids = stuck_git
    folder = tmp_path / "f"
    folder.mkdir()
    cancel = threading.Event()
    outcome = {}
    runner = threading.Thread(target=lambda: outcome.setdefault(
        "r", SafeGit(executable=str(script), timeout=600).run(str(folder), ["status"], cancel=cancel)))
    runner.start()
    while not pids.exists() or not pids.read_text().strip():
        runner.join(0.01)
    cancel.set()
    runner.join(60)
    assert outcome["r"].state == "cancelled"
    assert not _alive(int(pids.read_text()))


def test_a_timeout_is_a_state_and_kills_the_process(tmp_path, stuck_git):
    script, pids = stuck_git
    folder = tmp_path / "f"
    folder.mkdir()
    result = SafeGit(executable=str(script), timeout=0.5).run(str(folder), ["status"])
    assert result.state == "timeout"
    assert pids.exists() and not _alive(int(pids.read_text()))


def _committed_repository(repo, env, name="a.txt"):
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    (repo / name).write_text("a\n")
    git(repo, "add", name, env=env)
    git(repo, "commit", "-qm", "a", env=env)
    return repo


def test_no_index_lock_is_taken_and_nothing_prompts(tmp_path, env):
    repo = _committed_repository(tmp_path / "r", env)
    os.utime(repo / "a.txt", (1, 1))  # a stat change that a locking status would write back
    before = (repo / ".git" / "index").stat().st_mtime_ns
    environment = SafeGit().environment()
    assert environment["GIT_TERMINAL_PROMPT"] == "0" and environment["GIT_OPTIONAL_LOCKS"] == "0"
    assert "BatchMode=yes" in environment["GIT_SSH_COMMAND"]
    assert SafeGit().run(str(repo), ["status", "--porcelain"]).ok
    assert (repo / ".git" / "index").stat().st_mtime_ns == before


def test_output_past_the_limit_is_counted_not_kept(tmp_path, env):
    repo = tmp_path / "r"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    (repo / "big.txt").write_text("x\n" * 50000)
    result = SafeGit().run(str(repo), ["diff", "--no-index", "--", "/dev/null", "big.txt"], ok_statuses=(0, 1),
                           max_bytes=1000)
    assert result.ok and len(result.stdout) == 1000 and result.truncated and result.total_bytes > 100000


def test_first_error_line_is_gits_first_telling_line():
    from agentty_plugin.git import GitResult

    result = GitResult("failed", 128, b"", "remote: Repository not found.\nfatal: repository "
                       "'https://example.invalid/x.git/' not found\nhint: and the repository exists.\n")
    assert result.first_error_line.startswith("fatal: repository")


def test_the_listing_parser_keeps_scopes_and_multi_line_values():
    data = (b"global\0file:/home/u/.gitconfig\0user.name\nU\0"
            b"local\0file:.git/config\0filter.evil.clean\n./x clean\0"
            b"local\0file:/tmp/inc\0core.fsmonitor\n/tmp/m\0")
    entries = parse_config_listing(data)
    assert [(e.scope, e.key) for e in entries] == [("global", "user.name"), ("local", "filter.evil.clean"),
                                                  ("local", "core.fsmonitor")]
    pairs, unfixable = overrides_for(entries)
    assert ("filter.evil.clean", "") in pairs and ("filter.evil.required", "false") in pairs
    assert ("core.fsmonitor", "false") in pairs and unfixable == []


# -- the one walk to a repository --------------------------------------------------------------------


def test_find_repository_from_a_subfolder_a_symlink_and_inside_dot_git(tmp_path, env):
    repo = tmp_path / "r"
    (repo / "src" / "deep").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    found = find_repository(str(repo / "src" / "deep"))
    assert found is not None and found.root == str(repo) and found.git_dir == str(repo / ".git")
    link = tmp_path / "link"
    link.symlink_to(repo / "src")
    assert find_repository(str(link)).root == str(repo)
    assert find_repository(str(repo / ".git" / "refs")).root == str(repo)


def test_find_repository_follows_gitdir_files_of_linked_worktrees(tmp_path, env):
    repo = _committed_repository(tmp_path / "r", env)
    git(repo, "worktree", "add", "-q", str(tmp_path / "wt"), env=env)
    found = find_repository(str(tmp_path / "wt"))
    assert found.root == str(tmp_path / "wt") and found.is_linked_worktree
    assert os.path.samefile(found.common_dir, repo / ".git")


def test_find_repository_is_capped_and_stops_at_ceilings(tmp_path, env, monkeypatch):
    repo = tmp_path / "r"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    deep = repo.joinpath(*["d"] * 10)
    deep.mkdir(parents=True)
    assert find_repository(str(deep)) is not None
    assert find_repository(str(deep), max_parents=5) is None
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(repo))
    assert find_repository(str(deep)) is None
    assert find_repository(str(tmp_path / "missing")) is None
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / ".git").write_text("gitdir: /nowhere/at/all\n")
    monkeypatch.delenv("GIT_CEILING_DIRECTORIES")
    assert find_repository(str(tmp_path / "fake")) is None or find_repository(str(tmp_path / "fake")).root != str(
        tmp_path / "fake")
