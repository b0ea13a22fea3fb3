"""Decides whether a path (from a click or an agentty:// link) may be opened: only note files inside
a configured notes folder, not hidden, not too big, not binary."""

import os
from dataclasses import dataclass
from typing import Sequence

from .frontmatter import NoteMeta, read_meta, split_front_matter
from .notes import UnreadableNote, decode_note
from .sources import NOTE_EXTENSIONS, expand, is_inside


class NoteAccessError(Exception):
    """`reason`: invalid, outside_roots, hidden, not_a_note, missing, too_large, binary, locked."""

    def __init__(self, reason: str, path: str = "") -> None:
        super().__init__(f"{reason}: {path}")
        self.reason = reason
        self.path = path


@dataclass(frozen=True)
class OpenedNote:
    path: str
    root: str
    meta: NoteMeta
    body: str  # without front matter
    size: int


def resolve_note_path(path: str, roots: Sequence[str]) -> str:
    """The real path of a note inside one of the roots, or NoteAccessError.

    Links are untrusted input: the path is resolved (symlinks, "..") before the check, so a link
    cannot reach files outside the folders the user chose to search.
    """
    if not isinstance(path, str) or not path.strip() or "\x00" in path or len(path) > 4096:
        raise NoteAccessError("invalid", str(path)[:200])
    candidates = (
        [expand(path)]
        if os.path.isabs(os.path.expanduser(path.strip()))
        else [os.path.join(expand(root), path.strip()) for root in roots]
    )
    for candidate in candidates:
        real = os.path.realpath(candidate)
        for root in roots:
            real_root = os.path.realpath(expand(root))
            if not is_inside(real, real_root) or real == real_root:
                continue
            relative = os.path.relpath(real, real_root)
            if any(part.startswith(".") for part in relative.split(os.sep)):
                raise NoteAccessError("hidden", candidate)
            if not real.lower().endswith(NOTE_EXTENSIONS):
                raise NoteAccessError("not_a_note", candidate)
            if not os.path.isfile(real):
                raise NoteAccessError("missing", candidate)
            return real
    raise NoteAccessError("outside_roots", candidates[0] if candidates else path)


def _root_of(real: str, roots: Sequence[str]) -> str:
    for root in roots:
        if is_inside(real, os.path.realpath(expand(root))):
            return expand(root)
    return os.path.dirname(real)


def open_note(path: str, roots: Sequence[str], max_bytes: int, allow_locked: bool = False) -> OpenedNote:
    """Read a note safely (size-capped, text only). Locked notes are refused unless allowed."""
    real = resolve_note_path(path, roots)
    size = os.path.getsize(real)
    if size > max_bytes:
        raise NoteAccessError("too_large", real)
    with open(real, "rb") as handle:
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise NoteAccessError("too_large", real)
    try:
        text = decode_note(raw)
    except UnreadableNote:
        raise NoteAccessError("binary", real) from None
    front, body = split_front_matter(text)
    meta = read_meta(front, body, os.path.splitext(os.path.basename(real))[0])
    if meta.locked and not allow_locked:
        raise NoteAccessError("locked", real)
    return OpenedNote(real, _root_of(real, roots), meta, body.lstrip("\n"), len(raw))
