"""AgentWaiter on its own: idle twice (settled) starts the step once, a wake looks again, Stop starts nothing,
and an error ends the wait through on_error instead of a silent dead thread. Driven by events, no sleeps."""
from __future__ import annotations

import threading

from agentty_plugin import AgenttyError, Pane
from release_checklist.agent_wait import AgentWaiter

WORKING = Pane(id=11, kind="claude", status="working")


class Script:
    """busy() answers from a list (the last answer repeats); every call is counted."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.calls = 0
        self.looked = threading.Event()
        self.ready = threading.Event()
        self.settled = 0
        self.errors = []
        self.busy_seen = []
        self.told_busy = threading.Event()

    def busy(self):
        self.calls += 1
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        self.looked.set()
        if isinstance(answer, Exception):
            raise answer
        return answer

    def waiter(self):
        return AgentWaiter(self.busy, self.settle, self.ready.set, self.still_busy, self.errors.append,
                           poll_seconds=3600)

    def still_busy(self, panes):
        self.busy_seen.append(panes)
        self.told_busy.set()

    def settle(self):
        self.settled += 1


def test_idle_twice_across_the_settle_starts_the_step():
    script = Script([WORKING], [], [])
    waiter = script.waiter()
    waiter.start()
    assert script.told_busy.wait(10)
    assert script.busy_seen == [[WORKING]] and not script.ready.is_set()
    waiter.wake()  # the host said a status changed
    assert script.ready.wait(10)
    assert script.settled == 1 and waiter.stopped.is_set() and script.errors == []


def test_busy_again_after_the_settle_keeps_waiting():
    script = Script([], [WORKING], [WORKING])
    waiter = script.waiter()
    waiter.start()
    assert script.told_busy.wait(10)  # idle, settled, busy again: said so, and waits for the next wake
    assert not script.ready.is_set() and script.settled == 1 and script.busy_seen == [[WORKING]]
    waiter.stop()
    waiter._thread.join(10)
    assert not script.ready.is_set()


def test_a_host_that_does_not_answer_is_not_idle_and_an_error_ends_the_wait():
    script = Script(AgenttyError("no answer"), RuntimeError("broken"))
    waiter = script.waiter()
    waiter.start()
    assert script.looked.wait(10)
    waiter.wake()
    waiter._thread.join(10)
    assert [str(error) for error in script.errors] == ["broken"] and not script.ready.is_set()
