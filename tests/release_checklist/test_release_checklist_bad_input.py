"""Bad input gets a clear state and changes nothing: an unreadable version file, a shallow clone, a tree
that changed after the checks, a remote that would ask for credentials."""
from __future__ import annotations

import os
from pathlib import Path

from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from release_checklist import Outcome, ReleaseSession, StepState
from release_checklist.text import TEXT
from release_checklist.view_release import version_line

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"


def test_a_version_file_setting_that_names_no_version_says_so(make_repo, data_dir):
    repo = make_repo(version=None, files={"RELEASE_CHECKLIST.md": "Version file: `meta/VERSION`\n",
                                          "meta/VERSION": "not a version\n"}, tags=("v1.2.0",))
    session = ReleaseSession(str(repo), data_dir)
    assert (session.version, session.version_source, session.loaded.source) == ("1.2.1", "suggested", "settings")
    assert version_line(session, TEXT.for_language("en")) == (
        "suggested: the next after v1.2.0 · no version could be read from meta/VERSION (the Version file setting)")


def test_a_shallow_clone_without_tags_is_couldnt_check_not_a_first_release(make_repo, tmp_path, run_git, data_dir):
    repo = make_repo(tags=("v1.0.0",))
    repo.write("x.txt", "more")
    repo.commit("more")
    shallow = tmp_path / "shallow"
    run_git(tmp_path, "clone", "-q", "--depth", "1", "--no-tags", f"file://{repo.path}", str(shallow))
    session = ReleaseSession(str(shallow), data_dir)
    record = session.run_step("version-is-bumped-since-the-last-tag")
    assert (record.state, record.outcome) == (StepState.UNKNOWN, Outcome.UNKNOWN)
    assert record.message == ("This is a shallow clone, so earlier release tags may be missing; "
                              "run git fetch --unshallow --tags, then check again.")


def test_a_remote_asking_for_credentials_never_prompts(make_repo, data_dir):
    repo = make_repo()
    # No prompt can appear: git gives up at once with GIT_TERMINAL_PROMPT=0, ssh with BatchMode.
    repo.git("remote", "add", "origin", "http://127.0.0.1:1/private.git")
    repo.git("config", "branch.main.remote", "origin")
    repo.git("config", "branch.main.merge", "refs/heads/main")
    repo.git("update-ref", "refs/remotes/origin/main", "HEAD")
    session = ReleaseSession(str(repo), data_dir)
    record = session.run_step("in-sync-with-upstream")
    assert record.state == StepState.UNKNOWN and record.message.startswith("Could not reach origin: ")
    assert session.env["GIT_TERMINAL_PROMPT"] == "0" and "BatchMode=yes" in session.env["GIT_SSH_COMMAND"]


def test_the_confirmation_warns_about_changes_made_after_the_checks(make_repo, with_remote, tmp_path):
    repo = make_repo()
    with_remote(repo)
    world = World(workspaces=[WorkspaceSpec(id=1, cwd=str(repo), panes=[
        PaneSpec(id=12, kind="shell", status="idle", cwd=str(repo))])], focused_pane=12)
    host = PluginHost(str(PLUGIN_DIR), world=world, data_dir=tmp_path / "data")
    host.start()
    try:
        host.open_panel()
        host.wait_for_panel(lambda tree: host.find(tree, "release.steps") is not None, timeout=15)
        repo.write("junk.txt", "left behind by a step")
        host.row_action("release.steps", "push-and-to-together", "type")
        tree = host.wait_for_text('Type "Push main and v1.1.0 to origin together" into the terminal?')
        assert any(text.endswith("The working tree has 1 uncommitted change(s) (junk.txt…); they are not part "
                                 "of the release.") for text in host.texts(tree))
        host.click("confirm.no")
        host.wait_idle()
        assert host.calls_of("terminal/send") == []
    finally:
        host.close()
    assert os.path.exists(os.path.join(str(repo), "junk.txt"))  # nothing in the repository was touched


def test_a_push_without_that_remote_says_how_to_add_it(make_repo, tmp_path):
    repo = make_repo()  # no remote at all
    world = World(workspaces=[WorkspaceSpec(id=1, cwd=str(repo), panes=[
        PaneSpec(id=12, kind="shell", status="idle", cwd=str(repo))])], focused_pane=12)
    host = PluginHost(str(PLUGIN_DIR), world=world, data_dir=tmp_path / "data")
    host.start()
    try:
        host.open_panel()
        host.wait_for_panel(lambda tree: host.find(tree, "release.steps") is not None, timeout=15)
        host.row_action("release.steps", "push-and-to-together", "type")
        tree = host.wait_for_text("There is no remote named origin: add one (git remote add origin URL), or set the "
                                  "Remote line in RELEASE_CHECKLIST.md.")
        assert "git push --atomic origin main v1.1.0" in host.texts(tree)
    finally:
        host.close()
