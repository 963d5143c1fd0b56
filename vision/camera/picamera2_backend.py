"""The Raspberry Pi camera (Camera Module 2 and 3, HQ) through picamera2.

picamera2 only exists on Raspberry Pi OS (apt: ``python3-picamera2``), so it
is imported when a camera is opened, never at module import: this module
loads, and its tests run, on any machine.

What the board reader needs from the camera, and how it is done here:

* **Colours that do not drift.**  Auto exposure and auto white balance keep
  adjusting, and a light checker in shadow would change colour from one frame
  to the next.  After opening, the camera runs in auto mode until the
  metadata says exposure has converged (``AeLocked``, or ``AeState`` on newer
  libcamera) and the colour gains stop moving; the values it chose
  (``ExposureTime``, ``AnalogueGain``, ``ColourGains``) are then set as fixed
  controls with ``AeEnable``/``AwbEnable`` off (and the newer
  ``ExposureTimeMode``/``AnalogueGainMode`` set to manual where they exist).
* **Focus that holds.**  Camera Module 3 has a motorised lens: one autofocus
  cycle, then manual mode at the lens position it found, so the focus does not
  hunt when a hand passes over the board.
* **BGR frames.**  picamera2 names formats after libcamera's (DRM) fourccs,
  which list channels from the most significant byte: its ``"RGB888"`` is B,
  G, R in memory, i.e. exactly OpenCV's BGR, so frames need no conversion.
* **The whole field of view.**  libcamera chooses the sensor mode closest
  to the requested size, which for 720p on Camera Module 3 is a crop of the
  middle of the sensor.  The backend asks for the smallest mode that sees the
  sensor's full width, covers the video size and keeps ``min_fps``
  (:func:`full_view_mode`), so the camera height in hardware/camera.md holds.
* **Stills for the dice.**  :meth:`capture_high_res` switches to a still
  configuration over the *same sensor area* as the video (the video's
  ``ScalerCrop`` is passed to the still), so a region of a video frame maps
  to the still by a plain scale.
* **Losing the camera.**  Every capture waits at most a timeout (a
  disconnected camera makes picamera2 wait forever otherwise) and any failure
  becomes :class:`~vision.errors.CameraLostError`.
"""

from __future__ import annotations

import importlib
import logging
import threading
from typing import Any

from vision.camera.base import (
    Camera,
    CameraConfig,
    Clock,
    Frame,
    FreezeWatch,
    Region,
    Still,
    as_bgr,
    clip_region,
    monotonic,
)
from vision.errors import CameraError, CameraLostError

log = logging.getLogger(__name__)

AF_MODE_MANUAL = 0
"""libcamera's ``AfModeManual`` (``controls.AfModeEnum.Manual``)."""
MODE_MANUAL = 1
"""libcamera's ``ExposureTimeModeManual`` / ``AnalogueGainModeManual``."""
AE_STATE_CONVERGED = 2
"""libcamera's ``AeStateConverged``."""
LOCK_DRAIN_FRAMES = 10
"""Frames to wait at most for fixed controls to show in the metadata
(controls take effect a few frames after they are set)."""


