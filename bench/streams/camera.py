"""Film a staged session: render each distinct shot once, read every frame with the real pipeline.

Rendering costs tens of milliseconds a frame and reading a changed frame
about as much, so the camera is frugal where a real one is not: each
distinct :class:`~.timeline.Shot` is rendered once (and a second time with
fresh sensor noise added, so frames of a held state are not bit-identical),
and the frames of a moment alternate between the two.  Every frame still
goes through :class:`vision.pipeline.BoardReader` in stream mode, with the
field's true corners as a calibration would give them: its motion gate skips
unchanged frames and re-reads one now and then, exactly as live, so the
observations carry the vision's real errors (a misread that sticks until the
next full read, a hand the occlusion stage missed, a cocked die read flat).

The output is the ``bgref referee --replay`` format: one JSON object a line,
observations (the schema-1 object with ``t``) and button presses in time
order.  Beside it, per moment, what the frame truly showed, so a wrong call
can be traced to the vision, the stabiliser or the referee.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from controller.simulation.table import Table
from controller.simulation.timeline import Moment, Press, Shot
from vision.calibration import Calibration
from vision.camera.base import Still
from vision.config import VisionConfig
from vision.motion import MotionConfig
from vision.observation import Observation
from vision.pipeline import BoardReader
from vision.synth.render import render

Image = npt.NDArray[np.uint8]
SENSOR_NOISE = 1.5
"""Grey levels of the extra noise on a shot's second rendering."""


@dataclass
class FilmStats:
    """What filming cost."""

    frames: int = 0
    renders: int = 0
    render_seconds: float = 0.0
    read_seconds: float = 0.0


class ReleasingReader(BoardReader):
    """The stream reader with its motion gate kept off occluded observations.

    ``BoardReader`` in stream mode repeats its last observation for frames the
    motion gate finds unchanged.  When that observation is *occluded* (the
    occlusion tracker holds "occluded" until ``release_frames`` clear frames
    have been read after a hand), the frames of the now clear, still board are
    never read, the tracker never sees its second clear frame, and the board
    stays "occluded" until the gate's ``max_skipped`` re-read: 3 s at 10
    frames a second after every hand (``bench/README.md`` has the reproducer).
    This subclass reads every frame while the last observation is occluded:
    the one-line change proposed for :meth:`BoardReader.read`.  It changes
    nothing once the pipeline does that itself.
    """

    def read(self, frame: Image, *, t: float | None = None,
             still: Still | None = None) -> Observation:
        last = self._last
        if self.stream and last is not None and last.occluded:
            self._gate.changed(frame)  # keep the gate's reference frame current
            observation = self._read(frame, t, still)
            self._last = observation
            return observation
        return super().read(frame, t=t, still=still)


DIE_GATE = MotionConfig(changed_share=0.0001)
"""A motion gate that notices a die.  The default gate wants 0.2 % of its 160-pixel-wide
thumbnail changed (29 pixels); two dice coming to rest change about a dozen, so a throw
onto a still board is not read until the gate's ``max_skipped`` re-read, 3 s later at 10
frames a second.  0.01 % (two thumbnail pixels) still ignores sensor noise, which the
thumbnail averages away."""


class Camera:
    """Renders shots (remembering the last few) and reads frames through one BoardReader."""

    def __init__(self, table: Table, seed: int, keep: int = 6, *, as_is: bool = False) -> None:
        """``as_is``: read with :class:`BoardReader` and the vision's default settings
        rather than :class:`ReleasingReader` and :data:`DIE_GATE`."""
        self.table = table
        self.as_is = as_is
        self.noise = np.random.default_rng([seed, 17])
        self._shots: OrderedDict[Shot, tuple[tuple[Image, Image], dict[str, Any]]] = \
            OrderedDict()
        self._keep = keep
        self.reader: BoardReader | None = None
        self.stats = FilmStats()

    def take(self, shot: Shot) -> tuple[tuple[Image, Image], dict[str, Any]]:
        """The shot's two frames and what they truly show."""
        if shot in self._shots:
            self._shots.move_to_end(shot)
            return self._shots[shot]
        start = time.perf_counter()
        frame, truth = render(self.table.scene(shot))
        noise = self.noise.normal(0.0, SENSOR_NOISE, frame.shape).astype(np.int16)
        second = np.clip(frame.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        self.stats.render_seconds += time.perf_counter() - start
        self.stats.renders += 1
        if self.reader is None:
            corners = truth.observation.corners
            assert corners is not None
            height, width = frame.shape[:2]
            calibration = Calibration(corners, "manual", (width, height),
                                      profile=self.table.base.profile)
            if self.as_is:
                self.reader = BoardReader(calibration=calibration, stream=True)
            else:
                self.reader = ReleasingReader(VisionConfig(motion=DIE_GATE),
                                              calibration=calibration, stream=True)
        seen = truth.observation.to_json()
        label = {"points": [[c["light"], c["dark"]] for c in seen["points"]],
                 "bar": [seen["bar"]["light"], seen["bar"]["dark"]],
                 "off": None if seen["off"] is None else [seen["off"]["light"],
                                                          seen["off"]["dark"]],
                 "dice": [[d["value"], d["flat"], d["on_checker"], d["side"]]
                          for d in seen["dice"]],
                 "occluded": seen["occluded"], "hand_cover": round(truth.hand_cover, 4)}
        self._shots[shot] = ((frame, second), label)
        while len(self._shots) > self._keep:
            self._shots.popitem(last=False)
        return self._shots[shot]

    def read(self, frame: Image, t: float) -> dict[str, Any]:
        assert self.reader is not None
        start = time.perf_counter()
        observation = self.reader.read(frame, t=t)
        self.stats.read_seconds += time.perf_counter() - start
        self.stats.frames += 1
        return observation.to_json()


def film(table: Table, seed: int, moments: list[Moment], presses: list[Press], fps: float,
         labels: list[dict[str, Any]] | None = None, stats: FilmStats | None = None, *,
         as_is: bool = False) -> Iterator[dict[str, Any]]:
    """The replay lines of a session, in time order.

    ``labels``, when given, receives one entry per moment: its start, length,
    what happens and what the frame truly shows.  ``stats`` is filled in.
    """
    cv2.setNumThreads(1)
    camera = Camera(table, seed, as_is=as_is)
    pending = sorted(presses, key=lambda p: p.t)
    index = 0
    frame_no = 0
    t = 0.0
    for moment in moments:
        (first, second), label = camera.take(moment.shot)
        if labels is not None:
            labels.append({"t": round(t, 4), "duration": round(moment.duration, 4),
                           "label": moment.label, **label})
        frames = max(1, round(moment.duration * fps))
        for k in range(frames):
            t_frame = round(frame_no / fps, 4)
            while index < len(pending) and pending[index].t <= t_frame + 1e-9:
                yield pending[index].to_json()
                index += 1
            yield camera.read(first if k % 2 == 0 else second, t_frame)
            frame_no += 1
        t += frames / fps
    while index < len(pending):
        yield pending[index].to_json()
        index += 1
    if stats is not None:
        stats.__dict__.update(camera.stats.__dict__)
