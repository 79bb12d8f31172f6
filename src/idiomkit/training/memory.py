"""The process's resident memory, and giving the C heap's free pages back to the system.

glibc keeps the blocks a program frees in its heap for reuse, so a process's resident memory says what it has
held at its peak, not what it holds. The trainer trims the heap after each validation (thousands of texts
encoded) and at every tenth step, and logs the resident memory then, so a run's log shows what the run holds
between steps. (The flagship's mpnet runs' 10 GB were mostly a step's working set: trimmed to 5–7 GB, they took
it back within seconds; the per-stream backward of ``train_step`` is what shrank it.)
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from functools import cache


@cache
def _glibc():
    """The C library when it is glibc (it has ``malloc_trim``), else None (macOS, musl, Windows)."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        return libc if hasattr(libc, "malloc_trim") else None
    except (OSError, TypeError):
        return None


def trim_heap() -> bool:
    """Return the C heap's free pages to the system (glibc's ``malloc_trim(0)``); False where it cannot."""
    libc = _glibc()
    return bool(libc.malloc_trim(0)) if libc is not None else False


def resident_bytes() -> int | None:
    """The process's resident set size (``/proc/self/statm``), or None where there is no ``/proc``."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def describe_resident() -> str:
    """``"resident 6.9 GB"``, or ``""`` where it cannot be read."""
    resident = resident_bytes()
    return f"resident {resident / 1e9:.1f} GB" if resident is not None else ""
