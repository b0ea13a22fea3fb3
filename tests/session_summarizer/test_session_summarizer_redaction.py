"""Secret redaction: planted secrets of every supported kind disappear; ordinary code and prose survive."""

import random
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from session_summarizer.local_summary import summarize
from session_summarizer.notes import NoteInfo, save_note
from session_summarizer.redaction import looks_random, redact, redact_text
from session_summarizer.session import parse_session
from session_summarizer.worktree import check_files
from session_summarizer_fixtures import PLANTED, secrets_session


def test_every_planted_secret_is_removed_from_the_session_text():
    session = secrets_session()
    text = "\n".join(turn["text"] for turn in session["turns"])
    cleaned = redact(text)
    for name, secret in PLANTED.items():
        assert secret not in cleaned.text, name
    assert cleaned.count >= len(PLANTED) - 1  # the private key body goes with its block
    assert {"openai-key", "anthropic-key", "github-token", "aws-access-key", "slack-token", "private-key",
            "secret", "password"} <= set(cleaned.kinds)


def test_local_summary_of_the_secrets_session_leaks_nothing(tmp_path):
    markdown = summarize(parse_session(secrets_session(str(tmp_path)))).markdown
    for name, secret in PLANTED.items():
        assert secret not in markdown, name
    assert "[REDACTED:" in markdown
    assert "rotate every key" in markdown  # the useful text around the secrets stays


def test_headers_keep_their_scheme_and_lose_the_credential():
    assert redact_text("Authorization: Bearer abc123def456") == "Authorization: Bearer [REDACTED:authorization]"
    assert redact_text("authorization: Basic dXNlcjpwYXNz") == "authorization: Basic [REDACTED:authorization]"
    assert redact_text("x-api-key: k-12345678") == "x-api-key: [REDACTED:api-key]"


def test_env_and_config_assignments():
    text = "export STRIPE_SECRET_KEY=whsec_live_abcdef\nDB_PASSWORD='p@ss w0rd'\nSECRET_KEY_BASE=deadbeef99\n"
    cleaned = redact_text(text)
    assert "whsec_live_abcdef" not in cleaned and "p@ss w0rd" not in cleaned and "deadbeef99" not in cleaned
    assert cleaned.startswith("export STRIPE_SECRET_KEY=[REDACTED:")
    assert "DB_PASSWORD='[REDACTED:secret]'" in cleaned
    assert redact_text('{"client_secret": "abc.def-123"}') == '{"client_secret": "[REDACTED:secret]"}'


def test_command_line_secrets():
    assert "hunter22" not in redact_text("mysql --password=hunter22 -u root")
    assert "pa55word" not in redact_text("curl -u admin:pa55word https://example.com")
    assert "s3cret" not in redact_text("git clone https://bob:s3cret@github.com/x/y.git")
    assert "github.com/x/y.git" in redact_text("git clone https://bob:s3cret@github.com/x/y.git")


def test_a_cut_private_key_is_replaced_and_the_text_after_it_stays():
    body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
    text = "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n" + body + "\n" + body[:40] + "\nmore text after it"
    assert redact_text(text) == "key:\n[REDACTED:private-key]\nmore text after it"
    one_line = "pasted -----BEGIN RSA PRIVATE KEY----- " + body + " " + body + " and then it failed"
    assert redact_text(one_line) == "pasted [REDACTED:private-key] and then it failed"
    headers = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0F3A\n\n" + body
    assert redact_text(headers + "\n-----END RSA PRIVATE KEY-----\nok") == "[REDACTED:private-key]\nok"


def test_ordinary_text_is_left_alone():
    samples = [
        "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed it",
        "request id 550e8400-e29b-41d4-a716-446655440000",
        "max_tokens = 4096 and the tokenizer = load()",
        "the token: it expires hourly",
        "Renamed handleUserProfileUpdate2024 in src/components/UserProfileCard.tsx",
        "password = os.environ['DB_PASSWORD']",
        "api_key = ${OPENAI_API_KEY}",
        "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "ログイン画面でパスワードを間違えると500エラーになります",
    ]
    for sample in samples:
        assert redact_text(sample) == sample, sample


def test_redaction_is_idempotent_on_its_own_markers():
    once = redact_text("OPENAI_API_KEY=" + PLANTED["openai"] + " Authorization: Bearer zz99yy88xx77")
    assert redact_text(once) == once


_ALPHABET = string.ascii_letters + string.digits


@settings(max_examples=200, deadline=None)
@given(prefix=st.text(max_size=60), suffix=st.text(max_size=60),
       body=st.text(alphabet=_ALPHABET, min_size=36, max_size=36))
