"""`agentty-plugin new <id>`: write a small working plugin folder in the house shape, with the runtime vendored in.

    <dest>/<id>/
        agentty-plugin.json, main.py, README.md, CHANGELOG.md
        <package>/  ids.py, app.py, view.py, text.py
        tests/      conftest.py, test_<package>.py (through agentty_plugin.testing), run.py (runs them
                    on a bare python3: agentty_plugin.testrun)
        _vendor/agentty_plugin/   a copy of this runtime, so `python3 main.py` needs nothing installed

The files come from `template/` next to this module (`*.tmpl`, so no tool mistakes them for code);
`{{id}}`, `{{name}}`, `{{pkg}}` and `{{sdk_version}}` are replaced, and `template/pkg/` is renamed.
"""

from __future__ import annotations

import keyword
import os
import shutil
import sys
from typing import Dict, FrozenSet, List

from .manifest import ID_PATTERN

RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__))
TEMPLATE_DIR = os.path.join(RUNTIME_DIR, "template")
TEMPLATE_SUFFIX = ".tmpl"
PACKAGE_PLACEHOLDER = "pkg"
VENDOR = "_vendor"
RUNTIME_PACKAGE = "agentty_plugin"
# What the vendored runtime keeps: its modules (the test harness too, since the new plugin's test uses
# it) and the template; caches and anything else in the source folder stay out.
VENDORED_SUFFIXES = (".py", TEMPLATE_SUFFIX, "py.typed")
# Names a plugin's package must not take: main.py's folder comes first on sys.path, so a package
# called `json` or `agentty_plugin` would hide the real one from the plugin and from the runtime.
RESERVED_PACKAGES: FrozenSet[str] = frozenset({RUNTIME_PACKAGE, "agentty_devhost", "main", "tests", "test"})


class ScaffoldError(ValueError):
    """The plugin cannot be created as asked; the message says why and what to do instead."""


def _standard_library() -> FrozenSet[str]:
    names = getattr(sys, "stdlib_module_names", None)  # Python 3.10+
    if names is not None:
        return frozenset(names)
    return frozenset(sys.builtin_module_names) | {"json", "os", "sys", "re", "ast", "typing", "logging", "email",
                                                  "http", "test", "string", "types", "queue", "select", "token"}


def package_name(plugin_id: str) -> str:
    """The Python package for a plugin id (`word-count` → `word_count`); ScaffoldError if the id cannot be one."""
    if not ID_PATTERN.match(plugin_id or ""):
        raise ScaffoldError(
            f"{plugin_id!r} is not a plugin id: use 2-40 characters of a-z, 0-9 and '-' (kebab-case, like "
            f"word-count), not starting or ending with '-'")
    name = plugin_id.replace("-", "_")
    if not name.isidentifier() or keyword.iskeyword(name):
        raise ScaffoldError(f"{plugin_id!r} cannot name a Python package ({name!r}); start the id with a letter "
                            f"and avoid Python keywords, e.g. my-{plugin_id}")
    if name in RESERVED_PACKAGES or name in _standard_library():
        raise ScaffoldError(f"the package {name!r} would hide Python's or the runtime's own module of that name; "
                            f"choose another id, e.g. my-{plugin_id}")
    return name


def display_name(plugin_id: str) -> str:
    """`word-count` → `Word Count` (the manifest's name and the panel's title; edit it freely afterwards)."""
    return " ".join(part.capitalize() for part in plugin_id.split("-"))


