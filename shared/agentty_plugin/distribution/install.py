"""Install, replace, uninstall and dev-link plugins in an Agentty home, the way Agentty's own installer does.

Agentty keeps plugins in `<home>/plugins/<id>/` (folder name = manifest id), their private data in
`<home>/plugin-data/<id>/`, and what it installed from where in `<home>/plugins/state.json`
(`{"plugins": {"<id>": {"enabled", "source", "path"?, "origin"?}}}`, mode 0600). An install copies
into `.staging-<id>-<pid>` (a name Agentty never reads as a plugin and sweeps away if left behind),
checks the staged manifest and entry point, then swaps it in; the data folder is left alone. A
development link is a state entry with `source: "dev"` and the folder's path: Agentty then runs the
plugin from that folder, and Restart picks up edits.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from ..manifest import ID_PATTERN, MANIFEST_NAME, _check
from .wheels import BundleError

REFRESH_HINT = "In Agentty press Plugins → Refresh (or Restart on the plugin's card if it is running)."
COPY_SKIPPED = {".git", ".DS_Store"}  # what Agentty's folder install leaves out
MAX_DEPTH = 12  # Agentty's folder install refuses deeper trees


def agentty_home(explicit: Optional[str] = None) -> str:
    """`--home`, else $AGENTTY_HOME, else ~/.agentty."""
    return os.path.abspath(os.path.expanduser(explicit or os.environ.get("AGENTTY_HOME") or "~/.agentty"))


@dataclass(frozen=True)
class Home:
    root: str

    @property
    def plugins(self) -> str:
        return os.path.join(self.root, "plugins")

    @property
    def state_path(self) -> str:
        return os.path.join(self.plugins, "state.json")

    def plugin_dir(self, plugin_id: str) -> str:
        return os.path.join(self.plugins, plugin_id)

    def data_dir(self, plugin_id: str) -> str:
        return os.path.join(self.root, "plugin-data", plugin_id)

    def load_state(self) -> Dict[str, Any]:
        """Agentty's state file. A file that cannot be read is an error, never silently replaced:
        it holds which plugins the user turned off and every dev link."""
        try:
            with open(self.state_path, encoding="utf-8") as handle:
                data = json.load(handle)
        except FileNotFoundError:
            return {"plugins": {}}
        except (OSError, ValueError) as error:
            raise BundleError(f"{self.state_path} cannot be read ({error}); Agentty will move it aside as "
                              f"state.damaged.json on its next start. Not touching it.") from None
        if not isinstance(data, dict) or not isinstance(data.get("plugins", {}), dict):
            raise BundleError(f"{self.state_path} is not an Agentty state file; not touching it")
        data.setdefault("plugins", {})
        return data

    def save_state(self, state: Dict[str, Any]) -> None:
        """Atomic, 0600 from the start (it says what the user installed and from where)."""
        os.makedirs(self.plugins, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".state-", suffix=".json.tmp", dir=self.plugins)
        try:
            if os.name == "posix":
                os.fchmod(handle, 0o600)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(state, out, indent=2, sort_keys=True)
                out.write("\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.state_path)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise

    def entry(self, plugin_id: str) -> Optional[Dict[str, Any]]:
        entry = self.load_state()["plugins"].get(plugin_id)
        return entry if isinstance(entry, dict) else None


def _check_id(plugin_id: str) -> None:
    if not ID_PATTERN.match(plugin_id):
        raise BundleError(f"{plugin_id!r} is not a plugin id")


def _copy_tree(source: str, target: str, depth: int = 0) -> None:
    """Copy as Agentty does: skip .git and .DS_Store, never follow links, at most 12 levels deep."""
    if depth > MAX_DEPTH:
        raise BundleError(f"{source}: the plugin folder is nested too deeply (Agentty stops at {MAX_DEPTH} levels)")
    os.makedirs(target, exist_ok=True)
    for name in sorted(os.listdir(source)):
        if name in COPY_SKIPPED:
            continue
        path = os.path.join(source, name)
        if os.path.islink(path):
            continue  # Agentty does not follow links: a plugin must not pull in files from elsewhere
        if os.path.isdir(path):
            _copy_tree(path, os.path.join(target, name), depth + 1)
        elif os.path.isfile(path):
            shutil.copy2(path, os.path.join(target, name))


@dataclass(frozen=True)
class _Plugin:
    id: str
    version: str
    main: str


def read_plugin(folder: str) -> _Plugin:
    """The manifest of a folder to install or link, checked by the host's rules. The folder's own name
    does not matter (Agentty installs into plugins/<manifest id>), but the entry point must exist."""
    data = _read_staged_manifest(folder)
    problems = _check(data, "")
    main = str(data.get("main", ""))
    if not problems and not os.path.isfile(os.path.join(folder, main)):
        problems.append(f"entry point {main} is missing")
    if problems:
        raise BundleError(f"{folder}: not an installable plugin:\n  " + "\n  ".join(problems))
    return _Plugin(str(data["id"]), str(data["version"]), main)


def _read_staged_manifest(staged: str) -> Dict[str, Any]:
    try:
        with open(os.path.join(staged, MANIFEST_NAME), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as error:
        raise BundleError(f"{staged}: the manifest cannot be read: {error}") from None
    if not isinstance(data, dict):
        raise BundleError(f"{staged}: the manifest is not a JSON object")
    return data


@dataclass(frozen=True)
class InstallResult:
    plugin_id: str
    version: str
    folder: str
    replaced: Optional[str]  # the version that was there before, or None
    data_dir: str


def install(bundle_dir: str, home: Optional[str] = None) -> InstallResult:
    """Copy a bundle (or any plugin folder) into `<home>/plugins/<id>/`, replacing an older copy whole."""
    place = Home(agentty_home(home))
    manifest = read_plugin(bundle_dir)
    entry = place.entry(manifest.id)
    if entry and entry.get("source") == "dev":
        raise BundleError(f'"{manifest.id}" is linked for development ({entry.get("path")}); '
                          f"unlink it first (agentty-plugin link --remove {manifest.id})")
    target = place.plugin_dir(manifest.id)
    previous: Optional[str] = None
    if os.path.isfile(os.path.join(target, MANIFEST_NAME)):
        try:
            previous = str(_read_staged_manifest(target).get("version", "?"))
        except BundleError:
            previous = "?"
    os.makedirs(place.plugins, exist_ok=True)
    staged = os.path.join(place.plugins, f".staging-{manifest.id}-{os.getpid()}")
    aside = staged + "-previous"
    for leftover in (staged, aside):
        shutil.rmtree(leftover, ignore_errors=True)
    try:
        _copy_tree(bundle_dir, staged)
        # Checked on the copy, as Agentty does: what is swapped in is what was checked.
        if read_plugin(staged).id != manifest.id:
            raise BundleError("the plugin id changed while it was being copied")
        # Swap: the old folder moves aside (restored if the move in fails), then is deleted.
        if os.path.lexists(target):
            os.replace(target, aside)
        try:
            os.replace(staged, target)
        except OSError:
            if os.path.lexists(aside):
                os.replace(aside, target)
            raise
    finally:
        shutil.rmtree(staged, ignore_errors=True)
        shutil.rmtree(aside, ignore_errors=True)
    state = place.load_state()
    old = state["plugins"].get(manifest.id)
    enabled = bool(old.get("enabled", True)) if isinstance(old, dict) else True
    state["plugins"][manifest.id] = {"enabled": enabled, "source": "folder", "origin": os.path.abspath(bundle_dir)}
    place.save_state(state)
    return InstallResult(manifest.id, manifest.version, target, previous, place.data_dir(manifest.id))


@dataclass(frozen=True)
class UninstallResult:
    plugin_id: str
    removed: List[str]  # folders deleted
    unlinked: bool  # a dev link was removed (its folder kept)


def uninstall(plugin_id: str, home: Optional[str] = None, keep_data: bool = False) -> UninstallResult:
    """Remove a plugin as Agentty's Uninstall does: its folder (a dev link only loses its entry), its data
    folder (unless keep_data) and its state entry."""
    _check_id(plugin_id)
    place = Home(agentty_home(home))
    state = place.load_state()
    entry = state["plugins"].get(plugin_id)
    dev = isinstance(entry, dict) and entry.get("source") == "dev"
    removed: List[str] = []
    folder = place.plugin_dir(plugin_id)
    if not dev and os.path.lexists(folder):
        if os.path.islink(folder):
            os.unlink(folder)
        else:
            shutil.rmtree(folder)
        removed.append(folder)
    data = place.data_dir(plugin_id)
    if not keep_data and os.path.isdir(data):
        shutil.rmtree(data)
        removed.append(data)
    if entry is None and not removed:
        raise BundleError(f"{plugin_id} is not installed in {place.plugins}")
    if entry is not None:
        del state["plugins"][plugin_id]
        place.save_state(state)
    return UninstallResult(plugin_id, removed, dev)


def link(plugin_dir: str, home: Optional[str] = None) -> str:
    """Record a development link to `plugin_dir` (Agentty runs it in place); return the plugin id."""
    place = Home(agentty_home(home))
    manifest = read_plugin(plugin_dir)
    if os.path.lexists(place.plugin_dir(manifest.id)):
        raise BundleError(f'a plugin with id "{manifest.id}" is already installed in {place.plugins}; '
                          f"uninstall it first (make uninstall PLUGIN={manifest.id})")
    state = place.load_state()
    path = os.path.abspath(plugin_dir)
    state["plugins"][manifest.id] = {"enabled": True, "source": "dev", "path": path, "origin": path}
    place.save_state(state)
    return manifest.id


def unlink(plugin_id: str, home: Optional[str] = None) -> bool:
    """Remove a development link (the folder stays); False when there was none."""
    _check_id(plugin_id)
    place = Home(agentty_home(home))
    state = place.load_state()
    entry = state["plugins"].get(plugin_id)
    if not (isinstance(entry, dict) and entry.get("source") == "dev"):
        return False
    del state["plugins"][plugin_id]
    place.save_state(state)
    return True


def say(text: str) -> None:
    sys.stderr.write(text + "\n")
