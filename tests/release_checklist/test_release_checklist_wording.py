"""What the panel says matches what happens: git's telling error line, a push preview that names each ref once
as what it is, and "nothing to run" that says what is left instead of "every check passed"."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from release_checklist import ReleaseSession, StepState
from release_checklist.builtin_checks import git_error_line
from release_checklist.push_preview import preview_push

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"
PASS = f'{sys.executable} -c "print(42)"'
CLOSING = "fatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\n" \
          "and the repository exists.\n"

# Shapes of git's stderr for an unreachable remote: those git 2.x printed here for a missing path, a refused
# ssh port, an unknown ssh host and a refused http port, and those users quote in public issues for GitHub
# over ssh (host-key warning first) and https. Expected lines written before git_error_line was.
GIT_ERRORS = [
    ("fatal: '/gone/repo.git' does not appear to be a git repository\n" + CLOSING,
     "'/gone/repo.git' does not appear to be a git repository"),
    ("ssh: connect to host 127.0.0.1 port 1: Connection refused\n" + CLOSING,
     "ssh: connect to host 127.0.0.1 port 1: Connection refused"),
    ("ssh: Could not resolve hostname no-such-host.invalid: Name or service not known\n" + CLOSING,
     "ssh: Could not resolve hostname no-such-host.invalid: Name or service not known"),
    ("fatal: unable to access 'http://127.0.0.1:1/x.git/': Failed to connect to 127.0.0.1 port 1 after 0 ms: "
     "Couldn't connect to server\n",
     "unable to access 'http://127.0.0.1:1/x.git/': Failed to connect to 127.0.0.1 port 1 after 0 ms: "
     "Couldn't connect to server"),
    ("Warning: Permanently added 'github.com' (ED25519) to the list of known hosts.\n"
     "git@github.com: Permission denied (publickey).\n" + CLOSING, "git@github.com: Permission denied (publickey)."),
    ("ERROR: Repository not found.\n" + CLOSING, "Repository not found."),
    ("ERROR: Repository not found.\nfatal: The remote end hung up unexpectedly\n", "Repository not found."),
    ("remote: Repository not found.\nfatal: repository 'https://github.com/o/r.git/' not found\n",
     "Repository not found."),
    (CLOSING, "Could not read from remote repository."),  # nothing better said: the generic line, not the last
    ("", "no answer"),
]


@pytest.mark.parametrize("stderr, expected", GIT_ERRORS)
def test_git_error_line_is_the_first_telling_line(stderr, expected):
    assert git_error_line(stderr) == expected


def test_an_unreachable_origin_is_named_by_what_git_said_first(make_repo, data_dir, tmp_path):
    repo = make_repo()
    missing = tmp_path / "gone.git"
    repo.git("remote", "add", "origin", str(missing))
    repo.git("config", "branch.main.remote", "origin")
    repo.git("config", "branch.main.merge", "refs/heads/main")
    repo.git("update-ref", "refs/remotes/origin/main", "HEAD")
    record = ReleaseSession(str(repo), data_dir).run_step("in-sync-with-upstream")
    assert record.state == StepState.UNKNOWN
    assert record.message == f"Could not reach origin: '{missing}' does not appear to be a git repository"


def test_the_push_preview_names_each_ref_once_as_what_it_is(make_repo, with_remote):
    repo = make_repo(tags=("v1.0.0",))
    with_remote(repo)
    repo.write("x.txt", "x")
    repo.commit("x")
    before = preview_push(str(repo), ["git", "push", "--atomic", "origin", "main", "v1.1.0"], ("v1.1.0",))
    assert before is not None
    assert (before.branches, before.tags, before.missing_tags, before.commits) == (["main"], ["v1.1.0"],
                                                                                   ("v1.1.0",), 1)
    without_release_tag = preview_push(str(repo), ["git", "push", "origin", "main", "v1.0.0"])
    assert without_release_tag is not None
    assert (without_release_tag.branches, without_release_tag.tags, without_release_tag.missing_tags) == (
        ["main"], ["v1.0.0"], ())
    repo.git("tag", "v1.1.0")
    after = preview_push(str(repo), ["git", "push", "--atomic", "origin", "main", "v1.1.0"], ("v1.1.0",))
    assert after is not None and after.missing_tags == ()


def world_for(repo) -> World:
    panes = [PaneSpec(id=11, kind="claude", status="idle", cwd=str(repo)),
             PaneSpec(id=12, kind="shell", status="idle", cwd=str(repo))]
    return World(workspaces=[WorkspaceSpec(id=1, name="proj", cwd=str(repo), panes=panes)], focused_pane=11)


@pytest.fixture
def panel(tmp_path):
    hosts = []

    def start(repo) -> PluginHost:
        host = PluginHost(str(PLUGIN_DIR), world=world_for(repo), data_dir=tmp_path / "data")
        host.start()
        hosts.append(host)
        host.open_panel()
        host.wait_for_panel(lambda tree: host.find(tree, "release.steps") is not None)
        return host

    yield start
    for host in hosts:
        host.close()


def checklist(make_repo, *items):
    repo = make_repo()
    repo.write("RELEASE_CHECKLIST.md", "# Release\n\n" + "\n".join(items) + "\n")
    repo.commit("checklist")
    return repo


def test_a_branch_only_push_says_nothing_of_a_tag(make_repo, with_remote, panel):
    repo = checklist(make_repo, "- [ ] Push: `git push origin main` #terminal #irreversible")
    bare = with_remote(repo)
    repo.write("x.txt", "x")
    repo.commit("x")
    host = panel(repo)
    host.row_action("release.steps", "push", "type")
    tree = host.wait_for_panel(lambda t: host.find(t, "confirm.yes") is not None)
    assert f"Sends 1 commit(s) on main to origin ({bare})." in host.texts(tree)
    assert not [text for text in host.texts(tree) if "tag" in text.lower()]


def test_run_all_with_no_checks_says_so_and_what_is_left(make_repo, panel):
    repo = checklist(make_repo, "- [ ] Update the docs", "- [ ] Announce it")
    host = panel(repo)
    host.click("release.run-all")
    host.wait_for(lambda: ("This checklist has no checks for the plugin to run. 2 step(s) left, next: "
                           "Update the docs.", "info") in host.notifications, what="the notice")
    assert not [text for text, _tone in host.notifications if "passed" in text]


def run_all(host) -> None:
    """Run all once the previous run has ended (its button is enabled again)."""
    host.wait_for_panel(lambda tree: not host.find(tree, "release.run-all").get("disabled"))
    host.click("release.run-all")


def test_run_all_after_skipped_checks_never_says_they_passed(make_repo, panel):
    repo = checklist(make_repo, f"- [ ] Builds: `{PASS}`", f"- [ ] Lints: `{PASS}`", "- [ ] Announce it")
    host = panel(repo)
    host.row_action("release.steps", "lints", "skip")
    host.wait_for_panel(lambda t: host.find(t, "skip.reason") is not None)
    host.submit("skip.reason", "no linter yet")
    run_all(host)
    host.wait_for(lambda: ("Every check passed.", "success") in host.notifications, what="the run")
    run_all(host)
    host.wait_for(lambda: ("Every check has passed or was skipped (1 skipped). 1 step(s) left, next: Announce it.",
                           "info") in host.notifications, what="the notice")
    host.row_action("release.steps", "lints", "undo")
    host.wait_for_panel(lambda t: host.find(t, "skip.reason") is None)
    run_all(host)
    host.wait_for(lambda: len([text for text, _ in host.notifications if text == "Every check passed."]) == 2,
                  what="the second run")
    host.row_action("release.steps", "announce-it", "done")
    run_all(host)
    host.wait_for(lambda: ("Every check has already passed. Nothing is left: the release is complete.", "info")
                  in host.notifications, what="the notice")
