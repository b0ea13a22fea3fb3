"""The Gemini CLI screen copied with a left margin: ` > ask` opens the person's turn (a wrapped, indented ask line
continues it), a `✦` line, a `✓`/`-` tool line or a tool box opens the agent's reply even when indented."""

import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "session_corpus"
if str(CORPUS) not in sys.path:
    sys.path.insert(0, str(CORPUS))

from session_formats import split_turns  # noqa: E402

SCREEN = """
 > look at the project and tell me
   what you see
 ✦ It is a Laravel API.

  1. Hexagonal layout

   > make book hexagonal
   ✦ I will read the Book files first.

╭──────────╮
│ ✓  Shell ls │
╰──────────╯
  -  WriteFile  BookTest.php → Rejected (+92, -0)
"""


def test_margin_asks_and_indented_replies():
    turns = split_turns(SCREEN, "gemini-tui-margin")
    assert [t["role"] for t in turns] == ["user", "assistant", "user", "assistant"]
    assert turns[0]["text"] == "look at the project and tell me\nwhat you see"
    assert turns[1]["text"].startswith("✦ It is a Laravel API.")
    assert turns[2]["text"] == "make book hexagonal"
    assert "Rejected" in turns[3]["text"]


def test_a_reply_line_right_after_the_ask_is_not_part_of_it():
    turns = split_turns(" > hi\n   ✓  ReadFile  a.php\n", "gemini-tui-margin")
    assert [t["role"] for t in turns] == ["user", "assistant"]
    assert turns[0]["text"] == "hi"
