"""Where the read-only shared data lives (``../shared`` beside the checkout).

``BGREF_SHARED`` overrides the place.  Missing data skips a test on a
developer's machine but fails it under CI, where the data is always laid
out: a skipped test must never pass for a checked one there.
"""

import os
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("BGREF_SHARED") or Path(__file__).resolve().parents[2] / "shared")


def under_ci() -> bool:
    """True when CI runs the suite: there a missing tool or file fails a test
    instead of skipping it.  ``CI=false`` (or 0, no, empty) means not CI."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(message: str) -> None:
    """Skip locally, fail under CI: a skipped test must never pass for a checked one there."""
    if under_ci():
        pytest.fail(message)
    pytest.skip(message)


def shared_file(*parts: str) -> Path:
    """The path of a shared file; skips (locally) or fails (CI) when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = f"{path} is not available (set BGREF_SHARED to the shared data folder)"
        missing(message)
    return path
