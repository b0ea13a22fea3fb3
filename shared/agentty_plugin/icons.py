"""Agentty's icon names, and a static search for every icon a plugin's manifest and code can show.

Agentty draws an icon it does not know as a puzzle piece (the dev host as "•"), so `agentty-plugin
check` names the file and line of each such name. The set is the one in the host reference
(../shared/reference/agentty-host.md §4, "Icon names"); NEWER_ICONS are only in newer hosts.
"""

from __future__ import annotations

import ast
import difflib
import json
import os
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Tuple

ICONS: FrozenSet[str] = frozenset("""
app-window arrow-down arrow-left arrow-right arrow-up arrow-up-right at-sign bell bell-dot blocks book-open
bookmark bot brain bug calendar chart-column check chevron-down chevron-right chevron-up circle-check circle-dot
circle-pause circle-x clipboard clipboard-paste clock cloud code columns-2 command container copy database
download ellipsis external-link eye file-input file-plus file-text folder folder-git-2 folder-open folder-plus
git-branch git-commit-horizontal git-pull-request globe grip-vertical hammer hash history house image info
key-round layout-panel-left lightbulb link list list-tree loader-circle mail maximize-2 message-circle-question
message-square minimize-2 minus network notebook notebook-pen package panel-left-close panel-left-open pencil
picture-in-picture-2 play plug plus power puzzle refresh-cw rocket rotate-cw rows-2 save scroll-text search send
settings shield-alert sparkles square square-plus square-terminal star sticky-note tag terminal trash-2 undo-2
unlink upload users wand-sparkles workflow wrench x zap git-fork file lock graduation-cap x-twitter
""".split())  # noqa: SIM905 (kept as the reference lists them, to compare by eye)
NEWER_ICONS: FrozenSet[str] = frozenset("""
cloud-alert cloud-check cloud-off cloud-upload fold-vertical laptop monitor remote-desktop smartphone lock-open
""".split())  # noqa: SIM905 (kept as the reference lists them, to compare by eye)

# ui.button(id, label, icon), ui.item(id, title, subtitle, detail, icon), ui.action(id, label, icon)
_POSITIONAL = {"button": 2, "item": 4, "action": 2}
_SKIPPED_FOLDERS = {"_vendor", "tests", "__pycache__", "node_modules"}
_DEPTH = 8


def unknown_icon(name: str) -> Optional[str]:
    """None for an icon Agentty has; otherwise why not, with the nearest names it does have."""
    if name in ICONS:
        return None
    near = difflib.get_close_matches(name, sorted(ICONS | NEWER_ICONS), n=3, cutoff=0.5)
    hint = f" (near: {', '.join(near)})" if near else ""
    if name in NEWER_ICONS:
        return f"icon {name!r} exists only in newer Agentty versions; older ones draw a puzzle piece{hint}"
    return f"icon {name!r} is not in Agentty's icon set, so Agentty draws a puzzle piece{hint}"


# ------------------------------------------------------------------------------------------------ manifest

def manifest_icons(folder: str, manifest_name: str = "agentty-plugin.json") -> List[Tuple[int, str]]:
    """(line, name) of every icon in the manifest: the plugin's, its panel's and its commands'."""
    path = os.path.join(folder, manifest_name)
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        data = json.loads(text)
    except (OSError, ValueError):
        return []  # the manifest check reports it
    if not isinstance(data, dict):
        return []
    contributes = data.get("contributes")
    contributes = contributes if isinstance(contributes, dict) else {}
    panel = contributes.get("panel")
    panel = panel if isinstance(panel, dict) else {}
    commands = contributes.get("commands")
    commands = commands if isinstance(commands, list) else []
    names = [data.get("icon"), panel.get("icon")] + [c.get("icon") for c in commands if isinstance(c, dict)]
    lines = text.split("\n")
    found: List[Tuple[int, str]] = []
    for name in names:
        if isinstance(name, str):
            quoted = json.dumps(name)
            line = next((i for i, row in enumerate(lines, 1) if '"icon"' in row and quoted in row), 1)
            found.append((line, name))
    return found


# ------------------------------------------------------------------------------------------------ code

Assignments = Dict[str, List[Tuple[ast.expr, Optional[int]]]]  # name → (value, its index when unpacked)


def _assignments(nodes: Sequence[ast.AST]) -> Assignments:
    found: Assignments = {}
    for node in nodes:
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name):
                found.setdefault(target.id, []).append((node.value, None))
            elif isinstance(target, ast.Tuple):  # `tone, icon = "neutral", "folder"` or `= TABLE[key]`
                for index, element in enumerate(target.elts):
                    if isinstance(element, ast.Name):
                        found.setdefault(element.id, []).append((node.value, index))
    return found


class _Scope:
    """Assignments visible from one function: its own (every one, whatever branch), else the module's."""

    def __init__(self, module: ast.Module, function: Optional[ast.AST]) -> None:
        self.module = _assignments(module.body)
        self.local = _assignments(list(ast.walk(function))) if function is not None else {}

    def get(self, name: str) -> List[Tuple[ast.expr, Optional[int]]]:
        return self.local.get(name) or self.module.get(name) or []


Found = List[Tuple[int, str]]  # (line of the literal, the string)


