"""The demo's synthetic camera: a staged match turned into frames, one at a time.

The director (:mod:`controller.simulation.director`) writes a self-played match as
*moments*, each a shot of the table held for a while, and the button presses
the players make.  :class:`FilmProducer` is the ``(seq, t) -> image`` producer
a :class:`~vision.camera.synthetic.SyntheticCamera` asks for each frame: it
finds the moment frame ``seq`` belongs to, renders that shot with
:mod:`vision.synth` (once per distinct shot; a second copy with fresh sensor
noise alternates with it, so a held scene is not bit-identical from frame to
frame, as no real sensor's is), and before handing the frame over makes the
presses due by then, so a press reaches the referee before the frame that
follows it, as it would at a table.

Frames are counted the way the director counts time (every moment lasts a
whole number of frames), so frame ``seq`` shows exactly what the director
staged at ``seq / fps``.  After the last moment the producer raises
:class:`~vision.errors.EndOfStreamError`: the film is over, and the live
loop ends as it does at the end of a recording.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from controller.simulation.table import Table
from controller.simulation.timeline import Moment, Press, Shot
from vision.calibration import Calibration
from vision.errors import EndOfStreamError
from vision.synth.render import render

Image = npt.NDArray[np.uint8]
SENSOR_NOISE: Final = 1.5
"""Grey levels of the noise on a shot's second rendering."""
KEEP_SHOTS: Final = 6
"""Rendered shots remembered: the director returns to the last few (hands come and go)."""

PressHandler = Callable[[Press], None]


class FilmProducer:
    """Frames of the staged moments at ``fps``; presses handed to ``on_press`` on time."""

    def __init__(self, table: Table, moments: Sequence[Moment], presses: Sequence[Press],
                 fps: float, seed: int, on_press: PressHandler | None = None) -> None:
        if not moments:
            raise ValueError("a film needs at least one moment")
        self.table = table
        self.fps = fps
        self.on_press = on_press
        self._moments = list(moments)
        self._starts: list[int] = []
        frames = 0
        for moment in self._moments:
            self._starts.append(frames)
            frames += max(1, round(moment.duration * fps))
        self.frames = frames
        """How many frames the film has."""
        self._presses = sorted(presses, key=lambda p: p.t)
        self._next_press = 0
        self._noise = np.random.default_rng([seed, 17])
        self._shots: OrderedDict[Shot, tuple[Image, Image]] = OrderedDict()
        self.renders = 0
        self.frames_shown = 0
        """Frames handed out so far (all of them once the film has run to its end)."""
        self.label = ""
        """What the latest frame shows happening (``dice``, ``moving``, ...)."""
        self._shown: Shot | None = None
        self.stills = 0
        """High-resolution stills rendered (the camera asks for one per settled throw)."""

    @property
    def duration(self) -> float:
        """Seconds of film."""
        return self.frames / self.fps

    def calibration(self) -> Calibration:
        """The field's corners in the first frame, as a calibration would find them.

        The camera never moves during the film, so one calibration serves it all.
        """
        image, truth = render(self.table.scene(self._moments[0].shot))
        corners = truth.observation.corners
        if corners is None:  # the renderer always sees the field it drew
            raise ValueError("the first shot does not show the field's corners")
        height, width = image.shape[:2]
        return Calibration(corners, "manual", (width, height), profile=self.table.base.profile)

    def __call__(self, seq: int, t: float) -> Image:
        if seq >= self.frames:
            self._press_until(float("inf"))
            raise EndOfStreamError(f"the demo's film is over after {self.frames} frames")
        t_frame = round(seq / self.fps, 4)
        self._press_until(t_frame)
        self.frames_shown = max(self.frames_shown, seq + 1)
        index = bisect.bisect_right(self._starts, seq) - 1
        moment = self._moments[index]
        self.label = moment.label
        self._shown = moment.shot
        first, second = self._take(moment.shot)
        return first if (seq - self._starts[index]) % 2 == 0 else second

    def still(self, scale: float) -> Image | None:
        """The latest frame's shot rendered again at ``scale`` times the frame size
        (what a Pi camera's still gives the dice reader)."""
        if self._shown is None:
            return None
        frame, _ = self._take(self._shown)
        height, width = frame.shape[:2]
        image, _ = render(self.table.scene(self._shown),
                          (round(width * scale), round(height * scale)))
        self.stills += 1
        return image

    def _press_until(self, t: float) -> None:
        while self._next_press < len(self._presses) and \
                self._presses[self._next_press].t <= t + 1e-9:
            press = self._presses[self._next_press]
            self._next_press += 1
            if self.on_press is not None:
                self.on_press(press)

    def _take(self, shot: Shot) -> tuple[Image, Image]:
        if shot in self._shots:
            self._shots.move_to_end(shot)
            return self._shots[shot]
        frame, _ = render(self.table.scene(shot))
        noise = self._noise.normal(0.0, SENSOR_NOISE, frame.shape).astype(np.int16)
        second = np.clip(frame.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        self.renders += 1
        self._shots[shot] = (frame, second)
        while len(self._shots) > KEEP_SHOTS:
            self._shots.popitem(last=False)
        return frame, second
