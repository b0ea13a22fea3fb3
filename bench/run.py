"""Runs every benchmark in bench/ (or those whose name contains the argument) and prints their tables."""

from __future__ import annotations

import importlib.util
import pathlib
import sys
import time


def main() -> int:
    wanted = sys.argv[1].replace("-", "_") if len(sys.argv) > 1 and sys.argv[1] else ""
    here = pathlib.Path(__file__).resolve().parent
    failures = 0
    for path in sorted(here.glob("bench_*.py")):
        if wanted and wanted not in path.stem:
            continue
        print(f"\n=== {path.stem} ===", flush=True)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        started = time.perf_counter()
        try:
            spec.loader.exec_module(module)
            module.main()
        except Exception as error:  # one broken benchmark should not hide the others' figures
            failures += 1
            print(f"{path.stem} failed: {error!r}", flush=True)
        print(f"({path.stem} took {time.perf_counter() - started:.1f} s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
