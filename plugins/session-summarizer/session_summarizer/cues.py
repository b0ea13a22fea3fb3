"""Cue features that hold across languages: reasons, contrast, choice, deferral, hedging, tasks for the user.

Each cue is a small set of markers per language (en, ja, zh, ko, plus ru, es, pt, de, fr where a few
words carry it). The section rules combine cues ("a choice with a reason is a decision") instead of
matching any one transcript's wording.
"""

import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .hant import simplified
from .memo import SummaryMemo

# Words are matched at word starts for alphabetic languages; CJK markers anywhere.
# Each cue: words of alphabetic languages (matched on lower-cased text at word starts) and markers of
# CJK languages (matched anywhere, only in text that is not ASCII).
_REASON_LATIN = re.compile(
    r"\b(?:because|since (?:it|they|we|the|this)|^since\b|so that|in order to|to (?:avoid|keep|make|ensure|prevent"
    r"|support|allow|reduce|match|simplify|maximi[sz]e|minimi[sz]e|improve|preserve|protect|isolate|guarantee"
    r"|stay|comply|decouple|speed up)|, (?:ensuring|avoiding|preventing|keeping|guaranteeing)\b|, or else\b"
    r"|to (?:fix|solve|resolve|address|work around) (?:this|that|it|the)"
    r"|due to|as it (?:is|was|has)|which (?:keeps|makes|avoids|means)|for (?:speed"
    r"|simplicity|reproducibility|performance|compatibility|safety|consistency|privacy|security)|for [\w-]+ reasons"
    r"|otherwise|given that"
    # what the way taken works with: "switched to systemd, which COSMIC properly supports"
    r"|which (?:\w+ ){1,3}(?:properly |fully |natively |actually )?(?:supports|handles|expects|requires)"
    # a purpose clause after the choice: "sorted keys, so weekly diffs stay readable in git"
    r"|, so (?:that )?(?:the |a |an |our |your |its |their )?[\w-]+(?: [\w-]+)? (?:stays?|keeps?|remains?|won'?t"
    r"|can(?:not|'t)?|doesn'?t|don'?t|never|always|reads?|composes?|works?)"
    r"|потому что|так как|чтобы|из-за|porque|para que|ya que|debido a|pois|para (?:evitar|manter)|weil|damit"
    r"|parce que|afin de|pour (?:éviter|garder)|çünkü|bu (?:yüzden|nedenle|sebeple)|dolayısıyla)\b")
_REASON_WIDE = re.compile(
    r"ため|ので|ように、|よう、|から、|からです|理由は|観点から|を考慮して|为了|因为|由于|以便|以免|所以|出于|考虑到|鉴于"
    r"|때문|위해|므로|이라서|어서|고려하여|고려해|เพราะ|เนื่องจาก|避免|防止|确保|以防|防ぐ|방지"
    r"|以(?:保持|保证|减少|提高|降低|简化|方便)")
_CONTRAST_LATIN = re.compile(
    r"\b(?:instead of|in lieu of|rather than|over (?:the )?\w+ because|not \w+ but|in favou?r of|as opposed to"
    r"|вместо|а не|en lugar de|en vez de|em vez de|ao invés de|statt|anstatt|au lieu de|plutôt que"
    # a switch the session made names the way left: "switched the queue from Redis to Postgres", "replaced X with Y"
    r"|(?:switch|chang|mov|migrat)(?:ed|ing) (?:\S+ ){0,3}from \S+(?: \S+){0,3} to"
    r"|replac(?:ed|ing) \S+(?: \S+){0,3} with)\b")
_CONTRAST_WIDE = re.compile(
    r"代わりに|ではなく|じゃなく|より(?:も)?[^。]{0,12}(?:を|が)|而不是|而非|代替|取代|不用|대신|아닌|보다는"
    # a switch names the way left and the way taken: "XからYに変更", "将X改为Y", "X에서 Y로 변경"
    r"|から[^。、]{1,30}に(?:変更|切り替え|置き換え|移行)|(?:从|由|将|把)[^。，]{1,30}(?:改为|改成|换成|切换到|替换为|迁移到)"
    r"|에서 [^.]{1,30}(?:으로|로) (?:변경|교체|전환|바꾸)")
