"""Panel UI builders for the 13 v1 elements, and validation against the host's rules before sending.

Builders return plain dicts (the wire form), with the Node SDK's defaults. `prepare()` checks a tree
the way the host does and names the path of the first bad node, instead of a bare -32602 later.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

    Node = Dict[str, Any]
    Child = Union[Node, None, bool, Sequence[Any]]

MAX_ELEMENTS = 2000
MAX_DEPTH = 12
MAX_TEXT = 20000
MAX_BADGE = 8

GAPS = ("none", "small", "medium", "large")
TEXT_STYLES = ("body", "title", "muted", "small", "code", "error", "success")
BUTTON_VARIANTS = ("primary", "secondary", "ghost", "danger")
TONES = ("neutral", "info", "success", "warning", "error")
# `list` and `input` are builder names here, so the built-in types are reached through `builtins`.
_SEQUENCES = (builtins.list, tuple)
V1_TYPES = (
    "column", "row", "section", "text", "button", "input", "list",
    "choice", "toggle", "badge", "spinner", "divider",
)


class UITreeError(ValueError):
    """A panel tree breaks one of the host's rules; `path` points at the node (e.g. children[2].items[5].id)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"invalid UI tree at {path or 'root'}: {problem}")
        self.path = path
        self.problem = problem


def _compact(children: Optional[Iterable[Any]]) -> List[Node]:
    """Drop falsy children and flatten one level of nested lists, as the Node SDK does."""
    result: List[Node] = []
    for child in children or []:
        if isinstance(child, _SEQUENCES):
            result.extend(c for c in child if c)
        elif child:
            result.append(child)
    return result


def _with(node: Node, **optional: Any) -> Node:
    for key, value in optional.items():
        if value is not None:
            node[key] = value
    return node


def column(children: Optional[Iterable[Child]] = None, gap: str = "medium") -> Node:
    return {"type": "column", "children": _compact(children), "gap": gap}


def row(children: Optional[Iterable[Child]] = None, gap: str = "medium", wrap: bool = False) -> Node:
    return {"type": "row", "children": _compact(children), "gap": gap, "wrap": wrap}


def section(title: str, children: Optional[Iterable[Child]] = None) -> Node:
    return {"type": "section", "title": str(title), "children": _compact(children)}


def text(value: Any, style: str = "body") -> Node:
    return {"type": "text", "text": "" if value is None else str(value), "style": style}


def button(
    id: str, label: str, icon: Optional[str] = None, variant: str = "secondary", disabled: bool = False
) -> Node:
    return _with({"type": "button", "id": id, "label": label, "variant": variant, "disabled": disabled}, icon=icon)


def input(id: str, placeholder: str = "", value: str = "", rows: Optional[int] = None) -> Node:
    # `rows` (a text area) exists since Agentty 0.1.15; omitted unless asked for.
    return _with({"type": "input", "id": id, "placeholder": placeholder, "value": value}, rows=rows)


def list(id: str, items: Iterable[Node], empty: Optional[str] = None) -> Node:
    return _with({"type": "list", "id": id, "items": [i for i in items]}, empty=empty)


def item(
    id: str,
    title: str,
    subtitle: Optional[str] = None,
    detail: Optional[str] = None,
    icon: Optional[str] = None,
    tone: Optional[str] = None,
    actions: Optional[Iterable[Node]] = None,
) -> Node:
    """A list row; `actions` are the row's buttons (see `action`)."""
    node = _with({"id": id, "title": title}, subtitle=subtitle, detail=detail, icon=icon, tone=tone)
    if actions is not None:
        node["actions"] = [a for a in actions if a]
    return node


def action(id: str, label: Optional[str] = None, icon: Optional[str] = None, tooltip: Optional[str] = None) -> Node:
    """A button on a list row; it sends an `action` event with the row's item id."""
    return _with({"id": id}, label=label, icon=icon, tooltip=tooltip)


def choice(id: str, options: Iterable[Node], value: str = "") -> Node:
    return {"type": "choice", "id": id, "options": [o for o in options], "value": value}


def option(value: str, label: str) -> Node:
    return {"value": value, "label": label}


