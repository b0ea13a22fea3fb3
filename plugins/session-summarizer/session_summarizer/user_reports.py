"""Errors the user reports in their own words ("the modal opens and closes at once", "三级菜单没有出现"): a
symptom said as a fact, not a request, a question or a condition. Read across languages by cue words.
"""

import re
from typing import List

from . import extraction as ex

# A symptom: something does not work, shows nothing, breaks, hangs, repeats, or an error came up.
_SYMPTOM_LATIN = re.compile(
    r"(?i)\b(?:(?:(?:is|are|was|were|still|keeps?)(?: not|n't)|stopped) (?:working|loading|showing|appearing|updating"
    r"|saving|rendering|displaying|submitting)|(?:does|did|is|are|was|were|will|wo|can|could)(?: not|n't) "
    r"(?:work|load|show|appear|update|save|render|display|submit|open|run|start|compile|build|change|exist)"
    r"|not working|(?:is|are|was|were|got|became|becomes|comes? back|came back) (?:empty|blank|broken|undefined|null)"
    r"|(?:is|are|got|gets|was|were) (?:stuck|frozen|gone|missing|duplicated)|(?:becomes?|became) unable"
    r"|unable to \w+|went (?:wrong|poorly|badly)|crash(?:es|ed|ing)|hangs|freez(?:es|ing)|duplicat(?:es|ed|ing)"
    r"|(?:get|got|getting|see|saw|seeing|throws?|threw|gives?|gave|shows?|showed) (?:this|an|the|a|these) "
    r"(?:error|exception|warning)s?|immediately closes|nothing happens|no longer works?)\b"
    # Spanish, Portuguese, Russian: reports read the same way when the user writes in them.
    r"|\bno funciona|\bse qued[oó]|\bpegad[oa]\b|\bn[ãa]o (?:funciona|existe|aparece|carrega)|\breclamand"
    r"|не работает|сломал|не отображ|не меня|пусто\b")
_SYMPTOM_WIDE = re.compile(
    r"動かない|動きません|表示されない|表示されません|出ない|出ません|反映されない|反映されません|できない|できません"
    r"|エラーが(?:出|発生|表示)|空(?:です|になり|になって|のまま)|壊れ|固ま|落ちる|落ちます|重複"
    r"|没有出现|没出现|不显示|没有显示|显示不出|不工作|不起作用|没反应|没有反应|无法|报错|出错|失败了|是空的|卡住|崩溃"
    r"|重复了|不生效"
    r"|안 ?돼|안 ?됩니다|작동하지|작동 안|표시되지|안 나와|나오지 않|오류가|에러가|실패했|비어 ?있|멈춰|멈춥|깨져|중복")
# A request, a condition or a wish is not a report: "Fix the modal so it does not close", "if it crashes…".
_NOT_A_REPORT = re.compile(
    r"(?i)^(?:[-*•\d.)\s]*)(?:please|pls|can you|could you|would you|make|fix|add|ensure|make sure|check|try|let'?s"
    r"|if|unless|in case|so that|should|must|don'?t|do not|never|avoid|prevent|handle|verify|also|then|and then"
    r"|もし|如果|假如|请|만약|혹시)\b"
    r"|^(?:rather than|instead of|either)\b"
    # A wish or a rule: "so it doesn't…", "it should no longer work for expired reports".
    r"|\bso (?:that )?[\w ]{1,20}(?:doesn'?t|don'?t|won'?t|does not|do not|will not)\b"
    r"|\b(?:should|must|needs? to|has to|have to|ought to)\b"
    r"|(?:ください|下さい|ほしい|お願い(?:します)?|してね|吧|帮我\S*|주세요|줘|해|해요|하세요|십시오)\s*[。.!！]?$")
# Output the user pasted is read as output (its telling line), not as the user's words.
_PASTED_LINE = re.compile(r"^(?:[\[└⎿>$❯│]|\S+:\d+)")
# A report stays one readable line: the symptom and where it happened.
_REPORT_CHARS = 200


def reports(own_words: str) -> List[str]:
    """The user's sentences that report a malfunction, in order, each at most _REPORT_CHARS long."""
    found: List[str] = []
    for sentence in ex.sentences(own_words):
        text = sentence.strip().lstrip("-*• ").strip()
        if len(text) < 12 or _NOT_A_REPORT.search(text) or text.endswith((":", "：")):
            continue  # a request, or a line that introduces the output under it
        if text[0] in ")]）" or (text.count(")") > text.count("(") and text.index(")") < 12):
            continue  # the tail of a sentence broken over lines ("Excluir) these buttons…"): its subject is lost
        if _PASTED_LINE.match(text) or ex.is_error_line(text):
            continue
        if (ex.is_question(text) or "?" in text) and not (not text.isascii() and _SYMPTOM_WIDE.search(text)):
            continue  # "why does it not load?" asks; "还是没有出现三级菜单，为什么呢？" reports, then asks
        if not (_SYMPTOM_LATIN.search(text) or (not text.isascii() and _SYMPTOM_WIDE.search(text))):
            continue
        if text.isascii() and not _names_something(text):
            continue  # "It still doesn't work." tells no reader what broke
        found.append(text if len(text) <= _REPORT_CHARS else text[:_REPORT_CHARS - 1].rstrip() + "…")
    return found


_FILLER = frozenset(("this", "that", "it", "its", "it's", "there", "here", "still", "really", "again", "properly",
                     "just", "all", "now", "anymore", "correctly", "well", "right", "yet", "even", "though", "either",
                     "at", "the", "a", "an", "is", "are", "was", "were", "not", "does", "doesn't", "do", "don't", "did",
                     "didn't", "work", "works", "working", "i", "me", "my", "so", "and", "but", "also", "seems",
                     "like", "looks", "help", "debug", "please", "can", "you", "u", "fix", "any", "more"))


def _names_something(text: str) -> bool:
    """The report names what broke: a word beyond pronouns, fillers and the symptom's own words."""
    rest = _SYMPTOM_LATIN.sub(" ", text.lower())
    return any(word.strip(".,!;:'\"()") not in _FILLER for word in rest.split() if len(word.strip(".,!;:'\"()")) > 2)