# Weaker signs of an alternative: alone they state a fact ("wrangler lives in sync-cloud, not the repo root",
# "no need to resend"); next to a choice they name what was turned down ("I set it to 64 MB, not 200 MB,
# deliberately", "just use GITHUB_TOKEN - no need for a separate token").
_ALTERNATIVE_LATIN = re.compile(
    r",\s+not\s+(?!because|just|only|sure|yet|found|working|the case|a problem|an issue|all|every|even|always)"
    r"[^\s,.;]+(?:\s+[^\s,.;]+){0,3}\s*(?:[,.;:—)]|$)"
    r"|\bno (?:longer )?need (?:for|to)\b|\b(?:i|we) (?:don'?t|do not|no longer) need\b"
    r"|\b(?:is|are) (?:no longer|not) (?:needed|necessary|required)\b"
    r"|\bno \w+(?: \w+)? (?:is |are )?(?:needed|necessary|required)\b")
_ALTERNATIVE_WIDE = re.compile(
    r"(?:は|も)不要(?:です|で|だ|な|。)|必要(?:は)?(?:ありません|ない)|不需要|无需|无须|没有必要|没必要"
    r"|필요(?:가|는)? 없|필요하지 않")
_CHOICE_LATIN = re.compile(
    r"\b(?:decided|decide to|chose|choose|chosen|picked|opted|went with|going with|go with|settled on|switched to"
    r"|we(?:'ll| will) use|i(?:'ll| will) use|let'?s use|using \w+ (?:for|as)|use \w[\w.-]* (?:for|as|with|to)"
    r"|(?:recommend|suggest)(?:s|ed)? (?:\w+ing|using|that we|we)\b|(?:i|we)(?:'ll| will)? (?:keep|pin|stick|stay)\b"
    r"|prefer|selected|adopt(?:ed)?|keep(?:ing)? (?:the|it|a)|default(?:s)? to|stick with"
    r"|(?:simplest|quickest|best|cleanest|safest|most reliable|recommended) (?:fix|approach|option|solution|way|path)"
    r"|deliberately|intentionally|on purpose|(?:just|simply) use|(?:i|we) plan to|the plan is to"
    r"|i'?d (?:use|keep|remove|drop|go with|move|put|extract|avoid|stick|start|add|pick|choose|switch)"
    r"|(?:is|are|was) the (?:right|correct|better|best) (?:choice|call|approach|fit|tool|option|way|move)"
    r"|switch to|no reason to"
    # the agent's own plan that names what it will use: "I'll modify the program to use stdout when …"
    r"|(?:i'?ll|we'?ll|i will|we will|let me|let'?s) (?:\w+ ){1,4}to use\b"
    r"|решил|выбрал|используем|будем использовать|decid[íi]|eleg[íi]|usaremos|vamos a usar|escolh|decidi"
    r"|vamos usar|entschieden|verwenden|choisi|utiliser|seçtim|seçildi|tercih)\b")
_CHOICE_WIDE = re.compile(
    r"ことにしました|ことにします|採用|選択|選びました|使います|使用します|を使用|を使う|にしました|方針|推奨|最善"
    r"|决定|选择|采用|选用|改用|使用"
    r"|我们用|推荐|最好的(?:方法|方案)|改为|改成|换成|결정|선택|채택|사용하기로|쓰기로|으로 했|권장|추천"
    r"|ตั้ง(?:ให้)?เป็น|以[^，。]{1,20}为准|を正と|を優先|(?:을|를) 기준으로")
# The user turns down one way and names the other: "we don't need backward compatibility, just migrate
# the records", "互換性は不要なので、移行して", "不需要兼容，直接迁移", "호환성은 필요 없고 마이그레이션해".
_REJECT_AND_REPLACE_LATIN = re.compile(
    r"\b(?:don'?t|do not|no need to|never|won'?t) (?:need|want|use|keep|add|support|bother)\b[^.;?]{0,80}"
    r"(?:[,;:]|\band|—|-)\s*(?:just|only|instead|simply|use|always|let'?s)\b"
    r"|\bno need (?:for|to)\b[^.;?]{0,60}[,;:]\s*(?:just|only|instead|use)\b")
# ... or keeps one and drops the other: "keep the first copy and delete the later one", "先のものは残して後のは削除",
# "保留第一份，删除后面的", "먼저 저장된 부분은 남겨두고 나중 것은 삭제해".
_KEEP_AND_DROP_LATIN = re.compile(r"\bkeep\b[^.;?]{0,60}(?:\band\b|,)\s*(?:delete|remove|drop)\b")
_KEEP_AND_DROP_WIDE = re.compile(r"残(?:して|し)[^。]{0,40}(?:削除|消)|保留[^。]{0,30}(?:删除|删掉|去掉)"
                                 r"|(?:남겨두고|남기고|유지하고)[^.]{0,40}(?:삭제|지워|제거)")
