"""Checklist file format: steps, tags, placeholders, exact error positions and a write/read round trip."""
from __future__ import annotations

import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from release_checklist.checklist_file import (
    ChecklistParseError,
    ChecklistSpec,
    fill_placeholders,
    format_checklist,
    parse_checklist,
)
from release_checklist.steps import Step, StepKind

EXAMPLE = """# Release checklist for demo

Tag format: `release-{version}`
Release branch: `stable`

Some prose. - not a step

- [ ] Working tree is clean: `release-check clean-tree`
- [x] Tests pass: `python3 -m pytest -q` #timeout=15m
* [ ] Update `CHANGELOG.md` by hand
- [ ] Push the tag: `git push origin {tag} && echo ok` #terminal #irreversible #enter
- [ ] Release notes: `Draft release notes for {version}.` #agent
- [ ] Announce it #manual

```
- [ ] not a step: inside a code block
```
<!--
- [ ] not a step: inside a comment
-->
"""


def test_parses_steps_kinds_and_settings():
    spec = parse_checklist(EXAMPLE)
    assert spec.title == "Release checklist for demo"
    assert spec.tag_format == "release-{version}"
    assert spec.release_branch == "stable"
    assert [(step.id, step.kind) for step in spec.steps] == [
        ("working-tree-is-clean", StepKind.CHECK),
        ("tests-pass", StepKind.CHECK),
        ("update-changelog-md-by-hand", StepKind.MANUAL),
        ("push-the-tag", StepKind.TERMINAL),
        ("release-notes", StepKind.AGENT),
        ("announce-it", StepKind.MANUAL),
    ]
    tests, changelog, push = spec.steps[1], spec.steps[2], spec.steps[3]
    assert tests.command == "python3 -m pytest -q" and tests.timeout == 900 and tests.line == 9
    assert changelog.title == "Update `CHANGELOG.md` by hand" and changelog.command is None
    # Shell syntax is fine for a step typed into the user's own terminal.
    assert push.command == "git push origin {tag} && echo ok"
    assert push.irreversible and push.press_enter


@pytest.mark.parametrize(("text", "line", "column", "code"), [
    ("- [ ] Tests: `pytest -q\n", 1, 14, "unclosed-code"),
    ("# T\n\n- [ ] Tests: `pytest` #chek\n", 3, 23, "unknown-tag"),
    ("- [ ] Ok: `true`\n- [ ] Tag: `git tag v{verison}` #terminal\n", 2, 22, "unknown-placeholder"),
    ("- [ ] Tests pass #check\n", 1, 17, "needs-command"),
    ("- [ ] Tests: `pytest` #timeout=soon\n", 1, 23, "bad-timeout"),
    ("- [ ] Both: `x` #check #terminal\n", 1, 24, "two-kinds"),
    ("- [ ] Chain: `npm ci && npm test`\n", 1, 22, "shell-operator"),
    ("- [ ] Quote: `echo \"hi`\n", 1, 15, "bad-quotes"),
    ("- [] Forgot the space\n", 1, 1, "bad-task-marker"),
    ("  -[ ] No space after the dash\n", 1, 3, "bad-task-marker"),
    ("Tag format: `release`\n- [ ] a\n", 1, 13, "bad-tag-format"),
    ("# Only a title\n\nNo steps here.\n", 1, 1, "no-steps"),
    ("- [ ]  #manual\n", 1, 7, "empty-title"),
])
def test_errors_point_at_line_and_column(text, line, column, code):
    with pytest.raises(ChecklistParseError) as caught:
        parse_checklist(text, path="RELEASE_CHECKLIST.md")
    problem = caught.value.problems[0]
    assert (problem.line, problem.column, problem.code) == (line, column, code), problem
    assert f"line {line}, column {column}" in str(caught.value)
    assert str(caught.value).startswith("RELEASE_CHECKLIST.md: ")