class Picamera2Camera(Camera):
    """A Raspberry Pi camera; ``camera_num`` picks one of several (Pi 5 has two ports)."""

    def __init__(self, camera_num: int = 0, config: CameraConfig | None = None, *,
                 clock: Clock = monotonic) -> None:
        if camera_num < 0:
            raise ValueError(f"camera number {camera_num}: 0 or more")
        self._num = camera_num
        self._config = config or CameraConfig()
        self._clock = clock
        self._cam: Any = None
        self._seq = 0
        self._locked: dict[str, Any] = {}
        self._scaler_crop: tuple[int, int, int, int] | None = None
        self._frame_size: tuple[int, int] | None = None
        self._sensor_mode: tuple[int, int] | None = None
        self._model = "?"
        self._freeze = FreezeWatch(self._config.frozen_after, self.name)

    @property
    def name(self) -> str:
        return f"picamera2:{self._num}"

    @property
    def is_open(self) -> bool:
        return self._cam is not None

    @property
    def model(self) -> str:
        """The sensor as picamera2 names it (imx219, imx708, imx477), once open."""
        return self._model

    @property
    def sensor_mode(self) -> tuple[int, int] | None:
        """Output size of the sensor mode the video runs in (None: libcamera chose)."""
        return self._sensor_mode

    @property
    def locked_controls(self) -> dict[str, Any]:
        """The controls fixed after settling (exposure, gains, lens), for the logs."""
        return dict(self._locked)

    # -- opening ----------------------------------------------------------

    def open(self) -> None:
        if self._cam is not None:
            return
        try:
            module = importlib.import_module("picamera2")
        except ImportError as exc:
            raise CameraError("picamera2 is not installed: on Raspberry Pi OS install "
                              "python3-picamera2 and create the venv with "
                              "--system-site-packages") from exc
        picamera2 = module.Picamera2
        try:
            cameras = list(picamera2.global_camera_info())
        except Exception as exc:
            raise CameraError(f"{self.name}: libcamera cannot list cameras: {exc}") from exc
        if self._num >= len(cameras):
            models = ", ".join(str(c.get("Model", "?")) for c in cameras) or "none"
            raise CameraError(f"{self.name}: no such camera (libcamera sees {len(cameras)}: "
                              f"{models}); check the ribbon cable and the camera port")
        try:
            cam = picamera2(self._num)
        except Exception as exc:
            raise CameraError(f"{self.name}: cannot open the camera: {exc}") from exc
        try:
            self._start(cam)
        except CameraError:
            self._release(cam)
            raise
        except Exception as exc:
            self._release(cam)
            raise CameraError(f"{self.name}: cannot start the camera: {exc}") from exc
        self._cam = cam
        self._seq = 0
        self._freeze.reset()

    def _start(self, cam: Any) -> None:
        self._model = str(cam.camera_properties.get("Model", "?"))
        main = {"size": tuple(self._config.size), "format": "RGB888"}
        mode = full_view_mode(_sensor_modes(cam), _pixel_array(cam), self._config.size,
                              self._config.min_fps)
        if mode is None:
            log.warning("%s: no sensor mode sees the whole sensor width at %.0f fps or more; "
                        "libcamera chooses (the field of view may be cropped)", self.name,
                        self._config.min_fps)
            config = cam.create_video_configuration(main=main)
        else:
            self._sensor_mode = (int(mode["size"][0]), int(mode["size"][1]))
            config = cam.create_video_configuration(
                main=main, sensor={"output_size": self._sensor_mode,
                                   "bit_depth": int(mode.get("bit_depth", 10))})
        cam.configure(config)
        cam.start()
        controls = dict(cam.camera_controls)
        self._locked = {}
        if self._config.lock_focus and "AfMode" in controls:
            self._lock_focus(cam)
        metadata, settled = self._settle(cam)
        if not settled:
            log.warning("%s: exposure/white balance did not settle in %.1f s; locking the "
                        "values reached", self.name, self._config.settle_timeout)
        lock = _exposure_controls(metadata, controls, self._config)
        if lock:
            cam.set_controls(lock)
            self._locked.update(lock)
            self._drain_until_applied(cam, lock)
        self._scaler_crop = _rectangle(metadata.get("ScalerCrop"))
        log.info("%s (%s) started at %dx%d; locked %s", self.name, self._model,
                 *self._config.size, self._locked)

    def _lock_focus(self, cam: Any) -> None:
        """One autofocus cycle, then manual focus at the position found."""
        job = cam.autofocus_cycle(wait=False)
        success = bool(cam.wait(job, timeout=self._config.still_timeout))
        if not success:
            log.warning("%s: the autofocus cycle failed (too little contrast?); holding "
                        "the lens where it stopped", self.name)
        lens = self._metadata(cam).get("LensPosition")
        lock: dict[str, Any] = {"AfMode": AF_MODE_MANUAL}
        if lens is not None:
            lock["LensPosition"] = float(lens)
        cam.set_controls(lock)
        self._locked.update(lock)

    def _settle(self, cam: Any) -> tuple[dict[str, Any], bool]:
        """Metadata once AE/AWB have converged for ``settle_frames`` frames (or time ran out).

        Bounded by frames as well as time so that a stopped clock cannot hang it.
        """
        cfg = self._config
        deadline = self._clock() + cfg.settle_timeout
        previous: dict[str, Any] | None = None
        metadata: dict[str, Any] = {}
        good = 0
        for _ in range(cfg.settle_frames + int(cfg.settle_timeout * 120)):
            metadata = self._metadata(cam)
            converged = ((not cfg.lock_exposure or _ae_converged(metadata, previous, cfg))
                         and (not cfg.lock_white_balance
                              or _awb_converged(metadata, previous, cfg)))
            good = good + 1 if converged else 0
            if good >= cfg.settle_frames:
                return metadata, True
            previous = metadata
            if self._clock() >= deadline:
                break
        return metadata, False

    def _drain_until_applied(self, cam: Any, lock: dict[str, Any]) -> None:
        """Let the fixed controls reach the sensor before the first frame is handed out."""
        for _ in range(LOCK_DRAIN_FRAMES):
            metadata = self._metadata(cam)
            if _applied(metadata, lock, self._config.gain_tolerance):
                return
        log.warning("%s: the fixed exposure did not show in the metadata after %d frames",
                    self.name, LOCK_DRAIN_FRAMES)

    def _metadata(self, cam: Any) -> dict[str, Any]:
        job = cam.capture_metadata(wait=False)
        try:
            return dict(cam.wait(job, timeout=self._config.read_timeout))
        except TimeoutError as exc:
            raise CameraError(f"{self.name}: no frame within "
                              f"{self._config.read_timeout:g} s while starting") from exc

    # -- frames -----------------------------------------------------------

    def read(self) -> Frame:
        cam = self._require_open()
        try:
            job = cam.capture_array("main", wait=False)
            array = cam.wait(job, timeout=self._config.read_timeout)
        except TimeoutError as exc:
            raise CameraLostError(f"{self.name}: no frame for {self._config.read_timeout:g} s "
                                  "(camera unplugged or crashed?)") from exc
        except Exception as exc:
            raise CameraLostError(f"{self.name}: capture failed: {exc}") from exc
        t = self._clock()
        image = as_bgr(array, self.name)
        self._freeze.check(image, t)
        self._frame_size = (int(image.shape[1]), int(image.shape[0]))
        frame = Frame(image, t, self._seq)
        self._seq += 1
        return frame

    def capture_high_res(self, region: Region | None = None) -> Still | None:
        """A still over the video's field of view, cropped to ``region`` (video pixels)."""
        cam = self._require_open()
        frame_w, frame_h = self._frame_size or self._config.size
        x, y, w, h = clip_region(region, frame_w, frame_h)
        size = self._still_size()
        controls = dict(self._locked)
        if self._scaler_crop is not None:
            controls["ScalerCrop"] = self._scaler_crop
        try:
            still_config = cam.create_still_configuration(
                main={"size": size, "format": "RGB888"}, controls=controls)
            job = cam.switch_mode_and_capture_array(still_config, "main", wait=False)
            array = cam.wait(job, timeout=self._config.still_timeout)
            # Switching back re-applies the video configuration's own controls,
            # which know nothing of the values fixed after settling.
            if self._locked:
                cam.set_controls(self._locked)
        except TimeoutError as exc:
            raise CameraLostError(f"{self.name}: no still within "
                                  f"{self._config.still_timeout:g} s") from exc
        except Exception as exc:
            raise CameraLostError(f"{self.name}: still capture failed: {exc}") from exc
        image = as_bgr(array, self.name)
        sx, sy = image.shape[1] / frame_w, image.shape[0] / frame_h
        crop = image[round(y * sy):round((y + h) * sy), round(x * sx):round((x + w) * sx)]
        return Still(crop.copy(), (x, y, w, h), (sx, sy), self._clock())

    def _still_size(self) -> tuple[int, int]:
        if self._config.still_size is not None:
            return self._config.still_size
        if self._scaler_crop is not None:
            return (self._scaler_crop[2], self._scaler_crop[3])
        # No ScalerCrop reported: the full sensor width at the video's aspect ratio.
        pixel_array = self._cam.camera_properties.get("PixelArraySize")
        vw, vh = self._config.size
        width = int(pixel_array[0]) if pixel_array else vw * 2
        return (width, round(width * vh / vw))

    def close(self) -> None:
        """Stop and close the camera, giving up after ``read_timeout``.

        A camera whose pipeline has died can block ``stop()`` indefinitely, so
        closing runs on a daemon thread; if it does not finish in time it is
        left behind (reopening then reports the camera busy, and the
        supervisor retries later).
        """
        cam, self._cam = self._cam, None
        if cam is not None:
            self._release(cam)

    def _release(self, cam: Any) -> None:
        closer = threading.Thread(target=_quietly_close, args=(cam,), daemon=True,
                                  name=f"close {self.name}")
        closer.start()
        closer.join(self._config.read_timeout)
        if closer.is_alive():
            log.warning("%s: closing the camera did not finish within %g s; left behind",
                        self.name, self._config.read_timeout)

    def _require_open(self) -> Any:
        if self._cam is None:
            raise CameraError(f"{self.name}: not open")
        return self._cam


