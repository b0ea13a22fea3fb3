"""`bundle_plugin` on the dist-probe fixture: what goes in, what stays out, the zip, and clear refusals."""

from __future__ import annotations

import os
import shutil
import zipfile

import pytest
from agentty_plugin.distribution.bundle import bundle_plugin, runtime_modules, write_zip
from agentty_plugin.distribution.wheels import BundleError
from distribution_helpers import PROBE
from wheel_factory import make_wheel, probe_wheels


def _files(folder):
    return sorted(os.path.relpath(os.path.join(d, f), folder).replace(os.sep, "/")
                  for d, _s, files in os.walk(folder) for f in files)


def test_bundle_holds_the_plugin_the_runtime_and_the_pinned_wheels(probe_bundle):
    files = _files(probe_bundle.folder)
    assert probe_bundle.plugin_id == "dist-probe" and probe_bundle.version == "1.2.3"
    assert os.path.basename(probe_bundle.folder) == "dist-probe"  # folder = id, as Agentty requires
    for wanted in ("agentty-plugin.json", "main.py", "README.md", "dist_probe/report.py",
                   "_vendor/agentty_plugin/__init__.py", "_vendor/agentty_plugin/plugin.py",
                   "_vendor/agentty_plugin/ui.py", "_vendor/tinydep/__init__.py", "_vendor/tinybackport.py",
                   "_vendor/tinydep-1.0.0.dist-info/METADATA", "_vendor/tinydep-1.0.0.dist-info/LICENSE",
                   "_vendor/VENDORED.txt", "_vendor/requirements.txt"):
        assert wanted in files, wanted
    assert probe_bundle.packages == ["tinydep==1.0.0", "tinybackport==1.0.0"]
    assert probe_bundle.warnings == ["no CHANGELOG.md"]  # the fixture has none; real plugins must


def test_each_plugin_has_a_readme_and_a_changelog_whose_newest_entry_is_its_version(real_bundles):
    for plugin_id, result in real_bundles.items():
        assert result.warnings == [], plugin_id


def test_bundle_leaves_out_tests_caches_stubs_build_tools_and_pip_bookkeeping(probe_bundle):
    files = _files(probe_bundle.folder)
    unwanted = [f for f in files if (
        "/tests/" in f"/{f}" or "__pycache__" in f or f.endswith((".pyc", ".pyi", "RECORD", "WHEEL", "py.typed"))
        or f == "requirements.txt"
    )]
    assert unwanted == []
    runtime = {f.split("/")[-1] for f in files if f.startswith("_vendor/agentty_plugin/")}
    assert not runtime & {"testing.py", "__main__.py", "checks.py", "manifest.py"}
    assert not any(f.startswith("_vendor/agentty_plugin/distribution") for f in files)
    with open(os.path.join(probe_bundle.folder, "_vendor", "VENDORED.txt"), encoding="utf-8") as handle:
        listing = handle.read()
    assert "tinydep==1.0.0" in listing and "tinybackport==1.0.0" in listing


def test_zip_holds_the_same_folder_under_the_plugin_id_and_is_reproducible(probe_bundle, tmp_path):
    assert probe_bundle.zip_path.endswith("dist-probe-1.2.3.zip")
    with zipfile.ZipFile(probe_bundle.zip_path) as archive:
        names = sorted(archive.namelist())
        assert archive.testzip() is None
    assert names == sorted("dist-probe/" + f for f in _files(probe_bundle.folder))
    again = str(tmp_path / "again.zip")
    write_zip(probe_bundle.folder, again, "dist-probe")
    with open(again, "rb") as one, open(probe_bundle.zip_path, "rb") as two:
        assert one.read() == two.read()


def test_runtime_modules_follow_the_plugins_imports(tmp_path):
    runtime = os.path.join(os.path.dirname(PROBE), "..", "..", "..", "shared", "agentty_plugin")
    plain = tmp_path / "plain.py"
    plain.write_text("from agentty_plugin import Plugin, ui\n")
    modules = runtime_modules(runtime, [str(plain)])
    assert {"__init__", "plugin", "ui", "_transport", "_pacing", "context", "errors", "i18n", "state"} <= set(modules)
    assert "testing" not in modules and "manifest" not in modules
    harness = tmp_path / "harness.py"
    harness.write_text("import agentty_plugin.testing\n")
    assert {"testing", "manifest"} <= set(runtime_modules(runtime, [str(harness)]))
    assert runtime_modules(runtime, []) == []


def _copy_probe(tmp_path, requirements):
    folder = tmp_path / "src" / "dist-probe"
    shutil.copytree(PROBE, folder)
    (folder / "requirements.txt").write_text(requirements)
    return str(folder)


