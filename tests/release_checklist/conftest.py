"""Fixtures for the release-checklist tests: real git repositories (and bare remotes) in temp folders."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict, Optional

import pytest

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"
if str(PLUGIN_DIR) not in sys.path:
    sys.path.insert(0, str(PLUGIN_DIR))

GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
}


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, capture_output=True, text=True, check=True)
    return done.stdout.strip()


class Repo:
    """A real git repository with a Python project in it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __str__(self) -> str:
        return str(self.path)

    def git(self, *args: str) -> str:
        return git(self.path, *args)

    def write(self, relative: str, text: str) -> Path:
        target = self.path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return target

    def commit(self, message: str = "change") -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[..., Repo]:
    counter = [0]

    def make(version: Optional[str] = "1.1.0", files: Optional[Dict[str, str]] = None,
             changelog: Optional[str] = None, tags: tuple = (), where: Optional[Path] = None) -> Repo:
        counter[0] += 1
        repo = Repo((where or tmp_path) / f"repo{counter[0]}")
        repo.path.mkdir()
        repo.git("init", "-q", "-b", "main")
        if version is not None:
            repo.write("pyproject.toml", f'[project]\nname = "demo"\nversion = "{version}"\n')
        if changelog is not None:
            repo.write("CHANGELOG.md", changelog)
        for name, text in (files or {}).items():
            repo.write(name, text)
        repo.write("README.md", "demo\n")
        repo.commit("initial")
        for tag in tags:
            repo.git("tag", "-a", tag, "-m", tag)
        return repo

    return make


@pytest.fixture
def with_remote(tmp_path: Path) -> Callable[[Repo], Path]:
    """Give a repo an origin (a bare repo in the temp folder) and push main with upstream set."""

    def add(repo: Repo) -> Path:
        bare = tmp_path / f"{repo.path.name}-origin.git"
        git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
        repo.git("remote", "add", "origin", str(bare))
        repo.git("push", "-q", "-u", "origin", "main")
        return bare

    return add


@pytest.fixture
def plugin_dir() -> Path:
    return PLUGIN_DIR


@pytest.fixture
def run_git() -> Callable[..., str]:
    """git with a test identity, in any folder (tests never import conftest: its module name is shared)."""
    return git


@pytest.fixture
def data_dir(tmp_path: Path) -> str:
    folder = tmp_path / "plugin-data"
    folder.mkdir()
    return str(folder)


class SmallDisk:
    """A real small disk (tmpfs, mounted as root) that a test fills up, frees, or makes read-only."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.filler = path / ".filler"

    def fill(self) -> None:
        """Write until the disk says ENOSPC: afterwards no file on it can grow by a byte."""
        with open(self.filler, "ab", buffering=0) as handle:
            for size in (65536, 4096, 1):
                try:
                    while True:
                        handle.write(b"\0" * size)
                except OSError:
                    continue

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def read_only(self, yes: bool = True) -> None:
        subprocess.run(["mount", "-o", "remount," + ("ro" if yes else "rw"), str(self.path)], check=True,
                       capture_output=True)


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 2 MB tmpfs at tmp_path/disk. Skipped (with the reason) where this process may not mount one:
    a full disk cannot be faked without one, and a chmod'ed folder does not stop root."""
    path = tmp_path / "disk"
    path.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a real full or read-only disk needs root to mount a small tmpfs")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(path)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        pytest.skip(f"could not mount a small tmpfs: {done.stderr.strip()}")
    try:
        yield SmallDisk(path)
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


class LockedFolder:
    """A folder a test makes unwritable: a read-only bind mount as root (EROFS), else chmod 555 (EACCES)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.mounted = False

    def lock(self) -> None:
        if os.geteuid() == 0:
            for args in (["--bind", str(self.path), str(self.path)], ["-o", "remount,bind,ro", str(self.path)]):
                subprocess.run(["mount", *args], check=True, capture_output=True)
            self.mounted = True
        else:
            for folder, _dirs, _files in os.walk(self.path):
                os.chmod(folder, 0o555)

    def unlock(self) -> None:
        if self.mounted:
            subprocess.run(["umount", str(self.path)], check=True, capture_output=True)
            self.mounted = False
        else:
            for folder, _dirs, _files in os.walk(self.path):
                os.chmod(folder, 0o755)


@pytest.fixture
def locked_folder(tmp_path: Path):
    locked = LockedFolder(tmp_path / "data")
    locked.path.mkdir()
    try:
        yield locked
    finally:
        locked.unlock()
