"""Reads a note's front matter (a small, safe YAML subset) and works out its title, tags and aliases."""

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple, Union

FrontValue = Union[str, List[str]]

_KEY_LINE = re.compile(r"^([A-Za-z_][\w -]*?)\s*:\s*(.*)$")
_LIST_ITEM = re.compile(r"^\s*-\s*(.*)$")
# "#tag" in the body: after a line start or a space, not "# heading"; letters of any script.
_INLINE_TAG = re.compile(r"(?:(?<=\s)|^)#([^\W\d_][\w/-]*)", re.MULTILINE)
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
# File names that carry no meaning (Cosmica writes 20250101-093000-ab12.md): use the first line instead.
_GENERATED_NAME = re.compile(r"^[\d_\-. ]+(?:[a-z0-9]{0,6})$", re.IGNORECASE)
_COMMENT = re.compile(r"\s+#\s.*$")
_TITLE_LIMIT = 120
_TRUE_WORDS = {"true", "yes", "on", "1"}


@dataclass(frozen=True)
class NoteMeta:
    """What the front matter and the first lines say about a note."""

    title: str
    tags: Tuple[str, ...] = ()
    aliases: Tuple[str, ...] = ()
    locked: bool = False
    agent: Optional[str] = None
    cwd: Optional[str] = None
    fields: Dict[str, FrontValue] = field(default_factory=dict)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    # A trailing " # comment" is YAML syntax, not part of the value.
    return _COMMENT.sub("", value) if "#" in value else value


def _inline_list(value: str) -> List[str]:
    inner = value.strip()[1:-1]
    return [_unquote(part) for part in inner.split(",") if part.strip()]


def split_front_matter(text: str) -> Tuple[Dict[str, FrontValue], str]:
    """Split "---" front matter from the body. Returns ({} , text) when there is none or it never ends."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.startswith("---"):
        return {}, text
    # Only the first 400 lines can hold the front matter; the rest stays one unsplit piece.
    lines = text.split("\n", 400)
    if lines[0].strip() != "---":
        return {}, text
    for end in range(1, min(len(lines), 400)):
        if lines[end].strip() in ("---", "..."):
            return parse_yaml_subset(lines[1:end]), "\n".join(lines[end + 1 :])
    return {}, text


def parse_yaml_subset(lines: List[str]) -> Dict[str, FrontValue]:
    """Parse `key: value`, `key: [a, b]` and block lists. Anything else is ignored, never executed."""
    result: Dict[str, FrontValue] = {}
    current_list: Optional[List[str]] = None
    for raw in lines:
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _LIST_ITEM.match(line)
        if item and current_list is not None and (line.startswith((" ", "\t", "-"))):
            current_list.append(_unquote(item.group(1)))
            continue
        if line.startswith((" ", "\t")):
            continue  # nested mappings are not needed for notes
        key_line = _KEY_LINE.match(line)
        current_list = None
        if not key_line:
            continue
        key = key_line.group(1).strip().lower()
        value = key_line.group(2).strip()
        if value == "":
            current_list = []
            result[key] = current_list
        elif value.startswith("[") and value.endswith("]"):
            result[key] = _inline_list(value)
        else:
            result[key] = _unquote(value)
    return result


def _as_list(value: Optional[FrontValue]) -> List[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [v for v in value if v]
    # "a, b" or "#a #b" or "a b"
    parts = re.split(r"[,\s]+", value) if ("," in value or "#" in value) else [value]
    return [p for p in parts if p]


def clean_tag(tag: str) -> str:
    return tag.strip().lstrip("#").strip().rstrip(".,;:!?")


def inline_tags(body: str) -> List[str]:
    """#tags written in the body text (headings and code fences are not tags)."""
    found: List[str] = []
    if "#" not in body:
        return found
    in_fence = False
    for line in body.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or "#" not in line or _HEADING.match(stripped):
            continue
        found.extend(m.group(1).rstrip("/-") for m in _INLINE_TAG.finditer(line))
    return found


def _truthy(value: Optional[FrontValue]) -> bool:
    return isinstance(value, str) and value.strip().lower() in _TRUE_WORDS


def _first_line_title(body: str) -> Tuple[Optional[str], Optional[str]]:
    """(heading title, plain first line) from the first non-empty line of the body."""
    for line in body.split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        heading = _HEADING.match(stripped)
        if heading and stripped.startswith("# "):
            return heading.group(1).strip() or None, None
        plain = re.sub(r"^(?:#{1,6}\s+|[-*+>]\s+|\d+[.)]\s+)", "", stripped)
        plain = re.sub(r"[*_`]", "", plain).strip()
        return None, plain[:80] or None
    return None, None


def _unique(values: List[str]) -> Tuple[str, ...]:
    seen = set()
    out = []
    for value in values:
        key = value.casefold()
        if value and key not in seen:
            seen.add(key)
            out.append(value)
    return tuple(out)


def read_meta(front: Dict[str, FrontValue], body: str, file_stem: str) -> NoteMeta:
    """Title: front matter, else a first-line "# " heading, else the file name (or the first line
    when the file name is a generated timestamp)."""
    title_value = front.get("title")
    title = title_value.strip() if isinstance(title_value, str) else ""
    if not title:
        heading, first_line = _first_line_title(body)
        if heading:
            title = heading
        elif _GENERATED_NAME.match(file_stem) and first_line:
            title = first_line
        else:
            title = file_stem
    tags = [clean_tag(t) for key in ("tags", "tag", "keywords") for t in _as_list(front.get(key))]
    tags.extend(inline_tags(body))
    aliases = [a.strip() for key in ("aliases", "alias") for a in _as_list_keep_spaces(front.get(key))]
    agent = front.get("agent")
    cwd = front.get("cwd")
    return NoteMeta(
        title=title[:_TITLE_LIMIT],
        tags=_unique([t for t in tags if t]),
        aliases=_unique([a for a in aliases if a]),
        locked=_truthy(front.get("locked")) or _truthy(front.get("encrypted")),
        agent=agent.strip().lower() if isinstance(agent, str) and agent.strip() else None,
        cwd=cwd.strip() if isinstance(cwd, str) and cwd.strip() else None,
        fields=front,
    )


def _as_list_keep_spaces(value: Optional[FrontValue]) -> List[str]:
    """Aliases are phrases: split only on commas."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    return [part.strip() for part in value.split(",")]
