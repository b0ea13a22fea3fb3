"""Decision shapes the single-sentence cues miss: a finding and the choice it led to, an option marked as
the one taken, a user picking an option by repeating it or weighing one way over another, what is
deliberately left as it is, the choice under a "Decision:" label, and limits the work ran into.

Each shape is read from markers that hold across languages (consequence words, "chosen" marks, the text
of the option itself), never from one transcript's wording.
"""

import re
import unicodedata
from typing import List

from .hant import simplified

# A sentence that draws the consequence of the one before it and says what is done about it: "So I'll put
# the changes in canvas.py", "Therefore we keep …", "そのため、canvas.py を変更します", "因此我将修改 canvas.py",
# "따라서 canvas.py를 수정하겠습니다", "Поэтому изменения внесу в canvas.py", "Bu nedenle … uygulayacağım".
_CONSEQUENCE_START = re.compile(
    r"^(?:so|therefore|thus|hence|that'?s why|for this reason|because of (?:this|that)|given (?:this|that)"
    r"|поэтому|по этой причине|por (?:eso|isso|lo tanto|tanto|esta raz[óo]n)|deshalb|daher|donc|c'est pourquoi"
    r"|bu (?:nedenle|yüzden|sebeple)|dolayısıyla)\b[,:]?\s*",
    re.IGNORECASE)
_CONSEQUENCE_START_WIDE = re.compile(
    r"^(?:そのため|このため|したがって|従って|なので|ですので|そこで|因此|所以|于是|故此|因而|为此"
    r"|따라서|그래서|그러므로|이에 따라)")
# ... and the choice or the work it commits to: the agent's intent or a rule for the work.
_COMMITS_LATIN = re.compile(
    r"\b(?:i(?:'ll| will| am going to|'m going to)|we(?:'ll| will| are going to|'re going to)|let'?s|i (?:used|chose"
    r"|kept|put|moved|made|applied|switched|added|removed)|we (?:use|used|keep|kept|chose|need|should|must)"
    r"|(?:should|must|needs? to|has to|have to) (?:be|use|go|stay|live|run|keep)|instead|rather than"
    r"|(?:внесу|сделаю|используем|будем|оставим|изменим)|(?:vou|vamos|voy a|usaremos)"
    r"|\w+(?:acağım|eceğim|acağız|eceğiz))\b")
_COMMITS_WIDE = re.compile(
    r"(?:します|しました|いたします|しましょう|にします|ことにし|を使い|を使用|へ変更|に変更|で対応"
    r"|(?<!出)(?<!なり)(?<!あり)(?<!でき)(?<!され)(?<!い)ます[。]?$)"
    r"|(?:我(?:将|会|来|把|们将|们会)|改为|改用|改成|使用|采用|放在|移到)"
    r"|(?:하겠습니다|했습니다|합니다|하기로|사용하|변경하|으로 (?:옮|바꾸))")


def draws_consequence(sentence: str) -> bool:
    """"So I'll do Y" after a finding: the choice the sentence before led to."""
    stripped = sentence.strip().lstrip("-*•> ").replace("**", "")
    if len(stripped) < 12 or stripped.endswith(("?", "？")):
        return False
    if _CONSEQUENCE_START.match(stripped):
        rest = stripped[_CONSEQUENCE_START.match(stripped).end():]  # type: ignore[union-attr]
    else:
        stripped = simplified(stripped)
        wide = _CONSEQUENCE_START_WIDE.match(stripped)
        if wide is None:
            return False
        rest = stripped[wide.end():]
    return bool(_COMMITS_LATIN.search(rest.lower())) or (not rest.isascii() and bool(_COMMITS_WIDE.search(rest)))


# An option in a list marked as the one taken: "Database (✅ chosen)", "Option B — selected",
# "方案二（已采用）", "案2（採用）", "2안 (선택)", "Вариант 2 (выбран)".
_MARKED_CHOSEN = re.compile(
    r"(?i)[(（\[]\s*(?:✅|✔️?|☑️?)?\s*(?:chosen|selected|picked|adopted|went with this|our choice|elegid[oa]"
    r"|escolhid[oa]|выбран[аоы]?|採用|選択|已?采用|已?选择|选定|채택|선택(?:됨)?)\s*[)）\]]"
    r"|(?:✅|✔️?|☑️?)\s*(?:chosen|selected|採用|采用|채택|선택)\b")