def test_a_platform_specific_wheel_is_refused_naming_the_package(tmp_path):
    index = probe_wheels(str(tmp_path / "index"))
    make_wheel(index, "fastnative", "2.0.0", {"fastnative/__init__.py": ""},
               tag="cp311-cp311-manylinux_2_17_x86_64")
    plugin = _copy_probe(tmp_path, "tinydep==1.0.0\ntinybackport==1.0.0\nfastnative==2.0.0\n")
    dist = tmp_path / "dist"
    with pytest.raises(BundleError) as raised:
        bundle_plugin(plugin, str(dist), vermin=False, pip_args=["--no-index", "--find-links", index])
    message = str(raised.value)
    assert "fastnative 2.0.0 is platform-specific" in message
    assert "cp311-cp311-manylinux_2_17_x86_64" in message and "py3-none-any" in message
    assert not (dist / "dist-probe").exists()  # nothing half-built is left as a bundle


def test_a_platform_wheel_slipped_into_the_cache_is_refused_too(tmp_path):
    index = probe_wheels(str(tmp_path / "index"))
    cache = str(tmp_path / "cache")
    make_wheel(cache, "tinydep", "1.0.0", {"tinydep/__init__.py": ""}, tag="cp39-abi3-macosx_11_0_arm64")
    plugin = _copy_probe(tmp_path, "tinydep==1.0.0\ntinybackport==1.0.0\n")
    with pytest.raises(BundleError, match=r"tinydep 1\.0\.0 is platform-specific"):
        bundle_plugin(plugin, str(tmp_path / "dist"), cache_dir=cache, vermin=False,
                      pip_args=["--no-index", "--find-links", index])


def test_a_missing_marker_dependency_is_named_with_where_it_is_needed(tmp_path):
    index = probe_wheels(str(tmp_path / "index"))
    plugin = _copy_probe(tmp_path, "tinydep==1.0.0\n")
    with pytest.raises(BundleError) as raised:
        bundle_plugin(plugin, str(tmp_path / "dist"), vermin=False, pip_args=["--no-index", "--find-links", index])
    assert "tinydep 1.0.0 needs tinybackport>=1.0 on Python 3.9, 3.10" in str(raised.value)
    assert "3.11" not in str(raised.value).split("needs", 1)[1].split(",")[2]


def test_a_package_that_does_not_exist_gets_a_clear_error(tmp_path):
    index = probe_wheels(str(tmp_path / "index"))
    plugin = _copy_probe(tmp_path, "tinydep==1.0.0\ntinybackport==1.0.0\nnosuchthing==9.9.9\n")
    with pytest.raises(BundleError, match=r"no pure-Python wheel of nosuchthing==9\.9\.9"):
        bundle_plugin(plugin, str(tmp_path / "dist"), vermin=False, pip_args=["--no-index", "--find-links", index])


def test_a_wheel_that_drops_python_3_9_is_refused(tmp_path):
    index = probe_wheels(str(tmp_path / "index"))
    cache = str(tmp_path / "cache")
    make_wheel(cache, "newonly", "1.0.0", {"newonly.py": ""}, requires_python=">=3.10")
    plugin = _copy_probe(tmp_path, "tinydep==1.0.0\ntinybackport==1.0.0\nnewonly==1.0.0\n")
    with pytest.raises(BundleError, match=r"newonly 1\.0\.0 does not support Python 3\.9"):
        bundle_plugin(plugin, str(tmp_path / "dist"), cache_dir=cache, vermin=False,
                      pip_args=["--no-index", "--find-links", index])


def test_unpinned_requirements_are_refused_line_by_line(tmp_path):
    plugin = _copy_probe(tmp_path, "tinydep>=1.0\n\n-e .\ntinybackport==1.*\n")
    with pytest.raises(BundleError) as raised:
        bundle_plugin(plugin, str(tmp_path / "dist"), vermin=False)
    message = str(raised.value)
    assert "requirements.txt:1" in message and "must pin one exact version" in message
    assert "requirements.txt:3" in message and "requirements.txt:4" in message


def test_plugin_code_that_needs_python_3_10_is_refused(tmp_path):
    index = probe_wheels(str(tmp_path / "index"))
    plugin = _copy_probe(tmp_path, "tinydep==1.0.0\ntinybackport==1.0.0\n")
    with open(os.path.join(plugin, "dist_probe", "modern.py"), "w") as handle:
        handle.write('"""Uses match."""\n\n\ndef kind(x):\n    match x:\n        case 1:\n            return "one"\n'
                     '    return "other"\n')
    with pytest.raises(BundleError, match=r"\n  dist_probe/modern\.py:\d+: not valid Python 3\.9"):
        bundle_plugin(plugin, str(tmp_path / "dist"), vermin=False, pip_args=["--no-index", "--find-links", index])


def test_a_symlink_in_the_plugin_folder_is_refused(tmp_path):
    plugin = _copy_probe(tmp_path, "")
    os.symlink(os.path.join(plugin, "README.md"), os.path.join(plugin, "LINKED.md"))
    with pytest.raises(BundleError, match="symbolic link"):
        bundle_plugin(plugin, str(tmp_path / "dist"), vermin=False)
