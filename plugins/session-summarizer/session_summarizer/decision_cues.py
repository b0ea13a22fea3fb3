"""Decision shapes the single-sentence cues miss: a finding and the choice it led to, an option marked as
the one taken, and a user picking an option by repeating it.

Each shape is read from markers that hold across languages (consequence words, "chosen" marks, the text
of the option itself), never from one transcript's wording.
"""

import re
import unicodedata
from typing import List

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
    r"\b(?:(?:does|do|did|is|are|was|were|has|have|can)(?:n'?t| not) (?:exist|support|have|allow|work|include"
    r"|contain|provide|available|supported|possible|allowed|installed|present|there|found|accept)|not (?:available"
    r"|supported|found|installed|allowed|possible|present|permitted)|no such|missing|doesn'?t exist|cannot|can'?t"
    r"|unable to|already|there (?:is|are) no|has no|have no|lacks?|requires?|only (?:supports?|accepts?|works)"
    r"|не (?:существует|поддерживает|найден\w*|установлен\w*)|нет\b|нельзя|уже|no existe|no hay|não existe|não há"
    r"|bulunmuyor|yok\b|mevcut değil|desteklemiyor|zaten)")
_LIMIT_WIDE = re.compile(
    r"存在しな|存在しませ|ありません|見つかりませ|見つからな|サポートされていな|対応していな|できませ|できな|既に|すでに"
    r"|不存在|没有|不支持|无法|不能|找不到|已经|缺少|需要"
    r"|없습니다|없어|없음|존재하지 않|지원하지 않|찾을 수 없|할 수 없|이미|필요")


def states_limit(sentence: str) -> bool:
    """A finding that constrains the work: something absent, unsupported, impossible or already there."""
    if sentence.rstrip().endswith(("?", "？")):
        return False
    return bool(_LIMIT_LATIN.search(sentence.lower())) or (not sentence.isascii()
                                                          and bool(_LIMIT_WIDE.search(sentence)))


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
