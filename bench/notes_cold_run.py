"""One first index of a notes folder with the FTS5 engine of a given notes-search copy, in a process of its
own, printed as one JSON line: bench_notes_search runs it for today's plugin and for the issue's baseline.

Usage: notes_cold_run.py PLUGIN_DIR NOTES_DIR DATA_DIR
"""

import json
import resource
import shutil
import sys
import time


def main() -> None:
    plugin, notes, data = sys.argv[1:4]
    sys.path.insert(0, plugin)
    from notes_search.engines.sqlite_fts import SqliteEngine
    from notes_search.indexer import refresh_index

    shutil.rmtree(data, ignore_errors=True)
    engine = SqliteEngine(data)
    started = time.perf_counter()
    report = refresh_index(engine, [notes])
    indexed = time.perf_counter() - started
    # Today's engine fills its word table after the first index; until then searches ask FTS5 itself.
    # Counted in, so the comparison is of an index as complete as the baseline's.
    settle = getattr(engine, "settle", None)
    if settle is not None:
        settle()
    seconds = time.perf_counter() - started
    engine.close()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        json.dumps(
            {
                "notes": report.indexed,
                "seconds": seconds,
                "refresh_seconds": indexed,
                "cpu_seconds": usage.ru_utime + usage.ru_stime,
                "peak_mb": usage.ru_maxrss / 1024,
            }
        )
    )


if __name__ == "__main__":
    main()
