"""Saving and loading a calibration (JSON), atomically and with checks.

A calibration is written to a temporary file in the same folder, flushed to
disk and renamed over the old one, so a crash or a full disk mid-write
leaves the previous calibration intact, never half a file.  Loading checks
everything (:meth:`Calibration.from_json`) and, when the file is unreadable,
says which file, what is wrong and what to do, without touching the file:
a corrupt calibration is kept for a person to look at.
"""

import json
import os
import tempfile
from pathlib import Path

from vision.calibration.model import Calibration
from vision.errors import CalibrationError

RECALIBRATE = "recalibrate with: python -m vision.calibration IMAGE --save FILE"


def save_calibration(calibration: Calibration, path: str | Path) -> Path:
    """Write ``calibration`` to ``path`` atomically; returns the path."""
    target = Path(path)
    text = json.dumps(calibration.to_json(), indent=2, sort_keys=False) + "\n"
    try:
        write_atomic(target, text.encode("utf-8"))
    except OSError as exc:
        raise CalibrationError(f"cannot save the calibration to {target}: "
                               f"{exc.strerror or exc}") from exc
    return target


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file; :class:`CalibrationError` says what is wrong with it."""
    source = Path(path)
    try:
        raw = source.read_bytes()
    except FileNotFoundError as exc:
        raise CalibrationError(f"no calibration at {source}: {RECALIBRATE}") from exc
    except OSError as exc:
        raise CalibrationError(f"cannot read the calibration {source}: "
                               f"{exc.strerror or exc}") from exc
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise CalibrationError(f"calibration {source} is corrupt (not UTF-8 text); the "
                               f"file is left as it is; {RECALIBRATE}") from exc
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"calibration {source} is corrupt (not JSON: {exc.msg} at "
                               f"line {exc.lineno}, column {exc.colno}); the file is left "
                               f"as it is; {RECALIBRATE}") from exc
    try:
        return Calibration.from_json(data)
    except CalibrationError as exc:
        raise CalibrationError(f"calibration {source} is not usable: {exc}; the file is "
                               f"left as it is; {RECALIBRATE}") from exc


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` through a temporary file renamed into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the platform allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
