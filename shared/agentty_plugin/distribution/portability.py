"""Checks that what a bundle carries runs on Python 3.9-3.13 on macOS, Linux and Windows.

Three checks, strongest where we own the code:
- grammar: every .py in the bundle parses with Python 3.9's grammar (`ast.parse(feature_version=(3, 9))`);
- minimum version: `vermin` (when installed) computes the minimum Python of the plugin and runtime code
  from syntax and standard-library use. Vendored packages are left out of that one: they guard newer
  APIs behind runtime version checks that vermin cannot see, and their Requires-Python is checked
  against 3.9-3.13 when they are pinned;
- POSIX-only calls (os.killpg, signal.SIGKILL, fcntl, ...) in plugin and runtime code must have a
  Windows path: be inside a platform test, after an early return for Windows, inside a try that
  catches the failure, in a helper only called from such places, or carry a `# posix-only:` note.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import warnings
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

OLDEST = (3, 9)

# posixpath is not among them: it is pure Python and imports on Windows too (forward-slash paths anywhere).
POSIX_MODULES = {"fcntl", "pwd", "grp", "termios", "tty", "pty", "resource", "posix", "syslog", "crypt", "spwd",
                 "nis", "readline"}
POSIX_ATTRIBUTES = {
    "os": {"fork", "forkpty", "setsid", "setpgrp", "setpgid", "getpgid", "killpg", "getuid", "geteuid", "getgid",
           "getegid", "setuid", "setgid", "chown", "lchown", "fchown", "mkfifo", "mknod", "nice", "getloadavg",
           "sync", "wait3", "wait4", "WNOHANG", "uname", "sysconf", "pathconf", "statvfs", "ttyname", "openpty",
           "getpwuid", "O_NONBLOCK", "pipe2", "sched_getaffinity"},
    "signal": {"SIGKILL", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGCHLD", "SIGALRM", "SIGPIPE", "SIGSTOP",
               "SIGCONT", "SIGTSTP", "SIGWINCH", "alarm", "setitimer", "pause", "siginterrupt", "pthread_kill",
               "pthread_sigmask", "sigwait"},
    "select": {"poll", "epoll", "kqueue"},
}
POSIX_METHODS = {"add_signal_handler", "remove_signal_handler"}
POSIX_KEYWORDS = {"preexec_fn"}
_PLATFORM_WORDS = re.compile(r"windows|win32|posix|darwin|macos|is_win|^nt$|platform", re.IGNORECASE)
_CATCHING = {"ImportError", "ModuleNotFoundError", "AttributeError", "NotImplementedError", "Exception",
             "BaseException", "ValueError"}
PRAGMA = "posix-only:"


def python_files(root: str, skip: Sequence[str] = ()) -> List[str]:
    """Every .py file under root (sorted), leaving out the listed sub-folders (relative to root)."""
    skipped = {os.path.normpath(os.path.join(root, s)) for s in skip}
    found: List[str] = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if os.path.normpath(os.path.join(folder, d)) not in skipped)
        found.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith(".py"))
    return found


def grammar_problems(files: Sequence[str], version: Tuple[int, int] = OLDEST) -> List[str]:
    """Files that do not parse with the given Python version's grammar (match, except*, ...)."""
    problems = []
    for path in files:
        with open(path, "rb") as handle:
            source = handle.read()
        try:
            with warnings.catch_warnings():  # old packages' invalid escapes are not our finding
                warnings.simplefilter("ignore")
                ast.parse(source, path, feature_version=version)
        except SyntaxError as error:
            problems.append(f"{path}:{error.lineno}: not valid Python {version[0]}.{version[1]}: {error.msg}")
    return problems


_VERMIN = "import sys, vermin; sys.argv[0] = 'vermin'; sys.exit(vermin.main())"


def vermin_available(python: str = sys.executable) -> bool:
    try:
        result = subprocess.run([python, "-c", _VERMIN, "--version"], capture_output=True, text=True,
                                stdin=subprocess.DEVNULL, check=False)
    except OSError:
        return False
    return result.returncode == 0


def vermin_problems(paths: Sequence[str], python: str = sys.executable) -> List[str]:
    """vermin's findings that need more than Python 3.9 (its exit code is non-zero exactly then)."""
    if not paths:
        return []
    result = subprocess.run(
        [python, "-c", _VERMIN, "-t=3.9-", "--no-tips", "--violations", "--no-make-paths-absolute",
         "--eval-annotations", *paths],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False,
    )
    if result.returncode == 0:
        return []
    lines = [line.rstrip() for line in result.stdout.splitlines() if line.strip()]
    return ["vermin: " + line for line in lines] or [f"vermin failed: {result.stderr.strip()}"]


def _names_in(node: ast.AST) -> Iterator[str]:
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            yield child.id
        elif isinstance(child, ast.Attribute):
            yield child.attr
            if isinstance(child.value, ast.Name):
                yield f"{child.value.id}.{child.attr}"
        elif isinstance(child, ast.Constant) and isinstance(child.value, str):
            yield child.value


