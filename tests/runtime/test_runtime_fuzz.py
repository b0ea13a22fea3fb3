"""Property tests: the reader survives any input, and every valid request among junk is still answered."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

from agentty_plugin import _transport
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runtime_helpers import PROBE

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)

junk_line = st.one_of(
    st.binary(max_size=200).map(lambda b: b.replace(b"\n", b" ")),
    st.text(max_size=200).map(lambda t: t.replace("\n", " ").encode("utf-8", "surrogatepass")),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(st.sampled_from(["jsonrpc", "id", "method", "params", "result", "error"]), json_values,
                    max_size=5).map(lambda d: json.dumps(d).encode()),
)


@given(st.lists(junk_line, max_size=30))
def test_reader_never_raises_and_yields_only_objects(lines):
    problems = []
    data = b"\n".join(lines) + b"\n"
    for _number, message in _transport.read_lines(io.BytesIO(data), problems.append):
        assert isinstance(message, dict)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(junk_line, min_size=1, max_size=12), st.lists(st.integers(1000, 10**9), min_size=1, max_size=5,
                                                             unique=True))
def test_valid_requests_among_junk_are_all_answered(junk, request_ids):
    lines = [json.dumps({"jsonrpc": "2.0", "id": "init", "method": "initialize",
                         "params": {"apiVersion": 1, "plugin": {"id": "probe"}, "context": {}}}).encode()]
    for index, request_id in enumerate(request_ids):
        lines.extend(junk[index::len(request_ids)])
        lines.append(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "nothing/here", "params": {}}).encode())
    environment = dict(os.environ)
    environment.pop("PYTHONUNBUFFERED", None)
    done = subprocess.run([sys.executable, "main.py"], cwd=PROBE, input=b"\n".join(lines) + b"\n",
                          capture_output=True, env=environment, timeout=20)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    answers = [json.loads(line) for line in done.stdout.decode("utf-8").split("\n") if line.strip()]
    answered = [a.get("id") for a in answers if "method" not in a]
    for request_id in request_ids:
        assert request_id in answered
    assert "init" in answered
