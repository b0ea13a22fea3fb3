"""Hands the memory a first index freed back to the system (glibc's malloc_trim, through ctypes)."""

import ctypes
import ctypes.util
import sys


def release_freed_memory() -> bool:
    """Return freed heap pages to the system; False where there is no malloc_trim (macOS, musl).

    A first index holds a few batches of parsed notes at a time; once they are freed, glibc keeps
    the pages, and the plugin's resident memory stayed at its build peak while it idled or searched.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return bool(trim(0))
