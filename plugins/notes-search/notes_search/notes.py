"""Turns one note file into what the index stores: metadata, folded/tokenized fields and a content hash."""

import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, Optional, Tuple

from .frontmatter import NoteMeta, read_meta, split_front_matter
from .markdown import headings, index_text, link_targets
from .tokens import fold, tokens, unsplit_for_fts5

# Files with a NUL byte in their first 8 KB are treated as binary and never indexed.
_BINARY_SNIFF = 8192


class UnreadableNote(Exception):
    """The file is binary or not UTF-8 text; `reason` is "binary" or "encoding"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class NoteRecord:
    """What the index keeps about a note (and what results show)."""

    path: str  # absolute path as found under its root (not symlink-resolved)
    root: str
    rel_path: str  # relative to root, "/" separators
    title: str
    tags: Tuple[str, ...]
    aliases: Tuple[str, ...]
    mtime_ns: int
    size: int
    content_hash: str
    locked: bool
    headings: Tuple[Tuple[int, str], ...] = ()  # (level, text) of H1-H6 headings, for ranking
    context: Tuple[str, ...] = ()  # front matter cwd/project: where the note's work happened

    @property
    def name(self) -> str:
        """The file name without its extension."""
        return os.path.splitext(self.rel_path.rsplit("/", 1)[-1])[0]

    @property
    def folder(self) -> str:
        """Folder of the note relative to its root ("" at the root), "/" separators."""
        head, _ = os.path.split(self.rel_path.replace("/", os.sep))
        return head.replace(os.sep, "/")

    @property
    def folder_keys(self) -> Tuple[str, ...]:
        """Folded folder paths an `in:` filter may start with: every suffix of root-name/folder."""
        return _folder_keys(self.root, self.folder)

    @property
    def mtime(self) -> float:
        return self.mtime_ns / 1e9


@lru_cache(maxsize=1024)
def _folder_keys(root: str, folder: str) -> Tuple[str, ...]:
    # Cached: a first index asks this for thousands of notes in the same few folders.
    parts = [p for p in ([os.path.basename(root.rstrip(os.sep)), *folder.split("/")]) if p]
    folded = [fold(p) for p in parts]
    return tuple("/".join(folded[i:]) for i in range(len(folded)))


def _relative(path: str, root: str) -> str:
    """path relative to root with "/" separators; plain slicing for the usual path under root."""
    base = root.rstrip(os.sep) + os.sep
    if path.startswith(base) and os.sep + ".." + os.sep not in path:
        relative = path[len(base) :]
    else:
        relative = os.path.relpath(path, root)
    return relative.replace(os.sep, "/")


@dataclass(frozen=True)
class IndexDocument:
    """A note ready for an engine: the record plus space-joined token fields."""

    record: NoteRecord
    fields: Dict[str, str]


def decode_note(raw: bytes) -> str:
    if b"\x00" in raw[:_BINARY_SNIFF]:
        raise UnreadableNote("binary")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableNote("encoding") from None


def content_hash(raw: bytes) -> str:
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def _joined(text: str) -> str:
    return " ".join(tokens(fold(text)))


def _context(meta: NoteMeta) -> Tuple[str, ...]:
    values = [meta.cwd or ""]
    project = meta.fields.get("project")
    values.extend(project if isinstance(project, list) else [project or ""])
    return tuple(v.strip() for v in values if v and v.strip())[:4]


def build_document(
    path: str,
    root: str,
    raw: bytes,
    mtime_ns: int,
    meta: Optional[NoteMeta] = None,
    unsplit_body: bool = False,
) -> IndexDocument:
    """Parse note bytes into an IndexDocument. Locked notes keep only their title in the index.

    unsplit_body=True hands the body over folded but unsplit (CJK runs pre-split into bigrams)
    whenever the engine's tokenizer splits it exactly as tokens() would (text.unsplit_for_fts5):
    a third of a first index was this split in Python."""
    text = decode_note(raw)
    front, body = split_front_matter(text)
    stem = os.path.splitext(os.path.basename(path))[0]
    meta = meta or read_meta(front, body, stem)
    rel_path = _relative(path, root)
    record = NoteRecord(
        path=path,
        root=root,
        rel_path=rel_path,
        title=meta.title,
        tags=meta.tags,
        aliases=meta.aliases,
        mtime_ns=mtime_ns,
        size=len(raw),
        content_hash=content_hash(raw),
        locked=meta.locked,
        headings=() if meta.locked else headings(body),
        context=_context(meta),
    )
    # A locked (encrypted/private) note is findable by title and name only: its text never enters the index.
    folded_body = "" if meta.locked else fold(index_text(body))
    unsplit = unsplit_for_fts5(folded_body) if unsplit_body else None
    fields = {
        "name": _joined(record.name),
        "aliases": " ".join(_joined(a) for a in meta.aliases),
        "title": _joined(meta.title),
        "folder": _joined(record.folder),
        "headings": " ".join(_joined(text) for _, text in record.headings),
        "tags": " ".join(_joined(t) for t in meta.tags),
        "links": "" if meta.locked else " ".join(_joined(t) for t in link_targets(body)),
        "body": unsplit if unsplit is not None else " ".join(tokens(folded_body)),
    }
    return IndexDocument(record=record, fields=fields)


def note_body(text: str) -> str:
    """The note text without its front matter (what prompts and previews show)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if text.startswith("---"):
        first_end = text.find("\n")
        if first_end != -1 and text[:first_end].strip() == "---":
            for marker in ("\n---", "\n..."):
                end = text.find(marker, first_end)
                while end != -1:
                    line_end = text.find("\n", end + 1)
                    line = text[end + 1 : line_end if line_end != -1 else len(text)]
                    if line.strip() == marker.strip():
                        return text[line_end + 1 :].lstrip("\n") if line_end != -1 else ""
                    end = text.find(marker, end + 1)
    return text.lstrip("\n")
