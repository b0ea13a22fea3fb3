"""Errors the agent's own prose reports: a failure told as an event ("the push failed because no credentials
were set", "Copilot failed to get ready") and an error message quoted inline (`fatal: pathspec 'x' did not
match any files`). Conditions, guesses and plans name errors that did not happen: they are left out.
"""

import re

from . import cues
from . import extraction as ex

# A failure that happened, with what failed to happen or why: "X failed to start", "the tests are failing
# because…", "the commit did not go through", "the push was rejected". (en, ja, zh, ko)
_FAILURE_EVENT = re.compile(
    r"(?i)\b(?:failed|fails) to (?!be\b)\w+|\b(?:failed|fails|failing) (?:because|due to|since)\b"
    r"|\b(?:did not|didn't|does not|doesn't) go through\b|\b(?:was|were|got) (?:rejected|refused|blocked|denied)\b"
    r"|\bcannot \w+(?: \w+){0,3} while in [\w-]+ mode\b"
    r"|(?:に|で)失敗(?:しました|した|しています)|通りませんでした|拒否されました"
    r"|(?:因为|由于)[^。]{0,40}(?:失败|报错)|失败了|被拒绝"
    r"|(?:때문에|으로 인해)[^.]{0,40}(?:실패|오류)|거부되었|실패했")
_GATE = re.compile(r"(?i)fail|go through|rejected|refused|blocked|denied|mode|失敗|通りません|拒否|失败|拒绝|실패|거부")
# What the agent plans, supposes or sets as a condition is not a failure that happened.
_NOT_HAPPENED = re.compile(
    r"(?i)^(?:[-*•\d.)\s]*)(?:if|when|unless|in case|once|whenever|to avoid|to prevent|so that|make sure|ensure"
    r"|just|please|reply|fix|try|retry|add|update|change|run|use"
    r"|if you|should|would|let me|i'?ll|we'?ll|next|then|also)\b|\b(?:might|may|could|would|if (?:it|this|that|the))\b"
    r"|もし|場合は|如果|的话|만약|경우에는"
    # The agent owning a shortcoming ("I failed to fully grasp the rule") apologises; no error line was printed.
    r"|\bI (?:have |had )?failed to\b")

# An error message quoted inline: a type with its message, a tool's "fatal:"/"error:" line, an errno.
_QUOTED = re.compile(r"`([^`\n]{12,200})`|“([^”\n]{12,200})”|\"([^\"\n]{12,200})\"")
_CODE = re.compile(r"\$\{|\\n|[{};]\s*$|^\s*(?:console|print|raise|throw|except|catch|return|log)\b")


def may_report(prose: str) -> bool:
    """A cheap gate before reading a turn's sentences."""
    return bool(_GATE.search(prose))


def reports_failure(sentence: str) -> bool:
    """The sentence tells a failure that happened (not a plan, a condition or a guess)."""
    return (bool(_FAILURE_EVENT.search(sentence)) and not _NOT_HAPPENED.search(sentence)
            and not cues.is_hedged(sentence) and not ex.is_question(sentence))


def quoted_error(sentence: str) -> str:
    """The error message the sentence quotes ("" when it quotes none, or is a condition or a guess)."""
    if "`" not in sentence and '"' not in sentence and "“" not in sentence:
        return ""
    for found in _QUOTED.finditer(sentence):
        span = next(group for group in found.groups() if group).strip()
        # A message says what went wrong in words: a bare type name ("`ModuleNotFoundError`") names a kind.
        if " " in span and ex.is_error_line(span) and not _CODE.search(span):
            return "" if _NOT_HAPPENED.search(sentence) or cues.is_hedged(sentence) else span
    return ""


# "It failed with the same error even after clamping": the error was told before; this adds no telling line.
_SAME_AGAIN = re.compile(r"(?i)\bsame (?:error|issue|problem|failure|exception)s?\b"
                         r"|同じエラー|同じ問題|同样的错误|相同的错误|同样的问题"
                         r"|같은 (?:오류|에러|문제)|동일한 (?:오류|에러)")
_NAMES_ONE = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|`[^`]{6,}`")


def repeats_earlier(sentence: str) -> bool:
    """The sentence only says an error told before happened again."""
    return bool(_SAME_AGAIN.search(sentence)) and not _NAMES_ONE.search(sentence)
