"""Benchmark for notes-search (issues 3 and 18): generated notes (10,000 and 100,000 by default; the
NOTES environment variable or a `--notes=10000,100000` argument chooses); cold index in the background
with the panel answering meanwhile, 10 changed notes, a saved note until the panel shows it, keystroke ->
panel latency through the real plugin process for 200 queries typed character by character (typos
included), engine-only search time, plugin RSS; against a plain Python scan (and ripgrep, when
installed) of the same folder in the same run; the first index in process against the FTS5 engine the
issue measured (`--cold --runs=N` for that comparison alone). Then known-item ranking on a real vault,
when one is given (NOTES_BENCH_VAULT), against a BM25F baseline. Data: bench/.data/."""

import heapq
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PLUGIN = ROOT / "plugins" / "notes-search"
sys.path.insert(0, str(PLUGIN))
sys.path.insert(0, str(ROOT / "shared"))

from agentty_plugin.testing import PluginHost, World  # noqa: E402
from notes_search.library import NotesLibrary  # noqa: E402
from notes_search.settings import Settings  # noqa: E402

NOTES = 10_000  # the count being measured; main() sets it for each count asked for
DEFAULT_COUNTS = "10000,100000"
WORDS_PER_NOTE = 300
QUERIES = 200  # typed character by character through the plugin with FTS5 (and engine-only, both engines)
SAVES = 10  # notes saved one at a time while the panel shows a query they match
WHOOSH_PANEL_QUERIES = 60  # the whoosh keystroke -> panel run is shorter to keep the bench under 4 minutes
BASELINE_RUNS = 30  # keystrokes sampled evenly from the same stream for the scan and ripgrep
KEY_GAP = 0.06  # seconds between keystrokes at least (a very fast typist); the runtime sends a panel per 52 ms
SEED = 20261130
GENERATOR_VERSION = "4"
DATA = HERE / ".data" / "notes_search"
NOTES_DIR = DATA / f"notes-{NOTES}"
WHOOSH_DATA = DATA / "whoosh-cached"

_SYLLABLES = [
    "ka",
    "to",
    "ri",
    "mon",
    "sel",
    "dar",
    "vin",
    "lo",
    "pe",
    "qua",
    "zen",
    "ur",
    "bis",
    "tem",
    "gra",
    "no",
    "ve",
    "sta",
    "cor",
    "li",
]
_ENGLISH = [
    "meeting",
    "release",
    "plan",
    "planning",
    "search",
    "index",
    "note",
    "agent",
    "review",
    "design",
    "deploy",
    "test",
    "running",
    "runner",
    "budget",
    "customer",
    "invoice",
    "roadmap",
    "sprint",
    "backlog",
    "retro",
    "incident",
    "outage",
    "database",
    "migration",
    "schema",
    "server",
    "client",
    "report",
    "weekly",
    "daily",
    "summary",
    "project",
    "proposal",
    "draft",
    "final",
    "todo",
    "idea",
    "question",
    "answer",
    "research",
    "paper",
]
_JAPANESE = [
    "明日の会議は東京で行います。",
    "全文検索の索引を作り直した。",
    "リリース計画を確認する。",
    "議事録をまとめる。",
    "顧客との打ち合わせは来週です。",
    "データベースの移行手順を書く。",
    "障害報告を共有した。",
    "週次の振り返り。",
]


def _vocabulary(rng: random.Random) -> List[str]:
    words = set()
    while len(words) < 6000:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    vocabulary = sorted(words)
    rng.shuffle(vocabulary)
    # Real words are common (they sit at the head of the Zipf curve), invented ones fill the long tail.
    return _ENGLISH + vocabulary


_CUMULATIVE: Dict[int, List[float]] = {}


def _zipf(rng: random.Random, words: Sequence[str]) -> str:
    """A word drawn with Zipf's law (frequency ~ 1/rank), like words in real prose."""
    cumulative = _CUMULATIVE.get(len(words))
    if cumulative is None:
        total = 0.0
        cumulative = []
        for rank in range(1, len(words) + 1):
            total += 1.0 / rank
            cumulative.append(total)
        _CUMULATIVE[len(words)] = cumulative
    return rng.choices(words, cum_weights=cumulative)[0]


def use_count(count: int) -> None:
    """Measure `count` notes from now on (each count has its own generated folder and cache)."""
    global NOTES, NOTES_DIR
    NOTES = count
    NOTES_DIR = DATA / f"notes-{NOTES}"


def note_counts(argv: Sequence[str]) -> List[int]:
    text = os.environ.get("NOTES") or DEFAULT_COUNTS
    for argument in argv:
        if argument.startswith("--notes="):
            text = argument.split("=", 1)[1]
    return [int(part.replace("_", "")) for part in text.split(",") if part.strip()]


def generate() -> List[str]:
    """NOTES deterministic notes (~300 words, front matter, tags, 12 folders; every 5th has Japanese)."""
    rng = random.Random(SEED)
    vocabulary = _vocabulary(rng)
    marker = DATA / f"notes-{NOTES}.version"
    if marker.exists() and marker.read_text() == GENERATOR_VERSION:
        return vocabulary
    shutil.rmtree(NOTES_DIR, ignore_errors=True)
    for index in range(NOTES):
        title = " ".join(_zipf(rng, vocabulary) for _ in range(3)).capitalize()
        tags = sorted({_zipf(rng, vocabulary[:60]) for _ in range(2)})
        words = [_zipf(rng, vocabulary) for _ in range(WORDS_PER_NOTE)]
        paragraphs = [" ".join(words[start : start + 60]) + "." for start in range(0, WORDS_PER_NOTE, 60)]
        if index % 5 == 0:
            paragraphs.insert(1, rng.choice(_JAPANESE) + rng.choice(_JAPANESE))
        text = "---\ntitle: {}\ntags: [{}]\n---\n# {}\n\n{}\n\n#{}\n".format(
            title, ", ".join(tags), title, "\n\n".join(paragraphs), tags[0]
        )
        path = NOTES_DIR / f"area-{index % 12:02d}" / f"note-{index:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        stamp = 1_700_000_000 + index * 60
        os.utime(path, (stamp, stamp))
    marker.write_text(GENERATOR_VERSION)
    return vocabulary


