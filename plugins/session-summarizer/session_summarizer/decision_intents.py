"""The agent commits to a way of building and says why in the same sentence: "I'll start a local static
server to avoid Chrome's file:// module rules", "The script is missing, so I'll write the spec by hand",
"…불안정하므로 폴백 로직을 추가하겠습니다", "因为…，我们将改用…", "…ため、既存コードは変更せずに進めます".

Read from who speaks (the agent in the first person, or a verb ending that commits in Japanese and
Korean), a verb that shapes the work (not one that only looks: check, read, verify) and a reason clause;
never from the wording of one transcript.
"""

import re

from . import cues, decision_cues

# The agent's own commitment, at the start of the sentence or after the clause it follows from
# ("…, so I'll …", "…; next I'm …"): the verb is a way of building, not of looking.
_BUILD_VERBS = (
    r"(?:use|create|add|switch|start|serve|move|put|replace|change|pin|keep|remove|drop|store|write|generate"
    r"|vendor|build|make|set|convert|wrap|split|cap|limit|skip|leave|return|handle|render|fall back|install|host"
    r"|deploy|rename|extract|inline|hard-?code|default|rewrite|restructure|refactor|simplify|disable|enable"
    r"|delete|revert|go with|stick with|insert|append|prepend|cache|persist|save|route|proxy|embed|bundle|copy"
    r"|commit|amend|mock|guard|throw|raise|ignore|defer|postpone|quarantine|wire|tag|lower|bump|reuse"
    r"|implement|introduce|separate|merge|push|patch|fix|load|call|pass|read (?:it|them) from"
    r"|point|map|register|expose|hide|show|sort|filter|prefer|pick|choose|apply|adopt|migrate|stream)"
    r"(?:s|es|ed|d|ing)?")
_INTENT_LATIN = re.compile(
    r"(?:^|[,;:—–]\s*(?:so|then|and|next|now)?,?\s*|\b(?:so|then|next|now|therefore|instead),?\s+)"
    r"(?:i|we)(?:'ll| will|'m going to| am going to|'re going to| are going to| decided to| chose to| opted to"
    r"|'m| am|'re| are|'ve| have)?\s+(?:also\s+|now\s+|just\s+|instead\s+|only\s+|simply\s+|then\s+)?"
    + _BUILD_VERBS + r"\b"
    r"|^let'?s (?:also |just |instead |now )?" + _BUILD_VERBS + r"\b"
    r"|^(?:voy a|vamos a|vou|vamos) \w+")
_INTENT_STEMS = ("i'll", "i will", "i'm", "i am", "we'll", "we will", "we're", "we are", "i've", "we've",
                 "i have", "we have", "let's", "lets", "i decided", "we decided", "i chose", "we chose", "i opted",
                 "voy a", "vamos", "vou ")

# Japanese and Korean commit by the verb's ending; Chinese by "we/I" and a modal at the start.
_INTENT_WIDE = re.compile(
    r"(?:し|いたし|にし|ていき|ことにし|を使い|に変更し|を採用し)ます[。：:！!]?\s*$|しましょう[。：:！!]?\s*$"
    r"|(?:하겠습니다|하기로 했습니다|하기로 합니다|합시다|할게요|하겠어요)[.:：!]?\s*$"
    r"|(?:^(?:[-*•]\s*)?|[，,；;：:]\s*)(?:我们?|咱们)(?:将|会|就|来|先|应该|决定|打算|改|直接)|^(?:[-*•]\s*)?(?:让我们|我来)")
# Looking, not building (checking, reading, analysing), and running a step again: a retry or a command
# run once more decides nothing.
_LOOK_WIDE = re.compile(r"確認|調査|検索|読み|読んで|見て|チェック|分析|調べ|特定|検証|もう一度|再度|再実行|実行"
                        r"|확인|살펴|검토|조사|읽|찾아|분석|검색|파악|다시|실행"
                        r"|检查|查看|确认|分析|看看|阅读|搜索|了解|调查|定位|排查|验证|再次|重新|执行|运行")


def may_hold(prose: str) -> bool:
    """Cheap test over a whole turn: could one of its sentences commit the agent to a way, with its reason?"""
    if not prose.isascii():
        return True
    lowered = prose.lower()
    return any(stem in lowered for stem in _INTENT_STEMS)


def commits(sentence: str) -> bool:
    """The agent (or the team) commits to a way of building in this sentence, without a guess or a check."""
    stripped = sentence.strip().lstrip("-*•> ").replace("**", "").replace("`", "")
    if _INTENT_LATIN.search(stripped.lower().replace("’", "'")):
        return True
    return not stripped.isascii() and bool(_INTENT_WIDE.search(stripped)) and not _LOOK_WIDE.search(stripped)


def intends_with_reason(sentence: str) -> bool:
    """A commitment with its reason or the way it turned down, in one sentence; or a limit the work met and
    the way the agent takes because of it ("The script is missing, so I'll create the spec manually")."""
    # (escaped line breaks: a tool's JSON input, the text of a file, not the agent's words)
    if (len(sentence) < 24 or len(sentence) > 400 or sentence.rstrip().endswith(("?", "？"))
            or "\\n" in sentence):
        return False
    if not commits(sentence) or _MECHANICS.search(sentence):
        return False
    if cues.has_reason(sentence) or cues.has_contrast(sentence) or cues.names_alternative(sentence):
        return True
    return ", so " in sentence and decision_cues.states_limit(sentence)


# How the agent works, not what it builds: its own tools ("I'll use the edit_file tool") and fixing the
# error it just hit ("린터 오류를 수정하기 위해 … 다시 수정하겠습니다") are steps, not choices.
_MECHANICS = re.compile(
    r"(?i)\btool\b|도구|ツール|工具"
    r"|\bto (?:fix|resolve|address) (?:the|this|that|these|those) (?:\w+ )?(?:errors?|warnings?|issues?|failures?)"
    r"|(?:오류|에러|경고|エラー|警告|错误|报错|警告)[^.。]{0,16}(?:수정|해결|修正|解決|解消|修复|解决)")
