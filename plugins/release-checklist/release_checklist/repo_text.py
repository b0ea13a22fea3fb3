"""A repository file read as text, at most `limit` characters: a huge or unreadable file never stalls a check."""
from __future__ import annotations

from typing import Optional


def read_text(path: str, limit: int) -> Optional[str]:
    """The first `limit` characters of `path` (undecodable bytes replaced), or None when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(limit)
    except OSError:
        return None
