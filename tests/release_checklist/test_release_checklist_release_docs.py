"""A repository's own release document read as steps: never an exception, and adopting it always writes a
RELEASE_CHECKLIST.md that reads back to the same steps."""
from __future__ import annotations

import dataclasses

from hypothesis import example, given, settings
from hypothesis import strategies as st
from release_checklist.checklist_file import format_checklist, parse_checklist
from release_checklist.release_docs import read_release_doc

_PIECES = [*"abc XY:.`#{}$<>!?-_*\\", "Run ", "`make test`", "{VERSION}", "${tag}", "#manual"]
_lines = st.lists(st.one_of(
    st.sampled_from(["# Release", "## Steps", "## Compatibility", "", "```", "  ```", "<!--", "-->", "Prose."]),
    st.builds(lambda marker, text: f"{marker} {text}",
              st.sampled_from(["-", "*", "+", "1.", "2)", "  -", "    *", "7a.", "- [ ]", "- [x]"]),
              st.lists(st.sampled_from(_PIECES), max_size=12).map("".join)),
), max_size=25).map("\n".join)


def adopted_text(spec):
    steps = tuple(dataclasses.replace(step, command=" ".join(step.command.split()) if step.command else None)
                  for step in spec.steps)
    return format_checklist(dataclasses.replace(spec, steps=steps))


@settings(max_examples=300, deadline=None)
@given(_lines)
@example("* Run `git push origin {VERSION}`.\n* Tag: `git tag -a v{VERSION}` #terminal\n* Title with # and `x`")
@example("7a. ${tag}:{{VERSION}\\>*b\n- {VERSION}{? cY{VERSION}Yb{#manual!")  # found by this test: {{VERSION}
def test_any_release_document_reads_and_adopts_back_the_same(text):
    spec = read_release_doc(text, "RELEASING.md")
    if spec is None:
        return
    back = parse_checklist(adopted_text(spec))
    assert [(step.id, step.kind, step.irreversible) for step in back.steps] == [
        (step.id, step.kind, step.irreversible) for step in spec.steps]
    assert [step.title for step in back.steps] == [step.title for step in spec.steps]
