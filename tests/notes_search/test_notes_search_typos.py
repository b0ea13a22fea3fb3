"""Typo correction: the fast distance agrees with the full one, every kind of slip past the first letter is fixed,
on both engines, and a corrected last word stays a prefix."""

import random
from pathlib import Path

from notes_search_helpers import add_filler, write_note


def test_fast_distance_agrees_with_the_full_table():
    from notes_search.fuzzy import edit_distance, within

    rng = random.Random(7)
    for _ in range(3000):
        a = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 7)))
        b = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 7)))
        for limit in (1, 2):
            expected = min(edit_distance(a, b, limit), limit + 1)
            assert min(within(a, b, limit), limit + 1) == expected, (a, b, limit)


def test_every_kind_of_slip_is_corrected(notes_root: Path, make_library):
    add_filler(notes_root)
    write_note(notes_root, "blocks.md", "# Blocks\n\nA block of text, blockquote and synchronisation.\n")
    library = make_library(notes_root)
    library.refresh()
    slips = {
        "bolck": "block",  # second and third letters swapped
        "blokc": "block",  # last two swapped
        "bxock": "block",  # wrong second letter
        "bock": "block",  # second letter missing
        "lbock": "block",  # first two swapped
        "blocck": "block",  # a letter twice
        "synchronisatoin": "synchronisation",  # swapped, in a long word (two edits allowed)
        "synchrnisaton": "synchronisation",  # two letters missing
    }
    for typed, meant in slips.items():
        outcome = library.search(f"{typed} ")
        assert outcome.corrections == [(typed, meant)], typed
        assert [item.record.rel_path for item in outcome.items] == ["blocks.md"], typed