def _typo(word: str, rng: random.Random) -> str:
    """Two neighbouring letters swapped, past the first one (the commonest slip)."""
    at = rng.randrange(1, len(word) - 2) if len(word) > 4 else 1
    return word[:at] + word[at + 1] + word[at] + word[at + 2 :]


def typed_queries(vocabulary: Sequence[str]) -> List[List[str]]:
    """200 queries, each as the texts the field holds after every keystroke (1-letter prefixes included);
    every 7th has a typo in its last word (of 5+ letters, so it is corrected)."""
    rng = random.Random(SEED + 1)
    common = [word for word in vocabulary[:400] if len(word) <= 6]  # what people type: short, frequent words
    long_words = [word for word in vocabulary[:400] if 6 <= len(word) <= 9]
    japanese = ["会議", "東京", "全文検索", "索引", "議事録", "リリース", "顧客", "障害報告"]
    result = []
    for number in range(QUERIES):
        if number % 7 == 6:
            text = _zipf(rng, common) + " " + _typo(_zipf(rng, long_words), rng)
        elif number % 10 == 9:
            text = rng.choice(japanese)
        elif number % 8 == 7:
            text = _zipf(rng, common) + " " + _zipf(rng, common)
        else:
            text = _zipf(rng, common)
        result.append([text[:end] for end in range(1, len(text) + 1)])
    return result


def python_scan(text: str) -> int:
    """The baseline: read every note and match the lower-cased words as substrings (no index)."""
    words = text.lower().split()
    hits = 0
    for folder, _dirs, files in os.walk(NOTES_DIR):
        for name in files:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                body = handle.read().lower()
            if all(word in body for word in words):
                hits += 1
    return hits


def ripgrep(text: str) -> int:
    words = text.split()
    run = subprocess.run(["rg", "-l", "-i", "-F", "--", words[0], str(NOTES_DIR)], capture_output=True, text=True)
    files = run.stdout.split()
    for word in words[1:]:  # AND of the other words over the files the first one found
        if not files:
            break
        run = subprocess.run(["rg", "-l", "-i", "-F", "--", word, *files], capture_output=True, text=True)
        files = run.stdout.split()
    return len(files)


def _timed(function: Callable[[str], object], texts: Sequence[str]) -> List[float]:
    out = []
    for text in texts:
        started = time.perf_counter()
        function(text)
        out.append((time.perf_counter() - started) * 1000)
    return out


def _p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def _rss_mb(pid: int) -> Tuple[float, float]:
    """(current, peak) resident memory of a process in MB, from /proc."""
    found = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) / 1024
    return found.get("VmRSS", 0.0), found.get("VmHWM", 0.0)


def _host(data: Path, engine: str) -> PluginHost:
    data.mkdir(parents=True, exist_ok=True)
    (data / "settings.json").write_text(json.dumps({"roots": [str(NOTES_DIR)], "engine": engine}))
    return PluginHost(str(PLUGIN), world=World(), data_dir=str(data))


def _shows(host: PluginHost, text: str) -> Callable[[Dict[str, Any]], bool]:
    """True for a panel drawn for `text`: its results header or its empty list names the query (search
    mode), or it lists recent notes."""

    def check(tree: Dict[str, Any]) -> bool:
        results = host.find(tree, "search.results")
        if results is None:
            return False
        if text.strip():
            named = f"«{text.strip()}»"
            return named in str(results.get("empty", "")) or any(
                named in s and " ms" in s for s in host.texts(tree)
            )
        return any(s == "Recent notes" for s in host.texts(tree))

    return check


def keystroke(host: PluginHost, text: str, timeout: float = 30.0) -> float:
    """Send one keystroke's change event; ms until the panel for exactly that text arrives."""
    before = len(host.panels)
    sent = time.monotonic()
    host.type("search.query", text)
    check = _shows(host, text)
    host.wait_for(lambda: any(check(tree) for tree in host.panels[before:]), timeout, f"the panel for {text!r}")
    arrived = next(at for tree, at in zip(host.panels[before:], host.panel_times[before:]) if check(tree))
    return (arrived - sent) * 1000


def type_queries(host: PluginHost, queries: Sequence[Sequence[str]]) -> List[float]:
    latencies = []
    for keystrokes in queries:
        for text in keystrokes:
            started = time.monotonic()
            latencies.append(keystroke(host, text))
            # The runtime sends at most one panel per 52 ms (the host's frame): type no faster than that.
            last_panel = host.panel_times[-1] if host.panel_times else started
            wait = max(started + KEY_GAP, last_panel + 0.055) - time.monotonic()
            if wait > 0:
                time.sleep(wait)
    return latencies


