"""`make screenshots`: draw each plugin's panel on the demo data in headless Chromium and save it as a PNG.

    python -m agentty_devhost.screenshots [--sample-data .demo] [--out-dir DIR] plugins/*/

Each PNG goes to `<plugin folder>/screenshot.png` (or `DIR/<id>.png`), for the plugin READMEs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .background import BackgroundDevHost
from .browser import launch
from .sample_data import demo_focus, demo_world, ensure_sample_data
from .world import LANGUAGES

# What a user would do first so the README picture shows the plugin at work: (action, element id, text).
# A step whose element is not on the panel is skipped, so a renamed id costs a plainer picture, not a failure.
SCENES: Dict[str, List[Tuple[str, str, str]]] = {
    "notes-search": [("type", "search.query", "discount")],
    "session-summarizer": [("click", "session.summarize", "")],
}
QUIET_SECONDS = 1.5    # the panel counts as drawn once no new tree arrived for this long
LONGEST_WAIT = 25.0


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def wait_for_quiet_panel(page: object, quiet: float = QUIET_SECONDS, longest: float = LONGEST_WAIT) -> int:
    """Wait until the page has drawn a panel and no newer one came for `quiet` seconds; returns its number."""
    deadline = time.monotonic() + longest
    last_seq, last_change = -1, time.monotonic()
    while time.monotonic() < deadline:
        seq = int(page.evaluate(  # type: ignore[attr-defined]
            "() => Number(document.getElementById('panel-frame').dataset.panelSeq || 0)"))
        now = time.monotonic()
        if seq != last_seq:
            last_seq, last_change = seq, now
        elif seq > 0 and now - last_change >= quiet:
            return seq
        time.sleep(0.2)
    return last_seq


def take(folders: Sequence[str], sample_root: str, out_dir: Optional[str], language: str = "en",
         browser: Optional[Any] = None) -> List[str]:
    """Write one PNG per running plugin; uses `browser` (a Playwright Browser) or launches Chromium itself."""
    data = ensure_sample_data(sample_root)
    world = demo_world(data, language)
    ids = [os.path.basename(os.path.normpath(f)) for f in folders]
    host = BackgroundDevHost(folders, world, data.plugin_data, focus_hints=demo_focus(ids))
    url = host.start()
    try:
        if browser is not None:
            return _shoot(browser, host, folders, url, out_dir)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            own = launch(playwright)
            try:
                return _shoot(own, host, folders, url, out_dir)
            finally:
                own.close()
    finally:
        host.stop()


def _shoot(browser: Any, host: BackgroundDevHost, folders: Sequence[str], url: str,
           out_dir: Optional[str]) -> List[str]:
    written: List[str] = []
    for folder, key in zip(folders, list(host.dev.runners)):
        runner = host.dev.runners[key]
        if runner.state != "running":
            _say(f"skipped {key}: {runner.problem or runner.state}")
            continue
        page = browser.new_page(viewport={"width": 360, "height": 1400}, device_scale_factor=2)
        try:
            page.goto(f"{url}?plugin={key}&view=panel")
            wait_for_quiet_panel(page)
            for action, element, text in SCENES.get(runner.plugin_id, []):
                target_element = page.locator(f'[data-element="{element}"]')
                if target_element.count() == 0:
                    _say(f"{key}: no element {element} to {action}; taking the picture as it is")
                    continue
                if action == "type":
                    target_element.first.press_sequentially(text, delay=40)
                else:
                    target_element.first.click()
                wait_for_quiet_panel(page)
            target = os.path.join(out_dir, f"{key}.png") if out_dir else os.path.join(folder, "screenshot.png")
            os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
            page.locator("#panel-frame").screenshot(path=target)
        finally:
            page.close()
        written.append(target)
        _say(f"wrote {target}")
    return written


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agentty_devhost.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", help="plugin folders")
    parser.add_argument("--sample-data", default=".demo", metavar="DIR", help="demo data folder (made if missing)")
    parser.add_argument("--out-dir", help="write DIR/<id>.png instead of <plugin folder>/screenshot.png")
    parser.add_argument("--language", choices=LANGUAGES, default="en")
    args = parser.parse_args(argv)
    folders = [os.path.abspath(f) for f in args.folders
               if os.path.isfile(os.path.join(f, "agentty-plugin.json"))]
    if not folders:
        _say("no plugin folder (with agentty-plugin.json) given")
        return 2
    try:
        written = take(folders, args.sample_data, args.out_dir, args.language)
    except (RuntimeError, OSError) as error:
        _say(f"screenshots failed: {error}")
        return 1
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
