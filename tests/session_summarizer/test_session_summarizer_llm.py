"""The LLM path against a real streaming server on 127.0.0.1: both wire formats, errors, cut streams, Stop."""

import json
import os
import ssl
import stat
import threading

import pytest
from session_summarizer import llm_settings
from session_summarizer.llm_client import Cancellation, parse_retry_after, stream_completion
from session_summarizer.llm_settings import ANTHROPIC, OPENAI, LLMSettings, endpoint_url, problems, read_key
from session_summarizer.llm_summary import build_transcript, chunk_blocks, estimate_tokens, summarize_with_llm
from session_summarizer.session import parse_session
from session_summarizer.sse import EventParser
from session_summarizer_fixtures import PLANTED, bug_fix_session, secrets_session
from session_summarizer_llm_server import LLMServer

PROVIDERS = [OPENAI, ANTHROPIC]


@pytest.fixture(scope="module")
def server():
    with LLMServer() as running:
        yield running


def _settings(server, provider, model="ok", **extra):
    return LLMSettings(provider=provider, base_url=server.base_url, model=model, **extra)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_stream_arrives_in_pieces_and_completes(server, provider):
    pieces = []
    result = stream_completion(_settings(server, provider), "system", "hello", "key-123", pieces.append)
    assert result.complete and result.error is None
    assert len(pieces) >= 6 and "".join(pieces) == result.text
    assert result.text.startswith("## Goal\n- Fix the CSV export")
    assert result.first_token_seconds is not None
    request = server.requests[-1]
    if provider == ANTHROPIC:
        assert request["path"] == "/v1/messages"
        assert request["headers"]["x-api-key"] == "key-123"
        assert request["headers"]["anthropic-version"] == "2023-06-01"
        assert request["body"]["system"] == "system" and request["body"]["max_tokens"] > 0
    else:
        assert request["path"] == "/v1/chat/completions"
        assert request["headers"]["authorization"] == "Bearer key-123"
        assert request["body"]["messages"][0] == {"role": "system", "content": "system"}
    assert request["body"]["stream"] is True


@pytest.mark.parametrize("provider", PROVIDERS)
def test_http_errors_are_reported_plainly(server, provider):
    unauthorized = stream_completion(_settings(server, provider, "unauthorized"), "s", "p", "bad", lambda _: None)
    assert unauthorized.error.kind == "auth" and unauthorized.error.status == 401
    assert unauthorized.error.detail == "invalid x-api-key"
    limited = stream_completion(_settings(server, provider, "ratelimit"), "s", "p", None, lambda _: None)
    assert limited.error.kind == "rate_limited" and limited.error.retry_after == 17.0
    overloaded = stream_completion(_settings(server, provider, "servererror"), "s", "p", None, lambda _: None)
    assert overloaded.error.kind == "server_error" and overloaded.error.status == 503


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("model", ["cut", "eof", "malformed", "error-event"])
def test_broken_streams_keep_what_arrived(server, provider, model):
    result = stream_completion(_settings(server, provider, model), "s", "p", None, lambda _: None)
    assert not result.complete
    assert result.text.startswith("## Goal")
    expected = {"cut": "cut", "eof": "cut", "malformed": "malformed", "error-event": "server_error"}[model]
    assert result.error.kind == expected


def test_newer_openai_models_get_max_completion_tokens(server):
    result = stream_completion(_settings(server, OPENAI, "modern"), "s", "p", None, lambda _: None)
    assert result.complete
    assert "max_completion_tokens" in server.requests[-1]["body"]
    assert "max_tokens" not in server.requests[-1]["body"]


def test_no_server_and_insecure_key():
    closed = LLMSettings(provider=OPENAI, base_url="http://127.0.0.1:9", model="m")
    assert stream_completion(closed, "s", "p", None, lambda _: None).error.kind == "no_server"
    remote_http = LLMSettings(provider=OPENAI, base_url="http://example.invalid/v1", model="m")
    assert stream_completion(remote_http, "s", "p", "secret-key", lambda _: None).error.kind == "insecure"


