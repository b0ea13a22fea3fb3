"""Plugin state as JSON files in the plugin's data folder: atomic writes, corrupt files moved aside."""

from __future__ import annotations

import json
import os
import threading
import time

from .files import atomic_write_text

__all__ = ["RESERVED_NAMES", "JsonFile", "atomic_write_text"]  # atomic_write_text: its home is files.py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

# The host owns `storage.json` in the same folder (storage/* methods); never write it ourselves.
RESERVED_NAMES = frozenset({"storage.json", "storage.corrupt.json"})


class JsonFile:
    """One JSON document on disk. `load()` never raises for a bad file; it moves it aside and says so."""

    def __init__(self, path: str) -> None:
        if os.path.basename(path) in RESERVED_NAMES:
            raise ValueError(f"{os.path.basename(path)} belongs to the host's storage; choose another name")
        self.path = path
        self.last_problem: Optional[str] = None
        self.moved_to: Optional[str] = None  # where the last damaged copy was kept
        self._lock = threading.Lock()

    def load(self, default: Any = None, check: Optional[Callable[[Any], bool]] = None) -> Any:
        """The document, or `default` when there is none. A file that does not parse, or whose
        value `check` rejects (wrong types: `"created": "yesterday"`), is damaged: it is moved aside,
        `last_problem` says so, and `default` is returned. A file that cannot be read for another
        reason (no permission, an I/O error) is left where it is: it may be fine."""
        with self._lock:
            self.last_problem = None
            self.moved_to = None
            try:
                with open(self.path, encoding="utf-8") as handle:
                    value = json.load(handle)
            except FileNotFoundError:
                return default
            except ValueError as error:
                return self._damaged(default, f"{error.__class__.__name__}: {error}")
            except OSError as error:
                self.last_problem = f"{os.path.basename(self.path)} could not be read ({error.strerror or error})"
                return default
            if check is not None:
                try:
                    valid = check(value)
                except (TypeError, ValueError, KeyError, AttributeError) as error:
                    valid, reason = False, f"{error.__class__.__name__}: {error}"
                else:
                    reason = "unexpected content"
                if not valid:
                    return self._damaged(default, reason)
            return value

    def _damaged(self, default: Any, reason: str) -> Any:
        moved = self._move_aside()
        self.last_problem = (
            f"{os.path.basename(self.path)} was damaged ({reason}); "
            + (f"kept as {os.path.basename(moved)}" if moved else "left in place")
        )
        self.moved_to = moved
        return default

    def save(self, value: Any) -> None:
        text = json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, allow_nan=False) + "\n"
        with self._lock:
            atomic_write_text(self.path, text)

    def _move_aside(self) -> Optional[str]:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = f"{self.path}.corrupt-{stamp}"
        counter = 1
        while os.path.exists(target):
            counter += 1
            target = f"{self.path}.corrupt-{stamp}-{counter}"
        try:
            os.replace(self.path, target)
        except OSError:
            return None
        return target
