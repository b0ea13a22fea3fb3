"""Brings the index up to date with the notes folders: added, changed, renamed and deleted notes,
in committed batches so a stopped run keeps its work and searches see progress."""

import os
import queue
import stat as stat_module
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .engines.base import SearchEngine
from .notes import IndexDocument, UnreadableNote, build_document
from .sources import DEFAULT_MAX_NOTE_BYTES, SKIPPED_FOLDERS, FileStat, expand, is_inside, scan_roots

ProgressCallback = Callable[[int, int], None]
# A note read and parsed, or why not: "too_large", "binary", "encoding" or "unreadable".
Prepared = Tuple[FileStat, Union[IndexDocument, str]]


@dataclass
class RefreshReport:
    added: int = 0
    changed: int = 0
    renamed: int = 0
    deleted: int = 0
    unchanged: int = 0
    too_large: int = 0
    binary: int = 0
    unreadable: int = 0
    too_many: int = 0
    missing_roots: List[str] = field(default_factory=list)
    stopped: bool = False
    seconds: float = 0.0
    scan_seconds: float = 0.0  # of which: finding what changed (stat of every file, no reading)

    @property
    def indexed(self) -> int:
        return self.added + self.changed + self.renamed + self.unchanged

    @property
    def skipped(self) -> int:
        return self.too_large + self.binary + self.unreadable + self.too_many


def _read(stat: FileStat) -> bytes:
    with open(stat.path, "rb") as handle:
        return handle.read()


def _prepare(stat: FileStat, max_note_bytes: int, unsplit_body: bool = False) -> Prepared:
    try:
        raw = _read(stat)
        if len(raw) > max_note_bytes:  # grew since the scan
            return stat, "too_large"
        return stat, build_document(stat.path, stat.root, raw, stat.mtime_ns, unsplit_body=unsplit_body)
    except UnreadableNote as problem:
        return stat, problem.reason
    except OSError:
        return stat, "unreadable"


# Batches parsed ahead of the one being written. FTS5 merges its segments inside some commits, so a
# few batches take seconds instead of ~0.2 s, and with none queued the parser waited for them: a first
# index of bench_notes_search's 100,000 notes in process took 31.4 s with none, 23.9-25.3 s with one
# and 23.5-26.7 s with two (refresh_index timed in process, two runs each). Each batch held costs
# ~5 MB of RSS.
WRITE_QUEUE = 1


class _BatchWriter:
    """Commits batches in order on a second thread while the caller reads and parses the next ones.

    SQLite releases the GIL while FTS5 tokenizes and writes, about half of a first index's work: with
    the two overlapped on two cores, 10,000 notes took 3.1 s instead of 4.6 s (in-process, 5 runs).
    At most WRITE_QUEUE batches wait, so memory stays bounded. After a failed write the batches
    queued behind it are dropped, and the error is raised to the caller at its next submit or wait.
    """

    def __init__(self, engine: SearchEngine) -> None:
        self._engine = engine
        self._pending: queue.Queue[Optional[Tuple[object, List[str]]]] = queue.Queue(maxsize=WRITE_QUEUE)
        self._thread: Optional[threading.Thread] = None
        self._error: Optional[BaseException] = None  # the failed write's error, until raised
        self._failed = False  # set by a failed write: later batches are not written

    def submit(self, upserts: List[IndexDocument], deletes: List[str]) -> None:
        prepared = self._engine.prepare_write(upserts)  # here, while earlier batches are written
        self._raise_error()
        if self._thread is None:
            self._thread = threading.Thread(target=self._write_all, name="notes-index-write")
            self._thread.daemon = True
            self._thread.start()
        self._pending.put((prepared, deletes))  # waits while WRITE_QUEUE batches are queued

    def _write_all(self) -> None:
        while True:
            batch = self._pending.get()
            if batch is None:
                return
            if not self._failed:
                try:
                    self._engine.write_prepared(*batch)
                except BaseException as error:  # handed to the indexing thread (see _raise_error)
                    self._error = error
                    self._failed = True

    def _raise_error(self) -> None:
        error, self._error = self._error, None
        if error is not None:
            raise error

    def wait(self) -> None:
        """Block until every submitted batch is committed; re-raise what a write raised."""
        if self._thread is not None:
            self._pending.put(None)
            self._thread.join()
            self._thread = None
        self._raise_error()