def cold_build_in_plugin(queries: Sequence[Sequence[str]]) -> Dict[str, Any]:
    """Empty data folder: time until the panel says the 10,000 notes are indexed, typing all along."""
    data = DATA / "plugin-sqlite"
    shutil.rmtree(data, ignore_errors=True)
    host = _host(data, "sqlite")
    started = time.monotonic()
    host.start()
    host.open_panel()
    host.wait_for_panel(lambda tree: True, timeout=60)
    first_panel = (time.monotonic() - started) * 1000
    during: List[float] = []
    found_during: List[int] = []
    stream = [text for keystrokes in queries for text in keystrokes]
    ready_text = f"{NOTES} notes · sqlite"

    def ready(tree: Dict[str, Any]) -> bool:
        return ready_text in host.texts(tree) and '"spinner"' not in json.dumps(tree)

    position = 0
    while not (host.panel is not None and ready(host.panel)):
        if time.monotonic() - started > 300:
            raise TimeoutError("the first index took over 5 minutes")
        text = stream[position % len(stream)]
        position += 1
        during.append(keystroke(host, text))
        results = host.find(host.panel, "search.results") if host.panel else None
        found_during.append(len(results.get("items", [])) if results else 0)
        time.sleep(0.15)  # someone typing while the index builds
    built = time.monotonic() - started
    gaps = [b - a for a, b in zip(host.panel_times, host.panel_times[1:])]
    return {
        "host": host,
        "seconds": built,
        "first_panel_ms": first_panel,
        "during": during,
        "answered_with_results": sum(1 for n in found_during if n),
        "longest_panel_gap_ms": max(gaps) * 1000 if gaps else 0.0,
        "peak_rss": _rss_mb(host.process.pid)[1] if host.process else 0.0,
    }


def is_typo_query(text: str, vocabulary: Set[str]) -> bool:
    words = text.split()
    return len(words) == 2 and len(words[1]) >= 5 and words[1] not in vocabulary


def saved_note_latency(host: PluginHost) -> List[float]:
    """ms from writing a new note until the panel, already showing its query, lists it (the watcher's
    path: no refresh is asked for). The notes are removed afterwards."""
    latencies = []
    written = []
    for number in range(SAVES):
        word = f"savedword{number:02d}x"
        keystroke(host, word)
        before = len(host.panels)
        path = NOTES_DIR / "saved" / f"saved-{number:02d}.md"
        path.parent.mkdir(exist_ok=True)
        started = time.monotonic()
        path.write_text(f"# Saved {number}\n\n{word} was saved just now\n", encoding="utf-8")
        written.append(path)

        def shows(tree: Dict[str, Any], title: str = f"Saved {number}") -> bool:
            results = host.find(tree, "search.results")
            return bool(results) and any(item.get("title") == title for item in results.get("items", []))

        host.wait_for(lambda start=before: any(shows(t) for t in host.panels[start:]), 30, f"saved note {number}")
        arrived = next(at for tree, at in zip(host.panels[before:], host.panel_times[before:]) if shows(tree))
        latencies.append((arrived - started) * 1000)
    for path in written:
        path.unlink()
    return latencies


