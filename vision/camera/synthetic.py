"""Frames made up by a function: the synthetic board renderer, or anything a test needs.

:class:`SyntheticCamera` only knows a *producer*, ``(seq, t) -> BGR image``,
so tests can drive it with a three-line generator and the demo can drive it
with the board renderer of :mod:`vision.synth` (loaded only when asked for,
through :func:`renderer_producer`).  A producer may raise
:class:`~vision.errors.CameraLostError` to play an unplugged camera.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from vision.camera.base import (
    Camera,
    Clock,
    Frame,
    Image,
    Region,
    Sleeper,
    Still,
    as_bgr,
    clip_region,
    monotonic,
)
from vision.camera.replay import Pace, Pacer
from vision.errors import CameraError, ConfigError

FrameProducer = Callable[[int, float], Image]
"""(frame number, time in seconds) -> H x W x 3 uint8 BGR image."""


@runtime_checkable
class StillProducer(Protocol):
    """A producer that can also show its latest frame's scene at a higher resolution
    (the renderer draws it again at that size), as a Pi camera's still does."""

    def still(self, scale: float) -> Image | None:
        """The scene of the latest frame, ``scale`` times the frame's size (or None)."""
        ...


class SyntheticCamera(Camera):
    """A camera whose frames come from ``producer``, at ``fps`` on its own timeline.

    Like a replay, frame times are ``seq / fps`` (deterministic); ``pace``
    decides whether reads wait for that time to come.
    """

    def __init__(self, producer: FrameProducer, *, fps: float = 10.0, pace: Pace = "fast",
                 name: str = "synthetic", clock: Clock = monotonic,
                 sleep: Sleeper = time.sleep, still_scale: float = 2.0) -> None:
        if not 0 < fps <= 1000:
            raise ConfigError(f"synthetic fps {fps}: between 0 and 1000")
        if not 1.0 <= still_scale <= 4.0:
            raise ConfigError(f"synthetic still_scale {still_scale}: between 1 and 4")
        self._still_scale = still_scale
        self._last_t = 0.0
        self._frame_size: tuple[int, int] | None = None
        self._producer = producer
        self._fps = fps
        self._name = name
        self._pacer = Pacer(pace, clock, sleep)
        self._open = False
        self._seq = 0

    @property
    def name(self) -> str:
        return self._name

    @property
    def producer(self) -> FrameProducer:
        """Where the frames come from (a :class:`RendererProducer` keeps the truth)."""
        return self._producer

    @property
    def is_open(self) -> bool:
        return self._open

    def open(self) -> None:
        if not self._open:
            self._open = True
            self._seq = 0
            self._pacer.reset()

    def read(self) -> Frame:
        if not self._open:
            raise CameraError(f"{self.name}: not open")
        t = self._seq / self._fps
        self._pacer.wait_for(t)
        image = as_bgr(self._producer(self._seq, t), self.name)
        frame = Frame(image, t, self._seq)
        self._seq += 1
        self._last_t = t
        self._frame_size = (int(image.shape[1]), int(image.shape[0]))
        return frame

    def capture_high_res(self, region: Region | None = None) -> Still | None:
        """The latest frame's scene drawn again at ``still_scale`` times its size,
        cropped to ``region`` (frame pixels); None when the producer cannot."""
        if not self._open:
            raise CameraError(f"{self.name}: not open")
        size = self._frame_size
        if not isinstance(self._producer, StillProducer) or size is None:
            return None
        array = self._producer.still(self._still_scale)
        if array is None:
            return None
        image = as_bgr(array, self.name)
        width, height = size
        x, y, w, h = clip_region(region, width, height)
        sx, sy = image.shape[1] / width, image.shape[0] / height
        crop = image[round(y * sy):round((y + h) * sy), round(x * sx):round((x + w) * sx)]
        return Still(crop.copy(), (x, y, w, h), (sx, sy), self._last_t)

    def close(self) -> None:
        self._open = False


class RendererProducer:
    """Random boards from :mod:`vision.synth`, each held for ``scene_seconds``.

    Holding a scene for a while gives the stabiliser something stable to
    report; the renderer's ground truth of the scene on screen is kept in
    :attr:`truth` so a demo or benchmark can score what the pipeline read.
    """

    def __init__(self, seed: int = 0, size: tuple[int, int] = (1280, 720),
                 scene_seconds: float = 2.0) -> None:
        if scene_seconds <= 0:
            raise ConfigError("synthetic scene_seconds must be positive")
        try:
            self._synth: Any = importlib.import_module("vision.synth")
        except ImportError as exc:
            raise CameraError("the synthetic board renderer (vision.synth) is not "
                              f"available: {exc}") from exc
        missing = [f for f in ("render", "random_scene") if not hasattr(self._synth, f)]
        if missing:
            raise CameraError(f"the synthetic board renderer (vision.synth) lacks "
                              f"{' and '.join(missing)}")
        self._rng = np.random.default_rng(seed)
        self._size = size
        self._scene_seconds = scene_seconds
        self._scene_index = -1
        self._image: Image | None = None
        self._scene: Any = None
        self.truth: Any = None
        """The renderer's description of the scene in the latest frame."""

    def __call__(self, seq: int, t: float) -> Image:
        index = int(t // self._scene_seconds)
        if index != self._scene_index or self._image is None:
            scene = self._synth.random_scene(self._rng)
            self._scene = scene
            image, self.truth = self._synth.render(scene, self._size)
            self._image = np.asarray(image, dtype=np.uint8)
            self._scene_index = index
        return self._image.copy()

    def still(self, scale: float) -> Image | None:
        """The scene on screen rendered again at ``scale`` times the frame size."""
        if self._scene is None:
            return None
        scene = self._scene
        size = (round(self._size[0] * scale), round(self._size[1] * scale))
        image, _ = self._synth.render(scene, size)
        return np.asarray(image, dtype=np.uint8)


def renderer_producer(seed: int = 0, size: tuple[int, int] = (1280, 720),
                      scene_seconds: float = 2.0) -> RendererProducer:
    """The producer behind the ``synthetic`` camera spec; raises :class:`CameraError`
    when :mod:`vision.synth` is missing."""
    return RendererProducer(seed, size, scene_seconds)
