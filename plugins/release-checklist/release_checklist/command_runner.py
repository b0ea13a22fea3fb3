"""Run one check command in its own process tree: no shell, clean environment, timeout, Stop, bounded output.

    running = start_command("python3 -m pytest -q", cwd=repo, timeout=600, on_line=print_line)
    ...                      # from any thread: running.stop() kills the whole tree at once
    result = running.wait()  # CommandResult: outcome, exit code, output tail, duration

POSIX: the child leads a new session, so Stop signals its whole process group (SIGTERM, then
SIGKILL 0.3 s later so git can drop its lock files first). Windows: a new process group, stopped
with `taskkill /T /F`, which walks the process tree.
"""
from __future__ import annotations

import dataclasses
import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

import agentty_plugin

from .output_tail import LineCallback, OutputTail

DEFAULT_TIMEOUT_SECONDS = 600.0
KILL_GRACE_SECONDS = 0.3
# After the command exits, how long a background child may keep the output pipe open before
# we stop it too (otherwise a stray daemon holding stdout would keep the step "running").
ORPHAN_GRACE_SECONDS = 1.0
IS_WINDOWS = os.name == "nt"
BUILTIN_COMMAND = "release-check"
_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The folder holding `agentty_plugin`: _vendor/ in a bundle, the checkout's shared/ in development.
_RUNTIME_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(agentty_plugin.__file__)))

# What a check may see of the plugin's environment. Everything else (tokens, AGENTTY_*, a virtualenv
# the plugin happens to run in) stays out, so a check behaves as it would in a fresh terminal.
_KEPT_VARIABLES = frozenset(name.upper() for name in (
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP",
    "SSH_AUTH_SOCK", "GNUPGHOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR",
    "CARGO_HOME", "RUSTUP_HOME", "GOPATH", "GOROOT", "JAVA_HOME", "NVM_DIR", "PYENV_ROOT", "VOLTA_HOME",
    "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "USERPROFILE", "USERNAME", "HOMEDRIVE",
    "HOMEPATH", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)",
    "PROGRAMW6432", "COMMONPROGRAMFILES", "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE", "OS",
))
_FORCED_VARIABLES = {
    "GIT_TERMINAL_PROMPT": "0",  # nobody can type a password into a check's pipe
    "GIT_SSH_COMMAND": "ssh -o BatchMode=yes",  # nor an ssh passphrase: fail at once instead of waiting
    "NO_COLOR": "1",
    "TERM": "dumb",
    "PYTHONUNBUFFERED": "1",  # stream Python tools' output live instead of at exit
    "PYTHONIOENCODING": "utf-8",
}


class Outcome:
    PASSED = "passed"
    FAILED = "failed"  # ran and exited non-zero
    TIMEOUT = "timeout"
    STOPPED = "stopped"
    NOT_FOUND = "not-found"
    UNKNOWN = "unknown"  # a built-in check could not find out (exit code 3): no network, unreadable repository
    ERROR = "error"  # could not be started or parsed


@dataclasses.dataclass(frozen=True)
class CommandResult:
    outcome: str
    exit_code: Optional[int]
    lines: List[str]  # the output tail (stdout and stderr interleaved as printed)
    total_lines: int
    total_bytes: int
    duration: float
    message: str  # one English sentence: "exit code 1", "stopped after 2.1 s", …

    @property
    def passed(self) -> bool:
        return self.outcome == Outcome.PASSED


class CommandError(Exception):
    """The command cannot be run (empty, bad quotes, not found); `outcome` says which."""

    def __init__(self, outcome: str, message: str) -> None:
        super().__init__(message)
        self.outcome = outcome


def clean_env(base: Optional[Mapping[str, str]] = None, path: Optional[str] = None) -> Dict[str, str]:
    """The environment a check runs with: the user's PATH and basics, nothing of the plugin's own."""
    source = os.environ if base is None else base
    env = {key: value for key, value in source.items()
           if key.upper() in _KEPT_VARIABLES or key.upper().startswith("LC_")}
    if path is not None:
        env = {key: value for key, value in env.items() if key.upper() != "PATH"}
        env["PATH"] = path
    env.update(_FORCED_VARIABLES)
    return env


