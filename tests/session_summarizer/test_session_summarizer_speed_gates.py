"""Cheap gates in front of slow patterns must never turn away a text the pattern would match.

Each gate is a speed-up only: the summary must read the same with or without it, so for every text the
pattern matches (in any case, script or language), the gate has to let the text through.
"""

import random
import re

from session_summarizer import cues, decision_cues, done_states, loose_ends, memo, transcript
from session_summarizer import extraction as ex
from session_summarizer import sections as rules

_PUT_OFF = [
    "Ignore the two extra C files for now.",
    "SKIP THE LOGIN PAGE FOR NOW, we do it after the demo.",
    "Please don't worry about the icons at the moment",
    "Leave out the export until later",
    "exclude the legacy importer in a later step",
    "SKİP THE AUTH FOR THE TİME BEİNG",  # Turkish capitals: the pattern folds İ onto i, lower() does not
    "今はテストは不要です",
    "ログ出力は後回しでお願いします",
    "暂时不用管登录",
    "支付功能以后再做",
    "일단 결제는 빼고 진행해 주세요",
    "알림은 나중에 추가할게요",
]


def test_the_put_off_gate_lets_through_every_ask_the_pattern_matches():
    for ask in _PUT_OFF:
        assert loose_ends._USER_DEFERS.search(ask), ask  # the samples are what the pattern is for
        assert loose_ends._may_put_off(ask), ask
    assert not loose_ends._may_put_off("Fix the failing test in src/app.py")


def test_cached_paths_are_a_fresh_list_each_time():
    first = ex.find_paths("Updated src/app.py and tests/test_app.py")
    first.append("changed by a caller")
    assert ex.find_paths("Updated src/app.py and tests/test_app.py") == ["src/app.py", "tests/test_app.py"]


# Words the patterns below are made of, and others, shuffled into many sentences: whatever the pattern
# matches, its gate must let through.
_WORDS = ("leave", "leaving", "left", "keep", "keeping", "kept", "stay", "stays", "remain", "remains", "as", "is",
          "as-is", "unchanged", "untouched", "intact", "alone", "he", "she", "they", "you", "wrote", "it", "them",
          "no", "change", "changes", "are", "needed", "required", "necessary", "won't", "wont", "will", "not",
          "did", "didn't", "didnt", "do", "don't", "dont", "touch", "modify", "rename", "has", "have", "now",
          "also", "successfully", "been", "quietly", "created", "built", "made", "written", "set", "up", "split",
          "shown", "hidden", "run", "uses", "reads", "longer", "works", "that", "can", "the", "file", "README",
          "config", "\"no", "'no")


def _sentences(count: int):
    rng = random.Random(25)
    for _ in range(count):
        words = [rng.choice(_WORDS) for _ in range(rng.randint(2, 9))]
        sentence = " ".join(words)
        yield sentence.capitalize() if rng.random() < 0.3 else sentence.upper() if rng.random() < 0.1 else sentence


_KEPT = ["README mentions are left unchanged.", "We keep the old name as is for plugins.",
         "No change is needed in the parser.", "I won't rename the module.", "I didnt touch the tests.",
         "The config stays intact", "I kept it as he wrote it", "Leave the CLI alone for this release."]
_STATES = ["The file test.html has been created.", "The chart now uses the Dark24 palette.",
           "The script is now much faster.", "The parser no longer reads the whole file.",
           "You can now run it with --year", "It has now been split"]


def test_the_keeps_unchanged_gate_lets_through_every_sentence_the_pattern_matches():
    matched = 0
    for sentence in _KEPT + list(_sentences(20000)):
        lowered = sentence.lower()
        if decision_cues._UNCHANGED_LATIN.search(lowered):
            matched += 1
            assert decision_cues._may_keep_unchanged(lowered), sentence
    assert matched > 500  # the shuffled sentences reach every branch often
    for sentence in _KEPT:
        assert decision_cues.keeps_unchanged(sentence), sentence
    assert not decision_cues._may_keep_unchanged("the change keeps behaviour identical for existing callers.")


def test_the_new_state_gate_lets_through_every_sentence_the_pattern_matches():
    matched = 0
    for sentence in _STATES + list(_sentences(20000)):
        if done_states._STATE_LATIN.search(sentence):
            matched += 1
            assert done_states._may_state(sentence.lower()), sentence
    assert matched > 100
    for sentence in _STATES:
        assert done_states.is_new_state(sentence), sentence
    assert not done_states._may_state("fixed the key in src/app.py and added a regression test.")


_MARKED = ["⏺ Bash(npm test)", "  ⎿  3 passed", "> quoted output", "Read file: src/app.py", "12   + added line",
           "7\t-removed", "- [ ] write the docs", "* [x] tests", "☐ todo", "- ✔ done", "  • step"]
_LINE_PIECES = ("Read file:", ">", "[ ]", "[x]", "[X]", "[", "]", "12", "3", " ", "  ", "\t", "+", "-", "*", "•",
                "⏺", "☐", "✔", "word", "Read", "file:", "x")


