"""End to end through the harness: the derived checklist to the last step, the typed commands run in a shell,
and origin's branch and tag both at the release commit (a busy agent holding the push back:
test_release_checklist_agent_wait.py)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"
SHELL_ENV = {
    **os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
}


def world_for(repo, agent_status="idle") -> World:
    panes = [PaneSpec(id=11, kind="claude", status=agent_status, cwd=str(repo), title="Claude"),
             PaneSpec(id=12, kind="shell", status="idle", cwd=str(repo))]
    return World(workspaces=[WorkspaceSpec(id=1, name="proj", cwd=str(repo), panes=panes)], focused_pane=12)


def item_of(host, tree, step_id):
    steps = host.find(tree, "release.steps") or {}
    return next((item for item in steps.get("items", []) if item["id"] == step_id), None)


def wait_tone(host, step_id, tone):
    return host.wait_for_panel(lambda tree: (item := item_of(host, tree, step_id)) is not None
                               and item["tone"] == tone, timeout=30)


def run_typed(host, repo, count):
    """Run the command the plugin typed into the shell pane, as the user pressing Enter would."""
    host.wait_for(lambda: len(host.calls_of("terminal/send")) >= count, what=f"terminal/send #{count}")
    call = host.calls_of("terminal/send")[count - 1]
    assert call.params["paneId"] == 12 and call.params.get("submit") is False
    done = subprocess.run(call.params["text"], shell=True, cwd=str(repo), env=SHELL_ENV,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return call.params["text"]


@pytest.fixture
def released_repo(make_repo, with_remote):
    """v1.0.0 released and pushed; then a version bump with its changelog entry, committed but not pushed."""
    repo = make_repo(version="1.0.0", changelog="# Changelog\n\n## 1.0.0\n- First.\n", tags=("v1.0.0",))
    bare = with_remote(repo)
    repo.git("push", "-q", "origin", "v1.0.0")
    repo.write("pyproject.toml", '[project]\nname = "demo"\nversion = "1.1.0"\n')
    repo.write("CHANGELOG.md", "# Changelog\n\n## 1.1.0\n- Second.\n\n## 1.0.0\n- First.\n")
    repo.commit("Release 1.1.0")
    return repo, bare


def start(repo, tmp_path, world) -> PluginHost:
    host = PluginHost(str(PLUGIN_DIR), world=world, data_dir=tmp_path / "data")
    host.start()
    host.open_panel()
    host.wait_for_panel(lambda tree: host.find(tree, "release.steps") is not None, timeout=15)
    return host


def test_the_release_reaches_origin_branch_and_tag_together(released_repo, tmp_path, run_git):
    repo, bare = released_repo
    host = start(repo, tmp_path, world_for(repo))
    try:
        host.click("release.run-all")
        for step_id in ("working-tree-is-clean", "on-the-release-branch", "in-sync-with-upstream",
                        "version-is-bumped-since-the-last-tag", "changelog-has-an-entry-for", "tag-is-not-taken-yet"):
            wait_tone(host, step_id, "success")
        host.row_action("release.steps", "tests-pass", "done")  # no test suite in this project: ticked by hand
        host.row_action("release.steps", "create-the-tag", "type")
        tree = host.wait_for_text('Type "Create the tag v1.1.0" into the terminal? It changes only this clone: '
                                  "nothing leaves this machine until you push.")
        texts = host.texts(tree)  # a local tag can still be deleted: never "cannot be undone"
        assert "Confirm a release step" in texts and not [text for text in texts if "cannot be undone" in text]
        host.click("confirm.yes")
        assert run_typed(host, repo, 1) == 'git tag -a v1.1.0 -m "Release 1.1.0"'
        host.row_action("release.steps", "create-the-tag", "done")
        wait_tone(host, "create-the-tag", "success")

        host.row_action("release.steps", "push-and-to-together", "type")
        tree = host.wait_for_text('Type "Push main and v1.1.0 to origin together" into the terminal? '
                                  "Once run it cannot be undone.")
        texts = host.texts(tree)
        assert "git push --atomic origin main v1.1.0" in texts  # the exact command, before it runs
        assert not [text for text in texts if "not created yet" in text]  # the tag exists now
        assert f"Sends 1 commit(s) on main and the tag v1.1.0 to origin ({bare}) in one atomic push: " \
               "both arrive or neither does." in texts
        assert len(host.calls_of("terminal/send")) == 1  # nothing typed before the confirmation
        host.click("confirm.yes")
        assert run_typed(host, repo, 2) == "git push --atomic origin main v1.1.0"
        host.row_action("release.steps", "push-and-to-together", "done")
        host.wait_for(lambda: host.badge == "9/10", what="badge 9/10")
        assert host.violations == []
    finally:
        host.close()
    head = repo.git("rev-parse", "HEAD")
    assert run_git(bare, "rev-parse", "refs/heads/main") == head
    assert run_git(bare, "rev-parse", "refs/tags/v1.1.0^{commit}") == head


def test_with_origin_unreachable_no_remote_check_shows_passed(released_repo, tmp_path):
    repo, _bare = released_repo
    repo.git("remote", "set-url", "origin", "http://127.0.0.1:1/unreachable.git")  # refused at once, no network
    host = start(repo, tmp_path, world_for(repo))
    try:
        host.click("release.run-all")
        host.wait_for(lambda: any(text.startswith("Checks: ") for text, _level in host.notifications),
                      what="the run's count", timeout=30)
        assert ("Checks: 4 passed, 0 failed, 2 couldn't check (the reason is on each step).", "warning") \
            in host.notifications
        tree = wait_tone(host, "tag-is-not-taken-yet", "warning")
        for step_id in ("in-sync-with-upstream", "tag-is-not-taken-yet"):
            item = item_of(host, tree, step_id)
            assert item["subtitle"].startswith("Couldn't check · ") and "origin" in item["subtitle"]
        host.wait_for(lambda: host.badge == "4/10", what="badge 4/10")  # the badge follows the last redraw
    finally:
        host.close()


def test_the_push_confirmation_says_the_tag_push_publishes(released_repo, tmp_path):
    repo, _bare = released_repo
    repo.write(".github/workflows/publish.yml", "on:\n  push:\n    tags: ['v*']\njobs:\n  pypi:\n    steps:\n"
                                                "      - uses: pypa/gh-action-pypi-publish@release/v1\n")
    repo.commit("publish on tags")
    host = start(repo, tmp_path, world_for(repo))
    try:
        host.row_action("release.steps", "push-and-to-together", "type")
        host.wait_for_text("Pushing v1.1.0 starts .github/workflows/publish.yml, which publishes the release.")
        host.click("confirm.no")
        assert item_of(host, host.panel, "ci-publishes") is not None  # and a step to check the run after
    finally:
        host.close()
