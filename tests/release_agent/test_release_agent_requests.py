"""What short chat requests mean, in English, Japanese, Korean and Chinese."""
from __future__ import annotations

import pytest
from release_agent.requests import Intent, detect_language, find_version, parse_request


@pytest.mark.parametrize(("text", "intent", "version"), [
    ("check", Intent.CHECK, None),
    ("Check 1.4.0", Intent.CHECK, "1.4.0"),
    ("/check", Intent.CHECK, None),
    ("are we ready to release v2.0.1?", Intent.CHECK, "2.0.1"),
    ("check release 1.4.0", Intent.CHECK, "1.4.0"),
    ("release 1.4.0", Intent.RELEASE, "1.4.0"),
    ("/release v1.4.0-rc.1", Intent.RELEASE, "1.4.0-rc.1"),
    ("Ship it", Intent.RELEASE, None),
    ("status", Intent.STATUS, None),
    ("What's the progress on 1.4.0?", Intent.STATUS, "1.4.0"),
    ("what's left?", Intent.REMAINING, None),
    ("What\u2019s left for the release?", Intent.REMAINING, None),
    ("help", Intent.HELP, None),
    ("?", Intent.HELP, None),
    ("1.4.0", Intent.CHECK, "1.4.0"),
    ("make me a sandwich", Intent.UNKNOWN, None),
    ("   ", Intent.EMPTY, None),
    ("チェックして", Intent.CHECK, None),
    ("リリース前の確認", Intent.CHECK, None),
    ("１．４．０をリリースして", Intent.RELEASE, "1.4.0"),
    ("リリース 1.4.0", Intent.RELEASE, "1.4.0"),
    ("状態は？", Intent.STATUS, None),
    ("残りは？", Intent.REMAINING, None),
    ("あと何が残ってる？", Intent.REMAINING, None),
    ("ヘルプ", Intent.HELP, None),
    ("何ができるの？", Intent.HELP, None),
    ("릴리스 1.4.0", Intent.RELEASE, "1.4.0"),
    ("남은 단계", Intent.REMAINING, None),
    ("发布 1.4.0", Intent.RELEASE, "1.4.0"),
    ("检查", Intent.CHECK, None),
])
def test_intents_and_versions(text: str, intent: str, version: str) -> None:
    request = parse_request(text)
    assert (request.intent, request.version) == (intent, version)


def test_a_version_is_not_read_inside_other_numbers() -> None:
    assert find_version("release 2 things") is None
    assert find_version("see issue #12.5x") is None
    assert find_version("v10.20.30+build.7") == "10.20.30+build.7"
    assert parse_request("release in 2 days").version is None


@pytest.mark.parametrize(("text", "language"), [
    ("check", "en"), ("チェック", "ja"), ("リリース前の確認", "ja"), ("확인", "ko"), ("检查", "zh"), ("1.4.0", "en"),
])
def test_language_detection(text: str, language: str) -> None:
    assert detect_language(text) == language


@pytest.mark.parametrize(("text", "previous", "language"), [
    ("状態", "en", "ja"), ("確認", "en", "ja"), ("状态", "en", "zh"), ("检查", "ja", "zh"), ("发布 1.4.0", "en", "zh"),
    ("帮助", "ja", "zh"), ("リリース", "zh", "ja"),
])
def test_kanji_only_prompts_are_told_apart(text: str, previous: str, language: str) -> None:
    assert parse_request(text, fallback_language=previous).language == language


def test_a_prompt_without_words_keeps_the_previous_language() -> None:
    assert parse_request("1.4.0?", fallback_language="ja").language == "ja"
    assert parse_request("check 1.4.0", fallback_language="ja").language == "en"