def split_command(command: str, windows: bool = IS_WINDOWS) -> List[str]:
    """Split a command line into arguments without a shell.

    On Windows backslashes are path separators, not escapes, so C:\\tools\\x.exe stays intact.
    """
    try:
        if not windows:
            return shlex.split(command)
        parts = shlex.split(command, posix=False)
        return [part[1:-1] if len(part) >= 2 and part[0] == part[-1] and part[0] in "\"'" else part
                for part in parts]
    except ValueError as error:
        raise CommandError(Outcome.ERROR, f"cannot read the command: {error}") from None


def resolve_argv(args: List[str], cwd: str, env: Mapping[str, str]) -> List[str]:
    """Turn the first argument into the program to start, or raise CommandError(not-found)."""
    if not args:
        raise CommandError(Outcome.ERROR, "the command is empty")
    program = args[0]
    if program == BUILTIN_COMMAND:
        return [sys.executable, "-m", "release_checklist.builtin_checks", *args[1:]]
    if os.path.dirname(program):  # ./gradlew, bin/check, C:\tools\x.exe: relative to the repository
        candidate = program if os.path.isabs(program) else os.path.join(cwd, program)
        found = shutil.which(candidate) or (candidate if IS_WINDOWS and os.path.isfile(candidate) else None)
    else:
        found = _which(program, env.get("PATH", ""))
    if not found:
        raise CommandError(Outcome.NOT_FOUND, f"command not found: {program}")
    return [found, *args[1:]]


_found_programs: Dict[Tuple[str, str], str] = {}


def _which(program: str, path: str) -> Optional[str]:
    """shutil.which with a memory: a checklist runs the same few programs again and again."""
    key = (program, path)
    known = _found_programs.get(key)
    if known is not None and os.access(known, os.X_OK) and os.path.isfile(known):
        return known
    found = shutil.which(program, path=path)
    if found:
        _found_programs[key] = found
    return found