_REJECT_AND_REPLACE_WIDE = re.compile(
    r"(?:不要|いらない|必要(?:は)?ない|使わない|しない)(?:ので|から|です|。)?[、,]?[^。]{0,40}(?:して|にして|を使|で(?:お願い|いい))"
    r"|不(?:需要|要|用)[^。]{0,30}[，,]\s*(?:直接|只|就|改|用)"
    r"|(?:필요 없|하지 말|쓰지 말|안 써)[^.]{0,30}(?:고|,)\s*\S")
# A sentence that gives the reason for the sentence before it: "This makes the project self-contained",
# "これにより…", "这样可以…", "이렇게 하면…". Only its start is read: the reason points back.
_FOLLOW_REASON_LATIN = re.compile(
    r"^(?:this|that|it|doing so|which|these|both)\s+(?:(?:also|then|now|way)\s+)?(?:makes|keeps|avoids|means|ensures"
    r"|prevents|lets|allows|gives|removes|guarantees|is (?:safer|simpler|faster|cleaner|more|less))\b"
    # what the choice will do: "This will make it composable in pipelines", "It would keep the API stable"
    r"|^(?:this|that|it|doing so|these)\s+(?:will|would|should)\s+(?:also\s+)?(?:make|keep|avoid|ensure|prevent|let"
    r"|allow|give|remove|guarantee|help)\b"
    r"|^(?:это|так) (?:позволяет|делает|избавляет)|^(?:esto|isso|isto) (?:hace|permite|evita|torna|garante)")
_FOLLOW_REASON_WIDE = re.compile(
    r"^(?:これにより|これで|こうすることで|そうすることで|この方が|这样(?:可以|就|能|做)|这可以|这能|此举"
    r"|이렇게 하면|이를 통해|그러면|이 방식은)")
# An order of preference with a fallback: "try the system store first and fall back to certifi",
# "まず…、失敗したら…", "先…，失败再…", "먼저 …, 실패하면 …".
_FALLBACK_LATIN = re.compile(
    r"\b(?:first|primary|preferred|prefer)\b.{0,120}\b(?:fall(?:s|ing)? (?:back|through) (?:to|on)|fallbacks? (?:to|on)"
    r"|(?:and|then) (?:only )?if (?:that|it) fails)|\bfallback (?:strategy|chain|order)\b|\d-tier fallback")
_FALLBACK_WIDE = re.compile(
    r"(?:まず|優先).{0,60}(?:失敗したら|失敗した場合|だめなら|フォールバック)|先.{0,40}(?:失败|不行)(?:再|则|时|后)|优先.{0,40}(?:回退|降级)"
    r"|먼저.{0,60}(?:실패하면|안 되면|폴백|대체)")
_DEFERRAL_LATIN = re.compile(
    r"\b(?:later|for now|for the time being|in a (?:future|follow-up|later)|future (?:work|pr|version)"
    r"|out of scope|not (?:yet|now|in this)|postpone|defer(?:red)?|skip(?:ped)? for now|left as|leave (?:it|that|this)"
    r"|todo(?!s? ?(?:list|write|item))|tbd|next time|follow-up|позже|потом|пока что|más tarde|por ahora|depois"
    r"|por enquanto|später|plus tard)\b")
_DEFERRAL_WIDE = re.compile(
    r"後で|後ほど|今後|将来|予定|一旦|いったん|保留|見送|暫定|次回|暂时|以后|之后再|后续|稍后|先不|留待|나중에|추후|일단|보류|다음에")
_HEDGE_LATIN = re.compile(
    r"\b(?:might|may|could|possibly|perhaps|probably|likely|maybe|potential(?:ly)?|possible|suspect|if the"
    r"|whether|check (?:if|whether)|может|возможно|quizás|tal vez|posible|talvez|possível|vielleicht|peut-être)\b")
_HEDGE_WIDE = re.compile(
    r"かもしれ|可能性|考えられ|でしょう|だろう|可能是|可能会|也许|或许|如果|疑似|일 수|수도|가능성|아마")
# The user is asked to do something: set a token, run a step, check on their side.
_USER_TASK_LATIN = re.compile(
    r"\b(?:you(?:'ll| will)? need to|you (?:should|must|have to|can now)|please (?:set|run|add|create|configure"
    r"|check|update|restart|install|provide|confirm|make sure)|make sure (?:you|to)|yourself"
    r"|on your (?:side|end|machine)|manually|нужно (?:будет )?(?:вам|установить|добавить)|вам нужно|necesitas|debes"
    r"|você precisa|deve)\b")
