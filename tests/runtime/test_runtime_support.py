"""Context parsing, pane statuses, i18n, state files and manifests: the runtime's smaller modules."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import subprocess

import pytest
from agentty_plugin import Context, JsonFile, Translator, normalize_language, pane_is_busy, relative_time
from agentty_plugin.checks import check_plugin, registered_commands
from agentty_plugin.manifest import ManifestError, load_manifest


@pytest.mark.parametrize("status,busy", [
    ("working", True), ("thinking", True), ("permission", True), ("question", True),
    ("idle", False), ("finished", False), ("interrupted", False), ("shell", False), ("exited", False), ("", False),
])
def test_pane_is_busy_follows_the_seed(status, busy):
    assert pane_is_busy(status) is busy


def test_context_tolerates_hidden_and_missing_fields():
    context = Context.from_wire({"pane": {"id": 3, "kind": "claude", "status": "idle", "running": True},
                                 "workspace": {"id": 1, "active": True}, "language": "ja"})
    assert context.pane is not None and context.pane.cwd is None and context.pane.session_id is None
    assert context.pane.is_agent and not context.pane.is_busy
    assert context.workspace is not None and context.workspace.name is None
    assert context.cwd is None and context.language == "ja"
    empty = Context.from_wire(None, "ko")
    assert empty.pane is None and empty.language == "ko"
    weird = Context.from_wire({"pane": "nope", "workspace": [], "language": 5})
    assert weird.pane is None and weird.workspace is None and weird.language == "en"


@pytest.mark.parametrize("tag,expected", [
    ("ja-JP", "ja"), ("zh_Hans", "zh"), ("KO", "ko"), ("fr", "en"), (None, "en"), ("", "en"), ("en-GB", "en")])
def test_language_tags_fall_back_to_english(tag, expected):
    assert normalize_language(tag) == expected


def test_translator_falls_back_per_key_and_formats_values():
    t = Translator({"en": {"found": "{count} notes", "only_en": "English"}, "ja": {"found": "{count} 件"}})
    assert t.for_language("ja")("found", count=3) == "3 件"
    assert t.for_language("ja")("only_en") == "English"
    assert t.for_language("de")("found", count=1) == "1 notes"
    assert t.for_language("en")("missing.key") == "missing.key"
    assert t.missing()["ja"] == ["only_en"]


@pytest.mark.parametrize("seconds,language,expected", [
    (3, "en", "just now"), (120, "en", "2 minutes ago"), (3600, "en", "1 hour ago"), (2 * 86400, "ja", "2日前"),
    (300, "ko", "5분 전"), (300, "zh", "5分钟前"), (400 * 86400, "en", "1 year ago")])
def test_relative_time_in_each_language(seconds, language, expected):
    assert relative_time(seconds, language) == expected


def test_json_file_round_trips(tmp_path):
    state = JsonFile(str(tmp_path / "sub" / "settings.json"))
    assert state.load({"roots": []}) == {"roots": []}
    state.save({"roots": ["/notes"], "名前": "値"})
    assert state.load() == {"roots": ["/notes"], "名前": "値"}
    assert [p.name for p in (tmp_path / "sub").iterdir()] == ["settings.json"]


@contextlib.contextmanager
def full_disk(folder):
    """`folder` on a 64 KiB tmpfs filled to the last byte, so every write there fails with ENOSPC (needs root)."""
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True,
                      check=False).returncode != 0:
        pytest.skip("could not check: a full disk needs a tmpfs mount, which needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def fill(folder):
    descriptor = os.open(str(folder / "filler"), os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (4096, 512, 1):  # to the last byte
            with contextlib.suppress(OSError):
                while True:
                    os.write(descriptor, b"\0" * size)
    finally:
        os.close(descriptor)


OLD = {"roots": ["/notes"], "kept": True}


def test_a_write_on_a_full_disk_fails_and_leaves_the_old_file_whole(tmp_path):
    with full_disk(tmp_path / "disk") as disk:
        state = JsonFile(str(disk / "settings.json"))
        state.save(OLD)
        fill(disk)
        with pytest.raises(OSError) as raised:
            state.save({"roots": ["/notes"] * 5000})  # about 60 KB: far more than the few bytes left
        assert raised.value.errno == errno.ENOSPC
        assert state.load() == OLD and state.last_problem is None
        assert sorted(p.name for p in disk.iterdir()) == ["filler", "settings.json"]  # no temp file left


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_write_that_fails_before_the_rename_leaves_the_old_file_whole(tmp_path, monkeypatch, failing):
    state = JsonFile(str(tmp_path / "settings.json"))
    state.save(OLD)
    real = getattr(os, failing)
    calls = []

    def broken(*args):
        calls.append(args)
        raise OSError(errno.EIO, f"{failing} failed on purpose")

    monkeypatch.setattr(os, failing, broken)
    with pytest.raises(OSError, match="failed on purpose"):
        state.save({"roots": [], "kept": False})
    monkeypatch.setattr(os, failing, real)
    assert calls  # the write really went through the failing call
    assert state.load() == OLD
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # the temp file is cleaned up


def test_an_unreadable_state_file_is_moved_aside_not_overwritten(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{broken")
    state = JsonFile(str(path))
    assert state.load({"default": True}) == {"default": True}
    assert state.last_problem and "kept as settings.json.corrupt-" in state.last_problem
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("settings.json.corrupt-")]
    assert len(kept) == 1 and kept[0].read_text() == "{broken"
    assert not path.exists()


def test_state_refuses_the_hosts_storage_file(tmp_path):
    with pytest.raises(ValueError):
        JsonFile(str(tmp_path / "storage.json"))


def write_plugin(folder, manifest, main='"""Doc."""\nif __name__ == "__main__":\n    pass\n'):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "agentty-plugin.json").write_text(json.dumps(manifest))
    if main is not None:
        (folder / "main.py").write_text(main)
    return str(folder)


GOOD = {"id": "good-one", "name": "Good", "version": "1.2.3", "runtime": "python", "main": "main.py",
        "permissions": ["workspace.read"],
        "contributes": {"commands": [{"id": "good-one.open", "title": "Open"}]}}


def test_a_valid_manifest_loads(tmp_path):
    manifest = load_manifest(write_plugin(tmp_path / "good-one", GOOD))
    assert manifest.id == "good-one" and manifest.api_version == 1
    assert [c.id for c in manifest.commands] == ["good-one.open"]


@pytest.mark.parametrize("change,problem", [
    ({"id": "Bad_Id"}, "must be 2-40 characters"),
    ({"id": "other-name"}, 'does not match the folder "good-one"'),
    ({"main": "../escape.py"}, "relative path"),
    ({"main": "/abs/main.py"}, "relative path"),
    ({"main": "missing.py"}, "entry point missing.py is missing"),
    ({"runtime": "ruby"}, "runtime 'ruby'"),
    ({"permissions": ["net.request", "root.access"]}, "unknown permission 'root.access'"),
    ({"version": "1.0"}, "major.minor.patch"),
    ({"name": "  "}, "name must be"),
    ({"contributes": {"commands": [{"id": "good-one.a", "title": "A"}, {"id": "good-one.a", "title": "B"}]}},
     "declared twice"),
])
def test_manifest_problems_are_named(tmp_path, change, problem):
    with pytest.raises(ManifestError) as caught:
        load_manifest(write_plugin(tmp_path / "good-one", dict(GOOD, **change)))
    assert any(problem in p for p in caught.value.problems), caught.value.problems


def test_manifest_that_is_not_json_says_so(tmp_path):
    folder = tmp_path / "x1"
    folder.mkdir()
    (folder / "agentty-plugin.json").write_text("{")
    with pytest.raises(ManifestError, match="not valid JSON"):
        load_manifest(str(folder))


def test_checks_match_commands_to_handlers_and_flag_prints(tmp_path):
    main = ('"""Doc."""\nfrom agentty_plugin import Plugin\nplugin = Plugin()\n'
            '@plugin.command("good-one.other")\ndef other(call):\n    print("oops")\n'
            'if __name__ == "__main__":\n    plugin.run()\n')
    _id, problems = check_plugin(write_plugin(tmp_path / "good-one", GOOD, main))
    text = "\n".join(problems)
    assert "'good-one.open' is declared in the manifest but has no handler" in text
    assert "handles command 'good-one.other', which the manifest does not declare" in text
    assert "print()" in text
    assert registered_commands('plugin.command("a.b")(handler)') == {"a.b"}


def test_every_plugin_in_the_repo_passes_the_checks():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "plugins")
    folders = [os.path.join(root, name) for name in sorted(os.listdir(root))
               if os.path.isfile(os.path.join(root, name, "agentty-plugin.json"))] if os.path.isdir(root) else []
    for folder in folders:
        plugin_id, problems = check_plugin(folder)
        assert problems == [], f"{plugin_id}: {problems}"


def test_error_predicates_name_each_code():
    from agentty_plugin.errors import INVALID_PARAMS, PERMISSION_DENIED, TIMED_OUT, UNAVAILABLE, AgenttyError

    names = ("is_permission", "is_unavailable", "is_invalid_params", "is_timed_out")
    for code, true_one in ((PERMISSION_DENIED, "is_permission"), (UNAVAILABLE, "is_unavailable"),
                           (INVALID_PARAMS, "is_invalid_params"), (TIMED_OUT, "is_timed_out")):
        error = AgenttyError("x", code)
        assert [name for name in names if getattr(error, name)] == [true_one]
