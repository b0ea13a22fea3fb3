"""Builds small wheels for the distribution tests, so no test needs a package index."""

from __future__ import annotations

import os
import zipfile
from typing import Dict, Iterable, Optional


def make_wheel(folder: str, name: str, version: str, files: Dict[str, str], *, tag: str = "py3-none-any",
               requires: Iterable[str] = (), requires_python: Optional[str] = None,
               extra_members: Optional[Dict[str, str]] = None) -> str:
    """Write `<name>-<version>-<tag>.whl` into `folder` with the given package files and metadata."""
    os.makedirs(folder, exist_ok=True)
    dist = f"{name.replace('-', '_')}-{version}"
    path = os.path.join(folder, f"{dist}-{tag}.whl")
    metadata = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    if requires_python:
        metadata.append(f"Requires-Python: {requires_python}")
    metadata += [f"Requires-Dist: {line}" for line in requires]
    members = dict(files)
    members[f"{dist}.dist-info/METADATA"] = "\n".join(metadata) + "\n\n"
    members[f"{dist}.dist-info/WHEEL"] = f"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: {tag}\n"
    members[f"{dist}.dist-info/LICENSE"] = "MIT\n"
    members.update(extra_members or {})
    record = [f"{member},," for member in members] + [f"{dist}.dist-info/RECORD,,"]
    members[f"{dist}.dist-info/RECORD"] = "\n".join(record) + "\n"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in members.items():
            archive.writestr(member, text)
    return path


def probe_wheels(folder: str) -> str:
    """The two wheels dist-probe pins: tinydep (needs tinybackport below 3.11) and tinybackport."""
    make_wheel(folder, "tinydep", "1.0.0", {
        "tinydep/__init__.py": (
            '"""A tiny dependency."""\n'
            "import sys\n"
            "if sys.version_info < (3, 11):\n"
            "    from tinybackport import suffix\n"
            "else:\n"
            "    def suffix():\n"
            "        return 'native'\n"
            "\n\ndef greet(name):\n"
            "    return 'hello ' + name + ' via ' + suffix()\n"
        ),
        "tinydep/__init__.pyi": "def greet(name: str) -> str: ...\n",
        "tinydep/py.typed": "",
        "tinydep/tests/test_tinydep.py": "assert False, 'tests are not bundled'\n",
        "tinydep/__pycache__/junk.cpython-311.pyc": "junk",
    }, requires=['tinybackport>=1.0; python_version < "3.11"', 'pytest; extra == "test"'], requires_python=">=3.8")
    make_wheel(folder, "tinybackport", "1.0.0", {
        "tinybackport.py": '"""Backport."""\n\n\ndef suffix():\n    return "backport"\n',
    }, tag="py2.py3-none-any")
    return folder
