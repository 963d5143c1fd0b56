"""Where the benchmarks find the read-only shared data (``../shared`` beside the checkout).

``BGREF_SHARED`` overrides the place, as for the tests: a clean export or clone
under /tmp has no ``../shared`` beside it, and a benchmark that silently found
no real photos there would report its renders alone as if they were the whole
measure.
"""

import os
from pathlib import Path

SHARED = Path(os.environ.get("BGREF_SHARED") or Path(__file__).resolve().parents[2] / "shared")
DATA = SHARED / "data"


def data_folder(name: str) -> Path:
    """``DATA / name``, or a clear stop when it is not there (set ``BGREF_SHARED``)."""
    folder = DATA / name
    if not folder.is_dir():
        raise SystemExit(f"{folder} not found: set BGREF_SHARED to the shared data folder "
                         "(the one holding data/real-boards and data/dice-photos)")
    return folder
