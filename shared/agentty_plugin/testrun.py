"""A small test runner for a plugin's tests on a bare python3 (no pytest): `python3 tests/run.py [file …]`.

It runs what the scaffold's and the guide's tests use and nothing more: every `test_*` function of every
`tests/test_*.py` file, in file order, with the one fixture they take, `tmp_path` (a fresh folder,
removed afterwards). A test that asks for another pytest fixture fails with a hint to install pytest,
which runs the same files unchanged. Exit status: 0 all passed, 1 a test failed, 5 no test was found.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator, List, Optional, Sequence, TextIO, Tuple

NO_TESTS = 5  # pytest's status for "nothing collected"
PYTEST_HINT = "install pytest (python3 -m pip install pytest) and run python3 -m pytest"


def test_files(paths: Sequence[str]) -> List[str]:
    """The test files named, and the `test_*.py` files under the folders named, sorted within each folder."""
    found: List[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, folders, files in os.walk(path):
                folders[:] = sorted(d for d in folders if not d.startswith((".", "_")) and d != "__pycache__")
                found.extend(os.path.join(root, f) for f in sorted(files) if f.startswith("test_")
                             and f.endswith(".py"))
        else:
            found.append(path)
    return found


def _load(path: str) -> ModuleType:
    """Import a test file as pytest does by default: its folder first on sys.path, named by its file name."""
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    conftest = os.path.join(folder, "conftest.py")
    if os.path.isfile(conftest) and "conftest" not in sys.modules:
        __import__("conftest")
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _tests(module: ModuleType) -> Iterator[Tuple[str, Callable[..., Any]]]:
    for name, value in list(vars(module).items()):  # a test may add globals while it runs
        if name.startswith("test") and inspect.isfunction(value) and value.__module__ == module.__name__:
            yield name, value


def _call(test: Callable[..., Any]) -> None:
    arguments = {}
    temporary: Optional[str] = None
    for name in inspect.signature(test).parameters:
        if name != "tmp_path":
            raise TypeError(f"the test asks for the pytest fixture {name!r}, which this runner does not have: "
                            f"{PYTEST_HINT}")
        temporary = tempfile.mkdtemp(prefix=test.__name__[:30] + "-")
        arguments[name] = Path(temporary)
    try:
        test(**arguments)
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)


def run(paths: Sequence[str], out: TextIO = sys.stdout) -> int:
    """Run the tests in `paths` (files or folders); print a line per test and a summary; return the status."""
    started = time.monotonic()
    passed, failed = 0, 0
    for path in test_files(paths):
        shown = os.path.relpath(path)
        try:
            module = _load(path)
        except Exception:  # a broken import is that file's failure, not the runner's
            failed += 1
            out.write(f"ERROR {shown} (could not be imported)\n{traceback.format_exc()}\n")
            continue
        for name, test in _tests(module):
            try:
                _call(test)
            except Exception:
                failed += 1
                out.write(f"FAILED {shown}::{name}\n{traceback.format_exc()}\n")
            else:
                passed += 1
                out.write(f"ok {shown}::{name}\n")
            out.flush()
    seconds = time.monotonic() - started
    if not passed and not failed:
        out.write(f"no tests found in {', '.join(paths)}\n")
        return NO_TESTS
    summary = ", ".join(part for part in (failed and f"{failed} failed", f"{passed} passed") if part)
    out.write(f"{summary} in {seconds:.1f} s\n")
    return 1 if failed else 0


def main(argv: Sequence[str], default: str = "tests") -> int:
    """`python3 tests/run.py [file or folder …]`; with no argument, every test under `default`."""
    if any(arg.startswith("-") for arg in argv):
        sys.stderr.write(f"usage: python3 tests/run.py [test file or folder …] (for options, {PYTEST_HINT})\n")
        return 2
    return run(list(argv) or [default])
