"""Load and check `agentty-plugin.json` by the host's rules, with errors a person can act on."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

ID_PATTERN = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])$")
VERSION_PATTERN = re.compile(r"^\d+\.\d+\.\d+$")
RUNTIMES = ("node", "python", "executable", "wasm")
# The v1-era permission set; the later ones are accepted only with the apiVersion that brought them.
PERMISSIONS = {
    "prompt.inject": 1,
    "terminal.write": 1,
    "session.read": 1,
    "workspace.read": 1,
    "net.request": 1,
    "browser.control": 3,
    "files": 1,
    "mcp.tools": 4,
}
SURFACES = ("pane", "sidebar", "status")
MODES = ("push", "overlay", "window", "full", "workspace")
MANIFEST_NAME = "agentty-plugin.json"


class ManifestError(ValueError):
    """The manifest is invalid; `problems` lists every reason, each naming the field."""

    def __init__(self, path: str, problems: List[str]) -> None:
        super().__init__(f"{path}: " + "; ".join(problems))
        self.path = path
        self.problems = problems


@dataclass(frozen=True)
class Command:
    id: str
    title: str
    description: str = ""
    icon: Optional[str] = None
    palette: bool = True


@dataclass(frozen=True)
class Manifest:
    id: str
    name: str
    version: str
    main: str
    runtime: str
    api_version: int
    permissions: List[str]
    commands: List[Command]
    folder: str
    panel: Optional[Dict[str, Any]] = None
    description: str = ""
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def has_permission(self, permission: str) -> bool:
        return permission in self.permissions


def _check(data: Mapping[str, Any], folder: str) -> List[str]:
    problems: List[str] = []
    plugin_id = data.get("id")
    if not isinstance(plugin_id, str) or not ID_PATTERN.match(plugin_id):
        problems.append(
            f"id {plugin_id!r} must be 2-40 characters of a-z, 0-9 and '-', not starting or ending with '-'"
        )
    elif folder and os.path.basename(os.path.abspath(folder)) != plugin_id:
        folder_name = os.path.basename(os.path.abspath(folder))  # abspath: `check .` names the real folder
        problems.append(f'manifest id "{plugin_id}" does not match the folder "{folder_name}"')
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append("name must be a non-empty string")
    version = data.get("version")
    if not isinstance(version, str) or not VERSION_PATTERN.match(version):
        problems.append(f"version {version!r} must be major.minor.patch, e.g. 0.1.0")
    runtime = data.get("runtime", "node")
    if runtime not in RUNTIMES:
        problems.append(f"runtime {runtime!r} must be one of {', '.join(RUNTIMES)}")
    api = data.get("apiVersion", 1)
    if not isinstance(api, int) or isinstance(api, bool) or api < 1:
        problems.append(f"apiVersion {api!r} must be a whole number ≥ 1")
        api = 1
    main = data.get("main")
    if not isinstance(main, str) or not main:
        problems.append("main must name the entry point, e.g. main.py")
    elif os.path.isabs(main) or main.startswith(("/", "\\")) or ".." in re.split(r"[\\/]", main):
        problems.append(f"main {main!r} must be a relative path inside the plugin folder (no absolute path, no '..')")
    elif folder and not os.path.isfile(os.path.join(folder, main)):
        problems.append(f"entry point {main} is missing")
    permissions = data.get("permissions", [])
    if not isinstance(permissions, list):
        problems.append("permissions must be a list of strings")
    else:
        for permission in permissions:
            if permission not in PERMISSIONS:
                problems.append(f"unknown permission {permission!r} (known: {', '.join(PERMISSIONS)})")
            elif PERMISSIONS[permission] > api:
                problems.append(f"permission {permission!r} needs apiVersion {PERMISSIONS[permission]} or higher")
    contributes = data.get("contributes", {})
    if not isinstance(contributes, Mapping):
        problems.append("contributes must be an object")
        contributes = {}
    panel = contributes.get("panel")
    if panel is not None:
        if not isinstance(panel, Mapping) or not isinstance(panel.get("title"), str):
            problems.append("contributes.panel needs a title")
        else:
            if panel.get("surface", "pane") not in SURFACES:
                problems.append(f"contributes.panel.surface must be one of {', '.join(SURFACES)}")
            if panel.get("mode", "push") not in MODES:
                problems.append(f"contributes.panel.mode must be one of {', '.join(MODES)}")
    commands = contributes.get("commands", [])
    if not isinstance(commands, list):
        problems.append("contributes.commands must be a list")
        commands = []
    seen = set()
    for index, command in enumerate(commands):
        where = f"contributes.commands[{index}]"
        if not isinstance(command, Mapping) or not isinstance(command.get("id"), str) or not command["id"]:
            problems.append(f"{where} needs a string id")
            continue
        if not isinstance(command.get("title"), str) or not command["title"]:
            problems.append(f"{where} ({command['id']}) needs a title")
        if command["id"] in seen:
            problems.append(f"{where}: command id {command['id']!r} is declared twice")
        seen.add(command["id"])
    homepage = data.get("homepage")
    if homepage is not None and (not isinstance(homepage, str) or not homepage.startswith("https://")):
        problems.append("homepage must be an https:// URL")
    return problems


def load_manifest(folder: str) -> Manifest:
    """Read `<folder>/agentty-plugin.json`; raise ManifestError with every problem found."""
    path = os.path.join(folder, MANIFEST_NAME)
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        raise ManifestError(path, ["no agentty-plugin.json in this folder"]) from None
    except ValueError as error:
        raise ManifestError(path, [f"not valid JSON: {error}"]) from None
    if not isinstance(data, Mapping):
        raise ManifestError(path, ["the manifest must be a JSON object"])
    problems = _check(data, folder)
    if problems:
        raise ManifestError(path, problems)
    contributes = data.get("contributes") or {}
    return Manifest(
        id=data["id"],
        name=data["name"],
        version=data["version"],
        main=data["main"],
        runtime=data.get("runtime", "node"),
        api_version=data.get("apiVersion", 1),
        permissions=list(data.get("permissions", [])),
        commands=[
            Command(id=c["id"], title=c["title"], description=str(c.get("description", "")), icon=c.get("icon"),
                    palette=c.get("palette", True) is not False)
            for c in contributes.get("commands", [])
        ],
        folder=os.path.abspath(folder),
        panel=dict(contributes["panel"]) if isinstance(contributes.get("panel"), Mapping) else None,
        description=str(data.get("description", "")),
        raw=dict(data),
    )
