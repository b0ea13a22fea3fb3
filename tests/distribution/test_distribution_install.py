"""install / replace / uninstall / dev link on a temporary AGENTTY_HOME, checked against Agentty's own rules."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys

import pytest
from agentty_plugin.distribution.bundle import remove_development_vendor, vendor_for_development
from agentty_plugin.distribution.install import Home, install, link, uninstall, unlink
from agentty_plugin.distribution.wheels import BundleError
from agentty_plugin.testing import PluginHost
from distribution_helpers import PROBE, REPO, clean_env


def _bump(bundle_folder, tmp_path, version, marker):
    """A copy of the bundle at another version, with a file only that version has."""
    copy = tmp_path / f"v{version}" / "dist-probe"
    shutil.copytree(bundle_folder, copy)
    manifest = json.loads((copy / "agentty-plugin.json").read_text())
    manifest["version"] = version
    (copy / "agentty-plugin.json").write_text(json.dumps(manifest))
    (copy / marker).write_text(version)
    return str(copy)


def test_install_replace_and_uninstall(probe_bundle, tmp_path, monkeypatch):
    home = tmp_path / "agentty"
    monkeypatch.setenv("AGENTTY_HOME", str(home))
    first = install(_bump(probe_bundle.folder, tmp_path, "1.0.0", "only-in-1.0.0.txt"))
    target = home / "plugins" / "dist-probe"
    assert first.folder == str(target) and first.replaced is None
    assert (target / "only-in-1.0.0.txt").exists() and (target / "_vendor" / "tinydep" / "__init__.py").exists()
    state = json.loads((home / "plugins" / "state.json").read_text())
    assert state["plugins"]["dist-probe"]["source"] == "folder" and state["plugins"]["dist-probe"]["enabled"] is True
    if os.name == "posix":
        assert stat.S_IMODE(os.stat(home / "plugins" / "state.json").st_mode) == 0o600

    # What the plugin kept, and a user choice (disabled), must survive an update.
    data = home / "plugin-data" / "dist-probe"
    data.mkdir(parents=True)
    (data / "settings.json").write_text('{"kept": true}')
    state["plugins"]["dist-probe"]["enabled"] = False
    (home / "plugins" / "state.json").write_text(json.dumps(state))

    second = install(_bump(probe_bundle.folder, tmp_path, "1.1.0", "only-in-1.1.0.txt"))
    assert second.replaced == "1.0.0"
    assert not (target / "only-in-1.0.0.txt").exists(), "the older version is replaced whole"
    assert (target / "only-in-1.1.0.txt").exists()
    assert (data / "settings.json").read_text() == '{"kept": true}'
    assert json.loads((home / "plugins" / "state.json").read_text())["plugins"]["dist-probe"]["enabled"] is False
    assert sorted(os.listdir(home / "plugins")) == ["dist-probe", "state.json"], "no staging folder left behind"

    removed = uninstall("dist-probe")
    assert not target.exists() and not data.exists()  # Agentty's Uninstall deletes the data folder too
    assert set(removed.removed) == {str(target), str(data)}
    assert "dist-probe" not in json.loads((home / "plugins" / "state.json").read_text())["plugins"]
    with pytest.raises(BundleError, match="not installed"):
        uninstall("dist-probe")


def test_uninstall_can_keep_the_data_folder(probe_bundle, tmp_path):
    home = str(tmp_path / "home")
    install(probe_bundle.folder, home)
    data = tmp_path / "home" / "plugin-data" / "dist-probe"
    data.mkdir(parents=True)
    uninstall("dist-probe", home, keep_data=True)
    assert data.is_dir() and not (tmp_path / "home" / "plugins" / "dist-probe").exists()


def test_a_broken_bundle_never_replaces_a_working_install(probe_bundle, tmp_path):
    home = str(tmp_path / "home")
    install(probe_bundle.folder, home)
    broken = tmp_path / "broken" / "dist-probe"
    shutil.copytree(probe_bundle.folder, broken)
    (broken / "main.py").unlink()
    with pytest.raises(BundleError, match=r"entry point main\.py is missing"):
        install(str(broken), home)
    assert (tmp_path / "home" / "plugins" / "dist-probe" / "main.py").exists()
    assert sorted(os.listdir(tmp_path / "home" / "plugins")) == ["dist-probe", "state.json"]


def test_a_damaged_state_file_is_left_alone(probe_bundle, tmp_path):
    plugins = tmp_path / "home" / "plugins"
    plugins.mkdir(parents=True)
    (plugins / "state.json").write_text("{not json")
    with pytest.raises(BundleError, match="cannot be read"):
        install(probe_bundle.folder, str(tmp_path / "home"))
    assert (plugins / "state.json").read_text() == "{not json"


def test_dev_link_runs_the_checkout_folder_in_place(tmp_path):
    home = str(tmp_path / "home")
    plugin_id = link(PROBE, home)
    entry = Home(home).entry(plugin_id)
    assert entry == {"enabled": True, "source": "dev", "path": PROBE, "origin": PROBE}
    assert not os.path.exists(os.path.join(home, "plugins", plugin_id)), "a link copies nothing"
    with pytest.raises(BundleError, match="linked for development"):
        install(PROBE, home)  # Agentty refuses this too: unlink first
    result = uninstall(plugin_id, home)
    assert result.unlinked and os.path.isfile(os.path.join(PROBE, "main.py")), "the checkout is never deleted"
    link(PROBE, home)
    assert unlink(plugin_id, home) is True and unlink(plugin_id, home) is False
    assert Home(home).entry(plugin_id) is None


def test_link_refuses_when_a_copy_is_installed(probe_bundle, tmp_path):
    home = str(tmp_path / "home")
    install(probe_bundle.folder, home)
    with pytest.raises(BundleError, match="already installed"):
        link(PROBE, home)


def test_cli_install_and_uninstall_print_the_refresh_hint(probe_bundle, tmp_path):
    env = {**os.environ, "AGENTTY_HOME": str(tmp_path / "home"), "PYTHONPATH": os.path.join(REPO, "shared")}
    dist = os.path.dirname(probe_bundle.folder)
    done = subprocess.run([sys.executable, "-m", "agentty_plugin", "install", "dist-probe", "--dist", dist],
                          capture_output=True, text=True, env=env, check=True)
    assert "dist-probe 1.2.3" in done.stdout and "Plugins → Refresh" in done.stdout
    assert (tmp_path / "home" / "plugins" / "dist-probe" / "main.py").exists()
    gone = subprocess.run([sys.executable, "-m", "agentty_plugin", "uninstall", "dist-probe"],
                          capture_output=True, text=True, env=env, check=True)
    assert "dist-probe uninstalled" in gone.stdout
    missing = subprocess.run([sys.executable, "-m", "agentty_plugin", "uninstall", "dist-probe"],
                             capture_output=True, text=True, env=env)
    assert missing.returncode == 1 and "is not installed" in missing.stderr


def test_dev_link_runs_edits_after_a_restart_with_vendored_packages(tmp_path, local_index):
    """`link`: the checkout folder gets `_vendor/` (packages only; the runtime comes live from ../../shared), the
    state entry points Agentty at it, a bare interpreter runs it, and an edit shows after a restart."""
    checkout = tmp_path / "checkout"
    plugin = checkout / "plugins" / "dist-probe"
    shutil.copytree(PROBE, plugin)
    shutil.copytree(os.path.join(REPO, "shared", "agentty_plugin"), checkout / "shared" / "agentty_plugin")
    home = str(tmp_path / "home")
    packages = vendor_for_development(str(plugin), str(tmp_path / "cache"),
                                      pip_args=["--no-index", "--find-links", local_index])
    assert packages == ["tinydep==1.0.0", "tinybackport==1.0.0"]
    assert not (plugin / "_vendor" / "agentty_plugin").exists(), "the runtime is not copied for a link"
    link(str(plugin), home)
    linked = Home(home).entry("dist-probe")["path"]

    def greeting():
        with PluginHost(linked, python=sys.executable, python_args=["-S"], env=clean_env(),
                        data_dir=str(tmp_path / "data")) as host:
            host.open_panel()
            host.wait_for_panel(lambda t: host.find(t, "probe.greet") is not None, timeout=15)
            texts = " ".join(host.texts(host.panel))
            assert f"runtime {checkout / 'plugins' / 'dist-probe' / '..' / '..' / 'shared' / 'agentty_plugin'}" \
                in texts
            host.click("probe.greet")
            return " ".join(host.texts(host.wait_for_text("hello agentty", timeout=15)))

    assert "(from " in greeting()
    report = plugin / "dist_probe" / "report.py"
    report.write_text(report.read_text().replace('f"{greeting} (from {module_file})"', 'f"{greeting} EDITED"'))
    assert "EDITED" in greeting()  # Restart on the card = a new process: the edit is live
    assert remove_development_vendor(str(plugin)) is True and not (plugin / "_vendor").exists()
    assert remove_development_vendor(str(plugin)) is False
