"""Portability checks: POSIX-only calls need a Windows path; vermin and the 3.9 grammar over what bundles carry."""

from __future__ import annotations

import os
import textwrap

import pytest
from agentty_plugin.distribution import portability
from agentty_plugin.distribution.bundle import VENDOR, check_bundle


def _problems(tmp_path, source):
    path = tmp_path / "module.py"
    path.write_text(textwrap.dedent(source))
    return [p.split(": ", 1)[1] for p in portability.posix_problems([str(path)])]




@pytest.mark.parametrize("source, found", [
    ("import os\nos.killpg(1, 9)\n", ["os.killpg"]),
    ("import fcntl\n", ["import fcntl"]),
    ("import signal\ndef stop(p):\n    p.send_signal(signal.SIGKILL)\n", ["signal.SIGKILL"]),
    ("import subprocess\nsubprocess.Popen(['x'], preexec_fn=lambda: None)\n", ["preexec_fn="]),
    ("import asyncio\nasyncio.get_event_loop().add_signal_handler(2, print)\n", [".add_signal_handler()"]),
    ("from os import getuid\n", ["os.getuid"]),
])
def test_unguarded_posix_only_calls_are_reported(tmp_path, source, found):
    problems = _problems(tmp_path, source)
    assert [p.split(" is POSIX-only")[0] for p in problems] == found
    assert all("Windows path" in p for p in problems)


@pytest.mark.parametrize("source", [
    "import os\nif os.name == 'posix':\n    os.killpg(1, 9)\n",
    "import os, sys\nif sys.platform == 'win32':\n    pass\nelse:\n    os.setsid()\n",
    ("import os\nIS_WINDOWS = os.name == 'nt'\ndef stop(pid):\n    if IS_WINDOWS:\n        return\n"
     "    os.killpg(pid, 9)\n"),
    "try:\n    import fcntl\nexcept ImportError:\n    fcntl = None\n",
    "import os\ndef f():\n    try:\n        return os.getuid()\n    except AttributeError:\n        return 0\n",
    "import signal\nKILL = getattr(signal, 'SIGKILL', signal.SIGTERM)\n",
    "import signal, os\nsig = signal.SIGKILL if os.name != 'nt' else signal.SIGTERM\n",
    "import os\nos.killpg(1, 9)  # posix-only: this module is imported only on macOS and Linux\n",
    "import posixpath\nprint(posixpath.normpath('a/../b'))\n",  # pure Python: it imports on Windows too
    # A helper reached only from guarded places is itself guarded.
    ("import os, signal\nIS_WINDOWS = os.name == 'nt'\nclass Runner:\n    def _group(self, n):\n"
     "        os.killpg(1, n)\n    def stop(self):\n        if IS_WINDOWS:\n            return\n"
     "        self._group(signal.SIGTERM)\n"),
])
def test_posix_only_calls_with_a_windows_path_pass(tmp_path, source):
    assert _problems(tmp_path, source) == []


def test_a_helper_also_called_unguarded_is_reported(tmp_path):
    source = ("import os\nIS_WINDOWS = os.name == 'nt'\ndef _group(n):\n    os.killpg(1, n)\n"
              "def stop():\n    if not IS_WINDOWS:\n        _group(15)\ndef kill():\n    _group(9)\n")
    assert [p.split(" is")[0] for p in _problems(tmp_path, source)] == ["os.killpg"]


def test_grammar_check_uses_python_3_9_rules(tmp_path):
    new = tmp_path / "new.py"
    new.write_text("def f(x):\n    match x:\n        case _:\n            return (y := 1)\n")
    old = tmp_path / "old.py"
    old.write_text("def f(x):\n    return (y := x)\n")
    problems = portability.grammar_problems([str(new), str(old)])
    assert len(problems) == 1 and "new.py" in problems[0] and "3.9" in problems[0]


needs_vermin = pytest.mark.skipif(not portability.vermin_available(), reason="vermin is not installed")


@needs_vermin
def test_vermin_flags_3_10_standard_library_use(tmp_path):
    modern = tmp_path / "modern.py"
    modern.write_text("import sys\nprint(sys.orig_argv)\n")  # sys.orig_argv is new in 3.10
    classic = tmp_path / "classic.py"
    classic.write_text("import sys\nprint(sys.argv)\n")
    assert portability.vermin_problems([str(classic)]) == []
    assert any("orig_argv" in p for p in portability.vermin_problems([str(modern)]))


@needs_vermin
def test_every_bundle_passes_every_portability_check(probe_bundle, real_bundles):
    """What each bundle carries: every file parses as Python 3.9, POSIX-only calls have a Windows path, and the
    plugin's code and the runtime need nothing newer than 3.9 according to vermin (one run over all bundles)."""
    owned = portability.python_files(os.path.join(probe_bundle.folder, VENDOR, "agentty_plugin"))  # same in all
    for result in [probe_bundle, *real_bundles.values()]:
        assert check_bundle(result.folder, vermin=False) == [], result.plugin_id
        owned += portability.python_files(result.folder, skip=[VENDOR])
    assert portability.vermin_problems(owned) == []
