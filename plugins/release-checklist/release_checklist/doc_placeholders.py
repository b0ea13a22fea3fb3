"""How release documents write "the version being released", turned into {version} and {tag}.

Three forms, found across real release documents:

- named: ``$VERSION``, ``${tag}``, ``<new-version>``, ``<version_to_release>``, ``{{ version }}``, ``%VERSION%``,
  ``[TAG_NAME]``;
- shaped: ``vX.Y.Z``, ``x.x.x``, ``vA.B.C``, ``MAJOR.MINOR.PATCH``, ``YY.M.N``, ``YYYY.MM.DD`` (two-part shapes such as
  ``YY.N`` only inside code, where they cannot be prose);
- examples: a real version written into a command (``make tag VERSION=0.74.3``, ``./scripts/dmaketgz 7.34.0``,
  ``git tag -a 1.0.1``): a version in a release position (``git tag``, ``VERSION=``, a release script's
  argument) or one of the project's own earlier releases.

Only where the text clearly stands for the release being made: a shape that describes the scheme ("the
``YY.M.N`` format"), an item that counts from it (``YY.N.Z+1``, ``YY.(N-1)``) or a command naming two
different versions (a range) is left as written.
"""
from __future__ import annotations

import re
from typing import Iterable, List, Optional, Sequence, Set, Tuple

_VERSION_NAME = (r"(?:(?:new|next|release|target|this|the)[-_ ]?)?(?:version|ver)"
                 r"(?:[-_ ]?(?:number|num|string|to[-_ ]?release))?|release(?:[-_ ]?(?:version|number))?|"
                 r"new[-_ ]?release")
_TAG_NAME = r"(?:(?:new|next|release|version|git)[-_ ]?)?tag(?:[-_ ]?name)?"
# The release before this one: <old-version>, $PREVIOUS_VERSION, <last-tag>.
_PREVIOUS = r"(?:old|previous|prev|last)[-_ ]?(?:release[-_ ]?)?"
_PREVIOUS_NAMED: Tuple[Tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern.format(name=name), re.IGNORECASE), placeholder)
    for name, placeholder in ((_PREVIOUS + r"tag", "{previous_tag}"), (_PREVIOUS + r"version", "{previous_version}"))
    for pattern in (r"\$\{{\s*(?:{name})\s*\}}", r"\$(?:{name})(?![\w-])", r"<(?:{name})>",
                    r"\{{\{{\s*(?:{name})\s*\}}\}}", r"%(?:{name})%"))
_NAMED: Tuple[Tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern.format(name=name), re.IGNORECASE), placeholder)
    for name, placeholder in ((_TAG_NAME, "{tag}"), (_VERSION_NAME, "{version}"))
    for pattern in (r"\$\{{\s*(?:{name})\s*\}}", r"\$(?:{name})(?![\w-])", r"<(?:{name})>",
                    r"\{{\{{\s*(?:{name})\s*\}}\}}", r"%(?:{name})%"))

# One part of a shaped placeholder: a letter or word that stands for a number.
_PART = r"(?:MAJOR|MINOR|PATCH|MICRO|major|minor|patch|micro|YYYY|YY|MM|DD|[XYZxyzNnM#ABC])"
_AFTER = r"(?![\w#]|\.[\w#(]|\s*[-+]\s*1\b)"  # not "YY.N.Z+1", "MAJOR.MINOR.x" or "X.Y.Z-1"
_SHAPE3 = re.compile(rf"(?<![\w.#])(v?)({_PART}\.{_PART}\.{_PART}(?:\.{_PART})?){_AFTER}")
_SHAPE2 = re.compile(rf"(?<![\w.#])(v?)({_PART}\.{_PART}){_AFTER}")
_BRACKETED = re.compile(rf"<\s*(v?){_PART}\.{_PART}(?:\.{_PART}){{0,2}}\s*>")  # <x.y.z>, <major.minor.patch>
_DESCRIBES = re.compile(r"(?i)^[`'\"*_)\s]*(?:format|scheme|standard|convention|pattern|notation|style)\b")
# "Format: `X.Y.Z`", "SemVer: MAJOR.MINOR.PATCH", "replace `X.Y.Z` with …": the scheme, not the release.
_FORMAT_BEFORE = re.compile(r"(?i)\b(?:format|scheme|semver|calver|versioning|replace)\)?\s*(?:of|is|:)?\s*[`'\"]*$")
# A shape counted from (the next or previous release), anywhere in the item: then no shape in it is ours.
_RELATIVE = re.compile(rf"{_PART}\s*[-+]\s*1\b|\({_PART}\s*[-+]\s*1\)")

