"""`make test` replays the same property-test examples on every run; only `make fuzz` draws new ones."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

drawn = []


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci", reason="make fuzz draws random examples")
def test_the_suite_runs_hypothesis_derandomized_without_deadlines():
    assert settings.default.derandomize is True
    assert settings.default.deadline is None  # a loaded machine must not turn a slow example into a failure
    assert settings.default.database is None


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci", reason="make fuzz draws random examples")
def test_two_runs_of_a_property_draw_the_same_examples():
    @settings(max_examples=20)
    @given(st.text())
    def record(value):
        drawn.append(value)

    record()
    first = list(drawn)
    drawn.clear()
    record()
    assert drawn == first and len(first) > 1
