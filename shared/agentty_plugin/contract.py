"""The controller contract, as far as `agentty-plugin check` can see it without running the plugin.

Every plugin with a package `<pkg>/` (its id with '_' for '-') follows one shape, the one the template
teaches: `<pkg>/view.py` defines `State`, a `typing.NamedTuple` (an immutable snapshot: a dataclass
costs start-up time), and a pure `render(state, t)` that imports no `Plugin` and no controller;
`<pkg>/app.py` defines the controller `class App` with `__init__(self, plugin)` and `update(**changes)`;
`<pkg>/text.py` defines the catalog `TEXT`, whose keys are snake_case. A plugin whose program is
`main.py` alone has no such package, and no rule applies.
"""

from __future__ import annotations

import ast
import os
import re
from typing import FrozenSet, List, Optional

# Plugins that do not follow the contract yet: check reports their breaches as warnings, so that
# `make check` stays green while they are migrated. Take a plugin's id out once it follows the
# contract, and its breaches fail the check from then on; an empty set makes the rules errors for all.
PENDING: FrozenSet[str] = frozenset()

SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")


def _parse(path: str) -> Optional[ast.Module]:
    try:
        with open(path, encoding="utf-8") as handle:
            return ast.parse(handle.read(), path)
    except (OSError, SyntaxError, ValueError):
        return None


def _class(module: ast.Module, name: str) -> Optional[ast.ClassDef]:
    return next((node for node in module.body if isinstance(node, ast.ClassDef) and node.name == name), None)


def _base_names(node: ast.ClassDef) -> List[str]:
    return [base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else ""
            for base in node.bases]


def _view_breaches(path: str, shown: str) -> List[str]:
    module = _parse(path)
    if module is None:
        return [f"{shown}: missing or unreadable; the contract puts State and render(state, t) there"]
    breaches: List[str] = []
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom):
            names = {alias.name for alias in node.names}
            source = ("." * node.level) + (node.module or "")
            if "Plugin" in names or source in (".app", "agentty_plugin.plugin") or source.endswith(".app"):
                breaches.append(f"{shown}:{node.lineno}: the view imports {'Plugin' if 'Plugin' in names else source}; "
                                f"a pure render(state, t) needs neither the plugin nor the controller")
        elif isinstance(node, ast.Import) and any(alias.name.endswith(".app") for alias in node.names):
            breaches.append(f"{shown}:{node.lineno}: the view imports the controller")
    state = _class(module, "State")
    if state is None:
        breaches.append(f"{shown}: defines no State (the panel's snapshot: class State(NamedTuple))")
    elif "NamedTuple" not in _base_names(state):
        kind = "a dataclass" if state.decorator_list else "a mutable class"
        breaches.append(f"{shown}:{state.lineno}: State is {kind}; make it a typing.NamedTuple (an immutable "
                        f"snapshot replaced with _replace, and no start-up cost)")
    if not any(isinstance(node, ast.FunctionDef) and node.name == "render" for node in module.body):
        breaches.append(f"{shown}: defines no render(state, t)")
    return breaches


def _app_breaches(path: str, shown: str) -> List[str]:
    module = _parse(path)
    if module is None:
        return [f"{shown}: missing or unreadable; the contract puts the controller App there"]
    app = _class(module, "App")
    if app is None:
        others = [node.name for node in module.body if isinstance(node, ast.ClassDef)]
        named = f" (it has {', '.join(others)})" if others else ""
        return [f"{shown}: defines no controller class App{named}"]
    methods = {node.name: node for node in app.body if isinstance(node, ast.FunctionDef)}
    breaches: List[str] = []
    init = methods.get("__init__")
    if init is None or [a.arg for a in init.args.args[1:2]] != ["plugin"]:
        breaches.append(f"{shown}:{app.lineno}: App's __init__ takes the plugin as `plugin` (App(plugin))")
    if "update" not in methods:
        breaches.append(f"{shown}:{app.lineno}: App has no update(**changes), the one way its state changes")
    return breaches


def _text_breaches(path: str, shown: str) -> List[str]:
    module = _parse(path)
    if module is None:
        return [f"{shown}: missing or unreadable; the contract puts the catalog TEXT there"]
    catalog = next((node.value for node in module.body if isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "TEXT" for t in node.targets)), None)
    if catalog is None:
        return [f"{shown}: defines no catalog TEXT (TEXT = Translator({{...}}))"]
    # The languages' dictionaries: literals inside TEXT = Translator({...}), or module-level names it uses.
    named = {t.id: node.value for node in module.body if isinstance(node, ast.Assign)
             for t in node.targets if isinstance(t, ast.Name)}
    languages: List[ast.Dict] = []
    for node in ast.walk(catalog):
        if isinstance(node, ast.Dict):
            for value in node.values:
                resolved = named.get(value.id) if isinstance(value, ast.Name) else value
                if isinstance(resolved, ast.Dict):
                    languages.append(resolved)
    bad = sorted({(key.lineno, key.value) for language in languages for key in language.keys
                  if isinstance(key, ast.Constant) and isinstance(key.value, str) and not SNAKE_CASE.match(key.value)})
    return [f"{shown}:{line}: catalog key {key!r} is not snake_case (e.g. no_folder, index_building)"
            for line, key in bad[:10]] + ([f"{shown}: … and {len(bad) - 10} more keys"] if len(bad) > 10 else [])


def contract_breaches(folder: str, plugin_id: str) -> List[str]:
    """Every way the plugin's package departs from the contract, naming file and line; [] if it has none."""
    package = plugin_id.replace("-", "_")
    if not os.path.isdir(os.path.join(folder, package)):
        return []
    return (_view_breaches(os.path.join(folder, package, "view.py"), f"{package}/view.py")
            + _app_breaches(os.path.join(folder, package, "app.py"), f"{package}/app.py")
            + _text_breaches(os.path.join(folder, package, "text.py"), f"{package}/text.py"))
