"""Line framing: size limits, malformed lines, ids echoed as sent, stdout kept for the protocol only."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys

import pytest
from agentty_plugin import _transport
from agentty_plugin.testing import PluginHost
from agentty_plugin.world import LINE_TOO_LONG, NOT_JSON_RPC
from runtime_helpers import PROBE


def collect(data: bytes):
    problems = []
    messages = [m for _n, m in _transport.read_lines(io.BytesIO(data), problems.append)]
    return messages, problems


def test_reader_skips_blank_non_json_non_object_and_bad_utf8_lines():
    data = b'\n   \nnot json\n[1,2]\n"text"\n\xff\xfe\n{"id":1,"method":"x"}\n'
    messages, problems = collect(data)
    assert messages == [{"id": 1, "method": "x"}]
    assert len(problems) == 4
    assert any("not JSON" in p for p in problems)
    assert any("not UTF-8" in p for p in problems)


def test_reader_refuses_a_line_over_16_mb_and_keeps_reading(monkeypatch):
    monkeypatch.setattr(_transport, "MAX_LINE_BYTES", 1000)
    data = b'{"a":"' + b"x" * 5000 + b'"}\n{"id":2,"method":"ok"}\n'
    messages, problems = collect(data)
    assert messages == [{"id": 2, "method": "ok"}]
    assert problems == ["line 1: refused a line over the 16 MB limit"]


def test_encode_is_one_compact_utf8_line_and_refuses_nan():
    line = _transport.encode_message({"text": "日本語", "n": 1})
    assert line == '{"text":"日本語","n":1}\n'.encode()
    with pytest.raises(ValueError):
        _transport.encode_message({"n": math.nan})


def test_encode_refuses_messages_over_the_line_limit(monkeypatch):
    monkeypatch.setattr(_transport, "MAX_LINE_BYTES", 100)
    with pytest.raises(ValueError, match="16 MB"):
        _transport.encode_message({"text": "x" * 200})


def raw_session(lines, env=None, timeout=10):
    """Run the probe with raw stdin lines; return (stdout lines as JSON, stderr, exit code)."""
    environment = dict(os.environ, AGENTTY_PLUGIN_DATA=os.path.join(PROBE, ".."), **(env or {}))
    environment.pop("PYTHONUNBUFFERED", None)
    done = subprocess.run([sys.executable, "main.py"], cwd=PROBE, input=b"".join(lines), capture_output=True,
                          env=environment, timeout=timeout)
    out = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines() if line.strip()]
    return out, done.stderr.decode("utf-8", "replace"), done.returncode


def init_line(request_id) -> bytes:
    return (json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "initialize",
                        "params": {"apiVersion": 1, "plugin": {"id": "probe"}, "language": "en", "context": {}}})
            + "\n").encode()


@pytest.mark.parametrize("request_id", [1, 41, "init-7", 0])
def test_host_ids_are_echoed_exactly(request_id):
    out, _err, code = raw_session([init_line(request_id)])
    assert code == 0
    assert out[0]["id"] == request_id
    assert out[0]["result"]["apiVersion"] >= 1
    assert "sdkVersion" in out[0]["result"]


def test_unknown_request_gets_method_not_found_and_unknown_notification_is_ignored():
    out, _err, code = raw_session([
        init_line(5),
        b'{"jsonrpc":"2.0","method":"future/notification","params":{}}\n',
        b'{"jsonrpc":"2.0","id":6,"method":"future/request","params":{}}\n',
    ])
    assert code == 0
    answers = {m["id"]: m for m in out if "id" in m and "method" not in m}
    assert answers[6]["error"]["code"] == -32601
    assert len(answers) == 2  # initialize and the unknown request; nothing for the notification


def test_malformed_lines_are_logged_and_skipped_and_the_next_request_answered():
    out, err, code = raw_session([b"{not json\n", b"\n", b"[]\n", b"\xc3\x28\n", init_line(9)])
    assert code == 0
    assert [m["id"] for m in out] == [9]
    assert "not JSON" in err and "not UTF-8" in err


def test_stdout_stays_utf8_json_under_an_ascii_locale(tmp_path):
    env = {"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"}
    open_panel = (json.dumps({"jsonrpc": "2.0", "method": "panel/open",
                              "params": {"context": {"language": "ja"}}}) + "\n").encode()
    command = (json.dumps({"jsonrpc": "2.0", "method": "command/execute",
                           "params": {"command": "probe.hello", "args": "日本語", "context": {}}}) + "\n").encode()
    lines = [init_line(1), open_panel, command]
    environment = dict(os.environ, **env)
    environment.pop("PYTHONUNBUFFERED", None)
    process = subprocess.Popen([sys.executable, "main.py"], cwd=PROBE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environment)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"".join(lines))
    process.stdin.flush()
    seen = []
    while True:
        line = process.stdout.readline()
        if not line:
            break
        message = json.loads(line.decode("utf-8"))
        seen.append(message)
        if "日本語" in json.dumps(message, ensure_ascii=False):
            break
    process.stdin.close()
    process.wait(5)
    assert any("hello 日本語" in json.dumps(m, ensure_ascii=False) for m in seen)


def test_stray_print_goes_to_stderr_never_stdout(host):
    # stdout and stderr are read by separate threads: the panel drawn after the print may be read
    # first, so the stderr line is waited for rather than expected at once.
    host.wait_for(lambda: "a stray print that must land in stderr" in host.stderr_text(), 5)
    assert host.stdout_junk == []
    assert "a stray print that must land in stderr" in host.stderr_text()
    assert not [v for v in host.violations if v.code in (NOT_JSON_RPC, LINE_TOO_LONG)]


def test_child_processes_inherit_stderr_not_the_protocol_stream(tmp_path):
    plugin_dir = tmp_path / "child-out"
    plugin_dir.mkdir()
    (plugin_dir / "agentty-plugin.json").write_text(json.dumps({
        "id": "child-out", "name": "Child", "version": "0.1.0", "runtime": "python", "main": "main.py"}))
    (plugin_dir / "main.py").write_text(
        '"""Child output probe."""\nimport subprocess\n'
        "from agentty_plugin import Plugin, ui\nplugin = Plugin()\n"
        "@plugin.on_panel_open\ndef render(context):\n"
        "    subprocess.run(['echo', 'from a child'])\n"
        "    plugin.set_panel(ui.text('child done'))\n"
        "if __name__ == '__main__':\n    plugin.run()\n")
    with PluginHost(str(plugin_dir)) as host:
        host.open_panel()
        host.wait_for_text("child done")
        host.wait_for(lambda: "from a child" in host.stderr_text(), 5)
        assert host.stdout_junk == []
