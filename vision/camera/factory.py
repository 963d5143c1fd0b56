"""A camera from a one-word description, as typed after ``--camera``.

=====================  ===================================================
``picamera2``          the Raspberry Pi camera (``picamera2:1``: the second)
``0``                  OpenCV camera index 0 (a USB webcam)
``/dev/video0``        a V4L2 device by path
``rtsp://...``         a network stream (also ``rtsps``, ``http``, ``https``)
``file:game.mp4``      a recorded video
``dir:frames/``        a folder of images, in natural name order
``image:board.jpg``    one photo, repeated
``synthetic``          the synthetic board renderer (``synthetic:seed=3``;
                       options ``seed``, ``fps``, ``scene`` in seconds)
=====================  ===================================================

Parsing (:func:`parse_spec`) is separate from building (:func:`build_camera`)
so a bad spec is reported before anything is opened; building never opens
the camera either, so a camera that is not plugged in yet is the
supervisor's business, not a startup crash.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from vision.camera.base import Camera, CameraConfig
from vision.camera.opencv_backend import STREAM_SCHEMES, OpenCVCamera
from vision.camera.picamera2_backend import Picamera2Camera
from vision.camera.replay import FolderReplay, ImageRepeat, ReplayConfig, VideoReplay
from vision.camera.synthetic import SyntheticCamera, renderer_producer
from vision.errors import ConfigError

Kind = Literal["picamera2", "opencv", "video", "folder", "image", "synthetic"]

USAGE = ("picamera2[:N], a camera index such as 0, /dev/videoN, rtsp://..., file:VIDEO, "
         "dir:FOLDER, image:PHOTO or synthetic[:seed=N,fps=F,scene=S]")
SYNTHETIC_OPTIONS = ("seed", "fps", "scene")


@dataclass(frozen=True, slots=True)
class CameraSpec:
    """A parsed camera spec."""

    kind: Kind
    source: int | str | None = None
    """Camera number, OpenCV index, device path, URL or file path; None for synthetic."""
    seed: int = 0
    fps: float | None = None
    scene_seconds: float = 2.0


def parse_spec(spec: str) -> CameraSpec:
    """Read a camera spec; raises :class:`ConfigError` saying what is accepted."""
    text = spec.strip()
    if not text:
        raise ConfigError(f"empty camera spec: use {USAGE}")
    lower = text.lower()
    if lower == "picamera2" or lower.startswith("picamera2:"):
        number = text[len("picamera2:"):] if ":" in text else "0"
        if not re.fullmatch(r"\d{1,2}", number):
            raise ConfigError(f"camera spec {spec!r}: picamera2 takes a camera number "
                              "(picamera2:0, picamera2:1)")
        return CameraSpec("picamera2", int(number))
    if re.fullmatch(r"\d+", text):
        return CameraSpec("opencv", int(text))
    if re.fullmatch(r"-\d+", text):
        raise ConfigError(f"camera spec {spec!r}: camera indexes are 0 or more")
    if text.startswith("/dev/"):
        return CameraSpec("opencv", text)
    if lower.startswith(STREAM_SCHEMES):
        if "://" not in text or not text.split("://", 1)[1]:
            raise ConfigError(f"camera spec {spec!r}: the URL has no host")
        return CameraSpec("opencv", text)
    for prefix, kind in (("file:", "video"), ("dir:", "folder"), ("image:", "image")):
        if lower.startswith(prefix):
            path = text[len(prefix):]
            if not path:
                raise ConfigError(f"camera spec {spec!r}: a path is needed after {prefix!r}")
            return CameraSpec(kind, path)  # type: ignore[arg-type]
    if lower == "synthetic" or lower.startswith("synthetic:"):
        return _parse_synthetic(spec, text[len("synthetic:"):] if ":" in text else "")
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", text):
        raise ConfigError(f"camera spec {spec!r}: unsupported URL scheme; streams are "
                          "rtsp://, rtsps://, http:// or https://")
    raise ConfigError(f"unknown camera spec {spec!r}: use {USAGE}")


def _parse_synthetic(spec: str, options: str) -> CameraSpec:
    values: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in options.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip().lower()
        if not sep or key not in SYNTHETIC_OPTIONS:
            raise ConfigError(f"camera spec {spec!r}: synthetic options are "
                              f"{', '.join(k + '=...' for k in SYNTHETIC_OPTIONS)}")
        if key in values:
            raise ConfigError(f"camera spec {spec!r}: {key} given twice")
        values[key] = value.strip()
    try:
        seed = int(values.get("seed", "0"))
        fps = float(values["fps"]) if "fps" in values else None
        scene = float(values.get("scene", "2"))
    except ValueError as exc:
        raise ConfigError(f"camera spec {spec!r}: seed is a whole number, fps and scene "
                          "are numbers") from exc
    if fps is not None and not (math.isfinite(fps) and 0 < fps <= 1000):
        raise ConfigError(f"camera spec {spec!r}: fps between 0 and 1000")
    if not (math.isfinite(scene) and scene > 0):
        raise ConfigError(f"camera spec {spec!r}: scene is a positive number of seconds")
    return CameraSpec("synthetic", None, seed, fps, scene)


def build_camera(spec: str | CameraSpec, config: CameraConfig | None = None,
                 replay: ReplayConfig | None = None) -> Camera:
    """The camera a spec describes, not yet opened.

    ``config`` applies to live cameras (and gives the synthetic frame size);
    ``replay`` to recordings and the synthetic source (pace, loop, frame rate).
    """
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    config = config or CameraConfig()
    replay = replay or ReplayConfig()
    source = parsed.source
    if parsed.kind == "picamera2":
        assert isinstance(source, int)
        return Picamera2Camera(source, config)
    if parsed.kind == "opencv":
        assert source is not None
        return OpenCVCamera(source, config)
    if parsed.kind == "video":
        return VideoReplay(str(source), replay)
    if parsed.kind == "folder":
        return FolderReplay(str(source), replay)
    if parsed.kind == "image":
        return ImageRepeat(str(source), replay)
    producer = renderer_producer(parsed.seed, config.size, parsed.scene_seconds)
    return SyntheticCamera(producer, fps=parsed.fps or replay.fps, pace=replay.pace,
                           name=f"synthetic:seed={parsed.seed}")
