"""What every camera source has in common: frames, stills, the configuration, the interface.

A *camera* here is anything that hands out BGR frames one at a time: a Pi
camera, a USB webcam, an RTSP stream, a recorded video, a folder of photos, the
synthetic renderer.  The pipeline only talks to :class:`Camera`, so a recorded
game replays through exactly the code that runs at the table.

Failures follow one rule, because the kiosk must survive them: a source that
cannot be opened raises :class:`~vision.errors.CameraError`; a source that
*stops* (unplugged, crashed, read failure, frozen stream) raises
:class:`~vision.errors.CameraLostError`, which the
:class:`~vision.camera.supervisor.CameraSupervisor` turns into a reconnection;
a replay that has simply reached its end raises :class:`EndOfStreamError`,
which is not a loss and is not retried.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Self

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CameraLostError, ConfigError

Image = npt.NDArray[np.uint8]
Region = tuple[float, float, float, float]
"""x, y, width, height in pixels of the normal (video) frame."""
Clock = Callable[[], float]
Sleeper = Callable[[float], None]


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture from a camera."""

    image: Image
    """H x W x 3, uint8, BGR channel order (OpenCV's)."""
    t: float
    """Capture time in seconds: the monotonic clock for live cameras, the
    recording's own timeline for replays (so hold times mean the same thing
    whether a replay runs in real time or as fast as possible)."""
    seq: int
    """0, 1, 2, ... per opening of the camera; starts again at 0 after a reopen."""


@dataclass(frozen=True, slots=True)
class Still:
    """A high-resolution picture of (part of) the field of view, for reading small dice."""

    image: Image
    """BGR uint8, the requested region at the still's resolution."""
    region: tuple[int, int, int, int]
    """x, y, width, height in *video-frame* pixels that ``image`` covers
    (the request clipped to the frame)."""
    scale: tuple[float, float]
    """Still pixels per video-frame pixel, horizontally and vertically: a point
    (x, y) of ``image`` is at (region.x + x / sx, region.y + y / sy) in the frame."""
    t: float


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """Settings shared by the live camera backends (replays ignore the live-only ones)."""

    size: tuple[int, int] = (1280, 720)
    """Requested video frame size, width x height.  720p is enough to count
    checkers on a full board and keeps a Raspberry Pi at a useful frame rate."""
    min_fps: float = 30.0
    """Frame rate the video's sensor mode must reach (picamera2): among the
    sensor modes that see the whole width of the sensor and run at least this
    fast, the smallest that still covers ``size`` is used.  Left to itself,
    libcamera picks Camera Module 3's 1536x864 mode for 720p video, a crop of
    the middle of the sensor with a third less field of view, and the camera
    would then have to hang higher than hardware/camera.md says."""
    still_size: tuple[int, int] | None = None
    """Size of high-resolution stills; None lets the backend choose (picamera2:
    the sensor pixels under the video's field of view, i.e. no resampling)."""
    read_timeout: float = 2.0
    """Seconds a read may take before the camera counts as lost.  Generous
    against a slow first frame, short enough that players are told quickly."""
    open_timeout: float = 10.0
    """Seconds opening may take (a network stream that does not answer)."""
    still_timeout: float = 5.0
    """Seconds a high-resolution still may take (it needs a sensor mode switch)."""
    read_retries: int = 2
    """Failed reads tolerated in a row before the camera counts as lost
    (network streams drop a packet now and then)."""
    frozen_after: float = 5.0
    """Seconds of byte-identical frames after which a live stream counts as
    frozen (a real sensor never repeats a frame exactly: noise changes it)."""
    lock_exposure: bool = True
    """Fix exposure time and gain once auto exposure has settled, so the
    brightness of checkers does not drift between frames."""
    lock_white_balance: bool = True
    """Fix the colour gains once auto white balance has settled, so light and
    dark checkers keep their colours."""
    lock_focus: bool = True
    """Run one autofocus cycle on modules that have autofocus, then hold the lens."""
    settle_timeout: float = 3.0
    """Seconds to wait for auto exposure / white balance to converge before
    locking whatever they reached (a dim room may never report convergence)."""
    settle_frames: int = 5
    """Consecutive converged frames required before locking."""
    gain_tolerance: float = 0.01
    """Largest relative change of the colour gains between frames that still
    counts as converged white balance."""

    def __post_init__(self) -> None:
        w, h = self.size
        if not (16 <= w <= 10000 and 16 <= h <= 10000):
            raise ConfigError(f"camera size {w}x{h}: each side 16-10000 pixels")
        if self.still_size is not None:
            sw, sh = self.still_size
            if not (16 <= sw <= 20000 and 16 <= sh <= 20000):
                raise ConfigError(f"still size {sw}x{sh}: each side 16-20000 pixels")
        if not 0 < self.min_fps <= 1000:
            raise ConfigError(f"camera min_fps {self.min_fps}: between 0 and 1000")
        for name in ("read_timeout", "open_timeout", "still_timeout", "frozen_after",
                     "settle_timeout"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"camera {name} must be positive seconds")
        if self.read_retries < 0:
            raise ConfigError("camera read_retries must be 0 or more")
        if self.settle_frames < 1:
            raise ConfigError("camera settle_frames must be at least 1")
        if not 0 < self.gain_tolerance < 1:
            raise ConfigError("camera gain_tolerance must be between 0 and 1")