_USER_TASK_WIDE = re.compile(
    r"してください|必要があります|ご自身|手動で|お願いします|你需要|请你|请(?:手动|自行|设置|添加|运行|确认)|需要你|手动"
    r"|您(?:只)?需要|請您|請(?:手動|自行|設定|新增|執行|確認|按照|直接)|手動"  # the same in traditional characters
    r"|직접|해야 합니다|해 주세요|하세요|필요합니다")
_STUB_LATIN = re.compile(
    r"\b(?:stubs?|stubbed|placeholders?|not (?:yet )?implemented|unimplemented|todo(?!s? ?(?:list|write|item))|fixme"
    r"|mock(?:ed)? (?:data|out)"
    r"|hard-?coded for now|dummy|notimplementederror)\b")
_STUB_WIDE = re.compile(r"未実装|スタブ|仮実装|ダミー|占位|桩|未实现|尚未实现|모의|스텁|미구현")
# Work the session itself puts off to later, in the middle of it: "auth will be implemented later",
# "認証は後で実装予定です", "以后再实现登录", "인증은 나중에 구현합니다". Narrower than a deferral cue: it names
# work (implement, add, handle) and a later time.
_DEFERS_WORK = re.compile(
    r"(?i)\b(?:will|to|can|could) (?:be )?(?:implement|add|do|handl|address|buil|tackl|revisit)(?:e|ed|t|d|ne)? "
    r"(?:\S+ ){0,5}(?:later"
    r"|in a (?:later|future|follow-up|separate)\b|next time)|\b(?:left|deferred|postponed|parked) (?:for|to|until)"
    r" (?:later|a (?:later|future|follow-up|separate))"
    r"|(?:後で|後ほど|今後|後日)[^。]{0,20}(?:実装|対応|追加)|(?:実装|対応|追加)(?:する)?予定"
    r"|(?:以后|之后|后续|稍后)[^。]{0,10}(?:再)?(?:实现|添加|处理)|(?:나중에|추후|향후)[^.]{0,20}(?:구현|추가|처리)")
# A fix the session expects to work but did not see work: "should work now", "はずです", "应该可以了".
_UNVERIFIED = re.compile(
    r"(?i)\bshould (?:now )?(?:work|fix|resolve|pass|succeed|complete|finish"
    r"|be (?:fixed|resolved|working|gone|fine|visible|able to))\b|\bshould now (?:show|appear|load|run)\b"
    r"|動くはず|解決するはず|表示されるはず|はずです|应该(?:可以|能|就|会)(?:正常|成功|显示|解决|工作|了)|应该没问题"
    r"|(?:해결될|작동할|동작할|표시될) (?:것입니다|겁니다)")
_QUESTION_TO_USER = re.compile(
    r"[?？]\s*[)\"'」』）]*\s*$|(?:でしょうか|ますか|ませんか)[。]?$|[吗呢][。]?$|(?:까요|습니까|나요)[.]?$"
)


# Cheap gates for ASCII text: a cue's full pattern only runs when one of these stems is in the text.
# (Long English turns are most of a long session; most of them carry no cue at all.)
_GATES = {
    "reason": ("because", "since", "so that", "in order", "to avoid", "to keep", "to make", "to ensure", "to prevent",
               "to fix", "to solve", "to resolve", "to address", "to work around",
               "to support", "to allow", "to reduce", "to match", "to simplify", "due to", "as it", "which keeps",
               "which makes", "which avoids", "which means", "for speed", "for simplicity", "for reproducib",
               "for performance", "for compatib", "for safety", "for consisten", "otherwise", "given that",
               "for privacy", "for security", "reasons", "which ", ", so ",
               "porque", "para ", "ya que", "debido", "pois", "weil", "damit",
               "parce", "afin", "pour ", "to maximi", "to minimi", "to improve", "to preserve", "to protect",
               "to isolate", "to guarantee", "to stay", "to comply", "to decouple", "to speed up", ", ensuring",
               ", avoiding", ", preventing", ", keeping", ", guaranteeing", "or else"),
    "contrast": ("instead", "in lieu", "rather than", "over ", "not ", "favo", "opposed", "en lugar", "en vez",
                 " from ", "replac",
                 "em vez",
                 "invés", "statt", "au lieu", "plutôt"),
    "alternative": ("not ", "no need", "no longer need", "needed", "necessary", "required", "n't need"),
    "choice": ("simplest", "quickest", "best ", "cleanest", "safest", "reliable", "recommended",
               "decid", "chose", "choos", "picked", "opted", "went with", "going with", "go with", "settled",
               "switched", "use", "using", "prefer", "selected", "adopt", "keep", "default", "stick with", "elegi",
               "escolh", "entschied", "verwend", "choisi", "utiliser", "deliberate", "intentional", "on purpose",
               "plan to", "plan is to", "recommend", "suggest", "lets use", "seçti", "tercih", "i'd ", "id ",
               "the right", "the correct", "the better", "switch to", "no reason"),
    "deferral": ("later", "for now", "time being", "future", "follow", "scope", "not yet", "not now", "not in this",
                 "postpone", "defer", "skip", "left as", "leave ", "todo", "tbd", "next time", "más tarde",
                 "por ahora", "depois", "enquanto", "später", "plus tard"),
    "hedge": ("might", "may", "could", "possib", "perhaps", "probab", "likely", "maybe", "potential", "suspect",
              "if the", "whether", "check if", "quizá", "tal vez", "posib", "talvez", "vielleicht", "peut-"),
    "task": ("you", "please", "make sure", "manual", "necesitas", "debes", "precisa", "deve"),
    "stub": ("stub", "placeholder", "implement", "todo", "fixme", "mock", "hard-coded", "hardcoded", "dummy",
             "notimplemented"),
}


