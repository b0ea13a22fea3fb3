"""The summarizer on real transcripts: per-section recall of the facts a reader listed, and no trap claimed."""

import pytest
from corpus_loader import load_cases
from corpus_score import SECTIONS, score, section_items, trap_hits
from session_summarizer.local_summary import summarize
from session_summarizer.session import parse_session
from session_summarizer.worktree import check_files

CASES = load_cases()


def _summary(raw):
    return summarize(parse_session(raw), file_checker=lambda paths, cwd: check_files(paths, ""))


def test_the_corpus_covers_every_shape_it_claims():
    assert len(CASES) >= 8
    assert {case["format"] for case in CASES} >= {"aider", "specstory", "claude-code", "codex"}
    assert sum(1 for case in CASES if case["real"]) >= 6
    assert any(case["language"] != "en" for case in CASES)
    assert any(len(case["session"]["turns"]) > 150 for case in CASES)
    assert any(case.get("unresolved") for case in CASES)


def test_recall_meets_the_targets_and_no_trap_is_claimed():
    recall, traps, missed = score(_summary, CASES)
    assert traps == []
    assert recall["mean"] >= 0.85, (recall, missed)
    for section in SECTIONS:
        assert recall[section] >= 0.70, (section, recall, missed)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_each_transcript_keeps_its_traps_out(case):
    summary = _summary(case["session"])
    assert trap_hits(case, summary) == []
    assert set(section_items(summary)) == set(SECTIONS)
