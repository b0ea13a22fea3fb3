"""The user's short answer to what the agent's last reply put to them: a bare option label ("(b)", "B",
"b案", "2번") picks that option; a yes ("OK", "はい", "好的", "네", "sim") to a reply that recommended one
option and asked to go ahead takes the recommended one. Read from the shape of the exchange (a labelled
list or a recommendation, then a question, then a short answer), not from any wording of the options."""

import re
import unicodedata
from typing import List

from . import decision_cues
from . import extraction as ex

# A whole answer that is only an option's label, perhaps with "option"/"案"/"안"/"번" and a closing word.
_LABEL_ANSWER = re.compile(
    r"^(?:option|opción|opção|opcao|方案|选项|案|オプション|옵션)?\s*[(\[]?([a-h]|[1-9])[)\].]?\s*"
    r"(?:案|안|번|番|つ目)?\s*(?:で(?:お願いします|進めて(?:ください)?|いい|良い)?|に(?:します|する)|으로|로|please|pls)?"
    r"\s*[.!。！]?$",
    re.IGNORECASE)
# A yes, on its own or before a few words ("OK.", "yes, go ahead", "はい、お願いします", "好的", "네 진행해 주세요").
_YES = re.compile(
    r"^(?:ok(?:ay)?|yes|yep|yeah|sure|go ahead|do it|sounds good|lgtm|agreed|proceed|approved|はい|お願いします"
    r"|それで(?:お願いします|いい|良い)|了解|承知|好的?|可以|行|是的|没问题|同意|네|예|좋아요?|응|그래요?|진행해|sí|si|sim|ya|iya"
    r"|да|ок)(?=$|[\s,.!。、，！:：])", re.IGNORECASE)
_YES_CHARS = 80
# The reply asks the user to choose or to go ahead: its last line holds a question.
_ASKS = re.compile(r"[?？]|(?:ますか|でしょうか|ませんか|よいか|いいか)[。]?\s*$|[吗呢][。]?\s*$"
                   r"|(?:까요|습니까|나요)[.]?\s*$")
_RECOMMENDED = re.compile(r"(?i)recommend|recomend|empfohlen|рекоменд|おすすめ|推奨|推荐|推薦|추천|권장")
_OPTION_CHARS = 160


def _last_line(offer: str) -> str:
    lines = [line.strip().strip("`").strip() for line in offer.strip().split("\n")]
    lines = [line for line in lines if line]
    return lines[-1] if lines else ""


_OPTION_START = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?[(\[（]?(?:[a-hA-H]|[1-9])[)\]）.:：]\s")


def _ends_on_options(offer: str) -> bool:
    """The reply closes on its list of options (its question sits above the list)."""
    lines = [line for line in (unicodedata.normalize("NFKC", line).strip("` \t") for line in offer.split("\n")) if line]
    return bool(lines) and bool(_OPTION_START.match(lines[-1]))


def _labelled(offer: str, label: str) -> List[str]:
    """The offer's option lines that carry `label` ("(b) …", "b) …", "B. …", "**B:** …", "Option B: …", "案B")."""
    mark = re.escape(label)
    pattern = re.compile(
        r"^\s*(?:[-*•]\s*)?(?:#{1,4}\s*)?(?:\*\*)?(?:(?:option|opción|opção|approach|plan|方案|选项|案|オプション|옵션)\s*)?"
        r"[(\[（]?" + mark + r"(?:[)\]）.:：]|\s*(?:\*\*)?\s*[—–-]\s)\s*(?:\*\*)?\s*(\S.*)$", re.IGNORECASE)
    found = []
    for line in offer.split("\n"):
        match = pattern.match(unicodedata.normalize("NFKC", line))
        if match:
            found.append(match.group(1).replace("**", "").strip())
    return found


def label_of(ask: str) -> str:
    """The option label a whole answer consists of ("(b)" -> "b", "２番で" -> "2"), or ""."""
    match = _LABEL_ANSWER.match(unicodedata.normalize("NFKC", ask).strip())
    return match.group(1) if match else ""


