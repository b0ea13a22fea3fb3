"""Shared fixtures for the dev host tests: where the plugins are, sample data, and an HTTP helper."""

import json
import os
import sys
import time
import urllib.error
import urllib.request

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(ROOT, "shared")
if SHARED not in sys.path:
    sys.path.insert(0, SHARED)


@pytest.fixture(scope="session")
def repo_root():
    return ROOT


@pytest.fixture(scope="session")
def probe_folder():
    return os.path.join(ROOT, "tests", "runtime", "plugins", "probe")


@pytest.fixture(scope="session")
def sample_data(tmp_path_factory):
    from agentty_devhost.sample_data import ensure_sample_data

    return ensure_sample_data(str(tmp_path_factory.mktemp("demo")))


class Api:
    """Talks JSON to a running dev host the way its page does (same origin, JSON bodies)."""

    def __init__(self, url):
        self.url = url.rstrip("/")

    def request(self, method, path, body=None, headers=None):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        sent = {"Content-Type": "application/json"}
        sent.update(headers or {})
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def get(self, path):
        return self.request("GET", path)

    def post(self, path, body=None, **kwargs):
        return self.request("POST", path, {} if body is None else body, **kwargs)

    def plugin(self, key):
        _status, state = self.get("/api/state")
        return next(p for p in state["plugins"] if p["key"] == key)

    def wait(self, condition, timeout=15.0, what="a condition"):
        """Poll /api/state until condition(state) is truthy; return its value."""
        deadline = time.monotonic() + timeout
        state = None
        while time.monotonic() < deadline:
            _status, state = self.get("/api/state")
            value = condition(state)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; last state: {json.dumps(state)[:3000]}")


@pytest.fixture
def api_factory():
    return Api
