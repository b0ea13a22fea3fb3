"""Finds a Chromium on this machine and launches it headless through Playwright (no browser downloads)."""

from __future__ import annotations

import os
import shutil
from typing import Any, List, Optional

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
              "/usr/bin/google-chrome-stable", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
              "/Applications/Chromium.app/Contents/MacOS/Chromium")
# The browser only opens our own page on 127.0.0.1. Chromium refuses to start as root with its sandbox,
# and the other switches keep it from phoning home or updating itself during a run.
LAUNCH_ARGS: List[str] = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-default-apps", "--disable-extensions",
]


def find_chromium() -> Optional[str]:
    """$AGENTTY_CHROMIUM, else the first Chromium or Chrome found in the usual places or on PATH."""
    configured = os.environ.get("AGENTTY_CHROMIUM")
    if configured:
        return configured if os.path.exists(configured) else None
    for path in CANDIDATES:
        if os.path.exists(path):
            return path
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def launch(playwright: Any, executable: Optional[str] = None) -> Any:
    """A headless Chromium Browser from a started `sync_playwright()`; raises RuntimeError if none is found."""
    path = executable or find_chromium()
    if path is None:
        raise RuntimeError("no Chromium found: install it (e.g. apt-get install chromium) or set AGENTTY_CHROMIUM")
    return playwright.chromium.launch(executable_path=path, headless=True, args=LAUNCH_ARGS)