def toggle(id: str, label: str, value: bool = False) -> Node:
    return {"type": "toggle", "id": id, "label": label, "value": bool(value)}


def badge(text: Any, tone: str = "neutral") -> Node:
    return {"type": "badge", "text": "" if text is None else str(text), "tone": tone}


def spinner(text: str = "") -> Node:
    return {"type": "spinner", "text": text}


def divider() -> Node:
    return {"type": "divider"}


# --------------------------------------------------------------------------- validation


class _Checker:
    def __init__(self) -> None:
        self.count = 0

    def bump(self, path: str) -> None:
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise UITreeError(path, f"more than {MAX_ELEMENTS} elements")

    def string(self, node: Mapping[str, Any], key: str, path: str, required: bool) -> Any:
        if key not in node or node[key] is None:
            if required:
                raise UITreeError(f"{path}.{key}" if path else key, "is required")
            return None
        value = node[key]
        if not isinstance(value, str):
            raise UITreeError(f"{path}.{key}" if path else key, f"must be a string, not {type(value).__name__}")
        return value[:MAX_TEXT] + "…" if len(value) > MAX_TEXT else value

    def enum(self, node: Mapping[str, Any], key: str, path: str, allowed: Sequence[str]) -> Any:
        value = self.string(node, key, path, required=False)
        if value is not None and value not in allowed:
            raise UITreeError(f"{path}.{key}" if path else key, f"{value!r} is not one of {', '.join(allowed)}")
        return value

    def boolean(self, node: Mapping[str, Any], key: str, path: str) -> Any:
        value = node.get(key)
        if value is not None and not isinstance(value, bool):
            raise UITreeError(f"{path}.{key}" if path else key, "must be true or false")
        return value

    def node(self, node: Any, path: str, depth: int) -> Node:
        if not isinstance(node, Mapping):
            raise UITreeError(path, f"must be an object, not {type(node).__name__}")
        if depth > MAX_DEPTH:
            raise UITreeError(path, f"nested deeper than {MAX_DEPTH} levels")
        self.bump(path)
        kind = node.get("type")
        if kind not in V1_TYPES:
            raise UITreeError(f"{path}.type" if path else "type", f"unknown element type {kind!r}")
        out: Node = {"type": kind}
        p = path

        def put(key: str, value: Any) -> None:
            if value is not None:
                out[key] = value

        if kind in ("column", "row", "section"):
            if kind == "section":
                put("title", self.string(node, "title", p, required=True))
            else:
                put("gap", self.enum(node, "gap", p, GAPS))
            if kind == "row":
                put("wrap", self.boolean(node, "wrap", p))
            children = node.get("children", [])
            if not isinstance(children, _SEQUENCES):
                raise UITreeError(f"{p}.children" if p else "children", "must be a list")
            base = f"{p}.children" if p else "children"
            out["children"] = [self.node(c, f"{base}[{i}]", depth + 1) for i, c in enumerate(children)]
        elif kind == "text":
            put("text", self.string(node, "text", p, required=True))
            put("style", self.enum(node, "style", p, TEXT_STYLES))
        elif kind == "button":
            put("id", self.string(node, "id", p, required=True))
            put("label", self.string(node, "label", p, required=True))
            put("icon", self.string(node, "icon", p, required=False))
            put("variant", self.enum(node, "variant", p, BUTTON_VARIANTS))
            put("disabled", self.boolean(node, "disabled", p))
        elif kind == "input":
            put("id", self.string(node, "id", p, required=True))
            put("placeholder", self.string(node, "placeholder", p, required=False))
            put("value", self.string(node, "value", p, required=False))
            rows = node.get("rows")
            if rows is not None:
                if not isinstance(rows, int) or isinstance(rows, bool) or not 1 <= rows <= 24:
                    raise UITreeError(f"{p}.rows" if p else "rows", "must be a whole number from 1 to 24")
                out["rows"] = rows
        elif kind == "list":
            put("id", self.string(node, "id", p, required=True))
            put("empty", self.string(node, "empty", p, required=False))
            out["items"] = self.items(node.get("items", []), f"{p}.items" if p else "items")
        elif kind == "choice":
            put("id", self.string(node, "id", p, required=True))
            put("value", self.string(node, "value", p, required=False))
            options = node.get("options", [])
            base = f"{p}.options" if p else "options"
            if not isinstance(options, _SEQUENCES):
                raise UITreeError(base, "must be a list")
            checked = []
            for i, opt in enumerate(options):
                opath = f"{base}[{i}]"
                if not isinstance(opt, Mapping):
                    raise UITreeError(opath, "must be an object with value and label")
                self.bump(opath)
                checked.append(
                    {"value": self.string(opt, "value", opath, True), "label": self.string(opt, "label", opath, True)}
                )
            out["options"] = checked
        elif kind == "toggle":
            put("id", self.string(node, "id", p, required=True))
            put("label", self.string(node, "label", p, required=True))
            put("value", self.boolean(node, "value", p))
        elif kind == "badge":
            put("text", self.string(node, "text", p, required=True))
            put("tone", self.enum(node, "tone", p, TONES))
        elif kind == "spinner":
            put("text", self.string(node, "text", p, required=False))
        return out

    def items(self, items: Any, base: str) -> List[Node]:
        if not isinstance(items, _SEQUENCES):
            raise UITreeError(base, "must be a list")
        checked: List[Node] = []
        for i, entry in enumerate(items):
            ipath = f"{base}[{i}]"
            if not isinstance(entry, Mapping):
                raise UITreeError(ipath, "must be an object")
            self.bump(ipath)
            row_out: Node = {
                "id": self.string(entry, "id", ipath, True),
                "title": self.string(entry, "title", ipath, True),
            }
            for key in ("subtitle", "detail", "icon"):
                value = self.string(entry, key, ipath, False)
                if value is not None:
                    row_out[key] = value
            tone = self.enum(entry, "tone", ipath, TONES)
            if tone is not None:
                row_out["tone"] = tone
            actions = entry.get("actions")
            if actions is not None:
                apath = f"{ipath}.actions"
                if not isinstance(actions, _SEQUENCES):
                    raise UITreeError(apath, "must be a list")
                row_actions = []
                for j, act in enumerate(actions):
                    jpath = f"{apath}[{j}]"
                    if not isinstance(act, Mapping):
                        raise UITreeError(jpath, "must be an object")
                    self.bump(jpath)
                    a: Node = {"id": self.string(act, "id", jpath, True)}
                    for key in ("label", "icon", "tooltip"):
                        value = self.string(act, key, jpath, False)
                        if value is not None:
                            a[key] = value
                    row_actions.append(a)
                row_out["actions"] = row_actions
            checked.append(row_out)
        return checked


