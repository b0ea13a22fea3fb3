"""Bundle benchmark: size of each plugin's bundle and its cold first-panel time, against the same plugin run
from the checkout with the project venv (the baseline). Builds bundles and a sample project under bench/.data/bundles/.

"Cold" is the first start of a freshly copied bundle (no __pycache__ yet, as right after an install);
"warm" is the next start of the same copy. Bundles run with `python -S`, so they see nothing but what
they carry; the oldest and newest pyenv CPython 3.9+ are measured too when present.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "shared"))

from agentty_plugin.distribution.bundle import bundle_plugin, folder_size, plugin_folders  # noqa: E402
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World  # noqa: E402

DATA = HERE / ".data" / "bundles"
WHEELS = REPO / "dist" / ".wheels"
RUNS = 5
CLEAN_ENV = {"PYTHONPATH": "", "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": ""}


def _version(path: str) -> Tuple[int, ...]:
    match = re.search(r"(\d+)\.(\d+)\.(\d+)", path)
    return tuple(int(n) for n in match.groups()) if match else (0, 0, 0)


def pyenv_extremes() -> List[str]:
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = sorted((p for p in glob.glob(os.path.join(root, "versions", "3.*", "bin", "python3"))
                    if _version(p) >= (3, 9, 0)), key=_version)
    return list(dict.fromkeys(found[:1] + found[-1:]))


def world() -> World:
    project = DATA / "project"
    if not (project / ".git").is_dir():
        (project / "notes").mkdir(parents=True, exist_ok=True)
        for n in range(50):
            (project / "notes" / f"note-{n}.md").write_text(f"# Note {n}\n\nAbout bundles and panels {n}.\n")
        subprocess.run(["git", "init", "-q", str(project)], check=True)
    pane = PaneSpec(id=11, kind="claude", status="idle", cwd=str(project), session={
        "sessionId": "s1", "title": "bench", "turns": [{"role": "user", "text": "hello"}]})
    return World(workspaces=[WorkspaceSpec(id=1, name="project", cwd=str(project), panes=[pane])], focused_pane=11)


def first_panel(folder: str, python: str, args: Sequence[str], env: Optional[Dict[str, str]]) -> float:
    """Seconds from process start to the first panel drawn (initialize then panel/open, as Agentty sends them)."""
    host = PluginHost(folder, world=world(), python=python, python_args=list(args), env=env,
                      data_dir=str(DATA / "plugin-data"), trigger="panel")
    started = time.monotonic()
    host.start()
    try:
        host.wait_for_panel(timeout=30)
        return host.panel_times[0] - started
    finally:
        host.close()


def stats(samples: List[float]) -> Tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def measure(bundle: str, python: str, args: Sequence[str]) -> Tuple[List[float], List[float]]:
    cold, warm = [], []
    for run in range(RUNS):
        copy = DATA / "runs" / f"{os.path.basename(bundle)}-{run}" / os.path.basename(bundle)
        shutil.rmtree(copy.parent, ignore_errors=True)
        shutil.copytree(bundle, copy)
        cold.append(first_panel(str(copy), python, args, CLEAN_ENV))
        warm.append(first_panel(str(copy), python, args, CLEAN_ENV))
        shutil.rmtree(copy.parent, ignore_errors=True)
    return cold, warm


def main() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    dist = DATA / "dist"
    plugins = plugin_folders(str(REPO / "plugins"))
    extremes = pyenv_extremes()
    print(f"{len(plugins)} plugins; {RUNS} runs per figure; times are process start → first panel, in ms")
    rows = []
    for plugin in plugins:
        try:
            result = bundle_plugin(plugin, str(dist), cache_dir=str(WHEELS), vermin=False)
        except Exception as error:  # a plugin that cannot be bundled yet should not hide the others
            print(f"{os.path.basename(plugin)}: cannot bundle: {error}")
            continue
        zipped = os.path.getsize(result.zip_path) if result.zip_path else 0
        with zipfile.ZipFile(result.zip_path or "") as archive:
            files = len(archive.namelist())
        baseline = [first_panel(plugin, sys.executable, [], None) for _ in range(RUNS)]
        cold, warm = measure(result.folder, sys.executable, ["-S"])
        others = {os.path.basename(os.path.dirname(os.path.dirname(p))): stats(measure(result.folder, p, ["-S"])[0])[0]
                  for p in extremes}
        rows.append((result.plugin_id, folder_size(result.folder), zipped, files, stats(baseline), stats(cold),
                     stats(warm), others))
    header = (f"{'plugin':<20}{'bundle':>10}{'zip':>10}{'files':>7}  {'checkout(warm)':>14}  {'cold bundle':>14}"
              f"  {'warm bundle':>14}  {'cold/checkout':>13}  cold on other CPythons (median)")
    print(header)
    print("-" * len(header))
    for plugin_id, size, zipped, files, base, cold, warm, others in rows:
        def fmt(pair: Tuple[float, float]) -> str:
            return f"{pair[0] * 1000:5.0f} / {pair[1] * 1000:5.0f}"
        other = ", ".join(f"{name}: {value * 1000:.0f}" for name, value in others.items()) or "none installed"
        print(f"{plugin_id:<20}{size / 1024:>8.0f}Ki{zipped / 1024:>8.0f}Ki{files:>7}  {fmt(base):>14}  "
              f"{fmt(cold):>14}  {fmt(warm):>14}  {cold[0] / base[0]:>12.2f}x  {other}")
    print("(checkout = plugins/<id> with the project venv; bundle = dist/<id> copied elsewhere, python -S; "
          "each cell median / p95)")


if __name__ == "__main__":
    main()
