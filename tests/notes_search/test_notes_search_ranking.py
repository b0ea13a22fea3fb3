"""Ranking rules with exact expected orders, on both engines (issue 18): which field matched and how.

Every note is crafted so that one rule decides its place; the filler notes give BM25 realistic word
statistics. Paths are compared, so a note is identified whatever its title.
"""

from pathlib import Path
from typing import List

import pytest
from notes_search_helpers import add_filler, write_note


def paths(outcome: object) -> List[str]:
    return [item.record.rel_path for item in outcome.items]  # type: ignore[attr-defined]


@pytest.fixture
def library(notes_root: Path, make_library):
    add_filler(notes_root)
    notes = {
        # An exact alias against notes that only mention the words, and mention them more, and are newer.
        "sync/Local and remote.md": "---\naliases:\n  - Local vaults\n  - remote vaults\n---\nWhere notes live.\n",
        "misc/Mentions.md": "# Storage\n\nlocal vaults, local vaults and more local vaults here.\n",
        "misc/Other mention.md": "# Devices\n\nYour local vaults sync with the local vaults of others.\n",
        # An alias word against body mentions.
        "obsidian/Early access.md": "---\naliases: [Insider builds]\n---\nBeta releases for supporters.\n",
        "misc/Discord.md": "# Community\n\nJoin the insider channel; insider news, insider chat.\n",
        # A whole word of a title above a longer word starting with it (the longer one is newer).
        "sv/Säkerhet och integritet.md": "Kryptering av anteckningar.\n",
        "sv/Säkerhetskopiera dina filer.md": "Kopiera valvet till en annan disk.\n",
        # The file name counts although the first line is a heading that becomes the title.
        "README.md": "# Project overview\n\nWhat this vault is for.\n",
        "guides/Readme conventions.md": "How to write a good one.\n",
        "misc/Tooling.md": "# Tooling\n\nEvery repository has a readme file.\n",
        # An alias that is the whole query, against a title word.
        "files/Configuration folder.md": "---\naliases:\n  - .config\n---\nSettings live in a hidden folder.\n",
        "files/Config file format.md": "# Config file format\n\nKeys and values.\n",
        # Folder words count: the note in the "Obsidian Sync" folder above a body mention.
        "Obsidian Sync/Setup.md": "# Setup\n\nSign in and choose a remote vault.\n",
        "misc/Setup.md": "# Setup\n\nInstall the app; sync comes later.\n",
        # Headings: H1 above H2 above H3 above a tag above the body.
        "deploy/one.md": "# Runbook A\n\nintro\n\n# Rollout\n\ntext\n",
        "deploy/two.md": "# Runbook B\n\nintro\n\n## Rollout\n\ntext\n",
        "deploy/three.md": "# Runbook C\n\nintro\n\n### Rollout\n\ntext\n",
        "deploy/four.md": "---\ntags: [rollout]\n---\n# Runbook D\n\nintro\n",
        "deploy/five.md": "# Runbook E\n\nThe rollout went fine.\n",
        # Typo correction keeps the last word a prefix: "blockquotes" only matches "block" as a prefix.
        "md/Code blockquotes.md": "# Code blockquotes\n\nQuoting code.\n",
        "md/Code block.md": "# Code block\n\nFenced code.\n",
        # A whole heading above a title and other headings sharing its words.
        "ro/Creează un seif.md": "## Deschideți un director existent\n\nun seif nou\n",
        "ro/Exploratorul.md": "## Creează un director nou\n\ntext\n",
        # A name mixing scripts, typed whole: Japanese runs around a Latin word.
        "ja/チームへのObsidianの展開.md": "チームで使う。\n",
    }
    for number, (relative, text) in enumerate(notes.items()):
        write_note(notes_root, relative, text, mtime=2_000_000 + number)
    lib = make_library(notes_root)
    lib.refresh()
    return lib


def test_exact_alias_beats_notes_that_only_mention_the_words(library):
    assert paths(library.search("local vaults")) == [
        "sync/Local and remote.md",
        "misc/Mentions.md",
        "misc/Other mention.md",
    ]


def test_alias_word_beats_body_mentions(library):
    assert paths(library.search("insider")) == ["obsidian/Early access.md", "misc/Discord.md"]


def test_whole_word_in_title_above_longer_word_with_that_prefix(library):
    assert paths(library.search("säkerhet")) == [
        "sv/Säkerhet och integritet.md",
        "sv/Säkerhetskopiera dina filer.md",
    ]


def test_file_name_is_searched_when_an_h1_gives_the_title(library):
    assert paths(library.search("readme")) == ["README.md", "guides/Readme conventions.md", "misc/Tooling.md"]
    assert paths(library.search(".config")) == ["files/Configuration folder.md", "files/Config file format.md"]


def test_folder_words_count(library):
    assert paths(library.search("sync setup")) == ["Obsidian Sync/Setup.md", "misc/Setup.md"]


def test_headings_by_level_then_tags_then_body(library):
    assert paths(library.search("rollout")) == [
        "deploy/one.md",
        "deploy/two.md",
        "deploy/three.md",
        "deploy/four.md",
        "deploy/five.md",
    ]
def test_a_whole_heading_beats_its_words_spread_over_a_title_and_a_heading(library):
    assert paths(library.search("Creează un director nou")) == ["ro/Exploratorul.md", "ro/Creează un seif.md"]


def test_a_name_mixing_japanese_and_latin_is_found_whole(library):
    assert paths(library.search("チームへのObsidianの展開")) == ["ja/チームへのObsidianの展開.md"]


def test_typo_correction_keeps_the_prefix_of_the_last_word(library):
    typed_right = library.search("code block")
    corrected = library.search("code bolck")
    assert corrected.corrections == [("bolck", "block")]
    assert paths(typed_right) == ["md/Code block.md", "md/Code blockquotes.md"]
    assert paths(corrected) == paths(typed_right)


def test_a_note_named_like_the_query_is_found_however_many_newer_notes_share_the_word(
    notes_root: Path, make_library
):
    write_note(notes_root, "Obsidian.md", "The app.\n", mtime=1_000)
    library = make_library(notes_root)
    library.refresh()  # indexed first: the oldest row of the index
    for number in range(620):  # more than either engine ranks of a broad query (BROAD_CAP, HEADING_CAP)
        write_note(notes_root, f"news/Obsidian news {number}.md", "obsidian obsidian\n", mtime=2_000 + number)
    library.refresh()
    assert paths(library.search("obsidian"))[0] == "Obsidian.md"
    assert paths(library.search("obsidian "))[0] == "Obsidian.md"
