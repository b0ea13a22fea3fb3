"""`agentty-plugin export`: a git repository whose root is a bundle, one commit per version, for "Install from Git".

Agentty's "Install from Git" runs `git clone --depth 1 <https url>` and wants the manifest at the
repository root, then copies the clone like a folder (so everything, `_vendor/` included, must be
committed). Each export replaces the repository's files with the bundle's, commits with the version
as message and tags `v<version>`; a version that is already tagged with different files is refused,
because Agentty only offers an update when the version number grows.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Dict, List, Optional

from ..manifest import MANIFEST_NAME
from .install import read_plugin
from .wheels import BundleError

FALLBACK_IDENTITY = {"GIT_AUTHOR_NAME": "agentty-plugin", "GIT_AUTHOR_EMAIL": "agentty-plugin@localhost",
                     "GIT_COMMITTER_NAME": "agentty-plugin", "GIT_COMMITTER_EMAIL": "agentty-plugin@localhost"}


@dataclass(frozen=True)
class ExportResult:
    plugin_id: str
    version: str
    repository: str
    commit: str
    created: bool  # a new commit was made (False: the repository already held exactly this bundle)


def _git(repo: str, *args: str, env: Optional[Dict[str, str]] = None, check: bool = True) -> str:
    try:
        result = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                env=env, check=False)
    except OSError as error:
        raise BundleError(f"git is needed to export: {error}") from None
    if check and result.returncode != 0:
        raise BundleError(f"git {' '.join(args)} failed in {repo}: {result.stderr.strip() or result.stdout.strip()}")
    return result.stdout.strip()


def _identity_env(repo: str) -> Dict[str, str]:
    env = dict(os.environ)
    if not _git(repo, "config", "user.name", check=False) or not _git(repo, "config", "user.email", check=False):
        for key, value in FALLBACK_IDENTITY.items():
            env.setdefault(key, value)
    return env


def _prepare(dest: str, plugin_id: str) -> bool:
    """Make `dest` a repository for this plugin; True when it was created now."""
    if os.path.isdir(os.path.join(dest, ".git")):
        manifest = os.path.join(dest, MANIFEST_NAME)
        if os.path.isfile(manifest):
            with open(manifest, encoding="utf-8") as handle:
                try:
                    existing = json.load(handle).get("id")
                except (ValueError, AttributeError):
                    existing = None
            if existing and existing != plugin_id:
                raise BundleError(f"{dest} holds the plugin {existing!r}, not {plugin_id!r}; choose another DEST")
        return False
    if os.path.isdir(dest) and os.listdir(dest):
        raise BundleError(f"{dest} exists, is not empty and is not a git repository; choose an empty or new folder")
    os.makedirs(dest, exist_ok=True)
    _git(dest, "init", "--quiet")
    _git(dest, "symbolic-ref", "HEAD", "refs/heads/main")  # works with git older than `init -b`
    return True


def _replace_contents(bundle_dir: str, dest: str) -> None:
    for name in os.listdir(dest):
        if name == ".git":
            continue
        path = os.path.join(dest, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    for name in os.listdir(bundle_dir):
        if name in (".git", ".DS_Store"):
            continue
        source = os.path.join(bundle_dir, name)
        if os.path.isdir(source):
            shutil.copytree(source, os.path.join(dest, name), symlinks=False)
        else:
            shutil.copy2(source, os.path.join(dest, name))


def export(bundle_dir: str, dest: str) -> ExportResult:
    """Write or update the repository at `dest` from a built bundle; commit with the version as message."""
    plugin = read_plugin(bundle_dir)
    dest = os.path.abspath(dest)
    created = _prepare(dest, plugin.id)
    _replace_contents(bundle_dir, dest)
    env = _identity_env(dest)
    # Keep every byte as built (no line-ending conversion on a Windows clone of a bundle).
    with open(os.path.join(dest, ".gitattributes"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write("* -text\n")
    _git(dest, "add", "--all")
    tree = _git(dest, "write-tree")
    tag = f"v{plugin.version}"
    tagged_tree = _git(dest, "rev-parse", "--verify", "--quiet", f"{tag}^{{tree}}", check=False)
    if tagged_tree and tagged_tree != tree:
        _git(dest, "reset", "--quiet", "--hard", "HEAD")
        raise BundleError(f"{dest} already has {tag} with different files: bump \"version\" in "
                          f"{MANIFEST_NAME} (Agentty only updates to a higher version) and export again")
    head_tree = _git(dest, "rev-parse", "--verify", "--quiet", "HEAD^{tree}", check=False)
    made = head_tree != tree
    if made:
        _git(dest, "commit", "--quiet", "--no-verify", "-m", plugin.version, env=env)
    if not tagged_tree:
        _git(dest, "tag", tag, env=env)
    commit = _git(dest, "rev-parse", "HEAD")
    return ExportResult(plugin.id, plugin.version, dest, commit, made or created)


def tracked_files(repo: str) -> List[str]:
    """Files committed at HEAD (for reports and tests)."""
    return _git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
