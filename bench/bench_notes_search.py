"""Benchmark for notes-search: index build/update and query latency of both engines against the
baseline the plugin replaces (Cosmica's search: re-read up to 2,000 newest notes per query, AND of
lower-cased substrings, stop at 40 hits). Generates its own notes under bench/.data/."""

import os
import random
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "plugins" / "notes-search"))
sys.path.insert(0, str(ROOT / "shared"))

from notes_search.library import NotesLibrary  # noqa: E402
from notes_search.settings import Settings  # noqa: E402

NOTES = 2000
SEED = 1234
QUERIES_PER_KIND = 60
DATA = HERE / ".data" / "notes_search"
_SYLLABLES = ["ka", "to", "ri", "mon", "sel", "dar", "vin", "lo", "pe", "qua", "zen", "ur", "bis", "tem", "gra"]
_ENGLISH = [
    "run", "running", "ran", "index", "indexing", "indexed", "meeting", "meetings", "release",
    "released", "plan", "planning", "search", "searching", "note", "notes", "deploy", "deployed",
    "test", "tests", "testing", "agent", "agents", "review", "design",
]
_JAPANESE = [
    "明日の会議は東京で行います。",
    "全文検索の索引を作り直した。",
    "リリース計画を確認する。",
    "議事録をまとめる。",
]


def _vocabulary(rng: random.Random) -> List[str]:
    words = set()
    while len(words) < 4000:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words) + _ENGLISH


def _zipf_pick(rng: random.Random, words: Sequence[str]) -> str:
    index = min(int(rng.paretovariate(1.1)) - 1, len(words) - 1)
    return words[index]


def generate(folder: Path, count: int) -> List[str]:
    """Deterministic notes with front matter, headings, lists, #tags; every 5th has Japanese."""
    rng = random.Random(SEED)
    vocabulary = _vocabulary(rng)
    rng.shuffle(vocabulary)
    if folder.exists() and len(list(folder.rglob("*.md"))) == count:
        return vocabulary
    shutil.rmtree(folder, ignore_errors=True)
    for index in range(count):
        title = " ".join(_zipf_pick(rng, vocabulary) for _ in range(3)).capitalize()
        tags = sorted({_zipf_pick(rng, vocabulary[:50]) for _ in range(2)})
        paragraphs = []
        for _ in range(rng.randint(3, 5)):
            paragraphs.append(" ".join(_zipf_pick(rng, vocabulary) for _ in range(rng.randint(40, 80))) + ".")
        if index % 5 == 0:
            paragraphs.append(rng.choice(_JAPANESE) + rng.choice(_JAPANESE))
        text = (
            f"---\ntitle: {title}\ntags: [{', '.join(tags)}]\n---\n# {title}\n\n## Notes\n\n"
            + "\n\n".join(paragraphs)
            + "\n\n- "
            + _zipf_pick(rng, vocabulary)
            + "\n- "
            + _zipf_pick(rng, vocabulary)
            + "\n\n#"
            + tags[0]
            + "\n"
        )
        path = folder / f"area-{index % 12:02d}" / f"note-{index:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        stamp = 1_700_000_000 + index * 60
        os.utime(path, (stamp, stamp))
    return vocabulary