def marks_chosen(sentence: str) -> bool:
    """An option line that says it is the one taken (its neighbours in the list were turned down)."""
    if sentence.isascii() and not any(stem in sentence.lower() for stem in ("chosen", "selected", "picked",
                                                                              "adopted", "went with", "our choice")):
        return False
    return bool(_MARKED_CHOSEN.search(sentence))


_OPTION_LINE = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)]|[A-Da-d][.)]|#{1,4})\s+(.+)$")
_WORD = re.compile(r"\w+")


def _words(text: str) -> List[str]:
    text = unicodedata.normalize("NFKC", text).lower()
    # Chinese, Japanese and Korean are compared by characters: their words are not spaced.
    return [part for run in _WORD.findall(text)
            for part in ([run] if run.isascii() else list(run))]


# The user names the way to go: "let's use org/project", "lets go with the second layout".
_USER_PICKS = re.compile(r"(?i)\blet'?s (?:use|go with|keep|stick with|switch to|pick|choose)\b")


def user_picks(sentence: str) -> bool:
    """A user's "let's use X": the user's choice, even without its reason."""
    return "et" in sentence and bool(_USER_PICKS.search(sentence))


def echoed_option(ask: str, offer: str) -> str:
    """The option line of the assistant's reply that a short ask repeats ("Update the page so clicking a tag
    opens the CNS tag page?" after a list that offered it): the user chose it. "" when the ask is its own."""
    asked = _words(ask)
    if not 3 <= len(asked) <= 60 or len(ask) > 300:
        return ""
    best, best_share = "", 0.0
    options = [match.group(1) for match in (_OPTION_LINE.match(line) for line in offer.split("\n")) if match]
    if len(options) < 2:  # one line is not a choice among options
        return ""
    for option in options:
        said = _words(option)
        if not said:
            continue
        shared = len(set(asked) & set(said))
        # Most of the ask is the option's own words, and most of the option is in the ask.
        share = min(shared / len(set(asked)), shared / len(set(said)))
        if share > best_share:
            best, best_share = option, share
    return best.replace("**", "").strip() if best_share >= 0.8 else ""


# What the sentence before a consequence found: something absent, unsupported or impossible, or already so
# ("graphics_items.py does not exist", "the image has no REST API", "存在しません", "不支持", "없습니다").
_LIMIT_LATIN = re.compile(
    r"\b(?:(?:does|do|did|is|are|was|were|has|have|can)(?:n'?t| not) (?:exist|support|have|allow|work"
    r"|include|expose|permit|let|offer|give"
    r"|contain|provide|available|supported|possible|allowed|installed|present|there|found|accept)|not (?:available"
    r"|supported|found|installed|allowed|possible|present|permitted)|no such|missing|doesn'?t exist|cannot|can'?t"
    r"|unable to|already|there (?:is|are) no|has no|have no|lacks?|requires?|only (?:supports?|accepts?|works)"
    r"|не (?:существует|поддерживает|найден\w*|установлен\w*)|нет\b|нельзя|уже|no existe|no hay|não existe|não há"
    r"|bulunmuyor|yok\b|mevcut değil|desteklemiyor|zaten)")
_LIMIT_WIDE = re.compile(
    r"存在しな|存在しませ|ありません|見つかりませ|見つからな|サポートされていな|対応していな|できませ|できな|既に|すでに"
    r"|不存在|没有|不支持|不允许|无法|不能|找不到|已经|缺少|需要"
    r"|없습니다|없어|없음|존재하지 않|지원하지 않|찾을 수 없|할 수 없|이미|필요")


def states_limit(sentence: str) -> bool:
    """A finding that constrains the work: something absent, unsupported, impossible or already there."""
    if sentence.rstrip().endswith(("?", "？")):
        return False
    return bool(_LIMIT_LATIN.search(sentence.lower())) or (not sentence.isascii()
                                                          and bool(_LIMIT_WIDE.search(simplified(sentence))))


_CONSEQUENCE_STEMS = ("so ", "so,", "therefore", "thus", "hence", "that's why", "thats why", "for this reason",
                      "because of this", "because of that", "given this", "given that", "por ", "deshalb", "daher",
                      "donc", "c'est pourquoi")


def may_draw_consequence(prose: str) -> bool:
    """Cheap test over a whole turn: could a sentence in it start with a consequence word?"""
    if not prose.isascii():
        return True
    lowered = prose.lower()
    return any(stem in lowered for stem in _CONSEQUENCE_STEMS) and bool(_CONSEQUENCE_IN_TEXT.search(lowered))


