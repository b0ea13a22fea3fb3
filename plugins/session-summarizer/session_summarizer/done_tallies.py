"""The tally a test runner printed last in a phase ("Tests  2 failed | 10 passed (12)", "== 3 failed, 42 passed
in 1.2s ==", "Tests: 1 failed, 9 passed, 10 total", "test result: ok. 12 passed; 0 failed") says where that
phase's tests ended up, passing or not: a reviewer reports it with the work."""

import re
from typing import Optional, Sequence

from .formats import RUN, Call

# A line of runner output that counts passed tests, with failures when there were any.
_TALLY = re.compile(
    r"(?i)^\W*(?:tests?:?\s+|test result:\s*\w+\.\s*)?((?:\d+ (?:failed|errors?)\s*[|,;]\s*)?\d+ passed"
    r"(?:\s*[|,;]\s*\d+ (?:failed|skipped|errors?|total|ignored|warnings?))*(?:\s*\(\d+\))?)")
_GATE = ("passed", "PASSED", "Passed")


def last_tally(calls: Sequence[Call]) -> Optional[str]:
    """The last test tally the reply's commands printed ("2 failed | 10 passed (12)"), or None."""
    tally = None
    for call in calls:
        if call.kind != RUN or not any(any(gate in line for gate in _GATE) for line in call.output[-40:]):
            continue
        for line in call.output[-40:]:  # runners print their tally at the end
            found = _TALLY.match(line.strip())
            if found:
                tally = " ".join(found.group(1).split())
    return tally
