"""Static checks of a plugin folder: a valid manifest, commands matched to handlers, a clean main.py."""

from __future__ import annotations

import ast
import os
from typing import List, Set, Tuple

from .manifest import ManifestError, load_manifest


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
    try:
        manifest = load_manifest(folder)
    except ManifestError as error:
        return os.path.basename(os.path.normpath(folder)), list(error.problems)
    problems: List[str] = []
    if manifest.runtime == "python":
        main_path = os.path.join(folder, manifest.main)
        with open(main_path, encoding="utf-8") as handle:
            source = handle.read()
        try:
            problems.extend(_shape_problems(source, manifest.main))
            handled = registered_commands(source)
        except SyntaxError as error:
            return manifest.id, [f"{manifest.main}:{error.lineno}: syntax error: {error.msg}"]
        declared = {c.id for c in manifest.commands}
        for missing in sorted(declared - handled):
            problems.append(f"command {missing!r} is declared in the manifest but has no handler in {manifest.main}")
        for extra in sorted(handled - declared):
            problems.append(f"{manifest.main} handles command {extra!r}, which the manifest does not declare")
        for command in sorted(declared):
            if not command.startswith(manifest.id + "."):
                problems.append(f"command {command!r} should start with '{manifest.id}.'")
    return manifest.id, problems
