"""Text as the reader sees it (issue 18): wikilink display text, embeds and Markdown marks stripped for
phrases and excerpts, link targets searchable; on both engines."""

from pathlib import Path

import pytest
from notes_search_helpers import add_filler, write_note


@pytest.fixture
def library(notes_root: Path, make_library):
    add_filler(notes_root)
    write_note(
        notes_root,
        "links.md",
        "# Links\n\nOpen the [[Settings|settings panel]] now. Before ![[diagram.png]] after.\n"
        "Ask [[Project Zeta#Plan|the team]] first. Read the [docs](https://example.com/guide) today.\n"
        "A **bold** and `coded` and ==marked== word.\n",
        mtime=2_000_000,
    )
    write_note(notes_root, "other.md", "# Other\n\nThe settings and the panel, apart.\n", mtime=2_000_001)
    lib = make_library(notes_root)
    lib.refresh()
    return lib


def rel_paths(outcome: object) -> list:
    return [item.record.rel_path for item in outcome.items]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "phrase",
    ['"open the settings panel now"', '"before after"', '"ask the team first"', '"read the docs today"'],
)
def test_phrases_read_across_link_and_embed_syntax(library, phrase):
    assert rel_paths(library.search(phrase)) == ["links.md"]


def test_the_link_target_is_not_part_of_the_sentence(library):
    assert rel_paths(library.search('"open the settings settings"')) == []
    assert rel_paths(library.search('"ask project zeta"')) == []


def test_link_targets_are_searchable(library):
    assert rel_paths(library.search("zeta")) == ["links.md"]


def test_excerpts_show_the_words_not_the_markup(library):
    snippet = library.search('"settings panel"').items[0].snippet
    assert "open the «settings» «panel» now" in snippet.lower()
    assert "[[" not in snippet and "diagram.png" not in snippet and "https" not in snippet
    snippet = library.search("bold").items[0].snippet
    assert "A «bold» and coded and marked word." in snippet


def test_headings_are_h1_to_h6_outside_code_fences():
    from notes_search.markdown import headings

    body = "# One\n\ntext\n## Two [[Target|shown]]\n```\n# not a heading\n```\n### Three ###\n#### Four\n#tag\n"
    assert headings(body) == ((1, "One"), (2, "Two shown"), (3, "Three"), (4, "Four"))


def test_reader_text_of_callouts_lists_and_links():
    from notes_search.markdown import link_targets, reader_text

    body = "> [!warning] Careful\n> - [ ] a **task** with [[Note#Part]]\n1. see [site](http://x.y/z) and [[#Local]]"
    assert reader_text(body) == "Careful\na task with Note Part\nsee site and Local"
    assert link_targets(body) == ["Note"]