def _exposure_controls(metadata: dict[str, Any], available: dict[str, Any],
                       config: CameraConfig) -> dict[str, Any]:
    """The controls that fix exposure and white balance at the values in ``metadata``."""
    lock: dict[str, Any] = {}
    if config.lock_exposure and "ExposureTime" in metadata and "AnalogueGain" in metadata:
        new_style = "ExposureTimeMode" in available
        if "AeEnable" in available or not new_style:
            lock["AeEnable"] = False
        if new_style:
            lock["ExposureTimeMode"] = MODE_MANUAL
            if "AnalogueGainMode" in available:
                lock["AnalogueGainMode"] = MODE_MANUAL
        lock["ExposureTime"] = int(metadata["ExposureTime"])
        lock["AnalogueGain"] = float(metadata["AnalogueGain"])
    gains = metadata.get("ColourGains")
    if config.lock_white_balance and gains is not None and len(gains) == 2:
        lock["AwbEnable"] = False
        lock["ColourGains"] = (float(gains[0]), float(gains[1]))
    return lock


def _ae_converged(metadata: dict[str, Any], previous: dict[str, Any] | None,
                  config: CameraConfig) -> bool:
    if "AeLocked" in metadata:
        return bool(metadata["AeLocked"])
    if "AeState" in metadata:
        return int(metadata["AeState"]) == AE_STATE_CONVERGED
    # No convergence flag: exposure x gain has stopped changing.
    if previous is None:
        return False
    now = _brightness(metadata)
    before = _brightness(previous)
    return now is not None and before is not None and _close(now, before,
                                                             config.gain_tolerance)


