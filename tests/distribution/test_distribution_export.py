"""export: a git repository whose root is the bundle, clonable the way Agentty's "Install from Git" clones."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from agentty_plugin.distribution.export import export, tracked_files
from agentty_plugin.distribution.install import install
from agentty_plugin.distribution.wheels import BundleError


def _git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


def _version(folder, version):
    path = os.path.join(folder, "agentty-plugin.json")
    with open(path) as handle:
        data = json.load(handle)
    data["version"] = version
    with open(path, "w") as handle:
        json.dump(data, handle)


def test_export_makes_a_clonable_repository_with_the_manifest_at_its_root(probe_bundle, tmp_path):
    repo = tmp_path / "repo"
    result = export(probe_bundle.folder, str(repo))
    assert result.created and _git(repo, "log", "--format=%s") == "1.2.3"
    assert _git(repo, "tag") == "v1.2.3"
    files = tracked_files(str(repo))
    assert "agentty-plugin.json" in files and "_vendor/tinydep/__init__.py" in files

    # What Agentty does: a shallow clone, then a folder install of the clone (minus .git).
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", "--depth", "1", f"file://{repo}", str(clone)], check=True,
                   env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    assert json.loads((clone / "agentty-plugin.json").read_text())["id"] == "dist-probe"
    installed = install(str(clone), str(tmp_path / "home"))
    assert os.path.isfile(os.path.join(installed.folder, "_vendor", "agentty_plugin", "plugin.py"))
    assert not os.path.exists(os.path.join(installed.folder, ".git"))


def test_export_again_commits_only_a_new_version_and_removes_stale_files(probe_bundle, tmp_path):
    bundle = tmp_path / "bundle" / "dist-probe"
    shutil.copytree(probe_bundle.folder, bundle)
    (bundle / "old.txt").write_text("old")
    repo = str(tmp_path / "repo")
    export(str(bundle), repo)
    assert export(str(bundle), repo).created is False, "same bundle, nothing to commit"

    (bundle / "old.txt").unlink()
    (bundle / "new.txt").write_text("new")
    with pytest.raises(BundleError, match="bump"):
        export(str(bundle), repo)  # same version, different files: Agentty would never offer the update
    assert os.path.exists(os.path.join(repo, "old.txt")), "a refused export leaves the repository as it was"

    _version(str(bundle), "1.2.4")
    export(str(bundle), repo)
    assert _git(repo, "log", "--format=%s") == "1.2.4\n1.2.3"
    files = tracked_files(repo)
    assert "new.txt" in files and "old.txt" not in files


def test_export_refuses_a_folder_that_holds_something_else(probe_bundle, tmp_path):
    occupied = tmp_path / "occupied"
    occupied.mkdir()
    (occupied / "thesis.tex").write_text("mine")
    with pytest.raises(BundleError, match="not empty and is not a git repository"):
        export(probe_bundle.folder, str(occupied))
    assert (occupied / "thesis.tex").read_text() == "mine"
