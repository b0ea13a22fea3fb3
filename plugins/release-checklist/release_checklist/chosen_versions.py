"""The version the user typed for each repository, kept in the plugin's data folder across restarts."""
from __future__ import annotations

import os
import threading
from typing import Any, Dict, Optional, Tuple

from agentty_plugin.state import JsonFile

FILE_NAME = "chosen-versions.json"


def _valid(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(version, str) for version in value.values())


class ChosenVersions:
    """repository path -> version; read once, written atomically on every change (the runtime's JsonFile).

    A file that is not this shape (torn, not JSON, wrong types) is moved aside by JsonFile and `damage`
    says where, once, so the panel can tell the user why a chosen version is gone.
    """

    def __init__(self, data_dir: str) -> None:
        self.file = JsonFile(os.path.join(data_dir, FILE_NAME))
        self._lock = threading.Lock()
        self._values: Optional[Dict[str, str]] = None
        self.damage: Optional[Tuple[str, Optional[str]]] = None  # (file name, kept as or None); taken by the panel

    def _all(self) -> Dict[str, str]:
        if self._values is None:
            self._values = dict(self.file.load({}, check=_valid))
            if self.file.moved_to or (self.file.last_problem and " was damaged " in self.file.last_problem):
                moved = self.file.moved_to
                self.damage = (FILE_NAME, os.path.basename(moved) if moved else None)
        return self._values

    def take_damage(self) -> Optional[Tuple[str, Optional[str]]]:
        """The damage found while reading, once (None if none or already taken)."""
        with self._lock:
            self._all()
            damage, self.damage = self.damage, None
            return damage

    def get(self, repo: str) -> Optional[str]:
        with self._lock:
            return self._all().get(repo)

    def set(self, repo: str, version: Optional[str]) -> None:
        """Remember (or forget, with None) repo's version; kept in memory even when the disk write raises OSError."""
        with self._lock:
            values = self._all()
            if version is None:
                if values.pop(repo, None) is None:
                    return
            else:
                values[repo] = version
            self.file.save(values)
