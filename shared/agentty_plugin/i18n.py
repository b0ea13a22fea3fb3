"""A small translation helper for panel text in en/ja/ko/zh, plus relative times in each language."""

from __future__ import annotations

from .context import SUPPORTED_LANGUAGES, normalize_language

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Mapping

    Messages = Mapping[str, str]


class Translator:
    """Message catalogs per language; a missing key falls back to English, then to the key itself."""

    def __init__(self, catalogs: Mapping[str, Messages]) -> None:
        if "en" not in catalogs:
            raise ValueError("a Translator needs an 'en' catalog to fall back to")
        self.catalogs: Dict[str, Messages] = {normalize_language(k): v for k, v in catalogs.items()}

    def missing(self) -> Dict[str, list]:  # type: ignore[type-arg]
        """Keys present in English but absent from each other catalog (for tests)."""
        english = set(self.catalogs["en"])
        return {
            lang: sorted(english - set(self.catalogs.get(lang, {})))
            for lang in SUPPORTED_LANGUAGES
            if lang != "en"
        }

    def get(self, language: str, key: str, **values: Any) -> str:
        catalog = self.catalogs.get(normalize_language(language), {})
        template = catalog.get(key)
        if template is None:
            template = self.catalogs["en"].get(key, key)
        if not values:
            return template
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            # A translation with a broken placeholder must not break the panel.
            return self.catalogs["en"].get(key, key).format(**values)

    def for_language(self, language: Any) -> Callable[..., str]:
        """A `t(key, **values)` function bound to one language."""
        lang = normalize_language(language)

        def translate(key: str, **values: Any) -> str:
            return self.get(lang, key, **values)

        return translate


_UNITS = {
    "en": ("just now", "{n} second ago", "{n} seconds ago", "{n} minute ago", "{n} minutes ago",
           "{n} hour ago", "{n} hours ago", "{n} day ago", "{n} days ago", "{n} month ago", "{n} months ago",
           "{n} year ago", "{n} years ago", "in the future"),
    "ja": ("たった今", "{n}秒前", "{n}秒前", "{n}分前", "{n}分前", "{n}時間前", "{n}時間前", "{n}日前", "{n}日前",
           "{n}か月前", "{n}か月前", "{n}年前", "{n}年前", "これから"),
    "ko": ("방금", "{n}초 전", "{n}초 전", "{n}분 전", "{n}분 전", "{n}시간 전", "{n}시간 전", "{n}일 전", "{n}일 전",
           "{n}개월 전", "{n}개월 전", "{n}년 전", "{n}년 전", "앞으로"),
    "zh": ("刚刚", "{n}秒前", "{n}秒前", "{n}分钟前", "{n}分钟前", "{n}小时前", "{n}小时前", "{n}天前", "{n}天前",
           "{n}个月前", "{n}个月前", "{n}年前", "{n}年前", "将来"),
}


def relative_time(seconds_ago: float, language: Any = "en") -> str:
    """"3 minutes ago" / "3分前" / "3분 전" / "3分钟前" for an age in seconds."""
    words = _UNITS[normalize_language(language)]
    if seconds_ago < -60:
        return words[13]
    seconds = int(max(seconds_ago, 0))
    if seconds < 10:
        return words[0]
    for limit, unit, one, many in (
        (60, 1, 1, 2), (3600, 60, 3, 4), (86400, 3600, 5, 6),
        (30 * 86400, 86400, 7, 8), (365 * 86400, 30 * 86400, 9, 10),
    ):
        if seconds < limit:
            n = seconds // unit
            return words[one if n == 1 else many].format(n=n)
    n = seconds // (365 * 86400)
    return words[11 if n == 1 else 12].format(n=n)