def _edit_ten() -> Dict[Path, Tuple[str, int]]:
    originals = {}
    for index in range(0, NOTES, NOTES // 10):
        path = NOTES_DIR / f"area-{index % 12:02d}" / f"note-{index:05d}.md"
        originals[path] = (path.read_text(encoding="utf-8"), path.stat().st_mtime_ns)
        path.write_text(originals[path][0] + f"\nedited benchmark line {index}\n", encoding="utf-8")
    return originals


def _restore(originals: Dict[Path, Tuple[str, int]]) -> None:
    for path, (text, mtime_ns) in originals.items():
        path.write_text(text, encoding="utf-8")
        os.utime(path, ns=(mtime_ns, mtime_ns))


def whoosh_cache_ready() -> bool:
    """True when the cached whoosh index (of 10,000 notes) exists and has the engine's current layout
    (an older one would be rebuilt from scratch inside the timed run, which takes minutes)."""
    if NOTES != 10_000:
        return False
    from notes_search.engines.whoosh_engine import SCHEMA_VERSION

    try:
        stored = (WHOOSH_DATA / "index" / "whoosh" / "schema-version").read_text(encoding="utf-8").strip()
    except OSError:
        return False
    return stored == SCHEMA_VERSION and (WHOOSH_DATA / "cold-build.json").exists()


def library_figures(engine: str, data: Path, stream: Sequence[str]) -> Dict[str, Any]:
    """In-process: no-change refresh, 10 changed notes, engine-only search time per keystroke."""
    library = NotesLibrary(str(data), Settings(roots=(str(NOTES_DIR),), engine=engine))
    figures: Dict[str, Any] = {}
    build_file = data / "cold-build.json"
    library.refresh()  # the notes the previous run restored
    library.settle()
    if build_file.exists():
        figures["cold_build"] = json.loads(build_file.read_text())
    started = time.perf_counter()
    library.refresh()
    figures["no_change_ms"] = (time.perf_counter() - started) * 1000
    originals = _edit_ten()
    try:
        started = time.perf_counter()
        report = library.refresh()
        figures["ten_changed_ms"] = (time.perf_counter() - started) * 1000
        assert report is not None and report.changed == 10, report
        figures["ten_reindex_ms"] = (report.seconds - report.scan_seconds) * 1000
    finally:
        _restore(originals)
    library.refresh()
    library.search("warm up ")
    figures["search"] = _timed(library.search, stream)
    library.close()
    return figures


def _row(name: str, values: Sequence[float], base: Optional[float], unit: str = "ms") -> str:
    if not values:
        return f"{name:<46}{'–':>9}"
    median = statistics.median(values)
    ratio = f"{base / median:>9.1f}x" if base and median else f"{'':>10}"
    return f"{name:<46}{median:>9.1f}{_p95(values):>9.1f}{max(values):>9.1f}{ratio}{len(values):>7}"


def measure(count: int) -> Dict[str, Any]:
    """Every latency and index figure for `count` generated notes (whoosh only where its index is cached)."""
    use_count(count)
    began = time.perf_counter()
    DATA.mkdir(parents=True, exist_ok=True)
    vocabulary = generate()
    known_words = set(vocabulary)
    queries = typed_queries(vocabulary)
    stream = [text for keystrokes in queries for text in keystrokes]
    size = sum(p.stat().st_size for p in NOTES_DIR.rglob("*.md")) / 2**20
    print(
        f"\nnotes-search: {NOTES:,} generated notes (~{WORDS_PER_NOTE} words, every 5th with Japanese, "
        f"{size:.0f} MiB), Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    print(
        f"{QUERIES} queries typed character by character = {len(stream)} keystrokes "
        f"(1-letter prefixes included), at most one every {KEY_GAP * 1000:.0f} ms"
    )

    runs = BASELINE_RUNS if NOTES <= 10_000 else 8  # a scan of 100,000 notes takes seconds
    sample = stream[:: max(1, len(stream) // runs)][:runs]
    scan = _timed(python_scan, sample)
    rg = _timed(ripgrep, sample) if shutil.which("rg") else []

    cold = cold_build_in_plugin(queries)
    host = cold["host"]
    try:
        host.wait_idle(0.5, 60)
        typed_sqlite = type_queries(host, queries)
        saved = saved_note_latency(host)
        rss_sqlite = _rss_mb(host.process.pid) if host.process else (0.0, 0.0)
        assert not host.violations, host.violations
    finally:
        host.close()
    typo_sqlite = [ms for text, ms in zip(stream, typed_sqlite) if is_typo_query(text, known_words)]
    sqlite = library_figures("sqlite", DATA / "plugin-sqlite", stream)
    in_process = cold_pairs(1)

    whoosh: Dict[str, Any] = {}
    typed_whoosh: List[float] = []
    rss_whoosh = (0.0, 0.0)
    if whoosh_cache_ready():
        whoosh_stream = [text for keystrokes in queries[:WHOOSH_PANEL_QUERIES] for text in keystrokes]
        whoosh = library_figures("whoosh", WHOOSH_DATA, whoosh_stream)
        whoosh_host = _host(WHOOSH_DATA, "whoosh")
        whoosh_host.start()
        try:
            whoosh_host.open_panel()
            whoosh_host.wait_for_panel(lambda t: f"{NOTES} notes · whoosh" in whoosh_host.texts(t), timeout=120)
            whoosh_host.wait_idle(0.5, 60)
            typed_whoosh = type_queries(whoosh_host, queries[:WHOOSH_PANEL_QUERIES])
            rss_whoosh = _rss_mb(whoosh_host.process.pid) if whoosh_host.process else (0.0, 0.0)
        finally:
            whoosh_host.close()

    base = statistics.median(scan)
    print()
    print(f"{'per keystroke (ms)':<46}{'median':>9}{'p95':>9}{'max':>9}{'scan/x':>10}{'runs':>7}")
    print(_row("baseline: Python scan of the folder", scan, base))
    print(
        _row("baseline: ripgrep per query", rg, base)
        if rg
        else f"{'baseline: ripgrep per query':<46}   (rg not installed: row skipped)"
    )
    print(_row("FTS5: keystroke -> panel (plugin process)", typed_sqlite, base))
    print(_row("FTS5: ... of which typo queries (corrected)", typo_sqlite, base))
    print(_row("FTS5: engine search + snippets only", sqlite["search"], base))
    print(_row("FTS5: keystroke -> panel during cold index", cold["during"], base))
    print(_row("FTS5: note saved -> panel lists it", saved, None))
    if whoosh:
        print(_row("whoosh: keystroke -> panel (plugin process)", typed_whoosh, base))
        print(_row("whoosh: engine search + snippets only", whoosh["search"], base))
    print()
    print(
        f"{'index':<10}{'cold build s':>13}{'10 changed ms':>15}{'re-index part':>15}{'no change ms':>14}"
        f"{'RSS MB (peak)':>15}"
    )
    peak = max(rss_sqlite[1], cold["peak_rss"])
    print(
        f"{'FTS5':<10}{cold['seconds']:>13.1f}{sqlite['ten_changed_ms']:>15.0f}{sqlite['ten_reindex_ms']:>15.0f}"
        f"{sqlite['no_change_ms']:>14.0f}{rss_sqlite[0]:>8.0f} ({peak:.0f})"
    )
    whoosh_cold = whoosh.get("cold_build", {})
    if whoosh:
        print(
            f"{'whoosh':<10}{whoosh_cold.get('seconds', float('nan')):>13.1f}{whoosh['ten_changed_ms']:>15.0f}"
            f"{whoosh['ten_reindex_ms']:>15.0f}{whoosh['no_change_ms']:>14.0f}{rss_whoosh[0]:>8.0f}"
            f" ({rss_whoosh[1]:.0f})"
        )
    print()
    print(
        f"FTS5 cold index in the plugin: first panel after {cold['first_panel_ms']:.0f} ms; "
        f"{len(cold['during'])} keystrokes typed while it built, {cold['answered_with_results']} already "
        f"with results; longest gap between panels {cold['longest_panel_gap_ms']:.0f} ms."
    )
    if in_process["ratio"]:
        print(
            f"FTS5 first index in process (refresh + lexicon), 1 run each: ours {in_process['ours'][0]:.1f} s, "
            f"the issue's baseline engine ({BASELINE_COMMIT}) {in_process['baseline'][0]:.1f} s, ratio "
            f"{in_process['ratio'][0]:.2f} (target <= {COLD_TARGET_RATIO:.2f}; `--cold --runs=N` repeats it)."
        )
    if whoosh_cold:
        print(
            f"whoosh cold build (peak RSS {whoosh_cold.get('peak_rss_mb', 0):.0f} MB) measured once "
            f"({whoosh_cold.get('when')}) and cached in {WHOOSH_DATA}."
        )
    elif NOTES == 10_000:
        print(
            "whoosh rows skipped: its 10,000-note index takes ~1.5 minutes to build, so it is built once with "
            "`.venv/bin/python bench/bench_notes_search.py --build-whoosh` and cached in bench/.data/."
        )
    print(
        f"10 changed: finding them among {NOTES:,} files (stat only) plus re-indexing them (the walk that "
        f"runs without a watcher). 1 run each; total {time.perf_counter() - began:.0f} s."
    )
    return {
        "notes": NOTES,
        "panel": typed_sqlite,
        "typo": typo_sqlite,
        "engine": sqlite["search"],
        "saved": saved,
        "cold": cold["seconds"],
        "first_panel": cold["first_panel_ms"],
        "gap": cold["longest_panel_gap_ms"],
        "rss": rss_sqlite[0],
        "peak": peak,
        "ten_changed": sqlite["ten_changed_ms"],
        "cold_ours": in_process["ours"][0],
        "cold_baseline": in_process["baseline"][0] if in_process["baseline"] else 0.0,
        "cold_ratio": in_process["ratio"][0] if in_process["ratio"] else 0.0,
    }


# The notes-search the issue measured when it asked to keep "cold index 16 s" at 100,000 notes: the
# last commit before its work began. Its FTS5 engine indexes the same generated notes in the same run,
# so the target is read as a ratio on this machine (20 s / 16 s = 1.25x), not as seconds measured elsewhere.
BASELINE_COMMIT = "eda08cc"
COLD_TARGET_RATIO = 20 / 16
COLD_RUN = HERE / "notes_cold_run.py"


def baseline_plugin() -> Optional[Path]:
    """The baseline's plugin folder, unpacked once from git into bench/.data (None without the history)."""
    folder = DATA / f"baseline-{BASELINE_COMMIT}"
    plugin = folder / "plugins" / "notes-search"
    if (plugin / "notes_search").is_dir():
        return plugin
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", BASELINE_COMMIT, "plugins/notes-search"], capture_output=True
    )
    if archive.returncode != 0:
        print(f"baseline engine skipped: commit {BASELINE_COMMIT} is not in this checkout's history")
        return None
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return plugin


def cold_in_process(plugin: Path, label: str) -> Dict[str, Any]:
    """A first index of the generated notes by this plugin copy's FTS5 engine, in a fresh process."""
    data = DATA / f"cold-{label}"
    done = subprocess.run(
        [sys.executable, str(COLD_RUN), str(plugin), str(NOTES_DIR), str(data)],
        capture_output=True,
        text=True,
        check=True,
    )
    shutil.rmtree(data, ignore_errors=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def cold_pairs(runs: int) -> Dict[str, List[float]]:
    """Today's engine and the baseline's, in turn, `runs` times each: seconds, and the ratio pair by pair
    (pairing keeps the ratio meaningful while this shared machine's speed drifts)."""
    baseline = baseline_plugin()
    ours: List[float] = []
    theirs: List[float] = []
    peaks: List[float] = []
    for _ in range(runs):
        run = cold_in_process(PLUGIN, "ours")
        ours.append(run["seconds"])
        peaks.append(run["peak_mb"])
        if baseline is not None:
            theirs.append(cold_in_process(baseline, "baseline")["seconds"])
    ratios = [a / b for a, b in zip(ours, theirs)]
    return {"ours": ours, "baseline": theirs, "ratio": ratios, "peak": peaks}


def print_cold_comparison() -> None:
    """`--cold [--runs=N]`: only the first-index comparison with the issue's baseline, per note count."""
    runs = 3
    for argument in sys.argv[1:]:
        if argument.startswith("--runs="):
            runs = int(argument.split("=", 1)[1])
    print(
        f"notes-search first index in process (refresh + lexicon), today's FTS5 engine against commit "
        f"{BASELINE_COMMIT}'s (the issue's baseline), in turn, {runs} runs each, {os.cpu_count()} CPUs"
    )
    print(
        f"{'notes':>9}{'ours s':>10}{'baseline s':>12}{'ours/baseline':>15}{'min-max':>14}{'peak MB':>9}"
        f"{'target':>10}"
    )
    for count in note_counts(sys.argv[1:]):
        use_count(count)
        generate()
        cold = cold_pairs(runs)
        ratio = cold["ratio"]
        spread = f"{min(ratio):.2f}-{max(ratio):.2f}" if ratio else "-"
        print(
            f"{count:>9,}{statistics.median(cold['ours']):>10.1f}"
            f"{statistics.median(cold['baseline']) if cold['baseline'] else float('nan'):>12.1f}"
            f"{statistics.median(ratio) if ratio else float('nan'):>15.2f}{spread:>14}"
            f"{max(cold['peak']):>9.0f}{'<= ' + format(COLD_TARGET_RATIO, '.2f'):>10}"
        )


def print_side_by_side(figures: Sequence[Dict[str, Any]]) -> None:
    """The FTS5 figures of every note count in one table (issue 18: the 100k row beside the 10k one)."""
    print(f"\n{'FTS5, by note count':<44}" + "".join(f"{f['notes']:>16,}" for f in figures) + f"{'target':>14}")

    def line(label: str, cells: Sequence[str], target: str) -> None:
        print(f"{label:<44}" + "".join(f"{cell:>16}" for cell in cells) + f"{target:>14}")

    line(
        "keystroke -> panel median / p95 ms",
        [f"{statistics.median(f['panel']):.1f} / {_p95(f['panel']):.1f}" for f in figures],
        "p95 <= 25",
    )
    line(
        "typo queries median / p95 ms",
        [f"{statistics.median(f['typo']):.1f} / {_p95(f['typo']):.1f}" if f["typo"] else "-" for f in figures],
        "p95 <= 25",
    )
    line("keystroke -> panel max ms", [f"{max(f['panel']):.0f}" for f in figures], "")
    line("engine search + snippets p95 ms", [f"{_p95(f['engine']):.1f}" for f in figures], "")
    line("cold index s (panel answering)", [f"{f['cold']:.1f}" for f in figures], "")
    line(
        "cold index in process: ours / baseline s",
        [f"{f['cold_ours']:.1f} / {f['cold_baseline']:.1f}" if f["cold_baseline"] else "-" for f in figures],
        "",
    )
    line(
        f"... ours / baseline ({BASELINE_COMMIT}), same run",
        [f"{f['cold_ratio']:.2f}" if f["cold_ratio"] else "-" for f in figures],
        f"<= {COLD_TARGET_RATIO:.2f}",
    )
    line("longest gap between panels, cold ms", [f"{f['gap']:.0f}" for f in figures], "")
    line(
        "note saved -> listed median / max ms",
        [f"{statistics.median(f['saved']):.0f} / {max(f['saved']):.0f}" for f in figures],
        "<= 250",
    )
    line("10 changed, found by a walk ms", [f"{f['ten_changed']:.0f}" for f in figures], "")
    line("RSS MB (peak)", [f"{f['rss']:.0f} ({f['peak']:.0f})" for f in figures], "peak <= 120")


def main() -> None:
    figures = [measure(count) for count in note_counts(sys.argv[1:])]
    print_side_by_side(figures)
    use_count(10_000)
    evaluate_vaults(("sqlite", "whoosh") if whoosh_cache_ready() else ("sqlite",))


def build_whoosh() -> None:
    """Build the cached whoosh index once (it takes minutes), recording its cold build time and memory."""
    import resource

    use_count(10_000)
    generate()
    shutil.rmtree(WHOOSH_DATA, ignore_errors=True)
    library = NotesLibrary(str(WHOOSH_DATA), Settings(roots=(str(NOTES_DIR),), engine="whoosh"))
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        print(
            f"  {done}/{total} notes, {time.perf_counter() - started:.0f} s, RSS {_rss_mb(os.getpid())[0]:.0f} MB",
            flush=True,
        )

    library.refresh(progress=progress)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    (WHOOSH_DATA / "cold-build.json").write_text(
        json.dumps({"seconds": seconds, "peak_rss_mb": peak, "when": time.ctime()})
    )
    library.close()
    print(f"whoosh: {NOTES} notes indexed in {seconds:.0f} s, peak RSS {peak:.0f} MB")


# -- known-item evaluation on a real vault -----------------------------------------------------------

VAULT_ENV = "NOTES_BENCH_VAULT"  # a folder of Markdown notes, e.g. a checkout of github.com/obsidianmd/obsidian-help
# A second real vault of another kind: a personal knowledge base with aliases and tags (e.g. the
# content/ folder of github.com/digitalyoshixi/zettelkasten at cb0abd7d, 13,419 notes).
KB_VAULT_ENV = "NOTES_BENCH_VAULT_KB"
# A vault never tuned on: its figures are reported as held-out (e.g. the Markdown files of
# github.com/mdelmontep/obsidian-vault at 3d055251, 1,875 notes, Spanish, tags).
HELDOUT_VAULT_ENV = "NOTES_BENCH_VAULT_HELDOUT"
AS_TYPED_KINDS = ("alias", "name", "title", "heading", "typo")  # typed in the search field letter by letter
EVAL_PER_KIND = 80
EVAL_LIMIT = 20  # results the panel shows: a note ranked lower counts as not found
EVAL_KINDS = ("alias", "name", "title", "heading", "phrase", "typo", "cjk")


class VaultNote:
    """What the evaluation knows of one note: its fields as written (derived without the plugin's index)."""

    def __init__(self, path: str, rel: str, text: str) -> None:
        from notes_search.frontmatter import read_meta, split_front_matter
        from notes_search.markdown import headings, link_targets, reader_text

        front, body = split_front_matter(text)
        self.path, self.rel = path, rel
        self.name = os.path.splitext(os.path.basename(rel))[0]
        meta = read_meta(front, body, self.name)
        self.title, self.aliases, self.tags = meta.title, list(meta.aliases), list(meta.tags)
        self.folder = os.path.dirname(rel)
        self.headings = [text for _level, text in headings(body)]
        self.links = link_targets(body)
        self.body = reader_text(body)


def load_vault(root: str) -> List[VaultNote]:
    notes = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".md"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8", errors="replace") as handle:
                    notes.append(VaultNote(path, os.path.relpath(path, root), handle.read()))
    return notes


def _fold_key(text: str) -> str:
    from notes_search.tokens import fold, tokens

    return " ".join(tokens(fold(text)))


def _transpose(word: str, rng: random.Random) -> str:
    at = rng.randrange(1, len(word) - 2)  # never the first letter: typos rarely start a word
    return word[:at] + word[at + 1] + word[at] + word[at + 2 :]


def known_item_queries(notes: Sequence[VaultNote]) -> List[Tuple[str, str, Set[str]]]:
    """(kind, query, paths that count as the note meant): aliases, file names, titles, headings,
    quoted body phrases, typos (two letters swapped in a title or alias) and CJK titles. A query whose
    text is also the name, title or an alias of other notes (translations sharing an English alias)
    counts any of them as found."""
    from notes_search.tokens import fold, is_cjk, tokens

    rng = random.Random(SEED + 7)
    owners: Dict[str, Set[str]] = {}
    for note in notes:
        for value in (note.name, note.title, *note.aliases):
            owners.setdefault(_fold_key(value), set()).add(note.path)
    heading_owners: Dict[str, Set[str]] = {}
    for note in notes:
        for value in note.headings:
            heading_owners.setdefault(_fold_key(value), set()).add(note.path)

    def wanted(text: str) -> Set[str]:
        return owners.get(_fold_key(text), set())

    pools: Dict[str, List[Tuple[str, Set[str]]]] = {kind: [] for kind in EVAL_KINDS}
    for note in notes:
        latin_title = not any(is_cjk(t) for t in tokens(fold(note.title)))
        for alias in note.aliases:
            if "/" not in alias and len(alias) > 2:
                pools["alias"].append((alias, wanted(alias)))
        if len(note.name) > 2:
            pools["name"].append((note.name, wanted(note.name)))
        if note.title != note.name and len(note.title) > 2:
            pools["title" if latin_title else "cjk"].append((note.title, wanted(note.title)))
        elif not latin_title:
            pools["cjk"].append((note.title, wanted(note.title)))
        for heading in note.headings[1:4]:
            key = _fold_key(heading)
            if len(heading_owners.get(key, ())) == 1 and key not in owners and len(key) > 4:
                pools["heading"].append((heading, {note.path}))
        candidates = [w for w in (note.title, *note.aliases) if "/" not in w]
        words = [w for w in candidates[0].split() if len(w) >= 6 and w.isalpha()] if candidates else []
        if words and latin_title:
            longest = max(words, key=len)
            pools["typo"].append((candidates[0].replace(longest, _transpose(longest, rng), 1), wanted(candidates[0])))
    # Quoted phrases: three words of a body line, kept when they occur in exactly one note.
    folded_bodies = [(note.path, " ".join(tokens(fold(note.body)))) for note in notes]
    for note in rng.sample(list(notes), min(len(notes), EVAL_PER_KIND * 4)):
        lines = [line for line in note.body.split("\n") if len(line.split()) >= 6]
        if not lines:
            continue
        words = rng.choice(lines).split()
        start = rng.randrange(0, len(words) - 3)
        phrase = " ".join(words[start : start + 3])
        key = " ".join(tokens(fold(phrase)))
        if len(key) < 12 or any(is_cjk(t) for t in key.split()):
            continue
        found = {path for path, body in folded_bodies if f" {key} " in f" {body} "}
        if found == {note.path}:
            pools["phrase"].append((f'"{phrase}"', found))
    out: List[Tuple[str, str, Set[str]]] = []
    for kind in EVAL_KINDS:
        pool = [(text, paths) for text, paths in pools[kind] if paths]
        unique = list({text: (text, paths) for text, paths in pool}.values())
        for text, paths in rng.sample(unique, min(len(unique), EVAL_PER_KIND)):
            out.append((kind, text, paths))
    return out


class Bm25fBaseline:
    """The baseline: BM25F (k1 1.2, b 0.75) over the same fields, every field weight 1, with the plugin's
    own folding and tokens, the last word a prefix, OR of the words (as most search boxes do)."""

    FIELDS = ("name", "aliases", "title", "folder", "headings", "tags", "links", "body")

    def __init__(self, notes: Sequence[VaultNote]) -> None:
        from notes_search.tokens import fold, tokens

        self.paths = [note.path for note in notes]
        self.postings: Dict[str, Dict[int, List[int]]] = {}
        self.lengths: List[List[int]] = []
        for number, note in enumerate(notes):
            values = {
                "name": note.name,
                "aliases": " ".join(note.aliases),
                "title": note.title,
                "folder": note.folder,
                "headings": " ".join(note.headings),
                "tags": " ".join(note.tags),
                "links": " ".join(note.links),
                "body": note.body,
            }
            lengths = []
            for field_number, name in enumerate(self.FIELDS):
                words = tokens(fold(values[name]))
                lengths.append(len(words))
                for word in words:
                    counts = self.postings.setdefault(word, {}).setdefault(number, [0] * len(self.FIELDS))
                    counts[field_number] += 1
            self.lengths.append(lengths)
        self.average = [
            max(1.0, sum(lengths[i] for lengths in self.lengths) / len(notes)) for i in range(len(self.FIELDS))
        ]
        self.vocabulary = sorted(self.postings)

    def search(self, text: str, limit: int) -> List[str]:
        import bisect
        import math

        from notes_search.tokens import fold, tokens

        words = tokens(fold(text.replace('"', " ")), for_query=True)
        if not words:
            return []
        expanded: List[List[str]] = [[w] for w in words[:-1]]
        last = words[-1]
        start = bisect.bisect_left(self.vocabulary, last)
        prefixed = []
        while start < len(self.vocabulary) and self.vocabulary[start].startswith(last) and len(prefixed) < 50:
            prefixed.append(self.vocabulary[start])
            start += 1
        expanded.append(prefixed or [last])
        scores: Dict[int, float] = {}
        total = len(self.paths)
        for forms in expanded:
            for word in forms:
                postings = self.postings.get(word, {})
                idf = math.log(1 + (total - len(postings) + 0.5) / (len(postings) + 0.5))
                for doc, counts in postings.items():
                    lengths = self.lengths[doc]
                    tf = sum(c / (1 - 0.75 + 0.75 * lengths[i] / self.average[i]) for i, c in enumerate(counts) if c)
                    scores[doc] = scores.get(doc, 0.0) + idf * tf / (1.2 + tf)
        best = heapq.nlargest(limit, scores, key=lambda d: (scores[d], -d))
        return [self.paths[d] for d in best]


def _metrics(ranks: Sequence[int]) -> Tuple[float, float, float]:
    if not ranks:
        return (float("nan"),) * 3  # type: ignore[return-value]
    count = len(ranks)
    return (
        sum(1 for r in ranks if r == 1) / count,
        sum(1 for r in ranks if 0 < r <= 5) / count,
        sum(1 / r for r in ranks if r > 0) / count,
    )


def _rank_of(found: Sequence[str], wanted: Set[str]) -> int:
    return next((position + 1 for position, path in enumerate(found) if path in wanted), 0)


def keystroke_states(text: str) -> List[str]:
    """The query as the search field holds it after each keystroke, from the second character on."""
    return [text[:end] for end in range(2, len(text) + 1) if not text[end - 1].isspace()]


def as_typed_ranks(
    library: NotesLibrary, queries: Sequence[Tuple[str, str, Set[str]]]
) -> Tuple[List[int], List[float]]:
    """The wanted note's rank at every keystroke of every query (AS_TYPED_KINDS), and each search's ms."""
    ranks: List[int] = []
    times: List[float] = []
    for kind, text, wanted in queries:
        if kind not in AS_TYPED_KINDS:
            continue
        for state in keystroke_states(text):
            started = time.perf_counter()
            found = [item.record.path for item in library.search(state, EVAL_LIMIT).items]
            times.append((time.perf_counter() - started) * 1000)
            ranks.append(_rank_of(found, wanted))
    return ranks, times


def evaluate_vaults(engines: Sequence[str] = ("sqlite",), show_misses: bool = False) -> None:
    """Every real vault given: the help vault, the personal knowledge base, and the held-out one."""
    given = [
        (name, os.environ.get(env, ""), held_out)
        for name, env, held_out in (
            ("help", VAULT_ENV, False),
            ("kb", KB_VAULT_ENV, False),
            ("held-out", HELDOUT_VAULT_ENV, True),
        )
    ]
    if not any(root and os.path.isdir(root) for _name, root, _held in given):
        print(
            f"Real-vault ranking tables skipped: set {VAULT_ENV} (a help vault, e.g. a checkout of "
            f"github.com/obsidianmd/obsidian-help), {KB_VAULT_ENV} (a personal knowledge base with aliases and "
            f"tags) and {HELDOUT_VAULT_ENV} (a vault never tuned on) to folders of Markdown notes to run them."
        )
        return
    for name, root, held_out in given:
        if root and os.path.isdir(root):
            evaluate_vault(root, name, held_out, engines, show_misses)


def evaluate_vault(
    root: str, name: str, held_out: bool, engines: Sequence[str] = ("sqlite",), show_misses: bool = False
) -> None:
    """success@1 / success@5 / MRR per query kind on a real vault, the plugin beside the BM25F baseline,
    then the as-typed row and the keystroke p95 of the plugin's searches."""
    notes = load_vault(root)
    queries = known_item_queries(notes)
    baseline = Bm25fBaseline(notes)
    results: Dict[str, Dict[str, List[int]]] = {"BM25F baseline": {}}
    for kind, text, wanted in queries:
        results["BM25F baseline"].setdefault(kind, []).append(_rank_of(baseline.search(text, EVAL_LIMIT), wanted))
    typed: Dict[str, Tuple[List[int], List[float]]] = {}
    for engine in engines:
        data = DATA / f"vault-{name}-{engine}"
        library = NotesLibrary(str(data), Settings(roots=(root,), engine=engine))
        library.refresh()
        library.settle()  # as the plugin does after a refresh (the FTS5 lexicon)
        label = f"notes-search ({'FTS5' if engine == 'sqlite' else engine})"
        results[label] = {}
        for kind, text, wanted in queries:
            found = [item.record.path for item in library.search(text, EVAL_LIMIT).items]
            rank = _rank_of(found, wanted)
            results[label].setdefault(kind, []).append(rank)
            if show_misses and rank != 1 and not held_out:  # a held-out vault's misses are never looked at
                top = os.path.relpath(found[0], root) if found else "-"
                want = os.path.relpath(sorted(wanted)[0], root)
                print(f"  miss {kind:<8} rank {rank:>2}  {text!r}  want {want}  got {top}")
        typed[label] = as_typed_ranks(library, queries)
        library.close()
    languages = len({note.rel.split(os.sep)[0] for note in notes if os.sep in note.rel})
    print(
        f"\nKnown-item queries on the {name} vault{' (HELD OUT: never tuned on)' if held_out else ''}, {root}: "
        f"{len(notes):,} notes in {languages} top folders, {len(queries)} queries "
        f"(up to {EVAL_PER_KIND} per kind, seed {SEED + 7}); found = ranked within the first {EVAL_LIMIT}."
    )
    print(f"{'kind':<10}{'queries':>8}" + "".join(f"{label[:27]:>30}" for label in results))
    print(f"{'':<18}" + "".join(f"{'s@1   s@5   MRR':>30}" for _ in results))
    for kind in (*EVAL_KINDS, "all"):
        cells = []
        for label in results:
            by_kind = results[label]
            ranks = [r for rs in by_kind.values() for r in rs] if kind == "all" else by_kind.get(kind, [])
            s1, s5, mrr = _metrics(ranks)
            cells.append(f"{s1:>18.2f}{s5:>6.2f}{mrr:>6.2f}")
        count = (
            sum(len(v) for v in results["BM25F baseline"].values())
            if kind == "all"
            else len(results["BM25F baseline"].get(kind, []))
        )
        print(f"{kind:<10}{count:>8}" + "".join(cells))
    for label, (ranks, times) in typed.items():
        s1, s5, mrr = _metrics(ranks)
        print(
            f"{'as typed':<10}{len(ranks):>8}  {label}: every keystroke of the {'/'.join(AS_TYPED_KINDS)} queries: "
            f"s@1 {s1:.2f}  s@5 {s5:.2f}  MRR {mrr:.2f};  search p95 {_p95(times):.1f} ms, median "
            f"{statistics.median(times):.1f} ms (library.search in process, one run)"
        )


if __name__ == "__main__":
    if "--build-whoosh" in sys.argv:
        build_whoosh()
    elif "--cold" in sys.argv:
        print_cold_comparison()
    elif "--eval" in sys.argv:
        evaluate_vaults(("sqlite", "whoosh") if "--whoosh" in sys.argv else ("sqlite",), "--misses" in sys.argv)
    else:
        main()