def test_the_marker_gate_lets_through_every_text_the_line_pattern_matches():
    rng = random.Random(26)
    texts = list(_MARKED)
    for _ in range(20000):
        lines = ["".join(rng.choice(_LINE_PIECES) for _ in range(rng.randint(1, 6))) for _ in range(rng.randint(1, 3))]
        texts.append("\n".join(lines))
    matched = 0
    for text in texts:
        if transcript._MARKERS.search(text):
            matched += 1
            assert transcript._may_hold_markers(text), text
    assert matched > 1000
    assert not transcript._may_hold_markers("Fixed the key in src/app.py.\n\nNext steps:\n- Update the changelog")


def test_a_cue_read_twice_in_a_summary_reads_the_same():
    sentence = "We use SQLite instead of Postgres because the app runs offline."  # no choice verb: not a choice
    memo.forget_all()
    for _ in range(2):  # the second time from what the summary already read
        verdicts = (cues.has_choice(sentence), cues.has_reason(sentence), cues.has_contrast(sentence))
        assert verdicts == (False, True, True)
        assert (cues.has_reason("We use SQLite."), cues.has_choice("We will use SQLite for storage.")) == (False, True)


def test_where_a_path_starts_is_found_as_the_old_pattern_found_it():
    # The start of a path before its extension: after the last character a path cannot hold (any script).
    old = re.compile(r".*[^A-Za-z0-9_.@+\-/~]", re.S)
    rng = random.Random(27)
    pieces = ("src", "/", ".", "_", "-", "@", "+", "~", "a1", "(", "`", "'", "\"", ":", "=", "を", "é", "🙂", "[", "]")
    for _ in range(20000):
        chunk = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        found = old.match(chunk)
        assert len(chunk.rstrip(ex._PATH_CHARS)) == (found.end() if found else 0), chunk
    assert ex.find_paths("see (src/app.py) and `lib/x.ts`, を修正 docs/a.md") == ["src/app.py", "lib/x.ts", "docs/a.md"]


def test_sentences_split_once_read_the_same_every_time():
    text = "Fixed the parser. It now reads tabs! Next: docs?\n\n変更しました。テストも通りました。"
    expected = ["Fixed the parser.", "It now reads tabs!", "Next: docs?", "変更しました。テストも通りました。"]
    memo.forget_all()
    assert list(ex.sentences(text)) == expected
    assert list(ex.sentences(text)) == expected  # from the split already made
    memo.forget_all()
    assert list(ex.sentences(text)) == expected


_GATED_LINES = {
    "ran": ("I ran `npm test`", "Re-ran `make`", "RERAN `pytest`", "executed `ls`", "After running `x y`",
            "by running `a b`", "I've run `git status`", "I have run `uv sync`"),
    "refusal": ("The user doesn't want to proceed with this tool use.", "USER REJECTED the edit",
                "rejected by the user", "blocked by the approval policy", "Not approved", "declined by user",
                "Permission to use Bash was denied by the user", "sandbox denied the write",
                "cannot edit in plan mode"),
}
_GATE_WORDS = ("i", "i've", "i have", "ran", "re-ran", "reran", "RAN", "executed", "after", "by", "running", "run",
               "`npm test`", "doesn't", "doesnt", "want", "to", "proceed", "user", "rejected", "the", "approval",
               "policy", "not", "approved", "declined", "permission", "use", "Bash", "was", "denied", "sandbox",
               "blocked", "in", "plan", "mode", "grant", "Run", "EXECUTED")


def test_the_ran_and_refusal_gates_let_through_every_line_their_patterns_match():
    rng = random.Random(28)
    lines = list(_GATED_LINES["ran"] + _GATED_LINES["refusal"])
    lines += [" ".join(rng.choice(_GATE_WORDS) for _ in range(rng.randint(1, 7))) for _ in range(20000)]
    ran = refused = 0
    for line in lines:
        if ex._RAN_WORDS.search(line):
            ran += 1
            assert ex._may_say_ran(line), line
        if rules._REFUSAL.search(line):
            refused += 1
            assert rules._may_refuse(line), line
    assert ran > 1000 and refused > 100
    assert not ex._may_say_ran("install it with `pip install flask`")
    assert not rules._may_refuse("Error: ENOENT: no such file")


def test_grouped_stems_find_what_testing_every_stem_finds():
    rng = random.Random(29)
    lists = [*cues._GATES.values(), cues._CHOICE_REASON_STEMS]
    for stems in lists:
        groups = cues._grouped(stems)
        assert sorted(stem for _, members, _ in groups for stem in members) == sorted(stems)
        pieces = [stem[:rng.randint(1, len(stem))] for stem in stems] + list(stems) + [" ", "x", "the "]
        for _ in range(3000):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))
            assert cues._holds_stem(text, groups) == any(stem in text for stem in stems), text


def test_a_summary_memo_computes_once_stays_under_its_limit_and_forgets_with_every_other():
    calls = []
    answers = memo.SummaryMemo(limit=2)

    def compute(key: str) -> str:
        calls.append(key)
        return key.upper()

    assert [answers.of(key, compute) for key in ("a", "a", "b")] == ["A", "A", "B"] and calls == ["a", "b"]
    answers.of("c", compute)  # past the limit: it starts again rather than grow
    assert len(answers.known) == 1
    memo.forget_all()
    assert not answers.known and answers.of("a", compute) == "A" and calls == ["a", "b", "c", "a"]
