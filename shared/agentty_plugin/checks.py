"""Static checks of a plugin folder: a valid manifest, ids matched to handlers (see `wiring`), a clean main.py,
icons Agentty has (see `icons`) and the controller contract (see `contract`)."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from typing import List, Sequence, Set, Tuple

from .contract import PENDING as CONTRACT_PENDING
from .contract import contract_breaches
from .icons import icon_problems
from .manifest import ManifestError, load_manifest
from .wiring import IdUse, Wiring, analyze


@dataclass
class CheckResult:
    """What `inspect_plugin` found: problems fail the check; warnings name what could not be checked."""

    plugin_id: str
    problems: List[str] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)


def _string_argument(call: ast.Call) -> str:
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return ""


def registered_commands(source: str) -> Set[str]:
    """Command ids registered with `@<obj>.command("id")` or `<obj>.command("id")(handler)`."""
    found: Set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "command":
            name = _string_argument(node)
            if name:
                found.add(name)
    return found


def _shape_problems(source: str, filename: str) -> List[str]:
    tree = ast.parse(source, filename)
    problems: List[str] = []
    if not ast.get_docstring(tree):
        problems.append(f"{filename}: needs a module docstring saying what the plugin does")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            problems.append(f"{filename}:{node.lineno}: print() — stdout belongs to the protocol; use plugin.log()")
    guarded = any(
        isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"
        for node in tree.body
    )
    if not guarded:
        problems.append(f'{filename}: needs an `if __name__ == "__main__":` guard around plugin.run()')
    return problems


def check_plugin(folder: str) -> Tuple[str, List[str]]:
    """(plugin id or folder, problems) for one plugin folder; an empty list means it is fine."""
    result = inspect_plugin(folder)
    return result.plugin_id, result.problems


def inspect_plugin(folder: str) -> CheckResult:
    """Check one plugin folder: manifest, main.py's shape, commands and element ids against their handlers."""
    try:
        manifest = load_manifest(folder)
    except ManifestError as error:
        return CheckResult(os.path.basename(os.path.abspath(folder)), list(error.problems))
    result = CheckResult(manifest.id)
    if manifest.runtime != "python":
        return result
    main_path = os.path.join(folder, manifest.main)
    with open(main_path, encoding="utf-8") as handle:
        source = handle.read()
    try:
        result.problems.extend(_shape_problems(source, manifest.main))
    except SyntaxError as error:
        result.problems.append(f"{manifest.main}:{error.lineno}: syntax error: {error.msg}")
        return result
    wiring = analyze(folder)
    declared = [c.id for c in manifest.commands]
    handled = {value for use in wiring.commands for value in use.values}
    computed = [use for use in wiring.commands if use.pattern is not None]
    for missing in declared:
        if missing not in handled and not any(use.pattern and use.pattern.match(missing) for use in computed):
            result.problems.append(f"command {missing!r} is declared in the manifest but has no handler "
                                   f"(plugin.command({missing!r}))")
    for use in wiring.commands:
        for extra in use.values:
            if extra not in declared:
                result.problems.append(f"{use.site}: handles command {extra!r}, which the manifest does not declare")
    for command in declared:
        if not command.startswith(manifest.id + "."):
            result.problems.append(f"command {command!r} should start with '{manifest.id}.'")
    problems, warnings = id_problems(wiring, declared)
    result.problems.extend(problems)
    result.warnings.extend(warnings)
    problems, warnings = icon_problems(folder)
    result.problems.extend(problems)
    result.warnings.extend(warnings)
    breaches = contract_breaches(folder, manifest.id)
    if manifest.id in CONTRACT_PENDING:  # not migrated yet: said, but not failed (see contract.PENDING)
        result.warnings.extend(f"contract (not enforced yet for {manifest.id}): {b}" for b in breaches)
    else:
        result.problems.extend(breaches)
    return result


def _matches(value: str, uses: Sequence[IdUse]) -> bool:
    return any(use.pattern is not None and use.pattern.match(value) for use in uses)


def _known(uses: Sequence[IdUse]) -> Set[str]:
    return {value for use in uses for value in use.values}


def id_problems(wiring: Wiring, declared_commands: Sequence[str]) -> Tuple[List[str], List[str]]:
    """(problems, warnings) about element and action ids; commands are checked by `checks`."""
    problems: List[str] = list(wiring.syntax_errors)
    warnings: List[str] = []
    handled = _known(wiring.handlers)
    emitted = _known(wiring.elements)
    dispatched = wiring.dispatched if wiring.any_event else set()
    for use in [*wiring.elements, *wiring.actions, *wiring.handlers, *wiring.commands]:
        if use.computed:
            warnings.append(f"id built at run time, cannot be checked: {use.site}")
    for use in wiring.elements:
        for value in use.values:
            if value in handled or value in dispatched or _matches(value, wiring.handlers):
                continue
            if use.kind == "list":  # lists are also how rows are shown: no handler may be on purpose
                warnings.append(f"ui.list {value!r} has no handler, so a click on its rows does nothing "
                                f"(fine for a list that only shows rows): {use.site}")
            else:
                problems.append(f"{use.site}: ui.{use.kind} id {value!r} has no handler (add "
                                f"plugin.on_event({value!r}), or compare event.element with it in an "
                                f"on_any_event handler)")
    lists_handled = any(v in handled or v in dispatched for use in wiring.elements if use.kind == "list"
                        for v in use.values) or any(use.computed for use in wiring.handlers)
    for use in wiring.actions:
        for value in use.values:
            if value in wiring.dispatched:
                continue
            if lists_handled:  # its list's handler gets it, and may act on every row action alike
                warnings.append(f"row action {value!r} is not compared with event.action anywhere, cannot be "
                                f"checked: {use.site}")
            else:
                problems.append(f"{use.site}: row action {value!r} is never handled (no list has a handler, "
                                f"and nothing compares event.action with it)")
    for use in wiring.handlers:
        for value in use.values:
            if value not in emitted and not _matches(value, wiring.elements):
                problems.append(f"{use.site}: plugin.on_event({value!r}) handles an id that no view emits")
    commands = set(declared_commands) | _known(wiring.commands)
    actions = _known(wiring.actions)
    for use in wiring.constants:
        value = use.values[0]
        # Not only element ids live in ids.py: a choice's option values, a link's path, a mode compared
        # anywhere are "handled" when some code compares with them or registers them.
        if value in wiring.in_computed or value in commands or value in handled or value in wiring.dispatched \
                or value in _known(wiring.urls):
            continue
        if value in actions:
            continue  # reported above if nothing dispatches on it
        if _matches(value, wiring.handlers):
            continue
        problems.append(f"{use.site}: {use.name} = {value!r} in ids.py has no handler (no plugin.on_event, "
                        f"plugin.command or dispatch uses it)")
    return problems, warnings