class RunningCommand:
    """A started command. wait() from the thread that owns it; stop() from any thread."""

    def __init__(self, command: Union[str, Sequence[str]], cwd: str, env: Optional[Mapping[str, str]] = None,
                 timeout: Optional[float] = None, on_line: Optional[LineCallback] = None,
                 max_lines: int = 200) -> None:
        """command: a command line (split without a shell) or an argument list."""
        self.cwd = cwd
        self.env = dict(clean_env() if env is None else env)
        self.timeout = DEFAULT_TIMEOUT_SECONDS if timeout is None else timeout
        self.tail = OutputTail(max_lines=max_lines, on_line=on_line)
        self.started_at = time.monotonic()
        self._stop_requested = threading.Event()
        self._timed_out = False
        self._lock = threading.Lock()
        self._process: Optional[subprocess.Popen[bytes]] = None
        self._reader: Optional[threading.Thread] = None
        self._early: Optional[CommandResult] = None
        args: List[str] = []
        try:
            args = split_command(command) if isinstance(command, str) else list(command)
            if args and args[0] == BUILTIN_COMMAND:
                # So `-m release_checklist.builtin_checks` imports, with the runtime it runs git through.
                self.env["PYTHONPATH"] = os.pathsep.join([_PACKAGE_PARENT, _RUNTIME_PARENT])
            argv = resolve_argv(args, cwd, self.env)
            self._process = self._spawn(argv)
        except CommandError as error:
            self._early = self._result(error.outcome, None, str(error))
        except OSError as error:
            program = args[0] if args else "the command"
            self._early = self._result(Outcome.ERROR, None, f"could not start {program}: {error.strerror or error}")
        if self._process is not None and IS_WINDOWS:
            # No select() on Windows pipes: a thread reads. On POSIX wait() reads the pipe itself,
            # which saves a thread start per step (about 1 ms on a busy machine).
            self._reader = threading.Thread(target=self._read, name="release-checklist-output", daemon=True)
            self._reader.start()

    @property
    def pid(self) -> Optional[int]:
        return self._process.pid if self._process else None

    def _spawn(self, argv: List[str]) -> subprocess.Popen[bytes]:
        options: Dict[str, object] = {}
        if IS_WINDOWS:
            options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW  # type: ignore[attr-defined]
        elif sys.version_info >= (3, 11):
            # Own process group, so Stop reaches grandchildren too. process_group keeps CPython's
            # fast vfork path; start_new_session falls back to fork (about 4 ms more per step).
            options["process_group"] = 0
        else:
            options["start_new_session"] = True
        if not os.path.isdir(self.cwd):
            raise CommandError(Outcome.ERROR, f"the folder {self.cwd} does not exist")
        return subprocess.Popen(  # type: ignore[call-overload,no-any-return]
            argv, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, **options,
        )

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        descriptor = self._process.stdout.fileno()
        try:
            while True:
                chunk = os.read(descriptor, 65536)
                if not chunk:
                    break
                self.tail.feed(chunk)
        except OSError:
            pass
        except Exception:  # a failing on_line callback must not hide the command's result
            self._drain(descriptor)
        finally:
            self.tail.close()

    def _drain(self, descriptor: int) -> None:
        """Keep reading (and discarding) so the child never blocks on a full pipe."""
        try:
            while os.read(descriptor, 65536):
                pass
        except OSError:
            pass

    def stop(self, immediately: bool = False) -> None:
        """Stop the whole process tree now (idempotent, returns at once).

        immediately=True skips the 0.3 s grace between SIGTERM and SIGKILL, for when this process
        itself is about to exit and could not send the second signal.
        """
        self._stop_requested.set()
        if immediately and not IS_WINDOWS:
            self._signal_group(signal.SIGKILL)
        self._kill_tree()

    def _kill_tree(self) -> None:
        process = self._process
        if process is None:
            return
        with self._lock:
            if IS_WINDOWS:
                try:  # /T walks child processes, /F because console programs ignore a polite close
                    subprocess.run(["taskkill", "/T", "/F", "/PID", str(process.pid)], stdin=subprocess.DEVNULL,
                                   capture_output=True, timeout=10)
                except (OSError, subprocess.SubprocessError):
                    pass
                if process.poll() is None:
                    process.kill()
                return
            self._signal_group(signal.SIGTERM)
            timer = threading.Timer(KILL_GRACE_SECONDS, self._signal_group, args=(signal.SIGKILL,))
            timer.daemon = True
            timer.start()

    def _signal_group(self, signal_number: int) -> None:
        process = self._process
        if process is None:
            return
        try:
            os.killpg(process.pid, signal_number)  # type: ignore[attr-defined,unused-ignore]
        except (ProcessLookupError, PermissionError, OSError):
            pass

    def wait(self) -> CommandResult:
        """Block until the command ends, times out or is stopped; never raises. Call it exactly once."""
        if self._early is not None:
            return self._early
        process = self._process
        assert process is not None
        deadline = self.started_at + self.timeout
        if self._reader is not None:
            self._pump_with_thread(process, self._reader, deadline)
        else:
            self._pump_with_select(process, deadline)
        exit_code = self._wait_exit(process, deadline)
        if self._stop_requested.is_set():
            return self._result(Outcome.STOPPED, exit_code, f"stopped after {self._elapsed():.1f} s")
        if self._timed_out:
            return self._result(Outcome.TIMEOUT, exit_code, f"timed out after {self.timeout:g} s")
        if exit_code == 0:
            return self._result(Outcome.PASSED, 0, "exit code 0")
        return self._result(Outcome.FAILED, exit_code, f"exit code {exit_code}")

    def _watchdog(self, process: subprocess.Popen[bytes], deadline: float, marks: Dict[str, float]) -> bool:
        """Enforce the timeout and clean up after the command; False once we should stop reading."""
        now = time.monotonic()
        if self._stop_requested.is_set():
            marks.setdefault("killed", now)
        if now >= deadline and "killed" not in marks:
            self._timed_out = True
            marks["killed"] = now
            self._kill_tree()
        if "exited" not in marks and process.poll() is not None:
            marks["exited"] = now
        if "exited" in marks and "killed" not in marks and now - marks["exited"] > ORPHAN_GRACE_SECONDS:
            # The command is done but something it started still holds the output open.
            marks["killed"] = now
            self._signal_group(signal.SIGKILL) if not IS_WINDOWS else self._kill_tree()
        # A process outside our group may hold the pipe forever; give up on its output, not on the step.
        return not ("killed" in marks and now - marks["killed"] > ORPHAN_GRACE_SECONDS + KILL_GRACE_SECONDS)

    def _pump_with_select(self, process: subprocess.Popen[bytes], deadline: float) -> None:
        assert process.stdout is not None
        descriptor = process.stdout.fileno()
        marks: Dict[str, float] = {}
        last_check = time.monotonic()
        try:
            while True:
                now = time.monotonic()
                if now - last_check >= 0.25 or now >= deadline or self._stop_requested.is_set():
                    last_check = now
                    if not self._watchdog(process, deadline, marks):
                        return
                ready, _, _ = select.select([descriptor], [], [], max(0.0, min(0.25, deadline - now)))
                if not ready:
                    continue
                chunk = os.read(descriptor, 65536)
                if not chunk:
                    return
                try:
                    self.tail.feed(chunk)
                except Exception:  # a failing on_line listener must not hide the command's result
                    self.tail.on_line = None
        except OSError:
            return
        finally:
            self.tail.close()

    def _pump_with_thread(self, process: subprocess.Popen[bytes], reader: threading.Thread, deadline: float) -> None:
        marks: Dict[str, float] = {}
        while reader.is_alive():
            reader.join(max(0.0, min(0.25, deadline - time.monotonic())))
            if reader.is_alive() and not self._watchdog(process, deadline, marks):
                return

    def _wait_exit(self, process: subprocess.Popen[bytes], deadline: float) -> Optional[int]:
        """The exit code once the output has ended (the process may still run briefly after)."""
        # The output usually ends as the process exits. Popen.wait(timeout) polls with growing
        # sleeps, which adds about a millisecond to every step; on Linux a pidfd tells us the moment
        # the process exits instead (elsewhere: a short burst of quick looks first).
        self._await_exit_signal(process, deadline)
        while True:
            try:
                code = process.wait(timeout=max(0.05, min(0.25, deadline - time.monotonic())))
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() >= deadline and not self._timed_out and not self._stop_requested.is_set():
                    self._timed_out = True
                    self._kill_tree()
        if process.stdout is not None and not (self._reader and self._reader.is_alive()):
            process.stdout.close()
        return code

    def _await_exit_signal(self, process: subprocess.Popen[bytes], deadline: float) -> None:
        pidfd_open = getattr(os, "pidfd_open", None)
        descriptor = None
        if pidfd_open is not None:
            try:
                descriptor = pidfd_open(process.pid)
            except OSError:  # an old kernel, or the process is already reaped
                descriptor = None
        if descriptor is None:
            for _ in range(40):
                if process.poll() is not None:
                    return
                time.sleep(0.0001)
            return
        try:
            while process.poll() is None and time.monotonic() < deadline:
                select.select([descriptor], [], [], max(0.0, min(0.25, deadline - time.monotonic())))
        finally:
            os.close(descriptor)

    def _elapsed(self) -> float:
        return time.monotonic() - self.started_at

    def _result(self, outcome: str, exit_code: Optional[int], message: str) -> CommandResult:
        return CommandResult(outcome, exit_code, self.tail.lines, self.tail.total_lines, self.tail.total_bytes,
                             self._elapsed(), message)


def start_command(command: Union[str, Sequence[str]], cwd: str, env: Optional[Mapping[str, str]] = None,
                  timeout: Optional[float] = None, on_line: Optional[LineCallback] = None) -> RunningCommand:
    """Start a command; problems (not found, bad quotes) surface as the result of wait()."""
    return RunningCommand(command, cwd, env, timeout, on_line)


def run_command(command: Union[str, Sequence[str]], cwd: str, env: Optional[Mapping[str, str]] = None,
                timeout: Optional[float] = None, on_line: Optional[LineCallback] = None) -> CommandResult:
    """Start and wait (for callers that need no Stop)."""
    return start_command(command, cwd, env, timeout, on_line).wait()
