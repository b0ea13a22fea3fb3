"""release-checklist: the focused repository's own release checklist, checked step by step, carried by agents."""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _extra in (os.path.join(_HERE, "_vendor"), os.path.join(_HERE, "..", "..", "shared")):
    if os.path.isdir(_extra) and _extra not in sys.path:
        sys.path.insert(0, _extra)

from agentty_plugin import CommandCall, Context, Plugin, UIEvent  # noqa: E402
from release_checklist.controller import ReleasePanel  # noqa: E402
from release_checklist.release_session import SessionBusy  # noqa: E402

plugin = Plugin()
panel = ReleasePanel(plugin)  # all behaviour lives in release_checklist/controller.py


@plugin.on_panel_open
def opened(context: Context) -> None:
    panel.panel_open = True
    if context.cwd != panel.view.folder or panel.session is None:
        panel.load(context.cwd)
    else:
        panel.draw()


@plugin.on_panel_close
def closed(_context: Context) -> None:
    panel.panel_open = False


@plugin.on_context_change
def focus_moved(context: Context) -> None:
    panel.follow(context.cwd)  # the release follows the focused pane's repository


@plugin.on_any_event
def clicked(event: UIEvent, context: Context) -> None:
    try:
        route(event, context)
    except SessionBusy:
        plugin.notify(panel.t("busy"), "warning")
    except KeyError:  # a click on a step the checklist no longer has: show the current checklist
        pass
    panel.draw()


def route(event: UIEvent, context: Context) -> None:
    """Send one panel event to the controller."""
    element, value = event.element, event.value
    if element in ("release.version", "skip.reason") and event.event == "change":
        panel.typed[element] = str(value or "")  # kept until the button next to it is pressed
    elif element == "release.steps" and event.event == "action" and event.item and event.action:
        panel.do_step(event.item, event.action)
    elif element == "release.steps" and event.item:
        panel.select(event.item)
    elif element == "release.version":
        panel.apply_version(str(value or ""))
    elif element == "release.version-apply":
        panel.apply_version(panel.typed.get("release.version", ""))
    elif element == "release.run-all":
        panel.run_all()
    elif element == "release.stop":
        panel.stop()
    elif element == "release.refresh":
        panel.reload(context.cwd)
    elif element == "release.enter":
        panel.view.press_enter = bool(value)
    elif element == "release.reset":
        panel.view.confirm_reset = True
    elif element in ("reset.yes", "reset.no"):
        panel.reset_release(element == "reset.yes")
    elif element in ("confirm.yes", "confirm.no"):
        panel.confirm(element == "confirm.yes")
    elif element == "skip.confirm":
        panel.skip(str(value or panel.typed.get("skip.reason", "")))
    elif element == "skip.reason" and event.event == "submit":
        panel.skip(str(value or ""))
    elif element == "skip.cancel":
        panel.view.skipping = None
    elif element in ("output.retry", "output.fix", "output.skip") and panel.view.selected:
        panel.do_step(panel.view.selected, element.split(".", 1)[1])
    elif element == "release.history" and event.item:
        panel.apply_version(event.item)
    elif element == "checklist.write":
        panel.write_checklist()
    elif element == "checklist.reveal":
        panel.reveal_checklist()


def ensure_loaded(context: Context) -> None:
    if panel.session is None:
        panel.load(context.cwd)


@plugin.command("release-checklist.open")
def open_command(call: CommandCall) -> None:
    plugin.show_panel()


@plugin.command("release-checklist.run-checks")
def run_checks_command(call: CommandCall) -> None:
    ensure_loaded(call.context)
    plugin.show_panel()
    panel.run_all()


@plugin.command("release-checklist.stop")
def stop_command(call: CommandCall) -> None:
    panel.stop()


@plugin.command("release-checklist.write-default")
def write_command(call: CommandCall) -> None:
    ensure_loaded(call.context)
    panel.write_checklist()


@plugin.on_shutdown
def bye() -> None:
    panel.stop(immediately=True)  # never leave a check's process tree behind


if __name__ == "__main__":
    plugin.run()
