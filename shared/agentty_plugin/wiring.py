"""Static analysis of a plugin's ids: which element, action and command ids its code emits and which it handles
(`checks` turns what it finds into problems and warnings).

`agentty-plugin check` uses it to prove the wiring without running the plugin: every interactive id the
view can emit has a handler, and every handler's id is one the view or the manifest uses.

    ui.button(ids.REFRESH, ...)            emitted: resolved through the package's ids.py
    plugin.on_event(ids.REFRESH)(...)      handled by id
    if event.element == ids.REFRESH: ...   handled by dispatch, inside an on_any_event handler
    if event.action == "reveal": ...       a row action (ui.action) dispatched by the list's handler

Ids are resolved from string literals, module-level string constants (also imported ones, and
`ids.NAME` attributes), `a if c else b`, and loops over literal tuples, lists, sets and dicts. An
f-string or any other computed id cannot be resolved: it becomes a warning naming its file and
line, and a pattern (`files.*`) so that ids it may match are not reported as unhandled.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Mapping, Optional, Pattern, Sequence, Set, Tuple

# ui builders whose first argument (or `id=`) is an element id the host sends events for.
ELEMENT_BUILDERS = ("button", "input", "list", "choice", "toggle")
ACTION_BUILDER = "action"  # a row button: its id arrives as `event.action`, on the list's element
INTERACTIVE_TYPES = frozenset(ELEMENT_BUILDERS)
RUNTIME_UI = "agentty_plugin.ui"
SKIPPED_FOLDERS = frozenset({"_vendor", "tests", "test", "__pycache__", "build", "dist", ".venv", "venv",
                             "node_modules"})
IDS_MODULE = "ids"


@dataclass(frozen=True)
class Site:
    """Where an id appears: a path relative to the plugin folder, and a line."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class IdUse:
    """One id in the code. `values` are the ids it can be; empty with a `pattern` when built at run time."""

    kind: str  # a builder name ("button", "action", ...), "on_event", "command" or "constant"
    site: Site
    values: Tuple[str, ...] = ()
    pattern: Optional[Pattern[str]] = None
    name: str = ""  # for an ids.py constant: its name

    @property
    def computed(self) -> bool:
        return self.pattern is not None


@dataclass
class Wiring:
    """Everything the analysis found in one plugin folder."""

    elements: List[IdUse] = field(default_factory=list)  # ids the view emits
    actions: List[IdUse] = field(default_factory=list)  # row action ids
    handlers: List[IdUse] = field(default_factory=list)  # plugin.on_event(...)
    commands: List[IdUse] = field(default_factory=list)  # plugin.command(...)
    urls: List[IdUse] = field(default_factory=list)  # plugin.on_url(...) paths
    constants: List[IdUse] = field(default_factory=list)  # string constants of <pkg>/ids.py
    any_event: List[Site] = field(default_factory=list)  # on_any_event registrations
    dispatched: Set[str] = field(default_factory=set)  # strings compared with == / in, or used as dict keys
    in_computed: Set[str] = field(default_factory=set)  # constants that are parts of f-strings or sums
    syntax_errors: List[str] = field(default_factory=list)


