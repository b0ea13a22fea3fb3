"""Fixtures for the notes-search tests: a notes folder and a library factory run on both engines."""

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, Iterator

import pytest
from notes_search_helpers import ENGINES  # also puts the plugin folder on sys.path

if TYPE_CHECKING:
    from notes_search.library import NotesLibrary


@pytest.fixture(params=ENGINES)
def engine_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def notes_root(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    return root


@pytest.fixture
def make_library(tmp_path: Path, engine_name: str) -> Iterator[Callable[..., "NotesLibrary"]]:
    from notes_search.library import NotesLibrary
    from notes_search.settings import Settings

    opened = []

    def factory(root: Path, **settings: object) -> NotesLibrary:
        values: Dict[str, object] = {"roots": (str(root),), "engine": engine_name}
        values.update(settings)
        library = NotesLibrary(str(tmp_path / "data"), Settings(**values))  # type: ignore[arg-type]
        opened.append(library)
        assert library.engine_name == engine_name
        return library

    yield factory
    for library in opened:
        library.close()
