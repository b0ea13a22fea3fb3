"""A probe for the distribution tests: shows where its runtime and its vendored package were loaded from."""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _extra in (os.path.join(_HERE, "_vendor"), os.path.join(_HERE, "..", "..", "shared")):
    if os.path.isdir(_extra) and _extra not in sys.path:
        sys.path.insert(0, _extra)

import agentty_plugin  # noqa: E402
from agentty_plugin import Plugin, ui  # noqa: E402
from dist_probe.report import describe  # noqa: E402

plugin = Plugin()


def render(greeting: str = "") -> None:
    plugin.set_panel(ui.column([
        ui.text("python " + ".".join(str(n) for n in sys.version_info[:3]), "small"),
        ui.text("runtime " + os.path.dirname(agentty_plugin.__file__), "small"),
        ui.button("probe.greet", "Greet", variant="primary"),
        ui.text(greeting or "-", "body"),
    ]))


@plugin.on_panel_open
def panel_open(context):
    render()


@plugin.on_event("probe.greet")
def greet(event, context):
    import tinydep  # lazily, as plugins import their heavy packages

    render(describe(tinydep.greet("agentty"), tinydep.__file__))


@plugin.command("dist-probe.greet")
def greet_command(call):
    greet(None, call.context)


if __name__ == "__main__":
    plugin.run()
