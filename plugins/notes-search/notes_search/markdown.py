"""Markdown as the reader sees it: wikilink display text, embeds and markup stripped; headings and link targets."""

import re
from typing import List, Tuple

MAX_HEADINGS = 40  # H1-H6 headings kept per note (a long reference note can have hundreds)
MAX_LINKS = 200

# [[Target]], [[Target|shown words]], [[Target#Heading]], and the embed form ![[...]].
_WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n|]*)(?:\|([^\[\]\n]*))?\]\]")
# [text](target) and ![alt](target); the target may hold one level of parentheses.
_MDLINK = re.compile(r"(!?)\[([^\[\]\n]*)\]\(((?:[^()\s]|\([^()\s]*\))*)(?:\s+\"[^\"\n]*\")?\)")
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>\n]*>")
_CALLOUT = re.compile(r"^(\s*>)+\s*\[![^\]\n]*\][+-]?\s*", re.MULTILINE)
_QUOTE_OR_LIST = re.compile(
    r"^[ \t]*(?:>[ \t]?)*(?:[-*+]|\d+[.)])[ \t]+(?:\[[ xX]\][ \t]+)?|^[ \t]*(?:>[ \t]?)+", re.MULTILINE
)
_HEADING_MARK = re.compile(r"^[ \t]*#{1,6}[ \t]+", re.MULTILINE)
# Emphasis, strike-through, highlight and code marks: the words between them stay.
_EMPHASIS = re.compile(r"\*\*|__|~~|==|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)|(?<=\S)_(?!\w)|`+")
_HAS_EMPHASIS = re.compile(r"[*_~=`]")  # most prose has none: the slower pattern is skipped
_HEADING_LINE = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")


def _wikilink_text(match: "re.Match[str]") -> str:
    target, shown = match.group(2), match.group(3)
    if shown is not None:
        return shown
    if match.group(1):
        return " "  # an embed shows the file, not its name
    # [[Note#Heading]] reads as "Note > Heading"; [[#Heading]] as the heading.
    return " ".join(part for part in target.replace("^", "#").split("#") if part.strip())


def _mdlink_text(match: "re.Match[str]") -> str:
    return match.group(2)


def reader_text(body: str) -> str:
    """The body as Obsidian shows it: link and embed syntax replaced by the words shown, markup marks
    removed, so words a reader sees side by side are side by side for phrases and excerpts."""
    if "[" in body:
        body = _WIKILINK.sub(_wikilink_text, body)
        body = _MDLINK.sub(_mdlink_text, body)
        body = _CALLOUT.sub("", body)
    if "<" in body:
        body = _HTML_TAG.sub(" ", body)
    if "#" in body:
        body = _HEADING_MARK.sub("", body)
    body = _QUOTE_OR_LIST.sub("", body)
    if _HAS_EMPHASIS.search(body) is None:
        return body
    return _EMPHASIS.sub("", body)


def index_text(body: str) -> str:
    """The body for the index: link syntax replaced by the words shown and HTML tags dropped. The
    other marks (emphasis, list and heading marks) are punctuation the tokenizer skips anyway, so
    they are left in: a first index runs this over every note."""
    if "[" in body:
        body = _WIKILINK.sub(_wikilink_text, body)
        body = _MDLINK.sub(_mdlink_text, body)
    if "<" in body:
        body = _HTML_TAG.sub(" ", body)
    return body


def link_targets(body: str) -> List[str]:
    """Notes and files the body links to or embeds ([[Target]], relative Markdown links), in order."""
    found: List[str] = []
    if "[" not in body:
        return found
    for match in _WIKILINK.finditer(body):
        target = match.group(2).split("#")[0].strip()
        if target:
            found.append(target)
    for match in _MDLINK.finditer(body):
        target = match.group(3).split("#")[0].strip()
        if target and "://" not in target and not target.startswith("mailto:"):
            found.append(target.replace("%20", " "))
    return found[:MAX_LINKS]


def headings(body: str) -> Tuple[Tuple[int, str], ...]:
    """(level, text) of the body's H1-H6 headings outside code fences, as the reader sees them."""
    found: List[Tuple[int, str]] = []
    if "#" not in body:
        return ()
    in_fence = False
    fenced = "```" in body or "~~~" in body  # else no line can open a fence: skip the per-line check
    for line in body.split("\n"):
        if fenced and _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence or not line.startswith("#"):
            continue
        match = _HEADING_LINE.match(line)
        if match:
            text = reader_text(match.group(2)).strip()
            if text:
                found.append((len(match.group(1)), text[:200]))
                if len(found) >= MAX_HEADINGS:
                    break
    return tuple(found)