def test_every_problem_is_reported_at_once():
    text = "- [ ] a: `x` #nope\n- [ ] fine: `true`\n- [ ] b #checkk\n"
    with pytest.raises(ChecklistParseError) as caught:
        parse_checklist(text)
    assert [(p.line, p.code) for p in caught.value.problems] == [(1, "unknown-tag"), (3, "unknown-tag")]
    assert caught.value.problems[1].details["suggestion"] == "check"


def test_titles_can_hold_numbers_escapes_and_colons():
    spec = parse_checklist("- [ ] Fix issue #12: see notes\n- [ ] Close \\#bugs: `gh issue list`\n")
    assert spec.steps[0].title == "Fix issue #12: see notes" and spec.steps[0].kind == StepKind.MANUAL
    assert spec.steps[1].title == "Close #bugs" and spec.steps[1].command == "gh issue list"


def test_duplicate_and_non_ascii_titles_get_stable_distinct_ids():
    spec = parse_checklist("- [ ] Lint\n- [ ] Lint\n- [ ] テストが通る\n- [ ] Tag {tag}\n")
    assert [step.id for step in spec.steps] == ["lint", "lint-2", "step-3", "tag"]


def test_fill_placeholders_keeps_escaped_braces():
    values = {"version": "1.2.0", "tag": "v1.2.0"}
    assert fill_placeholders("git tag {tag} -m {{version}} {version}", values) == "git tag v1.2.0 -m {version} 1.2.0"
    assert fill_placeholders("python -c 'print({})'", values) == "python -c 'print({})'"


_title_chars = string.ascii_letters + string.digits + " -_.,:#`'\"()!?/éü日本"
_titles = st.text(_title_chars, min_size=1, max_size=40).map(str.strip).filter(
    lambda title: bool(title) and not title.startswith(("#", "`")) and "{" not in title)
_command_chars = string.ascii_letters + string.digits + " -_./=`'"
_commands = st.text(_command_chars, min_size=1, max_size=30).map(str.strip).filter(bool)


@st.composite
def _steps(draw):
    kind = draw(st.sampled_from(StepKind.ALL))
    command = draw(_commands) if kind in (StepKind.CHECK, StepKind.TERMINAL) else draw(st.none() | _commands)
    if kind == StepKind.CHECK:
        command = command.replace("'", "")  # a check command must split cleanly
        command = command or "true"
    return Step("", draw(_titles), kind, command, draw(st.booleans()),
                draw(st.none() | st.integers(1, 86400).map(float)),
                draw(st.booleans()) if kind == StepKind.TERMINAL else False)


@settings(max_examples=150, deadline=None)
@given(st.lists(_steps(), min_size=1, max_size=6))
@example([Step("", "A", StepKind.CHECK, "0 ")])  # found once in a fresh clone (issue 17): read back as '0'
def test_written_checklists_read_back_the_same(steps):
    text = format_checklist(ChecklistSpec(tuple(steps), "Release", "v{version}", "main"))
    parsed = parse_checklist(text)
    assert parsed.tag_format == "v{version}" and parsed.release_branch == "main"
    for written, read in zip(steps, parsed.steps):
        assert (read.title, read.kind, read.command, read.irreversible, read.timeout, read.press_enter) == (
            written.title, written.kind, written.command or None, written.irreversible, written.timeout,
            written.press_enter)


def test_a_command_with_surrounding_spaces_reads_back_as_written():
    for command in ("0 ", " make test", "  x  "):
        text = format_checklist(ChecklistSpec((Step("", "Step", StepKind.TERMINAL, command),)))
        assert parse_checklist(text).steps[0].command == command
    assert parse_checklist("- [ ] Tests: `make test`\n").steps[0].command == "make test"
    assert parse_checklist("- [ ] Tests: ` make test `\n").steps[0].command == "make test"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_either_parses_or_names_a_line_inside_it(text):
    try:
        parse_checklist(text)
    except ChecklistParseError as error:
        line_count = max(1, len(text.splitlines()))
        for problem in error.problems:
            assert 1 <= problem.line <= line_count
            assert problem.column >= 1
