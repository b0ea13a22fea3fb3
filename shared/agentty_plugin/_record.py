"""A tiny read-only record base: named fields, equality and a readable repr, without importing dataclasses.

Start-up time matters (Agentty starts a plugin when its panel opens), and `dataclasses` pulls in
`inspect` and friends; these few value types do not need more than this.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Tuple


class Record:
    """Fields are listed in `_fields`; the first `_hidden` in `_hidden_fields` stay out of repr and equality."""

    __slots__: Tuple[str, ...] = ()
    _fields: Tuple[str, ...] = ()
    _hidden_fields: Tuple[str, ...] = ()

    def _values(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields if name not in self._hidden_fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()  # type: ignore[attr-defined,unused-ignore]

    def __hash__(self) -> int:
        try:
            return hash((type(self).__name__, self._values()))
        except TypeError:
            return id(self)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields if name not in self._hidden_fields)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(self, name):
            raise AttributeError(f"{type(self).__name__}.{name} is read-only")
        object.__setattr__(self, name, value)
