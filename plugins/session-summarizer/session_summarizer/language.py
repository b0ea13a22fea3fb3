"""Guesses the session's language (en, ja, ko, zh) from the scripts its user turns are written in."""

import re
from typing import Iterable

SUPPORTED = ("en", "ja", "ko", "zh")

_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_HAN = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")
_LATIN = re.compile(r"[A-Za-z]")
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.S)
_SAMPLE_CHARS = 20_000


def detect_language(texts: Iterable[str], fallback: str = "en") -> str:
    """Return the language most of the prose is in; code blocks are ignored because code is English."""
    sample_parts = []
    size = 0
    for text in texts:
        part = _CODE_BLOCK.sub(" ", text[:4000])
        sample_parts.append(part)
        size += len(part)
        if size >= _SAMPLE_CHARS:
            break
    sample = "\n".join(sample_parts)
    kana = len(_KANA.findall(sample))
    hangul = len(_HANGUL.findall(sample))
    han = len(_HAN.findall(sample))
    latin_words = len(re.findall(r"[A-Za-z]{2,}", sample))
    # One CJK character carries about as much as one English word, hence the comparison with words.
    cjk = kana + hangul + han
    if cjk == 0 or cjk < 0.5 * latin_words:
        return "en" if latin_words else (fallback if fallback in SUPPORTED else "en")
    if hangul >= kana and hangul >= han * 0.5 and hangul > 0:
        return "ko"
    if kana > 0 and kana >= 0.05 * (kana + han):
        return "ja"
    return "zh"
