"""`agentty-plugin bundle`: a plugin folder plus `_vendor/` (the runtime and pinned pure-Python packages) and a zip.

    dist/<id>/                 what Agentty runs (copy it to ~/.agentty/plugins/<id>/)
        agentty-plugin.json, main.py, <logic package>/, README.md, CHANGELOG.md, ...
        _vendor/agentty_plugin/   only the runtime modules the plugin reaches (no harness, no build tools)
        _vendor/<packages>        the wheels pinned in requirements.txt, unpacked
        _vendor/VENDORED.txt      what is in _vendor and at which version
    dist/<id>-<version>.zip    the same folder, for passing around

main.py puts `_vendor` on sys.path first thing, so the bundle needs nothing but `python3` 3.9+.
"""

from __future__ import annotations

import ast
import os
import shutil
import sys
import time
import zipfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set

from ..manifest import ManifestError, load_manifest
from ..plugin import SDK_VERSION
from . import portability
from .markers import target_environments
from .requirements import REQUIREMENTS_FILE, RequirementsError, check_closure, read_requirements
from .wheels import BundleError, fetch_wheels, read_wheel_info, unpack_wheel

VENDOR = "_vendor"
RUNTIME_PACKAGE = "agentty_plugin"
RUNTIME_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Not copied from a plugin folder: build and editor litter, the dev-link _vendor, and requirements.txt
# (the bundle lists what it carries in _vendor/VENDORED.txt instead).
SKIPPED_NAMES = {".git", ".DS_Store", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis",
                 "tests", "test", "dist", "build", ".venv", "venv", VENDOR, REQUIREMENTS_FILE, "Thumbs.db"}
SKIPPED_SUFFIXES = (".pyc", ".pyo", ".egg-info", ".swp", "~")
# Runtime modules kept out of every bundle unless a plugin imports them by name: the test harness,
# the command line, static checks and these build tools are for authors, not for Agentty.
DEVELOPMENT_ONLY = {"testing", "__main__", "checks", "distribution"}
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed, so the same sources give byte-identical zips


@dataclass
class BundleResult:
    """What `bundle_plugin` built."""

    plugin_id: str
    version: str
    folder: str
    zip_path: Optional[str]
    packages: List[str] = field(default_factory=list)  # "name==version" of each vendored wheel
    runtime_modules: List[str] = field(default_factory=list)
    left_out: List[str] = field(default_factory=list)  # the plugin's own modules main.py never imports
    warnings: List[str] = field(default_factory=list)  # worth fixing, but the bundle works
    seconds: float = 0.0

    @property
    def size(self) -> int:
        return folder_size(self.folder)


def folder_size(folder: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _s, files in os.walk(folder) for f in files)


def _imported_runtime_modules(source: str, filename: str, relative: bool) -> Set[str]:
    """Runtime module names a file imports (`agentty_plugin.x`, or `.x` inside the runtime itself)."""
    found: Set[str] = set()
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == RUNTIME_PACKAGE:
                    found.add(parts[1] if len(parts) > 1 else "__init__")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if relative and node.level == 1:
                base = module.split(".")[0] if module else ""
            elif node.level == 0 and module.split(".")[0] == RUNTIME_PACKAGE:
                found.add("__init__")
                base = module.split(".")[1] if "." in module else ""
            else:
                continue
            if base:
                found.add(base)
            else:  # `from . import ui` / `from agentty_plugin import ui`: the names may be modules
                found.update(alias.name for alias in node.names)
    return found


def runtime_modules(runtime_dir: str, plugin_files: Sequence[str]) -> List[str]:
    """The runtime's modules a plugin reaches: its own imports, then everything those import, transitively."""
    available = {name[:-3] for name in os.listdir(runtime_dir) if name.endswith(".py")}
    wanted: Set[str] = set()
    for path in plugin_files:
        with open(path, encoding="utf-8") as handle:
            wanted |= _imported_runtime_modules(handle.read(), path, relative=False)
    wanted &= available
    todo = sorted(wanted)
    while todo:
        name = todo.pop()
        path = os.path.join(runtime_dir, name + ".py")
        with open(path, encoding="utf-8") as handle:
            for found in _imported_runtime_modules(handle.read(), path, relative=True) & available:
                if found not in wanted:
                    wanted.add(found)
                    todo.append(found)
    if wanted:
        wanted.add("__init__")
    return sorted(wanted)


