"""An error told only in words gets a status: fixed when a later reply says the fix for what it named, open
when the session ends on it, and nothing claimed otherwise."""

from session_summarizer.error_status import status_of
from session_summarizer.sections import FIXED, OPEN


def test_a_later_reply_that_fixes_what_the_error_named_marks_it_fixed_in_any_language():
    line = "IndentationError: unexpected indent in scanner.py line 191"
    for fix in ("The indent in scanner.py is fixed; the scan runs.", "scanner.py 的缩进问题已修复。",
                "scanner.py のインデントを修正しました。", "scanner.py 들여쓰기 문제를 해결했습니다."):
        turns = [("user", "scan it"), ("assistant", "It failed: " + line), ("user", "fix it"), ("assistant", fix)]
        assert status_of(line, turns) == FIXED, fix


def test_a_guess_or_a_question_about_a_fix_is_not_one():
    line = "IndentationError: unexpected indent in scanner.py line 191"
    for reply in ("Maybe the indent in scanner.py could be fixed by a reformat.", "Is scanner.py fixed now?"):
        turns = [("assistant", "It failed: " + line), ("user", "hm"), ("assistant", reply), ("user", "ok")]
        assert status_of(line, turns) == "", reply


def test_an_error_the_session_ends_on_is_open_and_an_early_one_in_a_long_last_reply_is_not_claimed():
    line = "Out of memory (used over 512Mi) on the Render deploy"
    turns = [("user", "deploy"), ("assistant", "Deployed. " * 8 + "But the log says: " + line)]
    assert status_of(line, turns) == OPEN
    turns = [("user", "deploy"), ("assistant", "First: " + line + ". " + "Then I switched models. " * 20)]
    assert status_of(line, turns) == ""
    turns = [("assistant", "It says: " + line), ("user", "try the md model"), ("assistant", "Switched.")]
    assert status_of(line, turns) == ""