def _is_platform_test(test: ast.AST) -> bool:
    for name in _names_in(test):
        if name in ("os.name", "sys.platform", "hasattr", "getattr", "win32", "nt", "posix", "darwin"):
            return True
        if _PLATFORM_WORDS.search(name):
            return True
    return False


def _exits(body: Sequence[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _catches_failure(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    return any(name in _CATCHING for name in _names_in(handler.type))


class _Finder(ast.NodeVisitor):
    """Records POSIX-only uses with whether a Windows path guards them, and every reference to each function."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.guard_depth = 0
        self.function: List[str] = []
        self.uses: List[Tuple[int, str, bool, Optional[str]]] = []  # line, what, guarded, enclosing function
        self.references: Dict[str, List[bool]] = {}  # function name -> guarded? for each reference

    # -- guards

    def _visit_block(self, body: Sequence[ast.stmt]) -> None:
        raised = 0
        for statement in body:
            self.visit(statement)
            # `if IS_WINDOWS: ...; return` guards everything after it in the block.
            if isinstance(statement, ast.If) and _is_platform_test(statement.test) and _exits(statement.body):
                self.guard_depth += 1
                raised += 1
        self.guard_depth -= raised

    def visit_If(self, node: ast.If) -> None:
        guarded = _is_platform_test(node.test)
        self.visit(node.test)
        self.guard_depth += guarded
        self._visit_block(node.body)
        self._visit_block(node.orelse)
        self.guard_depth -= guarded

    def visit_IfExp(self, node: ast.IfExp) -> None:
        guarded = _is_platform_test(node.test)
        self.guard_depth += guarded
        self.generic_visit(node)
        self.guard_depth -= guarded

    def visit_Try(self, node: ast.Try) -> None:
        guarded = any(_catches_failure(h) for h in node.handlers)
        self.guard_depth += guarded
        self._visit_block(node.body)
        self.guard_depth -= guarded
        for handler in node.handlers:
            self._visit_block(handler.body)
        self._visit_block(node.orelse)
        self._visit_block(node.finalbody)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def _function(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        outer, self.guard_depth = self.guard_depth, 0  # a body runs when called, not where it is defined
        self.function.append(node.name)
        self._visit_block(node.body)
        self.function.pop()
        self.guard_depth = outer

    def visit_Module(self, node: ast.Module) -> None:
        self._visit_block(node.body)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._visit_block(node.body)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            self.visit(item)
        self._visit_block(node.body)

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        self._visit_block(node.body)
        self._visit_block(node.orelse)

    def visit_While(self, node: ast.While) -> None:
        self.visit(node.test)
        self._visit_block(node.body)
        self._visit_block(node.orelse)

    # -- findings

    def _record(self, node: ast.AST, what: str) -> None:
        line = getattr(node, "lineno", 0)
        noted = 0 < line <= len(self.lines) and PRAGMA in self.lines[line - 1]
        self.uses.append((line, what, self.guard_depth > 0 or noted, self.function[-1] if self.function else None))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] in POSIX_MODULES:
                self._record(node, f"import {alias.name}")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = (node.module or "").split(".")[0]
        if node.level == 0 and module in POSIX_MODULES:
            self._record(node, f"from {node.module} import ...")
        elif node.level == 0 and module in POSIX_ATTRIBUTES:
            for alias in node.names:
                if alias.name in POSIX_ATTRIBUTES[module]:
                    self._record(node, f"{module}.{alias.name}")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.attr in POSIX_ATTRIBUTES.get(node.value.id, set()):
            self._record(node, f"{node.value.id}.{node.attr}")
        elif node.attr in POSIX_METHODS:
            self._record(node, f".{node.attr}()")
        self.references.setdefault(node.attr, []).append(self.guard_depth > 0)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        self.references.setdefault(node.id, []).append(self.guard_depth > 0)

    def visit_keyword(self, node: ast.keyword) -> None:
        if node.arg in POSIX_KEYWORDS:
            self._record(node.value, f"{node.arg}=")
        self.generic_visit(node)


def posix_problems(files: Sequence[str]) -> List[str]:
    """POSIX-only calls with no Windows path, as `file:line: what`."""
    problems: List[str] = []
    for path in files:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
        finder = _Finder(source.splitlines())
        finder.visit(ast.parse(source, path))
        # A helper whose every use is guarded is itself guarded (e.g. `_signal_group` called only on POSIX).
        safe_helpers: Set[str] = set()
        for _line, _what, guarded, function in finder.uses:
            refs = finder.references.get(function or "", [])
            if function and not guarded and refs and all(refs):
                safe_helpers.add(function)
        for line, what, guarded, function in finder.uses:
            if not guarded and function not in safe_helpers:
                problems.append(f"{path}:{line}: {what} is POSIX-only and has no Windows path "
                                f"(test os.name / sys.platform, catch the failure, or add a '# {PRAGMA} why' note)")
    return problems
