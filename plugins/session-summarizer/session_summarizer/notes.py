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

    def __init__(self, kind: str, path: str, detail: str = "", error: Optional[OSError] = None) -> None:
        super().__init__(kind + ": " + path + (" (" + detail + ")" if detail else ""))
        self.kind = kind
        self.path = path
        self.detail = detail
        self.error = error  # the OSError behind it, turned into the user's words by the controller


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
    """Write the note and return its path. The folder is created if needed; existing files are never touched.

    The note is written whole under a temp name first and only then given its name, so a full disk or a
    failed write leaves no empty or partial note (issue 24)."""
    folder = resolve_folder(folder_text)
    import datetime

    created = created or datetime.datetime.now().astimezone()
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NoteSaveError("not_a_folder", folder)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        if exc.errno in (errno.ENOTDIR, errno.EEXIST):
            raise NoteSaveError("not_a_folder", folder) from exc
        raise _save_error(exc, folder) from exc
    from .redaction import redact_text  # its patterns compile on import: only when a note is written

    body = front_matter(info, created) + redact_text(markdown).rstrip() + "\n"
    temp = _write_temp(folder, body.encode("utf-8"))
    try:
        return _claim_name(folder, temp, created.strftime("%Y-%m-%d-%H%M") + "-" + slug(info.title))
    finally:
        _remove_quietly(temp)  # linked under its final name, or never: the temp name never stays


def _write_temp(folder: str, data: bytes) -> str:
    """The whole note, fsynced, under a hidden temp name in `folder`: a full disk fails here, before any
    visible file exists, so a failed save leaves nothing behind."""
    import tempfile

    try:
        descriptor, temp = tempfile.mkstemp(prefix=".note-", suffix=".part", dir=folder)
    except OSError as exc:
        raise _save_error(exc, folder) from exc
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        _remove_quietly(temp)
        raise _save_error(exc, folder) from exc
    return temp


def _claim_name(folder: str, temp: str, stem: str) -> str:
    """Give the written note the first free name. A hard link fails when the name exists, so a note
    written at the same minute (by us or anyone) is never overwritten; we take the next name."""
    for attempt in range(1, MAX_NAME_ATTEMPTS + 1):
        path = os.path.join(folder, stem + (".md" if attempt == 1 else "-" + str(attempt) + ".md"))
        try:
            os.link(temp, path)
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno not in _NO_HARD_LINKS:
                raise _save_error(exc, folder) from exc
            return _claim_without_links(folder, temp, path, stem, attempt)
        return path
    raise NoteSaveError("failed", folder, "no free file name")


# File systems without hard links (FAT, exFAT, some network shares) answer these.
_NO_HARD_LINKS = (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS)


def _claim_without_links(folder: str, temp: str, path: str, stem: str, attempt: int) -> str:
    """Claim an empty name with O_EXCL, then rename the written note over it. The rename needs no
    free space, and the placeholder is removed if it fails, so no empty note is left either way."""
    while attempt <= MAX_NAME_ATTEMPTS:
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            attempt += 1
            path = os.path.join(folder, stem + "-" + str(attempt) + ".md")
            continue
        except OSError as exc:
            raise _save_error(exc, folder) from exc
        try:
            os.replace(temp, path)
        except OSError as exc:
            _remove_quietly(path)
            raise _save_error(exc, folder) from exc
        return path
    raise NoteSaveError("failed", folder, "no free file name")


def _save_error(exc: OSError, folder: str) -> NoteSaveError:
    if exc.errno == errno.ENOTDIR:
        return NoteSaveError("not_a_folder", folder, error=exc)
    kind = "unwritable" if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS) else "failed"
    return NoteSaveError(kind, folder, exc.strerror or str(exc), error=exc)


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
