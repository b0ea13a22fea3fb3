"""Running one command: exit codes, not found, Stop and timeout on the whole process tree, huge output."""
from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest
from release_checklist.command_runner import (
    Outcome,
    clean_env,
    run_command,
    split_command,
    start_command,
)
from release_checklist.output_tail import OutputTail

PY = sys.executable
posix_only = pytest.mark.skipif(os.name == "nt", reason="process groups and /proc are POSIX")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie still answers kill(0); it is gone for our purpose.
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split()[2] != "Z"
    except OSError:
        return True


def test_exit_code_decides(tmp_path):
    passed = run_command([PY, "-c", "print('all good')"], str(tmp_path))
    failed = run_command([PY, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"], str(tmp_path))
    assert (passed.outcome, passed.exit_code, passed.lines) == (Outcome.PASSED, 0, ["all good"])
    assert (failed.outcome, failed.exit_code, failed.lines) == (Outcome.FAILED, 3, ["boom"])
    assert failed.message == "exit code 3"


def test_command_not_found_is_a_result_not_a_crash(tmp_path):
    result = run_command("surely-not-a-real-program-xyz --version", str(tmp_path))
    assert result.outcome == Outcome.NOT_FOUND
    assert "surely-not-a-real-program-xyz" in result.message
    relative = run_command("./missing-script.sh", str(tmp_path))
    assert relative.outcome == Outcome.NOT_FOUND


def test_runs_in_the_folder_with_a_clean_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_TOKEN", "hunter2")
    monkeypatch.setenv("AGENTTY_PLUGIN_ID", "release-checklist")
    env = clean_env()
    code = "import os, json; print(json.dumps([os.getcwd(), sorted(os.environ)]))"
    result = run_command([PY, "-c", code], str(tmp_path), env=env)
    import json
    cwd, names = json.loads(result.lines[0])
    assert Path(cwd).resolve() == tmp_path.resolve()
    assert "SECRET_TOKEN" not in names and "AGENTTY_PLUGIN_ID" not in names
    assert {"PATH", "GIT_TERMINAL_PROMPT", "NO_COLOR"} <= set(names)
    assert clean_env({"PATH": "/a", "HOME": "/h", "X": "y"}, path="/b")["PATH"] == "/b"


def test_commands_are_split_without_a_shell(tmp_path):
    result = run_command([PY, "-c", "import sys; print(sys.argv[1:])", "$HOME", "a b", "*"], str(tmp_path))
    assert result.lines == ["['$HOME', 'a b', '*']"]
    assert split_command('tool "a b" c\\d', windows=False) == ["tool", "a b", "cd"]
    # On Windows backslashes are path separators and must survive.
    assert split_command(r'C:\tools\check.exe "C:\My Repo\x" --flag', windows=True) == [
        r"C:\tools\check.exe", r"C:\My Repo\x", "--flag"]


@posix_only
def test_stop_kills_the_whole_tree(tmp_path):
    pid_file = tmp_path / "grandchild.pid"
    # The child starts a grandchild that ignores SIGTERM, then both hang.
    script = (
        "import subprocess, sys, time\n"
        "ignore = 'import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)'\n"
        "p = subprocess.Popen([sys.executable, '-c', ignore])\n"
        f"open({str(pid_file)!r}, 'w').write(str(p.pid))\n"
        "print('started', flush=True)\n"
        "time.sleep(60)\n"
    )
    lines = []
    running = start_command([PY, "-c", script], str(tmp_path), on_line=lines.append)
    results = []
    waiter = threading.Thread(target=lambda: results.append(running.wait()))  # wait() reads the output
    waiter.start()
    deadline = time.monotonic() + 20
    while not (pid_file.exists() and pid_file.read_text() and lines) and time.monotonic() < deadline:
        time.sleep(0.02)
    grandchild = int(pid_file.read_text())
    running.stop()
    # Both processes would sleep 60 s and the grandchild ignores SIGTERM: the command ending, and the
    # grandchild gone, are Stop's SIGKILL escalation at work. The waits below are for events, not bounds.
    waiter.join(30)
    assert not waiter.is_alive()
    result = results[0]
    assert result.outcome == Outcome.STOPPED
    gone_by = time.monotonic() + 30
    while _alive(grandchild) and time.monotonic() < gone_by:
        time.sleep(0.02)
    assert not _alive(grandchild)
    assert lines == ["started"]


@posix_only
def test_timeout_stops_a_hanging_command(tmp_path):
    result = run_command([PY, "-c", "import time; print('waiting', flush=True); time.sleep(60)"], str(tmp_path),
                         timeout=0.5)
    assert result.outcome == Outcome.TIMEOUT  # ended by the 0.5 s timeout, not by the 60 s command
    assert result.lines == ["waiting"]
    assert "timed out after 0.5 s" in result.message


@posix_only
def test_background_child_holding_the_pipe_does_not_hang_the_step(tmp_path):
    started = time.monotonic()
    result = run_command([PY, "-c", "import subprocess, sys; subprocess.Popen([sys.executable, '-c', "
                          "'import time; time.sleep(60)']); print('parent done')"], str(tmp_path))
    assert result.outcome == Outcome.PASSED and result.lines == ["parent done"]
    # Had the step waited for the pipe the child holds, it would have lasted the child's 60 s.
    assert time.monotonic() - started < 30


def test_huge_output_keeps_a_bounded_tail(tmp_path):
    # 100 MB of output: 1,000,000 lines of 100 bytes, then a marker line.
    code = ("import sys\nline = b'x' * 99 + b'\\n'\nblock = line * 10000\n"
            "for _ in range(100): sys.stdout.buffer.write(block)\nprint('THE END')\n")
    count = [0]

    def on_line(line: str) -> None:
        count[0] += 1

    result = run_command([PY, "-c", code], str(tmp_path), on_line=on_line)
    assert result.outcome == Outcome.PASSED
    assert result.total_bytes == 100 * 10000 * 100 + len("THE END\n")
    assert result.total_lines == 1_000_001 == count[0]
    assert result.lines[-1] == "THE END" and len(result.lines) == 200


def test_one_endless_line_stays_bounded():
    tail = OutputTail(max_lines=5, max_line_chars=100)
    for _ in range(1000):
        tail.feed(b"y" * 10_000)
    assert len(tail._partial) <= 400
    tail.feed(b"\nlast\n")
    tail.close()
    assert tail.lines[0].startswith("…") and len(tail.lines[0]) <= 100
    assert tail.lines[-1] == "last" and tail.total_bytes == 10_000_006


def test_output_is_cleaned_for_display():
    tail = OutputTail()
    tail.feed(b"\x1b[31mred\x1b[0m text\r\nprogress 10%\rprogress 100%\n\xff\xfe bad bytes\npartial")
    tail.close()
    assert tail.lines == ["red text", "progress 100%", "\ufffd\ufffd bad bytes", "partial"]


def test_a_failing_line_callback_does_not_lose_the_result(tmp_path):
    def explode(line: str) -> None:
        raise RuntimeError("listener broke")

    result = run_command([PY, "-c", "print('a'); print('b')"], str(tmp_path), on_line=explode)
    assert result.outcome == Outcome.PASSED


def test_missing_folder_is_reported(tmp_path):
    result = run_command([PY, "-c", "pass"], str(tmp_path / "gone"))
    assert result.outcome == Outcome.ERROR and "does not exist" in result.message
