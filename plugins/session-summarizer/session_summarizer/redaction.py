"""Replaces things that look like keys, passwords and tokens with `[REDACTED:kind]` markers."""

import math
import re
from collections import Counter
from typing import Callable, List, Match, NamedTuple, Pattern, Tuple

MARKER_PREFIX = "[REDACTED:"


def _marker(kind: str) -> str:
    return MARKER_PREFIX + kind + "]"


class Redaction(NamedTuple):
    text: str
    count: int  # type: ignore[assignment]  # a field named like tuple.count is what reads best here
    kinds: Tuple[str, ...]


# Private key blocks go first: their base64 body would otherwise be cut into many entropy hits.
# The block is the BEGIN line, then only what looks like key material (base64 runs, PEM headers such
# as "Proc-Type:"), then the END line if there is one. A paste cut short loses its END line, and the
# text after it (the rest of the ask, the next sections) is not key material, so it stays.
_KEY_LABEL = r"(?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?"
_PRIVATE_KEY = re.compile(
    r"-----BEGIN " + _KEY_LABEL + r"-----"
    r"(?:[ \t]*(?:\r?\n[ \t>]*){0,2}(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9+/]{1,15}={1,2}"
    r"|(?:Proc-Type|DEK-Info|Comment):[^\n]*))*"
    r"(?:\s*-----END " + _KEY_LABEL + r"-----)?"
)

