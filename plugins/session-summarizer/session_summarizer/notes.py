"""Saves a summary as a Markdown note with front matter, under a fresh file name (never overwriting)."""

import errno
import json
import os
import re
from typing import TYPE_CHECKING, List, NamedTuple, Optional, Tuple

if TYPE_CHECKING:  # datetime loads when a note is written; the first panel only needs the folder rules
    import datetime as _dt

DEFAULT_FOLDER = "~/notes/agentty-sessions"
MAX_NAME_ATTEMPTS = 1000
_SLUG_DROP = re.compile(r"[^\w\-]+", re.UNICODE)


class NoteSaveError(Exception):
    """Why a note could not be saved; `kind` is one of: empty, relative, not_a_folder, unwritable, failed."""

    def __init__(self, kind: str, path: str, detail: str = "") -> None:
        super().__init__(kind + ": " + path + (" (" + detail + ")" if detail else ""))
        self.kind = kind
        self.path = path
        self.detail = detail


class NoteInfo(NamedTuple):  # not a dataclass: the first panel imports this module (see view.py)
    title: str
    workspace: str = ""
    agent: str = ""
    session_id: str = ""
    cwd: str = ""
    summarizer: str = "local"
    incomplete: bool = False


def home_folder() -> str:
    return os.path.expanduser("~")


def resolve_folder(text: str) -> str:
    """The absolute folder for `text`: ~ expanded, a relative path taken from the home folder.

    Never from the process's working directory: Agentty starts plugins in their own folder, which it
    deletes on uninstall or update, and the notes would go with it. NoteSaveError("empty") when blank,
    ("relative") when there is no home folder to resolve against.
    """
    text = (text or "").strip()
    if not text:
        raise NoteSaveError("empty", "")
    expanded = os.path.expanduser(text)
    if expanded.startswith("~"):  # "~someone" with no such user: guessing would put notes somewhere odd
        raise NoteSaveError("relative", text)
    if not os.path.isabs(expanded):
        home = home_folder()
        if not os.path.isabs(home):
            raise NoteSaveError("relative", text)
        expanded = os.path.join(home, expanded)
    return os.path.normpath(expanded)


def is_relative(text: str) -> bool:
    """True when `text` is a path the user typed without a root (resolved against the home folder)."""
    text = (text or "").strip()
    return bool(text) and not os.path.isabs(os.path.expanduser(text))


def slug(title: str, limit: int = 48) -> str:
    """File-name part from a title; keeps letters of any script, drops what file systems dislike."""
    cleaned = _SLUG_DROP.sub("-", title.strip().lower()).strip("-_")
    cleaned = re.sub(r"-{2,}", "-", cleaned)[:limit].strip("-_")
    return cleaned or "session"


def _quote(value: str) -> str:
    # JSON strings are valid YAML double-quoted scalars, so any title or path is safe in front matter.
    return json.dumps(value, ensure_ascii=False)


def front_matter(info: NoteInfo, created: "_dt.datetime") -> str:
    lines: List[Tuple[str, str]] = [
        ("title", _quote(info.title or "Session summary")),
        ("date", created.isoformat(timespec="seconds")),
        ("workspace", _quote(info.workspace)),
        ("agent", _quote(info.agent)),
        ("session_id", _quote(info.session_id)),
        ("cwd", _quote(info.cwd)),
        ("summarizer", _quote(info.summarizer)),
        ("source", "agentty"),
        ("tags", "[agentty, session-summary]"),
    ]
    if info.incomplete:
        lines.append(("incomplete", "true"))
    return "---\n" + "".join(key + ": " + value + "\n" for key, value in lines) + "---\n\n"


def save_note(folder_text: str, markdown: str, info: NoteInfo, created: Optional["_dt.datetime"] = None) -> str:
    """Write the note and return its path. The folder is created if needed; existing files are never touched."""
    folder = resolve_folder(folder_text)
    import datetime

    created = created or datetime.datetime.now().astimezone()
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NoteSaveError("not_a_folder", folder)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        kind = "not_a_folder" if exc.errno in (errno.ENOTDIR, errno.EEXIST) else "unwritable"
        raise NoteSaveError(kind, folder, exc.strerror or str(exc)) from exc
    from .redaction import redact_text  # its patterns compile on import: only when a note is written

    body = front_matter(info, created) + redact_text(markdown).rstrip() + "\n"
    data = body.encode("utf-8")
    stem = created.strftime("%Y-%m-%d-%H%M") + "-" + slug(info.title)
    for attempt in range(1, MAX_NAME_ATTEMPTS + 1):
        name = stem + (".md" if attempt == 1 else "-" + str(attempt) + ".md")
        path = os.path.join(folder, name)
        try:
            # O_EXCL: the name is claimed atomically, so a note written at the same minute (by us or
            # anyone) is never overwritten; we just take the next free name.
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise NoteSaveError("unwritable", folder, exc.strerror or "") from exc
            if exc.errno == errno.ENOTDIR:
                raise NoteSaveError("not_a_folder", folder) from exc
            raise NoteSaveError("failed", folder, exc.strerror or str(exc)) from exc
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise NoteSaveError("failed", path, exc.strerror or str(exc)) from exc
        return path
    raise NoteSaveError("failed", folder, "no free file name")
