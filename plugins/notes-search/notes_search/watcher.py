"""Tells which notes changed as they are saved: Linux inotify through ctypes (no compiled package).

Elsewhere, or when the kernel refuses more watches, start() returns False and the plugin keeps
finding changes by walking the folders. A queue overflow asks for one full walk (on_lost).
"""

import ctypes
import ctypes.util
import os
import select
import struct
import sys
import threading
from typing import Callable, Dict, Iterable, List, Optional, Set

from .sources import MAX_DEPTH, NOTE_EXTENSIONS, SKIPPED_FOLDERS

_IN_CLOSE_WRITE = 0x00000008
_IN_MOVED_FROM = 0x00000040
_IN_MOVED_TO = 0x00000080
_IN_CREATE = 0x00000100
_IN_DELETE = 0x00000200
_IN_DELETE_SELF = 0x00000400
_IN_MOVE_SELF = 0x00000800
_IN_Q_OVERFLOW = 0x00004000
_IN_IGNORED = 0x00008000
_IN_ONLYDIR = 0x01000000
_IN_DONT_FOLLOW = 0x02000000
_IN_ISDIR = 0x40000000
_IN_NONBLOCK = 0o4000
_IN_CLOEXEC = 0o2000000
_MASK = _IN_CLOSE_WRITE | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE | _IN_DELETE | _IN_DELETE_SELF | _IN_MOVE_SELF
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then the name, NUL-padded
# Saves come in bursts (an editor writes a temp file, renames it, touches the folder): events that
# arrive within this much of the first one are handed over together.
SETTLE_SECONDS = 0.03

Changed = Callable[[Set[str]], None]


def _libc() -> Optional[ctypes.CDLL]:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        return libc
    except (OSError, AttributeError):
        return None


def _is_note(name: str) -> bool:
    return not name.startswith(".") and name.lower().endswith(NOTE_EXTENSIONS)


def _skipped_folder(name: str) -> bool:
    return name.startswith(".") or name in SKIPPED_FOLDERS


class NoteWatcher:
    """Watches every folder under the roots; calls on_change(paths) on its own thread with the note
    files saved, created, moved or deleted, and on_lost() when events were dropped."""

    def __init__(self, roots: Iterable[str], on_change: Changed, on_lost: Callable[[], None]) -> None:
        self.roots = [os.path.abspath(root) for root in roots]
        self.on_change = on_change
        self.on_lost = on_lost
        self._libc = _libc()
        self._fd = -1
        self._folders: Dict[int, str] = {}  # watch descriptor -> folder
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self.failure = ""  # why watching is not possible, for the log

    def start(self) -> bool:
        """Watch the folders; False (and nothing running) where inotify cannot be used."""
        if self._libc is None:
            self.failure = "no inotify on this platform"
            return False
        fd = self._libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if fd < 0:
            self.failure = os.strerror(ctypes.get_errno())
            return False
        self._fd = fd
        for root in self.roots:
            if os.path.isdir(root) and not self._watch_tree(root, 0, None):
                self.close()
                return False
        self._thread = threading.Thread(target=self._run, name="notes-watch", daemon=True)
        self._thread.start()
        return True

    def _watch_tree(self, top: str, depth: int, found: Optional[Set[str]]) -> bool:
        """Watch `top` and the folders below it; with `found`, collect the notes already there (a
        folder moved or copied in arrives with its notes, and no event tells of them)."""
        stack = [(top, depth)]
        while stack:
            folder, level = stack.pop()
            assert self._libc is not None
            wd = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), _MASK | _IN_ONLYDIR | _IN_DONT_FOLLOW)
            if wd < 0:
                error = ctypes.get_errno()
                if level == depth:
                    continue  # the folder went away meanwhile
                self.failure = f"inotify_add_watch: {os.strerror(error)}"  # ENOSPC: the watch limit
                return False
            self._folders[wd] = folder
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if not _skipped_folder(entry.name) and level + 1 <= MAX_DEPTH:
                            stack.append((entry.path, level + 1))
                    elif found is not None and _is_note(entry.name):
                        found.add(entry.path)
                except OSError:
                    continue
        return True

    def _run(self) -> None:
        pending: Set[str] = set()
        while not self._stop.is_set():
            timeout = SETTLE_SECONDS if pending else 0.5
            try:
                ready, _, _ = select.select([self._fd], [], [], timeout)
            except (OSError, ValueError):
                return  # closed
            if not ready:
                if pending:
                    batch, pending = pending, set()
                    self.on_change(batch)
                continue
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                return
            if self._handle(data, pending):
                pending.clear()
                self.on_lost()

    def _handle(self, data: bytes, pending: Set[str]) -> bool:
        """Add the note paths the events name to `pending`; True when events were lost."""
        offset = 0
        lost = False
        while offset + _EVENT.size <= len(data):
            wd, mask, _cookie, size = _EVENT.unpack_from(data, offset)
            raw = data[offset + _EVENT.size : offset + _EVENT.size + size].rstrip(b"\0")
            offset += _EVENT.size + size
            if mask & _IN_Q_OVERFLOW:
                lost = True
                continue
            if mask & _IN_IGNORED:
                self._folders.pop(wd, None)
                continue
            folder = self._folders.get(wd)
            if folder is None or not raw:
                continue
            name = os.fsdecode(raw)
            path = os.path.join(folder, name)
            if mask & _IN_ISDIR:
                if _skipped_folder(name):
                    continue
                if mask & (_IN_CREATE | _IN_MOVED_TO):
                    found: Set[str] = set()
                    if not self._watch_tree(path, 1, found):
                        lost = True
                    pending.update(found)
                elif mask & _IN_MOVED_FROM:
                    lost = True  # a folder moved away: which notes it held is the index's to tell
                continue
            if _is_note(name):
                pending.add(path)
        return lost

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2.0)
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def watched_folders(watcher: NoteWatcher) -> List[str]:
    """The folders being watched (for tests and the log)."""
    return sorted(watcher._folders.values())
