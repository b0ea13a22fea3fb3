"""The version the user typed for each repository, kept in the plugin's data folder across restarts."""
from __future__ import annotations

import json
import os
import threading
import time
from typing import Dict, Optional, Tuple

from agentty_plugin.files import atomic_write_text

FILE_NAME = "chosen-versions.json"


class ChosenVersions:
    """repository path -> version; read once, written atomically on every change.

    A file that is not this shape (torn, not JSON, wrong types) is moved aside and `damage` says where,
    once, so the panel can tell the user why a chosen version is gone.
    """

    def __init__(self, data_dir: str) -> None:
        self.path = os.path.join(data_dir, FILE_NAME)
        self._lock = threading.Lock()
        self._values: Optional[Dict[str, str]] = None
        self.damage: Optional[Tuple[str, Optional[str]]] = None  # (file name, kept as or None); taken by the panel

    def _all(self) -> Dict[str, str]:
        if self._values is None:
            self._values = self._read()
        return self._values

    def _read(self) -> Dict[str, str]:
        try:
            with open(self.path, encoding="utf-8") as handle:
                data = json.load(handle)
            if not isinstance(data, dict) or not all(isinstance(value, str) for value in data.values()):
                raise ValueError("not an object of repository -> version")
        except FileNotFoundError:
            return {}
        except ValueError:  # torn by a crash or full disk, or edited by hand: kept for whoever looks
            aside: Optional[str] = f"{self.path}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
            try:
                os.replace(self.path, aside)  # type: ignore[arg-type]
            except OSError:
                aside = None
            self.damage = (FILE_NAME, os.path.basename(aside) if aside else None)
            return {}
        except OSError:
            return {}  # unreadable folder: the project's own version is used, and saving will say why
        return dict(data)

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
            text = json.dumps(values, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        atomic_write_text(self.path, text)
