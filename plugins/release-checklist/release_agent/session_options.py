"""The session's Mode config option (category "mode"): Check only or Release; Devin Desktop shows no session modes."""
from __future__ import annotations

from typing import List, Union

from acp import RequestError
from acp.schema import SessionConfigOptionBoolean, SessionConfigOptionSelect, SessionConfigSelectOption

MODE_OPTION_ID = "mode"
MODE_CHECK = "check"
MODE_RELEASE = "release"
DEFAULT_MODE = MODE_CHECK  # safe by default: nothing irreversible until the user picks Release

_CHOICES = (
    SessionConfigSelectOption(value=MODE_CHECK, name="Check only",
                              description="Runs the read-only checks; never tags, pushes or publishes."),
    SessionConfigSelectOption(value=MODE_RELEASE, name="Release",
                              description="Runs every step; asks before each irreversible one (tag, push)."),
)
MODES = tuple(choice.value for choice in _CHOICES)


ConfigOption = Union[SessionConfigOptionSelect, SessionConfigOptionBoolean]


def config_options(mode: str) -> List[ConfigOption]:
    """The complete option list (ACP wants all of it in every answer and update)."""
    return [SessionConfigOptionSelect(
        type="select", id=MODE_OPTION_ID, name="Mode", category="mode",
        description="What the release checklist agent may do in this session.",
        current_value=mode, options=list(_CHOICES),
    )]


def validated_mode(config_id: str, value: object) -> str:
    """The new mode, or a -32602 error naming what is accepted."""
    if config_id != MODE_OPTION_ID:
        raise RequestError.invalid_params({"configId": config_id,
                                           "reason": f"unknown option; the only one is {MODE_OPTION_ID!r}"})
    if not isinstance(value, str) or value not in MODES:
        raise RequestError.invalid_params({"value": value, "reason": f"mode must be one of {', '.join(MODES)}"})
    return value