# A group of stems: the text they share (or a lone stem), its stems and, for a group, one pattern for them all.
_Group = Tuple[str, Tuple[str, ...], Optional[Callable[[str], Any]]]


def _grouped(stems: Sequence[str]) -> Tuple[_Group, ...]:
    """The stems behind the first three characters they share ("to avoid", "to keep", … behind "to "): one
    scan rules a whole group out. Where the shared text is there, one pattern tries the rest of every stem
    behind it (a search per stem would scan the text again for each). A stem that shares them with no other
    stands alone."""
    groups: Dict[str, List[str]] = {}
    for stem in stems:
        groups.setdefault(stem[:3], []).append(stem)
    return tuple((prefix, tuple(members), re.compile(re.escape(prefix) + "(?:" + "|".join(
        re.escape(stem[len(prefix):]) for stem in members) + ")").search) if len(members) > 1
        else (members[0], tuple(members), None) for prefix, members in groups.items())


def _holds_stem(lowered: str, groups: Tuple[_Group, ...]) -> bool:
    """Whether any of the grouped stems is in `lowered`: the same answer as testing every stem."""
    for shared, _, search in groups:  # noqa: SIM110 - a loop: asked thousands of times, no generator each time
        if shared in lowered and (search is None or search(lowered)):
            return True
    return False


_STEM_GROUPS = {name: _grouped(stems) for name, stems in _GATES.items()}


# The gated cues' verdicts on this summary's sentences: one rule after another asks the same cue of a
# sentence (is_decision, then decision_strength), and agents repeat sentences.
_KNOWN: "SummaryMemo[Tuple[str, str], bool]" = SummaryMemo(50_000)


def _gated(name: str, latin: "re.Pattern[str]", wide: "re.Pattern[str]", text: str) -> bool:
    return _KNOWN.of((name, text), lambda key: _read_cue(name, latin, wide, text))


def _read_cue(name: str, latin: "re.Pattern[str]", wide: "re.Pattern[str]", text: str) -> bool:
    lowered = text.lower()
    if text.isascii():
        return _holds_stem(lowered, _STEM_GROUPS[name]) and bool(latin.search(lowered))
    if wide.search(text) or latin.search(lowered):
        return True
    # The decision cues are written in Simplified Chinese; Traditional text is read through them too.
    return name in _SIMPLIFIED_READ and simplified(text) is not text and bool(wide.search(simplified(text)))


_SIMPLIFIED_READ = frozenset(("reason", "contrast", "alternative", "choice"))


# A sentence in a turn that opens with a reason for the one before it ("… This makes …", "It avoids …").
_FOLLOW_IN_TEXT = re.compile(
    r"(?:^|[.!?:]\s+|\n\s*)(?:this|that|it|doing so|which|these|both)\s+(?:(?:also|then|now|way)\s+)?(?:makes|keeps"
    r"|avoids|means|ensures|prevents|lets|allows|gives|removes|guarantees|is (?:safer|simpler|faster|cleaner|more"
    r"|less)|(?:will|would) (?:make|keep|avoid|ensure|prevent|let|allow|help))\b")
