"""The browser dev host: runs plugin folders through the runtime's host harness and draws them in a web page.

`agentty-plugin dev <plugin folder>…` starts it (see `cli.py`); `make demo` runs it on generated sample
data (see `sample_data.py`). The harness (`agentty_plugin.testing`) does the launching and keeps the
host's rules; this package adds a simulated Agentty window around it and a page that draws panels.
"""

DEFAULT_PORT = 8790
