"""The referee at the table: camera frames read into observations, fed to a session.

The camera is wrapped in vision's :class:`~vision.camera.supervisor.CameraSupervisor`,
so an unplugged or crashed camera never ends the program: the session warns
(``warning``, reason ``camera_lost``), the panel shows the camera as lost,
and the loop keeps waiting for it to come back.

Times are the referee's clock: the camera's own frame times, shifted after a
restart so that they never run back behind the journal's latest input (a
Pi's monotonic clock starts again at 0 after a power cut; the referee's
decisions compare times, so they must keep increasing across a resume).

Under systemd (``bgref.service`` is ``Type=notify`` with a watchdog) the loop
says ``READY=1`` once the session is open, ``WATCHDOG=1`` as it turns (a read
of a lost camera blocks at most half a second), the camera's state as
``STATUS=``, and ``STOPPING=1`` on the way out; outside systemd these do
nothing.

Between frames the loop looks for inputs other processes journalled (an
operator's ``bgref referee --undo``) every :data:`CATCH_UP_EVERY` seconds,
camera or no camera.
"""

from __future__ import annotations

import dataclasses
import queue
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from controller.referee.events import RefereeEvent
from controller.referee.inputs import RefereeInput
from controller.referee.session import Session
from vision.errors import EndOfStreamError

if TYPE_CHECKING:
    from vision.calibration import Calibration
    from vision.camera.base import Camera
    from vision.config import VisionConfig
    from vision.pipeline import BoardReader

CATCH_UP_EVERY: Final = 0.5
"""Seconds between looks at the journal for other processes' corrections."""
RESTART_STEP: Final = 0.001
"""How far after the journal's latest input the first frame of a restart lands."""


Inbox = queue.SimpleQueue[RefereeInput]
"""Inputs from other threads (the GPIO buttons' callbacks): the loop takes them
between frames and gives each the referee's time of that moment."""


@dataclass(frozen=True, slots=True)
class LiveOptions:
    """What the live loop needs besides the session."""

    corners: str | None = None
    """The field's corners as ``"x,y x,y x,y x,y"`` (else markers or automatic)."""
    max_frames: int | None = None
    """Stop after this many frames (tests, benchmarks); None runs until stopped."""


class RefereeClock:
    """Camera times to referee times: the same steps, never behind the journal."""

    def __init__(self, floor: float) -> None:
        self._floor = floor
        self._offset: float | None = None
        self.latest = floor
        """The latest referee time handed out (the floor before any frame)."""

    def __call__(self, camera_t: float) -> float:
        if self._offset is None:
            self._offset = max(0.0, self._floor + RESTART_STEP - camera_t) if self._floor else 0.0
        t = max(camera_t + self._offset, self.latest)
        self.latest = t
        return t


def after_events(reader: BoardReader, events: Iterable[RefereeEvent]) -> None:
    """What the reader must know of the referee's events: at a game's end the checker
    colours it learned from the starting position are forgotten, so the next set-up
    teaches them again (a club may bring another set between games or matches
    without calibrating again; the old set's colours would misread the new one's
    lone side late in a game, when one frame cannot tell light from dark)."""
    if any(event.event == "game_over" for event in events):
        reader.forget_colours()


def run_live(session: Session, camera: Camera, config: VisionConfig,
             calibration: Calibration | None, options: LiveOptions,
             status: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
             inbox: Inbox | None = None) -> None:
    """Follow the game from ``camera`` until the stream ends, ``max_frames``, or Ctrl-C.

    Button presses put in ``inbox`` (from any thread) are taken between
    frames, at most a frame (or half a second without a camera) late.
    """
    from controller.systemd_notify import Notifier, NotifyError, WatchdogPinger
    from vision.calibration import calibrate
    from vision.camera.supervisor import CameraStatus, CameraSupervisor
    from vision.pipeline import BoardReader
    from vision.stills import DiceStills

    try:
        notifier = Notifier()
    except NotifyError as exc:  # a bad NOTIFY_SOCKET must not stop the referee
        status(f"systemd notifications off: {exc}")
        notifier = Notifier("")
    pinger = WatchdogPinger(notifier)

    clock = RefereeClock(session.last_t)
    closing = False
    changes: list[CameraStatus] = []

    def on_change(change: CameraStatus) -> None:
        if not closing:
            changes.append(change)

    supervisor = CameraSupervisor(camera, on_change=on_change)
    reader = BoardReader(config, calibration, stream=True)
    stills = DiceStills(reader, supervisor.capture_high_res, config.stills)
    frames = 0
    lost = False
    next_look = time.monotonic() + CATCH_UP_EVERY
    notifier.ready(f"refereeing: {session.referee.expecting()}")
    try:
        while options.max_frames is None or frames < options.max_frames:
            pinger.tick()
            try:
                frame = supervisor.read()
            except EndOfStreamError:
                break
            for change in changes:
                # Reconnection attempts flip between lost and reconnecting: one
                # warning per loss, one line when it is back.
                reason = f": {change.reason}" if change.reason else ""
                if change.state == "lost" and not lost:
                    lost = True
                    status(f"camera {change.camera} lost{reason}; waiting for it")
                    notifier.status(f"camera lost{reason}")
                    session.camera_lost(clock.latest, f"{change.camera}{reason}")
                elif change.state == "ok":
                    if lost:
                        status(f"camera {change.camera} back")
                        notifier.status("refereeing")
                    lost = False
                    session.camera_back()
            changes.clear()
            while inbox is not None and not inbox.empty():
                after_events(reader, session.step(dataclasses.replace(inbox.get(),
                                                                      t=clock.latest)))
            if time.monotonic() >= next_look:
                session.catch_up()
                next_look = time.monotonic() + CATCH_UP_EVERY
            if frame is None:
                continue
            frames += 1
            t = clock(frame.t)
            if options.corners is not None and reader.calibration is None:
                reader.calibration = calibrate(frame.image, config.calibration, options.corners)
            after_events(reader, session.observe(stills.read(frame.image, t=t)))
    except KeyboardInterrupt:
        pass
    finally:
        closing = True
        notifier.stopping()
        supervisor.close()