_CHOICE_REASON_STEMS = _GATES["reason"] + _GATES["contrast"]
_CHOICE_REASON_GROUPS = _grouped(_CHOICE_REASON_STEMS)
_FOLLOW_STEMS = ("makes", "keeps", "avoids", "means", "ensures", "prevents", "lets", "allows", "gives", "removes",
                 "guarantees", "is safer", "is simpler", "is faster", "is cleaner", "is more", "is less",
                 "will make", "will keep", "will avoid", "will ensure", "will prevent", "will let", "will allow",
                 "will help", "would make", "would keep", "would avoid", "would ensure", "would help")


_FOLLOW_SUBJECT = re.compile(r"(?:^|[.!?:]\s+|\n\s*)(?:this|that|it|doing so|which|these|both)\s+(?:(?:also|then|now"
                             r"|way)\s+)?$")


def _follows_in(lowered: str) -> bool:
    """Looks only just before each reason verb for the subject that points back ("… This makes")."""
    for stem in _FOLLOW_STEMS:
        position = lowered.find(stem)
        while position > 0:
            if _FOLLOW_SUBJECT.search(lowered, max(0, position - 24), position):
                return bool(_FOLLOW_IN_TEXT.search(lowered, max(0, position - 24)))
            position = lowered.find(stem, position + 1)
    return False


# A verdict on one point of a review or a plan, with its reason after a dash or a colon: "**Skip issue #1**
# — no legacy configs exist", "Keep the tag trigger: only the manual steps change", "見送り：既存の設定はない",
# "跳过：已有覆盖", "보류: 레거시 설정 없음".
_VERDICT_LATIN = re.compile(
    r"^(?:(?:[-*•]|\d{1,2}[.)])\s*)?(?:\*\*)?"
    r"(?:(?:skip|keep|leave|defer|drop|pin|stay with|revert|go with|stick with)\s"
    r"|no (?:\w+ ){0,3}(?:needed|necessary|required)\b|not (?:needed|actionable|worth)\b"
    r"|no (?:change|action)s?(?: needed)?\b)[^—–:\n]{0,80}?(?:\*\*)?\s*(?:—|–|:| - )\s*\S{2,}")
_VERDICT_WIDE = re.compile(
    r"^(?:(?:[-*•]|\d{1,2}[.)])\s*)?(?:\*\*)?[^：:—\n]{0,30}(?:見送り|スキップ|不要|保留|维持|跳过|保持|不需要|不改"
    r"|건너뜀|건너뛰|유지|보류|불필요)[^：:—\n]{0,10}(?:\*\*)?\s*(?:—|–|：|:| - )\s*\S")
_VERDICT_STEMS = ("skip", "keep", "leave", "defer", "drop", "pin", "stay with", "revert", "go with", "stick with",
                  "needed", "necessary", "required", "not actionable", "not worth", "no change", "no action")


# Where a verdict can start in a turn: a line (or list item) opening with one of its words.
_VERDICT_START = re.compile(r"(?m)^[ \t]*(?:(?:[-*•]|\d{1,2}[.)])[ \t]*)?(?:\*\*)?"
                            r"(?:skip|keep|leave|defer|drop|pin|stay|revert|go with|stick|no |not )")


# An option marked as the one to take: "### Option 2: pin the wheel (recommended)", "方案二（推荐）",
# "Método 1 (Recomendado)", "⭐ Recommended:".
_MARKED_RECOMMENDED = re.compile(
    r"(?i)[(（\[]\s*(?:recommended|recomendad[oa]|recomendável|recomendable|рекомендуется|рекомендую|empfohlen"
    r"|recommandée?|推荐|推奨|おすすめ|권장|추천)\s*[)）\]]|^[^a-z0-9]{0,6}(?:\*\*)?(?:recommended|推荐|推奨|권장)"
    r"(?:\*\*)?\s*[:：]")


def marks_recommended(sentence: str) -> bool:
    """An option line marked as the recommended one (the others offered are its alternatives)."""
    if sentence.isascii() and "ecommend" not in sentence:
        return False
    return bool(_MARKED_RECOMMENDED.search(sentence.strip()))


def gives_verdict(sentence: str) -> bool:
    """A verdict on a point (skip, keep, drop, not needed…) followed by its reason after a dash or colon."""
    stripped = sentence.strip()
    if stripped.isascii():
        lowered = stripped.lower()
        return any(stem in lowered for stem in _VERDICT_STEMS) and bool(_VERDICT_LATIN.match(lowered))
    return bool(_VERDICT_WIDE.match(stripped)) or bool(_VERDICT_LATIN.match(stripped.lower()))