_NUMBER = r"\d+(?:\.\d+){1,3}"
# Not part of a longer name or number; after ".." (a range's second end) it still counts.
_LITERAL = re.compile(rf"(?<![\w@<>~^])(?:(?<=\.\.)|(?<!\.))(v?)({_NUMBER})(?!\w|\.\d)")
# Positions where a version in a command is the release's: git tag/push, VERSION=, --version, a release script.
_RELEASE_POSITION = re.compile(
    rf"(?i)(?:\bgit\s+tag\s+(?:-[\w-]+\s+(?:\"[^\"]*\"\s+|'[^']*'\s+)?)*(?:[\w-]+\s+)?|\bgit\s+push\s+\S+\s+(?:tag\s+)?|"
    rf"\b[\w]*version\w*\s*[=:]\s*[\"']?|--(?:new-)?version[= ]\s*|\b(?:npm|yarn|pnpm|uv|poetry)\s+version\s+|"
    rf"\bgh\s+release\s+create\s+|\b[\w./-]*(?:release|bump|tag)[\w.-]*\s+(?:--?\s+)?(?:[\w./-]+\s+)?)"
    rf"v?({_NUMBER})\b")
_PINNED = re.compile(r"(?i)(?:==|>=|<=|~=|@|install\s+(?:\S+\s+)*?)\s*v?$|python\s*$")
# Inline code, a literal block after "::", and a shell line.
_CODE_SPAN = re.compile(r"(`+)(.+?)\1|::\s*(.+)$|^\s*\$\s+(.+)$", re.MULTILINE)


# A bare name standing for the new version as a command's argument (`./bump-version.sh new_version`): only
# names that cannot be anything else (VERSION alone may be a file: `cat VERSION`).
_BARE_ARGUMENT = re.compile(r"(?i)(?<=[\w./-] )(?:new|next|release)[_-]?version(?:[_-]?number)?(?=`|\s*$)",
                            re.MULTILINE)


# [TAG_NAME], [VERSION] in a command (in prose, brackets are Markdown links).
_BRACKETED_NAMES = tuple((re.compile(rf"(?i)\[(?:{name})\]"), placeholder)
                         for name, placeholder in ((_TAG_NAME, "{tag}"), (_VERSION_NAME, "{version}")))


def fill_named(text: str) -> str:
    """$VERSION, ${tag}, <new-version>, {{ version }}, %VERSION% -> {version} / {tag}; in code, a bare
    new_version argument and [TAG_NAME] too."""
    for pattern, placeholder in _PREVIOUS_NAMED + _NAMED:
        text = pattern.sub(placeholder, text)

    def in_code(match: re.Match[str]) -> str:
        code = _BARE_ARGUMENT.sub("{version}", match.group(0))
        for pattern, placeholder in _BRACKETED_NAMES:
            code = pattern.sub(placeholder, code)
        return code

    return _CODE_SPAN.sub(in_code, text)


def fill_shapes(text: str, code: Sequence[Tuple[int, int]] = ()) -> str:
    """vX.Y.Z, MAJOR.MINOR.PATCH, YY.M.N (and YY.N inside the code ranges) -> {version}, unless the text
    describes the scheme ("the `YY.M.N` format") or the shape is a series ("MAJOR.MINOR.x")."""
    text = _BRACKETED.sub(lambda match: match.group(1) + "{version}", text)
    found = [match for match in _SHAPE3.finditer(text)]
    taken = [(match.start(), match.end()) for match in found]
    found += [match for match in _SHAPE2.finditer(text)
              if any(start <= match.start() < end for start, end in code)
              and not any(start <= match.start() < end for start, end in taken)]
    for match in sorted(found, key=lambda match: match.start(), reverse=True):
        parts = match.group(2).split(".")
        before = text[max(0, match.start() - 24):match.start()]
        if _DESCRIBES.match(text[match.end():]) or _FORMAT_BEFORE.search(before):
            continue
        if parts[-1] == "x" and any(part.lower() != "x" for part in parts):
            continue  # a release series or branch (MAJOR.MINOR.x, 1.x), not one release
        text = text[:match.start()] + match.group(1) + "{version}" + text[match.end():]
    return text


def code_parts(text: str) -> List[str]:
    """The parts of text that are code: `spans`, a literal block after "::", and "$ command" lines."""
    return [next(group for group in match.groups()[1:] if group is not None) for match in _CODE_SPAN.finditer(text)]


def _numbers(text: str) -> Tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


def released_numbers(tags: Iterable[str]) -> Set[Tuple[int, ...]]:
    """The version numbers of the project's tags (v1.2.3, curl-7_34_0, 2024.06.01 -> (1, 2, 3) …)."""
    found = set()
    for tag in tags:
        numbers = _numbers(tag)
        if 2 <= len(numbers) <= 4 and not re.search(r"(?i)(?:a|b|rc|dev|alpha|beta|pre)\.?\d*$", tag):
            found.add(numbers)
    return found