def _awb_converged(metadata: dict[str, Any], previous: dict[str, Any] | None,
                   config: CameraConfig) -> bool:
    if previous is None:
        return False
    now, before = metadata.get("ColourGains"), previous.get("ColourGains")
    if now is None or before is None:
        return False
    return all(_close(float(a), float(b), config.gain_tolerance) for a, b in zip(now, before,
                                                                                   strict=True))


def _applied(metadata: dict[str, Any], lock: dict[str, Any], tolerance: float) -> bool:
    """True when the metadata reports the fixed values (within a tolerance: the sensor
    quantises exposure times to whole lines)."""
    for key in ("ExposureTime", "AnalogueGain"):
        if key in lock and key in metadata and not _close(float(metadata[key]),
                                                          float(lock[key]), 0.05):
            return False
    if "ColourGains" in lock and "ColourGains" in metadata:
        return all(_close(float(a), float(b), tolerance)
                   for a, b in zip(metadata["ColourGains"], lock["ColourGains"], strict=True))
    return True


def _rectangle(value: Any) -> tuple[int, int, int, int] | None:
    """A libcamera rectangle (x, y, width, height) from metadata, if it is one."""
    if value is None or len(value) != 4:
        return None
    x, y, w, h = (int(v) for v in value)
    return (x, y, w, h)


def _brightness(metadata: dict[str, Any]) -> float | None:
    if "ExposureTime" not in metadata or "AnalogueGain" not in metadata:
        return None
    return float(metadata["ExposureTime"]) * float(metadata["AnalogueGain"])


def _close(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= tolerance * max(abs(a), abs(b), 1e-9)


def _quietly_close(cam: Any) -> None:
    """Stop and close, ignoring errors: a camera that is gone fails at both."""
    for step in ("stop", "close"):
        try:
            getattr(cam, step)()
        except Exception as exc:
            log.debug("picamera2 %s failed while closing: %s", step, exc)


def full_view_mode(modes: list[dict[str, Any]], pixel_array: tuple[int, int] | None,
                   size: tuple[int, int], min_fps: float) -> dict[str, Any] | None:
    """The sensor mode for the video: full sensor width, fast enough, covering ``size``.

    Among modes whose crop covers the whole width of the pixel array and run at
    ``min_fps`` or more, the smallest that is at least ``size`` (binning keeps
    noise down and the frame rate up); if none covers ``size``, the largest of
    them.  None when no mode sees the whole width at that rate.
    """
    if pixel_array is None:
        return None
    full = [m for m in modes
            if _full_width(m, pixel_array[0]) and float(m.get("fps", 0.0)) >= min_fps]
    if not full:
        return None
    covering = [m for m in full if m["size"][0] >= size[0] and m["size"][1] >= size[1]]
    if covering:
        return min(covering, key=lambda m: int(m["size"][0]) * int(m["size"][1]))
    return max(full, key=lambda m: int(m["size"][0]) * int(m["size"][1]))


def _full_width(mode: dict[str, Any], width: int) -> bool:
    limits = mode.get("crop_limits")
    if limits is None or len(limits) != 4:
        return False
    x, _, w, _ = (int(v) for v in limits)
    return x == 0 and w >= width


def _sensor_modes(cam: Any) -> list[dict[str, Any]]:
    """picamera2's ``sensor_modes`` (it cycles the camera through each mode once);
    an older picamera2 without it gives none."""
    try:
        modes = cam.sensor_modes
    except AttributeError:
        return []
    return [dict(m) for m in modes if isinstance(m, dict) and "size" in m]


def _pixel_array(cam: Any) -> tuple[int, int] | None:
    size = cam.camera_properties.get("PixelArraySize")
    if size is None or len(size) != 2:
        return None
    return (int(size[0]), int(size[1]))