def may_hold_decision(text: str) -> bool:
    """Cheap test over a whole turn: could a sentence in it be a choice with a reason or alternative?"""
    if not text.isascii():
        return True
    lowered = text.lower()
    if ("—" in text or ": " in text or " - " in text) and _VERDICT_START.search(lowered):
        return True
    if "ecommend" in text and _MARKED_RECOMMENDED.search(text):
        return True
    if "fall" in lowered and ("fall back" in lowered or "fallback" in lowered or "falls back" in lowered
                              or "falling back" in lowered or "fall through" in lowered):
        return True
    return (_holds_stem(lowered, _STEM_GROUPS["choice"])
            and (_holds_stem(lowered, _CHOICE_REASON_GROUPS) or _follows_in(lowered)))


def may_give_reason_for_previous(text: str) -> bool:
    """Cheap test over a whole turn: could a sentence in it open with the reason for the one before it?"""
    return not text.isascii() or _follows_in(text.lower())


def gives_reason_for_previous(sentence: str) -> bool:
    """"This makes the project self-contained": the reason for the choice the sentence before made."""
    stripped = sentence.strip().lstrip("-*• ")
    if stripped.isascii():
        return bool(_FOLLOW_REASON_LATIN.match(stripped.lower()))
    return bool(_FOLLOW_REASON_WIDE.match(stripped)) or bool(_FOLLOW_REASON_LATIN.match(stripped.lower()))


def has_fallback_order(text: str) -> bool:
    """"X first, falling back to Y": a choice with its alternative, in order of preference."""
    lowered = text.lower()
    if text.isascii():
        return "fall" in lowered and bool(_FALLBACK_LATIN.search(lowered))
    return bool(_FALLBACK_WIDE.search(text)) or bool(_FALLBACK_LATIN.search(lowered))


def rejects_and_replaces(text: str) -> bool:
    """"Don't X, just Y" or "keep X and delete Y": one way turned down and the other named, as a user states
    a choice."""
    lowered = text.lower()
    if text.isascii():
        return ((any(stem in lowered for stem in ("don", "do not", "no need", "never", "won"))
                 and bool(_REJECT_AND_REPLACE_LATIN.search(lowered)))
                or ("keep" in lowered and bool(_KEEP_AND_DROP_LATIN.search(lowered))))
    return (bool(_REJECT_AND_REPLACE_WIDE.search(text)) or bool(_KEEP_AND_DROP_WIDE.search(text))
            or bool(_REJECT_AND_REPLACE_LATIN.search(lowered)) or bool(_KEEP_AND_DROP_LATIN.search(lowered)))


def defers_work(sentence: str) -> bool:
    """The session puts a piece of work off to later ("payments will be implemented later")."""
    lowered = sentence.lower()
    if not any(stem in lowered for stem in _DEFER_STEMS):
        return False
    return bool(_DEFERS_WORK.search(sentence))


_DEFER_STEMS = ("later", "future", "follow-up", "next time", "separate", "後で", "後ほど", "今後", "後日", "予定",
                "以后", "之后", "后续", "稍后", "나중에", "추후", "향후")


def has_reason(text: str) -> bool:
    return _gated("reason", _REASON_LATIN, _REASON_WIDE, text)


def has_contrast(text: str) -> bool:
    return _gated("contrast", _CONTRAST_LATIN, _CONTRAST_WIDE, text)


def names_alternative(text: str) -> bool:
    """A weaker sign of an alternative turned down (", not Y", "no need for Y"): a decision only with a choice."""
    return _gated("alternative", _ALTERNATIVE_LATIN, _ALTERNATIVE_WIDE, text)


def has_choice(text: str) -> bool:
    return _gated("choice", _CHOICE_LATIN, _CHOICE_WIDE, text)


def has_deferral(text: str) -> bool:
    return _gated("deferral", _DEFERRAL_LATIN, _DEFERRAL_WIDE, text)


def is_hedged(text: str) -> bool:
    """A guess, not a fact: "it might be the cache", "可能是缓存"."""
    return _gated("hedge", _HEDGE_LATIN, _HEDGE_WIDE, text)


def is_user_task(text: str) -> bool:
    return _gated("task", _USER_TASK_LATIN, _USER_TASK_WIDE, text)


def mentions_stub(text: str) -> bool:
    return _gated("stub", _STUB_LATIN, _STUB_WIDE, text)


def asks_the_user(text: str) -> bool:
    return bool(_QUESTION_TO_USER.search(text.strip()))


