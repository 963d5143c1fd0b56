"""Recorded input as a camera: a video file, a folder of images, one image repeated.

Replays are how the pipeline is tested and tuned away from the table, so they
behave like a camera in every respect the pipeline can see, with one
difference: a frame's time ``t`` is the recording's own timeline (frame
index / frame rate, continuing across loops), not the wall clock.  That keeps
replays deterministic and makes hold times mean the same thing whether the
replay runs in real time (for a demo, or to feel the latency) or as fast as
the pipeline can go (for tests and benchmarks).
"""

from __future__ import annotations

import re
import time
from abc import abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from vision.camera.base import (
    Camera,
    Clock,
    Frame,
    Image,
    Sleeper,
    monotonic,
)
from vision.errors import CameraError, ConfigError, EndOfStreamError

Pace = Literal["realtime", "fast"]
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


@dataclass(frozen=True, slots=True)
class ReplayConfig:
    """How a recording is played back."""

    pace: Pace = "realtime"
    """``realtime`` holds each frame back until its time has come, like a
    camera; ``fast`` hands frames out as quickly as they are asked for."""
    loop: bool = False
    """Start again at the end instead of raising :class:`EndOfStreamError`."""
    fps: float = 10.0
    """Frame rate of folders and repeated images, and of videos whose file
    does not state one.  10 fps is about what the Pi pipeline processes."""

    def __post_init__(self) -> None:
        if self.pace not in ("realtime", "fast"):
            raise ConfigError(f"replay pace {self.pace!r}: 'realtime' or 'fast'")
        if not (0 < self.fps <= 1000):
            raise ConfigError(f"replay fps {self.fps}: between 0 and 1000")


class Pacer:
    """Holds frames back until their time on the recording's timeline has come.

    The first frame anchors the recording's timeline to the clock; later
    frames wait for ``anchor + t``.  A consumer that falls behind is not caught
    up by skipping frames: every recorded frame is delivered.
    """

    def __init__(self, pace: Pace, clock: Clock = monotonic,
                 sleep: Sleeper = time.sleep) -> None:
        self._pace = pace
        self._clock = clock
        self._sleep = sleep
        self._offset: float | None = None

    def reset(self) -> None:
        self._offset = None

    def wait_for(self, t: float) -> None:
        """Return when recording time ``t`` is due (at once when pacing is ``fast``)."""
        if self._pace == "fast":
            return
        now = self._clock()
        if self._offset is None:
            self._offset = now - t
        delay = self._offset + t - now
        if delay > 0:
            self._sleep(delay)


class _Replay(Camera):
    """A recording delivered frame by frame, looping or ending."""

    def __init__(self, path: str | Path, config: ReplayConfig | None, clock: Clock,
                 sleep: Sleeper) -> None:
        self._path = Path(path)
        self._replay = config or ReplayConfig()
        self._pacer = Pacer(self._replay.pace, clock, sleep)
        self._open = False
        self._seq = 0
        self._loop_offset = 0.0
        self._last_t = 0.0
        self._period = 1.0 / self._replay.fps

    @property
    def is_open(self) -> bool:
        return self._open

    def open(self) -> None:
        if self._open:
            return
        self._start()
        self._open = True
        self._seq = 0
        self._loop_offset = 0.0
        self._last_t = -self._period
        self._pacer.reset()

    def read(self) -> Frame:
        if not self._open:
            raise CameraError(f"{self.name}: not open")
        item = self._next()
        if item is None:
            if not self._replay.loop:
                raise EndOfStreamError(f"{self.name}: end of the recording after "
                                       f"{self._seq} frames")
            self._loop_offset = self._last_t + self._period
            self._rewind()
            item = self._next()
            if item is None:
                raise EndOfStreamError(f"{self.name}: the recording has no frames")
        image, media_t = item
        t = self._loop_offset + media_t
        self._last_t = t
        self._pacer.wait_for(t)
        frame = Frame(image, t, self._seq)
        self._seq += 1
        return frame

    def close(self) -> None:
        if self._open:
            self._open = False
            self._stop()

    @abstractmethod
    def _start(self) -> None:
        """Check and load the recording; raises :class:`CameraError`."""

    @abstractmethod
    def _next(self) -> tuple[Image, float] | None:
        """The next image and its time from the start of the recording, or None at the end."""

    @abstractmethod
    def _rewind(self) -> None:
        """Go back to the first frame."""

    def _stop(self) -> None:
        """Release what :meth:`_start` acquired."""