# Well-known provider formats. Each is specific enough that a match is a secret whatever surrounds it.
_PROVIDER_PATTERNS: List[Tuple[str, Pattern[str]]] = [
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}")),
    ("openai-key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}")),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9\-]{10,}")),
    ("stripe-key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("huggingface-token", re.compile(r"\bhf_[A-Za-z0-9]{30,}")),
    ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("sendgrid-key", re.compile(r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
]

# Text each provider's pattern needs (case as written): a text without any of them cannot match, and the
# substring test is far cheaper than the pattern's scan (every kept item of every summary is redacted).
_PROVIDER_NEEDS = {
    "anthropic-key": ("sk-ant-",), "openai-key": ("sk-",), "github-token": ("gh", "github_pat_"),
    "gitlab-token": ("glpat-",), "aws-access-key": ("A",), "google-api-key": ("AIza",), "slack-token": ("xox",),
    "stripe-key": ("_live_", "_test_"), "huggingface-token": ("hf_",), "npm-token": ("npm_",),
    "sendgrid-key": ("SG.",), "jwt": ("eyJ",),
}

# `Authorization: Bearer abc`, `x-api-key: abc`: the scheme word stays, the credential goes.
_AUTH_HEADER = re.compile(
    r"(?i)\b((?:proxy-)?authorization\s*[:=]\s*[\"']?\s*(?:(?:bearer|basic|token|digest|apikey)\s+)?)"
    r"([^\s\"',;]{4,})"
)
_KEY_HEADER = re.compile(
    r"(?i)\b((?:x-api-key|api-key|x-auth-token|x-access-token|private-token)\s*:\s*[\"']?)([^\s\"',;]{4,})"
)

# `scheme://user:password@host`: only the password is removed so the URL stays readable.
_URL_CREDENTIALS = re.compile(r"\b([a-z][a-z0-9+.\-]*://[^\s:/@\"']+:)([^\s@/\"']+)(@)")

# Command-line flags that carry a secret: `--password=x`, `--token x`, `mysql -pSECRET`, `curl -u me:pw`.
_SECRET_FLAG = re.compile(
    r"(?i)(--(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token)(?:=|\s+))"
    r"([^\s\"'-][^\s\"']{2,}|\"[^\"]+\"|'[^']+')"
)
_CURL_USER = re.compile(r"((?:^|\s)(?:-u|--user)\s+[\"']?[^\s:\"']+:)([^\s\"']+)")

# `.env`-style and config assignments whose name ends like a secret: OPENAI_API_KEY=..., "password": "...".
# The name must *end* with the secret word so that `max_tokens = 4096` or `tokenizer = ...` are left alone.
_SECRET_NAME = (
    r"(?:[A-Za-z0-9]+[_.\-])*"
    r"(?:api[_\- ]?key|apikey|secret(?:[_\-]?key)?|(?:access|auth|refresh|bearer|session|api)?[_\-]?token"
    r"|passw(?:or)?d|pwd|passphrase|credentials?|private[_\-]?key|access[_\-]?key(?:[_\-]?id)?"
    r"|client[_\-]?secret|signing[_\-]?key|encryption[_\-]?key|webhook[_\-]?secret)"
    r"(?:[_\-](?:base|value))?"
)
_ASSIGNMENT = re.compile(
    r"(?i)(?<![A-Za-z0-9])(" + _SECRET_NAME + r")([\"']?[ \t]*(?::=|=|:)[ \t]*)"
    r"(\"[^\"\n]{1,500}\"|'[^'\n]{1,500}'|\$\{[^}\s]{1,100}\}|[^\s\"'`,;{}()<>]+)"
)

# Words the case-blind patterns need, lower-cased: the header names and the endings of _SECRET_NAME
# ("api_key", "client-secret", "auth_token", "passwd", "credentials", …).
_AUTH_NEEDS = ("authorization",)
_KEY_HEADER_NEEDS = ("api-key", "-token")
_SECRET_NAME_NEEDS = ("key", "secret", "token", "passw", "pwd", "passphrase", "credential")


def _may_hold(text: str, needs: Tuple[str, ...], case_blind: bool = False) -> bool:
    """Whether `text` holds one of `needs`, which a pattern needs to match: a substring test is far cheaper
    than the pattern's scan. Case-blind only for ASCII text; outside ASCII the pattern's case folding pairs
    letters that lower() does not ("ſ" and "s"), so such a text always may."""
    if not case_blind:
        return any(need in text for need in needs)
    return not text.isascii() or any(need in text.lower() for need in needs)


# A value that is clearly a reference or a placeholder, not the secret itself.
_NOT_A_VALUE = re.compile(
    r"(?i)^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_]+%|process\.env\..*|os\.environ.*|os\.getenv.*"
    r"|env\(.*|getenv.*|none|null|nil|true|false|undefined|\*+|x{3,}|\.{3}|<[^>]*>?|\[REDACTED.*|\d{1,6})$"
)

# Long unbroken tokens that look random (mixed case and digits, high Shannon entropy).
_CANDIDATE_TOKEN = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{24,}={0,2}(?![A-Za-z0-9+/_\-])")
_HEX_ONLY = re.compile(r"^[0-9a-fA-F\-]+$")
_LINE_LEAD = re.compile(r"^[\s\-*>#]*(?:export\s+|set\s+)?[\"']?$")
_WORD_RUN = re.compile(r"[A-Z]?[a-z]{3,}")


def shannon_entropy(text: str) -> float:
    """Bits per character of `text` (0 for an empty string)."""
    if not text:
        return 0.0
    length = len(text)
    return -sum((n / length) * math.log2(n / length) for n in Counter(text).values())


def looks_random(token: str) -> bool:
    """True when `token` looks like generated key material rather than a word, path or hash."""
    core = token.rstrip("=")
    if len(core) < 24:
        return False
    # Hex strings are commit hashes, checksums and UUIDs far more often than secrets in agent
    # sessions; a hex secret assigned to a secret-looking name is still caught by _ASSIGNMENT.
    if _HEX_ONLY.match(core):
        return False
    if "/" in core and all(part.isalpha() or not part for part in re.split(r"[/_\-.]", core)):
        return False  # a path made of words
    # Identifiers such as `ThisIsAVeryLongName123` are mostly runs of real-looking words.
    wordy = sum(len(word) for word in _WORD_RUN.findall(core))
    if wordy >= 0.6 * len(core):
        return False
    has_digit = any(c.isdigit() for c in core)
    has_lower = any(c.islower() for c in core)
    has_upper = any(c.isupper() for c in core)
    if not (has_digit and has_lower and has_upper):
        return False
    # Identifiers like `handleUserProfileUpdate2` mix case too, but their characters repeat a lot.
    threshold = min(4.2, 0.86 * math.log2(len(core)))
    return shannon_entropy(core) >= threshold


def redact(text: str) -> Redaction:
    """Return `text` with secrets replaced, how many were replaced and which kinds were seen."""
    if not text:
        return Redaction(text, 0, ())
    found: List[str] = []

    def substitute(pattern: Pattern[str], value: str, replace: Callable[[Match[str]], str]) -> str:
        return pattern.sub(replace, value)

    def whole(kind: str) -> Callable[[Match[str]], str]:
        def replace(match: Match[str]) -> str:
            found.append(kind)
            return _marker(kind)

        return replace

    def keep_prefix(kind: str, value_group: int) -> Callable[[Match[str]], str]:
        def replace(match: Match[str]) -> str:
            value = match.group(value_group)
            if value.startswith(MARKER_PREFIX) or _NOT_A_VALUE.match(value.strip("\"'")):
                return match.group(0)
            found.append(kind)
            start, end = match.span(value_group)
            if value[:1] in "\"'" and len(value) >= 2 and value[-1] == value[0]:
                start, end = start + 1, end - 1  # keep the quotes so the line still reads as code
            offset = match.start()
            whole_text = match.group(0)
            return whole_text[: start - offset] + _marker(kind) + whole_text[end - offset :]

        return replace

    # Each pattern runs only on text holding what it needs (the text as the patterns before left it).
    result = substitute(_PRIVATE_KEY, text, whole("private-key")) if _may_hold(text, ("-----BEGIN ",)) else text
    for kind, pattern in _PROVIDER_PATTERNS:
        if _may_hold(result, _PROVIDER_NEEDS[kind]):
            result = substitute(pattern, result, whole(kind))
    if _may_hold(result, _AUTH_NEEDS, case_blind=True):
        result = substitute(_AUTH_HEADER, result, keep_prefix("authorization", 2))
    if _may_hold(result, _KEY_HEADER_NEEDS, case_blind=True):
        result = substitute(_KEY_HEADER, result, keep_prefix("api-key", 2))
    if _may_hold(result, ("://",)):
        result = substitute(_URL_CREDENTIALS, result, keep_prefix("password", 2))
    if _may_hold(result, ("--",)):
        result = substitute(_SECRET_FLAG, result, keep_prefix("secret", 2))
    if _may_hold(result, ("-u",)):  # "-u" or "--user"
        result = substitute(_CURL_USER, result, keep_prefix("password", 2))
    redact_value = keep_prefix("secret", 3)

    def assignment(match: Match[str]) -> str:
        # Prose such as "the token: it expires hourly" must survive; config lines must not.
        # `=` and quoted values are always code; `name: value` counts when the name starts the
        # line (YAML, .env, headers) or the value has digits or symbols as passwords usually do.
        separator, value = match.group(2), match.group(3)
        if "=" not in separator and value[:1] not in "\"'":
            line_start = result.rfind("\n", 0, match.start()) + 1
            at_line_start = not _LINE_LEAD.sub("", result[line_start : match.start()])
            if not at_line_start and value.isalpha():
                return match.group(0)
        return redact_value(match)

    if _may_hold(result, _SECRET_NAME_NEEDS, case_blind=True):
        result = _ASSIGNMENT.sub(assignment, result)

    def entropy_hit(match: Match[str]) -> str:
        token = match.group(0)
        if not looks_random(token):
            return token
        found.append("high-entropy")
        return _marker("high-entropy")

    result = _CANDIDATE_TOKEN.sub(entropy_hit, result)
    return Redaction(result, len(found), tuple(sorted(set(found))))


def redact_text(text: str) -> str:
    """Shorthand for callers that only need the cleaned text."""
    return redact(text).text
