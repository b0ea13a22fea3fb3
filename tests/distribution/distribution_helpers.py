"""Shared helpers for the distribution tests: paths, interpreters to run bundles with, a clean environment."""

from __future__ import annotations

import glob
import json
import os
import re
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "shared"))

PROBE = os.path.join(REPO, "tests", "distribution", "plugins", "dist-probe")
# Real wheels: fetched here by `make venv` (tests/distribution/prefetch_wheels.py); the tests read them offline.
WHEEL_CACHE = os.path.join(REPO, "dist", ".wheels")


def _version(path: str):
    match = re.search(r"(\d+)\.(\d+)\.(\d+)", path)
    return tuple(int(n) for n in match.groups()) if match else (0, 0, 0)


def pyenv_pythons():
    """CPython 3.9+ interpreters under pyenv, oldest first."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = [p for p in glob.glob(os.path.join(root, "versions", "3.*", "bin", "python3"))
             if _version(p) >= (3, 9, 0) and os.access(p, os.X_OK)]
    return sorted(found, key=_version)


def interpreters(with_venv=True):
    """The oldest and newest pyenv CPython 3.9+ (when present) with -S, and the project venv's Python with -S
    (always when `with_venv`, else only when pyenv has none)."""
    found = pyenv_pythons()
    chosen = []
    if with_venv or not found:
        chosen.append(pytest.param((sys.executable, ["-S"]), id=f"venv-{sys.version_info[0]}.{sys.version_info[1]}-S"))
    for path in {p: None for p in (found[:1] + found[-1:])}:
        label = ".".join(str(n) for n in _version(path))
        chosen.append(pytest.param((path, ["-S"]), id=f"cpython-{label}-S"))
    if not found:
        chosen.append(pytest.param(None, id="pyenv", marks=pytest.mark.skip(reason="no pyenv CPython 3.9+ here")))
    return chosen


def real_plugin_folders():
    """Every python plugin in plugins/ that has a manifest (they land one by one)."""
    found = []
    for manifest in sorted(glob.glob(os.path.join(REPO, "plugins", "*", "agentty-plugin.json"))):
        with open(manifest, encoding="utf-8") as handle:
            if json.load(handle).get("runtime") == "python":
                found.append(os.path.dirname(manifest))
    return found


def clean_env():
    """An environment in which a plugin can only find what its bundle carries."""
    return {"PYTHONPATH": "", "PYTHONNOUSERSITE": "1"}