def _strings(expr: ast.expr, scope: _Scope, index: Optional[int] = None, depth: int = 0) -> Optional[Found]:
    """Every string `expr` can be (its `index`-th element, for a tuple) with the line of its literal, or None
    when that cannot be seen."""
    if depth > _DEPTH:
        return None
    if isinstance(expr, ast.Constant):
        if expr.value is None:
            return []
        return [(expr.lineno, expr.value)] if isinstance(expr.value, str) and index is None else None
    if isinstance(expr, ast.Tuple):
        if index is None or index >= len(expr.elts):
            return None
        return _strings(expr.elts[index], scope, None, depth + 1)
    if isinstance(expr, ast.IfExp):
        body, orelse = _strings(expr.body, scope, index, depth + 1), _strings(expr.orelse, scope, index, depth + 1)
        return None if body is None or orelse is None else body + orelse
    if isinstance(expr, ast.BoolOp):  # `a and "x"`, `name or "x"`: the parts that are values, not conditions
        found = [_strings(value, scope, index, depth + 1) for value in expr.values]
        if found[-1] is None:
            return None
        return [s for part in found if part for s in part]
    if isinstance(expr, ast.Name):
        values = scope.get(expr.id)
        if not values:
            return None
        result: Found = []
        for value, position in values:
            if position is not None and index is not None:
                return None  # a tuple inside a tuple: not worth following
            found_here = _strings(value, scope, position if position is not None else index, depth + 1)
            if found_here is None:
                return None
            result.extend(found_here)
        return result
    table = _table(expr)
    if table is not None:
        mapping, default = table
        found_values = _dict_values(mapping, scope, index, depth)
        if found_values is None:
            return None
        if default is not None:
            extra = _strings(default, scope, index, depth + 1)
            if extra is None:
                return None
            found_values += extra
        return found_values
    return None


def _table(expr: ast.expr) -> Optional[Tuple[ast.expr, Optional[ast.expr]]]:
    """`TABLE[key]` or `TABLE.get(key[, default])`: (TABLE, default)."""
    if isinstance(expr, ast.Subscript):
        return expr.value, None
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get" \
            and expr.args:
        return expr.func.value, expr.args[1] if len(expr.args) > 1 else None
    return None


def _dict_values(mapping: ast.expr, scope: _Scope, index: Optional[int], depth: int) -> Optional[Found]:
    if isinstance(mapping, ast.Name):
        values = scope.get(mapping.id)
        if len(values) != 1 or values[0][1] is not None:
            return None
        mapping = values[0][0]
    if not isinstance(mapping, ast.Dict):
        return None
    result: Found = []
    for value in mapping.values:
        found = _strings(value, scope, index, depth + 1)
        if found is None:
            return None
        result.extend(found)
    return result


def _icon_arguments(call: ast.Call) -> Iterator[ast.expr]:
    for keyword in call.keywords:
        if keyword.arg == "icon":
            yield keyword.value
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "ui" \
            and func.attr in _POSITIONAL and len(call.args) > _POSITIONAL[func.attr]:
        yield call.args[_POSITIONAL[func.attr]]


def code_icons(path: str) -> Tuple[List[Tuple[int, str]], List[int]]:
    """((line, name) of every icon the module can pass to the ui, [lines whose icon cannot be seen])."""
    with open(path, encoding="utf-8") as handle:
        try:
            module = ast.parse(handle.read(), path)
        except SyntaxError:
            return [], []  # the wiring check reports it
    functions = [node for node in ast.walk(module) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    owner: Dict[int, ast.AST] = {}
    for function in functions:  # the innermost function holding each call
        for node in ast.walk(function):
            owner[id(node)] = function
    found: List[Tuple[int, str]] = []
    unseen: List[int] = []
    scopes: Dict[int, _Scope] = {}
    for node in ast.walk(module):
        if not isinstance(node, ast.Call):
            continue
        holder = owner.get(id(node))
        key = id(holder)
        if key not in scopes:
            scopes[key] = _Scope(module, holder)
        for argument in _icon_arguments(node):
            names = _strings(argument, scopes[key])
            if names is None:
                unseen.append(node.lineno)
            else:
                found.extend(names)
    return found, unseen


def plugin_code_files(folder: str) -> List[str]:
    """The plugin's own Python files: not its tests, not what it vendors."""
    files: List[str] = []
    for root, folders, names in os.walk(folder):
        folders[:] = sorted(d for d in folders if d not in _SKIPPED_FOLDERS and not d.startswith("."))
        files.extend(os.path.join(root, name) for name in sorted(names) if name.endswith(".py"))
    return files


def icon_problems(folder: str) -> Tuple[List[str], List[str]]:
    """(problems, warnings) about the icons of the plugin in `folder`, each naming its file and line."""
    problems: List[str] = []
    warnings: List[str] = []
    for line, name in manifest_icons(folder):
        reason = unknown_icon(name)
        if reason:
            (warnings if name in NEWER_ICONS else problems).append(f"agentty-plugin.json:{line}: {reason}")
    for path in plugin_code_files(folder):
        relative = os.path.relpath(path, folder).replace(os.sep, "/")
        found, unseen = code_icons(path)
        for line, name in found:
            reason = unknown_icon(name)
            if reason:
                (warnings if name in NEWER_ICONS else problems).append(f"{relative}:{line}: {reason}")
        for line in unseen:
            warnings.append(f"{relative}:{line}: icon chosen at run time, cannot be checked against Agentty's set")
    return problems, warnings