def picked_label(ask: str, offer: str) -> str:
    """The option a bare label answer picks, when the reply offered options under labels and asked."""
    answer = unicodedata.normalize("NFKC", ask).strip()
    match = _LABEL_ANSWER.match(answer)
    if match is None or not (_ASKS.search(_last_line(offer)) or _ends_on_options(offer)):
        return ""
    label = match.group(1)
    others = "abcdefgh" if label.isalpha() else "123456789"
    # Options come in a list: the picked label and at least one other label beside it.
    if not any(_labelled(offer, other) for other in others if other != label.lower()):
        return ""
    picked = _labelled(offer, label)
    return picked[0][:_OPTION_CHARS] if len(picked) == 1 else ""


def took_recommendation(ask: str, offer: str) -> str:
    """The recommended option of a reply that ended by asking to go ahead, when the user only said yes."""
    answer = unicodedata.normalize("NFKC", ask).strip()
    if (len(answer) > _YES_CHARS or not _YES.match(answer) or _ASKS.search(answer)
            or not _ASKS.search(_last_line(offer))):
        return ""
    lines = [line.strip() for line in offer.split("\n") if line.strip() and not line.strip().startswith("```")]
    for index, line in enumerate(lines):
        if not _RECOMMENDED.search(line) or _ASKS.search(line):
            continue
        shown = line.strip("#*:：-• ").replace("**", "")
        # "### Recommended" or "推奨" alone heads the option: the option is the line below it.
        if len(re.sub(r"[^\w]", "", shown)) < 12 and index + 1 < len(lines):
            shown = shown + ": " + lines[index + 1].strip("#*:：-• ").replace("**", "")
        return shown[:_OPTION_CHARS]
    return ""


_OWN_WORDS_CHARS = 120


def with_own_words(chosen: str, ask: str) -> str:
    """The option picked, and the user's own words when the answer says more than the pick ("2번으로 하자 근데
    watcher 로 두면될거같은데": option 2, done as a watcher): those words shape the choice."""
    answer = " ".join(unicodedata.normalize("NFKC", ask).split())
    if not answer or len(answer) > _OWN_WORDS_CHARS or _LABEL_ANSWER.match(answer) or answer.lower() in chosen.lower():
        return chosen
    if _YES.match(answer) and len(answer) < 24:
        return chosen
    return chosen + " — " + answer


# The user picks one of the options the assistant offered: "Option 2", "go with your recommendation",
# "2番でお願いします", "用方案二", "2번으로 해주세요".
_PICK = re.compile(
    r"(?i)\b(?:option|approach|alternative|choice|plan|solution)\s*#?\s*([1-9]|[a-d]\b|one\b|two\b|three\b)"
    r"|\b(first|second|third|last) (?:option|approach|one|alternative|solution)\b"
    r"|\b(?:your|the) (recommend)(?:ed|ation)\b"
    r"|(?:案|オプション|選択肢|方法|方案|选项|옵션|방법|안)\s*([1-9１-９一二三])|([1-9１-９])\s*(?:番|つ目|번)"
    r"|第\s*([一二三1-9])\s*(?:个|種|种)|(おすすめ|推奨|推荐|추천|권장)")
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "first": "1", "second": "2", "third": "3", "一": "1", "二": "2",
                 "三": "3", "a": "1", "b": "2", "c": "3", "d": "4"}
_PICK_STEMS = ("option", "approach", "alternative", "choice", "plan", "solution", "first", "second", "third",
               "last", "recommend")
_NUMERALS = {"1": ("1", "一", "１"), "2": ("2", "二", "２"), "3": ("3", "三", "３"), "4": ("4", "四", "４")}


def picked(ask: str, answer: str, offer: str, replied: str) -> str:
    """The option the user's short turn picks from the assistant's last reply, by its number or name ("Option
    2", "2番で", "your recommendation"), by repeating its words, by its bare label ("(b)"), or by a yes to a
    reply that recommended one; with the user's own words when they shape the pick. `ask` is the turn's
    text, `answer` its ask, `offer` the reply's prose and `replied` its whole text; "" when none is picked."""
    chosen = ((offer and (_numbered_pick(answer, offer) or decision_cues.echoed_option(answer, offer)))
              or picked_label(answer or ask, offer or replied) or took_recommendation(answer, offer))
    if not chosen:
        return answered_either(answer, offer or replied)
    return with_own_words(chosen, answer)