class VideoReplay(_Replay):
    """A video file (anything OpenCV's FFmpeg reads: mp4, avi, mkv, ...)."""

    def __init__(self, path: str | Path, config: ReplayConfig | None = None, *,
                 clock: Clock = monotonic, sleep: Sleeper = time.sleep) -> None:
        super().__init__(path, config, clock, sleep)
        self._cap: cv2.VideoCapture | None = None
        self._index = 0
        self._fps = self._replay.fps

    @property
    def name(self) -> str:
        return f"file:{self._path}"

    @property
    def fps(self) -> float:
        """The frame rate in use (the file's own when it states one)."""
        return self._fps

    def _start(self) -> None:
        if not self._path.is_file():
            raise CameraError(f"{self.name}: no such video file")
        self._rewind()
        cap = self._cap
        assert cap is not None
        rate = cap.get(cv2.CAP_PROP_FPS)
        self._fps = rate if np.isfinite(rate) and 0 < rate <= 1000 else self._replay.fps
        self._period = 1.0 / self._fps

    def _rewind(self) -> None:
        # Reopening is the one way back to frame 0 that every codec honours.
        self._stop()
        cap = cv2.VideoCapture(str(self._path))
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"{self.name}: OpenCV cannot decode this file")
        self._cap = cap
        self._index = 0

    def _next(self) -> tuple[Image, float] | None:
        cap = self._cap
        if cap is None:
            return None
        ok, image = cap.read()
        if not ok or image is None:
            return None
        t = self._index / self._fps
        self._index += 1
        return np.asarray(image, dtype=np.uint8), t

    def _stop(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class FolderReplay(_Replay):
    """The images of a folder in natural name order (frame2 before frame10)."""

    def __init__(self, path: str | Path, config: ReplayConfig | None = None, *,
                 clock: Clock = monotonic, sleep: Sleeper = time.sleep) -> None:
        super().__init__(path, config, clock, sleep)
        self._files: list[Path] = []
        self._index = 0

    @property
    def name(self) -> str:
        return f"dir:{self._path}"

    @property
    def files(self) -> list[Path]:
        """The images in replay order (after :meth:`open`)."""
        return list(self._files)

    def _start(self) -> None:
        if not self._path.is_dir():
            raise CameraError(f"{self.name}: no such folder")
        files = [p for p in self._path.iterdir()
                 if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES]
        if not files:
            raise CameraError(f"{self.name}: no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
        self._files = sorted(files, key=_natural_key)
        self._index = 0

    def _rewind(self) -> None:
        self._index = 0

    def _next(self) -> tuple[Image, float] | None:
        if self._index >= len(self._files):
            return None
        path = self._files[self._index]
        image = _load(path, self.name)
        t = self._index / self._replay.fps
        self._index += 1
        return image, t


class ImageRepeat(_Replay):
    """One photo, delivered again and again at the configured frame rate."""

    def __init__(self, path: str | Path, config: ReplayConfig | None = None, *,
                 clock: Clock = monotonic, sleep: Sleeper = time.sleep) -> None:
        super().__init__(path, config, clock, sleep)
        self._image: Image | None = None
        self._index = 0

    @property
    def name(self) -> str:
        return f"image:{self._path}"

    def _start(self) -> None:
        if not self._path.is_file():
            raise CameraError(f"{self.name}: no such image file")
        self._image = _load(self._path, self.name)
        self._index = 0

    def _rewind(self) -> None:
        self._index = 0

    def _next(self) -> tuple[Image, float] | None:
        if self._image is None:
            return None
        t = self._index / self._replay.fps
        self._index += 1
        # A copy, so that a stage drawing on its frame cannot change the next one.
        return self._image.copy(), t

    def _stop(self) -> None:
        self._image = None


def _load(path: Path, source: str) -> Image:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise CameraError(f"{source}: cannot read image {path.name}")
    return np.asarray(image, dtype=np.uint8)


def _natural_key(path: Path) -> tuple[tuple[int, int | str], ...]:
    """Sort key treating digit runs as numbers: frame2.png < frame10.png."""
    parts = re.split(r"(\d+)", path.name)
    return tuple((0, int(p)) if p.isdigit() else (1, p.lower()) for p in parts if p)
