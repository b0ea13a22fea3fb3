"""Plugin state as JSON files in the plugin's data folder: atomic writes, corrupt files moved aside."""

from __future__ import annotations

import json
import os
import threading
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional

# The host owns `storage.json` in the same folder (storage/* methods); never write it ourselves.
RESERVED_NAMES = frozenset({"storage.json", "storage.corrupt.json"})


def atomic_write_text(path: str, text: str, durable: bool = True) -> None:
    """Write a file so that a crash leaves either the old or the new content, never half of one.

    `durable` also fsyncs, so the content survives a power loss and not only a killed process.
    """
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    if durable:
        _fsync_folder(folder)


def _fsync_folder(folder: str) -> None:
    # Make the rename itself durable; folders cannot be opened this way on Windows, which is fine.
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class JsonFile:
    """One JSON document on disk. `load()` never raises for a bad file; it moves it aside and says so."""

    def __init__(self, path: str) -> None:
        if os.path.basename(path) in RESERVED_NAMES:
            raise ValueError(f"{os.path.basename(path)} belongs to the host's storage; choose another name")
        self.path = path
        self.last_problem: Optional[str] = None
        self._lock = threading.Lock()

    def load(self, default: Any = None) -> Any:
        with self._lock:
            self.last_problem = None
            try:
                with open(self.path, encoding="utf-8") as handle:
                    return json.load(handle)
            except FileNotFoundError:
                return default
            except (OSError, ValueError) as error:
                moved = self._move_aside()
                self.last_problem = (
                    f"{os.path.basename(self.path)} could not be read ({error.__class__.__name__}: {error}); "
                    + (f"kept as {os.path.basename(moved)}" if moved else "left in place")
                )
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
