"""Failures the agent's prose states as facts after a run, when no tool output shows them (chat exports keep
only the replies): "The daemon is panicking because …", "기존 bootstrap_test.go에 컴파일 에러가 있습니다",
"看起来有一个编译错误，X类找不到", "エラーはファイルロック（EBUSY）で…".

A statement counts when three things hold: it has a failure word of its language (error, failure, panic,
not found, timeout…), it names what failed (code, a quoted message, a file, an identifier, a status number),
and it is said as what happened — not a guess, a plan, a condition, a question, a fix or a "no errors".
"""

import re

from . import cues
from . import extraction as ex

# Latin-script prose says a failure happened with a verb: "X is panicking", "X failed", "X does not compile",
# "there are 3 errors", "hit an assertion"; a bare "error" names a topic ("error handling", "what's broken").
_FAILURE_LATIN = re.compile(
    r"(?i)\b(?:(?:is|are|was|were|keeps?|still) (?:panicking|crashing|failing|erroring|timing out|hanging)"
    r"|panicked|crashed|failed|errored|timed out|(?:does not|doesn't|did not|didn't|won't|cannot|can't) (?:compile"
    r"|build|start|connect|resolve|load)|(?:not|\w+n['’]t) (?:found|defined|installed|permitted|recognized"
    r"|available)|no such"
    r"|\d+ (?:errors|failures|failed|failing)|there (?:is|are|was|were) (?:an? |\d+ |some |several )?(?:\w+ )?"
    r"(?:errors?|failures?|exceptions?)|(?:hit|hits|got|gets|getting|throws?|threw|raised?) (?:an? |the |another )?"
    r"(?:\w+ )?(?:errors?|exceptions?|panic|assertion)|falhou|falló|не удал\w*)\b")
_FAILURE_WIDE = re.compile(
    r"エラー|失敗|見つかりません|見つからない|存在しません|存在しない|落ちて|クラッシュ|タイムアウト|拒否"
    r"|错误|失败|找不到|不存在|报错|异常|超时|崩溃|无法|被拒绝"
    r"|에러|오류|실패|존재하지 않|찾을 수 없|타임아웃|죽고|죽었|잘못|차단|거부|충돌")
# What failed, named: code, a quoted message, a file, a dotted or underscored name, a CamelCase type, an
# HTTP status or a signal/exit number.
_NAMES = re.compile(r"`[^`\n]{2,}`|\"[^\"\n]{6,}\"|“[^”\n]{6,}”|'[^'\n]{6,}'|「[^」\n]{2,}」"
                    r"|\b[\w-]+\.[a-z]{1,5}\b|\b\w+_\w+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z]+[A-Z]\w*\b"
                    r"|\b[45]\d\d\b|\bstatus=\d+|\bexit(?: code)? \d+|\bSIG[A-Z]+\b|\bE[A-Z]{3,}\b")
# Said as something to do, a condition, a success, a fix or an absence, not as a failure that happened.
_NOT_A_FAILURE = re.compile(
    r"(?i)^(?:[-*•\d.)\s]*)(?:if|when|unless|once|whenever|to (?:avoid|prevent|handle|catch)|make sure|ensure|let me"
    r"|i'?ll|we'?ll|next|then|now (?:let|i)|please|try|add|added|update[sd]?|new|pass|handle|catch|check"
    r"|jika|kalau|apabila|si|wenn|если|se|quando|cuando"  # a condition in other languages
    r"|high|medium|low|critical|major|minor)\b"  # a review's finding, ranked: a comment on code, not a failure met
    r"|^[├└│┃]|\b(?:error messages?|error handling)\b"
    r"|\b(?:no|zero|0|without|any) (?:errors?|failures?|exceptions?)\b|\b(?:fix(?:ed|es)?|resolved?|solved"
    r"|handled?|catch(?:es)?|prevents?|avoids?|should|would|will|must|need to|want to|error handling"
    r"|passe[sd]|succeed(?:s|ed)?|successfully|works? now|now works?|is gone|no longer)\b"
    r"|エラーなし|エラーは(?:ありません|出ません|解消)|修正し|解決し|対処し|防ぐ|ように|成功し(?!ています（)"
    r"|没有错误|没有报错|已修复|修复了|已解决|解决了|避免|防止|处理|成功"
    r"|오류 없|에러 없|수정했|수정하겠|해결했|해결됨|고쳤|방지|처리|성공했|통과")
_TABLE_ROW = re.compile(r"^\s*\|")
# A line of code shown in the reply (numbered, or building or raising an error): the code's text, not a failure.
_CODE = re.compile(r"^\d{1,6}\s|\bthrow\b|\braise\b|\$\{|=>|\bnew \w*Error\(|console\.\w+\(")
# A statement stays one readable line.
STATEMENT_CHARS = 120


def may_report(prose: str) -> bool:
    """A cheap gate before reading a turn's sentences."""
    return bool(_FAILURE_LATIN.search(prose) if prose.isascii() else
                (_FAILURE_WIDE.search(prose) or _FAILURE_LATIN.search(prose)))


def states_failure(sentence: str) -> bool:
    """The sentence states, as a fact, that something named failed."""
    text = sentence.strip()
    if (len(text) < 12 or _TABLE_ROW.match(text) or _CODE.search(text) or ex.is_question(text)
            or text.endswith((":", "："))):
        return False
    if not (_FAILURE_LATIN.search(text) or (not text.isascii() and _FAILURE_WIDE.search(text))):
        return False
    return bool(_NAMES.search(text)) and not _NOT_A_FAILURE.search(text) and not cues.is_hedged(text)


def shortened(sentence: str) -> str:
    """The statement cut to STATEMENT_CHARS: what failed comes first; the why after it costs the word budget."""
    text = " ".join(sentence.split())
    return text if len(text) <= STATEMENT_CHARS else text[:STATEMENT_CHARS - 1].rstrip() + "…"
