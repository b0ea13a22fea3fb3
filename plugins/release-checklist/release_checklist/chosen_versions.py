"""The version the user typed for each repository, kept in the plugin's data folder across restarts."""
from __future__ import annotations

import os
import threading
from typing import Dict, Optional

from agentty_plugin.state import JsonFile

FILE_NAME = "chosen-versions.json"


class ChosenVersions:
    """repository path -> version; read once, written atomically on every change (the runtime's JsonFile)."""

    def __init__(self, data_dir: str) -> None:
        self.file = JsonFile(os.path.join(data_dir, FILE_NAME))
        self._lock = threading.Lock()
        self._values: Optional[Dict[str, str]] = None

    def _all(self) -> Dict[str, str]:
        if self._values is None:
            data = self.file.load({})  # a damaged file is moved aside by JsonFile and we start empty
            self._values = {key: value for key, value in data.items()
                            if isinstance(key, str) and isinstance(value, str)} if isinstance(data, dict) else {}
        return self._values

    def get(self, repo: str) -> Optional[str]:
        with self._lock:
            return self._all().get(repo)

    def set(self, repo: str, version: Optional[str]) -> None:
        with self._lock:
            values = self._all()
            if version is None:
                if values.pop(repo, None) is None:
                    return
            else:
                values[repo] = version
            try:
                self.file.save(values)
            except OSError:
                pass  # kept in memory for this run; the next change tries the disk again
