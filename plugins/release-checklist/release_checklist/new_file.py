"""Create a file in the user's repository atomically, never over someone else's: a full disk leaves no empty file."""
from __future__ import annotations

import contextlib
import errno
import os
import tempfile

NUL_AND_SPACE = "\0 \t\r\n\ufeff"


def is_blank_text(text: str) -> bool:
    """True for a file with nothing in it: 0 bytes, or only NULs and white space (what a write cut by a full
    disk or a power loss leaves behind)."""
    return not text.strip(NUL_AND_SPACE)


def is_blank(path: str) -> bool:
    """is_blank_text for a file; False when it cannot be read or is missing."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(65536)
    except OSError:
        return False
    return is_blank_text(head.decode("utf-8", "replace"))


def create_text(path: str, text: str, replace_blank: bool = False) -> None:
    """Write text to a new file at path: a temp file in the same folder, fsynced, then put in place in one step.

    Raises FileExistsError when a file is already there (replace_blank: unless that file is blank, see
    is_blank), OSError when it cannot be written; either way nothing of ours is left behind.
    """
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if replace_blank and os.path.exists(path):
            if not is_blank(path):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), path)
            os.replace(temp, path)
        else:
            _link_new(temp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)


def _link_new(temp: str, path: str) -> None:
    """Put temp at path unless path exists: a hard link fails atomically on an existing name."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise
    except OSError:  # no hard links here (FAT, some network shares): check, then rename
        if os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), path) from None
        os.replace(temp, path)
