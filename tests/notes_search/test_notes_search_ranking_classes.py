"""Issue 28's ranking classes with exact expected orders, on both engines: the accents as typed, a
one-word name in an Indic (or other mark-using) script, `#` + digits as text, typo corrections that
make the whole query match, a whole-query phrase in any heading, and the typed word order.

Each class has cases beyond the issue's own (other languages, scripts and heading levels). Paths are
compared, so a note is identified whatever its title; mtimes make the wrong answer the newer one."""

from pathlib import Path
from typing import List

import pytest
from notes_search_helpers import add_filler, write_note


def paths(outcome: object) -> List[str]:
    return [item.record.rel_path for item in outcome.items]  # type: ignore[attr-defined]


NOTES = {
    # Accents as typed (the folded match is newer, so without the rule it would come first).
    "sk/Spravovať trezory.md": "Ako spravovať trezory v aplikácii.\n",
    "sk/Spravovať súbory.md": "Súbory a priečinky.\n",
    "fr/Résumé du projet.md": "Le résumé de la réunion.\n",
    "de/Müll trennen.md": "Wie man den Müll trennt.\n",
    "pt/Sessão de trabalho.md": "Uma sessão longa.\n",
    # Indic and other scripts whose words carry vowel signs (combining marks).
    "bn/তালিকা.md": "কাজের তালিকা এখানে।\n",
    "hi/सूची.md": "यह एक सूची है।\n",
    "ta/பட்டியல்.md": "இது ஒரு பட்டியல்.\n",
    "th/รายการสินค้า.md": "รายการ\n",
    # '#' and digits: a heading, an issue number, and a real tag next to them.
    "ctf/Writeups.md": "# Writeups\n\n## Crack #1\n\nThe first crackme.\n\n## Crack #2\n\nThe second.\n",
    "work/Triage.md": "---\ntags: [y2024]\n---\n# Triage\n\nSee bug #4711 in the tracker.\n",
    # Typo corrections: the other words decide ("math" is in many more notes than "match").
    "sec/Burp Suite Match and Replace.md": "# Burp Suite Match and Replace\n\nRewrite requests on the fly.\n",
    "mac/macOS login items.md": "# macOS login items\n\nWhat starts when you log in.\n",
    "es/Ajustes de pantalla.md": "# Ajustes de pantalla\n\nBrillo y resolución.\n",
    "k8s/Kubernetes secret management.md": "# Kubernetes secret management\n\nSealed secrets.\n",
    "math/Bound Variable.md": "# Bound Variable\n\nA variable bound by a quantifier.\n",
    "tools/Masscan.md": "# Masscan\n\nA fast port scanner.\n",
    # A whole-query phrase in a heading of any level, against one query word in a newer note's name.
    "py/Attribute access.md": "# Attribute access\n\nintro\n\n### Data Descriptor\n\nDefines __get__ and __set__.\n",
    "py/Operators.md": "# Operators\n\n#### Binary methods\n\n__add__ and friends.\n",
    "exam/Preparation.md": "# Preparation\n\n## Example questions\n\nWith answers.\n",
    "de/Handbuch.md": "# Handbuch\n\n### Rechte verwalten\n\nWer darf was.\n",
    # The typed word order: adjacent and in order beats the same words apart (the newer note).
    "stats/Standard Normal Distribution.md": "# Standard Normal Distribution\n\nMean zero.\n",
    "ja/会議 議事録.md": "# 会議 議事録\n\n本文\n",
}
# Written after NOTES, so newer: each would win its query if its class were not handled.
DECOYS = {
    "cs/Spravovat trezory.md": "Jak spravovat trezory.\n",
    "cs/Spravovat soubory.md": "Soubory a složky.\n",
    "en/Resume parsing.md": "Parse a resume into fields.\n",
    "de/Mull fabric.md": "Mull is a soft cotton.\n",
    "pt/Sessao de fotos.md": "Fotos da sessao.\n",
    "bn/নোট.md": "এই নোটে তালিকা আছে, তালিকা এবং তালিকা।\n",
    "bn/তিলক.md": "তিলক\n",  # another word with the same consonants (ত ল ক): not a match at all
    "hi/सोच.md": "सोच\n",  # स च, as in सूची
    "hi/नोट.md": "इस नोट में सूची है, सूची और सूची।\n",
    "ta/குறிப்பு.md": "பட்டியல் பட்டியல் பட்டியல் இங்கே.\n",
    "th/บันทึก.md": "รายการสินค้า รายการสินค้า\n",
    "math/Math basics.md": "# Math basics\n\nmath and more math, with a suite of exercises.\n",
    "math/Math tricks.md": "# Math tricks\n\nmath\n",
    "math/Math puzzles.md": "# Math puzzles\n\nmath\n",
    "linux/Linux lin tools.md": "# Linux lin tools\n\nlin and linux on macos too.\n",
    "linux/lin.md": "# lin\n\nlin lin\n",
    "es/Pantallas.md": "# Pantallas\n\npantallas\n",
    "misc/Screen recording.md": "# Screen recording\n\nscreen screen screencast\n",
    "misc/Screen sharing.md": "# Screen sharing\n\nscreen\n",
    "misc/Typos.md": "# Typos\n\nSomeone wrote varaible here once.\n",  # the typo is a word of some note
    "history/Events.md": "# Events\n\nThe massacre of 1572, a massacre remembered.\n",
    "py/Data classes.md": "# Data classes\n\nA descriptor is mentioned here.\n",
    "py/Binary search.md": "# Binary search\n\nThe methods of halving.\n",
    "exam/Example vault.md": "# Example vault\n\nNo questions asked.\n",
    "de/Rechte.md": "# Rechte\n\nverwalten kann man vieles.\n",
    "stats/Normal Distribution Standard Deviation Approximation.md": "# Normal Distribution Standard Deviation "
    "Approximation\n\ntext\n",
    "ja/議事録 会議.md": "# 議事録 会議\n\n本文\n",
}


@pytest.fixture
def library(notes_root: Path, make_library):
    add_filler(notes_root)
    for number, (relative, text) in enumerate([*NOTES.items(), *DECOYS.items()]):
        write_note(notes_root, relative, text, mtime=2_000_000 + number)
    lib = make_library(notes_root)
    lib.refresh()
    return lib


@pytest.mark.parametrize(
    "query, first",
    [
        ("spravovať", ["sk/Spravovať súbory.md", "sk/Spravovať trezory.md"]),
        ("spravovať trezory", ["sk/Spravovať trezory.md"]),
        ("spravovat", ["cs/Spravovat soubory.md", "cs/Spravovat trezory.md"]),  # typed without: as typed
        ("résumé", ["fr/Résumé du projet.md"]),
        ("resume", ["en/Resume parsing.md"]),
        ("müll", ["de/Müll trennen.md"]),
        ("sessão", ["pt/Sessão de trabalho.md"]),
        ("sessã", ["pt/Sessão de trabalho.md"]),  # still typing, accent already typed
    ],
)
def test_the_accents_as_typed_rank_above_the_folded_match(library, query, first):
    found = paths(library.search(query))
    assert sorted(found[: len(first)]) == sorted(first), found


@pytest.mark.parametrize(
    "query, first",
    [
        ("তালিকা", "bn/তালিকা.md"),
        ("सूची", "hi/सूची.md"),
        ("பட்டியல்", "ta/பட்டியல்.md"),
        ("รายการสินค้า", "th/รายการสินค้า.md"),
    ],
)
def test_a_one_word_name_in_a_script_with_vowel_signs_beats_body_matches(library, query, first):
    found = paths(library.search(query))
    assert found[0] == first, found
    assert len(found) == 2, found  # the word is one word: no note matching only its consonants


def test_hash_and_digits_is_text_and_a_tag_with_a_letter_still_filters(library):
    assert paths(library.search("crack #1")) == ["ctf/Writeups.md"]
    assert paths(library.search("bug #4711")) == ["work/Triage.md"]
    assert paths(library.search("#4711")) == ["work/Triage.md"]
    assert paths(library.search("triage #y2024")) == ["work/Triage.md"]
    assert paths(library.search("writeups #y2024")) == []  # a real tag is still a filter


@pytest.mark.parametrize(
    "query, first, word",
    [
        ("suite macth", "sec/Burp Suite Match and Replace.md", "match"),
        ("macos lgin", "mac/macOS login items.md", "login"),  # a dropped letter, not a shorter word
        ("kubernetes scret", "k8s/Kubernetes secret management.md", "secret"),  # a dropped second letter
        ("bound varaible", "math/Bound Variable.md", "variable"),  # each word is in a note, not both
        ("massacn", "tools/Masscan.md", "masscan"),  # a note's name before the start of a body word
        ("ajustes pantlla", "es/Ajustes de pantalla.md", "pantalla"),
    ],
)
def test_typo_correction_chooses_the_word_that_makes_the_whole_query_match(library, query, first, word):
    outcome = library.search(query)
    assert paths(outcome)[:1] == [first], (paths(outcome), outcome.corrections)
    assert any(word.startswith(new) for _typed, new in outcome.corrections), outcome.corrections


@pytest.mark.parametrize(
    "query, first",
    [
        ("data descriptor", "py/Attribute access.md"),  # ###
        ("binary methods", "py/Operators.md"),  # ####
        ("example questions", "exam/Preparation.md"),  # ##
        ("rechte verwalten", "de/Handbuch.md"),  # ###, German
        ("data descr", "py/Attribute access.md"),  # still typing
    ],
)
def test_a_whole_query_phrase_in_any_heading_beats_one_word_in_a_name(library, query, first):
    found = paths(library.search(query))
    assert found[:1] == [first], found


@pytest.mark.parametrize(
    "query, first",
    [
        ("standard normal", "stats/Standard Normal Distribution.md"),
        ("stndard normal", "stats/Standard Normal Distribution.md"),
        ("distribution standard", "stats/Normal Distribution Standard Deviation Approximation.md"),
        ("会議 議事録", "ja/会議 議事録.md"),
        ("議事録 会議", "ja/議事録 会議.md"),
    ],
)
def test_the_typed_word_order_counts(library, query, first):
    found = paths(library.search(query))
    assert found[:1] == [first], found
