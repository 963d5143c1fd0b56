"""Camera sources for the board reader, and the supervisor that keeps them running.

``build_camera("picamera2")`` (or ``"0"``, ``"file:game.mp4"``, ...) makes a
:class:`Camera`; wrap it in a :class:`CameraSupervisor` at the table so that
an unplugged camera is reported and reconnected instead of ending the
program.  Hardware libraries (picamera2) are imported only when their camera
is opened.
"""

from vision.camera.base import (
    Camera,
    CameraConfig,
    Frame,
    Image,
    Region,
    Still,
)
from vision.camera.factory import CameraSpec, build_camera, parse_spec
from vision.camera.opencv_backend import OpenCVCamera
from vision.camera.picamera2_backend import Picamera2Camera
from vision.camera.replay import FolderReplay, ImageRepeat, ReplayConfig, VideoReplay
from vision.camera.supervisor import BackoffConfig, CameraStatus, CameraSupervisor
from vision.camera.synthetic import FrameProducer, SyntheticCamera, renderer_producer
from vision.errors import EndOfStreamError

__all__ = [
    "BackoffConfig",
    "Camera",
    "CameraConfig",
    "CameraSpec",
    "CameraStatus",
    "CameraSupervisor",
    "EndOfStreamError",
    "FolderReplay",
    "Frame",
    "FrameProducer",
    "Image",
    "ImageRepeat",
    "OpenCVCamera",
    "Picamera2Camera",
    "Region",
    "ReplayConfig",
    "Still",
    "SyntheticCamera",
    "VideoReplay",
    "build_camera",
    "parse_spec",
    "renderer_producer",
]