def test_provider_keys_never_survive_whatever_surrounds_them(prefix, suffix, body):
    for key in ("sk-proj-" + body, "ghp_" + body, "sk-ant-api03-" + body):
        text = prefix + " " + key + " " + suffix
        assert key not in redact_text(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_redaction_never_crashes_and_is_stable(text):
    once = redact(text)
    assert redact(once.text).text == once.text


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=40, max_value=64))
def test_random_tokens_with_mixed_classes_are_flagged(seed, length):
    # Drawn the way key material is: each character uniformly from letters and digits (a seeded
    # generator, so Hypothesis picks seeds rather than shrinking the characters toward "aaaa").
    draw = random.Random(seed)
    token = "".join(draw.choice(_ALPHABET) for _ in range(length))
    assert looks_random(token), token


@pytest.mark.parametrize("token", [
    "Zx7Qp2Lm9Vt4Rb8Nc1Wd6Ks3Hg5Jf0AaEeIiOoUu12",  # a generated key
    "dGhpcyBpcyBub3QgYSBrZXkgYnV0IGxvb2tzIGxpa2U",  # base64 of text
])
def test_known_key_shapes_are_flagged(token):
    assert looks_random(token)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=_ALPHABET, min_size=40, max_size=64))
def test_tokens_without_all_three_character_classes_are_not_flagged(token):
    has_all = any(c.isdigit() for c in token) and any(c.islower() for c in token) and any(
        c.isupper() for c in token)
    if not has_all:
        assert not looks_random(token)


@pytest.mark.parametrize("token", [
    "handleUserProfileUpdateForTheCurrentAccount2",  # an identifier: mostly words
    "0123456789abcdef0123456789abcdef01234567",  # a commit hash
    "src/components/settings/AccountSettingsPanel",  # a path of words
])
def test_identifiers_hashes_and_paths_are_not_flagged(token):
    assert not looks_random(token)


KEY_BODY = ("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
            "QyNTUxOQAAACDq8Xk2Lm3Nq4Pr5St6Uv7Wx8Yz9Ab0Cd1Ef2Gh3Ij4KwAAAJgZx2Vt")


def _cut_key_session():
    """Six turns; the first ask quotes the start of a key block and not its end (the paste was cut)."""
    return parse_session({"agent": "claude", "turns": [
        {"role": "user", "text": "The deploy job fails on the SSH step with this key: -----BEGIN OPENSSH PRIVATE "
                                 "KEY----- " + KEY_BODY.replace("\n", " ")},
        {"role": "user", "text": "Here is the log:\n> Loading key from secrets\n"
                                 "> Error: Load key \"/tmp/id\": invalid format"},
        {"role": "assistant", "text": "The root cause is that the secret was stored without its trailing newline, "
                                      "so ssh rejects the key.\n```bash\ngit diff .github/workflows/deploy.yml\n```"},
        {"role": "assistant", "text": "Fixed the key step in .github/workflows/deploy.yml to add the newline."},
        {"role": "user", "text": "ok"},
        {"role": "assistant", "text": "Next steps:\n- Rotate the deploy key, it was pasted here\n\n"
                                      "Should I also pin the ssh-agent action version?"},
    ]})


def test_a_six_turn_session_with_a_cut_key_keeps_every_section(tmp_path):
    summary = summarize(_cut_key_session(), file_checker=lambda paths, cwd: check_files(paths, ""))
    markdown = summary.markdown
    for heading in ("## Goal", "## What was done", "## Files touched", "## Commands run",
                    "## Decisions and findings", "## Errors hit", "## Open questions", "## Next steps"):
        assert heading in markdown
    assert "The deploy job fails on the SSH step with this key: [REDACTED:private-key]" in markdown
    assert "Fixed the key step in .github/workflows/deploy.yml to add the newline." in markdown
    assert "`git diff .github/workflows/deploy.yml`" in markdown
    assert "Rotate the deploy key, it was pasted here" in markdown
    assert "Should I also pin the ssh-agent action version?" in markdown
    for piece in KEY_BODY.split("\n"):
        assert piece[:20] not in markdown
    # The note is redacted once more as a whole; a cut key must not take the sections with it there either.
    note = Path(save_note(str(tmp_path / "notes"), markdown, NoteInfo(title=summary.title))).read_text("utf-8")
    assert "## Next steps" in note and "Should I also pin the ssh-agent action version?" in note
    assert KEY_BODY[:20] not in note
