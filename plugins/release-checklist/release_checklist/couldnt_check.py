"""Tell "the check could not run" from "the check failed": offline, a missing program, a built-in's exit 3.

A release must never count an unanswered question as passed, nor blame the project for a tool
that is not installed; such results become "couldn't check", with the reason in one line.
"""
from __future__ import annotations

import dataclasses
import re

from .command_runner import BUILTIN_COMMAND, CommandResult, Outcome
from .steps import Step

# Outcomes that say nothing about the release itself: the check could not find out.
UNKNOWN_OUTCOMES = (Outcome.UNKNOWN, Outcome.TIMEOUT, Outcome.NOT_FOUND)
COULDNT_CHECK_EXIT = 3  # what a built-in check exits with when it could not find out
SHELL_NOT_FOUND_EXIT = 127  # what a shell (npm scripts, make recipes) exits with for a missing program
_OFFLINE = re.compile(r"(?i)could not resolve host|temporary failure in name resolution|network is unreachable|"
                      r"getaddrinfo (?:EAI_AGAIN|ENOTFOUND)|name or service not known|failed to resolve address")
_MAKE_127 = re.compile(r"^(?:g?make|just)(?:\[\d+\])?: \*\*\* .*Error 127$")


def couldnt_check(step: Step, result: CommandResult) -> CommandResult:
    """result, or the same result as "couldn't check" (Outcome.UNKNOWN) with the reason as its message."""
    builtin = (step.command or "").lstrip().startswith(BUILTIN_COMMAND + " ")
    if builtin and result.outcome == Outcome.FAILED and result.exit_code == COULDNT_CHECK_EXIT:
        reason = result.lines[-1].strip() if result.lines else "no answer"
        return dataclasses.replace(result, outcome=Outcome.UNKNOWN, message=reason)
    # `npm test` in a fresh clone of np: "sh: 1: xo: not found" (exit 127); cobra's `make test` without
    # Go: "make: go: No such file or directory", "make: *** [Makefile:32: install_deps] Error 127".
    # The tests never ran.
    make_127 = any(_MAKE_127.search(line) for line in result.lines[-5:])
    if result.outcome == Outcome.FAILED and (result.exit_code == SHELL_NOT_FOUND_EXIT or make_127):
        said = next((line.strip() for line in reversed(result.lines)
                     if "not found" in line.lower() or "no such file or directory" in line.lower()), "")
        reason = f"{said} (exit code 127: a program it needs is not installed)" if said else \
            "exit code 127: a program it needs is not installed"
        return dataclasses.replace(result, outcome=Outcome.UNKNOWN, message=reason)
    # Offline: cargo's "Could not resolve host: index.crates.io", pip's and npm's alike. Nothing was tested.
    offline = next((line.strip() for line in reversed(result.lines[-30:]) if _OFFLINE.search(line)), None)
    if result.outcome == Outcome.FAILED and offline:
        return dataclasses.replace(result, outcome=Outcome.UNKNOWN, message=f"no network: {offline}")
    return result