def queries(vocabulary: Sequence[str]) -> Dict[str, List[str]]:
    rng = random.Random(SEED + 1)
    common = list(vocabulary[:400])
    words = [
        " ".join(rng.choice(common) for _ in range(rng.randint(1, 2))) + " " for _ in range(QUERIES_PER_KIND)
    ]
    typing: List[str] = []
    while len(typing) < QUERIES_PER_KIND:
        word = rng.choice(common)
        typing.extend(word[:end] for end in range(2, len(word) + 1))
    japanese = ["会議", "東京", "全文検索", "索引", "議事録", "リリース"] * (QUERIES_PER_KIND // 6)
    return {"word": words, "as-you-type": typing[:QUERIES_PER_KIND], "japanese": japanese}


def cosmica_scan(folder: Path) -> Callable[[str], List[str]]:
    """The baseline: what Cosmica does on every keystroke (reads files each time, no index)."""
    files = sorted(folder.rglob("*.md"), key=lambda p: p.stat().st_mtime, reverse=True)[:2000]

    def search(text: str) -> List[str]:
        words = text.lower().split()
        hits: List[str] = []
        for path in files:
            if path.stat().st_size > 1024 * 1024:
                continue
            body = path.read_text(encoding="utf-8").lower()
            if all(word in body for word in words):
                hits.append(str(path))
                if len(hits) >= 40:
                    break
        return hits

    return search


def _timed(function: Callable[[str], object], texts: Sequence[str]) -> List[float]:
    out = []
    for text in texts:
        started = time.perf_counter()
        function(text)
        out.append((time.perf_counter() - started) * 1000)
    return out


def _p95(values: List[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def startup(engine: str, notes: Path, runs: int = 3) -> Tuple[float, float]:
    """A fresh plugin process, as Agentty starts it, on an existing index: (first panel, first results) ms."""
    import json

    from agentty_plugin.testing import PluginHost, World

    data = DATA / f"data-{engine}"
    (data / "settings.json").write_text(json.dumps({"roots": [str(notes)], "engine": engine}))
    panel, results = [], []
    for _ in range(runs):
        host = PluginHost(str(ROOT / "plugins" / "notes-search"), world=World(), data_dir=str(data))
        started = time.monotonic()
        host.start()
        host.open_panel()
        host.wait_for_panel(lambda tree: True, timeout=60)
        panel.append((time.monotonic() - started) * 1000)
        host.wait_for_panel(lambda tree, h=host: (h.find(tree, "search.results") or {}).get("items"), timeout=120)
        results.append((time.monotonic() - started) * 1000)
        host.close()
    return statistics.median(panel), statistics.median(results)


def main() -> None:
    started = time.perf_counter()
    notes = DATA / f"notes-{NOTES}"
    vocabulary = generate(notes, NOTES)
    query_sets = queries(vocabulary)
    size_mib = sum(p.stat().st_size for p in notes.rglob("*.md")) / 2**20
    print(
        f"notes-search benchmark: {NOTES} generated notes ({size_mib:.1f} MiB), Python {sys.version.split()[0]}"
    )
    print(f"each query kind: {QUERIES_PER_KIND} queries, 1 run per engine; search = top 30 with snippets")

    rows: List[Tuple[str, str, float, float]] = []
    build: Dict[str, Tuple[float, float, float, float]] = {}
    baseline = cosmica_scan(notes)
    for kind, texts in query_sets.items():
        times = _timed(baseline, texts)
        rows.append(("cosmica scan (baseline)", kind, statistics.median(times), _p95(times)))
    for engine in ("sqlite", "whoosh"):
        data = DATA / f"data-{engine}"
        shutil.rmtree(data, ignore_errors=True)
        library = NotesLibrary(str(data), Settings(roots=(str(notes),), engine=engine))
        t0 = time.perf_counter()
        report = library.refresh()
        cold = time.perf_counter() - t0
        assert report is not None and report.added == NOTES, report
        t0 = time.perf_counter()
        library.refresh()
        idle = (time.perf_counter() - t0) * 1000
        for index in range(10):  # touch 10 notes: the incremental path
            path = notes / f"area-{index % 12:02d}" / f"note-{index:05d}.md"
            path.write_text(path.read_text(encoding="utf-8") + f"\nedit {time.time()}\n", encoding="utf-8")
        t0 = time.perf_counter()
        changed = library.refresh()
        update = (time.perf_counter() - t0) * 1000
        assert changed is not None and changed.changed == 10, changed
        index_mib = sum(f.stat().st_size for f in data.rglob("*") if f.is_file()) / 2**20
        build[engine] = (cold, idle, update, index_mib)
        for kind, texts in query_sets.items():
            times = _timed(library.search, texts)
            rows.append((f"notes-search {engine}", kind, statistics.median(times), _p95(times)))
        library.close()
    starts = {engine: startup(engine, notes) for engine in ("sqlite", "whoosh")}

    print()
    print(
        f"{'index':<10}{'cold build s':>14}{'no-change refresh ms':>22}{'10 changed ms':>15}{'index MiB':>11}"
    )
    for engine, (cold, idle, update, mib) in build.items():
        print(f"{engine:<10}{cold:>14.2f}{idle:>22.1f}{update:>15.1f}{mib:>11.1f}")
    print()
    base = {kind: median for name, kind, median, _ in rows if name.startswith("cosmica")}
    print(f"{'search':<26}{'queries':<13}{'median ms':>10}{'p95 ms':>9}{'baseline/this (median)':>24}")
    for name, kind, median, p95 in rows:
        ratio = base[kind] / median if median else float("inf")
        print(f"{name:<26}{kind:<13}{median:>10.2f}{p95:>9.2f}{ratio:>23.1f}x")
    print()
    print(f"{'fresh process (3 runs, median)':<32}{'first panel ms':>15}{'first results ms':>18}")
    for engine, (panel_ms, results_ms) in starts.items():
        print(f"{'notes-search ' + engine:<32}{panel_ms:>15.0f}{results_ms:>18.0f}")
    total = time.perf_counter() - started
    print(f"\n(the baseline matches substrings, so it also finds words inside words; total {total:.0f} s)")


if __name__ == "__main__":
    main()
