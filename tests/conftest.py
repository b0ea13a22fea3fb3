"""Hypothesis runs the same examples on every `make test` (profile "ci"); `make fuzz` draws new ones ("fuzz").

Loaded before any test module, so every @settings in the suite inherits the chosen profile.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

# No deadline in either profile: an example's run time depends on the machine's load, not on the code.
settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "fuzz", derandomize=False, deadline=None, print_blob=True, max_examples=500,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
