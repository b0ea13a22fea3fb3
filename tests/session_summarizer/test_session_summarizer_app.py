"""The app's handling of host errors from session/get, with a stand-in for the runtime's Plugin."""

import threading

import pytest
from agentty_plugin import AgenttyError, Context
from agentty_plugin.errors import INTERNAL_ERROR, INVALID_PARAMS, PERMISSION_DENIED, TIMED_OUT, UNAVAILABLE
from session_summarizer.app import App


class _Host:
    """Just enough of agentty_plugin.Plugin: a context, session/get answers, recorded panels."""

    def __init__(self, error=None, session=None):
        self.context = Context.from_wire({"language": "en", "workspace": {"id": 1, "cwd": "/nowhere"},
                                          "pane": {"id": 11, "kind": "claude", "status": "idle"}})
        self.language = "en"
        self.error = error
        self.session = session
        self.panels = []
        self.done = threading.Event()

    def get_session(self, pane_id=None, max_turns=None):
        assert (pane_id, max_turns) == (11, 2000)
        if self.error:
            raise self.error
        return self.session

    def set_panel(self, tree):
        self.panels.append(tree)

    def list_workspaces(self):
        self.done.set()  # the summary thread refreshes panes last
        return []

    def notify(self, *args):
        pass

    def log(self, *args):
        pass


@pytest.mark.parametrize(("code", "expected"), [
    (PERMISSION_DENIED, "did not allow reading this session"),
    (UNAVAILABLE, "no session yet"),
    (INVALID_PARAMS, "That pane is gone"),
    (TIMED_OUT, "did not send the session in time"),
    (INTERNAL_ERROR, "Agentty could not return the session: boom"),
])
def test_session_errors_become_clear_messages(tmp_path, code, expected):
    host = _Host(error=AgenttyError("boom", code))
    app = App(host)
    app.activate(str(tmp_path))
    app.summarize(use_llm=False)
    assert host.done.wait(10)
    assert expected in app.state.message and app.state.busy == "" and app.state.summary is None and app.shown is None


def test_a_failure_inside_the_summarizer_never_leaves_the_panel_spinning(tmp_path, monkeypatch):
    import session_summarizer.local_summary as local_summary  # the app loads it when a summary is asked for

    def broken(session):
        raise RuntimeError("bug")

    monkeypatch.setattr(local_summary, "summarize", broken)
    host = _Host(session={"turns": [{"role": "user", "text": "fix the parser"}]})
    app = App(host)
    app.activate(str(tmp_path))
    app.summarize(use_llm=False)
    assert host.done.wait(10)
    assert app.state.busy == "" and app.state.message.startswith("Summarizing failed: RuntimeError")
    assert app.state.message_tone == "error"


def test_a_runs_message_is_drawn_with_the_end_of_the_run(tmp_path):
    """No panel shows a run's outcome beside a Summarize button that is still disabled: the message and the
    end of the run are one update (a click on the disabled button would be lost)."""
    from agentty_plugin import ui
    from session_summarizer import ids

    host = _Host(session={"turns": []})
    app = App(host)
    app.activate(str(tmp_path))
    app.summarize(use_llm=False)
    assert host.done.wait(10)
    with app.lock:  # the run has finished drawing
        panels = list(host.panels)
    with_message = [tree for tree in panels if any("no turns yet" in text for text in ui.texts(tree))]
    assert with_message and all(ui.find(tree, ids.SUMMARIZE)["disabled"] is False for tree in with_message)
