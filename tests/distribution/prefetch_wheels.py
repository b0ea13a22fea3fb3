"""Setup step (make venv): fetch every plugin's pinned wheels into dist/.wheels, so the tests bundle offline."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from agentty_plugin.distribution.requirements import read_requirements
from agentty_plugin.distribution.wheels import fetch_wheels
from distribution_helpers import WHEEL_CACHE, real_plugin_folders


def main() -> int:
    for folder in real_plugin_folders():
        fetch_wheels(read_requirements(folder), WHEEL_CACHE)  # the cache first; pip only for what it lacks
    return 0


if __name__ == "__main__":
    sys.exit(main())
