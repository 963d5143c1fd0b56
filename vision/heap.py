"""The C allocator told to keep a frame's large arrays for the next frame (issue 4).

A frame's read makes and frees a few dozen arrays of one to three megabytes (the
rectified field, its grey, gradients and direction codes, the stills' windows).
glibc's malloc serves such a size from the heap once an earlier one of that size was
freed, but it hands the heap's free top back to the system whenever more than twice
that size lies free there, which is what the end of every frame leaves: the next frame
then takes every page back from the system, zeroed, one page fault each.  A process
that reads camera frames alone (``bgref watch``, the referee) paid about 1,400 page
faults and 3.5 ms of system time a real 1280x720 frame for it (the eight real frames,
13 alternate runs, loaded: CPU a frame 42.6 against 39.3 ms, the runs' medians; engineer
S's round three in docs/vision.md).  ``bench/vision_speed.py`` never saw it: its
renders, made first in the same process, had raised glibc's thresholds with the
render's own larger arrays (``--real-first`` measures the real frames first).

:func:`keep_heap` sets the thresholds once a process (:class:`.pipeline.BoardReader`
does, with its config's): arrays up to ``mmap_threshold`` come from the heap, and the
heap keeps up to ``trim_threshold`` of free top.  Nothing is computed differently.
Where the C library has no ``mallopt`` (not glibc) nothing is done.
"""

import ctypes
from dataclasses import dataclass

from vision.errors import ConfigError

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_MIB = 1 << 20


@dataclass(frozen=True, slots=True)
class HeapConfig:
    """glibc malloc thresholds for a process that reads frames (0: left as they are)."""

    mmap_threshold: int = 32 * _MIB
    """Bytes up to which an allocation comes from the heap rather than its own mapping
    (glibc's largest on 64 bits; its own default starts at 128 KiB and follows the
    largest block freed; 32-bit glibc allows 512 KiB at most, and then it is left).
    Every array of a frame's read is smaller (a 2x still of a 1280x720 frame is 11 MB),
    so none is mapped and unmapped a frame."""
    trim_threshold: int = 128 * _MIB
    """Bytes of free heap top kept before any is handed back to the system.  A frame's
    read frees a few tens of megabytes at its end; on the real frames 64 MiB of top pad
    alone still left about 190 faults a frame, this and ``mmap_threshold`` together 15.
    The process keeps no more than its largest frame's arrays."""

    def __post_init__(self) -> None:
        if self.mmap_threshold < 0 or self.trim_threshold < 0:
            raise ConfigError("heap thresholds are bytes, 0 or more")


_APPLIED: dict[HeapConfig, bool] = {}
"""The config set in this process, and whether every threshold was set."""


def keep_heap(config: HeapConfig) -> bool:
    """Set the allocator's thresholds (once a process for a given config); True when
    every threshold asked for was set (False without glibc's ``mallopt``)."""
    if config in _APPLIED:
        return _APPLIED[config]
    try:
        libc = ctypes.CDLL(None)  # the C library the process runs on
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    done = True
    for option, value in ((_M_MMAP_THRESHOLD, config.mmap_threshold),
                          (_M_TRIM_THRESHOLD, config.trim_threshold)):
        if value > 0:
            done = bool(mallopt(option, value)) and done
    _APPLIED.clear()
    _APPLIED[config] = done
    return done