class _Computed:
    """An id the analysis cannot know: the regular expression of what it may be."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern


Resolved = object  # Tuple[str, ...] (the possible ids) or _Computed


@dataclass
class _Module:
    name: str
    path: str  # relative to the plugin folder
    tree: ast.Module
    is_package: bool
    constants: Dict[str, str] = field(default_factory=dict)
    sequences: Dict[str, Tuple[str, ...]] = field(default_factory=dict)
    table_values: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # a dict's values, for TABLE[key]
    modules: Dict[str, str] = field(default_factory=dict)  # local name -> plugin module it names
    ui_names: Set[str] = field(default_factory=set)  # local names of agentty_plugin.ui
    builders: Dict[str, str] = field(default_factory=dict)  # local name -> ui builder imported by name
    constant_lines: Dict[str, int] = field(default_factory=dict)


def python_files(folder: str) -> Iterator[str]:
    """The plugin's own Python files (not its tests, not `_vendor/`), in a stable order."""
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(d for d in folders if d not in SKIPPED_FOLDERS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(root, name)


def _module_name(relative: str) -> Tuple[str, bool]:
    parts = relative[:-3].replace(os.sep, "/").split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def _load(folder: str, wiring: Wiring) -> Dict[str, _Module]:
    modules: Dict[str, _Module] = {}
    for path in python_files(folder):
        relative = os.path.relpath(path, folder)
        try:
            with open(path, encoding="utf-8") as handle:
                tree = ast.parse(handle.read(), relative)
        except SyntaxError as error:
            wiring.syntax_errors.append(f"{relative}:{error.lineno}: syntax error: {error.msg}")
            continue
        except (OSError, UnicodeDecodeError) as error:
            wiring.syntax_errors.append(f"{relative}: could not be read: {error}")
            continue
        name, is_package = _module_name(relative)
        modules[name] = _Module(name, relative.replace(os.sep, "/"), tree, is_package)
    return modules


def _absolute(module: _Module, level: int, target: Optional[str]) -> str:
    """The module a `from ... import` names, relative imports resolved against `module`'s package."""
    if level == 0:
        return target or ""
    parts = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
    base = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join([*base, target] if target else base)


def _bind_imports(module: _Module, modules: Mapping[str, _Module]) -> None:
    for node in module.tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == RUNTIME_UI:
                    module.ui_names.add(alias.asname or "agentty_plugin.ui")
                elif alias.name in modules:
                    module.modules[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, node.level, node.module)
            for alias in node.names:
                local = alias.asname or alias.name
                if source == "agentty_plugin" and alias.name == "ui":
                    module.ui_names.add(local)
                elif source == RUNTIME_UI and alias.name in (*ELEMENT_BUILDERS, ACTION_BUILDER):
                    module.builders[local] = alias.name
                elif f"{source}.{alias.name}" in modules:
                    module.modules[local] = f"{source}.{alias.name}"
                elif source in modules:
                    other = modules[source]
                    if alias.name in other.constants:
                        module.constants[local] = other.constants[alias.name]
                    if alias.name in other.sequences:
                        module.sequences[local] = other.sequences[alias.name]
                    if alias.name in other.table_values:
                        module.table_values[local] = other.table_values[alias.name]


def _dotted(node: ast.expr) -> Optional[List[str]]:
    names: List[str] = []
    while isinstance(node, ast.Attribute):
        names.insert(0, node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *names]
    return None


class _Resolver:
    """Turns an expression into the ids it can be, in one module, with the loop variables in scope."""

    def __init__(self, module: _Module, modules: Mapping[str, _Module]) -> None:
        self.module = module
        self.modules = modules
        self.loops: List[Dict[str, Resolved]] = []

    def _attribute(self, parts: List[str]) -> Optional[Tuple[str, str]]:
        """(module name, constant name) for `alias.NAME` or `package.module.NAME`, if it names a plugin module."""
        head = self.module.modules.get(parts[0])
        if head is None or len(parts) < 2:
            return None
        target = ".".join([head, *parts[1:-1]])
        return (target, parts[-1]) if target in self.modules else None

    def name(self, identifier: str) -> Optional[Resolved]:
        for scope in reversed(self.loops):
            if identifier in scope:
                return scope[identifier]
        if identifier in self.module.constants:
            return (self.module.constants[identifier],)
        return None

    def strings(self, node: ast.expr) -> Resolved:
        """Tuple of possible string values, or _Computed."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return (node.value,)
        if isinstance(node, ast.Name):
            found = self.name(node.id)
            if found is not None:
                return found
        if isinstance(node, ast.Attribute):
            parts = _dotted(node)
            place = self._attribute(parts) if parts else None
            if place is not None and place[1] in self.modules[place[0]].constants:
                return (self.modules[place[0]].constants[place[1]],)
        looked_up: Optional[ast.expr] = None  # TABLE[key] or TABLE.get(key): any of the dict's values
        if isinstance(node, ast.Subscript):
            looked_up = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            looked_up = node.func.value
        table = self.table(looked_up) if looked_up is not None else None
        if table is not None:
            return table
        if isinstance(node, ast.IfExp):
            body, orelse = self.strings(node.body), self.strings(node.orelse)
            if isinstance(body, tuple) and isinstance(orelse, tuple):
                return body + orelse
            return _Computed(f"(?:{_pattern_of(body)}|{_pattern_of(orelse)})")
        if isinstance(node, ast.JoinedStr):
            pieces = []
            for value in node.values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    pieces.append(re.escape(value.value))
                elif isinstance(value, ast.FormattedValue):
                    inner = self.strings(value.value)
                    pieces.append(_pattern_of(inner))
            return _Computed("".join(pieces))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return _Computed(_pattern_of(self.strings(node.left)) + _pattern_of(self.strings(node.right)))
        return _Computed(".*")

    def table(self, node: ast.expr) -> Optional[Tuple[str, ...]]:
        """The values of a module-level dict of strings named by `node` (`ELEMENTS`, `ids.ELEMENTS`)."""
        if isinstance(node, ast.Name):
            return self.module.table_values.get(node.id)
        parts = _dotted(node)
        place = self._attribute(parts) if parts else None
        return self.modules[place[0]].table_values.get(place[1]) if place else None

    def sequence(self, node: ast.expr) -> Optional[Tuple[str, ...]]:
        """The strings a literal tuple/list/set/dict (or a module-level one by name) holds, if all are known."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
                and node.func.attr in ("keys", "items"):
            return self.sequence(node.func.value)
        if isinstance(node, ast.Name):
            return self.module.sequences.get(node.id)
        if isinstance(node, ast.Attribute):
            parts = _dotted(node)
            place = self._attribute(parts) if parts else None
            return self.modules[place[0]].sequences.get(place[1]) if place else None
        elements: Sequence[Optional[ast.expr]]
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elements = node.elts
        elif isinstance(node, ast.Dict):
            elements = node.keys
        else:
            return None
        values: List[str] = []
        for element in elements:
            found = self.strings(element) if element is not None else _Computed(".*")
            if not isinstance(found, tuple):
                return None
            values.extend(found)
        return tuple(values)


def _pattern_of(found: Resolved) -> str:
    if isinstance(found, tuple):
        return "(?:" + "|".join(re.escape(v) for v in found) + ")" if found else ".*"
    assert isinstance(found, _Computed)
    return found.pattern


def _collect_constants(module: _Module, modules: Mapping[str, _Module]) -> None:
    resolver = _Resolver(module, modules)
    for node in module.tree.body:
        target: Optional[ast.expr] = None
        value: Optional[ast.expr] = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        if not isinstance(target, ast.Name) or value is None:
            continue
        found = resolver.strings(value)
        if isinstance(found, tuple) and len(found) == 1:
            module.constants[target.id] = found[0]
            module.constant_lines.setdefault(target.id, node.lineno)
            continue
        sequence = resolver.sequence(value)
        if sequence is not None:
            module.sequences[target.id] = sequence
        if isinstance(value, ast.Dict):
            values = [resolver.strings(v) for v in value.values]
            if values and all(isinstance(v, tuple) and len(v) == 1 for v in values):
                module.table_values[target.id] = tuple(v[0] for v in values if isinstance(v, tuple))


class _Visitor:
    """Walks one module, recording emitted ids, handlers, dispatch and the loop variables in scope."""

    def __init__(self, module: _Module, modules: Mapping[str, _Module], wiring: Wiring) -> None:
        self.module = module
        self.resolver = _Resolver(module, modules)
        self.wiring = wiring

    def site(self, node: ast.AST) -> Site:
        return Site(self.module.path, getattr(node, "lineno", 0))

    def use(self, kind: str, node: ast.expr) -> IdUse:
        found = self.resolver.strings(node)
        if isinstance(found, tuple):
            return IdUse(kind, self.site(node), values=found)
        assert isinstance(found, _Computed)
        self._note_parts(node)
        return IdUse(kind, self.site(node), pattern=re.compile(found.pattern + r"\Z"))

    def _note_parts(self, node: ast.AST) -> None:
        for part in ast.walk(node):
            if isinstance(part, (ast.Name, ast.Attribute)) and isinstance(part, ast.expr):
                found = self.resolver.strings(part)
                if isinstance(found, tuple):
                    self.wiring.in_computed.update(found)

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, (ast.For, ast.AsyncFor)):
            self.visit(node.iter)
            self.resolver.loops.append(self._bind(node.target, node.iter))
            for statement in [*node.body, *node.orelse]:
                self.visit(statement)
            self.resolver.loops.pop()
            return
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for generator in node.generators:
                self.visit(generator.iter)
                self.resolver.loops.append(self._bind(generator.target, generator.iter))
            elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for part in [*elements, *(c for g in node.generators for c in g.ifs)]:
                self.visit(part)
            del self.resolver.loops[len(self.resolver.loops) - len(node.generators):]
            return
        if isinstance(node, ast.Call):
            self._call(node)
        elif isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                self._dispatch(operand)
        elif isinstance(node, ast.Dict):
            self._ui_dict(node)
            for key in node.keys:
                if key is not None:
                    self._dispatch(key)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                if isinstance(decorator, ast.Attribute) and decorator.attr == "on_any_event":
                    self.wiring.any_event.append(self.site(decorator))
        for child in ast.iter_child_nodes(node):
            self.visit(child)

    def _table_values(self, table: ast.expr) -> Optional[Tuple[str, ...]]:
        if isinstance(table, ast.Dict):
            values: List[str] = []
            for node in table.values:
                found = self.resolver.strings(node)
                if not isinstance(found, tuple):
                    return None
                values.extend(found)
            return tuple(values)
        return self.resolver.table(table)

    def _bind(self, target: ast.expr, iterable: ast.expr) -> Dict[str, Resolved]:
        method = iterable.func.attr if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) \
            else ""
        if method == "values" and isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute):
            values = self._table_values(iterable.func.value)
        else:
            values = self.resolver.sequence(iterable)
        known: Resolved = values if values is not None else _Computed(".*")
        if isinstance(target, ast.Name):
            return {target.id: known}
        if isinstance(target, ast.Tuple):  # `for key, value in table.items()`: keys and values are known
            names = [t.id for t in target.elts if isinstance(t, ast.Name)]
            bound: Dict[str, Resolved] = {name: _Computed(".*") for name in names}
            first = target.elts[0] if target.elts else None
            if isinstance(first, ast.Name):
                bound[first.id] = known
            second = target.elts[1] if len(target.elts) == 2 else None
            if method == "items" and isinstance(second, ast.Name) and isinstance(iterable, ast.Call) \
                    and isinstance(iterable.func, ast.Attribute):
                table = self._table_values(iterable.func.value)
                if table is not None:
                    bound[second.id] = table
            return bound
        return {}

    def _dispatch(self, node: ast.expr) -> None:
        found = self.resolver.strings(node)
        if isinstance(found, tuple):
            self.wiring.dispatched.update(found)
            return
        sequence = self.resolver.sequence(node)
        if sequence is not None:
            self.wiring.dispatched.update(sequence)

    def _builder(self, call: ast.Call) -> Optional[str]:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in (*ELEMENT_BUILDERS, ACTION_BUILDER):
            parts = _dotted(func.value)
            if parts and ".".join(parts) in self.module.ui_names:
                return func.attr
        if isinstance(func, ast.Name):
            return self.module.builders.get(func.id)
        return None

    def _call(self, call: ast.Call) -> None:
        builder = self._builder(call)
        argument: Optional[ast.expr] = call.args[0] if call.args else None
        if argument is None:
            argument = next((k.value for k in call.keywords if k.arg == "id"), None)
        if builder is not None and argument is not None:
            use = self.use(builder, argument)
            (self.wiring.actions if builder == ACTION_BUILDER else self.wiring.elements).append(use)
            return
        if not isinstance(call.func, ast.Attribute):
            return
        attr = call.func.attr
        if attr == "on_any_event":
            self.wiring.any_event.append(self.site(call))
        elif attr in ("on_event", "command", "on_url") and call.args and not call.keywords and len(call.args) == 1:
            where = {"on_event": self.wiring.handlers, "command": self.wiring.commands, "on_url": self.wiring.urls}
            where[attr].append(self.use(attr, call.args[0]))

    def _ui_dict(self, node: ast.Dict) -> None:
        """A node written as a plain dict: {"type": "button", "id": ...}."""
        fields = {k.value: v for k, v in zip(node.keys, node.values)
                  if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        kind = fields.get("type")
        if isinstance(kind, ast.Constant) and kind.value in INTERACTIVE_TYPES and "id" in fields:
            self.wiring.elements.append(self.use(str(kind.value), fields["id"]))


def analyze(folder: str) -> Wiring:
    """Read every Python file of a plugin folder (not tests or `_vendor/`) and collect its ids."""
    wiring = Wiring()
    modules = _load(folder, wiring)
    # Constants may come from other modules (`from .ids import A`): a few rounds settle chains of imports.
    for _round in range(3):
        for module in modules.values():
            _bind_imports(module, modules)
            _collect_constants(module, modules)
    for module in modules.values():
        _Visitor(module, modules, wiring).visit(module.tree)
        if module.name.split(".")[-1] == IDS_MODULE:
            for name, value in module.constants.items():
                if module.constant_lines.get(name):  # defined here, not imported
                    wiring.constants.append(IdUse("constant", Site(module.path, module.constant_lines[name]),
                                                  values=(value,), name=name))
    return wiring
