"""Property tests for what arrives from outside: link paths and snippet input."""

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from notes_search.query import parse_query
from notes_search.safety import NoteAccessError, resolve_note_path
from notes_search.snippets import CLOSE_MARK, OPEN_MARK, make_snippet

_PIECES = st.sampled_from(
    ["..", ".", "notes", "sub", "a.md", "b.txt", ".git", "/", "~", "x.json", "%2e%2e", "\\"]
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_PIECES, max_size=8), st.booleans())
def test_a_link_path_never_resolves_outside_the_roots(tmp_path: Path, pieces, absolute):
    root = tmp_path / "notes"
    (root / "sub").mkdir(parents=True, exist_ok=True)
    (root / "a.md").write_text("# a")
    (root / "sub" / "b.txt").write_text("b")
    (tmp_path / "a.md").write_text("outside")
    raw = "/".join(pieces)
    path = str(root) + "/" + raw if absolute else raw
    try:
        resolved = resolve_note_path(path, [str(root)])
    except NoteAccessError as problem:
        assert problem.reason in {"invalid", "outside_roots", "hidden", "not_a_note", "missing"}
        return
    real_root = os.path.realpath(root)
    assert os.path.commonpath([resolved, real_root]) == real_root
    assert os.path.isfile(resolved) and resolved.endswith((".md", ".txt"))


@given(st.text(max_size=400), st.text(max_size=40))
def test_snippets_never_raise_and_marks_are_balanced(body, query):
    snippet = make_snippet(body, parse_query(query).terms)
    assert snippet.count(OPEN_MARK) - body.count(OPEN_MARK) == snippet.count(CLOSE_MARK) - body.count(
        CLOSE_MARK
    )
    assert len(snippet) <= 400 + 2 * 60


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from("ab会議 \"*:-#^()+{}'tagin/.ＡＢ"), max_size=30))
def test_any_typed_text_searches_without_error_on_fts5(tmp_path: Path, text):
    from notes_search.library import NotesLibrary
    from notes_search.settings import Settings

    root = tmp_path / "notes"
    root.mkdir(exist_ok=True)
    (root / "n.md").write_text('# ab\n\n会議 ab ba tag:in "quoted" (paren)\n', encoding="utf-8")
    library = NotesLibrary(str(tmp_path / "data"), Settings(roots=(str(root),), engine="sqlite"))
    try:
        library.refresh()
        outcome = library.search(text)
        assert outcome.mode in ("recent", "search")
    finally:
        library.close()
