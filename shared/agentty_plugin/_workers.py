"""Threads for handlers and a small thread-safe future for host answers (lighter to import than concurrent.futures)."""

from __future__ import annotations

import queue
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, List, Optional


class CallTimeout(Exception):
    """No answer arrived in time."""


class Reply:
    """The answer to one host call: set once from the reader thread, awaited from any handler thread."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._result: Any = None
        self._error: Optional[BaseException] = None
        self._callbacks: List[Callable[[Reply], None]] = []

    def done(self) -> bool:
        return self._done.is_set()

    def set_result(self, result: Any) -> None:
        self._finish(result, None)

    def set_exception(self, error: BaseException) -> None:
        self._finish(None, error)

    def _finish(self, result: Any, error: Optional[BaseException]) -> None:
        with self._lock:
            if self._done.is_set():
                return
            self._result, self._error = result, error
            self._done.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)

    def add_done_callback(self, callback: Callable[[Reply], None]) -> None:
        with self._lock:
            if not self._done.is_set():
                self._callbacks.append(callback)
                return
        callback(self)

    def exception(self) -> Optional[BaseException]:
        self._done.wait()
        return self._error

    def result(self, timeout: Optional[float] = None) -> Any:
        if not self._done.wait(timeout):
            raise CallTimeout()
        if self._error is not None:
            raise self._error
        return self._result


class WorkerPool:
    """Runs submitted work on up to `size` daemon threads, started only when needed.

    Daemon threads matter: a handler stuck in a subprocess or an index build must never keep the
    process alive after `shutdown`.
    """

    def __init__(self, size: int, name: str) -> None:
        self._size = size
        self._name = name
        self._queue: queue.SimpleQueue[Optional[Callable[[], None]]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads = 0
        self._idle = 0
        self._closed = False

    def submit(self, work: Callable[[], None]) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the worker pool is closed")
            start_thread = self._idle == 0 and self._threads < self._size
            if start_thread:
                self._threads += 1
            else:
                self._idle = max(0, self._idle - 1)
        self._queue.put(work)
        if start_thread:
            threading.Thread(target=self._run, name=f"{self._name}-{self._threads}", daemon=True).start()

    def _run(self) -> None:
        while True:
            work = self._queue.get()
            if work is None:
                return
            try:
                work()
            except Exception:  # the work wraps its own error reporting; never lose the thread
                pass
            with self._lock:
                self._idle += 1

    def close(self) -> None:
        with self._lock:
            self._closed = True
            count = self._threads
        for _ in range(count):
            self._queue.put(None)
