"""Answers worked out once per summary: one rule after another asks the same thing of the same text."""

from typing import Callable, Dict, Generic, Hashable, List, TypeVar

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")

_ALL: List["SummaryMemo"] = []  # type: ignore[type-arg]


class SummaryMemo(Generic[Key, Value]):
    """A dict of answers that summarize() empties at its start (forget_all), and that empties itself past
    `limit` entries, so calls outside a summary (tests, the LLM path) never make it grow without end."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.known: Dict[Key, Value] = {}
        _ALL.append(self)

    def of(self, key: Key, compute: Callable[[Key], Value]) -> Value:
        known = self.known.get(key)
        if known is None:
            if len(self.known) >= self.limit:
                self.known.clear()
            known = self.known[key] = compute(key)
        return known


def forget_all() -> None:
    """Start a summary with nothing remembered from the last one."""
    for memo in _ALL:
        memo.known.clear()