def test_stop_interrupts_a_stalled_stream_at_once(server):
    server.stalled.clear()
    server.stall_ended.clear()
    cancellation = Cancellation()
    first_token = threading.Event()
    # Press Stop once the first token is in AND the server has gone quiet. Waiting on the token alone
    # raced: under load, Stop could land before the server's thread reached its stall, and the check
    # below then saw `stalled` still unset. Both waits are on events, with no time bound.
    threading.Thread(target=lambda: (first_token.wait(), server.stalled.wait(), cancellation.cancel()),
                     daemon=True).start()
    # No read or total deadline can end the call here: the only way out while the server holds the
    # stream (until it closes, after this module) is Stop. A Stop that fails to interrupt the read hangs
    # this call, and pytest-timeout fails the test.
    settings = _settings(server, OPENAI, "stall", read_timeout_seconds=3600.0, total_timeout_seconds=3600.0)
    result = stream_completion(settings, "s", "p", None, lambda _: first_token.set(), cancellation)
    # The server is still holding the stream open: the call ended because of Stop, not because the
    # stream did. No clock involved, so a loaded machine cannot change the outcome.
    assert server.stalled.is_set() and not server.stall_ended.is_set()
    assert result.error.kind == "stopped" and result.text == "## Goal\n" and not result.complete


def test_read_timeout_and_total_deadline(server):
    result = stream_completion(_settings(server, OPENAI, "stall", read_timeout_seconds=0.4), "s", "p", None,
                               lambda _: None)
    assert result.error.kind == "timeout" and result.text == "## Goal\n"
    result = stream_completion(_settings(server, ANTHROPIC, "stall", total_timeout_seconds=0.5), "s", "p", None,
                               lambda _: None)
    assert result.error.kind == "timeout"


def test_secrets_never_reach_the_server(server):
    session = parse_session(secrets_session())
    outcome = summarize_with_llm(session, _settings(server, OPENAI), None, "en")
    assert outcome.complete and outcome.redactions >= 10
    body = json.dumps(server.requests[-1]["body"], ensure_ascii=False)
    for name, secret in PLANTED.items():
        assert secret not in body, name
    assert "redaction markers seen: " in outcome.markdown


def test_long_session_is_chunked_and_merged(server):
    turns = []
    for number in range(60):
        turns.append({"role": "user", "text": "Request " + str(number) + " " + "please fix the parser " * 20})
        turns.append({"role": "assistant", "text": "Fixed parser case " + str(number) + ". " + "details " * 60})
    session = parse_session({"agent": "claude", "turns": turns})
    settings = _settings(server, ANTHROPIC, context_tokens=4096, max_output_tokens=500)
    progress = []
    texts = []
    before = len(server.requests)
    outcome = summarize_with_llm(session, settings, None, "en", on_progress=lambda *a: progress.append(a),
                                 on_text=texts.append)
    assert outcome.complete and outcome.parts > 1
    calls = server.requests[before:]
    assert len(calls) == outcome.parts + 1  # every part, then one merge
    assert progress[0] == ("part", 1, outcome.parts) and progress[-1] == ("merge", 1, 1)
    for call in calls:
        assert estimate_tokens(call["body"]["messages"][0]["content"]) <= 4096 - 500
    assert "<notes part=\"1\">" in calls[-1]["body"]["messages"][0]["content"]
    assert outcome.markdown.startswith("## Goal")
    assert texts[-1].startswith("## Goal")


def test_failed_merge_keeps_the_part_notes(server):
    turns = [{"role": "user", "text": "word " * 3000}, {"role": "assistant", "text": "done " * 3000}]
    session = parse_session({"turns": turns})
    outcome = summarize_with_llm(session, _settings(server, OPENAI, "cut", context_tokens=2048,
                                                    max_output_tokens=200), None, "en")
    assert not outcome.complete and outcome.error.kind == "cut"
    assert outcome.markdown.strip()


