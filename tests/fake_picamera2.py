"""A stand-in for the ``picamera2`` package, for tests on machines without a Pi camera.

Tests put this module into ``sys.modules["picamera2"]`` and describe the
attached cameras with :func:`attach`.  It follows the real API closely enough
to catch the mistakes that matter:

* ``Picamera2(camera_num)``, ``global_camera_info()``, ``camera_properties``,
  ``camera_controls``; one open instance per camera ("busy" otherwise);
* ``create_video_configuration`` / ``create_still_configuration`` returning
  dicts with ``main`` (``size``, ``format``) and ``controls``; ``configure``
  only while stopped; a mode switch applies the new configuration's controls
  and switching back applies the old one's, losing anything set since, as the
  real library does;
* format names as picamera2 (libcamera/DRM) spells them: ``"RGB888"`` is B, G,
  R in memory, ``"BGR888"`` is R, G, B, the 32-bit ones have a fourth byte;
* simulated auto exposure and auto white balance that converge over a few
  frames (``AeLocked`` or, with ``new_style_ae``, ``AeState`` in the
  metadata) and then keep tracking a slowly flickering light, so an
  unlocked camera's colours drift; fixed controls stop that;
* autofocus (``AfMode``, ``LensPosition``, ``autofocus_cycle``) on models
  that have it;
* asynchronous calls (``wait=False``) returning jobs, and
  ``wait(job, timeout)`` raising ``TimeoutError`` when the camera has been
  unplugged.  A blocking call (``wait`` not False) on an unplugged camera
  raises ``RuntimeError``: the real one would hang forever;
* :func:`unplug`, :func:`crash` and :func:`replug`; a camera that was
  unplugged needs a new ``Picamera2`` object, like the real one.

The picture is drawn in *sensor* coordinates (a red and a blue square on
grey) and scaled from the active ``ScalerCrop``, so tests can check where a
region of a video frame lands in a still.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.uint8]

TARGET_EXPOSURE = 20000
TARGET_GAIN = 2.0
TARGET_GAINS = (2.0, 1.6)
RED_SQUARE = (0.20, 0.40, 0.10, 0.20)
"""x, y, w, h as fractions of the pixel array."""
BLUE_SQUARE = (0.70, 0.30, 0.05, 0.08)


@dataclass
class Sensor:
    """One attached camera module."""

    model: str = "imx708"
    pixel_array: tuple[int, int] = (4608, 2592)
    modes: list[dict[str, Any]] | None = None
    """The sensor modes (picamera2's ``sensor_modes``); None gives the pattern of
    Camera Module 3 scaled to ``pixel_array``: a fast mode cropped from the
    middle of the sensor, a 2x2 binned mode over the whole sensor, and the
    full resolution."""

    def sensor_modes(self) -> list[dict[str, Any]]:
        if self.modes is not None:
            return self.modes
        w, h = self.pixel_array
        return [
            {"format": "SRGGB10_CSI2P", "bit_depth": 10, "size": (w // 3, h // 3),
             "fps": 120.0, "crop_limits": (w // 6, h // 6, 2 * w // 3, 2 * h // 3)},
            {"format": "SRGGB10_CSI2P", "bit_depth": 10, "size": (w // 2, h // 2),
             "fps": 56.0, "crop_limits": (0, 0, w, h)},
            {"format": "SRGGB10_CSI2P", "bit_depth": 10, "size": (w, h),
             "fps": 14.0, "crop_limits": (0, 0, w, h)},
        ]
    autofocus: bool = True
    new_style_ae: bool = False
    """Report ``AeState`` and offer ``ExposureTimeMode`` (newer libcamera)."""
    settle_frames: int = 6
    """Frames before the simulated AGC reports itself converged."""
    af_success: bool = True
    focus_at: float = 2.5
    """Lens position (dioptres) the autofocus cycle finds."""
    plugged: bool = True
    crashed: bool = False
    frozen: bool = False
    stop_blocks: threading.Event | None = None
    """When set, ``stop()`` waits for this event (a dead pipeline that hangs)."""
    """Keep handing out the last picture (a driver stuck on one buffer)."""
    generation: int = 0
    """Bumped by unplug/crash: objects opened before then stay dead."""
    opened: int = 0
    """How many Picamera2 objects were made for this camera."""
    instances: list[Picamera2] = field(default_factory=list)


SENSORS: list[Sensor] = []


def attach(*sensors: Sensor) -> list[Sensor]:
    """Replace the attached cameras (one default Camera Module 3 when none given)."""
    SENSORS[:] = list(sensors) or [Sensor()]
    return SENSORS


def unplug(num: int = 0) -> None:
    SENSORS[num].plugged = False
    SENSORS[num].generation += 1


def crash(num: int = 0) -> None:
    """The camera stays listed but every capture fails (a crashed pipeline)."""
    SENSORS[num].crashed = True
    SENSORS[num].generation += 1


def replug(num: int = 0) -> None:
    SENSORS[num].plugged = True
    SENSORS[num].crashed = False


class Job:
    """What an asynchronous call returns; the work happens at ``wait``, as frames arrive."""

    def __init__(self, camera: Picamera2, work: Callable[[], Any]) -> None:
        self._camera = camera
        self._work = work

    def get_result(self, timeout: float | None = None) -> Any:
        return self._camera.wait(self, timeout)


class Picamera2:
    """The camera object, as far as these tests need it."""

    closed: bool
    generation: int

    def __init__(self, camera_num: int = 0, tuning: object = None) -> None:
        plugged = [s for s in SENSORS if s.plugged]
        sensor = plugged[camera_num]  # IndexError like the real one when absent
        if any(not c.closed and c.generation == sensor.generation for c in sensor.instances):
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        sensor.opened += 1
        sensor.instances.append(self)
        self.sensor = sensor
        self.generation = sensor.generation
        self.closed = False
        self.started = False
        self.camera_config: dict[str, Any] | None = None
        self.controls: dict[str, Any] = {}
        self.control_log: list[dict[str, Any]] = []
        self.frames = 0
        self.last: Array | None = None
        self.exposure = 8000.0
        self.gain = 6.0
        self.colour_gains = (1.2, 2.8)
        self.lens = 1.0
        self.crop = (0, 0, *sensor.pixel_array)
        width, height = sensor.pixel_array
        self.camera_properties: dict[str, Any] = {
            "Model": sensor.model, "PixelArraySize": (width, height),
            "PixelArrayActiveAreas": [(0, 0, width, height)], "Location": 2, "Rotation": 180,
        }
        controls: dict[str, Any] = {
            "AwbEnable": (False, True, None), "ColourGains": (0.0, 32.0, None),
            "ExposureTime": (26, 220417486, 20000), "AnalogueGain": (1.0, 16.0, None),
            "ScalerCrop": ((0, 0, 64, 64), (0, 0, width, height), (0, 0, width, height)),
            "FrameDurationLimits": (33333, 120000000, 33333),
        }
        if sensor.new_style_ae:
            controls["ExposureTimeMode"] = (0, 1, 0)
            controls["AnalogueGainMode"] = (0, 1, 0)
        else:
            controls["AeEnable"] = (False, True, None)
        if sensor.autofocus:
            controls.update({"AfMode": (0, 2, 0), "AfTrigger": (0, 1, 0),
                             "LensPosition": (0.0, 15.0, 1.0)})
        self.camera_controls = controls

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return [{"Model": s.model, "Location": 2, "Rotation": 180, "Num": i,
                 "Id": f"/base/axi/pcie@120000/rp1/i2c@{i}/{s.model}@1a"}
                for i, s in enumerate(s for s in SENSORS if s.plugged)]

    # -- configuration ----------------------------------------------------

    @property
    def sensor_modes(self) -> list[dict[str, Any]]:
        self._alive()
        return [dict(mode) for mode in self.sensor.sensor_modes()]

    def create_video_configuration(self, main: dict[str, Any] | None = None,
                                   lores: dict[str, Any] | None = None,
                                   raw: dict[str, Any] | None = None,
                                   controls: dict[str, Any] | None = None,
                                   sensor: dict[str, Any] | None = None,
                                   **options: Any) -> dict[str, Any]:
        config = self._config("video", {"format": "XBGR8888", "size": (1280, 720)}, main,
                              {"FrameDurationLimits": (33333, 33333)}, controls)
        config["sensor"] = dict(sensor or {})
        return config

    def create_still_configuration(self, main: dict[str, Any] | None = None,
                                   lores: dict[str, Any] | None = None,
                                   raw: dict[str, Any] | None = None,
                                   controls: dict[str, Any] | None = None,
                                   **options: Any) -> dict[str, Any]:
        return self._config("still", {"format": "BGR888", "size": self.sensor.pixel_array},
                            main, {"FrameDurationLimits": (100, 1000000000)}, controls)

    def _config(self, use_case: str, main_default: dict[str, Any],
                main: dict[str, Any] | None, control_default: dict[str, Any],
                controls: dict[str, Any] | None) -> dict[str, Any]:
        return {"use_case": use_case, "main": {**main_default, **(main or {})},
                "controls": {**control_default, **(controls or {})}, "buffer_count": 4}

    def configure(self, camera_config: dict[str, Any]) -> None:
        self._alive()
        if self.started:
            raise RuntimeError("Camera must be stopped before configuring")
        self.camera_config = camera_config
        self._apply_config(camera_config)

    def _apply_config(self, camera_config: dict[str, Any]) -> None:
        self.controls = dict(camera_config["controls"])
        self.crop = self._crop_for(camera_config)

    def _mode_for(self, camera_config: dict[str, Any]) -> dict[str, Any]:
        """The sensor mode libcamera would run: the one asked for by its output
        size, else (like libcamera's own choice, roughly) the smallest mode at
        least as large as the output, which on Camera Module 3 is a crop of the
        middle of the sensor for 720p video."""
        modes = self.sensor.sensor_modes()
        wanted = camera_config.get("sensor", {}).get("output_size")
        if wanted is not None:
            for mode in modes:
                if tuple(mode["size"]) == tuple(wanted):
                    return mode
            raise RuntimeError(f"no sensor mode of size {wanted}")
        out_w, out_h = camera_config["main"]["size"]
        large = [m for m in modes if m["size"][0] >= out_w and m["size"][1] >= out_h]
        if large:
            return min(large, key=lambda m: m["size"][0] * m["size"][1])
        return max(modes, key=lambda m: m["size"][0] * m["size"][1])

    def _crop_for(self, camera_config: dict[str, Any]) -> tuple[int, int, int, int]:
        """An explicit ScalerCrop, else the largest centred area of the output's
        shape within the sensor mode's crop limits."""
        if "ScalerCrop" in camera_config["controls"]:
            x, y, w, h = camera_config["controls"]["ScalerCrop"]
            return (int(x), int(y), int(w), int(h))
        if camera_config.get("use_case") == "video":
            x0, y0, width, height = self._mode_for(camera_config)["crop_limits"]
        else:
            x0, y0 = 0, 0
            width, height = self.sensor.pixel_array
        out_w, out_h = camera_config["main"]["size"]
        if width * out_h > height * out_w:
            crop_w = round(height * out_w / out_h)
            return (x0 + (width - crop_w) // 2, y0, crop_w, height)
        crop_h = round(width * out_h / out_w)
        return (x0, y0 + (height - crop_h) // 2, width, crop_h)

    def start(self) -> None:
        self._alive()
        if self.camera_config is None:
            raise RuntimeError("Camera has not been configured")
        self.started = True

    def stop(self) -> None:
        if self.sensor.stop_blocks is not None:
            self.sensor.stop_blocks.wait(10)
        self.started = False

    def close(self) -> None:
        self.started = False
        self.closed = True

    def set_controls(self, controls: dict[str, Any]) -> None:
        self._alive()
        for name in controls:
            if name not in self.camera_controls:
                raise RuntimeError(f"Control {name} is not advertised by libcamera")
        self.controls.update(controls)
        self.control_log.append(dict(controls))

    # -- capture ----------------------------------------------------------

    def capture_array(self, name: str = "main", wait: bool | None = None,
                      signal_function: object = None) -> Any:
        self._alive()
        return self._dispatch(lambda: self._frame(self._require_main(name)), wait)

    def capture_metadata(self, wait: bool | None = None,
                         signal_function: object = None) -> Any:
        self._alive()
        return self._dispatch(lambda: self._next()[1], wait)

    def switch_mode_and_capture_array(self, camera_config: dict[str, Any],
                                      name: str = "main", wait: bool | None = None,
                                      signal_function: object = None, delay: int = 0) -> Any:
        self._alive()
        self._require_main(name)

        def work() -> Array:
            previous = self.camera_config
            assert previous is not None
            self._apply_config(camera_config)
            try:
                return self._frame(camera_config)
            finally:
                self._apply_config(previous)

        return self._dispatch(work, wait)

    def autofocus_cycle(self, wait: bool | None = None, signal_function: object = None) -> Any:
        self._alive()
        if "AfMode" not in self.camera_controls:
            raise RuntimeError("Control AfMode is not advertised by libcamera")

        def work() -> bool:
            self.controls["AfMode"] = 1
            for _ in range(3):
                self._next()
            self.lens = self.sensor.focus_at
            return bool(self.sensor.af_success)

        return self._dispatch(work, wait)

    def wait(self, job: Job, timeout: float | None = None) -> Any:
        if not self._connected():
            if self.sensor.crashed and self.sensor.plugged:
                raise RuntimeError("Camera frontend has timed out!")
            raise TimeoutError()
        return job._work()

    def _dispatch(self, work: Callable[[], Any], wait: bool | None) -> Any:
        job = Job(self, work)
        if wait is False:
            return job
        if not self._connected():
            raise RuntimeError("fake picamera2: a blocking call on an unplugged camera "
                               "would hang forever")
        return job._work()

    # -- the simulated camera ---------------------------------------------

    def _connected(self) -> bool:
        s = self.sensor
        return s.plugged and not s.crashed and s.generation == self.generation

    def _alive(self) -> None:
        if self.closed:
            raise RuntimeError("Camera is closed")

    def _require_main(self, name: str) -> dict[str, Any]:
        if not self.started:
            raise RuntimeError("Camera is not started")
        assert self.camera_config is not None
        if name != "main":
            raise RuntimeError(f"Stream {name} was not configured")
        return self.camera_config

    def _auto_exposure(self) -> bool:
        if self.sensor.new_style_ae:
            return bool(self.controls.get("ExposureTimeMode", 0) != 1)
        return self.controls.get("AeEnable", True) is not False

    def _next(self) -> tuple[float, dict[str, Any]]:
        """Advance one frame; returns the picture's brightness factor and its metadata."""
        self.frames += 1
        flicker = 1.0 + 0.04 * math.sin(self.frames / 2.0)
        if self._auto_exposure():
            self.exposure += (TARGET_EXPOSURE * flicker - self.exposure) * 0.5
            self.gain += (TARGET_GAIN - self.gain) * 0.5
        else:
            self.exposure = float(self.controls.get("ExposureTime", self.exposure))
            self.gain = float(self.controls.get("AnalogueGain", self.gain))
        if self.controls.get("AwbEnable", True) is not False:
            r, b = self.colour_gains
            self.colour_gains = (r + (TARGET_GAINS[0] - r) * 0.5,
                                 b + (TARGET_GAINS[1] - b) * 0.5)
        elif "ColourGains" in self.controls:
            red, blue = self.controls["ColourGains"]
            self.colour_gains = (float(red), float(blue))
        if "AfMode" in self.camera_controls and self.controls.get("AfMode") == 0:
            self.lens = float(self.controls.get("LensPosition", self.lens))
        metadata: dict[str, Any] = {
            "ExposureTime": int(self.exposure), "AnalogueGain": self.gain,
            "DigitalGain": 1.0, "ColourGains": self.colour_gains, "ColourTemperature": 4800,
            "Lux": 250.0, "FrameDuration": 33333, "SensorTimestamp": self.frames * 33333000,
            "ScalerCrop": self.crop,
        }
        converged = self.frames >= self.sensor.settle_frames
        if self.sensor.new_style_ae:
            metadata["AeState"] = 2 if converged else 1
        else:
            metadata["AeLocked"] = converged
        if self.sensor.autofocus:
            metadata["LensPosition"] = self.lens
            metadata["AfState"] = 2
        brightness = (self.exposure * self.gain) / (TARGET_EXPOSURE * TARGET_GAIN)
        return brightness, metadata

    def _frame(self, camera_config: dict[str, Any]) -> Array:
        if self.sensor.frozen and self.last is not None:
            return self.last.copy()
        brightness, _ = self._next()
        width, height = camera_config["main"]["size"]
        rgb = self._scene(width, height, brightness)
        # Sensor noise: no two real frames are byte-identical.
        rgb[0, 0, 1] = self.frames % 256
        self.last = self._to_format(rgb, camera_config["main"]["format"])
        return self.last.copy()

    def _to_format(self, rgb: Array, fmt: str) -> Array:
        height, width = rgb.shape[:2]
        if fmt == "RGB888":
            return np.ascontiguousarray(rgb[:, :, ::-1])
        if fmt == "BGR888":
            return rgb
        alpha = np.full((height, width, 1), 255, dtype=np.uint8)
        if fmt == "XRGB8888":
            return np.concatenate([rgb[:, :, ::-1], alpha], axis=2)
        if fmt == "XBGR8888":
            return np.concatenate([rgb, alpha], axis=2)
        raise RuntimeError(f"fake picamera2: format {fmt} not simulated")

    def _scene(self, width: int, height: int, brightness: float) -> Array:
        """The picture in R, G, B order: squares placed in sensor coordinates."""
        cx, cy, cw, ch = self.crop
        sensor_w, sensor_h = self.sensor.pixel_array
        xs = (cx + (np.arange(width) + 0.5) * cw / width) / sensor_w
        ys = (cy + (np.arange(height) + 0.5) * ch / height) / sensor_h
        rgb = np.empty((height, width, 3), dtype=np.float64)
        rgb[:] = (110.0, 110.0, 110.0)
        for (x, y, w, h), colour in ((RED_SQUARE, (200.0, 20.0, 20.0)),
                                     (BLUE_SQUARE, (20.0, 20.0, 200.0))):
            inside = ((ys >= y) & (ys < y + h))[:, None] & ((xs >= x) & (xs < x + w))[None, :]
            rgb[inside] = colour
        red_gain, blue_gain = self.colour_gains
        rgb[:, :, 0] *= red_gain / TARGET_GAINS[0]
        rgb[:, :, 2] *= blue_gain / TARGET_GAINS[1]
        return np.clip(rgb * brightness, 0, 255).astype(np.uint8)