def _numbered_pick(ask: str, offer: str) -> str:
    """The option line an ask names by number or as the recommended one, with the line after it when the
    option line is only a heading ("### Recommended Fix")."""
    if len(ask) > 300 or (ask.isascii() and not any(stem in ask.lower() for stem in _PICK_STEMS)):
        return ""
    match = _PICK.search(ask)
    if match is None or ex.is_question(ask):
        return ""
    picked = next(group for group in match.groups() if group)
    picked = _NUMBER_WORDS.get(picked.lower(), unicodedata.normalize("NFKC", picked))
    if picked.lower() == "last":
        return ""
    if picked.isdigit():
        number = "(?:" + "|".join(_NUMERALS.get(picked, (picked,))) + ")"
        option = re.compile(r"(?i)(?:\b(?:option|approach|alternative|choice|solution)|案|オプション|方案|选项|옵션"
                            r"|방법)\s*#?\s*" + number + r"(?!\d)|^(?:#+\s*|\*\*)?" + number + r"[.)]\s")
    else:
        option = _RECOMMENDED
    lines = [line.strip() for line in offer.split("\n") if line.strip() and not line.strip().startswith("```")]
    for index, line in enumerate(lines):
        if option.search(line):
            shown = line.strip("#*: ").replace("**", "")
            if len(shown) < 30 and index + 1 < len(lines):  # "### Recommended Fix": the option is below it
                shown = shown + ": " + lines[index + 1].replace("**", "")
            return shown
    return ""


# The reply's closing paragraph puts two ways to the user: "we can either suppress the log or add the
# direction", "Would you like a delay, or a local cache?", "AにしますかそれともBにしますか", "用A还是B？",
# "A로 할까요 아니면 B로 할까요?".
_EITHER = re.compile(r"(?i)\beither\b[^.?!\n]{3,200}\bor\b|\b(?:would you like|do you want|should i|shall i|prefer)"
                     r"\b[^?\n]{3,200},? or\b[^?\n]{2,200}\?|それとも|还是|或者|아니면")
_CONTENT_WORD = re.compile(r"[A-Za-z][\w-]{3,}|[^\x00-\x7f\s\d\W]{2,}")
_ANSWER_CHARS = 200
# An answer that asks for something else instead ("give me a curl command", "why is it slow").
_NEW_ASK = re.compile(r"(?i)^(?:give|show|tell|explain|look|what|why|how|can|could|would|please|i (?:want|need"
                      r"|would like))\b")


def answered_either(ask: str, offer: str) -> str:
    """The user's own short answer to a reply that closed by offering two ways, when it takes up the offer's
    words (it answers the offer, it does not start something new); "" otherwise."""
    answer = " ".join(unicodedata.normalize("NFKC", ask).split()).strip("\"'“”")
    if (not 8 <= len(answer) <= _ANSWER_CHARS or _ASKS.search(answer) or (_YES.match(answer) and len(answer) < 24)
            or _NEW_ASK.match(answer) or re.search(r"[.!。！]\s+\S", answer)
            or (answer.isascii() and len(answer.split()) < 3)):
        return ""  # a question back, a bare yes, a new request or a second sentence is not the pick
    closing = offer.strip().rsplit("\n\n", 1)[-1]
    if not _EITHER.search(closing):
        return ""
    offered = {word.lower() for word in _CONTENT_WORD.findall(closing)}
    said = {word.lower() for word in _CONTENT_WORD.findall(answer)}
    if not answer.isascii():  # unspaced languages: shared character pairs
        offered = {closing[index:index + 2] for index in range(len(closing) - 1)}
        said = {answer[index:index + 2] for index in range(len(answer) - 1)}
        return answer if len(offered & said) >= 2 else ""
    return answer if offered & said else ""
