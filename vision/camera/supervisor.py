"""Keeps a camera going: notices when it is lost, says so, and reconnects with backoff.

The kiosk runs unattended; a camera that is unplugged, crashes or freezes
must never end the program.  :class:`CameraSupervisor` wraps any
:class:`~vision.camera.base.Camera` and never lets a loss escape:

* :meth:`CameraSupervisor.read` returns a frame, or None while the camera is
  away (after waiting a little, so a caller's loop does not spin);
* :attr:`CameraSupervisor.status` says ``ok``, ``lost`` or ``reconnecting``,
  why, since when and when the next attempt is due: enough for the status
  LED and the "camera disconnected" screen;
* reconnection attempts are spaced by exponential backoff (``base``,
  ``base * factor``, ... up to ``cap``), so a camera that is gone for good
  costs almost nothing, and one that comes back is picked up within ``cap``
  seconds, without restarting the program.

Time comes from an injected clock and sleeper, so the tests run without
waiting.  Only :class:`~vision.errors.CameraError` (and its subclass
``CameraLostError``) counts as a camera problem; the end of a replay
(:class:`~vision.camera.base.EndOfStreamError`) and programming errors pass
through.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from vision.camera.base import (
    Camera,
    Clock,
    Frame,
    Region,
    Sleeper,
    Still,
    monotonic,
)
from vision.errors import CameraError, ConfigError, EndOfStreamError

log = logging.getLogger(__name__)

State = Literal["ok", "lost", "reconnecting"]


@dataclass(frozen=True, slots=True)
class BackoffConfig:
    """Spacing of reconnection attempts."""

    base: float = 0.5
    """Seconds before the first attempt: a replugged USB camera needs a moment
    to enumerate, and a glitch often heals by itself."""
    factor: float = 2.0
    """Each failed attempt multiplies the wait by this."""
    cap: float = 30.0
    """Longest wait between attempts: a camera plugged back in is picked up
    within half a minute at worst."""
    max_block: float = 0.5
    """Longest a single :meth:`CameraSupervisor.read` waits while the camera is
    away, so the caller's loop can keep the display and the lights alive."""

    def __post_init__(self) -> None:
        if not self.base > 0:
            raise ConfigError("backoff base must be positive seconds")
        if not self.factor >= 1:
            raise ConfigError("backoff factor must be 1 or more")
        if not self.cap >= self.base:
            raise ConfigError("backoff cap must be at least the base")
        if not self.max_block >= 0:
            raise ConfigError("backoff max_block must be 0 or more seconds")

    def delay(self, failures: int) -> float:
        """Seconds to wait after ``failures`` failed attempts (0 = just lost)."""
        return min(self.cap, self.base * self.factor ** min(failures, 64))


@dataclass(frozen=True, slots=True)
class CameraStatus:
    """What the kiosk shows about the camera."""

    state: State
    camera: str
    """The camera's name ("picamera2:0", "/dev/video0", ...)."""
    since: float
    """Clock time the camera became ok, or was lost (kept while reconnecting)."""
    reason: str | None = None
    """Why the camera is not ok: the last error's message."""
    attempts: int = 0
    """Failed reconnection attempts since the loss."""
    next_attempt: float | None = None
    """Clock time of the next reconnection attempt."""

    @property
    def ok(self) -> bool:
        return self.state == "ok"

    def describe(self, now: float) -> str:
        """One line for logs and the kiosk screen."""
        if self.state == "ok":
            return f"{self.camera}: ok for {now - self.since:.0f} s"
        text = f"{self.camera}: {self.state} for {now - self.since:.0f} s ({self.reason})"
        if self.next_attempt is not None:
            text += f", next attempt in {max(0.0, self.next_attempt - now):.0f} s"
        return text


StatusListener = Callable[[CameraStatus], None]


class CameraSupervisor:
    """Wraps a camera, reopening it when it fails.  Use it in place of the camera."""

    def __init__(self, camera: Camera, backoff: BackoffConfig | None = None, *,
                 clock: Clock = monotonic, sleep: Sleeper = time.sleep,
                 on_change: StatusListener | None = None) -> None:
        """``on_change`` is called with the new status whenever the state changes
        (ok, lost, reconnecting); poll :attr:`status` for the attempt count."""
        self._camera = camera
        self._backoff = backoff or BackoffConfig()
        self._clock = clock
        self._sleep = sleep
        self._on_change = on_change
        now = clock()
        # Not opened yet: the first read opens it (an attempt due at once).
        self._status = CameraStatus("reconnecting", camera.name, now, "starting", 0, now)

    @property
    def camera(self) -> Camera:
        return self._camera

    @property
    def status(self) -> CameraStatus:
        return self._status

    def read(self) -> Frame | None:
        """The next frame, or None while the camera is away.

        While away it sleeps until the next attempt is due, but never longer
        than ``max_block``, then tries to reopen the camera if it is time.
        """
        if self._status.state == "ok":
            try:
                return self._camera.read()
            except EndOfStreamError:
                raise
            except CameraError as exc:
                self._lose(exc)
                return None
        now = self._clock()
        due = self._status.next_attempt if self._status.next_attempt is not None else now
        if due > now:
            self._sleep(min(due - now, self._backoff.max_block))
            if self._clock() < due:
                return None
        return self._reconnect()

    def capture_high_res(self, region: Region | None = None) -> Still | None:
        """The camera's still, or None when it has none or is away."""
        if self._status.state != "ok":
            return None
        try:
            return self._camera.capture_high_res(region)
        except CameraError as exc:
            self._lose(exc)
            return None

    def close(self) -> None:
        """Close the camera; a later :meth:`read` opens it again."""
        self._camera.close()
        now = self._clock()
        self._set(CameraStatus("lost", self._camera.name, now, "closed", 0, now))

    def __enter__(self) -> CameraSupervisor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transitions ------------------------------------------------------

    def _lose(self, error: CameraError) -> None:
        now = self._clock()
        self._camera.close()
        log.warning("%s lost: %s", self._camera.name, error)
        self._set(CameraStatus("lost", self._camera.name, now, str(error), 0,
                               now + self._backoff.delay(0)))

    def _reconnect(self) -> Frame | None:
        lost = self._status
        self._set(replace(lost, state="reconnecting", next_attempt=None))
        try:
            self._camera.close()
            self._camera.open()
            frame = self._camera.read()
        except EndOfStreamError:
            raise
        except CameraError as exc:
            self._camera.close()
            failures = lost.attempts + 1
            now = self._clock()
            self._set(replace(lost, state="lost", reason=str(exc), attempts=failures,
                              next_attempt=now + self._backoff.delay(failures)))
            log.info("%s: reconnection attempt %d failed: %s", self._camera.name, failures,
                     exc)
            return None
        log.info("%s: camera back after %d failed attempts", self._camera.name,
                 lost.attempts)
        self._set(CameraStatus("ok", self._camera.name, self._clock()))
        return frame

    def _set(self, status: CameraStatus) -> None:
        changed = status.state != self._status.state
        self._status = status
        if changed and self._on_change is not None:
            self._on_change(status)