def expects_unverified(text: str) -> bool:
    """The agent expects a fix to work without having seen it work: left for the user to confirm."""
    return bool(_UNVERIFIED.search(text))


# The agent says what it is about to do ("Let me check the config", "I'll move it to …:", "让我来更新这个组件：",
# "では設定を確認します：", "업로드하겠습니다"): work announced, not work done and not work left.
_ANNOUNCES_LATIN = re.compile(
    r"^(?:(?:ok(?:ay)?|now|next|first|then|so|great|alright|perfect|finally|ah|i see)[,!.]?\s+)*"
    r"(?:let me(?! know)|let's|let us|i'll|i will|i'm going to|i am going to|we'll|we will"
    r"|vou|vamos|voy a|сейчас|давай)\b")
_ANNOUNCES_WIDE = re.compile(
    r"^(?:现在|接下来|然后|首先|好的[，,]?)?(?:让我们?|我来|我们来|我将|我会)"
    r"|(?:します|しましょう|いたします|していきます|하겠습니다|하겠음|할게요|하겠어요)[:：。.!！]?$"
    r"|^(?:では|それでは)[、,]")


def announces_work(sentence: str) -> bool:
    """The agent announces what it will do next in the same breath ("Let me …", "让我…", "…します")."""
    stripped = sentence.strip().lstrip("-*•# ").replace("**", "")
    if stripped.isascii():
        return bool(_ANNOUNCES_LATIN.match(stripped.lower()))
    return bool(_ANNOUNCES_WIDE.search(stripped)) or bool(_ANNOUNCES_LATIN.match(stripped.lower()))


# The user says the problem is still there: "still not showing", "还是没有", "まだ表示されない", "아직 안 돼요".
_PERSISTS = re.compile(
    r"(?i)\b(?:still (?:not|no|doesn'?t|don'?t|isn'?t|aren'?t|won'?t|can'?t|fails?|failing|broken|get(?:ting)?"
    r"|see|shows?|the same|happens)|(?:same|this) (?:error|problem|issue) (?:again|still)"
    r"|keeps? (?:failing|crashing|showing))\b"
    r"|(?:还是|仍然|依然)(?:没|不|有|报|出|一样)|まだ[^。]{0,12}(?:ない|ません|エラー|出ます)|相変わらず"
    r"|(?:아직|여전히)(?:도)? ?(?:안|않|오류|에러|똑같)|ainda n[ãa]o|todav[íi]a no|sigue sin|вс[её] ещ[её] не|опять")


def reports_persisting_problem(text: str) -> bool:
    return bool(_PERSISTS.search(text))


# A rule the user lays down for the work: "it should always create the thread", "never pass a threadId",
# "the only thing that may be mocked is the LLM", "必ず…", "不要使用外部请求", "항상 …", "никогда не …".
_RULE_LATIN = re.compile(
    r"\b(?:always|never|must(?:n'?t| not)?|should (?:always|never|not|only|be|use|just)|shouldn'?t|the only \w+"
    r"|only (?:use|when|if|mock|allow|accept)|don'?t (?:ever|use|add|mock|touch|push|change|create)"
    r"|do not (?:use|add|mock|touch|push|change|create)|no (?:mocks?|fallbacks?|backward)"
    r"|siempre|nunca|sempre|всегда|никогда|только|нельзя)\b")
_RULE_WIDE = re.compile(r"必ず|常に|絶対に|だけ(?:を|で|に)|のみ|しないで|禁止"
                        r"|必须|总是|永远|只能|只(?:用|有|在)|不要|不准|一律"
                        r"|항상|절대|반드시|만 (?:사용|허용)|하지 마|금지"
                        # the user turning a thing down: "デモボタンはいりません", "提案しなくて良い", "不需要登录",
                        # "필요 없어요"
                        r"|いりません|いらない|要りません|しなくて(?:良い|いい|大丈夫)|不需要|用不着"
                        r"|필요 없|넣지 마|빼 줘|빼 주세요")
_RULE_STEMS = ("always", "never", "must", "should", "only", "don", "do not", "no mock", "no fallback",
               "no backward", "siempre", "nunca", "sempre")


def states_rule(text: str) -> bool:
    """A rule for the work (always, never, only, must, 必ず, 不要, 항상…), as a user states one."""
    lowered = text.lower()
    if text.isascii():
        return any(stem in lowered for stem in _RULE_STEMS) and bool(_RULE_LATIN.search(lowered))
    return bool(_RULE_WIDE.search(text)) or bool(_RULE_LATIN.search(lowered))

