"""Understand a short chat request ("check", "release 1.4.0", "what's left?", "リリースして") and its language."""
from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Optional, Tuple


class Intent:
    HELP = "help"
    REMAINING = "remaining"  # "what's left?"
    STATUS = "status"
    CHECK = "check"
    RELEASE = "release"
    UNKNOWN = "unknown"
    EMPTY = "empty"


@dataclasses.dataclass(frozen=True)
class Request:
    intent: str
    version: Optional[str] = None  # "1.4.0" when the text names one ("v1.4.0" is read as 1.4.0)
    language: str = "en"  # the language to answer in: en, ja, ko or zh


# Looked up in this order: the first intent with a matching word wins, so "check release 1.4.0"
# is a check and "what's left for the release?" is a question, not an order to release.
_KEYWORDS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    (Intent.HELP, (
        r"\bhelp\b", r"\bhow do i\b", r"\bwhat can you do\b", r"\bcommands?\b", r"\busage\b", r"^\?$",
        "ヘルプ", "使い方", "何ができ", "なにができ", "助けて", "도움말", "도와", "사용법", "帮助", "用法", "怎么用",
    )),
    (Intent.REMAINING, (
        r"\bwhat'?s left\b", r"\bwhat is left\b", r"\bleft\b", r"\bremaining\b", r"\bto ?do\b", r"\bnext\b",
        "残り", "残って", "あと何", "次は", "次に何", "未完了", "남은", "다음", "剩下", "剩余", "还有什么", "下一步",
    )),
    (Intent.STATUS, (
        r"\bstatus\b", r"\bprogress\b", r"\bwhere are we\b", r"\bstate\b", r"\bhow far\b",
        "状態", "ステータス", "進捗", "状況", "상태", "진행", "状态", "进度",
    )),
    (Intent.CHECK, (
        r"\bchecks?\b", r"\bverify\b", r"\bready\b", r"\bpreflight\b", r"\bdry[- ]?run\b",
        "チェック", "確認", "検査", "点検", "検証", "준비", "확인", "점검", "检查", "确认", "验证",
    )),
    (Intent.RELEASE, (
        r"\brelease\b", r"\bship\b", r"\bpublish\b", r"\bcut\b", r"\btag\b",
        "リリース", "出荷", "公開", "릴리스", "릴리즈", "배포", "发布", "发版",
    )),
)
_COMPILED = tuple((intent, tuple(re.compile(pattern) for pattern in patterns)) for intent, patterns in _KEYWORDS)

# "1.4.0", "v1.4.0", "2.0", "1.4.0-rc.1": a version needs at least one dot so "release 2 things" has none.
_VERSION = re.compile(
    r"(?<![A-Za-z0-9_.])v?(\d+\.\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z][0-9A-Za-z.-]*)?(?:\+[0-9A-Za-z.-]+)?)"
    r"(?![A-Za-z0-9_.])")  # ASCII boundaries: "1.4.0をリリース" has a version
# Kanji-only text ("状態", "確認") is Japanese as often as Chinese; these spellings exist only in Japanese
# (Chinese writes 状态, 确认, 进度, 检查), and the Chinese keywords only in Chinese.
_JAPANESE_KANJI_WORDS = ("状態", "進捗", "状況", "確認", "検査", "点検", "検証", "出荷", "公開", "残", "未完了")
_CHINESE_WORDS = ("状态", "进度", "检查", "确认", "验证", "发布", "发版", "帮助", "用法", "剩", "下一步", "还有")
_TRAILING_PUNCTUATION = " \t\r\n?!.。？！、,;:"


def detect_language(text: str) -> str:
    """ja for kana, ko for hangul, zh for Han characters alone, else en."""
    has_han = False
    for char in text:
        code = ord(char)
        if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0xFF66 <= code <= 0xFF9F:
            return "ja"
        if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
            return "ko"
        if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF:
            has_han = True
    return "zh" if has_han else "en"


def find_version(text: str) -> Optional[str]:
    match = _VERSION.search(text)
    return match.group(1) if match else None


def normalize(text: str) -> str:
    """Full-width to half-width, lower case, curly apostrophes straight, no leading slash."""
    folded = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'").lower()
    folded = " ".join(folded.split()).strip(_TRAILING_PUNCTUATION)
    # Slash commands from the client's command menu arrive as plain text ("/release 1.4.0").
    return folded[1:].lstrip() if folded.startswith("/") else folded


def parse_request(text: str, fallback_language: str = "en") -> Request:
    """Read one prompt; anything unrecognised is Intent.UNKNOWN (the agent answers with what it can do)."""
    language = detect_language(text)
    if language == "en" and not re.search(r"[A-Za-z]", text):
        language = fallback_language  # "1.4.0?" says nothing about the language; keep the last one
    cleaned = normalize(text)
    if language == "zh" and not any(word in cleaned for word in _CHINESE_WORDS) and (
            fallback_language == "ja" or any(word in cleaned for word in _JAPANESE_KANJI_WORDS)):
        language = "ja"
    if unicodedata.normalize("NFKC", text).strip() == "?":
        return Request(Intent.HELP, None, language)
    if not cleaned:
        return Request(Intent.EMPTY, None, language)
    version = find_version(cleaned)
    # The version must not read as a word: "release 1.4.0" should not match "\bcut\b" etc. inside it.
    words = _VERSION.sub(" ", cleaned) if version else cleaned
    for intent, patterns in _COMPILED:
        if any(pattern.search(words) for pattern in patterns):
            return Request(intent, version, language)
    if version and not words.strip(_TRAILING_PUNCTUATION + " v"):
        return Request(Intent.CHECK, version, language)  # a bare "1.4.0" asks to check that version
    return Request(Intent.UNKNOWN, version, language)
