"""Film a staged session: render each distinct shot once, read every frame with the real pipeline.

Rendering costs about 50 CPU milliseconds a frame and reading a changed frame
about 35, so the camera is frugal where a real one is not: each distinct
:class:`~.timeline.Shot` is rendered once, and its frames alternate between
that rendering and the same picture with sensor noise added (a noise field
drawn once per camera and shifted for each shot, so frames of a held state
are not bit-identical and no two shots share their noise).  Every frame still
goes through :class:`vision.pipeline.BoardReader` in stream mode with the
vision's default settings, wrapped in :class:`vision.stills.DiceStills` as the
live referee wraps it (``controller/referee/live.py``), and with the field's
true corners as a calibration would give them: its motion gate skips
unchanged frames, re-reads an occluded one a few times and re-reads a still
board now and then, and once dice have settled it asks for one
high-resolution still, which is the shot rendered again at
:data:`STILL_SCALE` times the frame size (what ``SyntheticCamera`` gives the
live referee in ``bgref demo``).  So the observations carry the vision's real
errors (a misread that sticks until the next full read, a hand the occlusion
stage missed, a cocked die read flat).

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
from vision.pipeline import BoardReader
from vision.stills import DiceStills
from vision.synth.render import render

Image = npt.NDArray[np.uint8]
SENSOR_NOISE = 1.5
"""Grey levels (standard deviation) of the sensor noise on a shot's second frame."""
STILL_SCALE = 2.0
"""A still's size as a multiple of the frame's (``SyntheticCamera``'s default ``still_scale``)."""
NOISE_MARGIN = 64
"""Pixels the noise field is larger than a frame each way; each shot takes a window of it
at a random offset (drawing 2.8 million normal numbers per shot cost a fifth of filming)."""


@dataclass
class FilmStats:
    """What filming cost (CPU seconds of this process)."""

    frames: int = 0
    renders: int = 0
    reads: int = 0
    """Frames the pipeline read in full (the rest its motion gate answered from the last)."""
    stills: int = 0
    """High-resolution stills the dice reader asked for (settled dice)."""
    render_seconds: float = 0.0
    still_seconds: float = 0.0
    read_seconds: float = 0.0


class Camera:
    """Renders shots (remembering the last few) and reads frames through one BoardReader."""

    def __init__(self, table: Table, seed: int, keep: int = 6) -> None:
        self.table = table
        self.noise = np.random.default_rng([seed, 17])
        self._field: tuple[Image, Image] | None = None
        self._shots: OrderedDict[Shot, tuple[tuple[Image, Image], dict[str, Any]]] = \
            OrderedDict()
        self._keep = keep
        self.reader: DiceStills | None = None
        self.stats = FilmStats()
        self._shown: Shot | None = None
        self._stills: tuple[Shot, Image] | None = None

    def _noisy(self, frame: Image) -> Image:
        """``frame`` with sensor noise: a window of the camera's noise field at a random
        offset, added and subtracted with saturation (as ``clip(frame + noise)``)."""
        height, width = frame.shape[:2]
        if self._field is None or self._field[0].shape[:2] != (height + 2 * NOISE_MARGIN,
                                                                width + 2 * NOISE_MARGIN):
            shape = (height + 2 * NOISE_MARGIN, width + 2 * NOISE_MARGIN, *frame.shape[2:])
            levels = self.noise.normal(0.0, SENSOR_NOISE, shape).astype(np.int16)
            self._field = (np.clip(levels, 0, 255).astype(np.uint8),
                           np.clip(-levels, 0, 255).astype(np.uint8))
        dy, dx = (int(v) for v in self.noise.integers(0, 2 * NOISE_MARGIN + 1, 2))
        up, down = (np.ascontiguousarray(f[dy:dy + height, dx:dx + width])
                    for f in self._field)
        return np.asarray(cv2.subtract(cv2.add(frame, up), down), dtype=np.uint8)

    def take(self, shot: Shot) -> tuple[tuple[Image, Image], dict[str, Any]]:
        """The shot's two frames and what they truly show."""
        self._shown = shot
        if shot in self._shots:
            self._shots.move_to_end(shot)
            return self._shots[shot]
        start = time.process_time()
        frame, truth = render(self.table.scene(shot))
        second = self._noisy(frame)
        self.stats.render_seconds += time.process_time() - start
        self.stats.renders += 1
        if self.reader is None:
            corners = truth.observation.corners
            assert corners is not None
            height, width = frame.shape[:2]
            calibration = Calibration(corners, "manual", (width, height),
                                      profile=self.table.base.profile)
            reader = BoardReader(calibration=calibration, stream=True)
            self.reader = DiceStills(reader, self._still, reader.config.stills)
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

    def _still(self) -> Still | None:
        """The shot on show rendered again at :data:`STILL_SCALE` (one per shot)."""
        shot = self._shown
        if shot is None:
            return None
        start = time.process_time()
        (frame, _), _ = self._shots[shot]
        height, width = frame.shape[:2]
        if self._stills is None or self._stills[0] != shot:
            image, _ = render(self.table.scene(shot),
                              (round(width * STILL_SCALE), round(height * STILL_SCALE)))
            self._stills = (shot, image)
            self.stats.stills += 1
        image = self._stills[1]
        self.stats.still_seconds += time.process_time() - start
        return Still(image, (0, 0, width, height),
                     (image.shape[1] / width, image.shape[0] / height), 0.0)

    def read(self, frame: Image, t: float) -> dict[str, Any]:
        assert self.reader is not None
        start = time.process_time()
        observation = self.reader.read(frame, t=t)
        self.stats.read_seconds += time.process_time() - start
        self.stats.frames += 1
        self.stats.reads += int(self.reader.reader.fresh)
        return observation.to_json()


def film(table: Table, seed: int, moments: list[Moment], presses: list[Press], fps: float,
         labels: list[dict[str, Any]] | None = None,
         stats: FilmStats | None = None) -> Iterator[dict[str, Any]]:
    """The replay lines of a session, in time order.

    ``labels``, when given, receives one entry per moment: its start, length,
    what happens and what the frame truly shows.  ``stats`` is filled in.
    """
    cv2.setNumThreads(1)
    camera = Camera(table, seed)
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
