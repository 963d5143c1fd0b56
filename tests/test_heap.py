"""The C allocator keeps a frame's large arrays for the next frame (vision/heap.py)."""

import ctypes
import subprocess
import sys
from pathlib import Path

import pytest

from vision.heap import HeapConfig, keep_heap

ROOT = Path(__file__).resolve().parents[1]

# A frame's read in small: a dozen arrays of 1.5 MB (the rectified field's planes) made,
# written and freed, then the faults of five more such frames counted.
_FRAMES = """
import resource, sys
import numpy as np
from vision.config import VisionConfig
from vision.heap import HeapConfig
from vision.pipeline import BoardReader

if sys.argv[1] == "keep":
    BoardReader()
elif sys.argv[1] == "left":
    BoardReader(VisionConfig(heap=HeapConfig(mmap_threshold=0, trim_threshold=0)))

def frame():
    arrays = [np.ones((598, 640), np.float32) for _ in range(12)]
    return sum(float(a[-1, -1]) for a in arrays)

frame(); frame()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(5):
    frame()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _glibc() -> bool:
    try:
        return hasattr(ctypes.CDLL(None), "mallopt") and sys.platform.startswith("linux")
    except OSError:
        return False


def _faults(mode: str) -> int:
    done = subprocess.run([sys.executable, "-c", _FRAMES, mode], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    return int(done.stdout.strip())


@pytest.mark.skipif(not _glibc(), reason="glibc's mallopt only")
def test_a_reader_keeps_the_heap_so_frames_fault_no_pages_in() -> None:
    """Without the thresholds every frame takes its 18 MB back from the system (a page
    fault a 4 KiB page); a process with a reader keeps them."""
    left = _faults("left")
    assert left > 5 * 2000  # about 4,400 pages a frame handed back and faulted in again
    assert _faults("keep") < 100


def test_keep_heap_is_set_once_for_a_config_and_refuses_negative_sizes() -> None:
    from vision.errors import ConfigError

    config = HeapConfig()
    assert keep_heap(config) is keep_heap(config)
    with pytest.raises(ConfigError):
        HeapConfig(mmap_threshold=-1)
