"""Any camera OpenCV can open: a USB webcam by index, a /dev/video device, an RTSP/HTTP stream.

``cv2.VideoCapture.read`` can block for a long time when a device vanishes
(V4L2 waits in ``select``, an RTSP stream that drops abnormally can hang for
minutes), and a kiosk must not freeze with it.  So every read runs on a small
daemon thread and the caller waits at most ``read_timeout``; a read that does
not come back in time makes the camera *lost*, and the stuck capture is left
to its thread, which releases it if the driver ever returns.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Protocol, TypeVar

import cv2

from vision.camera.base import Camera, CameraConfig, Clock, Frame, FreezeWatch, as_bgr, monotonic
from vision.errors import CameraError, CameraLostError

log = logging.getLogger(__name__)

T = TypeVar("T")
STREAM_SCHEMES = ("rtsp://", "rtsps://", "http://", "https://")


class VideoCaptureLike(Protocol):
    """The part of ``cv2.VideoCapture`` used here (tests pass stand-ins)."""

    def isOpened(self) -> bool: ...  # noqa: N802 - OpenCV's name

    def read(self) -> tuple[bool, Any]: ...

    def set(self, prop: int, value: float) -> bool: ...

    def get(self, prop: int) -> float: ...

    def release(self) -> None: ...


CaptureFactory = Callable[[int | str, CameraConfig], VideoCaptureLike]


def is_stream_url(source: int | str) -> bool:
    return isinstance(source, str) and source.lower().startswith(STREAM_SCHEMES)


def open_capture(source: int | str, config: CameraConfig) -> VideoCaptureLike:
    """``cv2.VideoCapture`` for ``source``, with FFmpeg timeouts on network streams."""
    if isinstance(source, str) and is_stream_url(source):
        open_prop = getattr(cv2, "CAP_PROP_OPEN_TIMEOUT_MSEC", None)
        read_prop = getattr(cv2, "CAP_PROP_READ_TIMEOUT_MSEC", None)
        if isinstance(open_prop, int) and isinstance(read_prop, int):
            params = [open_prop, int(config.open_timeout * 1000),
                      read_prop, int(config.read_timeout * 1000)]
            return cv2.VideoCapture(source, cv2.CAP_FFMPEG, params)
    if isinstance(source, int):
        return cv2.VideoCapture(source)
    return cv2.VideoCapture(source)


class OpenCVCamera(Camera):
    """A ``cv2.VideoCapture`` source: an index (0), a device path, or a stream URL."""

    def __init__(self, source: int | str, config: CameraConfig | None = None, *,
                 clock: Clock = monotonic,
                 capture_factory: CaptureFactory = open_capture) -> None:
        if isinstance(source, int) and source < 0:
            raise ValueError(f"camera index {source}: 0 or more")
        self._source = source
        self._config = config or CameraConfig()
        self._clock = clock
        self._factory = capture_factory
        self._cap: VideoCaptureLike | None = None
        self._worker: _DaemonWorker | None = None
        self._seq = 0
        self._freeze = FreezeWatch(self._config.frozen_after, self.name)

    @property
    def name(self) -> str:
        if isinstance(self._source, int):
            return f"opencv:{self._source}"
        return _mask_password(self._source)

    @property
    def is_open(self) -> bool:
        return self._cap is not None

    def open(self) -> None:
        if self._cap is not None:
            return
        worker = _DaemonWorker(f"camera {self.name}")
        try:
            future = worker.submit(lambda: self._factory(self._source, self._config))
            cap = future.result(timeout=self._config.open_timeout)
        except FutureTimeout as exc:
            worker.stop()
            raise CameraError(f"{self.name}: did not open within "
                              f"{self._config.open_timeout:g} s") from exc
        except Exception as exc:
            worker.stop()
            raise CameraError(f"{self.name}: cannot open: {exc}") from exc
        if not cap.isOpened():
            worker.submit(cap.release)
            worker.stop()
            raise CameraError(f"{self.name}: cannot open (no such device, busy, or an "
                              "unreachable stream)")
        if not is_stream_url(self._source):
            width, height = self._config.size
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            # Keep at most one frame queued: the referee wants the board as it is now.
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._cap, self._worker = cap, worker
        self._seq = 0
        self._freeze.reset()

    def read(self) -> Frame:
        cap, worker = self._cap, self._worker
        if cap is None or worker is None:
            raise CameraError(f"{self.name}: not open")
        failures = []
        for _ in range(self._config.read_retries + 1):
            future = worker.submit(cap.read)
            try:
                ok, image = future.result(timeout=self._config.read_timeout)
            except FutureTimeout as exc:
                self._abandon()
                raise CameraLostError(f"{self.name}: no frame for "
                                      f"{self._config.read_timeout:g} s (unplugged, or the "
                                      "stream stalled)") from exc
            except Exception as exc:
                failures.append(str(exc) or type(exc).__name__)
                continue
            if ok and image is not None:
                t = self._clock()
                bgr = as_bgr(image, self.name)
                self._freeze.check(bgr, t)
                frame = Frame(bgr, t, self._seq)
                self._seq += 1
                return frame
            failures.append("no frame")
        raise CameraLostError(f"{self.name}: {len(failures)} reads failed in a row "
                              f"({failures[-1]})")

    def _abandon(self) -> None:
        """Forget a capture stuck in the driver; its thread releases it if it ever returns."""
        cap, worker = self._cap, self._worker
        self._cap = self._worker = None
        if cap is not None and worker is not None:
            worker.submit(cap.release)
            worker.stop()

    def close(self) -> None:
        cap, worker = self._cap, self._worker
        self._cap = self._worker = None
        if cap is None or worker is None:
            return
        try:
            worker.submit(cap.release).result(timeout=self._config.read_timeout)
        except Exception as exc:  # a release that hangs or fails must not stop the caller
            log.debug("%s: release failed: %s", self.name, exc)
        worker.stop()


class _DaemonWorker:
    """Runs calls one after another on a daemon thread.

    Not a ThreadPoolExecutor: its threads are joined at interpreter exit, so
    one driver call that never returns would keep the program from exiting.
    """

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = (
            queue.SimpleQueue())
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, call: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        self._jobs.put((call, future))
        return future

    def stop(self) -> None:
        """Finish the calls already submitted, then end the thread."""
        self._jobs.put(None)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            call, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(call())
            except BaseException as exc:
                future.set_exception(exc)


def _mask_password(source: str) -> str:
    """An RTSP URL fit for logs: ``rtsp://user:***@host/...``."""
    return re.sub(r"^([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@]+):[^@/]*@", r"\1:***@", source)