def _top_level_modules(plugin_dir: str, main: str) -> Dict[str, str]:
    """The plugin's own importable top-level modules and packages (name -> path), main.py excepted."""
    found: Dict[str, str] = {}
    for name in os.listdir(plugin_dir):
        path = os.path.join(plugin_dir, name)
        if name.endswith(".py") and name != os.path.basename(main) and os.path.isfile(path):
            found[name[:-3]] = path
        elif os.path.isfile(os.path.join(path, "__init__.py")) and not _skip(name):
            found[name] = path
    return found


def unreached_modules(plugin_dir: str, main: str) -> List[str]:
    """Top-level modules/packages of the plugin that main.py never imports, directly or through its own
    modules (e.g. a command-line tool or an ACP agent living beside the plugin): they stay out of the bundle.
    Conservative: a package that is reached is copied whole."""
    local = _top_level_modules(plugin_dir, main)
    reached: Set[str] = set()
    todo = [os.path.join(plugin_dir, main)]
    while todo:
        path = todo.pop()
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), path)
        for node in ast.walk(tree):
            names: List[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for top in {name.split(".")[0] for name in names} & set(local) - reached:
                reached.add(top)
                todo.extend([local[top]] if local[top].endswith(".py") else portability.python_files(local[top]))
    return sorted(set(local) - reached)


def _skip(name: str) -> bool:
    return name in SKIPPED_NAMES or name.endswith(SKIPPED_SUFFIXES)


def copy_plugin_folder(source: str, destination: str, left_out: Sequence[str] = ()) -> None:
    """Copy what the plugin ships (less the top-level names in `left_out`); refuse symlinks, which
    Agentty's own installer would silently drop."""
    for folder, subfolders, files in os.walk(source):
        relative = os.path.relpath(folder, source)
        at_top = relative == os.curdir
        subfolders[:] = sorted(d for d in subfolders if not _skip(d) and not (at_top and d in left_out))
        if at_top:
            files = [f for f in files if not (f.endswith(".py") and f[:-3] in left_out)]
        target = os.path.normpath(os.path.join(destination, relative))
        os.makedirs(target, exist_ok=True)
        for name in sorted(files) + [d for d in subfolders if os.path.islink(os.path.join(folder, d))]:
            path = os.path.join(folder, name)
            if _skip(name):
                continue
            if os.path.islink(path):
                raise BundleError(f"{path} is a symbolic link: Agentty does not copy links when it installs, "
                                  f"so the plugin would break; put the real file in the plugin folder")
            shutil.copy2(path, os.path.join(target, name))


def write_zip(folder: str, zip_path: str, top: str) -> None:
    """A deterministic zip of `folder` whose entries sit under `top/` (sorted, fixed times, fixed modes)."""
    temporary = zip_path + ".part"
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for directory, subfolders, files in os.walk(folder):
            subfolders.sort()
            for name in sorted(files):
                path = os.path.join(directory, name)
                arcname = "/".join([top, *os.path.relpath(path, folder).split(os.sep)])
                info = zipfile.ZipInfo(arcname, ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                with open(path, "rb") as handle:
                    archive.writestr(info, handle.read())
    os.replace(temporary, zip_path)


def _vendored_listing(plugin_id: str, modules: Sequence[str], packages: Sequence[str]) -> str:
    lines = [
        f"# What {VENDOR}/ holds in this bundle of {plugin_id} (written by `agentty-plugin bundle`).",
        f"# main.py puts {VENDOR}/ on sys.path; nothing here is installed with pip.",
        f"agentty-plugin=={SDK_VERSION}  # runtime modules: {', '.join(m for m in modules)}",
        *packages,
    ]
    return "\n".join(lines) + "\n"


def release_notes_warnings(plugin_dir: str, version: str) -> List[str]:
    """What a user would miss: a README, and a CHANGELOG.md whose newest entry is this version."""
    found: List[str] = []
    if not os.path.isfile(os.path.join(plugin_dir, "README.md")):
        found.append("no README.md (users read it to learn the commands, permissions and install steps)")
    changelog = os.path.join(plugin_dir, "CHANGELOG.md")
    if not os.path.isfile(changelog):
        found.append("no CHANGELOG.md")
    else:
        with open(changelog, encoding="utf-8") as handle:
            headings = [line for line in handle if line.startswith("## ")]
        if not headings or version not in headings[0]:
            found.append(f"CHANGELOG.md's newest entry is not {version} (newest first, one entry per version)")
    return found


def check_bundle(folder: str, *, vermin: bool = True, python: str = sys.executable) -> List[str]:
    """Portability problems of a built bundle (empty when it is fine); see `portability`."""
    every = portability.python_files(folder)
    owned = portability.python_files(folder, skip=[VENDOR])
    owned += portability.python_files(os.path.join(folder, VENDOR, RUNTIME_PACKAGE))
    problems = portability.grammar_problems(every)
    problems += portability.posix_problems(owned)
    if vermin and portability.vermin_available(python):
        problems += portability.vermin_problems(owned, python)
    elif vermin:
        sys.stderr.write("note: vermin is not installed, so the minimum-Python check was skipped "
                         "(pip install vermin, or use the project venv)\n")
    return [problem.replace(folder + os.sep, "") for problem in problems]  # paths as they are in the bundle


def bundle_plugin(
    plugin_dir: str,
    dist_dir: str,
    *,
    cache_dir: Optional[str] = None,
    pip_args: Sequence[str] = (),
    python: str = sys.executable,
    runtime_dir: str = RUNTIME_DIR,
    make_zip: bool = True,
    vermin: bool = True,
) -> BundleResult:
    """Build `dist_dir/<id>/` (and `dist_dir/<id>-<version>.zip`) from a plugin folder; raise BundleError."""
    started = time.monotonic()
    try:
        manifest = load_manifest(plugin_dir)
    except ManifestError as error:
        raise BundleError(f"{plugin_dir}: the manifest is not valid:\n  " + "\n  ".join(error.problems)) from None
    if manifest.runtime != "python":
        raise BundleError(f"{manifest.id}: only runtime \"python\" plugins can be bundled (this one is "
                          f"{manifest.runtime!r})")
    try:
        pins = read_requirements(plugin_dir)
    except RequirementsError as error:
        raise BundleError(f"{manifest.id}: requirements.txt is not usable:\n  " + "\n  ".join(error.problems)) \
            from None
    cache_dir = cache_dir or os.path.join(dist_dir, ".wheels")
    wheels = fetch_wheels(pins, cache_dir, python=python, pip_args=pip_args)
    infos = {key: read_wheel_info(path) for key, path in wheels.items()}
    for pin in pins:
        if infos[pin.key].version != pin.version:
            raise BundleError(f"{wheels[pin.key]} says it is version {infos[pin.key].version}, not {pin.version}")
    problems = check_closure(pins, infos, target_environments())
    if problems:
        raise BundleError(f"{manifest.id}: requirements.txt is incomplete for Python 3.9-3.13 on macOS, Linux "
                          f"and Windows:\n  " + "\n  ".join(problems))

    os.makedirs(dist_dir, exist_ok=True)
    staging = os.path.join(dist_dir, f".staging-{manifest.id}-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        left_out = unreached_modules(plugin_dir, manifest.main)
        copy_plugin_folder(plugin_dir, staging, left_out)
        vendor = os.path.join(staging, VENDOR)
        os.makedirs(vendor, exist_ok=True)
        plugin_files = portability.python_files(staging, skip=[VENDOR])
        modules = runtime_modules(runtime_dir, plugin_files)
        runtime_target = os.path.join(vendor, RUNTIME_PACKAGE)
        os.makedirs(runtime_target, exist_ok=True)
        for module in modules:
            if module in DEVELOPMENT_ONLY and module != "__init__":
                # Imported by the plugin itself, so it must ship; say so, since it is usually a mistake.
                sys.stderr.write(f"note: {manifest.id} imports agentty_plugin.{module}, a development module\n")
            shutil.copy2(os.path.join(runtime_dir, module + ".py"), os.path.join(runtime_target, module + ".py"))
        owners: Dict[str, str] = {f"{RUNTIME_PACKAGE}/{m}.py": "the runtime" for m in modules}
        packages = []
        for pin in pins:
            unpack_wheel(wheels[pin.key], vendor, owners)
            packages.append(f"{infos[pin.key].name}=={infos[pin.key].version}")
        with open(os.path.join(vendor, "VENDORED.txt"), "w", encoding="utf-8", newline="\n") as handle:
            handle.write(_vendored_listing(manifest.id, modules, packages))
        if pins:
            # The pinned requirements travel with the bundle: a package that goes missing later is then
            # named with its real name and version in the plugin's fix-it hint (`_dependency.py`).
            shutil.copy2(os.path.join(plugin_dir, REQUIREMENTS_FILE), os.path.join(vendor, REQUIREMENTS_FILE))
        problems = check_bundle(staging, vermin=vermin, python=python)
        if problems:
            raise BundleError(f"{manifest.id}: the bundle would not run everywhere Agentty does:\n  "
                              + "\n  ".join(problems))
        folder = os.path.join(dist_dir, manifest.id)
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    zip_path = None
    if make_zip:
        zip_path = os.path.join(dist_dir, f"{manifest.id}-{manifest.version}.zip")
        write_zip(folder, zip_path, manifest.id)
    return BundleResult(manifest.id, manifest.version, folder, zip_path, packages, modules, left_out,
                        release_notes_warnings(plugin_dir, manifest.version), time.monotonic() - started)


def plugin_folders(root: str, only: Optional[str] = None) -> List[str]:
    """Plugin folders under `root` (those with a manifest), or just `root/<only>`."""
    if only:
        folder = os.path.join(root, only)
        if not os.path.isfile(os.path.join(folder, "agentty-plugin.json")):
            raise BundleError(f"no plugin {only!r}: {folder} has no agentty-plugin.json")
        return [folder]
    return [os.path.join(root, name) for name in sorted(os.listdir(root))
            if os.path.isfile(os.path.join(root, name, "agentty-plugin.json"))]


DEV_VENDOR_MARK = "# Packages for a development link (written by `agentty-plugin link`); never commit this folder."


def remove_development_vendor(plugin_dir: str) -> bool:
    """Delete the `_vendor/` that `link` wrote into a checkout folder (only one carrying its mark)."""
    vendor = os.path.join(plugin_dir, VENDOR)
    try:
        with open(os.path.join(vendor, "VENDORED.txt"), encoding="utf-8") as handle:
            ours = handle.readline().strip() == DEV_VENDOR_MARK
    except OSError:
        return False
    if ours:
        shutil.rmtree(vendor)
    return ours


def vendor_for_development(plugin_dir: str, cache_dir: str, *, python: str = sys.executable,
                           pip_args: Sequence[str] = ()) -> List[str]:
    """Fill `<plugin_dir>/_vendor/` with the pinned packages only (the runtime comes live from ../../shared
    through main.py's bootstrap), so a dev-linked checkout runs under a bare `python3`. Returns the pins."""
    try:
        pins = read_requirements(plugin_dir)
    except RequirementsError as error:
        raise BundleError(f"{plugin_dir}: requirements.txt is not usable:\n  " + "\n  ".join(error.problems)) \
            from None
    vendor = os.path.join(plugin_dir, VENDOR)
    if not pins:
        shutil.rmtree(vendor, ignore_errors=True)
        return []
    wheels = fetch_wheels(pins, cache_dir, python=python, pip_args=pip_args)
    infos = {key: read_wheel_info(path) for key, path in wheels.items()}
    problems = check_closure(pins, infos, target_environments())
    if problems:
        raise BundleError(f"{plugin_dir}: requirements.txt is incomplete:\n  " + "\n  ".join(problems))
    fresh = vendor + f".new-{os.getpid()}"
    shutil.rmtree(fresh, ignore_errors=True)
    os.makedirs(fresh)
    owners: Dict[str, str] = {}
    for pin in pins:
        unpack_wheel(wheels[pin.key], fresh, owners)
    with open(os.path.join(fresh, "VENDORED.txt"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(DEV_VENDOR_MARK + "\n")
        handle.write("".join(f"{pin.spec}\n" for pin in pins))
    shutil.rmtree(vendor, ignore_errors=True)
    os.replace(fresh, vendor)
    return [pin.spec for pin in pins]