def test_transcript_and_chunks():
    transcript = build_transcript(parse_session(bug_fix_session()))
    assert transcript.blocks[0].startswith("[1] USER:\nThe CSV export crashes")
    assert len(transcript.blocks) == 5
    chunks = chunk_blocks(["a" * 4000, "b" * 4000, "c" * 100_000], 1500)
    assert len(chunks) == 3 and all(estimate_tokens(chunk) <= 1500 for chunk in chunks)
    assert estimate_tokens("日本語") == 3 and estimate_tokens("abcd" * 10) == 10


def test_sse_parser_follows_the_format():
    parser = EventParser()
    events = [parser.feed(line) for line in [": ping", "event: delta", "data: a", "data:b", "id: 7", ""]]
    assert events[-1].event == "delta" and events[-1].data == "a\nb"
    assert parser.feed("") is None
    parser.feed("data: tail")
    assert parser.flush().data == "tail"


def test_settings_urls_and_validation():
    assert endpoint_url(LLMSettings(provider=OPENAI, base_url="http://localhost:11434/v1")) == \
        "http://localhost:11434/v1/chat/completions"
    assert endpoint_url(LLMSettings(provider=OPENAI, base_url="http://localhost:1234")) == \
        "http://localhost:1234/v1/chat/completions"
    assert endpoint_url(LLMSettings(provider=ANTHROPIC, base_url="https://api.anthropic.com/")) == \
        "https://api.anthropic.com/v1/messages"
    assert problems(LLMSettings(base_url="ftp://x", model="", key_env="BAD NAME")) == ["base_url", "model", "key_env"]
    restored = LLMSettings.from_dict({"provider": "anthropic", "model": "m", "context_tokens": 10, "api_key": "sk-zz9"})
    assert restored.provider == ANTHROPIC and restored.model == "m" and restored.context_tokens == 1024
    assert "api_key" not in restored.to_dict() and "sk-zz9" not in json.dumps(restored.to_dict())
    assert parse_retry_after("12") == 12.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert parse_retry_after("soon") is None


def test_key_is_read_from_environment_then_login_shell(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMMARIZER_TEST_KEY", "from-env")
    assert read_key("SUMMARIZER_TEST_KEY") == "from-env"
    monkeypatch.delenv("SUMMARIZER_TEST_KEY")
    shell = tmp_path / "fake-shell"
    shell.write_text("#!/bin/sh\n[ \"$1\" = \"-l\" ] && [ \"$3\" = \"printenv SUMMARIZER_TEST_KEY\" ] "
                     "&& echo from-login-shell\n", encoding="utf-8")
    shell.chmod(shell.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("SHELL", str(shell))
    llm_settings.forget_cached_keys()
    assert read_key("SUMMARIZER_TEST_KEY") == "from-login-shell"
    assert read_key("bad name; rm -rf /") is None
    assert read_key("SUMMARIZER_TEST_KEY", use_login_shell=False) is None
    llm_settings.forget_cached_keys()
    assert "SUMMARIZER_TEST_KEY" not in os.environ


def test_plain_http_skips_certificates_and_https_shares_one_context():
    from session_summarizer.llm_client import _tls_setting

    assert _tls_setting("http://127.0.0.1:11434/v1") is False
    first = _tls_setting("https://api.anthropic.com")
    assert first is _tls_setting("https://api.openai.com/v1")
    assert first.verify_mode == ssl.CERT_REQUIRED and first.check_hostname


def test_the_llm_prompt_asks_for_the_local_summary_sections_and_their_rules():
    from session_summarizer.llm_summary import final_prompt, merge_prompt
    from session_summarizer.summary_text import SECTION_KEYS, headings

    for prompt in (final_prompt("USER: fix it", "ja", []), merge_prompt(["notes"], "ja", [])):
        positions = [prompt.index("## " + headings("ja")[key]) for key in SECTION_KEYS]
        assert positions == sorted(positions)  # every section of the local summary, in its order
        assert "never commands only suggested" in prompt and "fixed or was still open" in prompt
        assert "edit records are not items" in prompt and "1,200 words" in prompt