def refresh_index(
    engine: SearchEngine,
    roots: Sequence[str],
    max_note_bytes: int = DEFAULT_MAX_NOTE_BYTES,
    progress: Optional[ProgressCallback] = None,
    should_stop: Optional[Callable[[], bool]] = None,
) -> RefreshReport:
    started = time.perf_counter()
    scan = scan_roots(roots, max_note_bytes=max_note_bytes)
    report = RefreshReport(too_large=scan.too_large, too_many=scan.too_many, missing_roots=scan.missing_roots)
    known = engine.known_files()
    report.scan_seconds = time.perf_counter() - started
    to_read: List[FileStat] = []
    for path, stat in scan.files.items():
        state = known.get(path)
        if state is not None and state.mtime_ns == stat.mtime_ns and state.size == stat.size:
            report.unchanged += 1
        else:
            to_read.append(stat)
    gone = [path for path in known if path not in scan.files]
    # At 100,000 notes the scan's dict and the index's list of files are tens of MB: only the paths
    # (shared with to_read) and the hashes of vanished notes are needed from here on.
    known_paths = set(known)
    scan.files.clear()
    # A note that vanished and a new file with the same bytes is a rename or a move.
    gone_by_hash: Dict[str, List[str]] = {}
    for path in gone:
        gone_by_hash.setdefault(known[path].content_hash, []).append(path)
    del known
    renamed_from = set()
    total = len(to_read)
    done = 0
    batch: List[IndexDocument] = []
    failed: List[str] = []

    writer = _BatchWriter(engine)

    def flush() -> None:
        if batch or failed:
            writer.submit(list(batch), list(failed))
            batch.clear()
            failed.clear()

    if progress:
        progress(0, total)
    stop = should_stop or (lambda: False)
    try:
        for stat in to_read:
            if stop():
                break
            outcome = _prepare(stat, max_note_bytes, engine.takes_unsplit_text)[1]
            done += 1
            if isinstance(outcome, str):
                if outcome == "too_large":
                    report.too_large += 1
                elif outcome == "binary":
                    report.binary += 1
                else:
                    report.unreadable += 1
                failed.append(stat.path)  # drop an older, readable version from the index
                continue
            document = outcome
            if stat.path in known_paths:
                report.changed += 1
                batch.append(document)
            else:
                sources = gone_by_hash.get(document.record.content_hash)
                if sources:
                    old_path = sources.pop()
                    renamed_from.add(old_path)
                    flush()
                    writer.wait()  # the rename must not overtake a batch that deletes or adds this path
                    engine.rename(old_path, document)
                    report.renamed += 1
                else:
                    report.added += 1
                    batch.append(document)
            if len(batch) >= engine.batch_size:
                flush()
                if progress:
                    progress(done, total)
        flush()
    finally:
        writer.wait()  # all that was parsed is committed (also when stopped or failing) before returning
    if done < total and stop():
        report.stopped = True
    if not report.stopped:
        deletes = [path for path in gone if path not in renamed_from]
        if deletes:
            engine.write([], deletes)
        report.deleted = len(deletes)
    if progress:
        progress(done, total)
    report.seconds = time.perf_counter() - started
    return report


def _root_of(path: str, roots: Sequence[str]) -> Optional[str]:
    best: Optional[str] = None
    for root in roots:
        base = root.rstrip(os.sep) + os.sep
        if path.startswith(base) and (best is None or len(root) > len(best)):
            best = root
    return best


def _hidden_below(path: str, root: str) -> bool:
    parts = path[len(root.rstrip(os.sep)) + 1 :].split(os.sep)
    hidden_folder = any(part.startswith(".") or part in SKIPPED_FOLDERS for part in parts[:-1])
    return hidden_folder or parts[-1].startswith(".")


def update_paths(
    engine: SearchEngine, roots: Sequence[str], paths: Iterable[str], max_note_bytes: int = DEFAULT_MAX_NOTE_BYTES
) -> RefreshReport:
    """Bring just these note files up to date (a watcher saw them change): read the ones that exist
    and changed, drop the ones that are gone, in one write. No walk of the folders."""
    started = time.perf_counter()
    report = RefreshReport()
    roots = [expand(root) for root in roots]
    upserts: List[IndexDocument] = []
    deletes: List[str] = []
    for path in sorted(set(paths)):
        root = _root_of(path, roots)
        if root is None or _hidden_below(path, root):
            continue
        if os.path.islink(path) and not is_inside(os.path.realpath(path), os.path.realpath(root)):
            continue  # never leave the folder through a link (as the walk does)
        try:
            info = os.stat(path)
        except OSError:
            info = None
        known = engine.get(path)
        if info is None or not stat_module.S_ISREG(info.st_mode):
            if known is not None:
                deletes.append(path)
                report.deleted += 1
            continue
        if known is not None and known.mtime_ns == info.st_mtime_ns and known.size == info.st_size:
            report.unchanged += 1
            continue
        if info.st_size > max_note_bytes:
            report.too_large += 1
            if known is not None:
                deletes.append(path)
            continue
        found = FileStat(path, root, info.st_mtime_ns, info.st_size)
        outcome = _prepare(found, max_note_bytes, engine.takes_unsplit_text)[1]
        if isinstance(outcome, str):
            if outcome == "binary":
                report.binary += 1
            elif outcome != "too_large":
                report.unreadable += 1
            if known is not None:
                deletes.append(path)
            continue
        upserts.append(outcome)
        if known is None:
            report.added += 1
        else:
            report.changed += 1
    if upserts or deletes:
        engine.write(upserts, deletes)
    report.seconds = time.perf_counter() - started
    return report
