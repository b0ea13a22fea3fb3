"""`python -m agentty_devhost <plugin folder>…`: the same as `agentty-plugin dev`."""

import sys

from .cli import main

sys.exit(main())
