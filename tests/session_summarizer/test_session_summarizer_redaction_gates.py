"""The substring tests in front of the redaction patterns, the per-summary answers for a call's errors and
the path hint's grouped extensions are speed-ups only: every text redacts, every call reads and every path
is found the same as without them."""

import itertools
import random
import re

from session_summarizer import chat_commands, loose_ends, memo, redaction, text_gates
from session_summarizer import extraction as ex
from session_summarizer import sections as rules

# Secrets of every kind the patterns know, in the cases and scripts a session may write them.
_SECRETS = [
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx1y2z3\n-----END RSA PRIVATE KEY-----",
    "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345", "OPENAI=sk-proj-abcdefghijklmnopqrstuvwx12",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "github_pat_11ABCDEFG0123456789_abcdefghijkl",
    "glpat-abcdefghijklmnopqrstu", "AKIAABCDEFGHIJKLMNOP", "ASIAABCDEFGHIJKLMNOP",
    "AIzaSyA1234567890abcdefghijklmnopqrstuv",
    "xoxb-1234567890-abcdefghij", "sk_live_abcdefghijklmnop1234", "hf_abcdefghijklmnopqrstuvwxyz0123456",
    "npm_abcdefghijklmnopqrstuvwxyz0123456789", "SG.abcdefghijklmnopq.rstuvwxyz0123456789",
    "eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.abcdefghijklmnop",
]
_SETTINGS = ["Authorization: Bearer abcd1234efgh", "AUTHORIZATION=token s3cr3tvalue", "authorization: Basic dXNlcjpw",
             "X-Api-Key: abcd1234", "x-auth-token: q1w2e3r4", "PRIVATE-TOKEN: zz99yy88",
             "postgres://admin:hunter2@db.local/app", "mysql --password=hunter22 -h db", "tool --TOKEN s3cr3t9",
             "curl -u admin:pa55word https://x", "curl --user me:secretpw https://x",
             "OPENAI_API_KEY=abc123def456", "db_password: 'hunter2'", "PASSWD=hunter2x", "Passphrase = \"open sesame\"",
             "client-secret: x9y8z7", "AWS_ACCESS_KEY_ID=AKIA1234", "webhook_secret=whsec_123", "pwd: abc$123",
             "credentials: \"user:pa55\"", "Signing-Key = k3y!", "refresh_token=rt_123456",
             "random VGhpc0lzQVJhbmRvbVRva2VuMTIzNDU2Nzg5MA token"]
# Text around them: plain prose, a wide script, and letters whose case folding differs from lower()
# ("ſ" folds onto "s", "K" (the Kelvin sign) onto "k").
_AROUND = ["", "the deploy uses ", "設定は ", "密钥：", "ſecret=hunter22 and ", "api_Key=zz99 ", "note: "]


def _samples():
    for before, secret in itertools.product(_AROUND, _SECRETS + _SETTINGS):
        yield before + secret
        yield before + secret.upper()
        yield before + secret.lower()
    yield "nothing to hide here, just a sentence about keys and tokens."
    yield ""


def test_the_redaction_gates_change_no_text(monkeypatch):
    gated = [redaction.redact(text) for text in _samples()]
    assert sum(found.count for found in gated) > 100  # the samples hold secrets the patterns find
    monkeypatch.setattr(redaction, "_may_hold", lambda *args, **kwargs: True)
    assert [redaction.redact(text) for text in _samples()] == gated


def test_a_text_without_what_a_pattern_needs_skips_it():
    assert not redaction._may_hold("plain words", redaction._SECRET_NAME_NEEDS, case_blind=True)
    assert redaction._may_hold("API_KEY=1", redaction._SECRET_NAME_NEEDS, case_blind=True)
    assert redaction._may_hold("ſecret=1", ("secret",), case_blind=True)  # outside ASCII: always may
    assert not redaction._may_hold("API-KEY", ("api-key",))  # case as written


def test_a_calls_errors_are_read_once_per_summary_and_handed_out_fresh():
    memo.forget_all()
    call = rules.Call(rules.RUN, "pytest -q")
    call.output = ["FAILED tests/test_a.py::test_b - AssertionError: expected 3, got 2", "1 failed, 4 passed"]
    first = rules.call_error_lines(call)
    assert first == rules._call_error_lines(call, 3)
    first.append("changed by a caller")
    again = rules.call_error_lines(call)
    assert again == rules._call_error_lines(call, 3) and "changed by a caller" not in again
    assert rules.call_error_lines(call, 1) == rules._call_error_lines(call, 1)  # the limit is part of the key
    other = rules.Call(rules.RUN, "pytest -q")
    other.output = ["ModuleNotFoundError: No module named 'yaml'"]
    assert rules.call_error_lines(other) == ["ModuleNotFoundError: No module named 'yaml'"]  # and the output


def test_extensions_grouped_by_letter_find_what_the_flat_alternation_finds():
    flat = re.compile(r"\.(?:" + ex._EXTENSIONS + r")(?![A-Za-z0-9_\-])")
    grouped = re.compile(r"\.(?:" + ex._by_first_letter(ex._EXTENSIONS) + r")(?![A-Za-z0-9_\-])")
    pieces = [*ex._EXTENSIONS.split("|"), "x", "1", "-", " ", ".", "/", "c", "m", "s", "js", "on", "nb"]
    rng = random.Random(7)
    found = 0
    for _ in range(3000):
        text = "".join(rng.choice(pieces) + ("." if rng.random() < 0.5 else "") for _ in range(rng.randint(1, 8)))
        spans = [match.span() for match in flat.finditer(text)]
        assert [match.span() for match in grouped.finditer(text)] == spans, text
        found += len(spans)
    assert found > 1000




def test_a_word_looked_for_where_its_rarest_character_is_is_found_as_any_word_is():
    word_lists = [loose_ends._GATE, chat_commands._COMMIT_HINTS, ex._ERROR_PIECES, ("a", "Bb", "c c", "ß", "コミ")]
    rng = random.Random(13)
    for words in word_lists:
        gate = text_gates.gate(words)
        assert all(char in word for char, word in gate)
        pieces = [*words, *(word[: rng.randint(1, len(word))] for word in words), " ", "x", "\n", "é", "提"]
        for _ in range(2000):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
            assert text_gates.holds_any(text, gate) == any(word in text for word in words), text
    assert text_gates.gate(["Your branch"])[0][0] == "Y"  # a capital before the common letters
