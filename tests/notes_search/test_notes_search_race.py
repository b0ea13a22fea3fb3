"""Engine switches and shutdown while searches run: no search may ever see a closed index."""

import threading
from pathlib import Path

from notes_search.library import NotesLibrary
from notes_search.settings import Settings
from notes_search_helpers import add_filler, titles, write_note


def test_switching_engines_while_searches_run_never_hits_a_closed_index(tmp_path: Path):
    root = tmp_path / "notes"
    add_filler(root, 30)
    write_note(root, "target.md", "# Target note\n\nneedle in the haystack\n")
    data = str(tmp_path / "data")
    library = NotesLibrary(data, Settings(roots=(str(root),), engine="sqlite"))
    library.refresh()
    library.switch_engine("whoosh")
    library.refresh()  # both indexes filled, so every search below has an answer
    errors = []
    answers = []
    stop = threading.Event()

    def search_forever() -> None:
        queries = ("needle ", "ne", "hay", "alpha bravo", "", "tag:x needle", "needel ")
        while not stop.is_set():
            for text in queries:
                try:
                    outcome = library.search(text)
                    if text == "needle ":
                        answers.append(titles(outcome))
                except Exception as error:  # the failure this test is about
                    errors.append(repr(error))
                    return

    workers = [threading.Thread(target=search_forever) for _ in range(3)]
    for worker in workers:
        worker.start()
    try:
        for index in range(40):
            library.switch_engine("whoosh" if index % 2 else "sqlite")
    finally:
        stop.set()
        for worker in workers:
            worker.join(30)
    assert errors == []
    assert answers and all(found == ["Target note"] for found in answers)
    library.close()
    assert library.search("needle ").items == []  # a closed library answers nothing, and does not raise


def test_closing_while_a_search_runs_lets_the_search_finish(tmp_path: Path):
    root = tmp_path / "notes"
    add_filler(root, 30)
    library = NotesLibrary(str(tmp_path / "data"), Settings(roots=(str(root),), engine="sqlite"))
    library.refresh()
    errors = []
    started = threading.Event()

    def search() -> None:
        for _ in range(200):
            try:
                library.search("alpha ")
            except Exception as error:
                errors.append(repr(error))
                return
            started.set()

    worker = threading.Thread(target=search)
    worker.start()
    started.wait(10)
    library.close()
    worker.join(30)
    assert errors == []
