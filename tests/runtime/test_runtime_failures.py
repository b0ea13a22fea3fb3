"""Failures the plugin did not handle reach the panel: a background thread that dies, a write that fails."""

from __future__ import annotations

import errno
import os
import subprocess

import pytest
from agentty_plugin.files import TEMP_PREFIX, atomic_write_bytes, atomic_write_text, describe_os_error, os_error_reason
from agentty_plugin.plugin import FAILURE_DISMISS


def _texts(host):
    return " ".join(host.texts(host.panel)) if host.panel else ""


def test_a_background_thread_that_dies_shows_a_banner_until_dismissed(host):
    host.run_command("probe.thread-dies")
    host.wait_for_panel(lambda tree: "lost its connection" in " ".join(host.texts(tree)))
    assert "index-writer" in _texts(host)  # which work stopped
    assert "ready" in _texts(host)  # the plugin's own panel stays under the banner
    host.wait_for(lambda: any(kind == "error" and "lost its connection" in message
                              for message, kind in host.notifications), 60)
    host.click(FAILURE_DISMISS)
    host.wait_for_panel(lambda tree: "lost its connection" not in " ".join(host.texts(tree)))
    assert "ready" in _texts(host)


def test_a_dead_thread_with_a_full_disk_says_so_in_words_without_the_temp_file(host):
    host.run_command("probe.thread-dies", {"disk_full": True})
    host.wait_for_panel(lambda tree: "disk is full" in " ".join(host.texts(tree)))
    assert TEMP_PREFIX not in _texts(host) and "Errno" not in _texts(host)


@pytest.mark.parametrize("number,key", [
    (errno.ENOSPC, "full"), (errno.EROFS, "read_only"), (errno.EACCES, "permission"), (errno.EPERM, "permission"),
    (errno.ENOTDIR, "not_folder"), (errno.EIO, "io"), (errno.EBADF, "other")])
def test_os_errors_have_a_reason_in_words(number, key):
    assert os_error_reason(OSError(number, os.strerror(number))) == key


@pytest.mark.parametrize("language,words", [
    ("en", "disk is full"), ("ja", "ディスクがいっぱい"), ("ko", "디스크가 가득"), ("zh", "磁盘已满")])
def test_a_full_disk_is_described_in_each_language_with_the_folder(tmp_path, language, words):
    error = OSError(errno.ENOSPC, "No space left on device", str(tmp_path / ".tmp-x1y2.part"))
    text = describe_os_error(error, language)
    assert words in text and str(tmp_path) in text
    assert ".tmp-" not in text and "Errno" not in text


def _mount_tmpfs(folder, size="64k"):
    """A real small disk: a tmpfs of `size`, when this machine lets us mount one (root on Linux)."""
    if os.name != "posix" or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")


@pytest.fixture
def full_disk(tmp_path):
    folder = tmp_path / "disk"
    folder.mkdir()
    _mount_tmpfs(folder)
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_write_to_a_full_disk_keeps_the_old_file_and_leaves_no_temp(full_disk):
    target = full_disk / "note.md"
    atomic_write_text(str(target), "the old note\n")
    filler = full_disk / "filler"
    with pytest.raises(OSError), open(filler, "wb") as handle:  # fill the disk to its last block
        while True:
            handle.write(b"x" * 4096)
            handle.flush()
    with pytest.raises(OSError) as raised:
        atomic_write_bytes(str(target), b"a new note that does not fit " * 200)
    assert raised.value.errno == errno.ENOSPC
    assert raised.value.filename == str(target)  # the caller's file is named, not our temp file
    assert target.read_text() == "the old note\n"
    assert sorted(p.name for p in full_disk.iterdir()) == ["filler", "note.md"]
    assert "disk is full" in describe_os_error(raised.value, "en")


def test_a_write_into_a_read_only_folder_keeps_the_old_file(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    target = folder / "state.json"
    atomic_write_text(str(target), "{}\n")
    done = subprocess.run(["mount", "--bind", "-o", "ro", str(folder), str(folder)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("a read-only bind mount needs root")
    try:
        with pytest.raises(OSError) as raised:
            atomic_write_text(str(target), '{"new": true}\n')
        assert raised.value.errno == errno.EROFS
        assert "read-only" in describe_os_error(raised.value, "en", str(folder))
        assert target.read_text() == "{}\n"
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
    assert sorted(p.name for p in folder.iterdir()) == ["state.json"]


def test_a_new_file_gets_the_usual_mode_and_an_old_one_keeps_its_own(tmp_path):
    fresh = tmp_path / "fresh.md"
    atomic_write_text(str(fresh), "x")
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask
    kept = tmp_path / "kept.md"
    kept.write_text("x")
    kept.chmod(0o640)
    atomic_write_text(str(kept), "y")
    assert kept.stat().st_mode & 0o777 == 0o640
