"""LLM endpoint settings (provider, base URL, model, key variable name) and how the key is found."""

import ipaddress
import os
import re
import sys
from typing import Any, Dict, List, Optional
from urllib.parse import urlsplit

OPENAI = "openai"
ANTHROPIC = "anthropic"
PROVIDERS = (OPENAI, ANTHROPIC)

DEFAULTS = {
    OPENAI: {"base_url": "http://localhost:11434/v1", "model": "llama3.1", "key_env": "OPENAI_API_KEY"},
    ANTHROPIC: {"base_url": "https://api.anthropic.com", "model": "claude-sonnet-4-5", "key_env": "ANTHROPIC_API_KEY"},
}
ANTHROPIC_VERSION = "2023-06-01"
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")


class LLMSettings:
    """One endpoint's settings. A plain class, not a dataclass: the first panel needs it (see view.py)."""

    FIELDS = ("provider", "base_url", "model", "key_env", "context_tokens", "max_output_tokens",
              "read_timeout_seconds", "total_timeout_seconds")

    def __init__(self, provider: str = OPENAI, base_url: str = DEFAULTS[OPENAI]["base_url"],
                 model: str = DEFAULTS[OPENAI]["model"], key_env: str = DEFAULTS[OPENAI]["key_env"],
                 context_tokens: int = 8192, max_output_tokens: int = 1200, read_timeout_seconds: float = 60.0,
                 total_timeout_seconds: float = 600.0) -> None:
        self.provider = provider
        self.base_url = base_url
        self.model = model
        # The *name* of the environment variable holding the key. The key itself is never stored.
        self.key_env = key_env
        self.context_tokens = context_tokens
        self.max_output_tokens = max_output_tokens
        self.read_timeout_seconds = read_timeout_seconds
        self.total_timeout_seconds = total_timeout_seconds

    def to_dict(self) -> Dict[str, Any]:
        return {name: getattr(self, name) for name in self.FIELDS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LLMSettings) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return "LLMSettings(" + ", ".join(name + "=" + repr(getattr(self, name)) for name in self.FIELDS) + ")"

    @classmethod
    def from_dict(cls, raw: Any) -> "LLMSettings":
        settings = cls()
        if not isinstance(raw, dict):
            return settings
        provider = raw.get("provider")
        if provider in PROVIDERS:
            settings = for_provider(provider)
        for name in ("base_url", "model", "key_env"):
            value = raw.get(name)
            if isinstance(value, str):
                setattr(settings, name, value.strip())
        for name, low, high in (("context_tokens", 1024, 2_000_000), ("max_output_tokens", 64, 64_000)):
            value = raw.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                setattr(settings, name, min(high, max(low, value)))
        for name in ("read_timeout_seconds", "total_timeout_seconds"):
            value = raw.get(name)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
                setattr(settings, name, float(value))
        return settings


def well_typed(raw: Any) -> bool:
    """False when stored settings hold a value of the wrong type: the file was damaged or edited badly."""
    if not isinstance(raw, dict):
        return False
    if "provider" in raw and raw["provider"] not in PROVIDERS:
        return False
    if any(name in raw and not isinstance(raw[name], str) for name in ("base_url", "model", "key_env")):
        return False
    numbers = ("context_tokens", "max_output_tokens", "read_timeout_seconds", "total_timeout_seconds")
    return not any(name in raw and (isinstance(raw[name], bool) or not isinstance(raw[name], (int, float)))
                   for name in numbers)


def for_provider(provider: str) -> LLMSettings:
    """Fresh settings with the provider's usual base URL, model and key variable."""
    defaults = DEFAULTS[provider]
    return LLMSettings(provider=provider, base_url=defaults["base_url"], model=defaults["model"],
                       key_env=defaults["key_env"])


def is_loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def problems(settings: LLMSettings) -> List[str]:
    """Problem keys ("base_url", "model", "key_env") for settings that cannot work, empty if fine."""
    found = []
    parts = urlsplit(settings.base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        found.append("base_url")
    if not settings.model.strip():
        found.append("model")
    if settings.key_env and not _ENV_NAME.match(settings.key_env):
        found.append("key_env")
    return found


def endpoint_url(settings: LLMSettings) -> str:
    """The chat URL: `/chat/completions` or `/messages`, adding `/v1` unless the base has a version."""
    base = settings.base_url.strip().rstrip("/")
    suffix = "/chat/completions" if settings.provider == OPENAI else "/messages"
    if base.endswith(suffix):
        return base
    if re.search(r"/v\d+(?:beta|alpha)?\d*$", base):
        return base + suffix
    return base + "/v1" + suffix


def key_may_travel(settings: LLMSettings) -> bool:
    """False when a key would cross the network unencrypted (plain http to a host that is not this machine)."""
    parts = urlsplit(settings.base_url)
    return parts.scheme == "https" or is_loopback(parts.hostname or "")


_shell_cache: Dict[str, Optional[str]] = {}


def read_key(key_env: str, use_login_shell: bool = True, timeout: float = 4.0) -> Optional[str]:
    """The key from the plugin's environment, else from the user's login shell (kept in memory only).

    Agentty starts plugins from the app, which on macOS does not see variables exported in
    ~/.zprofile; asking the login shell, as Agentty itself does for PATH, finds them.
    """
    if not key_env or not _ENV_NAME.match(key_env):
        return None
    value = os.environ.get(key_env)
    if value:
        return value.strip()
    if not use_login_shell or sys.platform == "win32":
        return None
    if key_env in _shell_cache:
        return _shell_cache[key_env]
    import subprocess  # only here: the first panel imports this module for the settings, not for the key

    shell = os.environ.get("SHELL") or "/bin/sh"
    found: Optional[str] = None
    try:
        # The name was checked against _ENV_NAME above, so it cannot inject shell syntax.
        completed = subprocess.run([shell, "-l", "-c", "printenv " + key_env], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=timeout, check=False)
        if completed.returncode == 0:
            lines = completed.stdout.decode("utf-8", "replace").strip().splitlines()
            found = (lines[-1].strip() or None) if lines else None
    except (OSError, subprocess.SubprocessError):
        found = None
    _shell_cache[key_env] = found
    return found


def forget_cached_keys() -> None:
    _shell_cache.clear()
