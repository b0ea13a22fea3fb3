"""A full or read-only data folder or repository, and damaged state files: what the user sees, what is on disk.

The disks are real: a 2 MB tmpfs filled to ENOSPC or remounted read-only, or a read-only bind mount
(conftest.small_disk, conftest.locked_folder); nothing is simulated by patching.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from release_checklist import ReleaseSession, RunStore, StepState
from release_checklist.text import TEXT
from release_checklist.view_release import damage_text

PY = sys.executable
PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"
PASS = f'{PY} -c "print(42)"'
NOT_SAVED = "Progress is not being saved."
FILL = """import sys
with open(sys.argv[1], "ab", buffering=0) as handle:
    for size in (65536, 4096, 1):
        try:
            while True:
                handle.write(bytes(size))
        except OSError:
            pass
for line in range(60):  # its result (the output's last lines) needs more room than a half-used page has
    print(f"{line:02d} the disk is full now " + "." * 100)
"""


def world_for(repo) -> World:
    panes = [PaneSpec(id=11, kind="claude", status="idle", cwd=str(repo))]
    return World(workspaces=[WorkspaceSpec(id=1, name="proj", cwd=str(repo), panes=panes)], focused_pane=11)


def start(repo, data: Path) -> PluginHost:
    host = PluginHost(str(PLUGIN_DIR), world=world_for(repo), data_dir=data)
    host.start()
    host.open_panel()
    host.wait_for_panel(lambda tree: host.find(tree, "release.steps") is not None)
    return host


def subtitle(host, tree, step_id) -> str:
    steps = host.find(tree, "release.steps") or {}
    return next(item["subtitle"] for item in steps.get("items", []) if item["id"] == step_id)


def assert_no_raw_errors(host) -> None:
    """No "[Errno 28] …" and no temp file name reaches the user; no thread died with only a traceback."""
    shown = [text for text, _tone in host.notifications] + host.texts(host.panel)
    assert not [text for text in shown if "Errno" in text or ".tmp-" in text or ".part" in text]
    assert not [line for line in host.stderr_lines if "Traceback" in line]


def release_files(data: Path) -> List[Path]:
    return sorted((data / "releases").rglob("*"))


def journal_lines(data: Path) -> List[dict]:
    journals = [path for path in release_files(data) if path.suffix == ".journal"]
    return [json.loads(line) for path in journals for line in path.read_text().splitlines()]  # none torn


def test_run_all_on_a_data_folder_that_fills_up_stops_says_why_and_runs_again_once_there_is_room(
        make_repo, small_disk, tmp_path):
    data = small_disk.path / "data"
    data.mkdir()
    fill = tmp_path / "fill.py"
    fill.write_text(FILL)
    repo = make_repo()
    repo.write("RELEASE_CHECKLIST.md", f"# Release\n\n- [ ] Fills the disk: `{PY} {fill} {small_disk.filler}`\n"
                                       f"- [ ] Builds: `{PASS}`\n- [ ] Lints: `{PASS}`\n")
    repo.commit("checklist")
    host = start(repo, data)
    try:
        host.click("release.run-all")
        tree = host.wait_for_text(NOT_SAVED)
        folder = next((data / "releases").iterdir())
        problem = f"Could not save to {folder}: the disk is full. Free some space there, then try again."
        assert f"{NOT_SAVED} {problem}" in host.texts(tree)
        host.wait_for(lambda: (f"Stopped: progress could not be saved. {problem}", "error") in host.notifications,
                      what="the stop notice")
        tree = host.wait_for_panel(lambda t: not host.find(t, "release.run-all").get("disabled"))
        assert subtitle(host, tree, "fills-the-disk").startswith("Passed")  # done before the disk filled: kept
        assert subtitle(host, tree, "builds").startswith("Pending")  # never started: its start was not saved
        assert host.find(tree, "release.stop") is None and not any("Running" in text for text in host.texts(tree))
        assert_no_raw_errors(host)
        # On disk: the check's start, whole; its result was refused, and nothing torn or temporary is left.
        assert [(line["step"], line["record"]["state"]) for line in journal_lines(data)] == [
            ("fills-the-disk", "running")]
        assert not [path for path in release_files(data) if path.name.startswith(".tmp-")]

        small_disk.free()
        host.click("release.run-all")
        tree = host.wait_for_panel(lambda t: subtitle(host, t, "lints").startswith("Passed"))
        tree = host.wait_for_panel(lambda t: NOT_SAVED not in " ".join(host.texts(t)))
        assert subtitle(host, tree, "builds").startswith("Passed")
        host.wait_for(lambda: ("Every check passed.", "success") in host.notifications, what="all passed")
        assert_no_raw_errors(host)
    finally:
        host.close()
    saved = RunStore(str(data)).load(str(repo.path), "1.1.0")  # everything, the result only in memory included
    assert saved is not None
    assert {key: value.state for key, value in saved.steps.items()} == {
        "fills-the-disk": StepState.PASSED, "builds": StepState.PASSED, "lints": StepState.PASSED}


def test_run_all_on_a_read_only_data_folder_runs_nothing_and_says_so(make_repo, locked_folder, tmp_path):
    repo = make_repo()
    marker = tmp_path / "ran"
    repo.write("RELEASE_CHECKLIST.md", f"# Release\n\n- [ ] Marks: `{PY} -c \"open('{marker}', 'w')\"`\n")
    repo.commit("checklist")
    locked_folder.lock()
    host = start(repo, locked_folder.path)
    try:
        host.click("release.run-all")
        tree = host.wait_for_text(NOT_SAVED)
        folder = locked_folder.path / "releases"
        why = ("the folder is read-only. Make it writable or choose another folder" if locked_folder.mounted
               else "no permission. Give your user write access to it")
        assert any(why in text and str(folder) in text for text in host.texts(tree))
        tree = host.wait_for_panel(lambda t: not host.find(t, "release.run-all").get("disabled"))
        assert subtitle(host, tree, "marks").startswith("Pending")
        assert not marker.exists()  # a check whose start cannot be saved never runs
        assert_no_raw_errors(host)
        assert list(locked_folder.path.iterdir()) == []

        locked_folder.unlock()
        host.click("release.run-all")
        tree = host.wait_for_panel(lambda t: subtitle(host, t, "marks").startswith("Passed"))
        assert NOT_SAVED not in " ".join(host.texts(tree)) and marker.exists()
    finally:
        host.close()


@pytest.mark.parametrize("fault", ["full", "read-only"])
def test_a_restart_on_a_full_or_read_only_data_folder_shows_the_saved_steps(make_repo, small_disk, fault):
    data = small_disk.path / "data"
    data.mkdir()
    repo = make_repo()
    repo.write("RELEASE_CHECKLIST.md", f"# Release\n\n- [ ] Builds: `{PASS}`\n- [ ] By hand\n")
    repo.commit("checklist")
    ReleaseSession(str(repo), str(data)).run_step("builds")  # leaves a journal, as a killed plugin would
    journal = next(path for path in release_files(data) if path.suffix == ".journal")
    before = journal.read_bytes()
    if fault == "full":
        small_disk.fill()
    else:
        small_disk.read_only()
    host = start(repo, data)
    try:
        tree = host.wait_for_text(NOT_SAVED)
        why = "the disk is full" if fault == "full" else "the folder is read-only"
        assert any(why in text and str(journal.parent) in text for text in host.texts(tree))
        assert subtitle(host, tree, "builds").startswith("Passed")  # read from the journal
        assert subtitle(host, tree, "by-hand").startswith("Pending")
        host.wait_for(lambda: host.badge == "1/2", what="badge 1/2")
        assert_no_raw_errors(host)
    finally:
        host.close()
    assert journal.read_bytes() == before  # not folded, not moved, not cut
    assert [path.name for path in release_files(data) if path.is_file()] == [journal.name]


def test_writing_the_checklist_into_a_full_repository_leaves_no_file_then_works(make_repo, small_disk, data_dir):
    repo = make_repo(where=small_disk.path)
    target = repo.path / "RELEASE_CHECKLIST.md"
    small_disk.fill()
    host = start(repo, Path(data_dir))
    try:
        host.click("checklist.write")
        problem = f"Could not save to {repo.path}: the disk is full. Free some space there, then try again."
        host.wait_for(lambda: (f"Could not write RELEASE_CHECKLIST.md. {problem}", "error") in host.notifications,
                      what="the write failure")
        assert not target.exists() and not list(repo.path.glob(".tmp-*"))
        tree = host.wait_for_panel(lambda t: host.find(t, "checklist.write") is not None)
        assert_no_raw_errors(host)

        small_disk.free()
        host.click("checklist.write")
        tree = host.wait_for_text("Checklist: RELEASE_CHECKLIST.md")
        assert host.find(tree, "checklist.write") is None
    finally:
        host.close()
    assert "- [ ] Tests pass" in target.read_text() and not list(repo.path.glob(".tmp-*"))


@pytest.mark.parametrize("left", [b"", b"\0" * 700, b"\n  \n"])
def test_a_blank_checklist_file_left_by_a_failed_write_can_be_written_again(make_repo, small_disk, data_dir, left):
    repo = make_repo(where=small_disk.path)
    target = repo.path / "RELEASE_CHECKLIST.md"
    target.write_bytes(left)
    host = start(repo, Path(data_dir))
    try:
        tree = host.wait_for_text("RELEASE_CHECKLIST.md is empty (perhaps a write that failed)")
        assert host.find(tree, "checklist.write")["label"] == "Write it again"
        small_disk.fill()
        host.click("checklist.write")
        host.wait_for(lambda: any(text.startswith("Could not write RELEASE_CHECKLIST.md. Could not save to")
                                  for text, _tone in host.notifications), what="the write failure")
        assert target.read_bytes() == left and not list(repo.path.glob(".tmp-*"))  # the old file, untouched

        small_disk.free()
        host.click("checklist.write")
        tree = host.wait_for_text("Checklist: RELEASE_CHECKLIST.md")
        assert "Tests pass" in " ".join(host.texts(tree))
        assert_no_raw_errors(host)
    finally:
        host.close()
    assert target.read_text().startswith("# Release checklist")


def test_a_checklist_with_content_is_never_written_over(make_repo, data_dir):
    from release_checklist.default_checklist import write_checklist_file

    repo = make_repo(files={"RELEASE_CHECKLIST.md": "Tests: `make check`\n"})
    session = ReleaseSession(str(repo), data_dir)
    with pytest.raises(FileExistsError):
        write_checklist_file(session.repo, session.spec, replace_blank=True)
    assert (repo.path / "RELEASE_CHECKLIST.md").read_text() == "Tests: `make check`\n"


@pytest.mark.parametrize("damaged", ['{"/work/repo": "2.', '{"/work/repo": 2}', '["2.0.0"]', "\0\0\0"])
def test_a_damaged_chosen_versions_file_is_kept_aside_with_a_message(make_repo, data_dir, damaged):
    repo = make_repo()
    chosen = Path(data_dir) / "chosen-versions.json"
    chosen.write_text(damaged)
    host = start(repo, Path(data_dir))
    try:
        host.wait_for(lambda: any(text.startswith("The versions you chose (chosen-versions.json) could not be read "
                                                  "and were kept as chosen-versions.json.corrupt-")
                                  for text, tone in host.notifications if tone == "warning"), what="the notice")
        host.type("release.version", "3.0.0")
        host.click("release.version-apply")
        host.wait_for_text("Release 3.0.0")
    finally:
        host.close()
    kept = list(Path(data_dir).glob("chosen-versions.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == damaged
    assert json.loads(chosen.read_text()) == {str(repo.path): "3.0.0"}  # a fresh, readable file


@pytest.mark.parametrize("snapshot", [
    {"steps": {"by-hand": {"state": "done", "exit_code": "zero"}}},  # a number field holding text
    {"steps": {"by-hand": {"state": "finished"}}},  # a state this plugin never writes
    {"steps": ["by-hand"]},
    {"created_at": "yesterday", "steps": {}},
    [1, 2, 3],
])
def test_a_wrong_typed_release_record_is_kept_aside_with_a_message(make_repo, data_dir, snapshot):
    repo = make_repo()
    repo.write("RELEASE_CHECKLIST.md", "- [ ] By hand\n")
    repo.commit("checklist")
    path = Path(RunStore(data_dir).path_for(str(repo.path), "1.1.0"))
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(snapshot))
    session = ReleaseSession(str(repo), data_dir)
    assert session.status("by-hand").state == StepState.PENDING
    kept = list(path.parent.glob("1.1.0.json.corrupt-*"))
    assert len(kept) == 1 and json.loads(kept[0].read_text()) == snapshot and not path.exists()
    [damage] = session.store.damage
    assert damage_text(damage, TEXT.for_language("en")) == (
        f"1.1.0.json could not be read and was kept as {kept[0].name}: results saved only in it are missing.")


def test_a_journal_with_unreadable_lines_keeps_what_it_can_and_is_kept_aside(make_repo, data_dir):
    repo = make_repo()
    repo.write("RELEASE_CHECKLIST.md", "- [ ] One\n- [ ] Two\n- [ ] Three\n")
    repo.commit("checklist")
    session = ReleaseSession(str(repo), data_dir)
    session.mark_done("one")
    session.mark_done("three")
    journal = Path(session.store.path_for(session.repo, "1.1.0")[:-5] + ".journal")
    first, last = journal.read_text().splitlines()
    wrong = json.loads(first)
    wrong["record"]["state"], wrong["step"], wrong["seq"] = 7, "two", wrong["seq"] + 100
    journal.write_text("\n".join([first, json.dumps(wrong), "{ torn", last]) + "\n")
    fresh = ReleaseSession(str(repo), data_dir)
    assert [fresh.status(step).state for step in ("one", "two", "three")] == [
        StepState.DONE, StepState.PENDING, StepState.DONE]
    kept = list(journal.parent.glob("1.1.0.journal.corrupt-*"))
    assert len(kept) == 1 and "{ torn" in kept[0].read_text() and not journal.exists()
    assert fresh.store.damage[0].file == "1.1.0.journal"
    with open(fresh.store.path_for(fresh.repo, "1.1.0")) as handle:  # the good lines, folded in
        assert set(json.load(handle)["steps"]) == {"one", "three"}


def test_a_journal_line_refused_by_a_full_disk_leaves_no_torn_line(make_repo, small_disk):
    data = small_disk.path / "data"
    data.mkdir()
    repo = make_repo()
    repo.write("RELEASE_CHECKLIST.md", "- [ ] One\n- [ ] Two\n")
    repo.commit("checklist")
    session = ReleaseSession(str(repo), str(data))
    session.mark_done("one")
    journal = Path(session.store.path_for(session.repo, "1.1.0")[:-5] + ".journal")
    size = journal.stat().st_size
    session.record.titles = {"two": "x" * 100_000}  # a line longer than what is left on the disk
    small_disk.fill()
    with pytest.raises(OSError) as raised:
        session.mark_done("two")
    assert raised.value.folder == str(journal.parent)  # type: ignore[attr-defined]
    assert journal.stat().st_size == size  # cut back: the next line will not continue a torn one
    assert session.status("two").state == StepState.DONE  # shown all the same
    small_disk.free()
    session.mark_done("one")  # once there is room, the whole record is saved
    assert RunStore(str(data)).load(session.repo, "1.1.0").steps["two"].state == StepState.DONE



def test_the_acp_agent_words_a_data_folder_that_refuses_a_step(make_repo, locked_folder):
    from release_agent.turn import _run_step_safely

    repo = make_repo()
    repo.write("RELEASE_CHECKLIST.md", f"- [ ] Builds: `{PASS}`\n")
    repo.commit("checklist")
    session = ReleaseSession(str(repo), str(locked_folder.path))
    locked_folder.lock()
    record = _run_step_safely(session, "builds", lambda _line: None)
    assert record.state == StepState.UNKNOWN  # it never ran: couldn't check, not failed
    assert record.message.startswith(f"Could not save to {locked_folder.path / 'releases'}") and "Errno" not in \
        record.message