def example_version(code: List[str], tags: Sequence[str], context: str = "") -> Optional[str]:
    """The one version the item's commands use as the release's (a release position, or one of the project's
    earlier releases), or None when there is none, or more than one (a range such as v1.2.2..v1.2.3).

    context: the item's whole text; an earlier release standing alone in code ("select `v2.4.8`") counts
    when the item speaks of the tag and gives no example ("Example: … `26.1.0`")."""
    alone_counts = re.search(r"(?i)\btags?\b", context) is not None and \
        re.search(r"(?i)\bexamples?\b|\be\.g\.|\bfor instance\b", context) is None
    released = released_numbers(tags)
    seen: Set[str] = set()
    others: Set[str] = set()  # every other version the commands name: two of them is a range, or a pin
    for part in code:
        for tag in tags:  # a tag in its own format (curl-7_34_0), which no dotted version matches
            if "." not in tag and _numbers(tag) in released and re.search(
                    rf"(?<![\w.-]){re.escape(tag)}(?![\w.])", part):
                seen.add(".".join(str(number) for number in _numbers(tag)))
        for match in _LITERAL.finditer(part):
            before = part[:match.start()]
            if _PINNED.search(before):
                continue
            literal = match.group(2)
            positioned = any(found.group(1) == literal and found.start(1) == match.start(2)
                             for found in _RELEASE_POSITION.finditer(part))
            # An earlier release counts as an argument of a command, not as a lone value ("→ `26.1.0`").
            argument = (bool(before.strip(" $v")) or alone_counts) and _numbers(literal) in released
            (seen if positioned or argument else others).add(literal)
    return seen.pop() if len(seen) == 1 and not others - seen else None


def fill_example(text: str, literal: str, tags: Iterable[str]) -> str:
    """Every use of the example version (and of a tag that names it exactly) in text -> {tag} / {version}."""
    for tag in tags:
        if _numbers(tag) == _numbers(literal) and tag.lstrip("v") != literal:
            text = re.sub(rf"(?<![\w.-]){re.escape(tag)}(?![\w.])", "{tag}", text)
    return re.sub(rf"(?<![\w.]){'(v?)'}{re.escape(literal)}(?![\w]|\.\d)", lambda match: match.group(1) + "{version}",
                  text)


def fill_item(body: str, detail: List[str], tags: Iterable[str] = ()) -> Tuple[str, List[str]]:
    """One list item of a release document (its first line and the lines under it), placeholders filled."""
    tags = tuple(tags)
    whole = "\n".join([body, *detail])
    relative = _RELATIVE.search(whole) is not None
    fenced = _fenced_lines(detail)
    body = fill_named(body)
    detail = [fill_named(line) for line in detail]
    if relative:
        body = fill_counted(body, tags)
        detail = [fill_counted(line, tags) for line in detail]
    else:
        body = _fill_shapes_of(body)
        detail = [fill_shapes(line, [(0, len(line))]) if inside else _fill_shapes_of(line)
                  for line, inside in zip(detail, fenced)]
    code = code_parts(body) + [line for line, inside in zip(detail, fenced) if inside]
    code += [part for line, inside in zip(detail, fenced) if not inside for part in code_parts(line)]
    # In an item counting from the last release, a version it names is that release (the base), not an example.
    literal = example_version(code, tags, whole) if not relative else None
    if literal is not None:
        body = fill_example(body, literal, tags)
        detail = [fill_example(line, literal, tags) for line in detail]
    return body, detail


_UP3 = re.compile(rf"(?<![\w.#])(v?){_PART}\.{_PART}\.{_PART}\s*\+\s*1\b")
_UP2 = re.compile(rf"(?<![\w.#])(v?)({_PART})\.{_PART}\s*\+\s*1\b")
_DOWN = re.compile(rf"{_PART}\s*-\s*1\b|\({_PART}\s*-\s*1\)")


def fill_counted(text: str, tags: Sequence[str]) -> str:
    """Shapes counted up from the last release (pip's bug-fix section): ``YY.N.Z+1`` is the patch release being
    made ({version}), and beside it ``YY.N`` is the last release's line (26.2 after 26.2.1) and ``YY.N+1`` the
    next one (26.3). Counted down (``YY.(N-1)``) the plain shape is the new release: left as written."""
    released = [numbers for numbers in released_numbers(tags)]
    if not released or _DOWN.search(text) or not (_UP3.search(text) or _UP2.search(text)):
        return text
    last = max(released)
    text = _UP3.sub(lambda match: match.group(1) + "{version}", text)
    text = _UP2.sub(lambda match: f"{match.group(1)}{last[0]}.{last[1] + 1}", text)
    spans = [match.span() for match in _CODE_SPAN.finditer(text)]
    for match in sorted(_SHAPE2.finditer(text), key=lambda match: match.start(), reverse=True):
        if any(start <= match.start() < end for start, end in spans):
            text = text[:match.start()] + f"{match.group(1)}{last[0]}.{last[1]}" + text[match.end():]
    return text


def _fill_shapes_of(text: str) -> str:
    """Shapes in prose (three parts and more) and in the line's code (two parts too)."""
    return fill_shapes(text, [match.span() for match in _CODE_SPAN.finditer(text)])


def _fenced_lines(lines: List[str]) -> List[bool]:
    """Which lines sit inside a ``` or ~~~ block (the fences themselves count as outside)."""
    inside, marks = False, []
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            inside = not inside
            marks.append(False)
            continue
        marks.append(inside)
    return marks