def prepare(tree: Any) -> Node:
    """Check a tree against the host's rules and return the copy to send (long texts cut with "…").

    Raises UITreeError naming the path of the first problem.
    """
    return _Checker().node(tree, "", 0)


def validate(tree: Any) -> None:
    """Raise UITreeError if the host would refuse this tree."""
    prepare(tree)


def count_elements(tree: Any) -> int:
    """How many elements the host counts in a valid tree (nodes, list items, row actions, options)."""
    checker = _Checker()
    checker.node(tree, "", 0)
    return checker.count


def find(tree: Any, element_id: str) -> Optional[Node]:
    """The first node (or list item) in a tree whose id is `element_id`, depth first."""
    if isinstance(tree, Mapping):
        if tree.get("id") == element_id:
            return dict(tree)
        for key in ("children", "items"):
            for child in tree.get(key) or []:
                found = find(child, element_id)
                if found is not None:
                    return found
    return None


def texts(tree: Any) -> List[str]:
    """Every human-visible string in a tree, in document order (for tests and previews)."""
    out: List[str] = []
    if isinstance(tree, Mapping):
        for key in ("title", "text", "label", "subtitle", "detail", "placeholder", "empty", "value"):
            value = tree.get(key)
            # A list's `empty` text is only drawn while it has no items.
            if key == "empty" and tree.get("items"):
                continue
            if isinstance(value, str) and value:
                out.append(value)
        for key in ("children", "items", "options", "actions"):
            for child in tree.get(key) or []:
                out.extend(texts(child))
    return out
