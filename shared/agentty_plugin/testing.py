"""A host harness for tests: starts a plugin folder exactly as Agentty does and plays the host.

    with PluginHost("plugins/notes-search", world=World(...)) as host:
        host.open_panel()
        host.wait_for_panel(lambda tree: host.find(tree, "search.query"))
        host.type("search.query", "meeting")

It answers the plugin's calls from a configurable World (workspaces, panes, statuses, sessions),
filters context by the manifest's permissions, answers -32001/-32002/-32602 where the real host
would, and records every breach of the host's rules in `violations` (each a str with a `code` from
`world`, which tests match on). The simulated host itself is
`agentty_plugin.host` (its answers, as a table, in `_host_answers`); this module adds what a test
does: gestures on the panel's elements and waits for what the plugin sends.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List, Optional

from . import ui
from ._host_answers import METHOD_PERMISSIONS, NOTIFY_GAP, RATE_LIMIT
from .host import EVENT_TIMEOUT, SimulatedHost
from .world import HostCall, HostError, PaneSpec, Violation, WorkspaceSpec, World, filter_context

__all__ = [
    "METHOD_PERMISSIONS",
    "NOTIFY_GAP",
    "RATE_LIMIT",
    "HostCall",
    "HostError",
    "PaneSpec",
    "PluginHost",
    "Violation",
    "WorkspaceSpec",
    "World",
    "filter_context",
]


class PluginHost(SimulatedHost):
    """The simulated host, driven like a user would: clicks and typing on the panel, and waits for answers."""

    # ------------------------------------------------------------------ gestures on the panel

    def _require(self, element: str) -> Dict[str, Any]:
        node = self.find(self.panel, element) if self.panel else None
        if node is None:
            raise LookupError(f"no element {element!r} in the current panel")
        return node

    def click(self, element: str) -> None:
        node = self._require(element)
        if node.get("disabled"):
            raise LookupError(f"button {element!r} is disabled")
        self.event(element, "click")

    def type(self, element: str, text: str) -> None:
        """What Agentty sends when typing pauses: a `change` with the field's whole text."""
        self._require(element)
        self.event(element, "change", value=text)

    def submit(self, element: str, text: str) -> None:
        self._require(element)
        self.event(element, "submit", value=text)

    def select(self, element: str, item: str) -> None:
        self._require(element)
        self.event(element, "select", item=item)

    def row_action(self, element: str, item: str, action: str) -> None:
        self._require(element)
        self.event(element, "action", item=item, action=action)

    def choose(self, element: str, value: str) -> None:
        self._require(element)
        self.event(element, "change", value=value)

    def toggle(self, element: str, value: bool) -> None:
        self._require(element)
        self.event(element, "change", value=bool(value))

    def wait_for_panel(self, predicate: Callable[[Dict[str, Any]], Any] = bool, timeout: float = EVENT_TIMEOUT,
                       after: int = 0) -> Dict[str, Any]:
        """The newest panel (received after the first `after` panels) for which `predicate(tree)` is truthy."""

        def newest() -> Optional[Dict[str, Any]]:
            tree = self.panel
            return tree if tree is not None and len(self.panels) > after and predicate(tree) else None

        result: Dict[str, Any] = self.wait_for(newest, timeout, "a matching panel")
        return result

    def wait_for_text(self, text: str, timeout: float = EVENT_TIMEOUT) -> Dict[str, Any]:
        """The newest panel that shows `text` somewhere (as a substring of any visible string)."""
        return self.wait_for_panel(lambda tree: any(text in s for s in ui.texts(tree)), timeout)

    def wait_for_call(self, method: str, predicate: Callable[[HostCall], Any] = lambda _c: True,
                      timeout: float = EVENT_TIMEOUT, after: int = 0) -> HostCall:
        def match() -> Optional[HostCall]:
            for call in self.calls[after:]:
                if call.method == method and predicate(call):
                    return call
            return None

        result: HostCall = self.wait_for(match, timeout, f"a {method} call")
        return result

    def wait_idle(self, quiet: float = 0.3, timeout: float = EVENT_TIMEOUT) -> None:
        """Wait until the plugin has sent nothing for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                count = len(self.panels) + len(self.calls) + len(self.stderr_lines)
            time.sleep(quiet)
            with self._lock:
                if count == len(self.panels) + len(self.calls) + len(self.stderr_lines):
                    return
        raise TimeoutError("the plugin never went quiet")

    @staticmethod
    def find(tree: Any, element_id: str) -> Optional[Dict[str, Any]]:
        return ui.find(tree, element_id)

    @staticmethod
    def texts(tree: Any) -> List[str]:
        return ui.texts(tree)