def _fill(text: str, values: Dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def _template_files(template_dir: str) -> List[str]:
    found: List[str] = []
    for folder, subfolders, files in os.walk(template_dir):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        found.extend(os.path.join(folder, name) for name in sorted(files) if name.endswith(TEMPLATE_SUFFIX))
    return found


def write_template(target: str, values: Dict[str, str], template_dir: str = TEMPLATE_DIR) -> List[str]:
    """Write the filled-in template into `target`; return the paths written, relative to it."""
    written: List[str] = []
    files = _template_files(template_dir)
    if not files:
        raise ScaffoldError(f"the plugin template is missing from {template_dir}; reinstall agentty-plugin")
    for source in files:
        relative = os.path.relpath(source, template_dir)[: -len(TEMPLATE_SUFFIX)]
        parts = relative.split(os.sep)
        if parts[0] == PACKAGE_PLACEHOLDER:
            parts[0] = values["pkg"]
        if parts[-1] == "test_pkg.py":
            parts[-1] = f"test_{values['pkg']}.py"
        destination = os.path.join(target, *parts)
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        with open(source, encoding="utf-8") as handle:
            text = _fill(handle.read(), values)
        with open(destination, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        written.append("/".join(parts))
    return written


def vendor_runtime(target: str, runtime_dir: str = RUNTIME_DIR) -> str:
    """Copy the runtime package into `<target>/_vendor/agentty_plugin/` (no caches); return that folder."""
    destination = os.path.join(target, VENDOR, RUNTIME_PACKAGE)
    for folder, subfolders, files in os.walk(runtime_dir):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__" and not d.startswith("."))
        relative = os.path.relpath(folder, runtime_dir)
        for name in sorted(files):
            if name.endswith(VENDORED_SUFFIXES):
                os.makedirs(os.path.join(destination, relative), exist_ok=True)
                shutil.copy2(os.path.join(folder, name), os.path.join(destination, relative, name))
    return destination


def is_checkout_root(folder: str) -> bool:
    """Whether `folder` is the agentty-plugins checkout itself (its plugins go under plugins/, not beside it)."""
    return (os.path.isdir(os.path.join(folder, "plugins"))
            and os.path.isfile(os.path.join(folder, "shared", RUNTIME_PACKAGE, "scaffold.py")))


def _vendored_note(sdk_version: str) -> str:
    return (f"agentty-plugin runtime {sdk_version}, copied here by `agentty-plugin new` so that `python3 main.py`\n"
            "runs with nothing installed. `agentty-plugin new` from a newer runtime, or `make bundle`, gives a\n"
            "fresh copy; inside the agentty-plugins checkout, `make link` removes this folder (the runtime then\n"
            "comes from ../../shared).\n")


def new_plugin(plugin_id: str, dest: str = ".", *, vendor: bool = True, template_dir: str = TEMPLATE_DIR,
               runtime_dir: str = RUNTIME_DIR) -> str:
    """Create `<dest>/<plugin_id>/` from the template (and vendor the runtime); return its path.

    Refuses a bad id and an existing folder that is not empty. The folder is written beside its place
    and moved there at the end, so a failure leaves nothing half-made.
    """
    from . import SDK_VERSION

    package = package_name(plugin_id)
    if is_checkout_root(dest):
        raise ScaffoldError(f"{os.path.abspath(dest)} is the root of the agentty-plugins checkout, where a plugin "
                            f"would be an untracked folder that nothing builds or tests; nothing was written. Use "
                            f"--dest plugins (or make new PLUGIN={plugin_id}) to put it next to the other plugins, "
                            f"or run it outside the checkout")
    folder = os.path.join(dest, plugin_id)
    if os.path.lexists(folder) and not (os.path.isdir(folder) and not os.path.islink(folder)
                                        and not os.listdir(folder)):
        raise ScaffoldError(f"{folder} already exists and is not an empty folder; nothing was written. "
                            f"Choose another --dest, or move it away first")
    if os.path.exists(dest) and not os.path.isdir(dest):
        raise ScaffoldError(f"--dest {dest} is a file, not a folder")
    os.makedirs(dest, exist_ok=True)
    values = {"id": plugin_id, "name": display_name(plugin_id), "pkg": package, "sdk_version": SDK_VERSION}
    staging = os.path.join(dest, f".{plugin_id}.new-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        write_template(staging, values, template_dir)
        if vendor:
            vendor_runtime(staging, runtime_dir)
            with open(os.path.join(staging, VENDOR, "VENDORED.txt"), "w", encoding="utf-8", newline="\n") as handle:
                handle.write(_vendored_note(SDK_VERSION))
        if os.path.isdir(folder):
            os.rmdir(folder)  # empty (checked above); fails, losing nothing, if something arrived meanwhile
        os.replace(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder
