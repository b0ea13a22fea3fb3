"""Every language has every message, with the same placeholders, and the texts render."""
from __future__ import annotations

import string

from release_agent.messages import CATALOG, LANGUAGES, MODE_NAMES, mode_name, say
from release_agent.step_output import render_output


def placeholders(template: str) -> set:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name}


def test_catalogs_are_complete_and_consistent() -> None:
    english = CATALOG["en"]
    for language in LANGUAGES:
        table = CATALOG[language]
        assert set(table) == set(english), language
        for key, template in table.items():
            assert placeholders(template) == placeholders(english[key]), (language, key)
        assert set(MODE_NAMES[language]) == {"check", "release"}


def test_say_fills_and_falls_back_to_english() -> None:
    assert say("ja", "left", version="1.4.0", count=2) == "1.4.0 の残り（2 件）:"
    assert say("fr", "opt_reject") == "Reject"
    assert mode_name("zh", "release") == "发布" and mode_name("en", "other") == "other"


def test_output_is_a_code_block_that_survives_backticks_in_the_output() -> None:
    assert render_output([], 0, "en") == "(no output)"
    text = render_output(["```", "done"], 5, "en")
    assert text.startswith("… 3 earlier line(s)\n````\n") and text.endswith("\n````")
