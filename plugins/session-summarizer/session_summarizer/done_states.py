"""A reply that states the new state of the work ("The chart now uses the Dark24 palette", "test.html has been
created", "表示されるようになりました", "추가되었습니다") reports a result as surely as "I added …" does."""

import re

from . import cues
from . import extraction as ex

# The thing changed is the subject and the sentence says what it is or does now: a present perfect passive
# ("has been created"), "is now …", "now uses", "no longer …", "you can now …" (the result is there to use).
_STATE_LATIN = re.compile(
    r"(?i)\b(?:has|have) (?:now |also |successfully )*been (?:\w+ly )?(?:\w+ed|built|made|written|rewritten|set up"
    r"|split|shown|hidden|kept|run)\b"
    r"|\b(?:is|are) (?:also )?now (?:\w+ly )?\w{3,}"
    r"|\b(?:\w+ )(?:also )?now (?!that\b)\w{3,}s\b"
    r"|\bno longer \w{3,}"
    r"|^you can now \w+"
)


def _may_state(lowered: str) -> bool:
    """Words every branch of _STATE_LATIN needs, in lower-case ASCII: most sentences hold none of them."""
    return "been " in lowered or "now " in lowered or "no longer " in lowered


# Japanese, Korean and Chinese: "…ようになりました", "…されました", "…되었습니다", "现在…了", "已被…".
_STATE_WIDE = re.compile(
    r"ようになりました|ようにしました|されました|されています|になりました"
    r"|되었습니다|됐습니다|되었어요|되도록 했습니다|이제 .{1,40}(?:합니다|됩니다|있습니다)"
    r"|现在.{1,30}了|现在(?:会|能|可以)|已(?:经)?被|已(?:经)?(?:改为|变为|支持)"
)
# Not a result: a plan, a condition, a guess, a failure that is still there, an address to the reader.
_NOT_STATE = re.compile(
    r"(?i)^(?:now|next|then|so|if|when|once|after|before|to|please|or|i see|i notice|it looks|looks like"
    r"|it seems|seems)\b|[:：]\s*$|\b(?:will|would|should|could|may|might|must"
    r"|need to|needs to|let me|i'll|we'll|still|not working|doesn'?t|don'?t|isn'?t|aren'?t|won'?t|cannot|can'?t"
    r"|fail\w*|error\w*|crash\w*|broken|missing|wrong)\b|[?？]\s*$"
    r"|しません|できません|失敗|エラー|되지 않|실패|오류|没有|失败|错误")


def is_new_state(sentence: str) -> bool:
    """A sentence that says what the changed thing is or does now, as a result (not a plan, guess or failure)."""
    cleaned = ex.clean_item(sentence)
    if cleaned.isascii():
        if len(cleaned.split()) < 5 or not _may_state(cleaned.lower()) or not _STATE_LATIN.search(cleaned):
            return False
    elif len(cleaned) < 10 or not (_STATE_WIDE.search(cleaned) or _STATE_LATIN.search(cleaned)):
        return False
    if _NOT_STATE.search(cleaned) or cues.is_hedged(cleaned) or cues.expects_unverified(cleaned):
        return False
    return not ex.is_question(cleaned)