class Camera(ABC):
    """A source of frames.  Open it (or use ``with``), read frames, close it.

    Closing and opening again must work: that is how the supervisor
    reconnects a camera without restarting the program.
    """

    @property
    @abstractmethod
    def name(self) -> str:
        """What this camera is, for logs and the kiosk ("picamera2:0", "file:game.mp4")."""

    @property
    @abstractmethod
    def is_open(self) -> bool:
        """True between a successful :meth:`open` and :meth:`close`."""

    @abstractmethod
    def open(self) -> None:
        """Acquire the device; raises :class:`CameraError` when it cannot."""

    @abstractmethod
    def read(self) -> Frame:
        """The next frame; raises :class:`CameraLostError` when the source stopped."""

    @abstractmethod
    def close(self) -> None:
        """Release the device.  Never raises, and is safe to call twice."""

    def capture_high_res(self, region: Region | None = None) -> Still | None:
        """A higher-resolution picture of ``region`` (the whole view when None).

        None when the backend has nothing better than its video frames.
        """
        return None

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} {'open' if self.is_open else 'closed'}>"


def as_bgr(image: object, source: str) -> Image:
    """A frame as H x W x 3 uint8 BGR, converting grey and BGRA; else :class:`CameraLostError`.

    Drivers hand out odd buffers when they are failing (empty arrays, wrong
    types), so a frame that is not an image is treated as a lost camera.
    """
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise CameraLostError(f"{source}: the camera returned no image")
    if image.dtype != np.uint8:
        raise CameraLostError(f"{source}: frames of {image.dtype}, expected 8-bit")
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), dtype=np.uint8)
    raise CameraLostError(f"{source}: frames of shape {image.shape}, expected H x W x 3")


class FreezeWatch:
    """Notices a live stream that keeps delivering the very same frame.

    Some drivers and RTSP servers repeat the last buffer forever when the
    sensor behind them has died.  A live sensor's noise makes every frame
    differ in some byte, so byte-identical frames for ``after`` seconds mean
    the picture is no longer live.
    """

    STRIDE = 4
    """Every 4th pixel of every 4th row is compared: sensor noise touches nearly
    every pixel, and 1/16 of a 720p frame costs a fraction of a millisecond."""

    def __init__(self, after: float, source: str) -> None:
        self._after = after
        self._source = source
        self._last: Image | None = None
        self._since = 0.0

    def reset(self) -> None:
        self._last = None

    def check(self, image: Image, t: float) -> None:
        """Raises :class:`CameraLostError` once the same image has lasted too long."""
        sample = image[::self.STRIDE, ::self.STRIDE]
        last = self._last
        if last is not None and last.shape == sample.shape and np.array_equal(last, sample):
            if t - self._since >= self._after:
                raise CameraLostError(f"{self._source}: the stream is frozen "
                                      f"(identical frames for {t - self._since:.1f} s)")
            return
        self._last = sample.copy()
        self._since = t


def clip_region(region: Region | None, width: int, height: int) -> tuple[int, int, int, int]:
    """``region`` rounded outwards to whole pixels and clipped to a width x height frame."""
    if region is None:
        return (0, 0, width, height)
    x, y, w, h = region
    if not all(np.isfinite(v) for v in region) or w <= 0 or h <= 0:
        raise ValueError(f"region {region}: x, y, width, height with positive sizes")
    x0, y0 = max(0, int(np.floor(x))), max(0, int(np.floor(y)))
    x1, y1 = min(width, int(np.ceil(x + w))), min(height, int(np.ceil(y + h)))
    if x1 <= x0 or y1 <= y0:
        raise ValueError(f"region {region} lies outside the {width}x{height} frame")
    return (x0, y0, x1 - x0, y1 - y0)


def monotonic() -> float:
    """The default clock of live cameras (a function so tests can swap it)."""
    return time.monotonic()