# Where a consequence can start in a turn: a line's or a sentence's first word.
_CONSEQUENCE_IN_TEXT = re.compile(r"(?:^|[.!?:]\s+|\n[\s>*•-]*)(?:so\b|therefore|thus|hence|that'?s why|for this reason"
                                  r"|because of (?:this|that)|given (?:this|that)|por |deshalb|daher|donc"
                                  r"|c'est pourquoi)")


_INNER_END = re.compile(r"[.!?][ \t]+")


def holds_consequence_pair(sentence: str) -> bool:
    """Both halves in one piece of text, where the splitter does not cut (Korean after ". "): "X 파일이
    없습니다. 따라서 Y에 적용하겠습니다."."""
    if sentence.isascii() or ". " not in sentence:  # English is cut at ". " already
        return False
    for boundary in _INNER_END.finditer(sentence):
        finding, choice = sentence[:boundary.start() + 1], sentence[boundary.end():]
        if draws_consequence(choice) and states_limit(finding):
            return True
    return False


# A preference or a priority the user states: "a local cache is the better solution", "legibility is more
# important", "速度よりも読みやすさが重要", "可读性更重要", "가독성이 더 중요해요", "читаемость важнее".
_PREFERS_LATIN = re.compile(
    r"\b(?:is|'s|are|seems?) (?:a |the )?(?:much |far )?(?:better|best|simpler|safer|cleaner|preferable"
    r"|more important|the priority)\b|\bmore important than\b|\bi(?:'d| would)? prefer\b|\bprefer(?:red)? (?:to|over)\b"
    r"|\b(?:важнее|лучше|предпочитаю|más importante|mejor opción|mais importante|melhor opção)\b")
_PREFERS_WIDE = re.compile(r"(?:の(?:ほう|方)が|が)(?:より)?(?:良い|いい|重要|大事|優先)|更(?:好|重要|合适)|优先|"
                           r"(?:이|가) 더 (?:좋|낫|중요)|더 중요|우선")


def states_preference(sentence: str) -> bool:
    """The user weighs one way over another ("X is the better solution", "legibility is more important")."""
    lowered = sentence.lower()
    if sentence.isascii():
        return any(stem in lowered for stem in ("better", "best", "simpler", "safer", "cleaner", "prefer",
                                                "important", "priority")) and bool(_PREFERS_LATIN.search(lowered))
    return bool(_PREFERS_WIDE.search(sentence)) or bool(_PREFERS_LATIN.search(lowered))


# Something deliberately left as it is: "README mentions are left unchanged", "no change needed", "kept as
# he wrote it", "ドキュメント内の表記は変更しません", "保持不变", "그대로 둡니다".
_UNCHANGED_LATIN = re.compile(
    r"\b(?:leave|leaving|left|keep|keeping|kept|stays?|remains?)\b(?: \S+){0,5}? (?:as is|as-is|unchanged|untouched"
    r"|intact|alone|as (?:he|she|they|you) wrote (?:it|them))\b"
    r"|(?<![\"'“])\bno changes? (?:is |are )?(?:needed|required"
    r"|necessary)\b|\b(?:won'?t|will not|did not|didn'?t|do not|don'?t) (?:change|touch|modify|rename)\b")
_UNCHANGED_WIDE = re.compile(
    r"変更しません|変更せず|変えません|触りません|そのまま(?:に|残|維持)|保持不变|不做修改|不修改|保留原样|原样保留|不改动"
    r"|변경하지 않|그대로 (?:두|유지|둡)|수정하지 않")


def keeps_unchanged(sentence: str) -> bool:
    """A scope choice: something deliberately left as it is (never a step the user is told to skip)."""
    lowered = sentence.lower()
    if " you" in lowered or lowered.startswith("you"):
        return False
    if sentence.isascii():
        return _may_keep_unchanged(lowered) and bool(_UNCHANGED_LATIN.search(lowered))
    return bool(_UNCHANGED_WIDE.search(simplified(sentence))) or bool(_UNCHANGED_LATIN.search(lowered))


# What each branch of _UNCHANGED_LATIN cannot match without (in lower-case ASCII): a keeping verb and what
# it keeps to, "no change", or a negation ending in "t " before the verb. "change" alone is in most replies.
_KEEP_VERBS = ("leav", "left", "keep", "kept", "stay", "remain")
_KEPT_AS = ("as is", "as-is", "unchanged", "untouched", "intact", "alone", "wrote")
_NOT_CHANGED = ("t change", "t touch", "t modify", "t rename")


