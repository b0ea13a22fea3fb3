"""A release end to end on real repositories: run checks, confirm, skip, persist, survive kill -9."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from release_checklist import (
    ChecklistParseError,
    ConfirmationNeeded,
    NotARepository,
    Outcome,
    ReleaseSession,
    SessionBusy,
    StepKind,
    StepState,
    default_spec,
    write_default_checklist,
)
from release_checklist.run_store import RunStore

PY = sys.executable
PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"
CHANGELOG = "# Changelog\n\n## 1.1.0\n- better\n\n## 1.0.0\n- first\n"


def quoted(code: str) -> str:
    return f'{PY} -c "{code}"'


def test_default_checklist_on_a_ready_repository(make_repo, with_remote, data_dir):
    repo = make_repo(changelog=CHANGELOG, tags=("v1.0.0",))
    with_remote(repo)
    lines = []
    (repo.path / "src").mkdir()
    session = ReleaseSession(str(repo.path / "src"), data_dir)  # any folder inside the repository
    assert (session.version, session.version_source, session.tag) == ("1.1.0", "project", "v1.1.0")
    assert session.loaded.source == "default"
    results = session.run_checks(on_line=lambda step_id, line: lines.append((step_id, line)))
    assert {step_id: record.state for step_id, record in results.items()} == {
        "working-tree-is-clean": StepState.PASSED, "on-the-release-branch": StepState.PASSED,
        "in-sync-with-upstream": StepState.PASSED, "version-is-bumped-since-the-last-tag": StepState.PASSED,
        "changelog-has-an-entry-for": StepState.PASSED, "tag-is-not-taken-yet": StepState.PASSED,
    }
    assert ("tag-is-not-taken-yet", "Tag v1.1.0 is free here and on origin.") in lines
    # No test command in this project: a manual step; tag and push wait for the user.
    kinds = {step.id: step.kind for step in session.steps}
    assert kinds["tests-pass"] == "manual" and kinds["create-the-tag"] == "terminal"
    assert session.progress() == (6, 10)  # tag, push and publish (twine here) wait for the user
    titles = [session.title_of(step) for step in session.steps]
    assert "Create the tag v1.1.0" in titles and "Push main and v1.1.0 to origin together" in titles
    assert session.command_of(session.step("push-and-to-together")) == "git push --atomic origin main v1.1.0"


def test_problems_of_a_fresh_repository(make_repo, data_dir):
    repo = make_repo(version=None)  # no version file, no tags, no upstream, no changelog
    repo.write("wip.txt", "x")
    session = ReleaseSession(str(repo), data_dir)
    assert (session.version, session.version_source) == ("0.1.0", "suggested")
    results = session.run_checks()
    failed = {step_id for step_id, record in results.items() if record.state == StepState.FAILED}
    assert failed == {"working-tree-is-clean", "in-sync-with-upstream"}
    # No changelog file: release notes are drafted by an agent instead of a check that always fails.
    assert session.step("release-notes-for").kind == StepKind.AGENT
    assert "no upstream" in session.status("in-sync-with-upstream").tail[0]
    # A first release, but 0.1.0 is only proposed: no file says it, so the check cannot pass.
    version = results["version-is-bumped-since-the-last-tag"]
    assert version.state == StepState.UNKNOWN and "first release" in version.tail[0]


def test_detached_head(make_repo, data_dir):
    repo = make_repo(changelog=CHANGELOG)
    repo.git("checkout", "-q", "--detach", "HEAD")
    session = ReleaseSession(str(repo), data_dir)
    session.run_checks()
    record = session.status("on-the-release-branch")
    assert record.state == StepState.FAILED and "HEAD is detached" in record.tail[0]


def checklist(repo, *items: str) -> None:
    repo.write("RELEASE_CHECKLIST.md", "# Release\n\n" + "\n".join(items) + "\n")
    repo.commit("checklist")


def test_fail_fix_retry_and_the_output_tail(make_repo, data_dir):
    repo = make_repo()
    code = "import os,sys; print(os.listdir()); sys.exit(0 if os.path.exists(chr(109)) else 4)"
    checklist(repo, f"- [ ] Marker exists: `{quoted(code)}`")
    session = ReleaseSession(str(repo), data_dir)
    first = session.run_step("marker-exists")
    assert (first.state, first.outcome, first.exit_code) == (StepState.FAILED, Outcome.FAILED, 4)
    assert first.tail and "RELEASE_CHECKLIST.md" in first.tail[0]
    (repo.path / "m").write_text("")
    assert session.run_step("marker-exists").state == StepState.PASSED
    assert session.is_complete and session.record.completed_at is not None


def test_missing_command_and_timeout_from_the_file(make_repo, data_dir):
    repo = make_repo()
    checklist(repo, "- [ ] Lint: `no-such-linter-xyz --check`",
              f"- [ ] Slow: `{quoted('import time; time.sleep(30)')}` #timeout=0.4")
    session = ReleaseSession(str(repo), data_dir)
    results = session.run_checks()
    assert results["lint"].outcome == Outcome.NOT_FOUND and "no-such-linter-xyz" in results["lint"].message
    # Neither ran to an answer: "couldn't check", never failed-or-passed by accident.
    assert results["lint"].state == StepState.UNKNOWN
    assert results["slow"].outcome == Outcome.TIMEOUT and results["slow"].state == StepState.UNKNOWN


def test_an_unreachable_remote_is_couldnt_check_never_passed(make_repo, data_dir):
    repo = make_repo(changelog="# Changelog\n\n## 1.1.0\n- x\n", tags=())
    # Nothing listens on port 1: refused at once, no network needed. A credential prompt would hang.
    repo.git("remote", "add", "origin", "http://127.0.0.1:1/demo.git")
    repo.git("config", "branch.main.remote", "origin")
    repo.git("config", "branch.main.merge", "refs/heads/main")
    repo.git("update-ref", "refs/remotes/origin/main", "HEAD")
    session = ReleaseSession(str(repo), data_dir)
    results = session.run_checks()
    states = {step_id: record.state for step_id, record in results.items()}
    assert states["in-sync-with-upstream"] == StepState.UNKNOWN
    assert states["tag-is-not-taken-yet"] == StepState.UNKNOWN
    assert results["in-sync-with-upstream"].message.startswith("Could not reach origin: ")
    assert results["tag-is-not-taken-yet"].message.startswith("Tag v1.1.0 is free here; could not ask origin: ")
    assert results["tag-is-not-taken-yet"].outcome == Outcome.UNKNOWN
    assert session.progress()[0] == sum(state == StepState.PASSED for state in states.values())


def test_irreversible_steps_need_confirmation(make_repo, data_dir):
    repo = make_repo()
    checklist(repo, "- [ ] Tag it: `git tag v{version}` #irreversible",
              "- [ ] Push: `git push origin {tag}` #terminal #irreversible")
    session = ReleaseSession(str(repo), data_dir)
    assert session.run_checks() == {}  # "Run all checks" never does an irreversible step
    with pytest.raises(ConfirmationNeeded):
        session.run_step("tag-it")
    assert repo.git("tag") == ""
    assert session.run_step("tag-it", confirmed=True).state == StepState.PASSED
    assert repo.git("tag") == "v1.1.0"
    with pytest.raises(ValueError):
        session.run_step("push", confirmed=True)  # typed into a terminal by the panel, not run here
    failed_push = session.run_step("push", confirmed=True, allow_terminal=True)  # an ACP host has no terminal
    assert failed_push.state == StepState.FAILED  # there is no origin


def test_skip_sent_done_reset_and_history(make_repo, data_dir):
    repo = make_repo()
    checklist(repo, "- [ ] Announce", "- [ ] Notes: `Write notes` #agent", f"- [ ] Ok: `{quoted('pass')}`")
    session = ReleaseSession(str(repo), data_dir)
    session.skip("announce", "  no blog yet ")
    session.mark_sent("notes")
    assert session.status("notes").state == StepState.SENT and session.progress() == (1, 3)
    session.mark_done("notes")
    session.run_step("ok")
    assert session.is_complete
    assert session.status("announce").reason == "no blog yet"
    other = ReleaseSession(str(repo), data_dir, version="2.0.0")
    other.skip("announce", "later")
    history = session.history()
    summary = [(item.version, item.complete_steps, item.total_steps) for item in history]
    assert summary == [("2.0.0", 1, 3), ("1.1.0", 3, 3)]
    assert history[1].completed_at is not None
    session.reset("ok")
    assert session.status("ok").state == StepState.PENDING and not session.is_complete
    session.reset()
    assert session.progress() == (0, 3)
    assert [item.version for item in session.history()] == ["2.0.0"]


def test_state_persists_across_sessions(make_repo, data_dir):
    repo = make_repo()
    checklist(repo, f"- [ ] Ok: `{quoted('print(42)')}`", "- [ ] By hand")
    ReleaseSession(str(repo), data_dir).run_step("ok")
    again = ReleaseSession(str(repo), data_dir)
    assert again.status("ok").state == StepState.PASSED and again.status("ok").tail == ["42"]
    assert again.status("by-hand").state == StepState.PENDING


def test_damaged_state_files_lose_nothing_that_can_be_read(make_repo, data_dir):
    repo = make_repo()
    checklist(repo, "- [ ] By hand", "- [ ] Later")
    session = ReleaseSession(str(repo), data_dir)
    session.mark_done("by-hand")
    path = RunStore(data_dir).path_for(session.repo, "1.1.0")
    with open(path, "w") as handle:  # a snapshot that is not JSON…
        handle.write("{ not json")
    with open(path[:-5] + ".journal", "ab") as handle:  # …and a journal line cut short by a crash
        handle.write(b'{"seq": 9, "step": "lat')
    fresh = ReleaseSession(str(repo), data_dir)
    assert fresh.status("by-hand").state == StepState.DONE  # replayed from the journal
    assert fresh.status("later").state == StepState.PENDING
    assert "could not be read" in (fresh.store.last_problem or "")
    assert any(name.startswith("1.1.0.json.corrupt-") for name in os.listdir(os.path.dirname(path)))
    assert not os.path.exists(path[:-5] + ".journal")  # folded into a new, readable snapshot
    with open(path) as handle:
        assert json.load(handle)["steps"]["by-hand"]["state"] == "done"


FOREVER = "import time, itertools; [(print(1, flush=True), time.sleep(0.1)) for _ in itertools.count()]"
KILL_SCRIPT = """
import sys
sys.path.insert(0, {plugin!r})
from release_checklist import ReleaseSession
ReleaseSession({repo!r}, {data!r}).run_step("hang")
"""


@pytest.mark.skipif(os.name == "nt", reason="kill -9")
def test_kill_9_mid_run_reads_back_as_interrupted(make_repo, data_dir):
    repo = make_repo()
    # Prints forever; once its reader is dead the next write fails and it exits by itself.
    checklist(repo, f"- [ ] Ok: `{quoted('pass')}`",
              f"- [ ] Hang: `{quoted(FOREVER)}`")
    ReleaseSession(str(repo), data_dir).run_step("ok")
    worker = subprocess.Popen([PY, "-c", KILL_SCRIPT.format(plugin=str(PLUGIN_DIR), repo=str(repo), data=data_dir)])
    journal = RunStore(data_dir).path_for(str(repo.path.resolve()), "1.1.0")[:-5] + ".journal"
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            with open(journal) as handle:
                entries = [json.loads(line) for line in handle.read().splitlines()]
            if any(entry["step"] == "hang" and entry["record"]["state"] == "running" for entry in entries):
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()
    after = ReleaseSession(str(repo), data_dir)
    assert after.status("hang").state == StepState.INTERRUPTED
    assert after.status("ok").state == StepState.PASSED  # nothing else lost


@pytest.mark.skipif(os.name == "nt", reason="process groups")
def test_stop_ends_run_all(make_repo, data_dir):
    repo = make_repo()
    hang = quoted("import time; print(0, flush=True); time.sleep(60)")
    checklist(repo, f"- [ ] One: `{hang}`", f"- [ ] Two: `{hang}`")
    session = ReleaseSession(str(repo), data_dir)
    started = threading.Event()
    outcome = {}

    def run() -> None:
        outcome.update(session.run_checks(on_line=lambda step_id, line: started.set()))

    worker = threading.Thread(target=run)
    worker.start()
    assert started.wait(10)
    with pytest.raises(SessionBusy):
        session.run_step("two")
    session.stop()
    worker.join(30)  # the checks would take 60 s each: ending at all is Stop's doing
    assert not worker.is_alive()
    assert outcome["one"].outcome == Outcome.STOPPED and "two" not in outcome
    assert session.status("two").state == StepState.PENDING and session.running_step is None


def test_malformed_file_and_not_a_repository(make_repo, data_dir, tmp_path):
    repo = make_repo()
    checklist(repo, "- [ ] Good", "- [ ] Bad: `pytest` #tmeout=5")
    with pytest.raises(ChecklistParseError) as caught:
        ReleaseSession(str(repo), data_dir)
    assert (caught.value.problems[0].line, caught.value.problems[0].column) == (4, 21)
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(NotARepository):
        ReleaseSession(str(plain), data_dir)


def test_writing_the_default_checklist_keeps_progress(make_repo, data_dir):
    repo = make_repo(changelog=CHANGELOG, tags=("1.0.0",))
    session = ReleaseSession(str(repo), data_dir)
    assert session.tag == "1.1.0"  # follows the repository's bare-number tags
    session.run_step("working-tree-is-clean")
    path = write_default_checklist(str(repo))
    with pytest.raises(FileExistsError):
        write_default_checklist(str(repo))
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    assert "Tag format: `{version}`" in text and "Release branch: `main`" in text
    reopened = ReleaseSession(str(repo), data_dir)
    assert reopened.loaded.source == "file"
    assert [step.id for step in reopened.steps] == [step.id for step in default_spec(str(repo)).steps]
    assert reopened.status("working-tree-is-clean").state == StepState.PASSED


def test_checklist_in_the_github_folder_is_found(make_repo, data_dir):
    repo = make_repo()
    repo.write(".github/RELEASE_CHECKLIST.md", "- [ ] Only step\n")
    session = ReleaseSession(str(repo), data_dir)
    assert [step.title for step in session.steps] == ["Only step"]


def test_an_edited_checklist_is_noticed(make_repo, data_dir):
    repo = make_repo()
    checklist(repo, "- [ ] One")
    session = ReleaseSession(str(repo), data_dir)
    assert not session.checklist_changed()
    repo.write("RELEASE_CHECKLIST.md", "# Release\n\n- [ ] One\n- [ ] Two\n")
    assert session.checklist_changed()
    (repo.path / "RELEASE_CHECKLIST.md").unlink()
    assert session.checklist_changed()


def test_recovery_leaves_a_step_another_live_process_runs(tmp_path):
    from release_checklist.run_store import ReleaseRecord, StepRecord

    other = subprocess.Popen([PY, "-c", "import time; time.sleep(30)"])
    try:
        record = ReleaseRecord("/repo", "1.0.0", steps={
            "theirs": StepRecord(state=StepState.RUNNING, owner=f"{other.pid}-abc"),
            "dead": StepRecord(state=StepState.RUNNING, owner="999999999-abc"),
            "mine": StepRecord(state=StepState.RUNNING, owner="me"),
        })
        assert record.recover("me") == ["dead"]
        assert record.steps["theirs"].state == StepState.RUNNING
        assert record.steps["dead"].state == StepState.INTERRUPTED
    finally:
        other.kill()
        other.wait()


def test_two_writers_share_one_journal(make_repo, data_dir):
    repo = make_repo()
    checklist(repo, "- [ ] A", "- [ ] B")
    first = ReleaseSession(str(repo), data_dir)
    second = ReleaseSession(str(repo), data_dir)
    first.mark_done("a")
    second.skip("b", "not needed")
    merged = ReleaseSession(str(repo), data_dir)
    assert (merged.status("a").state, merged.status("b").state) == (StepState.DONE, StepState.SKIPPED)
