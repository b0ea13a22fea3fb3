"""Real full and read-only folders for the failure tests: a small tmpfs (root), else a read-only bind
mount, else a folder without write permission (which only stops a user that is not root)."""

import contextlib
import os
import subprocess
from pathlib import Path
from typing import Iterator

import pytest


def _mount(*args: str) -> bool:
    try:
        return subprocess.run(["mount", *args], capture_output=True, check=False).returncode == 0
    except OSError:
        return False


def _umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True, check=False)


@contextlib.contextmanager
def full_folder(path: Path) -> Iterator[Path]:
    """`path` on a 64 KiB tmpfs filled to the last byte: every write there fails with ENOSPC."""
    path.mkdir(parents=True)
    if not _mount("-t", "tmpfs", "-o", "size=64k", "tmpfs", str(path)):
        pytest.skip("a full disk needs a tmpfs mount (root)")
    try:
        descriptor = os.open(str(path / "filler"), os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            for size in (4096, 512, 1):  # to the last byte
                try:
                    while True:
                        os.write(descriptor, b"\0" * size)
                except OSError:
                    pass
        finally:
            os.close(descriptor)
        yield path
    finally:
        _umount(path)


@contextlib.contextmanager
def read_only_folder(path: Path) -> Iterator[Path]:
    """`path` with whatever it holds, on a read-only bind mount (else without write permission)."""
    path.mkdir(parents=True, exist_ok=True)
    if _mount("--bind", str(path), str(path)) and _mount("-o", "remount,bind,ro", str(path)):
        try:
            yield path
        finally:
            _umount(path)
        return
    _umount(path)
    if os.geteuid() == 0:
        pytest.skip("no read-only bind mount, and root ignores permissions")
    mode = path.stat().st_mode
    path.chmod(0o555)
    try:
        yield path
    finally:
        path.chmod(mode)