def _may_keep_unchanged(lowered: str) -> bool:
    return ("no change" in lowered or any(stem in lowered for stem in _NOT_CHANGED)
            or (any(stem in lowered for stem in _KEPT_AS) and any(stem in lowered for stem in _KEEP_VERBS)))


# A label the agent puts over its choice: "**Decision:**", "Key decisions", "決定事項", "技術選定", "方針：", "决策：",
# "设计决策", "결정 사항", "Decisión:". What follows it is the choice, whatever its words. ("Approach" and "Решение"
# also head options and advice, so they are not labels.)
_DECISION_LABEL = re.compile(
    r"^\s*(?:#{1,4}\s*)?(?:\*\*)?(?:[^\w\s*#|]{1,3}\s*)?(?:(?:final|key|design|technical|our|the)\s+)?"
    r"(?:decisions?(?: made)?|chosen approach|tech(?:nology)? choices?"
    r"|決定(?:事項)?|方針|技術選定|决定|决策|设计决策|技术选型|결정(?: 사항)?|방침|기술 선정"
    r"|decisión|decisão|karar)(?![\w.])(?:\*\*)?\s*[:：]?\s*(?:\*\*)?\s*[:：]?\s*(.*)$", re.IGNORECASE)
_LABEL_STEMS = ("decision", "chosen approach", "tech")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+(.+)$")


def labeled_decisions(prose: str, limit: int = 6) -> List[str]:
    """The choices under or after a decision label: its list items, or the first sentence of its paragraph."""
    if prose.isascii() and not any(stem in prose.lower() for stem in _LABEL_STEMS):
        return []
    found: List[str] = []
    lines = prose.split("\n")
    for index, line in enumerate(lines):
        if len(line) > 200 or ("ecision" not in line and line.isascii()
                               and not any(stem in line.lower() for stem in _LABEL_STEMS)):
            continue
        label = _DECISION_LABEL.match(line)
        if label is None or len(line) - len(label.group(1)) > 48:
            continue
        rest = label.group(1).strip().strip("*").strip()
        if len(rest) >= 16:
            found.append(rest)
            continue
        if rest:  # "### Approach A" names an option, it does not say which was chosen
            continue
        following = [other.strip() for other in lines[index + 1:index + 12]]
        while following and not following[0]:
            following.pop(0)
        items = []
        for other in following:
            item = _ITEM.match(other)
            if not item:
                break
            items.append(item.group(1))
        if items:
            found.extend(items[:limit])
            continue
        # A paragraph under the label: its first line that commits to something ("I will proceed with …"),
        # not the account of what led there ("I have tried three times to …").
        for other in following[:4]:
            if not other or other.startswith(("#", "|", "```")):
                break
            if _COMMITS_LATIN.search(other.lower()) or (not other.isascii() and _COMMITS_WIDE.search(other)):
                found.append(other)
                break
    return [item for item in found if not item.rstrip().endswith(("?", "？"))][:limit]


# What goes wrong the other way, after a rule: "the server must ship first, or an old server can't parse the
# body", "the ids must stay stable, or the links break".
_WARNS = re.compile(r"(?i), or (?:else )?(?:\S+ ){1,4}(?:can'?t|cannot|won'?t|will (?:fail|break|not)"
                    r"|breaks?|fails?)\b")


def warns_of_failure(sentence: str) -> bool:
    """", or X breaks": the reason a rule of the work holds."""
    return ", or " in sentence and bool(_WARNS.search(sentence))



# A decision bullet says the choice and its reason in its first sentence or two; past this many characters
# the rest is the account around it, and the summary's words are shared by every section.
DECISION_CHARS = 180
_CUT = re.compile(r"[.;。；！!](?=\s|$)|[,，、]\s| — | - ")


def shortened(item: str, limit: int = DECISION_CHARS) -> str:
    """`item` cut after its last sentence or clause end before `limit` characters (at a word if none)."""
    if len(item) <= limit:
        return item
    ends = [match.end() for match in _CUT.finditer(item, 0, limit) if match.end() >= limit // 2]
    if ends:
        return item[:ends[-1]].rstrip(" ,，、—-") + ("" if item[ends[-1] - 1] in ".。!！" else " …")
    cut = item.rfind(" ", 0, limit)
    return item[:cut if cut > limit // 2 else limit].rstrip() + " …"

