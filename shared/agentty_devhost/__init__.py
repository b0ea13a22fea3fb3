"""The browser dev host: runs plugin folders through the runtime's simulated host and draws them in a web page.

`agentty-plugin dev <plugin folder>…` starts it (see `cli.py`); `make demo` runs it on generated sample
data (see `sample_data.py`). The simulated host (`agentty_plugin.host`, the same one the test harness
drives) does the launching and keeps the host's rules; this package adds an editable Agentty window
around it and a page that draws panels.
"""

DEFAULT_PORT = 8790
